"""Best-effort (subject, predicate, object) keys from one sentence, by rules, offline.

Covers the shapes people use when they state a fact: "Arttu deploys arttuan.com on
Vercel" (named declarative), "The deploy target is prod" (copula), "my editor is Helix" /
"Arttu's editor is Helix" (possessive), "I live in Berlin" (first person). Anything else
gets no key: the fact is stored with a null key and checked by vectors only.

First-person sentences are rewritten in the third person ("I live in Berlin" ->
"The user lives in Berlin"), because the stored sentence is what a model reads later,
out of the context in which "I" meant somebody.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fact import normalize_predicate

COPULAS = {"is": "be", "are": "be", "was": "be", "were": "be", "am": "be"}
PREPOSITIONS = (
    "in", "at", "on", "for", "with", "to", "from", "as", "by", "into", "of", "about", "near",
)
ARTICLES = ("the", "a", "an", "our", "their", "his", "her", "its", "this", "that")
# modal or hedged openings are the gate's business; the parser only refuses to key them
_NOT_A_VERB = {"really", "also", "always", "usually", "now", "still", "just", "often", "never"}

#: relations that mean the same thing share one predicate key
PREDICATE_SYNONYMS = {
    "love": "like",
    "enjoy": "like",
    "prefer": "like",
    "reside_in": "live_in",
    "be_based_in": "live_in",
    "live_at": "live_in",
    "work_for": "work_at",
    "be_employed_at": "work_at",
    "be_employed_by": "work_at",
    "utilize": "use",
    "utilise": "use",
    "deploy_to": "deploy_on",
}

#: relations a subject can have many of; a different object there is new, not a contradiction
MULTI_VALUED = frozenset(
    {
        "like", "dislike", "use", "have", "know", "speak", "play", "own", "read", "watch",
        "visit", "eat", "drink", "write", "build", "maintain", "contribute_to", "follow",
        "collect", "teach", "study", "learn", "listen_to", "attend", "support", "need",
        "run", "host", "manage", "work_on", "care_about", "volunteer_at", "enjoy", "be_a",
    }
)

_IRREGULAR_LEMMA = {"has": "have", "does": "do", "goes": "go", "is": "be", "'s": "be"}
_IRREGULAR_THIRD = {"be": "is", "am": "is", "have": "has", "do": "does", "go": "goes"}
_WORD = re.compile(r"[\w.@#+/'-]+|[^\w\s]")


@dataclass(frozen=True)
class ParsedKey:
    subject: str  # as written ("Arttu", "deploy target", "I")
    predicate: str  # normalised ("live_in", "be", "editor")
    object: str  # as written, trimmed
    text: str  # the sentence to store (third person for first-person input)
    first_person: bool = False


def lemma(verb: str) -> str:
    """Third-person singular to base form: lives -> live, watches -> watch, has -> have."""
    v = verb.lower()
    if v in _IRREGULAR_LEMMA:
        return _IRREGULAR_LEMMA[v]
    if v.endswith("ies") and len(v) > 4:
        return v[:-3] + "y"
    if v.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return v[:-2]
    if v.endswith("s") and not v.endswith(("ss", "us", "is")):
        return v[:-1]
    return v


def third_person(verb: str) -> str:
    """Base form to third-person singular: live -> lives, watch -> watches, am -> is."""
    v = verb.lower()
    if v in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[v]
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return v + "es"
    if v.endswith("y") and len(v) > 1 and v[-2] not in "aeiou":
        return v[:-1] + "ies"
    return v + "s"


def canonical_predicate(verb_lemma: str, rest: list[str]) -> tuple[str, list[str]]:
    """Fold a leading preposition into the predicate: live + [in, Berlin] -> live_in."""
    pred = verb_lemma
    if verb_lemma == "be" and rest and rest[0].lower() in ("a", "an") and len(rest) > 1:
        # "is a nurse", "is a father": a kind of thing one is, and one can be many
        return "be_a", rest
    if rest and rest[0].lower() in PREPOSITIONS and len(rest) > 1:
        pred = f"{verb_lemma}_{rest[0].lower()}"
        rest = rest[1:]
    pred = normalize_predicate(pred)
    return PREDICATE_SYNONYMS.get(pred, pred), rest


def display_name(subject_key: str) -> str:
    """How a subject key reads in a sentence: user -> The user, arttu -> Arttu."""
    if subject_key == "user":
        return "The user"
    return " ".join(w[:1].upper() + w[1:] for w in subject_key.split())


def _clean_object(tokens: list[str]) -> str:
    text = " ".join(tokens).strip()
    text = re.sub(r"\s+([.,!?;:])", r"\1", text)
    return text.rstrip(".!;:, ").strip()


def _sentence(text: str) -> str:
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def _expand_contractions(text: str) -> str:
    text = re.sub(r"\bI'm\b", "I am", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI've\b", "I have", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI'd\b", "I would", text, flags=re.IGNORECASE)
    text = re.sub(r"\bdon't\b", "do not", text, flags=re.IGNORECASE)
    text = re.sub(r"\bdoesn't\b", "does not", text, flags=re.IGNORECASE)
    return re.sub(r"[’`]", "'", text)


def _first_person(tokens: list[str], self_name: str) -> ParsedKey | None:
    """I <verb> <rest>, I am <x>, I do not <verb> <rest>."""
    if len(tokens) < 3 or tokens[0] != "I":
        return None
    i = 1
    negated = False
    while i < len(tokens) - 1 and tokens[i].lower() in _NOT_A_VERB:
        i += 1  # "I also like snakes": the adverb is not the verb
    if tokens[i].lower() in ("do", "did") and len(tokens) > i + 2 and tokens[i + 1] == "not":
        negated, i = True, i + 2
    if tokens[i].lower() in ("will", "would", "might", "may", "could", "should"):
        return None
    verb = tokens[i].lower()
    rest = tokens[i + 1 :]
    if not rest:
        return None
    base = "be" if verb in ("am", "was") else verb
    pred, obj_tokens = canonical_predicate(base, rest)
    if negated:
        pred = "not_" + pred
    obj = _clean_object(obj_tokens)
    if not obj:
        return None
    if negated:
        verb_out = "does not " + verb
    elif verb == "was":
        verb_out = "was"
    else:
        verb_out = third_person(base)
    tail = " ".join(_rewrite_rest(rest, self_name))
    text = _sentence(f"{self_name} {verb_out} {tail}")
    return ParsedKey("I", pred, obj, text, first_person=True)


def _rewrite_rest(tokens: list[str], self_name: str) -> list[str]:
    """Later first-person words in the sentence: "and I walk him" -> "and Arttu walks him"."""
    out: list[str] = []
    name = "the user" if self_name == "The user" else self_name
    skip = False
    for n, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        nxt = tokens[n + 1] if n + 1 < len(tokens) else ""
        if token == "I" and re.fullmatch(r"[a-z]+", nxt):
            base = "be" if nxt in ("am", "was") else nxt
            out += [name, "was" if nxt == "was" else third_person(base)]
            skip = True
        elif token == "I":
            out.append(name)
        else:
            out.append(_my_to_possessive(token, self_name))
    return out


def _my_to_possessive(token: str, self_name: str) -> str:
    low = token.lower()
    if low == "my":
        return f"{self_name.lower() if self_name == 'The user' else self_name}'s"
    if low in ("me", "myself"):
        return "the user" if self_name == "The user" else self_name
    return token


def _possessive(tokens: list[str], self_name: str) -> ParsedKey | None:
    """my X is Y / Arttu's X is Y."""
    owner_end = None
    first_person = False
    if tokens[0].lower() == "my":
        owner, owner_end, first_person = "I", 1, True
    else:
        for j, tok in enumerate(tokens[:4]):
            if tok.endswith("'s") and len(tok) > 2 and tok[0].isupper():
                owner = " ".join(tokens[:j] + [tok[:-2]])
                owner_end = j + 1
                break
    if owner_end is None:
        return None
    copula = any(t.lower() in ("is", "are", "was", "were") for t in tokens[owner_end + 1 :])
    if not copula:
        return _possessive_verb(tokens, owner, owner_end, first_person, self_name)
    for j in range(owner_end + 1, len(tokens) - 1):
        if tokens[j].lower() in ("is", "are", "was", "were"):
            attr = " ".join(tokens[owner_end:j])
            obj = _clean_object(tokens[j + 1 :])
            if not attr or not obj:
                return None
            pred = normalize_predicate(attr)
            text = _possessive_text(tokens, first_person, self_name)
            return ParsedKey(owner, pred, obj, text, first_person=first_person)
    return None


