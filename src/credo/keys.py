"""Reading one statement: what kind of utterance it is, its best-effort (subject,
predicate, object) key, and the sentence to store. The one English engine in credo: the
explicit `remember` path, ingest and the suppression rules all read sentences here.

The parse comes from spaCy (`credo.nlp`); this module decides, from the dependency tree:

- the **kind**: a statement, a question, an instruction ("Write me a poem"), or a
  fragment with no verb;
- the **key**: subject as written ("I", "Arttu", "deploy target", "we"), a normalised
  predicate (`live_in`, `use`, `be`, `be_allergic_to`, `has_editor`, `is`; `not_` in
  front when the statement is negated: "never", "not", "no longer", "used to",
  "stopped ...ing") and the object as written ("Python 3.11", "Turku, Finland");
- the **stored sentence**: the user's words, byte for byte, except that a first-person
  speaker becomes the scope's subject ("I never drink coffee" -> "The user never drinks
  coffee"), with the verb inflected by `lemminflect`. When a rewrite cannot be made
  correctly, the sentence is stored as it was said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .fact import normalize_predicate, one_spelling
from .language import words
from .language.persons import is_kind_of_person
from .language.places import is_place
from .values import money, number_value

if TYPE_CHECKING:
    from collections.abc import Sequence

    from spacy.tokens import Doc, Span, Token

__all__ = [
    "Statement",
    "analyse",
    "changed_value",
    "denies_the_past",
    "display_name",
    "elided_subject",
    "first_sentence",
    "parse_key",
    "relative_thing",
    "rewrite",
    "since_said",
    "values_in_passing",
]

#: explicit wrappers that say "this is for you to keep"; not part of the fact
_WRAPPER = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|keep\s+in\s+mind|fyi|for\s+the\s+record|"
    r"just\s+so\s+you\s+know|"
    # "i should mention im vegan", "i forgot to say that ...", "i should add ..."
    r"i\s+(?:should|must|need\s+to|forgot\s+to|meant\s+to)\s+(?:mention|say|add|tell\s+you)"
    r")(?:\s+that)?\s*[:,]?\s+(?=\S)",
    re.IGNORECASE,
)
_SUBJ = ("nsubj", "nsubjpass", "csubj", "expl")
_COMPLEMENTS = ("attr", "acomp", "oprd")
_NEG_WORDS = frozenset({"not", "n't", "never", "no", "nt"})
#: verbs whose complement carries the relation: "I stopped using Vim" is about using Vim
_ENDED = frozenset({"stop", "quit", "cease"})
_BEGUN = frozenset({"start", "begin"})
#: "I managed to fix the leak" is keyed as "I fixed the leak"
_IMPLICATIVE = words("implicative_verbs")
#: objects of a preposition that say when or how, not where or for whom
_WHEN_NOT_WHERE = frozenset(
    {
        "night",
        "day",
        "weekend",
        "morning",
        "evening",
        "afternoon",
        "noon",
        "midnight",
        "home",
        "moment",
        "time",
        "least",
        "first",
        "once",
        "all",
        "most",
        "dawn",
        "dusk",
        "lunch",
        "dinner",
        "breakfast",
        "work",
        "school",
        "week",
        "month",
        "year",
    }
)
_ADVERBS = frozenset(
    {
        "anymore",
        "again",
        "too",
        "either",
        "often",
        "well",
        "much",
        "more",
        "very",
        "now",
        "then",
        "there",
        "here",
        "always",
        "never",
        "ever",
        "yet",
        "still",
        "away",
        "back",
        "together",
        "alone",
        "home",
        "abroad",
        "daily",
        "weekly",
        "early",
        "late",
        "hard",
        "fast",
        "enough",
        "anyway",
        "though",
        "so",
        "also",
        "just",
        "already",
        "sometimes",
        "anywhere",
        "everywhere",
        "outside",
        "inside",
        "online",
        "overseas",
        "less",
        "most",
    }
)
#: verbs that take an object (so a lone word after them is one)
_TAKES_OBJECT = frozenset(
    {
        "like",
        "love",
        "hate",
        "enjoy",
        "prefer",
        "eat",
        "drink",
        "use",
        "own",
        "have",
        "play",
        "speak",
        "watch",
        "read",
        "want",
        "need",
        "adore",
        "dislike",
        "wear",
        "drive",
        "cook",
        "grow",
        "study",
    }
)
#: verbs of changing from one value to another: the new value is the object
_CHANGES = frozenset({"move", "relocate", "switch", "migrate", "change", "go", "transfer"})
#: which way a move went, said as a particle: "moved up to", "relocated down to"
_WAYS = frozenset({"up", "down", "over", "across", "back", "away"})
_MONTHS = frozenset(
    {
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
    }
)


def _is_when(token: Token) -> bool:
    """A time, not a place or a thing: "at night", "since 2020", "in 1988", "in June"."""
    low = token.lemma_.lower()
    return (
        low in _WHEN_NOT_WHERE
        or token.like_num
        or low in _MONTHS
        or token.ent_type_ in ("DATE", "TIME")
    )


_REAL_AUX = frozenset(
    {
        "be",
        "have",
        "do",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "to",
        "get",
        "ought",
        "need",
        "dare",
        "ca",
        "wo",
        "'d",
        "'ll",
        "gon",
        "going",
    }
)
_PREFERENCE = frozenset(
    {"like", "love", "enjoy", "prefer", "hate", "adore", "dislike", "detest", "loathe"}
)
QUESTION_OPENERS = frozenset(
    {
        "what",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "why",
        "how",
        "which",
    }
)
AUX_OPENERS = frozenset(
    {
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "will",
        "shall",
        "should",
        "is",
        "are",
        "was",
        "were",
        "am",
        "have",
        "has",
        "may",
        "might",
        "must",
    }
)
#: "is" and "are" as typed after a question word: "what's", "whats" ("what" + "s"), "how're"
_IS_CLITICS = frozenset({"'s", "'re", "’s", "’re", "s", "re"})
#: second-person openers that ask the assistant to do something
_REQUEST_OPENERS = re.compile(
    r"^\s*(?:please\s+|pls\s+|kindly\s+)?(?:can|could|would|will)\s+(?:you|u)\b|"
    r"^\s*(?:please|pls|kindly)\s+(?!(?:don'?t|do\s+not|never)\b)\w+|"
    r"^\s*(?:i\s+(?:want|need|would\s+like)\s+you\s+to)\b|^\s*let'?s\b",
    re.IGNORECASE,
)
#: a request closed by "please": "tldr this article pls", "no nuts in it please"
_PLEASE_LAST = re.compile(r"\b(?:please|pls|plz|plse)\W*$", re.IGNORECASE)
#: verbs that open a request to the assistant even when capitalised
_REQUEST_VERBS = frozenset(
    {
        "tell",
        "write",
        "show",
        "give",
        "make",
        "find",
        "send",
        "help",
        "explain",
        "summarize",
        "summarise",
        "list",
        "draft",
        "translate",
        "create",
        "generate",
        "remind",
        "book",
        "call",
        "email",
        "text",
        "schedule",
    }
)
#: subjects (or owners: "his car is a Volvo" is keyed on "his") that need an antecedent
_PRONOUN_SUBJECTS = frozenset(
    {"it", "this", "that", "he", "she", "they", "these", "those", "him", "her", "them", "there"}
    | {"his", "their", "its", "your"}
    # "mine is yellow" said with no question before it to say what is mine
    | {"mine", "yours", "hers", "ours", "theirs"}
)
_FIRST = frozenset({"i", "me", "my", "mine", "myself"})
#: a sentence that opens with a name (one to three capitalised words) and a lower-case word
_LEADING_NAME = re.compile(r"^((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*){0,2})(?=\s+[a-z])")
_PLACEHOLDER = "Sam"
#: a version number as written: 3.12.1, v20.11.0, 1.2.3-rc1
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:[-+][\w.]+)?", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """What one utterance says, as far as the parser can tell."""

    said: str  # the input, stripped of "remember that" wrappers
    text: str  # the sentence to store: `said`, with a first-person speaker named
    kind: str  # "statement" | "question" | "instruction" | "fragment"
    subject: str | None = None  # as written: "I", "Arttu", "deploy target", "we", "it"
    predicate: str | None = None  # normalised, "not_" in front when negated
    object: str | None = None  # as written
    negated: bool = False
    first_person: bool = False
    rewritten: bool = False  # text differs from said

    @property
    def keyed(self) -> bool:
        """A subject and a relation ("I drive" has no object, and is still a claim)."""
        return bool(self.subject and self.predicate)

    @property
    def pronoun_subject(self) -> bool:
        """The subject is a pronoun that needs an antecedent ("it", "they", "this"); not
        "IT" in capitals in a text that is not all capitals (the trade)."""
        subject = self.subject or ""
        acronym = len(subject) > 1 and subject.isupper() and not self.said.isupper()
        return subject.lower() in _PRONOUN_SUBJECTS and not acronym


def display_name(subject_key: str) -> str:
    """How a subject key reads in a sentence: user -> The user, arttu -> Arttu."""
    if subject_key == "user":
        return "The user"
    return " ".join(w[:1].upper() + w[1:] for w in subject_key.split())


def strip_wrapper(text: str) -> str:
    """ "Remember that I live in Berlin" -> "I live in Berlin"."""
    return _WRAPPER.sub("", text.strip(), count=1).strip()


_PARTICLES = words("chat_particles")
_TRAILING_PARTICLES = re.compile(
    r"(?:[\s,;:-]+(?:" + "|".join(sorted(map(re.escape, _PARTICLES))) + r"))+(?P<end>[.!?]*)\s*$",
    re.IGNORECASE,
)


#: ... never one that what follows is about: "thanks for the tip" thanks for something
_LEADING_PARTICLES = re.compile(
    r"^\s*(?:(?:"
    + "|".join(sorted(map(re.escape, _PARTICLES)))
    + r")\b(?!\s+(?:(?:so|very)\s+much\s+|a\s+lot\s+)?for\b)[\s,;:.!-]*)+",
    re.IGNORECASE,
)


_GREETED = words("greetings")
#: a greeting that opens a message: "morning! i moved to leeds", "hey, im sam", with the
#: word of address it may carry ("Hey Jo! Been ages", "hi mum, ...": the name is the
#: listener, never the subject of what follows) and a punctuation mark after it (so
#: that "morning runs are my thing" keeps its word), or "hi" / "hey" / "hello" before a
#: space
_LEADING_GREETING = re.compile(
    r"^\s*(?:(?:"
    + "|".join(sorted(map(re.escape, _GREETED), key=len, reverse=True))
    + r")(?:\s+[^\W\d_][\w'\u2019-]*)?\s*[,;:.!-]+|(?:hi|hey|hello|hiya)\s)\s*",
    re.IGNORECASE,
)


#: a linking verb ending what comes before a word ("i am | sorry", "feeling | ok")
_LINKING_LAST = re.compile(
    r"(?:\b(?:am|is|are|was|were|be|been|being|feel|feels|felt|feeling|seem|seems|seemed)"
    r"|['\u2019](?:m|re|s)|\b(?:im|ur|youre|theyre|hes|shes))\W*$",
    re.IGNORECASE,
)


def strip_particles(text: str) -> str:
    """ "i use arch btw" -> "i use arch", "btw im vegan now" -> "im vegan now", "im
    lactose intolerant fyi!" -> "im lactose intolerant!": words said to the listener, at
    the end or at the start, like a wrapper, are no part of the fact
    (`language/lexicon.toml`, "chat_particles")."""
    found = _TRAILING_PARTICLES.search(text)
    if (
        found is not None
        and found.start() > 0
        # "i am sorry", "we're ok": the word is what the subject is, no particle
        and not _LINKING_LAST.search(text[: found.start()])
    ):
        text = text[: found.start()] + found["end"]
    for leading in (_LEADING_GREETING, _LEADING_PARTICLES):
        lead = leading.match(text)
        if lead is not None and lead.end() < len(text.rstrip(".!? ")):
            text = text[lead.end() :]
    return text


def first_sentence(text: str) -> Span:
    from .nlp import parse

    return next(iter(parse(text).sents))


# -- the kind of utterance ------------------------------------------------------------------
#: words that put a sentence in the past ("quit smoking last year", "cut my hair 2 weeks ago")
_PAST_TIME = frozenset({"ago", "yesterday", "last"})


def _past_told(verb: Token, sent: Span) -> bool:
    """A verb whose past tense is spelt as its base form ("quit", "cut", "put"), in a
    sentence that says when in the past: "quit smoking last year" is a report, not a
    request to quit."""
    from .nlp import inflections, lemma_of

    return verb.lower_ in inflections(lemma_of(verb.lower_), "VBD") and any(
        t.lower_ in _PAST_TIME for t in sent
    )


#: what people ask an assistant for (lexicon "asked_for")
_ASKED_FOR = words("asked_for")


def _asks_for(root: Token) -> bool:
    """ "I need help with my resume", "i want some ideas for dinner", "I'd like feedback":
    the speaker needs or wants what one asks an assistant for."""
    if root.lemma_.lower() not in ("need", "want", "like", "love"):
        return False
    if root.lemma_.lower() in ("like", "love") and not any(
        c.lower_ in ("would", "'d", "d") for c in root.children
    ):
        return False  # "I like tips" is a taste; "I'd like tips" asks
    if not any(c.dep_ in _SUBJ and c.lower_ in ("i", "we") for c in root.children):
        return False
    return any(c.dep_ == "dobj" and c.lemma_.lower() in _ASKED_FOR for c in root.children)


#: verbs of one's own life nobody asks an assistant to do (lexicon "self_reports")
_SELF_REPORTS = words("self_reports")
#: where or as what one works: "work from home", "work at a bakery", "work as a nurse"
_WORKING_AT = frozenset({"at", "for", "from", "as", "in", "remotely", "nights", "shifts"})


def _noun_read_as_verb(root: Token) -> bool:
    """ "shellfish allergy here lol", "peanut allergy, no satay pls": a first word the
    tagger read as a verb in its base form though English has it only as a noun
    (lemminflect knows no verb of it), right before another noun: a thing named."""
    from lemminflect import getAllLemmas

    if root.tag_ != "VB" or root.i + 1 >= len(root.doc):
        return False
    known = getAllLemmas(root.lower_)
    return "NOUN" in known and "VERB" not in known and root.nbor().tag_ in ("NN", "NNS")


def shown_thing(verb: Token) -> bool:
    """ "love the scarf", "love your garden", "love that photo": a verb of liking whose
    object is a thing pointed at (the, this, that) or the listener's: said with no "I", in
    chat, it is praise of what the other shows or has, no taste of the speaker's ("love
    hiking", "love dogs", "love my allotment" are)."""
    if verb.tag_ not in ("VB", "VBP"):
        return False  # "loved that beach on our trip": what was lived, no reaction now
    for obj in verb.children:
        # the object, or a noun the tagger took for a clause ("love that photo")
        if obj.dep_ not in ("dobj", "ccomp") or obj.pos_ not in ("NOUN", "PROPN", "ADJ"):
            continue
        return any(
            c.dep_ == "det"
            and c.lower_ in ("the", "this", "that", "these", "those")
            or c.dep_ == "poss"
            and c.lower_ in ("your", "ur")
            for c in obj.children
        )
    return False


def _told_of_oneself(verb: Token) -> bool:
    """ "live in cardiff now", "own two bikes", "work from home these days": a verb of the
    speaker's own life opening the sentence has left its "I" out; it asks for nothing
    ("work out a plan" does)."""
    lemma = verb.lemma_.lower()
    if lemma == "have" and verb.i + 1 < len(verb.doc) and verb.nbor().like_num:
        return True  # "have two kids, both at school" ("have a look" asks)
    if lemma not in _SELF_REPORTS:
        return False
    if lemma in _PREFERENCE and shown_thing(verb):
        return False  # "love the scarf!", "love your garden": praise of what is shown
    if lemma != "work":
        return True
    return verb.i + 1 < len(verb.doc) and verb.nbor().lower_ in _WORKING_AT


def inverted_question(sent: Span) -> bool:
    """A question word followed, in its clause, by a verb put before its subject ("which
    scissors should i get", "what do we owe"): a question however it is punctuated ("what
    i should do is ..." tells)."""
    for tok in sent:
        if tok.tag_ not in ("WDT", "WP", "WRB") or not _opens_a_question(tok, sent):
            continue
        for aux in sent[tok.i - sent.start + 1 :]:
            if aux.lower_ in AUX_OPENERS and aux.i + 1 < sent.end:
                subject = aux.nbor()
                if subject.dep_ in ("nsubj", "nsubjpass") and subject.lower_ in _ASKERS:
                    return True
            if aux.dep_ in ("nsubj", "nsubjpass"):
                break  # the subject came first: no inversion
    return False


def _opens_a_question(wh: Token, sent: Span) -> bool:
    """Is the question word the start of a question of the sentence's own, not of a
    question it tells of ("i'm wondering how can i speed it up" tells a wondering)? It
    opens the sentence or follows a break, or the verb it belongs to is the root."""
    before = [t for t in sent if t.i < wh.i and not (t.is_punct or t.pos_ == "INTJ")]
    if not before or sent.doc[wh.i - 1].text in (",", ";", ":", "-", "–", "—"):
        return True
    verb = wh
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head
    return verb.dep_ == "ROOT"


#: the subjects a question to an assistant has: "should i ...", "can we ...", "do you ..."
_ASKERS = frozenset({"i", "we", "you"})


def _asks_first(verb: Token, sent: Span) -> bool:
    """A base-form verb with no subject of its own opening a sentence whose root the
    parse put elsewhere: a request, with a statement spliced on after a comma ("write a
    toast for my brother, he marries in june")."""
    return (
        verb.tag_ == "VB"
        and verb.pos_ == "VERB"
        and verb.dep_ in ("advcl", "ccomp", "dep", "parataxis", "csubj")
        and verb.head.i > verb.i
        and not any(c.dep_ in _SUBJ and c.i < verb.i for c in verb.children)
        and (not verb.is_title or verb.lower_ in _REQUEST_VERBS)
        and not _past_told(verb, sent)
        and not _told_of_oneself(verb)
    )


def asks_after_description(sent: Span) -> bool:
    """Does the sentence say who the speaker is ("as a runner", `self_description`) and
    then ask, no comma or "?" typed ("as a runner which shoes are best for flat feet")?"""
    described = self_description(sent.text)
    if described is None:
        return False
    end = sent.start_char + len(described)
    rest = [t for t in sent if t.idx >= end and not t.is_punct]
    if not rest or rest[0].lower_ not in QUESTION_OPENERS:
        return False
    # the parse of the whole may hang the question on the description ("as a vegan where
    # do i get b12 from": a relative clause of "vegan"); a verb put before its subject
    # right after the question word asks, by the words alone
    return asks_unmarked(rest) or (
        len(rest) > 2 and rest[1].lower_ in AUX_OPENERS and rest[2].lower_ in _ASKERS
    )


def asks_unmarked(words: list[Token]) -> bool:
    """A sentence opening with a question word that asks, typed without its "?": the word
    before a verb put first ("where is the nearest pharmacy", "whats a good salary in
    leeds"), before "to" and a verb ("how to tell if a melon is ripe"), or "how" and its
    measure before one ("how much is a tesla to insure", "how long do parrots live").
    Not a question word that opens a clause the sentence is about ("what matters most is
    family") or a clause of time or place ("when i was 12 i broke my arm")."""
    first = words[0]
    if first.dep_ == "mark" or len(words) < 2:
        return False
    nxt = words[1]
    if nxt.lower_ in AUX_OPENERS | _IS_CLITICS:
        # "what's": the question word is the subject of a verb that is no clause the
        # sentence is about ("what matters most is family") nor a relative clause ("...,
        # which has improved to 250ms"), or no subject at all
        if first.head.dep_ in ("relcl", "acl"):
            return False
        return first.dep_ not in ("nsubj", "nsubjpass") or first.head.dep_ not in (
            "csubj",
            "csubjpass",
        )
    if first.lower_ in ("which", "what") and nxt.tag_ in ("NN", "NNS", "NNP"):
        # "which crm works with hubspot": a question word before the thing asked of and
        # its verb; not "what music i like is jazz" (a subject comes first)
        # (an adverb may come before the verb: "what rain gear actually keeps you dry")
        after = next((t for t in words[2:] if t.tag_ not in ("NN", "NNS", "NNP", "RB")), None)
        return after is not None and after.tag_ in ("VBZ", "VBP", "VBD", "MD")
    if nxt.lower_ == "to" and len(words) > 2 and words[2].tag_ == "VB":
        return True
    if (
        first.lower_ in ("who", "what")
        and first.dep_ in ("nsubj", "nsubjpass")
        and first.head.i == nxt.i
        and nxt.dep_ == "ROOT"
        and nxt.tag_ in ("VBD", "VBZ", "VBP")
    ):
        # "who won the world cup in 2014", "what happened to the tram": the question word
        # is the subject of the sentence's own verb (not of a clause it is about: "what
        # matters most is family")
        return True
    if first.lower_ == "how" and nxt.lower_ in ("many", "much") and len(words) > 2:
        # "how many planets have rings", "how many ounces in a cup": a count asked for,
        # not "how much i love this town" (a subject right after: said, not asked)
        return words[2].tag_ not in ("PRP", "PRP$") and words[2].lower_ not in ("im", "ive")
    return (
        first.lower_ == "how"
        and nxt.pos_ in ("ADJ", "ADV")
        and len(words) > 2
        and words[2].lower_ in AUX_OPENERS | _IS_CLITICS
    )


#: the pronouns a yes-no question puts after its verb: "should i", "does that affect",
#: "does anyone still use ...", "is everyone ..."
_ASKED_OF = frozenset(
    {"you", "i", "we", "it", "there", "he", "she", "that", "this"}
    | {"anyone", "anybody", "someone", "somebody", "everyone", "everybody"}
)
_THINGS = frozenset({"NOUN", "PROPN", "PRON", "DET"})


def asks_yes_or_no(words: list[Token]) -> bool:
    """Words opening with a verb put before its subject, a yes-no question however it is
    punctuated: "can i freeze rice", "are cashews ok", "does my cat need shots"; not "did
    a masters in leeds" (no subject after the verb) nor "Will Smith lives in Oslo"."""
    if len(words) < 2 or words[0].lower_ not in AUX_OPENERS:
        return False
    verb = words[0]
    if _subject_after_verb(verb, words[1]):
        return True
    if verb.lower_ not in ("is", "are", "was", "were"):
        return False
    if verb.dep_ == "ROOT" and any(t.tag_ in ("JJR", "RBR") for t in words[2:4]):
        # "is solid actually quicker than vue", "are heat pumps cheaper to run": two
        # things compared after a verb put first, whatever tag the thing asked of got
        return True
    # "are cashews ok", "is that weird": the parse may not make the thing asked of the
    # verb's subject; a thing named right after "is", then the quality asked of it
    if words[1].pos_ not in _THINGS:
        return False
    # (the parse may not call the quality a complement: "ok" read as punctuation)
    return any((c.dep_ == "acomp" or c.pos_ == "ADJ") and c.i > words[1].i for c in verb.children)


def _subject_after_verb(verb: Token, second: Token) -> bool:
    """A verb put before its subject, which opens right after it: "should i ...", "can
    dogs eat grapes", "does my cat need shots", "is insurance mandatory"."""
    if second.dep_ in _SUBJ and second.lower_ in _ASKED_OF:
        return True
    if second.lower_ == "they":
        return second.dep_ in _SUBJ
    subject = next((t for t in second.sent if t.dep_ in _SUBJ and t.left_edge.i == second.i), None)
    if subject is None or subject.pos_ not in ("NOUN", "PROPN"):
        return False
    head = subject.head
    if verb.i == head.i:
        # "is insurance mandatory": the verb put first is the main one; but "do" asks
        # only with a verb after its subject ("did the bus come"): "did the london
        # marathon in 2021" has none, so "did" is what was done, its subject left out
        return (
            verb.lower_ not in ("do", "did")
            or second.lower_ in _ASKED_OF  # "does that mess with ...": "mess" read as a noun
            or any(t.tag_ == "VB" or t.pos_ == "VERB" for t in second.sent if t.i > subject.i)
        )
    # after "can" or "does" the main verb is in its base form ("can dogs eat"), after
    # "is" or "has" a participle ("is the shop opening", "has the parcel arrived"): a
    # finite verb makes the first word part of a name ("Will Smith lives in Oslo")
    base = verb.lower_ not in ("is", "are", "was", "were", "am", "have", "has")
    return verb.head.i == head.i and head.tag_ in (("VB",) if base else ("VBN", "VBG"))


#: words that answer before the sentence that follows them ("Cool, ...", "Sure, ...")
_REPLY_POS = ("ADJ", "INTJ", "ADV")


def _after_reply_word(words: list[Token]) -> Token | None:
    """The word after a reply word and its comma that open a sentence ("Cool, let me
    know", "Sure, send it over"); None when the sentence opens otherwise."""
    first = words[0]
    if (
        len(words) > 1
        and first.pos_ in _REPLY_POS
        and first.i + 1 < len(first.doc)
        and first.nbor().text == ","
    ):
        return words[1]
    return None


def _kind(sent: Span, said: str) -> str:
    words = [t for t in sent if not t.is_punct and t.pos_ != "INTJ"]
    if not words:
        return "fragment"
    if said.rstrip().endswith("?") or sent.text.rstrip().endswith("?"):
        # "whats a good name for a pug? getting him friday": a message that opens by
        # asking is a question, whatever follows (its statements are read on their own)
        return "question"
    first = words[0]
    low = first.lower_
    if inverted_question(sent):
        return "question"  # "as a leftie which scissors should i get", no "?" typed
    if low in QUESTION_OPENERS and asks_unmarked(words) or asks_after_description(sent):
        return "question"
    if _REQUEST_OPENERS.search(said) or _PLEASE_LAST.search(said):
        return "instruction"
    if asks_yes_or_no(words):
        return "question"
    root = sent.root
    if not any(t.pos_ in ("VERB", "AUX") for t in sent):
        after = first.nbor().tag_ if first.i + 1 < len(first.doc) else ""
        if low in _REQUEST_VERBS and after in ("DT", "PRP$", "PRP"):
            return "instruction"  # "book a table for two", read with no verb at all
        return "fragment"
    if first is not root and _asks_first(first, sent):
        return "instruction"  # "help me plan a party for my dad, he's turning 70"
    if _asks_for(root):
        return "instruction"  # "i need some lunch ideas", "I'd like feedback on my essay"
    if any(c.dep_ in _SUBJ for c in root.children):
        return "statement"
    # "Cool, let me know ...", "sure, send it over": a word of reply and its comma before
    # the verb that opens what is asked
    opener = _after_reply_word(words)
    if root.i == words[0].i or opener is not None and root.i == opener.i:
        if _noun_read_as_verb(root):
            return "fragment"  # "shellfish allergy here": a thing named, nothing asked
        # a base-form verb opening the sentence: "book a table", "Write me a poem"; a
        # capitalised one only when it is a verb of asking ("Lost my job" is a report)
        if (
            root.tag_ == "VB"
            and not root.is_title
            and not _past_told(root, sent)
            and not _told_of_oneself(root)
            or low in _REQUEST_VERBS
            # "Let me hear how the move went!": the speaker is whom the one spoken to does it
            # for, however it is cased
            or root.tag_ == "VB"
            and root.i + 1 < len(root.doc)
            and root.nbor().lower_ in ("me", "us")
            and root.lemma_.lower() not in _PREFERRING  # "Love me some tacos"
        ):
            return "instruction"
        return "statement"
    before = [t for t in words if t.i < root.i]
    # a present form with no subject is a base form too where the speaker asks or tells
    # in another clause: "always include versions when i ask" asks it of the listener
    told_to = (
        root.tag_ == "VB"
        or root.tag_ == "VBP"
        and any(
            t.dep_ in _SUBJ
            and t.lower_ == "i"
            and t.head.i != root.i
            and t.head.lemma_.lower() in _ASKING_VERBS
            for t in sent
        )
    )
    if (
        told_to
        and all(
            t.pos_ in ("ADV", "INTJ", "PART", "AUX") or t.lower_ in ("please", "do", "don't")
            for t in before
        )
        # "didnt go to uni", "normally get up at 6": told of oneself, its "I" left out
        and not _negation_of_mine(before, root)
        and not any(t.lower_ in _HABIT_ADVERBS for t in before)
    ):
        return "instruction"  # "Always use metric units", "Never push to main"
    return "statement"
    return "statement"


# -- the key --------------------------------------------------------------------------------
def _span_text(tokens: list[Token]) -> str:
    """The words of `tokens` as written (they must be contiguous), trailing punctuation off."""
    while (
        tokens
        and tokens[-1].is_punct
        and tokens[-1].text not in (")", "]", '"', "%")
        and not _feet(tokens)
    ):
        tokens = tokens[:-1]
    while tokens and (
        tokens[0].is_punct
        and tokens[0].text not in ("(", "[", '"', "$", "£", "€", "#", "@", "~", "/", ".")
        or tokens[0].dep_ == "cc"
    ):
        tokens = tokens[1:]
    if not tokens:
        return ""
    doc = tokens[0].doc
    return doc[tokens[0].i : tokens[-1].i + 1].text.strip()


def _feet(tokens: list[Token]) -> bool:
    """Does `tokens` end in a foot or inch mark written onto a number ("6'", "5'10\"")?"""
    return (
        len(tokens) > 1
        and tokens[-1].text in ("'", "′", "″")
        and tokens[-2].whitespace_ == ""
        and tokens[-2].text[-1:].isdigit()
    )


def _subtree(token: Token, *, stop: frozenset[str] = frozenset()) -> list[Token]:
    """The token's phrase: its subtree, cut before any child whose dep is in `stop`, and
    never ending inside a word as written: the tokenizer splits
    "git@github.com:arttu/credo.git" and "#team-backend" into pieces the parse hangs
    elsewhere, and a value cut short makes two values one ("...:arttu/credo.git" and
    "...:other/x.git" both "git@github.com")."""
    left = token.left_edge.i
    right = token.i
    for child in token.rights:
        if child.dep_ in stop or _clause_after_but(token, child):
            break
        right = max(right, child.right_edge.i)
    doc = token.doc
    right += len(_glued(doc, right))
    if (
        right + 1 < len(doc)
        and doc[right + 1].text in ('"', "'", "″", "′")
        and doc[right].whitespace_ == ""
        and doc[right].text[-1:].isdigit()
        and sum(doc[i].text == doc[right + 1].text for i in range(left, right + 1)) % 2 == 0
    ):
        right += 1  # "5'10\"", "a 27\" monitor": feet and inches, not a closing quote
    if (
        right + 1 < len(doc)
        and doc[right + 1].text == ")"
        and sum(doc[i].text == "(" for i in range(left, right + 1))
        > sum(doc[i].text == ")" for i in range(left, right + 1))
    ):
        right += 1  # "a falafel wrap (no onions)": the bracket it opened
    while (
        left > 0
        and doc[left - 1].whitespace_ == ""
        and (doc[left - 1].is_punct or doc[left - 1].pos_ == "SYM")
        and doc[left - 1].text not in ("(", "[", "{", '"', "'", "“", "‘", "`")
    ):  # "they/them", "#team-backend", "~/.config"
        left -= 1
        while left > 0 and doc[left - 1].whitespace_ == "" and not doc[left - 1].is_punct:
            left -= 1
    return [doc[i] for i in range(left, right + 1)]


def _clause_after_but(token: Token, child: Token) -> bool:
    """ "i had the flu but its gone now": a clause the parse hung on the object after a
    "but" is no part of the value ("dogs but not cats" is)."""
    return (
        child.dep_ == "cc"
        and child.lower_ in ("but", "yet")
        and any(
            c.dep_ == "conj" and c.i > child.i and c.pos_ in ("VERB", "AUX") for c in token.rights
        )
    )


def _glued(doc: Doc, i: int) -> list[Token]:
    """The tokens after `doc[i]` that are written onto it, up to the word's end."""
    out: list[Token] = []
    while (
        i + 1 < len(doc)
        and doc[i].whitespace_ == ""
        and not (doc[i].is_space or doc[i + 1].is_space)
        and not _ends_word(doc, i + 1)
    ):
        i += 1
        out.append(doc[i])
    return out


def _ends_word(doc: Doc, i: int) -> bool:
    """Is `doc[i]` punctuation that closes a word rather than continuing it: the comma of
    "Oslo, Norway", the full stop at the end, an ellipsis, a closing bracket or quote?"""
    tok = doc[i]
    if not tok.is_punct and tok.text not in ("`", "'", "’"):
        return False
    return i + 1 == len(doc) or tok.whitespace_ != "" or _ends_word(doc, i + 1)


#: a preference set against another value: "tea over coffee" (elsewhere "over" is a place
#: or an amount: "over the shop", "over 30")
_PREFERRING = frozenset(
    {"like", "prefer", "love", "enjoy", "adore", "choose", "pick", "favour", "favor"}
)


def _verb_of_its_own(token: Token) -> bool:
    """Is `token` a verb conjoined after an object, with the subject's claim of its own
    ("tea and hate coffee", "a teacher and work at Reaktor")? A word the tagger read as a
    noun only with what verbs take, never before "of" or "like" ("the smell and feel of
    wet wool", "and stuff like that")."""
    if token.tag_ in ("VB", "VBP", "VBZ", "VBD") and token.pos_ == "VERB":
        return True
    return (
        token.tag_ == "NN"
        and _base_verb(token.lower_)
        and any(
            c.dep_ == "dobj" or c.dep_ == "prep" and c.lower_ in _VERB_PREPS for c in token.children
        )
        and not any(c.dep_ in ("det", "poss", "amod", "compound") for c in token.children)
    )


_CLAUSE_OPENERS = frozenset(
    {"because", "since", "that", "when", "if", "so", "although", "though", "while", "who"}
)


def _asserted(tokens: list[Token], predicate: str) -> list[Token]:
    """The object's words up to where it sets another value against itself: "tea instead
    of coffee", "Vim, not Emacs", "dogs but not cats", "tea more than coffee", "tea over
    coffee" (after a verb of preferring) all assert the first value only. Without the cut
    the key holds the denied value too, and "I drink coffee" said later was taken for a
    vaguer restatement of "I drink tea instead of coffee"."""
    verb = predicate.split("_", 1)[0]
    for k, tok in enumerate(tokens):
        if k == 0:
            continue
        low = tok.lower_
        if tok.tag_ in ("VBP", "VBZ", "VBD", "MD") or low in _CLAUSE_OPENERS:
            break  # a clause of its own: "wish I was not single", "because I do not eat"
        after = tokens[k + 1].lower_ if k + 1 < len(tokens) else ""
        before = tokens[k - 1].lower_
        if low in ("and", "but", "or") and k + 1 < len(tokens) and _verb_of_its_own(tokens[k + 1]):
            return tokens[:k]  # "I like tea and hate coffee": coffee is not liked
        if (
            (low in ("instead", "rather") and after in ("of", "than"))
            or (
                low in ("more", "better")
                and after == "than"
                and verb in _PREFERRING
                and not (k + 2 < len(tokens) and tokens[k + 2].like_num)
            )
            or (low in ("not", "n't", "never") and before in (",", "but", "and", ";"))
            or low in ("except", "unlike", "versus", "vs", "vs.")
            or (low == "over" and verb in _PREFERRING)
        ):
            kept = tokens[:k]
            while kept and (kept[-1].is_punct or kept[-1].lower_ in ("but", "and", "or")):
                kept = kept[:-1]
            return kept
    return tokens


#: "too", "as well", "myself" (lexicon "additive_particles"), as word sequences
_ADDITIVES = tuple(tuple(p.split()) for p in words("additive_particles"))


def _without_additives(tokens: list[Token]) -> list[Token]:
    """The object's words without the particle that says the speaker shares it: "i have
    two cats myself", "i love hiking too", "i play chess as well" hold the value "two
    cats", "hiking", "chess". Only at the end, and never the whole object; an object
    without one is returned as it came ("a falafel wrap (no onions)", "5'10\"")."""
    kept = tokens
    while True:
        words = kept
        while words and words[-1].is_punct:
            words = words[:-1]
        end = next(
            (
                len(p)
                for p in _ADDITIVES
                if len(words) > len(p) and tuple(t.lower_ for t in words[-len(p) :]) == p
            ),
            0,
        )
        if not end:
            return kept
        kept = words[:-end]


def _noun_phrase(token: Token) -> list[Token]:
    """A subject's words without its determiner or possessor: "our production database"
    -> "production database", "the deploy target for the API" -> "deploy target", with a
    number right after it that names it: "Room 101", "Arttu 1916" (without it two rooms
    or two people shared one key, and their facts an invented conflict)."""
    keep = [c for c in token.lefts if c.dep_ in ("compound", "amod", "nummod", "nmod")]
    start = min([token.i, *(c.left_edge.i for c in keep)])
    end = token.i
    for child in token.rights:  # the number alone ("Room 101's door": its "'s" aside)
        words = [t for t in child.subtree if t.dep_ != "case"]
        if child.dep_ != "nummod" or child.i != end + 1 or words != [child]:
            break
        end = child.i
    doc = token.doc
    return [
        doc[i]
        for i in range(start, end + 1)
        if i == token.i or doc[i].dep_ not in ("det", "poss", "case", "punct")
    ]


def _is_negation(token: Token) -> bool:
    return token.dep_ == "neg" or (token.lower_ == "never" and token.dep_ in ("neg", "advmod"))


def _denial_of(word: Token) -> list[Token]:
    """The words before `word` that deny it: "no longer" in "no longer vegetarian"."""
    return [
        t
        for c in word.lefts
        if _is_negation(c)
        or c.lower_ in ("longer", "more")
        and any(g.lower_ == "no" for g in c.children)
        for t in c.subtree
    ]


#: what a verb's complement hangs by: a "not" after one of them is a contrast, no denial
_CONTRASTED_AFTER = frozenset({"dobj", "attr", "acomp", "prep", "oprd", "dative", "xcomp"})


def _contrasting(verb: Token, neg: Token) -> bool:
    """ "the call is on thursday, not tuesday", "im a teacher, not a nurse": a "not" after
    the verb's complement names the value the sentence is not about; the verb stays
    affirmed."""
    return neg.i > verb.i and any(
        r.dep_ in _CONTRASTED_AFTER and r.i < neg.i for r in verb.rights if r is not neg
    )


def _negated(verb: Token) -> bool:
    """ "not", "n't", "never", "no longer" on the verb or its auxiliaries (a "not" after
    its complement contrasts, `_contrasting`)."""
    for child in verb.children:
        if _is_negation(child):
            if _contrasting(verb, child):
                continue
            return True
        if child.lower_ in ("longer", "more") and any(c.lower_ == "no" for c in child.children):
            return True  # "I no longer live in Helsinki"
        if child.dep_ in ("aux", "auxpass") and any(_is_negation(c) for c in child.children):
            return True
        if child.dep_ in _SUBJ and any(
            c.dep_ == "preconj" and c.lower_ == "neither" for c in child.children
        ):
            return True  # "Neither my wife nor I smoke": denied of each of them
    return False


def _adverb_and_place(adverb: Token) -> tuple[str, list[Token]] | None:
    """ "down to 84 kilos", "back to leeds", "back at 90 kilos": an adverb with the
    preposition right after it and its object, read as one relation ("_down_to", [84
    kilos]); None when the adverb has no such preposition."""
    prep = next((c for c in adverb.children if c.dep_ == "prep"), None)
    if prep is None or prep.i != adverb.i + 1:
        return None
    pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    if pobj is None:
        return None
    if (
        adverb.lower_ in _WHERE_ADVERBS
        and prep.lower_ in _AT_A_PLACE
        and _verb_lemma(adverb.head) != "be"
    ):
        # "i live here in leeds", "we work there at the depot": where, said twice, is the
        # place ("I'm up at 6" is not "I'm at 6": "be" keeps its adverb)
        return f"_{prep.lower_}", _subtree(pobj)
    return f"_{adverb.lower_}_{prep.lower_}", _subtree(pobj)


def _place_adverb(token: Token) -> bool:
    """Is `token` an adverb pointing at the place its preposition names ("here in
    leeds")?"""
    return (
        token.dep_ == "advmod"
        and token.lower_ in _WHERE_ADVERBS
        and any(c.dep_ == "prep" and c.lower_ in _AT_A_PLACE for c in token.children)
    )


_WHERE_ADVERBS = words("where_adverbs")
_AT_A_PLACE = words("at_a_place")


#: how often, said in one word made of a span of time: "daily", "weekly", "annually"
_HOW_OFTEN_WORD = re.compile(r"(?:hour|dai|night|week|fortnight|month|quarter|year)ly|annually")