def _possessive_text(tokens: list[str], first_person: bool, self_name: str) -> str:
    """The sentence to store: "my X ..." becomes "<name>'s X ..."."""
    if not first_person:
        return _sentence(" ".join(tokens))
    lead = "The user's" if self_name == "The user" else f"{self_name}'s"
    return _sentence(f"{lead} {' '.join(tokens[1:])}")


def _possessive_verb(tokens: list[str], owner: str, owner_end: int, first_person: bool,
                     self_name: str) -> ParsedKey | None:
    """Arttu's commit messages follow the Conventional Commits format: the verb is the word
    before the object's first article, preposition or name."""
    marks = [j for j in range(owner_end + 1, len(tokens) - 1)
             if tokens[j + 1].lower() in ARTICLES or tokens[j + 1].lower() in PREPOSITIONS
             or tokens[j + 1][:1].isupper()]
    for j in marks[:1] or [owner_end + 1]:  # else: a one-word attribute ("my kids love ...")
        if j < len(tokens) - 1:
            attr, verb = tokens[owner_end:j], tokens[j].lower()
            if not attr or not re.fullmatch(r"[a-z]+", verb):
                return None
            pred, obj_tokens = canonical_predicate(lemma(verb), tokens[j + 1 :])
            obj = _clean_object(obj_tokens)
            if not obj:
                return None
            predicate = normalize_predicate(" ".join(attr)) + "_" + pred
            text = _possessive_text(tokens, first_person, self_name)
            return ParsedKey(owner, predicate, obj, text, first_person=first_person)
    return None