def _compounds(word: Token) -> list[Token]:
    """The nouns the parse hung on `word` as its compounds, before it."""
    return [c for c in word.lefts if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")]


def _object_of(verb: Token) -> tuple[str, list[Token]] | None:
    """The predicate suffix and the object tokens for a (non-copular) verb."""
    particle = next((c for c in verb.children if c.dep_ == "prt"), None)
    if (
        particle is not None
        and particle.lower_ in _WAYS
        and _verb_lemma(verb) in _CHANGES
        and any(c.dep_ == "prep" and c.lower_ in ("to", "into") for c in verb.rights)
    ):
        particle = None  # "we relocated up to aberdeen": which way is no part of the move
    suffix = f"_{particle.lower_}" if particle is not None else ""
    for child in verb.rights:
        if child.lower_ in (
            "myself",
            "me",
            "himself",
            "herself",
            "themselves",
            "him",
            "her",
            "them",
            "us",
            "ourselves",
        ) and child.dep_ in ("dobj", "dative"):
            continue  # "I taught myself Rust": the thing taught is the object
        if child.dep_ in ("dobj", "obj", "dative", "attr", "oprd", "ccomp", "acomp") or (
            _measure(verb, child)
        ):  # a measure is a value too: "I sleep 8 hours a night", "I work 9 to 5"
            # "I have no kids": a determiner "no" negates the claim, handled by the caller.
            # Where it goes is part of the value: "deploys arttuan.com on Vercel"
            tokens = _subtree(child, stop=frozenset({"relcl"}))
            for later in verb.rights:
                if later.lower_ == "until":
                    break  # "used Windows until 2020": when it ended is not the value
                if (
                    later.i > child.i
                    and later.i == tokens[-1].i + 1
                    and (
                        later.dep_ in ("prep", "agent", "appos")
                        or later.dep_ in ("npadvmod", "nummod", "quantmod", "dobj", "advmod")
                        and later.like_num
                        or _VERSION.fullmatch(later.text) is not None
                    )
                ):  # "PostgreSQL 16", "Python 3.12.1" (read as punctuation): the version
                    tokens = tokens + _subtree(later)
                    stray = _stray_object(later)
                    if stray is not None:  # "keep secrets in .env.local"
                        tokens = tokens + _subtree(stray)
            if len(tokens) > 1 and _HOW_OFTEN_WORD.fullmatch(tokens[-1].lower_):
                # "i play football weekly", read as a "football weekly": how often is no
                # part of what is played
                tokens = tokens[:-1]
            doc = verb.doc
            after = tokens[-1].i + 1
            if after < len(doc) and _VERSION.fullmatch(doc[after].text):
                # "Python 3.12+": a version the parse hung elsewhere is still the object's
                tokens = [*tokens, doc[after], *_glued(doc, after)]
            return suffix, tokens
        if child.dep_ == "xcomp":
            return suffix, _subtree(child)
        if child.dep_ == "advmod" and _HOW_OFTEN_WORD.fullmatch(child.lower_):
            named = _compounds(child)  # "i attend church daily", "church" read as its noun
            if named:
                return suffix, [t for c in named for t in _subtree(c)]
        if child.dep_ == "advmod" and child.pos_ == "ADV" and (back := _adverb_and_place(child)):
            return back  # "I'm down to 84 kilos", "I moved back to leeds"
        if child.dep_ == "prep":
            pobj = next((c for c in child.children if c.dep_ in ("pobj", "pcomp")), None)
            pobj = pobj or _stray_object(child)
            onward = next(
                (
                    c
                    for c in verb.rights
                    if c.dep_ == "prep" and c.i > child.i and c.lower_ in ("to", "into")
                ),
                None,
            )
            if child.lower_ == "from" and onward is not None and _verb_lemma(verb) in _CHANGES:
                continue  # "moved from London to Bristol": where it went is the value
            if pobj is not None and child.lower_ == "for" and _how_long(pobj):
                # "married for six years" is "married six years": how long, no value
                continue
            if pobj is not None and _is_when(pobj):
                # "I work at night", "I work from home": how, not a place or an employer
                return suffix, _subtree(child)
            if pobj is not None:
                return f"{suffix}_{child.lower_}", _subtree(pobj)
        if _counted_measure(child) and _measure_reached(verb, child):
            # "coverage reached 85%", "my weight dropped to 80kg": the amount the parse
            # hung on the verb as an adverb is the value the change gives
            return suffix, _subtree(child)
        if child.dep_ == "npadvmod" and child.pos_ in ("NOUN", "PROPN"):
            continue
    return None


#: the units a span of time is counted in ("for six years", "for 3 months")
_TIME_UNITS = frozenset({"year", "month", "week", "day", "decade", "hour", "yr", "mo", "wk"})


def _how_long(pobj: Token) -> bool:
    """Is `pobj` a counted span of time ("six years", "3 months", "a decade")?"""
    return pobj.lemma_.lower().rstrip("s") in _TIME_UNITS and any(
        c.dep_ in ("nummod", "det") and (c.like_num or c.lower_ in ("a", "an"))
        for c in pobj.children
    )


def _measure(verb: Token, word: Token) -> bool:
    """Is `word` how much or how long the verb is done, and all the verb says: "I sleep 8
    hours a night", "I cycle 5 miles a day", "I work 9 to 5"? Not beside an object or a
    place ("I swim 3 days a week at the lido": the lido is the value), nor
    after a passive ("I have been married 5 years" is (be, married))."""
    if word.dep_ != "npadvmod" or verb.tag_ == "VBN":
        return False
    if not (word.like_num or any(c.dep_ == "nummod" and c.like_num for c in word.children)):
        return False
    return not any(
        c.dep_ in ("dobj", "obj", "dative", "attr", "oprd", "ccomp", "acomp", "xcomp")
        or c.dep_ == "prep"
        and not (c.i == word.right_edge.i + 1 and c.lower_ in ("to", "till"))
        for c in verb.children
    )


def _stray_object(prep: Token) -> Token | None:
    """The object of a preposition the parse left without one, hung on the verb instead:
    "I work at Smartly" (read as an adverb), "secrets in .env.local" (read as
    punctuation). Only the word right after the preposition, when it has letters or digits
    and is not a word of manner ("I work at home quickly" keeps its reading)."""
    if any(c.dep_ in ("pobj", "pcomp") for c in prep.children) or prep.i + 1 >= len(prep.doc):
        return None
    nxt = prep.doc[prep.i + 1]
    if (
        nxt.head.i != prep.head.i
        or nxt.dep_ not in ("advmod", "punct", "npadvmod", "dobj", "intj", "dep", "attr")
        or not any(ch.isalnum() for ch in nxt.text)
        or nxt.lower_ in _ADVERBS
        or nxt.is_lower
        and nxt.lower_.endswith("ly")
    ):
        return None
    return nxt


#: verbs that say the subject came to be what follows: "got divorced", "became a nurse",
#: "turned 18 years old" are keyed as the state they reached ("be divorced", ...)
_BECOMING = words("becoming")
_BECOMING_UNTAKING = words("becoming_untaking")


def _joined(verb: Token, first: Token, value: list[Token]) -> list[Token]:
    """`value` and the complement of `verb` right after it, where the tagger split one
    phrase into two ("im type 1 diabetic": "type" and "1 diabetic")."""
    after = next(
        (c for c in verb.rights if c.dep_ in ("attr", "acomp", "oprd") and c.i > first.i), None
    )
    if after is None or not value or after.left_edge.i != value[-1].i + 1:
        return value
    return [*value, *_subtree(after, stop=frozenset({"prep", "advcl", "relcl"}))]


def _copula(verb: Token) -> tuple[str, list[Token]] | None:
    """ "is a nurse" -> ("", [a nurse]); "is allergic to peanuts" -> ("_allergic_to",
    [peanuts]); "is from Finland" -> ("_from", [Finland]); "was born in India"."""
    for child in verb.rights:
        if child.dep_ == "acomp" or (child.dep_ == "attr" and child.pos_ == "ADJ"):
            prep = next((c for c in child.children if c.dep_ == "prep"), None)
            pobj = (
                next((c for c in prep.children if c.dep_ in ("pobj", "pcomp")), None)
                if prep is not None
                else None
            )
            if prep is not None and pobj is not None and prep.i == child.i + 1:
                word = child.lower_ if child.tag_ in ("JJ", "VBN") else child.lemma_.lower()
                return f"_{word}_{prep.lower_}", _subtree(pobj)
            npadv = next((c for c in child.lefts if c.dep_ == "npadvmod"), None)
            if npadv is not None and child.lower_ == "old":
                return "_old", _subtree(npadv)  # "I am 30 years old"
            return "", _joined(
                verb, child, _subtree(child, stop=frozenset({"prep", "advcl", "relcl"}))
            )
        if child.dep_ in ("attr", "oprd"):
            return "", _joined(verb, child, _subtree(child, stop=frozenset({"relcl", "advcl"})))
        if child.dep_ == "advmod" and child.pos_ == "ADV" and (back := _adverb_and_place(child)):
            return back  # "I'm down to 84 kilos", "I moved back to leeds"
        if child.dep_ == "prep":
            pobj = next((c for c in child.children if c.dep_ in ("pobj", "pcomp")), None)
            pobj = pobj or _stray_object(child)
            if pobj is not None:
                return f"_{child.lower_}", _subtree(pobj)
            inner = next((c for c in child.children if c.dep_ == "prep"), None)
            pobj = (
                next((c for c in inner.children if c.dep_ in ("pobj", "pcomp")), None)
                if inner is not None
                else None
            )
            if inner is not None and pobj is not None:  # "I am out of shape"
                return f"_{child.lower_}_{inner.lower_}", _subtree(pobj)
    return None


def _key(sent: Span) -> tuple[Token, str, list[Token], bool] | None:
    """(subject token, predicate, object tokens, negated) for the sentence's main clause.
    The readings below are tried in this order; the first that reads the sentence gives
    its key, and a sentence none of them reads has none."""
    root = sent.root
    subject = _subject_of(root)
    negated = _negated(root)
    fake = _verb_taken_for_auxiliary(root)
    if fake is not None:
        subject = subject or _subject_of(fake)
        if subject is not None and (doing := _verb_before_object(root, fake, subject, negated)):
            return doing
    if subject is None:  # "I am not engaged": the tagger hung "I" on "am", not on "engaged"
        subject = _subject_of_auxiliary(root)
    if subject is None:
        return None
    subject = _antecedent(root, subject)
    if _progressive_taken_for_value(root, subject):
        return subject, "be", [root], negated  # "The deploy target is staging"
    verb, lemma, negated = _main_verb(root, negated)
    state = _state_as_root(root, verb, subject, negated) or _state_reached(
        verb, lemma, subject, negated
    )
    if state is not None:
        return state
    if lemma in _BECOMING and any(c.dep_ in _COMPLEMENTS for c in verb.children):
        lemma = "be"  # "I got divorced", "I became a widow", "I turned 18 years old"
    elif age := _age_turned(verb, lemma):
        return subject, "be_old", age, negated  # "I turned 30", "... forty-one": an age
    if lemma == "be":
        return _copular_reading(verb, subject, negated)
    if verb.tag_ == "VBN" and any(c.dep_ == "auxpass" for c in verb.children):
        return _passive_reading(verb, subject, negated)
    if lemma == "live" and _alone(verb):
        # "i live alone", "i live on my own": living with no one, the denial of every
        # "i live with ..."
        return subject, "live_with", [], not negated
    found = _object_of(verb) or _shared_place(verb)
    if found is None:
        return _reading_without_object(verb, subject, lemma, negated)
    return _reading_with_object(verb, subject, lemma, found, negated)


def _alone(verb: Token) -> bool:
    """Is `verb` said "alone", "on my own" or "by myself" and nothing more: no one it is
    done with ("alone with my cat"), no place ("on her own in the bungalow in rhyl" says
    where)?"""
    if any(t.lower_ == "with" for t in verb.subtree):
        return False
    preps = [c for c in verb.children if c.dep_ == "prep"]
    if len(preps) > 1 or preps and preps[0].lower_ not in ("on", "by"):
        return False
    for child in verb.children:
        if child.dep_ == "advmod" and child.lower_ == "alone":
            return True
        if child.dep_ == "prep" and child.lower_ in ("on", "by"):
            pobj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if pobj is not None and (
                pobj.lower_ == "own"
                and any(c.dep_ == "poss" for c in pobj.children)
                or pobj.lower_ in ("myself", "ourselves", "himself", "herself", "themselves")
            ):
                return True
    return False


def _shared_place(verb: Token) -> tuple[str, list[Token]] | None:
    """ "i live and work in paris", "i write and edit for a magazine": a verb with nothing
    of its own before "and" shares the place or the end the next verb of the same subject
    and tense is said with (live_in [paris]), as "born and raised in Texas" shares its
    place. Not a direct object ("i cook and eat pasta" stays "cook"), nor a verb with a
    subject of its own ("i cook and my wife cleans")."""
    shared = next(
        (
            c
            for c in verb.children
            if c.dep_ == "conj"
            # the same tense ("study" after "live" may be tagged as the base form)
            and (c.tag_ == verb.tag_ or verb.tag_ == "VBP" and c.tag_ == "VB")
            and _subject_of(c) is None
        ),
        None,
    )
    found = _object_of(shared) if shared is not None else None
    if shared is None or found is None or not found[0].startswith("_") or not found[1]:
        return None
    prep = found[1][0].head
    return found if prep.dep_ == "prep" and prep.head.i == shared.i else None


def _subject_of(token: Token) -> Token | None:
    """The subject the parse hangs on `token` ("Mira" in "Mira plays chess")."""
    return next((c for c in token.children if c.dep_ in _SUBJ), None)


def _subject_of_auxiliary(root: Token) -> Token | None:
    """The subject the parse hung on an auxiliary before the root rather than on the root:
    "I am not engaged", "I am married" ("I" under "am", not under the participle)."""
    return next(
        (
            s
            for c in root.children
            if c.dep_ in ("aux", "auxpass") and c.i < root.i
            for s in c.children
            if s.dep_ in _SUBJ
        ),
        None,
    )


def _verb_taken_for_auxiliary(root: Token) -> Token | None:
    """ "I like cooking", "I can't eat gluten", "I love cooking", "I enjoy cooking": the
    tagger may take the verb for an auxiliary of its object (a verb, a gerund or a noun,
    made the root); that verb, when the root is such an object, else None."""
    fake = next(
        (
            c
            for c in root.children
            if c.dep_ == "aux"
            and c.tag_.startswith("VB")
            and c.lemma_.lower() not in _REAL_AUX
            and c.i < root.i
        ),
        None,
    )
    return fake if fake is not None and root.tag_ in ("VB", "VBG", "NN", "NNS") else None


def _verb_before_object(
    root: Token, fake: Token, subject: Token, negated: bool
) -> tuple[Token, str, list[Token], bool] | None:
    """The reading of a verb taken for an auxiliary (`_verb_taken_for_auxiliary`): the
    verb is the relation, all that follows it the object ("I enjoy cooking" -> enjoy
    [cooking]), denied where either is; None when nothing follows it."""
    doc = root.doc
    obj = [doc[i] for i in range(fake.i + 1, root.right_edge.i + 1)]
    lemma = _verb_lemma(fake)
    if obj:
        return subject, lemma, obj, negated or _negated(fake)
    return None


def _progressive_taken_for_value(root: Token, subject: Token) -> bool:
    """ "The deploy target is staging", "the venue is catering": spaCy reads "is staging"
    as a progressive; with no object, particle or complement, and a subject that is
    neither the speaker nor a pronoun, the "-ing" word is the value of "be"."""
    return bool(
        root.tag_ == "VBG"
        and any(c.lemma_ == "be" and c.dep_ == "aux" for c in root.children)
        and not any(c.dep_ in ("dobj", "prep", "xcomp", "prt") for c in root.children)
        and subject.lower_ not in _FIRST
        and subject.pos_ != "PRON"
    )


def _main_verb(root: Token, negated: bool) -> tuple[Token, str, bool]:
    """The verb that carries the relation, its lemma, and whether it is denied: the root,
    except where the root only frames another verb: "I used to live in Helsinki" (live_in,
    denied), "I stopped using Vim", "I stopped going to the gym" (denied: ended), "I
    started learning Rust" (learn), "I managed to quit sugar" (quit). "I've got two
    sisters" is "have"."""
    verb = root
    xcomp = next(
        (c for c in root.children if c.dep_ == "xcomp" and c.pos_ in ("VERB", "AUX")), None
    )
    lemma = _verb_lemma(root) if root.pos_ in ("VERB", "AUX") else root.lemma_.lower()
    if (
        lemma == "get"
        and root.tag_ in ("VBN", "VBD")
        and any(c.dep_ == "aux" and c.lemma_ == "have" for c in root.children)
    ):
        lemma = "have"  # "I've got two sisters"
    if xcomp is not None and (
        lemma in _ENDED | _BEGUN | _IMPLICATIVE
        or (lemma == "use" and root.tag_ == "VBD" and xcomp.tag_ == "VB")
    ):
        negated = negated != (lemma in _ENDED or lemma == "use")
        verb, lemma = xcomp, _verb_lemma(xcomp)
        negated = negated or _negated(xcomp)
    return verb, lemma, negated


def _state_as_root(
    root: Token, verb: Token, subject: Token, negated: bool
) -> tuple[Token, str, list[Token], bool] | None:
    """ "I'm no longer vegetarian" with no full stop: the tagger made the state the root
    and "'m" its auxiliary; read it as "be" + the state (the words of denial left out,
    and the key denied)."""
    copula = next(
        (
            c
            for c in root.children
            if c.dep_ in ("aux", "auxpass") and c.lemma_ == "be" and c.i < root.i
        ),
        None,
    )
    if verb.i == root.i and root.pos_ == "ADJ" and copula is not None:
        denial = _denial_of(root)
        doc = root.doc
        state = [
            t
            for t in doc[copula.i + 1 : root.right_edge.i + 1]
            if t not in denial and not t.is_punct
        ]
        return subject, "be", state, negated or bool(denial)
    return None


def _state_reached(
    verb: Token, lemma: str, subject: Token, negated: bool
) -> tuple[Token, str, list[Token], bool] | None:
    """ "I went vegan", "we went freelance": a verb of becoming that takes no object; what
    the tagger gave it as one is the state reached, keyed on "be"."""
    reached = (
        next((c for c in verb.children if c.dep_ == "dobj" and c.tag_ != "VBG"), None)
        if lemma in _BECOMING_UNTAKING
        else None
    )
    if reached is not None:
        return subject, "be", list(reached.doc[reached.left_edge.i : reached.i + 1]), negated
    return None


def _age_turned(verb: Token, lemma: str) -> list[Token] | None:
    """ "I turned 30", "my daughter turned 12", "... forty-one": the age turned, a number
    as the object of "turn"; None for any other verb or object."""
    if lemma != "turn":
        return None
    return next(
        (
            list(c.subtree)
            for c in verb.children
            if c.dep_ == "dobj" and all(t.like_num or t.tag_ == "HYPH" for t in c.subtree)
        ),
        None,
    )


def _aged(subject: Token) -> bool:
    """Is a bare number said of `subject` an age: the speaker's ("I'm 34"), or that of
    one of their people ("my daughter is 4")?"""
    return subject.lower_ == "i" or (
        subject.lemma_.lower() in PEOPLE
        and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in subject.children)
    )


def _copular_reading(
    verb: Token, subject: Token, negated: bool
) -> tuple[Token, str, list[Token], bool] | None:
    """A clause on "be": "I'm a nurse" (be [a nurse]), "I'm allergic to cats"
    (be_allergic_to [cats]), "I'm from Chile" (be_from), "I'm 34" (be_old, an age), "I'm
    no longer a smoker" (denied: the tagger hung "no longer" on the state); None when
    `_copula` finds no complement."""
    found = _copula(verb)
    if found is None:
        return None
    suffix, obj = found
    complement = next((c for c in verb.rights if c.dep_ in ("acomp", "attr", "oprd")), None)
    denial = _denial_of(complement) if complement is not None else []
    if denial:  # "I'm no longer vegetarian": the tagger hung "no longer" on the state
        negated, obj = True, [t for t in obj if t not in denial]
    if suffix == "" and len(obj) == 1 and obj[0].like_num and _aged(subject):
        suffix = "_old"  # "I'm 34", "my daughter is 4": an age
    if suffix.endswith("_old") and any(t.like_num for t in obj):
        obj = [t for t in obj if t.like_num or t.tag_ == "HYPH"]  # "7 years old" is 7
    return subject, "be" + suffix, obj, negated


def _passive_reading(
    verb: Token, subject: Token, negated: bool
) -> tuple[Token, str, list[Token], bool]:
    """A passive participle: "I was born in India" (be_born_in [India]), "I am based in
    Oslo", "I was raised in Texas"; in "born and raised in Texas" the place is said once,
    for both participles (be_born_in [Texas]); with no object, a state as with an
    adjective ("I am married", "I'm retired": be [married])."""
    found = _object_of(verb)
    if found is None and verb.lemma_ in ("call", "name"):
        # "my tortoise is called shelly": the tagger read an unknown name as an adverb
        name = next((c for c in verb.rights if _given_name(c)), None)
        found = ("", _subtree(name)) if name is not None else None
    # "born and raised in Texas": the place is said once, for both participles
    shared = next((c for c in verb.children if c.dep_ == "conj" and c.tag_ == "VBN"), None)
    if found is None and shared is not None:
        found = _object_of(shared)
    if found is None:  # "I am married", "I'm retired": a state, as with an adjective
        return subject, "be", [verb], negated
    suffix, obj = found
    if suffix == "" and obj and _given_name(obj[-1]):
        return subject, "be", obj, negated  # "my dog is called Rex" says "my dog is Rex"
    return subject, f"be_{verb.lower_}{suffix}", obj, negated


def _reading_without_object(
    verb: Token, subject: Token, lemma: str, negated: bool
) -> tuple[Token, str, list[Token], bool] | None:
    """A verb with no object found: "I don't like cilantro" where the tagger read the
    object as an adverb (like [cilantro]); else the relation alone, with its particle,
    which is still a claim ("I knit", "I don't drink", "I gave up": give_up). None when
    it is no verb, or a participle with no auxiliary."""
    if (
        verb.pos_ != "VERB"
        or verb.tag_ in ("VBG", "VBN")
        and not any(c.dep_ == "aux" for c in verb.children)
        and verb.dep_ != "xcomp"  # "I stopped vaping": the doing an aspect verb ends
    ):
        return None
    # "I don't like cilantro": the tagger read the object as an adverb
    last = [c for c in verb.rights if not c.is_punct]
    if (
        last
        and last[-1].dep_ == "advmod"
        and last[-1].is_alpha
        and last[-1].lower_ not in _ADVERBS
        and not last[-1].lower_.endswith("ly")
        and lemma in _TAKES_OBJECT
    ):
        return subject, lemma, [last[-1]], negated
    # "I drive", "I don't smoke": a relation with no object is still a claim
    particle = next((c for c in verb.children if c.dep_ == "prt"), None)
    return subject, lemma + (f"_{particle.lower_}" if particle is not None else ""), [], negated


def _reading_with_object(
    verb: Token, subject: Token, lemma: str, found: tuple[str, list[Token]], negated: bool
) -> tuple[Token, str, list[Token], bool]:
    """A verb and the object `_object_of` found: "I play the cello" (play [the cello]),
    "I work at Acme" (work_at); "I use Neovim as my editor" (`_used_as`); "I used Windows
    until 2020" and "I have no pets" (denied); a preference keeps its bare verb ("I love
    jazz"); "I'm moving to Lyon" is be_moving_to (not there yet)."""
    suffix, obj = found
    role = _used_as(verb, subject) if lemma == "use" else None
    if role is not None:
        return role
    if verb.tag_ == "VBD" and any(c.dep_ == "prep" and c.lower_ == "until" for c in verb.children):
        negated = not negated  # "I used Windows until 2020": no longer so
    if obj and obj[0].lower_ == "no" and obj[0].dep_ == "det":
        negated, obj = not negated, obj[1:]  # "I have no kids"
    predicate = lemma + suffix
    if lemma in _PREFERENCE and suffix == "":
        predicate = lemma
    if (
        verb.tag_ == "VBG"
        and lemma in _CHANGES
        and any(c.dep_ == "aux" and c.lemma_ == "be" and c.lower_ != "been" for c in verb.children)
    ):
        # "I'm moving to Paris": not there yet ("I've been going to the gym": a habit kept)
        predicate = f"be_{verb.lower_}{suffix}"
    return subject, predicate, obj, negated


def _used_as(verb: Token, subject: Token) -> tuple[Token, str, list[Token], bool] | None:
    """ "I use Neovim as my editor" says what "my editor is Neovim" says: the key
    (I, has_editor, Neovim), so that "my editor is Helix" said later meets it."""
    owner = {"i": "my", "we": "our"}.get(subject.lower_)
    thing = next((c for c in verb.children if c.dep_ == "dobj"), None)
    role = next(
        (
            p
            for c in verb.children
            if c.dep_ == "prep" and c.lower_ == "as"
            for p in c.children
            if p.dep_ == "pobj" and any(o.dep_ == "poss" and o.lower_ == owner for o in p.children)
        ),
        None,
    )
    if owner is None or thing is None or role is None or thing.i > role.i:
        return None
    words = [
        t.lemma_.lower() if t.i == role.i else t.lower_
        for t in _noun_phrase(role)
        if not _renews(t.lower_, role.lemma_)
    ]
    value = [t for t in _subtree(thing) if t.i < role.i]
    return subject, "has_" + "_".join(words), value, _negated(verb)


def _antecedent(root: Token, subject: Token) -> Token:
    """The subject a pronoun stands for when the sentence named it in a clause before the
    main one: "My favourite colour isn't blue, it's green" (the colour is green), "My
    parents are retired, they live in Oulu". Only "it" and "they", only a noun subject of
    the same number; otherwise the pronoun itself (the gate asks what it refers to)."""
    if subject.lower_ not in ("it", "they"):
        return subject
    for clause in root.children:
        if clause.dep_ not in ("ccomp", "parataxis") or clause.i > subject.i:
            continue
        earlier = next((c for c in clause.children if c.dep_ in _SUBJ), None)
        if (
            earlier is not None
            and earlier.pos_ in ("NOUN", "PROPN")
            and (earlier.tag_ in ("NNS", "NNPS")) == (subject.lower_ == "they")
        ):
            return earlier
    return subject


#: words by which a subject names the value that replaced another: "my new car" is the slot
#: "my car" named again (the resolver reads "my new" as said to be a change); not for
#: people and animals ("my new puppy" may have joined the old dog, not replaced it)
_RENEWED = frozenset({"new", "current", "present"})
_ANIMALS = frozenset(
    {"dog", "cat", "puppy", "kitten", "pet", "bird", "parrot", "fish", "hamster", "rabbit"}
)


def _renews(word: str, head: str) -> bool:
    head = head.lower()
    return word in _RENEWED and head not in PEOPLE and head not in _ANIMALS


def _owner_of_name(subject: Token) -> Token | None:
    """ "My GitHub username", "my AWS account ID": the tagger hung "my" on the name that
    begins the thing, itself a compound of it."""
    for token in subject.lefts:
        for poss in token.subtree:
            if poss.dep_ != "poss" or poss.head.pos_ != "PROPN":
                continue
            head = poss.head
            while head.i != subject.i and head.dep_ == "compound":
                head = head.head
            if head.i == subject.i:
                return poss
    return None


def _subject_key(subject: Token, predicate: str) -> tuple[str, str, bool]:
    """(subject as written, predicate, first person?) with possessives folded in:
    "my editor is Helix" -> ("I", "has_editor"); "the deploy target is prod" ->
    ("deploy target", "is")."""
    low = subject.lower_
    if low in ("i", "me"):
        return "I", predicate, True
    if low in ("we", "us"):
        return "we", predicate, False
    if any(c.dep_ == "conj" and c.lower_ in ("i", "me") for c in subject.children):
        return "I", predicate, True  # "My wife and I live in Oslo": so does the user
    named = next(
        (
            c
            for c in subject.children
            if c.dep_ == "appos"
            and c.pos_ == "PROPN"
            or c.dep_ == "compound"
            and c.pos_ == "PROPN"
            and c.i > subject.i
        ),
        None,
    )
    if named is not None and subject.pos_ == "NOUN":
        return _span_text(_noun_phrase(named)), predicate, False  # "My colleague Will"
    owner = next((c for c in subject.children if c.dep_ == "poss"), None) or _owner_of_name(subject)
    phrase = normalize_predicate(
        " ".join(
            t.lemma_.lower() if t.i == subject.i and t.tag_ in ("NN", "NNP") else t.lower_
            for t in _noun_phrase(subject)
            if t.dep_ != "amod" or t.head.i != subject.i or not _renews(t.lower_, subject.lemma_)
        )
    )
    # "my wife's name", "Arttu's wife's name": the thing belongs to the owner's owner
    # (keyed on "wife" alone, everyone's wife's name was one slot, and two an invented
    # conflict); "my wife's name is Liisa" -> ("I", "has_wife_name")
    while owner is not None and owner.tag_ in ("NN", "NNS"):
        outer = next((c for c in owner.children if c.dep_ == "poss"), None)
        if outer is None:
            break
        words = [t.lemma_.lower() if t.i == owner.i else t.lower_ for t in _noun_phrase(owner)]
        phrase = normalize_predicate(" ".join([*words, phrase.replace("_", " ")]))
        owner = outer
    copular = predicate == "be" or (predicate.startswith("be_") and predicate.count("_") == 1)
    if owner is not None:
        who = owner.lower_
        if who in ("my", "mine"):
            name, first = "I", True
        elif who in ("our",):
            name, first = "we", False
        elif who in ("his", "her", "their", "its", "your"):
            return who, predicate, False  # an owner with no name: no key worth keeping
        else:
            name = _span_text(_noun_phrase(owner) or [owner])
            name, first = re.sub(r"'s?$", "", name).strip(), False
        if copular:  # "my editor is Helix", "my standup is at 9:30"
            return name, f"has_{phrase}{predicate[2:]}", first
        return name, f"{phrase}_{predicate}", first
    if (
        predicate == "be"
        and subject.pos_ in ("NOUN",)
        and any(c.dep_ == "det" and c.lower_ in ("the", "this") for c in subject.children)
    ):
        verb = subject.head
        plural = subject.tag_ == "NNS" or verb.lower_ in ("are", "were")
        return _qualified(subject), "are" if plural else "is", False
    return (
        _qualified(subject) if subject.pos_ != "PRON" else subject.text,
        predicate,
        False,
    )


def _qualified(subject: Token) -> str:
    """A thing as written with the qualifier that says which one it is: "the deploy
    target for the api" and "... for the web app" are two slots, not one with two
    values."""
    words = _noun_phrase(subject)
    qualifier = next(
        (
            c
            for c in subject.rights
            if c.dep_ == "prep"
            and c.lower_ in ("for", "of")
            and any(g.dep_ == "pobj" for g in c.children)
        ),
        None,
    )
    if qualifier is not None:
        words = [*words, *qualifier.subtree]
    return _span_text(words)


# -- the stored sentence ---------------------------------------------------------------------
def _finite(subject: Token) -> Token | None:
    """The verb that agrees with `subject`: the first auxiliary before the head, or the head."""
    head = subject.head
    auxes = [c for c in head.children if c.dep_ in ("aux", "auxpass") and c.i < head.i]
    for tok in [*auxes, head]:
        if tok.tag_ in ("VBP", "VBZ", "VBD", "MD") or (
            tok.tag_ == "VB" and tok is head and not auxes
        ):
            return tok
    return None


_CONTRACTED = {
    "'m": "is",
    "’m": "is",
    "'ve": "has",
    "’ve": "has",
    "'re": "is",
    "’re": "is",
    "'ll": "will",
    "’ll": "will",
}


def _typed_contraction(token: Token) -> bool:
    """A contraction typed without its apostrophe ("im", "ive", "theyre"), split off its
    pronoun by the tokenizer, or with a space for it ("i m", "they re"), and given its
    base form by the pipeline (`credo.nlp`)."""
    return (
        token.i > 0
        and (not token.doc[token.i - 1].whitespace_ or token.doc[token.i - 1].pos_ == "PRON")
        and token.lower_ in ("m", "re", "ve", "s")
        and token.lemma_ in ("be", "have")
    )


def _third_person(verb: Token) -> str | None:
    """The form of `verb` after a third-person singular subject, or None if unknown."""
    from .nlp import inflect

    low = verb.lower_
    if low in _CONTRACTED:
        return " " + _cased(_CONTRACTED[low], verb.text[1:])
    if _typed_contraction(verb):  # "im" -> "The user is"
        return " " + _cased(_CONTRACTED["'" + low], verb.text)
    if low in ("'d", "’d") or low == "d" and verb.i > 0 and not verb.doc[verb.i - 1].whitespace_:
        nxt = verb.nbor() if verb.i + 1 < len(verb.doc) else None
        return " " + _cased(
            "had" if nxt is not None and nxt.tag_ == "VBN" else "would", verb.text[1:]
        )
    if verb.tag_ == "VBD" and low == verb.lemma_.lower() and not _past_by_the_sentence(verb):
        return None  # "I read a lot": the tagger's past may be a present; stored as said
    if verb.tag_ in ("VBD", "MD", "VBZ"):
        return verb.text if low != "were" else _cased("was", verb.text)
    if low in ("am", "are"):
        return _cased("is", verb.text)
    if low == "do":
        return _cased("does", verb.text)
    if (
        low == "use"
        and verb.i + 1 < len(verb.doc)
        and verb.nbor().lower_ == "to"
        and bool(verb.nbor().whitespace_)
    ):
        return None  # "i use to sing in a choir": "used to" typed as it sounds; as said
    if low == "have":
        return _cased("has", verb.text)
    if (
        low in ("wanna", "gonna", "gotta")
        or low in ("wan", "gon", "got")
        and verb.i + 1 < len(verb.doc)
        and verb.nbor().lower_ in ("na", "ta")
    ):
        return None  # "I wanna", "I gotta": no third person of these
    if verb.tag_ in ("VBP", "VB") and inflect(verb.lemma_.lower(), "VBD") == low:
        # "I quit smoking": past or present? Said with a past time, it is the past;
        # otherwise it is not ours to decide, and the sentence is stored as said
        return verb.text if _past_by_the_sentence(verb) else None
    if verb.tag_ in ("VBP", "VB") and inflect(_verb_lemma(verb), "VBD") == low:
        return verb.text  # "I retook the test": a past form the tagger missed
    form = inflect(verb.lemma_.lower(), "VBZ")
    return _cased(form, verb.text) if form else None


_PAST_UNITS = frozenset(
    {
        "week",
        "month",
        "year",
        "night",
        "weekend",
        "summer",
        "winter",
        "spring",
        "fall",
        "autumn",
        "time",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    }
)


def _said_of_the_past(sent: Span) -> bool:
    """A past time in the sentence: "yesterday", "last week", "two years ago", "in 2019"."""
    words = [t.lower_ for t in sent]
    for n, word in enumerate(words):
        if (
            word in ("yesterday", "ago")
            or word == "last"
            and n + 1 < len(words)
            and words[n + 1] in _PAST_UNITS
        ):
            return True
        if (
            word in ("in", "since")
            and n + 1 < len(words)
            and re.fullmatch(r"(19|20)\d\d", words[n + 1])
        ):
            return True
    return False


#: adverbs that put the verb they modify in the past: "i just set up a meeting", "i
#: finally quit"
_JUST_DONE = frozenset({"just", "finally", "recently", "already", "earlier"})
#: "this morning", "the other day": times of a day gone by
_DAY_GONE = re.compile(
    r"\b(?:this (?:morning|afternoon)|earlier today|the other (?:day|night|week)|"
    r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.IGNORECASE,
)


def _past_by_the_sentence(verb: Token) -> bool:
    """A verb whose past and present are one word ("hit", "set", "put", "quit") told in the
    past by its sentence: a past time (`_said_of_the_past`), an adverb of a thing done
    ("just", "finally"), a time of a day gone by ("this morning", "on friday"), or another
    verb of the sentence in a form only the past has ("i hit the winning shot and we won
    the cup")."""
    from .nlp import inflect

    sent = verb.sent
    if _said_of_the_past(sent):
        return True
    if any(c.dep_ == "advmod" and c.lower_ in _JUST_DONE for c in verb.children):
        return True
    if _DAY_GONE.search(sent.text):
        return True
    for tok in sent:
        if tok.i == verb.i or tok.tag_ != "VBD" or tok.pos_ not in ("VERB", "AUX"):
            continue
        lemma = tok.lemma_.lower()
        if (
            tok.lower_ != lemma
            and inflect(lemma, "VBD") == tok.lower_
            and lemma not in ("be", "have", "do")
        ):
            return True
    return False


def _verb_lemma(token: Token) -> str:
    """A verb's base form: lemminflect's reading of the word, which gets "hoping" (hope),
    "blogging" (blog) and "retook" (retake) right where the tagger's lemma may not."""
    from lemminflect import getLemma

    from .nlp import unknown_word

    if _typed_contraction(token):
        return token.lemma_  # "im", "ive": the pipeline gave the base form
    if unknown_word(token.lower_) and token.lemma_.lower() != token.lower_:
        return token.lemma_.lower()  # "wrok": read as the word it was typed for (nlp.spelt)
    found = getLemma(token.lower_, upos="VERB")
    return str(found[0]) if found else token.lemma_.lower()


def _cased(word: str, like: str) -> str:
    """`word` written the way `like` was: LIVE -> LIVES, Live -> Lives, live -> lives."""
    if len(like) > 1 and like.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _shared_verbs(head: Token) -> list[Token] | None:
    """Finite verbs conjoined to `head` with no subject of their own ("teach and do"), or
    None when one may be a noun the tagger read as a verb: "I'm allergic to peanuts and
    fish" is not "... and fishes" (a word that is no verb at all, "shellfish", is skipped)."""
    out = []
    for conj in head.conjuncts:
        if conj.i < head.i or any(c.dep_ in _SUBJ for c in conj.children):
            continue
        doc = conj.doc
        if (
            conj.left_edge.i > 0
            and doc[conj.left_edge.i - 1].text == ","
            and not any(c.i > conj.i for c in head.conjuncts)
        ):
            # "left acme and joined a startup, wish me luck": a verb spliced on after a
            # comma with no "and" to come is said to the listener
            continue
        auxes = [c for c in conj.children if c.dep_ in ("aux", "auxpass") and c.i < conj.i]
        verb = auxes[0] if auxes else conj
        if (
            verb.tag_ in ("VBP", "VB")
            and verb.pos_ in ("VERB", "AUX")
            or (
                verb.tag_ == "NN" and _base_verb(verb.lower_)  # "... and work at Reaktor"
            )
            or (
                # "i cook and clean for my family", "I swim and run every week": a verb the
                # tagger read as an adjective or a participle, with words of its own
                not auxes
                and head.tag_ == "VBP"
                and verb.tag_ in ("JJ", "VBN")
                and _base_verb(verb.lower_)
                and any(True for _ in verb.children)
            )
        ):
            if not auxes and verb.pos_ == "VERB" and not _base_verb(verb.lower_):
                continue
            if not auxes and head.lemma_ == "be" and not list(conj.children):
                return None
            out.append(verb)
    return out


_VERB_PREPS = frozenset({"at", "from", "as", "for", "with", "in", "on", "near", "by", "to"})
_CLAUSES = frozenset({"ccomp", "advcl", "relcl", "acl", "xcomp", "pcomp", "csubj", "parataxis"})


#: verbs of state, which a modal rarely carries over "and": "I can sew quilts and want
#: to sell them" is "wants"
_STATIVE = frozenset({"want", "need", "know", "love", "like", "hate", "have", "own", "be"})


def _shares_auxiliary(finite: Token, verb: Token) -> bool | None:
    """Does `verb`, conjoined after the subject's `finite` verb, share that auxiliary?
    True for a modal ("I will retire and move", "I can draw and paint") and for a negated
    "do" before "or" ("I don't smoke or eat meat"); False across "but" ("I would love
    a dog but need to move first"), for an emphatic "do", for "be" and "have" ("I am
    learning Welsh and know some": "knows"); None where English leaves it open ("I
    don't like tea and have red hair", "I can sew quilts and want to sell them"): the
    sentence is then stored as said."""
    if verb.dep_ in ("aux", "auxpass") or verb.i <= finite.i:
        return False
    if finite.dep_ not in ("aux", "auxpass"):
        return False  # "I do yoga and run marathons": "do" is the verb itself
    between = finite.doc[finite.i + 1 : verb.i]
    if any(t.lower_ in ("but", "yet") for t in between):
        return False
    joined_by_and = any(t.lower_ == "and" for t in between)
    lemma = verb.lemma_.lower()
    if finite.tag_ == "MD":
        return None if joined_by_and and lemma in _STATIVE else True
    if finite.lemma_.lower() != "do" or lemma == "be":
        return False
    negated = any(c.dep_ == "neg" for c in finite.head.children) or any(
        t.lower_ in ("not", "n't", "never") for t in finite.doc[finite.i : finite.i + 2]
    )
    if not negated:
        return False  # "I do cook with friends and love it": "loves"
    return None if joined_by_and else True


def _verbs_hung_on_objects(head: Token) -> list[Token] | None:
    """Verbs that share the subject but that the tagger conjoined to the object: "I like
    tea and hate coffee", "I am a teacher and work at Reaktor". Only a verb with words of
    its own ("hate coffee"); None when a bare word may be a verb or a noun ("I like
    cooking and travel", "I am retired and travel"): then nothing is rewritten."""
    out = []
    for t in head.subtree:
        if t.dep_ != "conj" or t.i < head.i or t.head.i == head.i:
            continue
        if any(c.dep_ in _SUBJ for c in t.children):
            continue
        path = []
        for a in t.ancestors:
            if a.i == head.i:
                break
            path.append(a)
        if any(a.dep_ in _CLAUSES for a in [t, *path]):
            continue
        verbish = t.tag_ in ("VB", "VBP") and t.pos_ == "VERB" or t.tag_ == "NN"
        if not (verbish and _base_verb(t.lower_)) or any(
            c.dep_ in ("det", "poss", "nummod", "amod", "compound") for c in t.children
        ):
            continue  # "a cat and a dog": a noun, whatever else "dog" can be
        if any(c.dep_ == "aux" for c in t.children):
            continue  # "how to repair cars": not a finite verb
        if t.tag_ == "NN":
            # the tagger read a noun: a verb only with what verbs take ("and work at
            # Reaktor"), never in a list ("chess, cards, and pool in pubs like that")
            listed = t.head.dep_ == "conj" or any(x.text == "," for x in t.doc[t.head.i : t.i])
            if _verb_of_its_own(t) and not listed:
                out.append(t)
            continue  # "a keyboard and chair", "cooking and travel": a noun
        own = [
            c
            for c in t.children
            if c.dep_ in ("dobj", "prep", "xcomp", "attr", "acomp", "prt", "advmod", "npadvmod")
        ]
        if not own:
            return None  # "I play board games and paint": a verb, or a noun read as one
        out.append(t)
    return out


def _base_verb(word: str) -> bool:
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word).get("VERB", ())
    return word in lemmas


def rewrite(sent_text: str, name: str) -> tuple[str, bool]:
    """`sent_text` with the first-person speaker named `name` ("The user", "Arttu"), and the
    verbs that agreed with "I" inflected. (text, changed); the text unchanged when any part
    of the rewrite is not certain."""
    from .nlp import parse

    doc = parse(sent_text)
    if not any(t.lower_ in _FIRST for t in doc):
        return sent_text, False
    if any(t.lower_ == "t" and t.i > 0 and doc[t.i - 1].lower_ in _BARE_NEGATIVES for t in doc):
        return sent_text, False  # "I don t own a car": a negation spelt apart, left as said
    lower_name = name if name != "The user" else "the user"
    quoted = _quoted(doc)
    out: dict[int, str] = {}
    for tok in doc:
        low = tok.lower_
        if low not in _FIRST or tok.i in quoted:
            continue  # 'My motto is "I never give up"': a quotation is kept word for word
        hyphenated = (
            tok.i + 1 < len(doc) and doc[tok.i + 1].text in ("-", "‐") and not tok.whitespace_
        ) or (tok.i > 0 and doc[tok.i - 1].text == "-" and not doc[tok.i - 1].whitespace_)
        if hyphenated:
            return sent_text, False  # "some me-time": a word of its own, not the speaker
        if low == "i":
            if tok.dep_ not in ("nsubj", "nsubjpass", "conj"):
                return sent_text, False  # "I, too, love jazz" read as a noun phrase
            if tok.dep_ == "conj" and tok.head.dep_ not in ("nsubj", "nsubjpass"):
                return sent_text, False  # "I have ferrets and I like jazz" misparsed
            if tok.dep_ == "conj" and any(
                c.dep_ in ("cc", "preconj") and c.lower_ not in ("and", "both")
                for c in tok.head.children
            ):
                return sent_text, False  # "Neither my wife nor I smoke": the verb agrees with I
            out[tok.i] = lower_name
            glued = doc[tok.i + 1] if tok.i + 1 < len(doc) and not tok.whitespace_ else None
            if glued is not None and glued.lower_ == "d":  # "id walked there": "I'd"
                after = doc[glued.i + 1] if glued.i + 1 < len(doc) else None
                past = after is not None and (
                    after.tag_ in ("VBN", "VBD") or after.lower_ == "been"
                )
                out[glued.i] = " had" if past else " would"
            if (
                tok.dep_ in ("nsubj", "nsubjpass")
                and tok.dep_ != "conj"
                and not any(c.dep_ == "conj" for c in tok.children)
            ):
                verb = _finite(tok)
                if verb is None:
                    return sent_text, False
                if verb.i < tok.i:  # inverted ("Am I ...", "so do I"): not a plain statement
                    return sent_text, False
                form = _third_person(verb)
                if form is None:
                    return sent_text, False
                out[verb.i] = form
                # "I both teach and do research": verbs sharing the subject agree too
                shared = _shared_verbs(tok.head)
                hung = _verbs_hung_on_objects(tok.head)
                if shared is None or hung is None:
                    return sent_text, False
                shared += hung
                # "I could lend my tools and help out", "I don't smoke or eat meat":
                # a verb with no auxiliary of its own shares a modal or "do", and stays
                sharing = [_shares_auxiliary(verb, v) for v in shared]
                if None in sharing:
                    return sent_text, False  # "I don't like tea and have red hair"
                shared = [v for v, shares in zip(shared, sharing, strict=True) if not shares]
                for other in shared:
                    form = _third_person(other)
                    if form is None:
                        return sent_text, False
                    out[other.i] = form
        elif low in ("my", "mine"):
            out[tok.i] = f"{lower_name}'s"
        elif low == "me":
            out[tok.i] = lower_name
        elif low == "myself":
            out[tok.i] = "themselves" if name == "The user" else name
    pieces: list[str] = []
    before = ""  # the last word written: a sentence starts after ".", "!" or "?"
    for tok in doc:
        word = out.get(tok.i, tok.text)
        if tok.i in out and word.startswith(" ") and pieces and pieces[-1].endswith(" "):
            word = word[1:]
        if tok.i in out and (before == "" or before in (".", "!", "?") and tok.text[0].isupper()):
            # a sentence's first word: "I live in Oslo. I work ..." -> "... The user works";
            # one typed in lower case after the first stays so ("oh . i own a store .")
            word = word[:1].upper() + word[1:]
        pieces.append(word + tok.whitespace_)
        if not tok.is_space:
            before = tok.text
    text = "".join(pieces)
    return text, text != sent_text


#: "don t", "can t": a contraction typed without its apostrophe
_BARE_NEGATIVES = frozenset(
    {
        "don",
        "doesn",
        "didn",
        "can",
        "won",
        "isn",
        "aren",
        "wasn",
        "weren",
        "haven",
        "hasn",
        "hadn",
        "couldn",
        "wouldn",
        "shouldn",
    }
)
_OPENING = {'"': '"', "“": "”", "‘": "’", "«": "»"}


def _quoted(doc: Doc) -> set[int]:
    """Indices of the tokens inside quotation marks ("...", “...”, ‘...’, «...»). A straight
    single quote is left alone: it is far more often an apostrophe."""
    inside: set[int] = set()
    closing: str | None = None
    start = 0
    for tok in doc:
        if closing is not None and tok.text == closing:
            inside.update(range(start, tok.i))
            closing = None
        elif closing is None and tok.text in _OPENING:
            closing, start = _OPENING[tok.text], tok.i + 1
    return inside


# -- the whole reading -----------------------------------------------------------------------
# "My favorite season is fall.", "The payments API deploy target is staging.": a copular
# sentence about a definite or possessed thing, which the small tagger misreads when the
# value looks like a verb ("fall", "fried chicken", "staging") or the subject is a long
# compound. Read as a template, only when the parse did not give the key it names.
_COPULAR = re.compile(
    r"^(?P<owner>my|our|the|this|(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)['’]s)\s+"
    r"(?P<thing>[a-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,4})\s+(?P<verb>is|are|was|were)"
    r"(?P<neg>\s+not|n['’]t)?\s+(?P<value>[^\s,;:!?][^,;:!?]{0,60}?)[.!]?$",
    re.IGNORECASE,
)
#: the same sentence with its value said first: "blue is my favourite colour"
_INVERTED = re.compile(
    r"^(?P<value>[^\s,;:!?][^,;:!?]{0,60}?)\s+(?P<verb>is|are|was|were)\s+"
    r"(?P<owner>my|our)\s+(?P<thing>[a-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,4}?)[.!]?$",
    re.IGNORECASE,
)


def _inverted_copular_key(said: str) -> tuple[str, str, str, bool, bool] | None:
    """ "blue is my favourite colour" keyed as "my favourite colour is blue" is: the value
    said first, of a slot its noun names (`_SLOT_WORDS`). The stored words stay as said."""
    found = _INVERTED.match(said.strip())
    if found is None or not {w.lower() for w in found["thing"].split()} & _SLOT_WORDS:
        return None
    return _copular_key(f"{found['owner']} {found['thing']} {found['verb']} {found['value']}")


#: words that make a copular sentence more than "X is Y": left to the parser
_NOT_TEMPLATE = frozenset(
    [
        "not",
        "never",
        "no",
        "n't",
        "nothing",
        "because",
        "when",
        "while",
        "if",
        "that",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "where",
        "why",
        "how",
        "to",
        "than",
        "and",
        "or",
        "but",
        "also",
        "always",
        "usually",
        "sometimes",
        "often",
        "still",
        "now",
        "already",
        "going",
        "gonna",
        "about",
        "like",
        "very",
        "so",
        "too",
        "really",
        "just",
        "being",
        "been",
    ]
)


def _named_last(said: str, thing_words: list[str]) -> bool:
    """ "my daughter zoë is 7": the thing ends in a name typed in lower case (the tagger
    reads it as one), as "my daughter Zoë" does: a person, not a slot."""
    from .nlp import parse

    if len(thing_words) < 2:
        return False
    last, before = thing_words[-1].lower(), thing_words[-2].lower()
    doc = parse(said)
    return any(
        t.lower_ == last
        and t.tag_ in ("NNP", "NNPS")
        and t.i > 0
        and doc[t.i - 1].lower_ == before
        and doc[t.i - 1].tag_ in ("NN", "NNS")
        for t in doc
    )


def _copular_key(said: str) -> tuple[str, str, str, bool, bool] | None:
    """(subject, predicate, object, first person, negated) of a plain copular sentence
    ("my cat's name is not Kit" is negated), or None."""
    found = _COPULAR.match(said.strip())
    if found is None:
        return None
    words = re.findall(r"[\w'’-]+", f"{found['thing']} {found['value']}".lower())
    if any(w in _NOT_TEMPLATE or w.endswith(("n't", "n’t")) for w in words):
        return None
    thing_words = found["thing"].split()
    value = found["value"].strip()
    owner, verb = found["owner"].lower(), found["verb"].lower()
    no = found["neg"] is not None
    plural = verb in ("are", "were")
    if owner in ("the", "this"):
        return " ".join(thing_words), "are" if plural else "is", value, False, no
    if plural or any(w[:1].isupper() for w in thing_words) or _named_last(said, thing_words):
        return None  # "my kids are ...", "my wife Laura is ...": left to the parser
    from .nlp import lemma_of

    head = lemma_of(thing_words[-1].lower()) or thing_words[-1].lower()
    modifiers = [w.lower() for w in thing_words[:-1] if not _renews(w.lower(), head)]
    phrase = normalize_predicate(" ".join([*modifiers, head]))
    if owner == "my":
        return "I", f"has_{phrase}", value, True, no
    if owner == "our":
        return "we", f"has_{phrase}", value, False, no
    name = found["name"]
    if not name or name.split()[0].lower() in ("his", "her", "their", "its", "your"):
        return None  # "Her husband's name is Tom": whose, the sentence does not say
    return name, f"has_{phrase}", value, False, no


#: subjects that are no one in particular: "Nobody on my team uses Java" is a claim, but
#: not one about an entity called "nobody" (keyed so, it was one with "Nobody likes Mondays")
_QUANTIFIERS = frozenset(
    {
        "nobody",
        "no one",
        "everyone",
        "everybody",
        "someone",
        "somebody",
        "anyone",
        "anybody",
        "nothing",
        "everything",
        "something",
        "anything",
        "none",
        "all",
        "each",
        "most",
        "many",
        "few",
        "some",
    }
)
#: nouns of a slot that an adjective or "a ..." fills: "my favourite colour is blue", "my
#: shirt size is medium" name the one value; "my car is red" describes the car
_SLOT_WORDS = frozenset(
    {
        "favourite",
        "favorite",
        "preferred",
        "colour",
        "color",
        "size",
        "status",
        "type",
        "level",
        "mode",
        "shade",
        "flavour",
        "flavor",
        "style",
        "setting",
        "choice",
        "pick",
        "name",
    }
)


def _described(predicate: str, value: list[Token]) -> str:
    """`has_<noun>` for "my <noun> is <value>" names the one value of a slot ("my editor is
    Helix", "my name is Arttu", "my laptop is a ThinkPad"), unless the value describes
    the thing instead of naming it: "my wife is a doctor" (a person's role), "my wife is
    Finnish", "my car is red" (a quality) are some of many things true of one wife or car
    (`wife_be`, many-valued, as "I am ..." is), not rival values of one slot. A slot's
    own noun ("favourite colour", "shirt size") keeps it, as does a value that is a
    setting ("my standup is daily", "my repo is private"). "The <noun> is ..." (`is`) is
    left one-valued: a team's "the rotation is weekly" names the setting far more often
    than it describes."""
    if not predicate.startswith("has_") or predicate.count("has_") != 1:
        return predicate
    phrase = predicate[len("has_") :]
    words = [t for t in value if not t.is_punct]
    if not words or set(phrase.split("_")) & _SLOT_WORDS:
        return predicate
    if len(words) == 1 and (_typed_name(words[0]) or _given_name(words[0])):
        return predicate  # "my coach is viktor", "my tortoise is called shelly"
    person = phrase.rsplit("_", 1)[-1] in PEOPLE
    if not person and _names_a_product(words):
        return predicate  # "my frontend is react": a product is named, whatever its tag
    describes = (
        # a person is named by a name: "my partner is Sam", never "my partner is vegan"
        person
        and not any(t.pos_ == "PROPN" or t.text[:1].isupper() for t in words)
        or all(t.pos_ in ("ADJ", "ADV") or t.tag_ == "VBN" for t in words)
        and any(_quality(t) for t in words)
    )
    return f"{phrase}_be" if describes else predicate


def _names_a_product(words: list[Token]) -> bool:
    """Is the value, all of it, a product's name ("react", "arch linux")?"""
    from .language.products import products_in

    said = [t.lower_ for t in words if t.pos_ != "DET"]
    found = products_in(said)
    return len(found) == 1 and set(said) <= set(found[0].name.split()) | {said[0]}


def _typed_name(token: Token) -> bool:
    """Is `token`, a lower-case word said alone after "my <noun> is", a name typed in
    lower case? A word English does not know ("viktor", "oluwaseun"), or one it knows only
    as a singular noun that is no kind of person ("tom", "rex"): the tagger's guess at
    such a word (an adjective, a noun) says nothing. A quality ("diabetic"), a kind of
    person ("vegan", "nurse") or a word that is also a verb ("mark") is left to the
    tagger."""
    from lemminflect import getAllLemmas

    if not token.is_alpha or token.text != token.lower_ or len(token.text) < 2:
        return False
    readings = set(getAllLemmas(token.lower_))
    if not readings:
        return token.pos_ in ("NOUN", "PROPN", "ADJ")
    return readings == {"NOUN"} and token.tag_ == "NN" and not is_kind_of_person(token.lower_)


def _given_name(token: Token) -> bool:
    """Is `token` the name a thing is "called" or "named" ("my tortoise is called
    shelly"), whatever the tagger made of an unknown word there (an adverb, a noun)?"""
    head = token.head
    return (
        head.lemma_ in ("call", "name")
        and head.tag_ == "VBN"
        and token.i > head.i
        and token.dep_ in ("oprd", "attr", "advmod", "npadvmod", "dobj", "acomp")
    )


#: people one is related to or works with: "my brother is a teacher" says what he is, one
#: of many things; "my laptop is a ThinkPad" says which one the one laptop is
PEOPLE = frozenset(
    {
        "wife",
        "husband",
        "spouse",
        "partner",
        "girlfriend",
        "boyfriend",
        "fiance",
        "fiancee",
        "mother",
        "father",
        "mom",
        "mum",
        "dad",
        "parent",
        "brother",
        "sister",
        "sibling",
        "son",
        "daughter",
        "child",
        "kid",
        "baby",
        "grandmother",
        "grandfather",
        "grandma",
        "grandpa",
        "aunt",
        "uncle",
        "cousin",
        "niece",
        "nephew",
        "friend",
        "neighbour",
        "neighbor",
        "roommate",
        "flatmate",
        "boss",
        "manager",
        "colleague",
        "coworker",
        "teammate",
        "mentor",
        "landlord",
        "doctor",
        "teacher",
        "coach",
    }
)