def _named_or_copula(tokens: list[str]) -> ParsedKey | None:
    """Arttu deploys X on Y / The deploy target is prod / Postgres 16 is the database."""
    if tokens[0].lower() in ("my", "our", "your"):
        return None  # an owner without a name: the possessive parser's business
    start = 1 if tokens[0].lower() in ARTICLES else 0
    # subject: a run of capitalised words (a name), or a noun phrase up to its verb
    if tokens[start][:1].isupper() or tokens[start][:1].isdigit():
        j = start
        while j < len(tokens) and (tokens[j][:1].isupper() or tokens[j][:1].isdigit()):
            j += 1
    else:
        j = start
        for k in range(start + 1, min(len(tokens) - 1, start + 5)):
            low_k = tokens[k].lower()
            if low_k in COPULAS or low_k in ("has", "have") or re.fullmatch(r"[a-z]+s", low_k):
                j = k
                break
    if j <= start or j >= len(tokens) - 1:
        return None
    subject = " ".join(tokens[start:j])
    verb = tokens[j]
    low = verb.lower()
    if low in _NOT_A_VERB or low in ("will", "would", "might", "may", "could", "should"):
        return None
    if not re.fullmatch(r"[a-z][a-z'-]*", low):
        return None
    negated = False
    rest = tokens[j + 1 :]
    if low in ("does", "do") and rest and rest[0].lower() == "not" and len(rest) > 2:
        negated, low, rest = True, rest[1].lower(), rest[2:]
    base = COPULAS.get(low) or lemma(low)
    regular = low.endswith("s") or low in ("do", "have") or negated
    # a plural or unknown verb form: still key it when it follows a capitalised name
    if base != "be" and not regular and not tokens[start][:1].isupper():
        return None
    pred, obj_tokens = canonical_predicate(base, rest)
    if negated:
        pred = "not_" + pred
    obj = _clean_object(obj_tokens)
    if not obj:
        return None
    return ParsedKey(subject, pred, obj, _sentence(" ".join(tokens)))


def parse_key(text: str, *, self_name: str = "The user") -> ParsedKey | None:
    """Find a (subject, predicate, object) key in a plain statement, or None.

    `self_name` is how the scope's canonical subject reads in a sentence; first-person
    statements are rewritten with it.
    """
    sentence = _expand_contractions(text.strip())
    sentence = re.sub(r"^(remember( that)?|note( that)?|fyi)[:,]?\s+", "", sentence, flags=re.I)
    tokens = _WORD.findall(sentence.rstrip(".!"))
    if len(tokens) < 3 or sentence.endswith("?"):
        return None
    tokens[0] = "I" if tokens[0] == "i" else tokens[0]
    for parser in (_first_person,):
        found = parser(tokens, self_name)
        if found:
            return found
    return _possessive(tokens, self_name) or _named_or_copula(tokens)