#: endings of the capitalised adjectives that describe ("Finnish", "Japanese", "American",
#: "French", "Swiss", "Israeli"); other capitalised words the tagger calls adjectives are
#: names ("my editor is Vim")
_DEMONYM = re.compile(r"(?:ish|ese|ian|ean|an|ch|ss|ic|i|ek|ai)$")


def _quality(token: Token) -> bool:
    """Does `token` name a quality (an adjective, a state) rather than a thing? A
    participle only when it looks like one ("married", "retired", "broken": the tagger
    calls "vim" one too)."""
    if token.tag_ == "VBN":
        return token.lower_.endswith(("ed", "en", "wn"))
    if token.pos_ != "ADJ" or token.lower_ in _SETTINGS or not token.is_alpha:
        return False  # "192.168.1.10", "github.com/arttu": the tagger's adjectives
    return not token.text[:1].isupper() or _DEMONYM.search(token.lower_) is not None


#: adjectives that are the value of a setting, one at a time: "daily" or "weekly",
#: "public" or "private"
_SETTINGS = frozenset(
    {
        "hourly",
        "daily",
        "weekly",
        "biweekly",
        "fortnightly",
        "monthly",
        "quarterly",
        "yearly",
        "annual",
        "public",
        "private",
        "internal",
        "external",
        "open",
        "closed",
        "enabled",
        "disabled",
        "required",
        "optional",
        "mandatory",
        "free",
        "paid",
        "remote",
        "hybrid",
        "manual",
        "automatic",
    }
)


#: words that all but deny what they qualify: "I hardly ever drink" is not (drink), nor
#: quite (not_drink); "I like neither tea nor coffee" is no (like, neither tea ...)
_HALF_DENIALS = frozenset({"hardly", "rarely", "seldom", "scarcely", "barely", "neither", "nor"})


def _half_denied(sent: Span) -> bool:
    """Does the sentence say its claim with a word no key can carry (see _HALF_DENIALS)?
    It is stored as said, with no key: keyed, "I rarely use Windows" was a plain (use,
    Windows), and "I use Windows every day" said later its refinement."""
    return any(t.lower_ in _HALF_DENIALS and not _denies_the_subjects(t) for t in sent)


def _denies_the_subjects(word: Token) -> bool:
    """ "Neither my wife nor I smoke": "neither" and "nor" joining the subjects deny the
    verb of each of them (`_negated`), which a key carries (not_smoke)."""
    subject = word.head
    return (
        word.lower_ in ("neither", "nor")
        and word.dep_ in ("preconj", "cc")
        and subject.dep_ in _SUBJ
        and any(c.dep_ == "preconj" and c.lower_ == "neither" for c in subject.children)
    )


#: what one moves to that is not a place to live: "I moved to platform", "we moved to the
#: data team", "I moved to the night shift"
_NOT_PLACES = frozenset(
    {
        "team",
        "department",
        "dept",
        "group",
        "squad",
        "role",
        "position",
        "job",
        "company",
        "project",
        "shift",
        "plan",
        "tier",
        "version",
        "branch",
        "channel",
        "office",
        "floor",
        "desk",
    }
)


def _moved_elsewhere(predicate: str, value: list[Token]) -> bool:
    """Does "moved to ..." name something other than a place to live? `move_to` is
    `live_in` in the catalogue, and "I moved to platform" (a team) superseded where the
    user lives. A place is a name ("Berlin", "São Paulo"), not a team, a shift or a
    plan; anything else is stored as said, with no key."""
    if predicate.removeprefix("not_") not in ("move_to", "relocate_to"):
        return False
    # a name is written as one ("Berlin"); typed in lower case, the tagger's guess (a
    # proper noun "kubernetes", a common noun "leeds") says nothing: the place must be one
    # that English names ("moved to leeds", "moved to north dakota")
    # ("moved to valencia, spain": the town, or the country after it, is a place)
    said = " ".join(t.text for t in value if t.dep_ != "det")
    named = any(t.text[:1].isupper() for t in value) or any(
        is_place(part.strip()) for part in [said.replace(" ,", ""), *said.split(",")]
    )
    return not named or any(t.lemma_.lower() in _NOT_PLACES for t in value)


def _moved_onto(value: list[Token]) -> bool:
    """Does a move's value name a product as all it is ("moved to fly.io", "moved from
    jira to linear")? Then the move is a switch onto it (`migrate_to`), not a home."""
    from .language.products import products_in

    words = [t.lower_ for t in value if not t.is_punct]
    return bool(products_in(words)) and not any(t.lemma_.lower() in _NOT_PLACES for t in value)


#: one-valued relations to a place or an employer, which a description does not fill
PLACE_SLOTS = frozenset({"live_in", "live_at", "work_at", "work_for", "be_born_in"})


def _placed(predicate: str, value: list[Token], sent: Span) -> tuple[str, list[Token]]:
    """ "I live in an apartment", "I work at a startup", "I was born in a small town",
    and (from a writer who capitalises) "I live in the city" describe the place rather
    than name it: keyed on the verb alone, the preposition in the object (`live`, "in an
    apartment"), as "I live at home" is, so that none of them rivals "I live in Virginia"
    on the one-valued `live_in`."""
    base = predicate.removeprefix("not_")
    if base not in PLACE_SLOTS or not value:
        return predicate, value
    indefinite = value[0].lower_ in ("a", "an")
    capitalises = any(t.text == "I" for t in sent) or any(
        t.text[:1].isupper() for t in sent if t.i > sent.start
    )
    unnamed = (
        base.startswith("live_")
        and capitalises
        and not any(ch.isupper() for t in value for ch in t.text)
        # the tagger knows a name typed in lower case ("I live in canada") by its use
        and not any(t.tag_ in ("NNP", "NNPS") for t in value)
        # ... and the gazetteer knows one it does not ("I live in paris", "in leeds");
        # "the city", "the suburbs" describe where, whatever a list holds
        and not (value[0].pos_ not in ("DET", "PRON") and is_place(_span_text(value)))
    )
    if not (indefinite or unnamed):
        return predicate, value
    verb, prep = base.rsplit("_", 1)
    preposition = next(
        (t for t in sent if t.lower_ == prep and t.i == value[0].i - 1),
        None,
    )
    if preposition is None:
        return predicate, value
    negation = "not_" if predicate.startswith("not_") else ""
    return negation + verb, [preposition, *value]


#: words after a place that leave it where one lives ("im in leeds now")
_NOW_ONLY = frozenset(w for w in words("now_words") if " " not in w) | {"these", "days", "anymore"}


def _lives_in(predicate: str, value: list[Token], sent: Span) -> str:
    """ "im in leeds", "i'm in walthamstow, east london": one said to be in a place that
    English names, with nothing said after it but "now", lives there (`live_in`); not "in
    london for work" nor "in the office" (a stay, or no place named). "this week", "at
    the moment" are refused by the gate as transient."""
    if predicate.removeprefix("not_") != "be_in" or not value:
        return predicate
    said = " ".join(t.text for t in value if t.dep_ != "det")
    parts = [p.strip() for p in said.replace(" ,", ",").split(",")]
    if not all(p and is_place(p) for p in parts):
        return predicate
    if any(t.i > value[-1].i and not t.is_punct and t.lower_ not in _NOW_ONLY for t in sent):
        return predicate
    return predicate.replace("be_in", "live_in")


_TELLING = words("telling")
#: verbs by which the speaker asks or tells the listener (lexicon "telling", "telling_verbs")
_ASKING_VERBS = _TELLING | words("telling_verbs")


def _done_to_us(sent: Span, subject: str) -> bool:
    """Is `subject` the "they" of whoever runs the speaker's life ("theyve moved me to
    nights", "they moved our standup to 10")? Such a sentence tells what was done to the
    speaker or their thing: a fact as it stands (stored, with no key: "they" is no one).
    Not what they said, told or think ("they told me to rest": advice)."""
    if subject.lower() != "they" or sent.root.lemma_.lower() in _TELLING:
        return False
    return any(
        t.lower_ in ("me", "us")
        and t.dep_ in ("dobj", "dative", "iobj")
        or t.lower_ in ("my", "our")
        and t.dep_ == "poss"
        and t.head.dep_ == "dobj"
        for t in sent
    )


def _refers_back(sent: Span, subject: str) -> bool:
    """Is `subject` a pronoun whose antecedent the sentence names before it ("I own a cat;
    its name is Miso", "I have a niece, she is 9")? Such a sentence is a fact as it stands
    (stored, with no key: keyed on "its", every pet's name was one slot)."""
    low = subject.lower()
    if low not in _PRONOUN_SUBJECTS:
        return False
    at = next((t.i for t in sent if t.lower_ == low), None)
    return at is not None and any(
        t.pos_ in ("NOUN", "PROPN") and t.i < at and t.lower_ not in _FIRST for t in sent
    )


def _tokens_of(sent: Span, value: str) -> list[Token]:
    """The tokens of `sent` that spell `value` (its last occurrence), or none."""
    at = sent.text.rfind(value)
    if at < 0 or not value:
        return []
    start = sent.start_char + at
    return [t for t in sent if start <= t.idx < start + len(value)]


def past_form(tok: Token) -> bool:
    """A verb in the past tense, also where the tagger read a chat's subjectless "Lost my
    job" as an imperative (the form is the past tense and not the base form)."""
    if tok.tag_ == "VBD":
        return True
    if (
        tok.pos_ != "VERB"
        or tok.tag_ not in ("VB", "VBN")
        or any(c.dep_ in ("aux", "auxpass") for c in tok.children)
    ):
        return False
    from .nlp import inflections, lemma_of

    lemma = lemma_of(tok.lower_)
    return lemma != tok.lower_ and tok.lower_ in inflections(lemma, "VBD")


def _reading(text: str) -> Doc | None:
    """The parse of what a statement says, its wrapper cut and an elided "I" put back
    ("Lost my job" -> "I lost my job"); None when nothing is said."""
    from .nlp import parse

    said = strip_wrapper(text)
    return parse(elided_subject(said)) if said else None


def said_in_the_past(text: str) -> bool:
    """Is the statement's main verb in the past ("I worked at Acme", "i lived in leeds",
    "I used to smoke", "had a dog as a kid")? "I work at Acme" and "I worked at Acme" are
    not one claim: the second may say the first ended."""
    doc = _reading(text)
    for tok in doc if doc is not None else ():
        if tok.dep_ != "ROOT":
            continue
        if past_form(tok) or tok.lemma_.lower() == "use" and tok.tag_ == "VBD":
            return True
        return any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in tok.children)
    return False


def _it_has_been(been: Token) -> bool:
    """ "been a long road", "been ages since we met", "been a crazy week": what "been" says
    is a stretch of time, or a thing described, that is no kind of person, so its
    left-out subject is "it" (or "there"), never the speaker ("been a nurse for years",
    "been a member since 2019", "been vegan", "been a carer" are the speaker's: a word
    WordNet does not know as a noun is never taken for a thing)."""
    from .language.kinds import is_a_noun

    for c in been.children:
        # what "been" is, or a stretch of time when it is nothing else ("been a while
        # since ..."; not the "whole life" of "been teetotal my whole life")
        alone = c.dep_ == "npadvmod" and not any(k.dep_ in ("acomp", "attr") for k in been.children)
        if not (c.dep_ == "attr" or alone) or c.pos_ not in ("NOUN", "PROPN"):
            continue
        noun = c.lemma_.lower()
        if noun in _PERSON_NOUNS or c.lower_ in _PERSON_NOUNS or is_kind_of_person(noun):
            return False
        stretch = c.lower_ in _STRETCHES or noun in _STRETCHES
        if stretch and _since_clause(been) is not None:
            # "been 3 years since i quit smoking", "been ages since we caught up": what is
            # counted from a doing of its own is time, never the speaker
            return True
        if stretch and any(k.dep_ == "nummod" or k.like_num for k in c.children):
            return False  # "been 6 months smoke free": a measure of the speaker's own
        if stretch:
            # "been ages since we caught up"; not "been ages vegan", a stretch the speaker
            # measures their own being by
            return not any(t.lower_ in ("i", "my", "me", "im", "i'm", "ive") for t in been.sent)
        described = any(k.dep_ == "amod" and k.pos_ == "ADJ" for k in c.children)
        return described and is_a_noun(noun)  # "a long road", "a real help"
    return False


#: stretches of time "been" may be with its "it" left out ("been ages since ...")
_STRETCHES = frozenset(
    {"ages", "age", "while", "forever", "eternity", "minute", "week", "day", "month", "year"}
    | {"years", "months", "weeks", "days", "time"}
)


def _doing_as_subject(sent: Span) -> bool:
    """ "Coaching the under 10s and seeing them improve is so rewarding", "trying out new
    recipes has been a blast": the doing the sentence opens with is the subject of a "be"
    later in it, however the parser hung them (it often makes the doing the root and the
    "is" a conjunct): no "I'm" goes before it. A "be" with a subject of its own that is a
    pronoun or a name ("training for a 10k and it is going well") is a clause of its own."""
    for tok in sent[1:]:
        if (
            tok.lemma_.lower() == "be"
            and tok.dep_ != "aux"
            # "is", "was", "has been", "can be"
            and (
                tok.tag_ in ("VBZ", "VBD", "VBN")
                or tok.tag_ == "VB"
                and any(c.tag_ == "MD" for c in tok.children)
            )
            and any(c.dep_ in ("acomp", "attr") for c in tok.children)
            and not any(
                c.dep_ in ("nsubj", "nsubjpass", "expl") and c.pos_ in ("PRON", "PROPN")
                for c in tok.children
            )
        ):
            return True
    return False


#: the listener as what a verb is done to: "enjoy yourself", "treat yourselves"
_LISTENERS = frozenset({"you", "yourself", "yourselves", "ya", "u"})


def _doing_read_as_noun(root: Token, sent: Span) -> bool:
    """ "training for a half marathon": a doing the tagger read as a noun, opening a
    sentence with no finite verb, is the "-ing" of a verb ("train"), said with its "I'm"
    left out ("training for new staff is mandatory" has a verb of its own)."""
    from lemminflect import getAllLemmas

    return (
        root.tag_ == "NN"
        and root.lower_.endswith("ing")
        and "VERB" in getAllLemmas(root.lower_)
        and not any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") for t in sent)
    )


#: verbs of ending a thing (lexicon "ending") whose past the tagger may read as an
#: adjective before a name typed in lower case ("cancelled netflix"); "retired" before a
#: noun is a kind of person ("retired teacher here")
_ENDING_VERBS = words("ending") - {"retire"}


def _ended_read_as_adjective(sent: Span) -> bool:
    """ "cancelled netflix, too expensive", "sold bike last week": a verb of ending in
    the past opening a sentence with no verb of its own, read by the tagger as an
    adjective of the thing it ended (the name in lower case), is the speaker's report
    with its "I" left out."""
    first = sent[0]
    return (
        first.dep_ == "amod"
        and first.tag_ in ("VBN", "VBD")
        and first.head.pos_ in ("NOUN", "PROPN")
        and first.head.dep_ == "ROOT"
        and first.lemma_.lower() in _ENDING_VERBS
        and past_form(first)
        and not any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") for t in sent[1:])
    )


def _continued(clause: str) -> str:
    """`clause` as it reads after a subject put before it: its first letter in lower
    case ("Sold my bike" -> "sold my bike"), unless its first word is all in capitals
    ("FINALLY finished ...", "NYC is home": said so)."""
    first = clause.split(maxsplit=1)[0] if clause.strip() else ""
    if len(first) > 1 and first.isupper():
        return clause
    return clause[:1].lower() + clause[1:]


def elided_subject(clause: str) -> str:
    """ "Sold my bike to a neighbour yesterday" -> "I sold my bike to a neighbour yesterday": a
    report in the past tense with its "I" left out, as people write in chat. The speaker
    is the only subject it can have. A participle with no object may be the passive it
    was said as: "born in leeds" -> "I was born in leeds", "based in oslo" -> "I'm based
    in oslo"; "started at nokia" stays the past tense it is."""
    from .nlp import parse

    sent = next(iter(parse(clause).sents))
    root = sent.root
    if any(c.dep_ in _SUBJ for c in root.children) or opens_with_preposition(sent):
        return clause  # "given my budget": a preposition, not "I was given"
    if any(c.dep_ in ("dobj", "pobj") and c.lower_ in _LISTENERS for c in root.subtree):
        return clause  # "enjoy yourself!", "say hi to you all": said to the listener
    if _were_for_we_are(sent):
        return "we're" + clause[4:]  # "were using postgres for the db", "were on react 18"
    if _my_auxiliary_first(sent):
        return "I " + _continued(clause)  # "was born in leeds", "am a nurse", "have been vegan"
    if root.i + 1 < sent.end and root.nbor().lower_ in ("'s", "’s"):
        return clause  # "rent's 1200 a month": a noun and its "is", not a verb with no "I"
    if _ended_read_as_adjective(sent):
        return "I " + _continued(clause)  # "cancelled netflix, too expensive"
    if root.i == sent.start and root.tag_ == "NN" and _told_of_oneself(root):
        return "I " + _continued(clause)  # "work at kpmg now": read as a noun
    if _level_said(sent):
        return "I'm " + _continued(clause)  # "down to 84 kilos"
    if _counted_own(sent):
        return "I have " + _continued(clause)  # "two kids under five"
    before = [t for t in sent if t.i < root.i]
    from .nlp import participle_only

    if [t.lower_ for t in before] == ["never"] and (
        root.tag_ in ("VBN", "VBD") or participle_only(root.lower_)
    ):
        # "never been to japan", "never owned a car": a denial of the past, its "I" (and
        # the "have" of a participle) left out
        from .nlp import inflections, lemma_of

        said = _continued(clause)
        done = root.lower_ in inflections(lemma_of(root.lower_), "VBN")
        return ("I've " if done else "I ") + said
    if [t.lower_ for t in sent[:2]] == ["no", "longer"] and len(sent) > 2:
        # "no longer running", "no longer work there", "no longer vegan": never a command
        from lemminflect import getAllLemmas

        said = _continued(clause)
        if root.tag_ in ("VB", "VBP") and "VERB" in getAllLemmas(root.lower_):
            return "I " + said
        return "I'm " + said
    if sent[0].lower_ == "been" and sent[0].tag_ == "VBN":
        if _it_has_been(sent[0]):
            return "it's " + _continued(clause)  # "been a long road": it, not the speaker
        return "I've " + _continued(clause)  # "been vegan for six years"
    if _negation_of_mine(before, root):
        return "I " + _continued(clause)  # "didnt go to uni", "dont own a car"
    passive = [t for t in before if not (t.dep_ == "advmod" and t.pos_ == "ADV")]
    if (
        [t.dep_ for t in passive] == ["auxpass"]
        and passive[0].lemma_.lower() == "get"
        and root.tag_ == "VBN"
    ):
        return "I " + _continued(clause)  # "got fired on friday", "just got ..."
    if any(t.pos_ != "ADV" or t.dep_ != "advmod" for t in before) or sent[0].pos_ == "PROPN":
        return clause
    said = _continued(clause)
    if root.tag_ in ("VB", "VBP") and (
        _past_told(root, sent)
        or _told_of_oneself(root)
        or any(t.lower_ in _HABIT_ADVERBS for t in before)
    ):
        # "quit smoking last year", "live in cardiff now", "usually cycle to work"
        return "I " + said
    if (
        root.i == sent.start
        and root.lower_ in _DONE_TO
        and root.tag_ in ("VBN", "VBD")
        and not any(c.dep_ == "dobj" for c in root.children)
        and not (root.i + 1 < sent.end and root.nbor().tag_ in ("PRP$", "DT", "PRP"))
    ):
        return "I was " + said  # "promoted to team lead", "laid off in march"
    if root.lower_ in _STATE_PARTICIPLES and (
        root.tag_ in ("VBN", "JJ")
        # "engaged to sam", read as the past tense: a state by what it is to ("retired in
        # 2019" stays the act it tells)
        or root.tag_ == "VBD"
        and any(c.dep_ == "prep" and c.lower_ in _STATE_PREPOSITIONS for c in root.children)
    ):
        return "I'm " + said  # "married to ines", "based in oslo": a state
    if (
        (root.tag_ == "VBG" or _doing_read_as_noun(root, sent))
        and root.i == sent.start
        and any(c.dep_ in ("dobj", "prep", "npadvmod") or _place_adverb(c) for c in root.children)
        and not _doing_as_subject(sent)
    ):
        return "I'm " + said  # "doing keto atm", "training for a half marathon"
    # "started at nokia in march" is the past tense; "born in leeds", "hired by a bank"
    # are passives: a birth, a participle with its agent, or one never the past tense
    if (
        root.tag_ == "VBN"
        and root.pos_ == "VERB"
        and not any(c.dep_ in ("dobj", "aux", "auxpass", "ccomp", "xcomp") for c in root.children)
        and (
            root.lemma_.lower() in _BORN
            or root.lower_ in _DONE_TO
            or any(c.dep_ == "agent" for c in root.children)
            or not past_form(root)
        )
    ):
        return "I was " + said
    if not past_form(root) or root.lemma_.lower() in _PREFERENCE and shown_thing(root):
        return clause  # "loved that photo of the harbour": praise of what was shown
    if _got_held(root, sent):
        return "I've " + said  # "got 2 kids", "got a collie called bess": had, not gained
    return "I " + said


#: words that date a "got" to a time it happened ("got the keys on friday", "just got a
#: puppy", "got a bike last year")
_WHEN_GOT = _PAST_TIME | frozenset({"today", "tonight", "this", "just", "recently", "finally"})


def _got_held(root: Token, sent: Span) -> bool:
    """ "got 2 kids", "got three cats", "got a border collie called bess": a sentence
    opening with "got" and things counted or named, said of no time, is "I've got", as
    people type it (what one has, not what one was given); "got a job at the library",
    "got the keys on friday", "just got a puppy", "got married" stay the past they are."""
    from .language.schedule import WEEKDAYS

    return (
        root.i == sent.start
        and root.lower_ == "got"
        and any(
            c.dep_ == "dobj"
            and c.pos_ in ("NOUN", "PROPN", "NUM")
            and (
                c.tag_ == "NNS"
                or c.pos_ == "NUM"
                or any(k.dep_ == "nummod" for k in c.children)
                or any(k.dep_ == "acl" and k.lower_ in ("called", "named") for k in c.children)
            )
            for c in root.children
        )
        and not any(
            t.lower_ in _WHEN_GOT
            or t.lower_.rstrip("s") in WEEKDAYS
            or t.like_num
            and len(t.text) == 4
            and t.text[:2] in ("19", "20")
            for t in sent
        )
    )


#: adverbs of habit no command opens with (lexicon "habit_adverbs")
_HABIT_ADVERBS = words("habit_adverbs")


def _negation_of_mine(before: list[Token], verb: Token) -> bool:
    """ "didnt go to uni", "havent had a drink since march", "dont own a car": a negated
    auxiliary opening a sentence with no subject. No command opens with one in the past
    or with "have"; "dont" opens commands ("dont use bullet points"), so it tells only
    before a verb of one's own life or "have". "cant sleep" is left as it is: a
    complaint of the moment as often as an ability."""
    if len(before) != 2 or before[0].dep_ != "aux" or before[1].dep_ != "neg":
        return False
    aux = before[0]
    if aux.tag_ == "VBD" or aux.lemma_.lower() == "have":
        return True
    lemma = verb.lemma_.lower()
    return aux.lemma_.lower() == "do" and (lemma == "have" or lemma in _SELF_REPORTS)


#: words that open a level said without "I'm" ("down to 84 kilos"; lexicon "level_words")
_LEVEL_WORDS = words("level_words")
_SPAN_NOUNS = words("time_nouns")


def _level_said(sent: Span) -> bool:
    """ "down to 84 kilos", "on 20mg of sertraline", "at 3 coffees a day now": a level
    the speaker is at, said with no verb, opened by a word of level, with a number that
    counts no span of time ("in 2 weeks", "for 3 years" say when)."""
    if sent[0].lower_ not in _LEVEL_WORDS or any(t.pos_ in ("VERB", "AUX") for t in sent):
        return False
    from .nlp import lemma_of

    for tok in sent:
        if tok.dep_ in ("nummod", "compound") and (tok.like_num or tok.pos_ == "NUM"):
            counted = tok.head  # "84 kilos", "3 coffees"; not "2 weeks"
            if counted.pos_ in ("NOUN", "PROPN") and lemma_of(counted.lower_) not in _SPAN_NOUNS:
                return True
        elif _MEASURE.fullmatch(tok.lower_) and not tok.lower_.endswith(("am", "pm")):
            return True  # "60k", "15mg"; not "5pm"
    return False


def _counted_own(sent: Span) -> bool:
    """ "two kids under five", "3 cats and a rabbit", "nine houseplants on the windowsill":
    a count of people, animals, plants or vehicles that is the whole sentence (no verb
    of its own: what it holds hangs on the count) is what the speaker has (as "two kids
    here" is). Not a count of anything else ("2 eggs and some flour", "three weeks to
    go", "20 min from town")."""
    from .language.kinds import is_a_kind_of
    from .nlp import lemma_of

    first = sent[0]
    noun = first.head
    if (
        not first.like_num
        or first.dep_ != "nummod"
        or noun.dep_ != "ROOT"
        or noun.pos_ != "NOUN"
        or any(c.dep_ in _SUBJ for c in noun.children)
    ):
        return False
    lemma = lemma_of(noun.lower_)
    return lemma not in _SPAN_NOUNS and any(
        lemma == kind or is_a_kind_of(lemma, kind) for kind in _KEPT_KINDS
    )


#: the kinds of thing a count said with no verb is had of (`_counted_own`), in WordNet
_KEPT_KINDS = ("person", "animal", "mammal", "bird", "plant", "conveyance")

#: a number with its unit typed on: "60k", "15mg", "84kg", "20%"
_MEASURE = re.compile(r"\d[\d.,]*[a-z%]+")


#: finite forms of "be" and "have" only the speaker (or "we" and "they", for "have") can
#: be the subject of, opening a sentence with no subject: "am a nurse", "was born in
#: leeds", "have been vegan for 6 years"; not "is" or "has" ("has been a rough year": it)
_MY_AUXILIARIES = frozenset({"am", "was", "have", "had", "'ve"})


def _my_auxiliary_first(sent: Span) -> bool:
    """Does `sent` open with "am", "was", "have" or "had" as the verb of its own root (an
    auxiliary, a passive's, or the copula itself), with no subject anywhere: a statement
    of the speaker's, its "I" left out ("was diagnosed with asthma as a kid", "am
    allergic to nuts", "have been vegan for 6 years", "was living in paris until 2019")?
    "have a look", "had a dog growing up" ("have" the verb itself, read elsewhere) are
    not."""
    first, root = sent[0], sent.root
    if first.lower_ not in _MY_AUXILIARIES or any(t.dep_ in _SUBJ for t in sent):
        return False
    if first.i == root.i:
        return first.lemma_.lower() == "be"  # "am a nurse", "was in the army for 6 years"
    return first.head.i == root.i and first.dep_ in ("aux", "auxpass")


def _were_for_we_are(sent: Span) -> bool:
    """A statement that opens with "were" and has no subject is "we're" typed without its
    apostrophe ("were using postgres for the db", "were on react 18"); "were you there"
    asks, and has one."""
    first = sent[0]
    return (
        first.lower_ == "were"
        and first.text[:1].islower()
        and len(sent) > 1
        and not sent.text.rstrip().endswith("?")
        and (first.dep_ == "aux" or first.i == sent.root.i)
        and sent[1].pos_ in ("VERB", "ADP", "ADV", "ADJ")
    )


#: participles of where one was born or raised, told without the "I was" ("born in leeds",
#: "raised in ohio"; the tagger's lemmas): events of the past, never a present state
_BORN = frozenset({"bear", "born", "raise"})
#: what is done to one ("diagnosed with asthma", "promoted to lead"): said without "I was"
_DONE_TO = words("life_participles")
_STATE_PARTICIPLES = words("state_participles")
#: what a state participle is to, on or with ("engaged to", "hooked on"), never when
_STATE_PREPOSITIONS = frozenset({"to", "on", "with", "about", "of", "into", "for"})


#: what ends a chat statement's first clause when another is spliced on ("i swim a lot,
#: three times a week"; "moved the site to netlify, the old host kept timing out")
_SPLICES = frozenset({",", ";", "-", "--", "\u2013", "\u2014"})


#: participles by which a sentence opens on the talk itself ("speaking of which, ...",
#: "talking of holidays, ...", "thinking about it, ..."): lexicon "discourse_participles"
_SAYING_PARTICIPLES = words("discourse_participles")


def _first_clause(sent: Span) -> tuple[str, int] | None:
    """The text of a sentence's first clause and the index of the mark that ends it, when
    the sentence is two clauses spliced by a comma (or a dash) and the first is a main
    clause with a verb of its own (not "when I was young, ...", not "yesterday, ...")."""
    for tok in sent:
        if tok.i == sent.start or tok.text not in _SPLICES:
            continue
        if (
            tok.text != ","
            and tok.text != ";"
            and not (tok.whitespace_ and tok.nbor(-1).whitespace_)
        ):
            continue  # "go-to", "e-mail": a hyphen inside a word splices nothing
        if tok.text == "," and tok.i + 1 < sent.end and tok.nbor(1).dep_ == "appos":
            continue  # "moved to valencia, spain": a name's apposition splices nothing
        before = sent.doc[sent.start : tok.i]
        if not any(t.pos_ in ("VERB", "AUX") for t in before):
            return None
        lead = before[0]
        if lead.pos_ == "SCONJ" or lead.tag_ in ("WRB", "WDT", "IN"):
            return None
        if lead.tag_ == "VBG" and lead.lemma_.lower() in _SAYING_PARTICIPLES:
            return None  # "speaking of which, i got a puppy": a word on the talk, no clause
        return sent.doc.text[sent.start_char : tok.idx].strip(), tok.i
    return None


def _first_clause_key(
    sent: Span, found: tuple[Token, str, list[Token], bool] | None
) -> tuple[Span, tuple[Token, str, list[Token], bool] | None, str] | None:
    """ "i knit a lot, two scarves a month" says that the user knits: when the parser
    rooted a spliced sentence in a later clause (its key's subject stands after the
    splice), the key is the first clause's, read alone (with a left-out "I" put back:
    the words put back are returned), or none: the later clause's subject ("two", "the
    old host") is not what the statement is about."""
    split = _first_clause(sent)
    if split is None or found is not None and found[0].i < split[1]:
        return None
    clause, _ = split
    alone = first_sentence(clause)
    key = _key(alone)
    if key is not None:
        return alone, key, ""
    full = elided_subject(clause)
    if full != clause:
        alone = first_sentence(full)
        key = _key(alone)
        if key is not None:
            return alone, key, full[: len(full) - len(clause)]
    return sent, None, ""


#: "there are 6 devs on my team", "theres a lake in our village": an existential "there"
#: with what is there, in or on something of the speaker's
_EXISTENTIAL = re.compile(
    r"^there(?:'s|\u2019s|s| is| are| was| were)\s+(?P<thing>.+?)\s+(?:in|on|at)\s+"
    r"(?P<whose>my|our)\s+(?P<place>[\w' -]+?)\s*[.!]*$",
    re.IGNORECASE,
)


def _existential(said: str) -> str | None:
    """ "there are 6 devs on my team" -> "my team has 6 devs": the sentence an existential
    "there" says of the speaker's thing, for reading its key (the stored words stay as
    said). None for any other sentence."""
    m = _EXISTENTIAL.match(said.strip())
    if m is None:
        return None
    verb = "had" if re.match(r"there\s+w", said.strip(), re.IGNORECASE) else "has"
    return f"{m['whose']} {m['place']} {verb} {m['thing']}"


#: stretches that say only "long", not how long: "it's been ages since i played" says
#: the playing stopped, not when it happened
_VAGUE_STRETCHES = frozenset({"ages", "age", "while", "forever", "eternity"})


def _since_clause(been: Token) -> tuple[Token, Token, list[Token]] | None:
    """(the stretch, the clause it is counted from, that clause's subjects): "it's been [2
    years] since [i moved to leeds]", "been [ages] since [we caught up]" (the verb of a
    "since" clause with a subject of its own, hung on "been" or on the stretch). None for
    anything else ("been vegan since 2019", "it's been 6 months since my divorce": no
    clause)."""
    if been.lemma_.lower() != "be":
        return None
    stretch = next(
        (
            c
            for c in been.children
            if c.dep_ in ("attr", "npadvmod")
            and (c.lower_ in _STRETCHES or c.lemma_.lower() in _STRETCHES)
        ),
        None,
    )
    if stretch is None:
        return None
    for clause in (*been.children, *stretch.children):
        if clause.dep_ != "advcl":
            continue
        # the marker and the subject may hang on an auxiliary the tagger made of a verb
        # ("since i [went] climbing")
        heads = [clause, *(c for c in clause.children if c.dep_ in ("aux", "auxpass"))]
        words = [c for h in heads for c in h.children]
        doers = [c for c in words if c.dep_ in ("nsubj", "nsubjpass")]
        if doers and any(m.dep_ == "mark" and m.lower_ == "since" for m in words):
            return stretch, clause, doers
    return None


def since_said(sent: Span) -> tuple[Span, bool] | None:
    """ "it's been 2 years since i moved to leeds" -> ("i moved to leeds", False); "been
    ages since i played guitar" -> ("i played guitar", True): a stretch of time since a
    doing, with "it" (or nothing) for its subject, says what its "since" clause says, for
    reading its key (the stored words stay as said). A vague stretch ("ages", "a while", "a
    long time") says the doing stopped: its key is denied (True), as "i haven't played
    guitar in ages" is. None for any other sentence."""
    been = sent.root
    found = _since_clause(been)
    if found is None:
        return None
    stretch, clause, doers = found
    subjects = [c for c in been.children if c.dep_ in _SUBJ]
    if subjects and not all(c.lower_ in ("it", "its") for c in subjects):
        return None  # "I've been a nurse 2 years since i qualified": the speaker's own
    if not subjects and been.i != sent.start:
        return None
    vague = stretch.lower_ in _VAGUE_STRETCHES or (
        stretch.lemma_.lower() == "time" and any(c.lower_ == "long" for c in stretch.children)
    )
    if vague and any(c.lower_ in ("we", "you", "u") for c in doers):
        return None  # "been ages since we caught up": said of the talk, no one's habit
    words = [t for t in clause.subtree if not (t.dep_ == "mark" and t.lower_ == "since")]
    return sent.doc[words[0].i : words[-1].i + 1], vague


def _read_as(
    sent: Span, found: tuple[Token, str, list[Token], bool] | None, said_as: str | None
) -> tuple[Span, tuple[Token, str, list[Token], bool] | None]:
    """(sentence, key) of `said_as`, the same statement said another way, where it has a
    key; else the `sent` and `found` given."""
    if said_as is None:
        return sent, found
    retry = first_sentence(said_as)
    again = _key(retry)
    return (retry, again) if again is not None else (sent, found)


def _gerund_said(sent: Span) -> str | None:
    """ "paying 1450 rent every month is killing me" -> "i pay 1450 rent every month": a
    doing said as the subject of what it does to the speaker, with no doer of its own,
    opening the sentence, is the speaker's doing, for reading its key (the stored words
    stay as said). None for any other sentence ("my son starting school is hard" has its
    doer, "eating meat is wrong" is a view)."""
    root = sent.root
    doing = next((c for c in root.children if c.dep_ == "csubj"), None)
    if (
        doing is None
        or doing.tag_ != "VBG"
        or doing.i != sent.start
        or any(c.dep_ in _SUBJ for c in doing.children)
        # what it does to the speaker ("is killing me", "drives us mad"); "eating meat is
        # wrong" is a view of anyone's eating
        or not any(c.dep_ in ("dobj", "dative") and c.lower_ in ("me", "us") for c in root.children)
    ):
        return None
    words = [t for t in doing.subtree if t.i > doing.i]
    rest = sent.doc[words[0].i : words[-1].i + 1].text if words else ""
    return f"i {doing.lemma_.lower()} {rest}".strip()


#: nouns a relative clause says when, why or how of, not what ("the reason i moved")
_NOT_WHAT = words("adverbial_nouns")


def relative_thing(text: str, me: str = "user") -> str | None:
    """The kind of thing a statement names by what the speaker does to it ("the instrument
    i play is the oboe" -> "instrument"; `_relative_said`), said as typed or as stored
    (the speaker `me`: "the instrument the user plays is the oboe"), or None."""
    said = strip_particles(strip_wrapper(text))
    found = _relative_said(first_sentence(said), me.lower()) if said else None
    return found[0] if found else None


def _relative_said(sent: Span, me: str = "") -> tuple[str, str] | None:
    """ "the instrument i play is the oboe" -> ("instrument", "i play the oboe"), "the
    company i work for is monzo" -> ("company", "i work for monzo"): a thing the speaker
    (or "we") does something to, said to be a value, read as the speaker doing it to the
    value (the stored words stay as said); the thing's kind first. None for any other
    sentence, and where the clause says why, when or how ("the reason i moved is work")."""
    root = sent.root
    if root.lemma_.lower() != "be" or any(c.dep_ == "neg" for c in root.children):
        return None
    thing = next((c for c in root.children if c.dep_ == "nsubj"), None)
    value = next((c for c in root.children if c.dep_ in ("attr", "acomp")), None)
    if thing is None or value is None or thing.pos_ != "NOUN" or thing.lemma_ in _NOT_WHAT:
        return None
    clause = next((c for c in thing.children if c.dep_ == "relcl"), None)
    if clause is None or clause.i > root.i or any(c.dep_ == "neg" for c in clause.children):
        return None
    who = [c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(who) != 1 or who[0].lower_ not in ("i", "we", me):
        return None
    if any(c.dep_ in ("dobj", "attr", "ccomp", "xcomp") for c in clause.children) or any(
        c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children) for c in clause.children
    ):
        return None  # the clause has its own object: the thing is none of it
    words = [t for t in clause.subtree if t.tag_ not in ("WDT", "WP") and t.lower_ != "that"]
    told = "".join(t.text_with_ws for t in words).strip()
    return thing.lemma_.lower(), told + " " + "".join(t.text_with_ws for t in value.subtree).strip()


#: "as a 38 year old guy, ...", "as a nurse on nights, ...": who the speaker is, said
#: before what they ask
_AS_A = re.compile(
    r"^\s*as (?:an? )?(?P<who>(?:(?!\b(?:which|what|how|where|when|who|why|is|are)\b)"
    r"[^,.;!?])+?)\s*(?:[,;:]|$|(?=\b(?:which|what|how|where|when|who|why)\b))",
    re.IGNORECASE,
)
#: "being a night nurse, ...", "being gluten free, ...": the same, said with "being" (not
#: before a verb: "being a parent is hard" says no more than that)
_BEING = re.compile(
    r"^\s*being (?:an? )?(?P<who>(?:(?!\b(?:is|are|was|were|has|have|had|makes?|can|will|"
    r"which|what|how|where|when|who|why)\b)[^,.;!?])+?)\s*"
    r"(?:[,;:]|$|(?=\b(?:which|what|how|where|when|who|why)\b))",
    re.IGNORECASE,
)
#: what a diet is said to be without: "gluten free", "dairy-free"
_FREE_OF = re.compile(r"[\w]+[- ]free$", re.IGNORECASE)
_AN_AGE = re.compile(r"\b\d{1,3}[- ]?(?:years?[- ]old|yo|y/o)\b", re.IGNORECASE)
_PERSON_NOUNS = words("person_nouns")
_OCCUPATIONS = words("occupations")
_WHO_ADJECTIVES = words("identity_adjectives")


_OWN_MEASURES = words("own_measures")
#: the groups a speaker does things with ("team", "company"), which "we" names and chat
#: names without "my" ("team ditched jira")
SPEAKERS_GROUPS = words("speakers_groups")


def _mine_without_my(sent: Span, said: str) -> str | None:
    """ "mum lives in cork", "grandad passed last week", "boss quit": a person of one's own
    named without "my", as chat does (a bare singular noun cannot be the subject of an
    English sentence, but a relative's word can be said as a name); and "savings are at
    12k now", "rent is 1400": a thing of one's own measured, said the same way. `said`
    with the "my" put back, or None."""
    first = sent[0]
    subject = next((t for t in sent if t.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or subject.left_edge.i != first.i:
        return None
    if subject.tag_ not in ("NN", "NNS", "NNP"):
        return None
    if any(c.dep_ in ("det", "poss", "prep") for c in subject.children):
        return None  # "the rent", "friend of mine lives in oslo"
    if subject.is_lower and _slot_of_product(subject, sent):
        return "my " + said.lstrip()  # "db is mysql": the tagger's guess at "db" aside
    word = one_spelling(subject.lower_)
    if (
        any(t.tag_ == "NNP" for t in sent[:1])
        and word not in PEOPLE
        and word not in SPEAKERS_GROUPS
    ):
        return None  # "Python 3 is the default": a name, no thing of one's own
    # a relative, or a group the speaker is part of ("team ditched jira", "company
    # switched us over to asana"): said without "my" as chat does
    person = (
        (word in PEOPLE or word in SPEAKERS_GROUPS)
        and subject.tag_ in ("NN", "NNP")
        and subject.head.pos_ in ("VERB", "AUX")
    )
    measured = (
        subject.head.lemma_ == "be"
        and subject.lower_ in _OWN_MEASURES
        # "room 101 is on the first floor": a number that names the subject; "first" no
        # measure
        and not any(c.like_num for c in subject.children)
        and any(t.tag_ == "CD" or t.text[:1].isdigit() for t in sent if t.i > subject.head.i)
    )
    if person or measured or _slot_of_product(subject, sent):
        return "my " + said.lstrip()[:1].lower() + said.lstrip()[1:]
    return None


def _slot_of_product(subject: Token, sent: Span) -> bool:
    """ "db is mysql", "frontend is react": a bare noun that names the kind of the product
    its "is" names (a database, a frontend framework) is the speaker's slot of that kind."""
    from .language.products import kind_words, products_in

    if subject.head.lemma_ != "be" or subject.tag_ not in ("NN", "NNP"):
        return False
    after = [t.lower_ for t in sent if t.i > subject.head.i and not t.is_punct]
    noun = subject.lower_
    return any(
        noun in kind.split()[:1] or noun == kind
        for product in products_in(after)
        for kind in kind_words(product)
    )


def self_description(text: str) -> str | None:
    """The "as a ..." (or "being ...") a text opens with when it says who the speaker is
    ("as a 38 year old guy, is it too late to learn piano?" -> "as a 38 year old guy"): a kind of
    person, a work, an identity or an age; not "as a result" or "as a rule". As said,
    without the comma; None for any other text."""
    m = _AS_A.match(text) or _BEING.match(text)
    if m is None:
        return None
    who = m["who"].lower().split()
    if not (
        _AN_AGE.search(m["who"])
        or any(w in _PERSON_NOUNS or w in _OCCUPATIONS or w in _WHO_ADJECTIVES for w in who)
        or _FREE_OF.search(m["who"])
        # "as a wheelchair user", "as a lefty": a kind of person WordNet knows, read from
        # the last word (the noun the others qualify) or the last two
        or any(is_kind_of_person(" ".join(who[-n:])) for n in (1, 2) if len(who) >= n)
    ):
        return None
    return text[: m.end("who")].strip()


#: where the fragment a message opens with ends: "single dad of two boys, any ..."
_FRAGMENT_END = re.compile(r"\s*(?:[,;:.!?]|\s[-–—]\s)")


#: participles used as prepositions: "given my budget", "regarding my pension"
_PREPOSITIONAL = words("prepositional_participles")
#: what "given" is a preposition before ("given my budget", "given the cost", "given
#: that ..."); before anything else it is the participle ("given a kitten")
_GIVEN_WHAT = frozenset(
    {"my", "our", "his", "her", "their", "your", "the", "that", "this", "these", "how", "what"}
)


def opens_with_preposition(words: Span | Sequence[Token]) -> bool:
    """Do the words open with a participle used as a preposition ("given my budget",
    "regarding my pension"; not "given a kitten by my aunt", "I was given")?"""
    first = [t for t in words if not t.is_punct][:2]
    if not first or first[0].lower_ not in _PREPOSITIONAL:
        return False
    return first[0].lower_ != "given" or len(first) > 1 and first[1].lower_ in _GIVEN_WHAT


_PUZZLED = words("puzzled")
#: verbs of setting out to know, before a verb of knowing: "we are trying to work out why
#: the sink drains slowly", "she wants to know how ..." (lexicon "seeking_to_know")
_SEEKING = words("seeking_to_know")
#: verbs of knowing a search for the reason may end in ("find out", "work out"), beside
#: the words of not knowing
_FINDING_OUT = frozenset({"find", "work"})
#: what else the words before a "why" of not knowing may be: "i", "do", "not", "really",
#: "no" ("i have no idea why")
_PUZZLE_FRAME = ("PRON", "AUX", "PART", "ADV", "DET", "INTJ")


def _told_as_done(verb: Token) -> bool:
    """Is the clause of `verb` told as done, in the past or the perfect, with a subject
    of its own and no modal ("how my score improved", "how i've lost 5kg"; not "how i
    can deploy it", "how to cook rice", "how my score relates to my rank")?"""
    children = list(verb.children)
    if not any(c.dep_ in ("nsubj", "nsubjpass") for c in children):
        return False
    if any(c.tag_ == "MD" or c.dep_ == "aux" and c.lower_ == "to" for c in children):
        return False
    perfect = any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in children)
    # "my accuracy improved": a past tense the tagger reads as a participle when nothing
    # else in the clause says which
    return (
        verb.tag_ == "VBD"
        or verb.tag_ == "VBN"
        and (perfect or not any(c.dep_ in ("aux", "auxpass") for c in children))
    )


def puzzled_why(sent: Span) -> Token | None:
    """The verb of the clause a sentence says the speaker cannot tell the reason for, in
    words of not knowing before its "why" ("i dont understand why ive never had a cavity",
    "I wonder why my cat sleeps all day", "no idea why i never get hay fever"), or sets out
    to know the reason or the way of ("i'm trying to figure out why my bread never rises",
    "i want to understand how my score went up", the "how" only of a clause told as done):
    such a sentence asks why (or how) in other words. None for any other sentence ("I know
    why", "why does my cat sleep all day" asks outright, "explain why ..." is a request,
    "trying to understand how to cook rice" tells no clause)."""
    why = next((t for t in sent if t.lower_ in ("why", "how") and t.dep_ == "advmod"), None)
    if why is None or why.head.i == why.i or why.head.i < why.i:
        return None
    if why.lower_ == "how" and not _told_as_done(why.head):
        return None
    frame = [t for t in sent if t.i < why.i and not t.is_punct]
    said = {t.lemma_.lower() for t in frame} | {t.lower_ for t in frame}
    seeking = bool(said & _SEEKING)
    knowing = _PUZZLED | _FINDING_OUT if seeking else _PUZZLED
    # "The user is trying to figure out": a longer frame, as rewritten
    if not frame or len(frame) > (8 if seeking else 6) or not said & knowing:
        return None
    if not all(
        t.pos_ in _PUZZLE_FRAME
        or t.lemma_.lower() in knowing
        or t.lemma_.lower() in _SEEKING
        or t.lemma_.lower() == "have"
        or t.dep_ == "prt"
        and seeking  # "find out", "figure out"
        or t.dep_ in ("nsubj", "det", "poss", "compound")  # "The user does not ..."
        for t in frame
    ):
        return None
    if "wonder" not in said and not said & _NEG_WORDS and not seeking:
        return None  # "i know why ...", "i see why ...": the reason is known
    verb = why.head  # a verb the tagger may misread: "why people like jazz"
    clause = verb.pos_ in ("VERB", "AUX") or verb.dep_ in ("ccomp", "advcl", "relcl", "acl")
    return verb if clause else None


def speaker_fragment(text: str) -> str | None:
    """The fragment with no subject a message opens with, before its question or request,
    when it says who the speaker is: a kind of person ("single dad of two boys, any easy
    dinners?", "vegetarian since birth. best high protein breakfast?") or a state they
    have been in ("been vegan 8 yrs now, any tips for b12?"), or who they are in one
    word of the lexicon's `identity_adjectives` ("vegan, any advice on b12", "new to
    running, any advice"). As said; None for any other opening ("quick question, ...", "on
    a budget, ...", "new phone, any tips")."""
    m = _FRAGMENT_END.search(text)
    if m is None or m.start() == 0 or m.group().strip() == "?":
        return None  # a piece closed by "?" is the question ("any tips for a new owner?")
    from .nlp import parse

    piece = text[: m.start()].strip()
    if _here_said(piece) is not None:  # "no nut allergies here, can i eat the satay?"
        return piece
    doc = parse(piece)
    words = [t for t in doc if not t.is_punct]
    if words and words[0].lower_ in _WHO_ADJECTIVES and (len(words) == 1 or words[1].pos_ == "ADP"):
        return piece  # "vegan, any advice on b12", "new to running, any advice"
    if len(words) < 2 or any(t.dep_ in _SUBJ for t in words):
        return None
    if words[0].lower_ == "any":
        return None  # "any tips for a first-time owner, ...": asks for some
    if words[0].lower_ == "been" or _counted_own(next(iter(doc.sents))):
        return piece  # "been vegan 8 yrs now", "two kids under five"
    if any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") for t in words) or words[0].pos_ == "ADP":
        return None
    # a kind of person anywhere in it, however the parse hangs the fragment together
    # ("self employed plumber", "stay at home dad for 3 yrs"), but no one else's ("my
    # plumber")
    for tok in words:
        if tok.pos_ not in ("NOUN", "PROPN") or any(c.dep_ == "poss" for c in tok.children):
            continue
        noun = tok.lemma_.lower()
        if noun in _PERSON_NOUNS or is_kind_of_person(noun):
            return piece
    return None


#: "vegan here", "peanut allergy here btw", "no nut allergies here": a chat's way of
#: saying who the speaker is or what they have, the "here" standing for the speaker
_HERE = re.compile(r"(?P<what>[^,;:.!?]+?)\s+here\s*[.!]*", re.IGNORECASE)
#: what a thing had is a kind of, in WordNet, for "<thing> here" to say the speaker has it
_HAD_KINDS = ("condition", "disorder")


def _here_first(said: str) -> str | None:
    """The statement a "<who or what> here" piece opening a message makes (`_here_said`),
    when more is said after it ("lefty here, always smudging my ink", "nurse here - 12 hour
    shifts are brutal"): the piece is what the message says of the speaker."""
    m = _FRAGMENT_END.search(said)
    if m is None or m.start() == 0 or not said[m.end() :].strip():
        return None
    return _here_said(said[: m.start()])


def _here_said(said: str) -> str | None:
    """The statement a "<who or what> here" fragment makes of the speaker ("vegan here"
    -> "I am a vegan", "nurse here" -> "I am a nurse", "two kids here" -> "I have two
    kids", "peanut allergy here" -> "I have peanut allergy", "no nut allergies here" ->
    "I have no nut allergies"), for keying
    only (the words said are stored); None for anything else ("cold here", "2am here",
    "same here", "i live here")."""
    m = _HERE.fullmatch(said.strip())
    return None if m is None else _who_is(m["what"].strip())


def _who_is(what: str) -> str | None:
    """The statement a verbless piece naming who the speaker is or what they have makes
    ("vegan" -> "I am a vegan", "mum of 4" -> "I am a mum of 4", "two kids" -> "I have
    two kids", "no nut allergies" -> "I have no nut allergies"); None for anything else
    ("cold", "same", "great weather")."""
    from .language.kinds import is_a_kind_of
    from .nlp import lemma_of, parse

    doc = parse(what)
    tokens = [t for t in doc if not t.is_punct]
    if not 1 <= len(tokens) <= 6 or any(
        t.pos_ in ("VERB", "AUX", "PRON") or t.dep_ in _SUBJ for t in tokens
    ):
        return None
    denied = tokens[0].lower_ == "no"
    # the noun the others hang on ("mum of 4": "mum"), else the last word
    head = next((t for t in tokens if t.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN")), tokens[-1])
    noun = lemma_of(head.lower_) if head.tag_ in ("NNS", "NNPS") else head.lower_
    # "night owl", "morning person": the head and the noun before it may name the kind
    before = doc[head.i - 1] if head.i > 0 else None
    pair = f"{before.lower_} {noun}" if before is not None and before.dep_ == "compound" else ""
    if not denied and (
        noun in _PERSON_NOUNS
        or noun in _OCCUPATIONS
        or noun in _WHO_ADJECTIVES
        # a describing word ("same", "new") is no person, whatever WordNet's noun
        or head.pos_ in ("NOUN", "PROPN")
        and (is_kind_of_person(noun) or bool(pair) and is_kind_of_person(pair))
    ):
        if head.tag_ in ("NNS", "NNPS"):
            return f"I have {what}"  # "two kids here": people of the speaker's
        if head.pos_ == "ADJ" or tokens[0].tag_ == "DT":
            return f"I am {what}"
        return f"I am {'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"
    if head.pos_ in ("NOUN", "PROPN") and any(is_a_kind_of(noun, k) for k in _HAD_KINDS):
        return f"I have {what}"
    return None


#: a verbless description of the speaker, said alone: how it may open ("not a fan of
#: horror films", "never a morning person", "huge arsenal fan") and what it may not be
_LONE_DENIAL = re.compile(r"(?P<denial>not|never)\s+(?P<rest>\S.*)", re.IGNORECASE)
#: words that point at what the conversation had in view rather than name it: a lone
#: description with one says of what to no one reading it later (lexicon
#: "needs_antecedent", "demonstratives"; "one" of "the first one", "yours")
_POINTED_AT = words("needs_antecedent") | words("demonstratives") | {"one", "yours"}
#: "(not) really into football": a liking said with "into" and no verb
_INTO = re.compile(r"(?:(?:really|so|very|totally|super|quite)\s+)*into\s+\S.*", re.I)


def _described_alone(said: str) -> str | None:
    """The statement a message that is only a description of the speaker makes, its "I'm"
    left out ("huge arsenal fan" -> "I am a huge arsenal fan", "not really into football"
    -> "I'm not really into football", "never a morning person", a fan of a film genre
    denied), for keying only (the words said are stored); None for anything else ("not a
    problem", "great weather today", "big fan of that show", which says of what to no
    one)."""
    text = said.strip().rstrip(".!").strip()
    if not text or any(w in _POINTED_AT for w in re.findall(r"[\w']+", text.lower())):
        return None  # "big fan of that show", "not into that kind of thing": of what?
    m = _LONE_DENIAL.fullmatch(text)
    denial, rest = (m["denial"].lower(), m["rest"].strip()) if m else ("", text)
    if not rest:
        return None
    if _INTO.fullmatch(rest):
        return f"I'm {denial} {rest}" if denial else f"I'm {rest}"
    if rest.split(None, 1)[0].lower() in ("no", "any", "some", "my", "our", "the"):
        return None  # "no worries", "my plumber": nothing said of who the speaker is
    from .nlp import parse

    if parse(rest)[0].pos_ in ("ADP", "SCONJ", "CCONJ"):
        return None  # "as a 38 year old guy": who the speaker is, read where it is said
    who = _who_is(rest)
    if who is None or not who.startswith("I am ") or len(rest.split()) < 2:
        return None  # "two kids" (had, not who) is left to the readings of a count
    return f"I am {denial} {who[5:]}" if denial else who


#: "my cats a maine coon", "our vans from 2012", "my bike's an mt07": a thing of the
#: speaker's and what it is, the "is" typed into the possessive ("cats" for "cat's") or
#: left out; what follows starts as a complement does (`_COMPLEMENT_OPENERS`, a number)
_MINE_IS = re.compile(
    r"(?P<mine>my|our)\s+(?P<thing>[a-z]+?)(?P<apostrophe>['’]s)?\s+"
    r"(?P<rest>(?P<first>[a-z0-9]+(?:-[a-z]+)?)\b.*)",
    re.IGNORECASE,
)


#: the words a complement opens with after a left-out "is" (a number too, `number_value`)
_COMPLEMENT_OPENERS = frozenset({"a", "an", "the", "from", "in", "at", "on", "called", "named"})


def _possessive_as_is(said: str) -> str | None:
    """`said` with the "is" put back ("my cat is a maine coon") when it reads as a thing
    of the speaker's and what it is, with no verb said; None for anything else."""
    m = _MINE_IS.fullmatch(said.strip().rstrip(".!"))
    first = m["first"].lower() if m else ""
    if m is None or not (first.isdigit() or first in _COMPLEMENT_OPENERS or number_value(first)):
        return None
    from .nlp import lemma_of, parse

    if any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") for t in parse(m["rest"])):
        return None  # "my kids in the band play jazz": a verb of its own follows
    thing = m["thing"]
    if not m["apostrophe"]:
        # "cats" typed for "cat's" (a plural read as its singular); "boss" is the word
        thing = lemma_of(thing.lower()) if thing.lower().endswith("s") else thing
    return f"{m['mine']} {thing} is {m['rest']}"


def analyse(text: str, *, self_name: str = "The user") -> Statement:
    """Read one utterance: its kind, its key, and the sentence to store.

    `self_name` is how the scope's canonical subject reads in a sentence ("The user",
    "Arttu"); first-person statements are stored with it.
    """
    read = _analysed(text, self_name=self_name)
    if read.predicate in ("take", "not_take") and _a_drug(read.object):
        # "i take metformin" is "i'm on metformin": one claim, which "the doctor took me
        # off metformin" ends
        on = "not_be_on" if read.negated else "be_on"
        read = replace(read, predicate=on)
    theirs = (read.subject or "").lower() == "they" or (
        read.subject is None and _THEY_OPENS.match(read.said) is not None
    )
    if read.kind == "statement" and theirs and not read.negated:
        mine = _changed_for_us(read.said)
        if mine is not None:
            # "they put my rent up to 1290", "theyve moved standup to 10": an impersonal
            # "they" changed a thing of the speaker's, whose new value is the claim
            return replace(read, subject="I", predicate=mine[0], object=mine[1], first_person=True)
    if read.kind == "statement" and not read.negated:
        put = _put_me_on(read.said)
        if put is not None:
            # "the doctor put me on 50mg of sertraline", "gp took me up to 50mg": someone
            # put the speaker on a thing, which the speaker is now on (stored as said)
            return replace(read, subject="I", predicate=put[0], object=put[1], first_person=True)
    return read


_PUTTING = words("putting_verbs")


#: words after which a value says what a drug is for or how often, not which drug
_AFTER_A_DRUG = frozenset({"for", "with", "in", "at", "on", "every", "twice", "once", "daily"})


def _a_drug(value: str | None) -> bool:
    """Does `value` name a drug by its head noun, in its usual sense ("metformin", "500mg
    of sertraline", "my statins"; WordNet's hierarchy, `language.kinds`)?"""
    from .language.kinds import is_a_kind_of
    from .nlp import lemma_of

    words = re.findall(r"[a-z]+", (value or "").lower())
    if "of" in words:  # "500mg of metformin": the drug after the measure
        words = words[words.index("of") + 1 :]
    # "ibuprofen for my back", "metformin twice a day": the drug before what it is for
    cut = next((i for i, w in enumerate(words) if i and w in _AFTER_A_DRUG), len(words))
    words = words[:cut]
    if not words:
        return False
    head = words[-1]
    # a plural the lemmatiser does not know ("statins")
    return any(is_a_kind_of(w, "drug") for w in {lemma_of(head), head.removesuffix("s")})


def _put_me_on(said: str) -> tuple[str, str] | None:
    """("be_on", value) where another put the speaker on a value ("my gp put me on
    metformin", "switched me onto insulin", "took me up to 50mg of it"), ("not_be_on",
    value) where they took the speaker off it ("took me off the statins"); None
    otherwise. The first verb with the speaker as its object decides."""
    from .nlp import parse

    for verb in parse(said):
        if verb.pos_ != "VERB" or verb.lemma_.lower() not in _PUTTING:
            continue
        if not any(c.dep_ == "dobj" and c.lower_ == "me" for c in verb.children):
            continue
        for prep in (c for c in verb.children if c.dep_ in ("prep", "prt")):
            onto = prep
            if prep.lower_ in ("up", "down"):  # "took me up to 50mg"
                after = [*prep.children, *verb.children]
                onto = next((c for c in after if c.lower_ == "to" and c.i == prep.i + 1), prep)
                if onto is prep:
                    continue
            elif prep.lower_ not in ("on", "onto", "off"):
                continue
            value = next((c for c in onto.children if c.dep_ == "pobj"), None)
            if value is not None and onto is not prep and not _an_amount(_subtree(value)):
                continue  # "moved me up to team lead": up or down to an amount only
            if value is not None:
                relation = "not_be_on" if prep.lower_ == "off" else "be_on"
                return relation, _span_text(_subtree(value))
        for amount in (c for c in verb.children if c.dep_ == "dobj" and c.lower_ != "me"):
            amount_said = _subtree(amount)  # "took me up to 30mg": the amount parsed as an object
            if (
                len(amount_said) > 2
                and amount_said[0].lower_ in ("up", "down")
                and amount_said[1].lower_ == "to"
                and _an_amount(amount_said[2:])
            ):
                return "be_on", _span_text(amount_said[2:])
        return None
    return None


def _an_amount(value: list[Token]) -> bool:
    """Does a value open with a number ("30mg of it", "ten a day", "half a tablet")?"""
    first = value[0].lower_ if value else ""
    return first[:1].isdigit() or first == "half" or number_value(first) is not None


_THEY_OPENS = re.compile(r"(?i)\s*they(?:['’]?(?:ve|re|d))?\s")


def _changed_for_us(said: str) -> tuple[str, str] | None:
    """("has_<thing>", value) where `said` says a thing of the speaker's ("my rent", "our
    standup", a bare "standup") was changed to a value ("they put my rent up to 1290");
    None for another's thing ("they raised the price to 12 quid")."""
    found = changed_value(said)
    if found is None:
        return None
    _, thing, value = found
    owned = re.search(rf"(?i)\b(?:my|our)\s+(?:\w+\s+)?{re.escape(thing)}", said)
    bare = re.search(rf"(?i)\b\w+(?:ed|t)\s+{re.escape(thing)}", said)
    if not (owned or bare) or not value:
        return None
    return f"has_{thing.replace(' ', '_')}", value


def _analysed(text: str, *, self_name: str = "The user") -> Statement:
    said = strip_particles(strip_wrapper(text))
    if not said:
        return Statement(text.strip(), text.strip(), "fragment")
    sent = first_sentence(said)
    kind = _kind(sent, said)
    stored, changed = rewrite(said, self_name)
    if kind in ("question", "instruction"):
        return Statement(said, stored, kind, rewritten=changed)
    described = self_description(said)
    if described is not None and described == said.strip().rstrip(".!"):
        # "as a 38 year old guy": said alone, it is who the speaker is (of an age, read
        # as the age is said: "I am 38 years old")
        age = re.search(r"\d{1,3}", described) if _AN_AGE.search(described) else None
        said_as = f"I am {age.group(0)} years old" if age else "I am " + described.split(None, 1)[1]
        sent = first_sentence(said_as)
        kind = "statement"
        # stored as the statement it is, in the words said: "being a vegan" -> "The user
        # is a vegan", "as a 38 year old guy" -> "The user is a 38 year old guy"
        stored, changed = rewrite("I am " + described.split(None, 1)[1], self_name)
    if kind in ("statement", "fragment"):
        here = _here_said(said) or _here_first(said) or _described_alone(said)
        if here is not None:
            read = analyse(here, self_name=self_name)
            if read.keyed:  # keyed as the statement it makes, stored as said
                return replace(read, said=said, text=stored, rewritten=changed)
    if kind == "statement":
        with_my = _mine_without_my(sent, said)
        if with_my is not None:  # "mum lives in cork": chat leaves out the "my"
            said, sent = with_my, first_sentence(with_my)
            stored, changed = rewrite(said, self_name)
    found = _key(sent) if kind == "statement" else None
    if found is None and kind == "statement":
        # "my mum relocated to galway": a clipped word the tagger reads as a noun phrase
        # ("mum [who was] relocated"), keyed as the word it stands for; stored as said
        spelt = " ".join(one_spelling(w) if w.isalpha() else w for w in said.split(" "))
        if spelt != said:
            retry = first_sentence(spelt)
            again = _key(retry)
            if again is not None:
                sent, found = retry, again
    if kind == "statement":
        # read as what it says, where it says it another way: "theres 6 devs on my team"
        # as "my team has 6 devs", "paying 1450 rent every month is killing me" as "i
        # pay 1450 rent ...", "the instrument i play is the oboe" as "i play the oboe"
        sent, found = _read_as(sent, found, _existential(said))
        sent, found = _read_as(sent, found, _gerund_said(sent))
        relative = _relative_said(sent)
        sent, found = _read_as(sent, found, relative[1] if relative else None)
        since = since_said(sent)
        if since is not None:
            sent, found = _read_as(sent, None, since[0].text)
            if found is not None and since[1]:
                found = (*found[:3], not found[3])
    verbless = _possessive_as_is(said) if found is None and kind != "question" else None
    if verbless is not None:
        # "my cats a maine coon", "my mums from galway", "my bike's an mt07": the "is"
        # typed into the possessive (or left out), read as said with it; stored as typed
        retry = first_sentence(verbless)
        again = _key(retry)
        if again is not None:
            sent, found, kind = retry, again, "statement"
    spliced = _first_clause_key(sent, found)
    if spliced is not None:
        sent, found, elided = spliced
        if elided:  # "moved the site to netlify, ..." -> "The user moved the site ..."
            restored, rewritten = rewrite(elided + said[:1].lower() + said[1:], self_name)
            if rewritten:
                stored, changed = restored, True
    name = None
    if found is None:
        # "Fay lives in Paris": the tagger reads an unfamiliar name and its verb as a noun
        # phrase; read the sentence again with a name it knows, and put the name back
        lead = _LEADING_NAME.match(said)
        if (
            lead
            and sent[0].tag_ in ("NNP", "NNPS", "NN", "NNS", "JJ")  # "Maija" read as an adjective
            and lead.group(1) not in ("I", "The", "A", "An", "My", "Our", "This", "That")
        ):
            name = lead.group(1)
            retry = first_sentence(_PLACEHOLDER + said[lead.end(1) :])
            found = _key(retry)
            if kind == "fragment" and found is not None:
                kind = _kind(retry, said)
    if found is None and kind != "question":
        # "switched to neovim last week", "sold my bike": a chat report in the past tense
        # with its "I" left out is the speaker's; read with the "I" put back, and stored
        # so when the sentence can be said of the user, else as said
        full = elided_subject(said)
        if full != said:
            retry = first_sentence(full)
            found = _key(retry)
            if found is not None:
                kind, sent = "statement", retry
                restored, rewritten = rewrite(full, self_name)
                # "lost my job" -> "The user lost the user's job"; a level or a count
                # is kept as said ("down to 80 kilos", "two kids under five": no verb
                # of the user's to put back)
                alone = first_sentence(said)
                if rewritten and not _level_said(alone) and not _counted_own(alone):
                    stored, changed = restored, True
    template = (
        _copular_key(said) or _inverted_copular_key(said)
        if kind in ("statement", "fragment")
        else None
    )
    if template is not None:
        t_subject, t_predicate, t_object, t_first, t_negated = template
        direct = None
        if found is not None and kind == "statement":
            direct = _subject_key(found[0], found[1])[:2]
        garbled = (
            direct is None
            # "The billing API deploy target is staging": the tagger made a noun ("deploy")
            # the sentence's root, so the verb it keyed on is none; the copula is the verb
            or sent.root.pos_ in ("NOUN", "PROPN")
            and sent.root.tag_ not in ("VBZ", "VBD", "VBP")
        ) or (
            (
                direct[1] == "be"
                or direct[1] in ("is", "are")
                and direct[1] != t_predicate
                or t_predicate.startswith("has_")
                and not direct[1].startswith("has_")
            )
            and direct != (t_subject, t_predicate)
            and t_subject.lower() not in ("user", "the user")
        )
        if garbled:
            t_predicate = _described(t_predicate, _tokens_of(sent, t_object))
            return Statement(
                said,
                stored,
                "statement",
                subject=t_subject,
                predicate=("not_" if t_negated else "") + t_predicate,
                object=t_object,
                negated=t_negated,
                first_person=t_first,
                rewritten=changed,
            )
    said_first = any(t.lower_ in _FIRST for t in sent)  # a keyless statement's speaker
    if found is None or kind != "statement":
        return Statement(said, stored, kind, first_person=said_first, rewritten=changed)
    subject_tok, said_predicate, obj_tokens, negated = found
    subject, predicate, first = _subject_key(subject_tok, said_predicate)
    if name is not None and subject == _PLACEHOLDER:
        subject = name
    elif (
        name is not None
        or subject.lower() in _QUANTIFIERS
        or _refers_back(sent, subject)
        or _done_to_us(sent, subject)
        or _half_denied(sent)
        or _moved_elsewhere(predicate, obj_tokens)
        and not _moved_onto(obj_tokens)
    ):
        return Statement(said, stored, kind, first_person=said_first, rewritten=changed)
    if _moved_elsewhere(predicate, obj_tokens):
        # "we moved to fly.io", "moved from jira to linear": onto a product, not a home
        predicate = predicate.replace("move_to", "migrate_to").replace("relocate_to", "migrate_to")
    if said_predicate == "be":
        predicate = _described(predicate, obj_tokens)
    predicate, obj_tokens = _placed(predicate, obj_tokens, sent)
    predicate = _lives_in(predicate, obj_tokens, sent)
    obj = _span_text(_without_additives(_asserted(obj_tokens, predicate)))
    pred, obj = _said_plainly(normalize_predicate(predicate), obj)
    if negated:
        pred = "not_" + pred
    return Statement(
        said,
        stored,
        kind,
        subject=subject or None,
        predicate=pred or None,
        object=obj or None,
        negated=negated,
        first_person=first,
        rewritten=changed,
    )


#: "a peanut allergy", "a bad lactose intolerance": what one is allergic or intolerant to
#: ("allergies" alone, "any allergies": to anything)
_ALLERGY = re.compile(
    r"(?:(?:an?|some|a\s+\w+|severe|mild|bad|slight)\s+)*(?:(?P<what>[\w\s-]+?)\s+)?"
    r"(?P<kind>allergy|allergies|intolerance|intolerances)",
    re.IGNORECASE,
)
#: "a job at google", "a full-time job with the nhs": where the job is, as "work at" says it
_JOB_AT = re.compile(
    r"(?:an?|my)\s+(?:(?:full|part)[- ]?time\s+|permanent\s+|steady\s+)*"
    r"(?:job|position|post)\s+(?:at|with|for)\s+(?P<employer>.+)",
    re.IGNORECASE,
)
#: how big a fan: "a huge fan of", "a lifelong arsenal fan" (lexicon "fan_degrees")
_FAN_DEGREES = words("fan_degrees")
_DEGREES = "|".join(re.escape(w) for w in sorted(_FAN_DEGREES, key=len, reverse=True))
#: "a big fan of jazz", "a lifelong fan of the giants", "a huge arsenal fan": what one is
#: a fan of, how big a fan before it
_FAN_OF = re.compile(
    rf"(?:an?\s+)?(?:(?:{_DEGREES})\s+)*(?:fans?\s+of\s+(?P<what>\S.*)|(?P<thing>\S.*?)\s+fans?)",
    re.IGNORECASE,
)
#: how big a fan one is, before "fan" or what one is a fan of ("a huge fan of", "a
#: lifelong arsenal fan"): the degree of a liking, not more of what is liked
_FAN_DEGREE = re.compile(
    rf"\b(?:(?:{_DEGREES})\s+)+(?=(?:[\w'-]+\s+){{0,3}}fans?\b)", re.IGNORECASE
)


def fan_said_plainly(text: str) -> str:
    """`text` with how big a fan left out: "im a huge fan of jazz" -> "im a fan of jazz",
    "a massive jazz fan" -> "a jazz fan" (what a liking says, whatever its degree)."""
    return _FAN_DEGREE.sub("", text)


#: "a mum of three", "a proud dad of 2": how many children one has
_PARENT_OF = re.compile(
    r"(?:an?\s+)?(?:\w+\s+)?(?:mum|mom|mother|mam|mummy|mommy|dad|father|daddy|parent)"
    r"\s+(?:of|to)\s+(?P<count>\d+|two|three|four|five|six|seven|eight|nine|ten)",
    re.IGNORECASE,
)


def _said_plainly(predicate: str, obj: str) -> tuple[str, str]:
    """A key said the plain way, for comparing: "i have a peanut allergy" as "allergic to
    peanut" (be_allergic_to), "i have a gluten intolerance" as be_intolerant_to, "im a
    mum of three" as having three kids, "a big fan of jazz" as be_fan_of jazz (liking it).
    The stored sentence stays as said."""
    found = _ALLERGY.fullmatch(obj) if predicate == "have" else None
    if found:
        kind = "be_intolerant_to" if found["kind"].lower().startswith("into") else "be_allergic_to"
        return kind, found["what"] or "any"
    found = _PARENT_OF.fullmatch(obj) if predicate == "be" else None
    if found:
        return "have", f"{found['count']} kids"
    found = _FAN_OF.fullmatch(obj) if predicate == "be" else None
    thing = (found["thing"] or "").lower() if found else ""
    if found and thing not in ("a", "an", "the") and thing not in _FAN_DEGREES:
        # "im a huge fan of jazz", "a massive jazz fan": liked (the catalogue)
        return "be_fan_of", found["what"] or found["thing"]
    if predicate in _EARNING and money(obj) is not None:
        return "earn", obj  # "i make 60k a year", "im on 45 grand", "i take home 2.1k"
    found = _JOB_AT.fullmatch(obj) if predicate == "have" else None
    if found:
        return "work_at", found["employer"]  # "i have a job at monzo": where one works
    paid = _paid(obj) if predicate in ("pay", "pay_in", "pay_for") else None
    if paid is not None:
        return f"has_{paid[0].replace(' ', '_')}", paid[1]  # "i pay 1200 rent"
    return predicate, obj


#: what one pays that is an amount of its own: "i pay 1200 rent" says "my rent is 1200"
_PAYMENTS = words("payments")
#: the words between an amount and what it pays for ("1450 in rent", "900 for my mortgage")
_PAID_FOR = re.compile(r"\s+(?:(?:in|for|on|towards)\s+)?(?:(?:my|our|the)\s+)?$", re.I)


def _paid(obj: str) -> tuple[str, str] | None:
    """(what is paid, the amount) where a value of "pay" is an amount and then a payment of
    the lexicon's ("1200 rent", "twelve hundred quid rent", "1450 in rent"); else None."""
    low = obj.lower().strip()
    for what in _PAYMENTS:
        if not low.endswith(" " + what):
            continue
        amount = _PAID_FOR.sub("", obj.strip()[: -len(what)])
        if amount and (money(amount) is not None or amount[:1].isdigit()):
            return what, amount
    return None


#: relations that say what one earns when their value is an amount of money
_EARNING = frozenset({"make", "be_on", "take_home", "bring_in", "pull_in", "be_paid"})


_LIGHT = words("light_verbs")
_MANNER = words("manner_verbs")
#: parts of speech that carry what a sentence is about (not how it is said)
_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
#: words that name no particular thing: a denial of "anything" or "stuff" shares nothing
_GENERIC = frozenset(
    {
        "thing",
        "anything",
        "something",
        "stuff",
        "kind",
        "sort",
        "lot",
        "bit",
        "way",
        "time",
        "one",
        "ever",
        "before",
        "really",
        "actually",
        "also",
        "even",
        "still",
        "much",
        "many",
    }
)


def _content_token(tok: Token) -> bool:
    from spacy.lang.en.stop_words import STOP_WORDS

    low = tok.lemma_.lower()
    return (
        tok.pos_ in _CONTENT_POS
        and low not in STOP_WORDS
        and low not in _GENERIC
        and low not in _LIGHT
        and len(low) > 1
        and tok.lower_ not in ("user", "i")
    )


def _lemmas(tok: Token) -> set[str]:
    """The token's lemma, and the lemmas English gives its word as a verb or a noun
    (the tagger may read "swam" as a noun and leave it as it is)."""
    from lemminflect import getAllLemmas

    found = {tok.lemma_.lower()}
    for pos in ("VERB", "NOUN"):
        found.update(w.lower() for w in getAllLemmas(tok.lower_).get(pos, ()))
    return found


def content_lemmas(text: str) -> frozenset[str]:
    """The lemmas a sentence says things with (nouns, names, verbs, adjectives; no stop
    word, no light verb, no word that names nothing in particular): what two sentences
    must share to be about the same thing."""
    doc = _reading(text)
    return frozenset(w for t in doc or () if _content_token(t) for w in _lemmas(t))


#: what a denied verb's children may add to what is denied: its objects, phrases and
#: complements, not a clause that goes on to something else ("..., went into work")
_DENIED_PARTS = frozenset({"dobj", "prep", "pobj", "xcomp", "attr", "acomp", "oprd", "dative"})


def _denied_verbs(verb: Token) -> list[Token]:
    """The verb "never" denies and the verbs denied with it: its complements ("how to
    ski") and the verbs joined by "or" / "nor" ("never deployed it or used Gunicorn")."""
    out = [verb]
    for child in verb.children:
        complement = child.dep_ in ("xcomp", "ccomp") and child.pos_ in ("VERB", "AUX")
        joined = child.dep_ == "conj" and any(
            c.dep_ == "cc" and c.lower_ in ("or", "nor") for c in verb.children
        )
        if complement or joined:
            out += _denied_verbs(child)
    return out


def root_lemma(text: str) -> str:
    """The lemma of a statement's main verb ("I love Paris" -> "love"), lower-cased."""
    doc = _reading(text)
    return next((t.lemma_.lower() for t in doc or () if t.dep_ == "ROOT"), "")


def denied_words(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """What a denial of the past ("I've never attempted any triangle problems", "I never
    learned to ski") says never happened, as lemmas: the heads of the things denied
    (objects, and the verbs after "how to" or joined by "or"), every content word said of
    them, and the verbs that say what was never done (not "try" or "learn": how it was
    done). Empty when no "never" denies a verb."""
    doc = _reading(text)
    heads: set[str] = set()
    said: set[str] = set()
    doing: set[str] = set()
    for tok in doc or ():
        if tok.lower_ != "never":
            continue
        for verb in _denied_verbs(tok.head):
            lemma = verb.lemma_.lower()
            things: set[str] = set()
            for child in verb.children:
                if child.dep_ not in _DENIED_PARTS:
                    continue
                said |= {t.lemma_.lower() for t in child.subtree if _content_token(t)}
                objects = (
                    [child]
                    if child.dep_ != "prep"
                    else [g for g in child.children if g.dep_ == "pobj"]
                )
                # "any of the recipes", "one of those apps": the thing is after "of"
                objects += [
                    g
                    for o in objects
                    if o.pos_ in ("PRON", "DET", "NUM")
                    for p in o.children
                    if p.dep_ == "prep" and p.lower_ == "of"
                    for g in p.children
                    if g.dep_ == "pobj"
                ]
                things |= {o.lemma_.lower() for o in objects if _content_token(o)}
            heads |= things
            # "own" is a stop word, but owning is a doing of its own
            if verb.pos_ == "VERB" and lemma not in _LIGHT and len(lemma) > 1:
                said.add(lemma)
                if lemma not in _MANNER:
                    doing.add(lemma)
                    if not things:  # "never learned to ski": the doing is the thing
                        heads.add(lemma)
    return frozenset(heads), frozenset(said), frozenset(doing)


#: a year a statement dates what it tells by: "in 2019", "since 2021", "back in march
#: 2020", "from 2015" (not a number that counts: "2019 steps", "a 2015 civic")
_TOLD_YEAR = re.compile(
    r"\b(?:in|since|from|during|until|till|back in|around)\s+(?:(?:early|mid|late)[\s-]+)?"
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+)?"
    r"((?:19|20)\d{2})\b",
    re.IGNORECASE,
)


#: a time told relative to when it is said: "last year", "last spring", "3 years ago"
_TOLD_AGO = re.compile(
    r"\b(?:(?P<which>last|this)\s+(?P<unit>year|month|week|spring|summer|autumn|fall|"
    r"winter)|(?P<n>\d+|a|one|two|three|four|five)\s+(?P<ago>years?|months?|weeks?)\s+ago|"
    r"(?P<yesterday>yesterday))\b",
    re.IGNORECASE,
)
#: the month each season ends in, for "last spring" said in a given month
_SEASON_ENDS = {"spring": 5, "summer": 8, "autumn": 11, "fall": 11, "winter": 2}
_SMALL = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _year_ago(m: re.Match[str], year: int, month: int) -> int:
    if m["yesterday"]:
        return year
    if m["ago"]:
        n = int(m["n"]) if m["n"].isdigit() else _SMALL[m["n"].lower()]
        if m["ago"].lower().startswith("year"):
            return year - n
        months = n if m["ago"].lower().startswith("month") else n // 4
        return year - (1 if months >= month else 0)
    unit, last = m["unit"].lower(), m["which"].lower() == "last"
    if unit == "year":
        return year - 1 if last else year
    if unit in ("month", "week"):
        return year - 1 if last and unit == "month" and month == 1 else year
    return year - 1 if last and month <= _SEASON_ENDS[unit] else year


def told_year(text: str, *, said_at: float | None = None) -> int | None:
    """The latest year a statement dates what it tells by ("i moved to lisbon in 2019"
    -> 2019; with `said_at`, when it was said, also a time told relative to it: "moved
    to lisbon last spring", said in December 2026 -> 2026), or None when it names none."""
    years = [int(y) for y in _TOLD_YEAR.findall(text)]
    if said_at is not None:
        from datetime import UTC, datetime

        when = datetime.fromtimestamp(said_at, UTC)
        years += [_year_ago(m, when.year, when.month) for m in _TOLD_AGO.finditer(text)]
    return max(years) if years else None


def denies_the_past(text: str) -> bool:
    """Does the statement say something never happened ("I've never been to Asia", "I
    never went to university", "I didn't go to university")? The past does not change:
    against a stored report of it, that is a contradiction whatever the time between, not
    an update. A habit denied in the present ("I never drink coffee") is not this, nor
    one occasion denied ("I didn't go to the gym yesterday")."""
    doc = _reading(text)
    if doc is None:
        return False
    for tok in doc:
        if (
            tok.dep_ == "neg"
            and any(
                c.dep_ == "aux" and c.tag_ == "VBD" and c.lemma_.lower() == "do"
                for c in tok.head.children
            )
            # "i didn't go to the gym yesterday" denies one occasion, not a habit
            and not any(t.lower_ in _PAST_TIME or t.ent_type_ in ("DATE", "TIME") for t in doc)
        ):
            return True  # "I didn't go to university": the past, denied with "did"
        if tok.lower_ != "never":
            continue
        verb = tok.head
        if verb.tag_ == "VBD" or (
            verb.tag_ == "VBN" and any(c.lemma_ == "have" for c in verb.children)
        ):
            return True
    return False


#: verbs that give a thing a new value: "switched the monorepo to pnpm", "bumped the
#: budget to 8k", "the launch got pushed to April", "the team has now reached 11 people"
_CHANGING = words("changing") | words("remaking")
#: how the speaker reads once stored ("The user ...")
_SELF_NOUNS = frozenset({"user"})
#: verbs whose object is the new value itself ("the team reached 11 people")
_REACHING = words("reaching")


def changed_value(text: str) -> tuple[str, str, str] | None:
    """(verb, thing, value) when the statement gives a thing a new value: "bumped the
    marketing budget to 8k/month" -> ("bump", "budget", "8k/month"); "launch got pushed to
    april 2" -> ("push", "launch", "april 2"); "my team has now reached 11 people" ->
    ("reach", "team", "11 people"). The thing is the head noun's base form; None when
    the sentence changes nothing it names ("I moved to Oslo" names no thing: a move)."""
    from .nlp import lemma_of, parse

    said = strip_wrapper(text)
    if not said:
        return None
    doc = parse(elided_subject(said))
    for verb in doc:
        lemma = _verb_lemma(verb) if verb.pos_ in ("VERB", "AUX") else ""
        if lemma in ("go", "put") and any(  # "rent went up to 980", "put the rent up to"
            t.lower_ in ("up", "down") and t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "to"
            for t in verb.subtree
            if t.i > verb.i
        ):
            lemma = f"{lemma} up"
        elif lemma not in _CHANGING:
            continue
        objects = [c for c in verb.children if c.dep_ == "dobj"]
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        # a person who moves is not a thing given a value: "I", "she", a name, and the
        # speaker as stored ("The user moved to the platform team")
        # ("standup moved to 10": a word typed in lower case the tagger took for a name is
        # a thing; a person's name typed so is still no thing a stored slot names)
        people = [
            t
            for t in subjects
            if t.pos_ == "PRON" or t.pos_ == "PROPN" and not t.is_lower or t.lower_ in _SELF_NOUNS
        ]
        if lemma in _REACHING:
            thing = next((t for t in subjects if t not in people), None)
            # "coverage has now reached 85%": a measure the parse hung on the verb as an
            # adverb ("85%" read as how much) is the value reached
            objects = objects or [c for c in verb.children if _counted_measure(c)]
            if thing is None or not objects:
                continue
            return lemma, lemma_of(thing.lower_), _span_text(list(objects[0].subtree))
        thing = objects[0] if objects else next((t for t in subjects if t not in people), None)
        if thing is None or thing.pos_ == "PRON":
            continue
        heads = [verb, thing, *(c for c in verb.children if c.dep_ == "prt")]
        # "moved the api onto fly.io": a thing put on a new place; "rebuilt the blog in
        # hugo": a thing made again in a new one
        into = (
            ("in", "on", "with")
            if lemma in _REMAKING
            else ("to", "onto")
            if lemma in _REPLACING
            else ("to",)
        )
        to = next(
            (
                c
                for h in heads
                for c in h.children
                if c.dep_ in ("prep", "dative") and c.lower_ in into
            ),
            None,
        )
        if to is None:
            # "bumped my dose up to 30mg", "put the rent up to 1290": the "to" after the
            # "up" or "down" the verb or its thing is moved by, however the parse hung it
            to = next(
                (
                    t
                    for t in verb.subtree
                    if t.i > verb.i + 1
                    and t.lower_ == "to"
                    and doc[t.i - 1].lower_ in ("up", "down")
                    and doc[t.i - 1] in verb.subtree
                ),
                None,
            )
        if to is None and lemma in _REPLACING:
            # "upgraded the app to react 18": a name the tagger took for a verb (only after
            # a verb that puts one thing for another: "improved it to handle 500" is no name)
            to = next(
                (
                    c
                    for h in verb.children
                    if h.pos_ == "VERB" and (_versioned_name(h) or _bare_name(h))
                    for c in h.children
                    if c.dep_ == "aux" and c.lower_ == "to" and c.i + 1 == h.i
                ),
                None,
            )
        words = _value_after(to) if to is not None else []
        if lemma == "put up" and not any(w.like_num for w in words):
            continue  # "put the kids down to sleep": no amount, no value
        if lemma in _REMAKING:
            # "rebuilt the shop on shopify over the summer": the product its words open with
            words = next(
                (words[:k] for k in range(len(words), 0, -1) if _names_a_product(words[:k])), []
            )
            if not words:
                continue  # "rewrote my cv in an evening": made again in a time, no product
        if words:
            return lemma, lemma_of(thing.lower_), _span_text(words)
    return None


def _counted_measure(tok: Token) -> bool:
    """A number with its unit that the parse read as an adverb of the verb ("85%",
    "80 kg"): an amount, not how often ("3 times") nor when ("2 days ago")."""
    return (
        tok.dep_ == "npadvmod"
        and tok.lemma_.lower() not in _NOT_MEASURES
        and any(c.dep_ == "nummod" and c.like_num for c in tok.children)
        and not any(c.dep_ == "advmod" for c in tok.children)
    )


def _measure_reached(verb: Token, measure: Token) -> bool:
    """Is the amount `measure` what `verb` brought a thing to ("reached 85%", "dropped to
    80kg"), not by how much it changed ("went up 10 points", "dropped 20%")?"""
    lemma = _verb_lemma(verb)
    if lemma in _REACHING:
        return True
    before = measure.doc[measure.left_edge.i - 1] if measure.left_edge.i > 0 else None
    return (
        lemma in _CHANGING
        and before is not None
        and before.lower_ == "to"
        and before.head.i == verb.i
    )


#: nouns counted after a number that say when or how often, not an amount
_NOT_MEASURES = frozenset({"time", "times", "day", "week", "month", "year", "hour", "minute"})


#: verbs of change that put one thing in place of another, not an amount
_REPLACING = frozenset({"upgrade", "downgrade", "bump", "migrate", "port", "switch", "move"})
#: verbs of making a thing again, in what follows "in" ("rewrote the api in fastapi")
_REMAKING = words("remaking")


def _versioned_name(tok: Token) -> bool:
    """Is `tok` a name followed by its version number ("react 18", "go 1.22"), not a verb
    counting what it takes ("help 3 people")?"""
    doc = tok.doc
    if tok.i + 1 >= len(doc) or not doc[tok.i + 1].like_num:
        return False
    after = doc[tok.i + 2] if tok.i + 2 < len(doc) else None
    return after is None or after.pos_ not in ("NOUN", "PROPN")


#: nouns that say when, heading a time said as an adverb ("last year", "two weeks ago")
_WHEN_NOUNS = frozenset({"year", "month", "week", "day", "spring", "summer", "autumn", "fall"})
_YEAR = re.compile(r"(?:19|20)\d{2}")


def _bare_name(tok: Token) -> bool:
    """Is `tok`, a "verb" after "to" that the tagger read so ("switched the backend to
    rust", "moved the api to go last year"), a bare word with nothing a verb would take
    (no object, no complement), only when it was done: a name, not a purpose ("switched
    the team to work from home" is no name)?"""

    def when(child: Token) -> bool:
        if child.dep_ in ("npadvmod", "advmod"):
            return child.lemma_.lower() in _WHEN_NOUNS or child.lower_ == "ago"
        if child.dep_ == "prep" and child.lower_ in ("in", "since"):
            return any(g.dep_ == "pobj" and _YEAR.fullmatch(g.text) for g in child.children)
        return False

    return not tok.is_title and all(
        c.dep_ == "aux" and c.lower_ == "to" or when(c) for c in tok.children
    )


def _value_after(prep: Token) -> list[Token]:
    """The words after "to" that name the new value, up to what says when or why:
    "to python 3.12 yesterday" -> python 3.12, "to 1200 a month" -> 1200, "to hugo on
    cloudflare pages" -> all of it."""
    out: list[Token] = []
    doc = prep.doc
    for tok in doc[prep.i + 1 :]:
        # "to react 18", "to go 1.22": a name the tagger read as a verb, told by the
        # version number after it
        if not out and tok.pos_ == "VERB" and not _versioned_name(tok) and _bare_name(tok):
            return [tok]  # "to rust two years ago": the name alone
        named = not out and _versioned_name(tok)
        if not out and tok.like_num and tok.dep_ == "npadvmod":
            out.append(tok)  # "up to 100mg": the number the parse hung on the verb
            continue
        # "to 30 mg": the unit the parse hung on the verb, right after its number
        if (
            out
            and out[-1].like_num
            and tok.i == out[-1].i + 1
            and tok.pos_ == "NOUN"
            and tok.dep_ in ("npadvmod", "quantmod")
            and tok.lemma_.lower() not in _NOT_MEASURES
        ):
            out.append(tok)
            continue
        if (
            tok.dep_ in ("npadvmod", "advmod", "punct", "cc", "conj", "mark", "advcl")
            and not named
            or tok.pos_ in ("VERB", "AUX", "CCONJ", "SCONJ")
            and not named
            or tok.head.dep_ == "npadvmod"
            and not tok.like_num
            and not named
        ):
            break
        out.append(tok)
    return out


#: verbs by which a relative clause reports a thing's value: "..., which has lately
#: gone down to 90 seconds", "..., which now averages 40 a day", "..., which is 12%"
_REPORTING = _CHANGING | words("reporting")
_RELATIVE = frozenset({"which", "that"})
_NEWNESS = words("newness")


def _whole_phrase(noun: Token) -> Token:
    """The noun a prepositional phrase belongs to, up the chain: "service" in "the
    error rate of my billing service" -> "rate"; "queue" in "the number of jobs waiting
    in the retry queue" -> "number"."""
    node = noun
    while node.dep_ == "pobj" and node.head.dep_ == "prep":
        above = node.head.head
        if above.dep_ == "acl" and above.head.pos_ in ("NOUN", "PROPN"):
            above = above.head
        if above.pos_ not in ("NOUN", "PROPN"):
            break
        node = above
    return node


def renewed_thing(text: str) -> str | None:
    """The thing a statement says the speaker has a new one of ("i have a new boss, tom"
    -> boss; "started a new job at globex" -> job; "the new grant deadline of march 9"
    -> deadline; "changed gp, im with dr morales now" -> gp), as a base form; None when
    it says none, or denies it."""
    from .nlp import lemma_of

    doc = _reading(text)
    if doc is None or any(t.dep_ == "neg" for t in doc):
        return None
    for noun in doc:
        if _swapped(noun):  # "changed gp", "switched banks": a new one, not named
            return lemma_of(noun.lower_)
        if _work_got(noun):  # "got a job at costco": new, whether or not it says so
            return lemma_of(noun.lower_)
        if noun.pos_ != "NOUN" or not any(
            c.dep_ == "amod" and c.lower_ in _NEWNESS for c in noun.children
        ):
            continue
        # "my new boss is Tom", "started a new job": had; not "looking for a new job";
        # "the new grant deadline of march 9": a new one named alone
        if noun.dep_ in ("nsubj", "nsubjpass", "attr", "ROOT") or (
            noun.dep_ == "dobj" and _verb_lemma(noun.head) in _GAINING
        ):
            return lemma_of(noun.lower_)
    return None


_GAINING = words("gaining")
#: what the user's work is called (lexicon "work_nouns")
_WORK_NOUNS = words("work_nouns")


def _work_got(noun: Token) -> bool:
    """Work gained, in the past: "got a job at costco", "landed a position at a lab",
    "took a job as a courier" say a new job whether or not they say "new". Not "have a
    job" (the state), nor one only wanted or sought ("trying to get a job": the verb is
    not in the past)."""
    head = noun.head
    return (
        noun.dep_ == "dobj"
        and noun.lemma_.lower() in _WORK_NOUNS
        and head.tag_ in ("VBD", "VBN")
        and _verb_lemma(head) in _GAINING - {"have"}
        and head.dep_ not in ("xcomp", "advcl", "relcl", "ccomp")
        and not any(
            c.dep_ in ("poss", "det") and c.lower_ not in ("a", "an") for c in noun.children
        )
    )


#: verbs that put a new one of a thing in place of the old: "changed dentists"
_SWAPPING = frozenset({"change", "switch", "swap"})


def _swapped(noun: Token) -> bool:
    """Is `noun` what a verb of swapping swaps, with nothing said of what for ("changed
    gp", "switched banks", "swapped my phone")? Not "switched the api to go" (a value:
    `changed_value`) nor "changed my mind"-like nouns no slot holds."""
    if noun.pos_ != "NOUN" or noun.dep_ != "dobj" or _verb_lemma(noun.head) not in _SWAPPING:
        return False
    verb = noun.head
    return not any(
        c.dep_ in ("prep", "dative") and c.lower_ in ("to", "for", "into", "from")
        for h in (verb, noun)
        for c in h.children
    )


def thing_values(text: str, thing: str) -> frozenset[str]:
    """The numbers a statement gives `thing` ("a deadline of March 3, 2027" -> {"3"} for
    deadline; "the budget is $5,000" -> {"5000"}): what follows the thing's name and "of",
    "is", "at", "to" or a colon, up to the first break, when it holds a number."""
    found = re.finditer(
        rf"\b{re.escape(thing)}s?\s+(?:of|is|was|at|to|:)\s+(?P<v>[^,;!?\n]*?\d[\d,.]*)",
        text.lower(),
    )
    return frozenset(
        n.replace(",", "") for m in found for n in re.findall(r"\d[\d,.]*\d|\d", m["v"])
    )


def values_in_passing(text: str) -> list[str]:
    """Values a request states in passing, each as a sentence of the user's own words:
    "can you help me speed up the nightly import job, which now takes 40 minutes since
    the schema change?" -> "the nightly import job now takes 40 minutes since the schema
    change". Only a relative clause on a thing ("which" or "that" its subject) that gives
    it a number."""
    from .nlp import parse

    out: list[str] = []
    doc = parse(text)
    for verb in doc:
        if verb.dep_ != "relcl":
            continue
        # "a release on May 3, which has 90 commits": the clause is said of the release,
        # not of the date it hangs on
        head = verb.head
        while head.lower_ in _MONTHS and head.dep_ == "pobj" and head.head.dep_ == "prep":
            head = head.head.head
        if head.pos_ not in ("NOUN", "PROPN") or head.lower_ in _MONTHS:
            continue
        pronoun = next(
            (c for c in verb.children if c.dep_ in _SUBJ and c.lower_ in _RELATIVE), None
        )
        if pronoun is None or _verb_lemma(verb) not in _REPORTING:
            continue
        clause = [t for t in verb.subtree if t.i != pronoun.i]
        cut = next((t.i for t in clause if t.i > verb.i and t.dep_ in ("cc", "conj")), None)
        clause = [t for t in clause if cut is None or t.i < cut]
        while clause and clause[-1].is_punct and clause[-1].text != "%":
            clause.pop()
        if not any(t.like_num or any(ch.isdigit() for ch in t.text) for t in clause):
            continue
        inner = {t.i for t in verb.subtree}
        thing = [t for t in _whole_phrase(head).subtree if t.i not in inner]
        while thing and thing[-1].is_punct:
            thing.pop()
        if not thing:
            continue
        out.append(f"{_span_text(thing)} {_span_text(clause)}")
    for noun in doc:
        # "... can you plan around the new release date of June 12?": a value named new
        if noun.pos_ != "NOUN" or not any(
            c.dep_ == "amod" and c.lower_ in _NEWNESS for c in noun.children
        ):
            continue
        of = next((c for c in noun.rights if c.dep_ == "prep" and c.lower_ == "of"), None)
        if of is None or not any(ch.isdigit() for t in of.subtree for ch in t.text):
            continue
        phrase = list(doc[noun.left_edge.i : of.right_edge.i + 1])
        while phrase and phrase[-1].is_punct and phrase[-1].text != "%":
            phrase.pop()
        out.append(_span_text(phrase))
    return out


def parse_key(text: str, *, self_name: str = "The user") -> Statement | None:
    """The statement in `text` when it has a full key, else None."""
    found = analyse(text, self_name=self_name)
    return found if found.kind == "statement" and found.keyed else None
