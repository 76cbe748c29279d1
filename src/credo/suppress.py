""" "Don't remember that": requests not to store something, found in user turns.

A request becomes a stored suppression rule in the scope (`Memory.add_rule`): the words a
candidate must contain to be refused, and the subject it is about. The gate refuses
matching candidates now and in every later ingest, with the reason recorded. A request
also removes what it names from the store, because a store that still holds what its
rules now refuse is not honouring the request.

Three shapes are recognised:

* about the previous turn: "don't remember that", "please don't store this",
  "forget what I just said", "scratch that", "that's off the record";
* about a topic: "please don't store my address", "don't save my phone number",
  "don't keep anything about my health";
* about a statement: "forget that I said I live in Berlin", "forget that I work at Acme".

The request itself never becomes a fact: extractors skip turns for which
`is_suppression_request` is true.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .gate import Suppression
from .keys import parse_key
from .language import words

if TYPE_CHECKING:
    from .memory import Memory

__all__ = [
    "AppliedRequest",
    "SuppressionRequest",
    "apply_request",
    "detect",
    "is_suppression_request",
    "matching",
    "rule_terms",
    "terms_for_previous",
]

_NEG = r"(?:do\s+not|don't|dont|never|please\s+do\s+not|please\s+don't|no\s+need\s+to|stop)"
_VERB = (
    r"(?:remember|store|save|keep|record|log|note|memori[sz]e|write\s+down|"
    r"keep\s+track\s+of|hold\s+on\s+to)"
)
_THAT = r"(?:that|this|it|those|these|what\s+I\s+(?:just\s+)?(?:said|told\s+you|wrote))"
_END = r"\s*(?:[.!,;:]|$|\s+(?:please|ok|okay|thanks|either|anymore|any\s+more)\b)"
_PLEASE = r"(?:(?:please|can\s+you|could\s+you|would\s+you|just|and|actually|oh|also|so)[\s,]+)*"

_PREVIOUS = [
    re.compile(rf"\b{_NEG}\s+(?:you\s+)?{_VERB}\s+{_THAT}{_END}", re.IGNORECASE),
    re.compile(rf"(?:^|[.!?,]\s*){_PLEASE}forget\s+{_THAT}{_END}", re.IGNORECASE),
    re.compile(
        r"(?:^|[.!?,]\s*)(?:please\s+)?(?:scratch|strike|disregard|ignore)\s+that\b", re.IGNORECASE
    ),
    re.compile(
        r"\b(?:that's|that\s+is|this\s+is|keep\s+(?:that|this))\s+(?:strictly\s+)?"
        r"(?:off\s+the\s+record|private|between\s+us|confidential)\b",
        re.IGNORECASE,
    ),
]
_FORGET_STATEMENT = re.compile(
    rf"(?:^|[.!?,]\s*){_PLEASE}forget\s+(?:that\s+|about\s+|the\s+fact\s+that\s+)?"
    r"(?:I\s+(?:said|told\s+you|mentioned|wrote)\s+(?:that\s+)?)?(?P<what>[^.!?]+)",
    re.IGNORECASE,
)
_TOPIC = re.compile(
    rf"\b{_NEG}\s+(?:you\s+)?{_VERB}\s+(?:(?:anything|things|stuff|info|information|details)"
    r"\s+(?:about|on|regarding)\s+)?(?P<what>(?:my|our)\s+[^.!?,;]+|"
    r"(?:the\s+fact\s+)?that\s+[^.!?;]+)",
    re.IGNORECASE,
)
#: "don't forget that ..." asks to remember; it must never read as a suppression
_NOT_A_REQUEST = re.compile(
    r"\b(?:don't|do\s+not|never|won't|will\s+not|I|can't)\s+forget\b|"
    r"\bforgot\b",
    re.IGNORECASE,
)

#: words left out of a rule's terms: the lexicon's "request_stop_words"
_STOP = words("request_stop_words")
#: a topic also stands for the ways a fact about it is usually phrased
_SYNONYMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "address": (("address",), ("lives", "at"), ("home", "address")),
    "home address": (("address",), ("lives", "at")),
    "phone": (("phone",), ("mobile",), ("cell",)),
    "phone number": (("phone",), ("mobile",), ("cell",)),
    "number": (("phone",), ("number",)),
    "email": (("email",),),
    "email address": (("email",),),
    "birthday": (("birthday",), ("born",)),
    "age": (("age",), ("years", "old")),
    "salary": (("salary",), ("earns",)),
    "password": (("password",),),
}


@dataclass(frozen=True)
class SuppressionRequest:
    """A request found in a turn. `kind` is "previous" (about the speaker's previous
    turn), "topic" ("my address") or "statement" ("forget that I live in Berlin")."""

    kind: str
    phrase: str  # what the user named, as written ("" for "previous")
    term_sets: tuple[tuple[str, ...], ...] = field(default=())  # one rule per set


def _content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.lower()) if w not in _STOP and len(w) > 1]


def rule_terms(phrase: str, *, limit: int = 4) -> tuple[tuple[str, ...], ...]:
    """The word sets that stand for `phrase`: its object when it is a statement ("I live in
    Berlin" -> berlin), its content words when it is a noun phrase ("my phone number")."""
    phrase = re.sub(
        r"^(?:that|the\s+fact\s+that|about)\s+", "", phrase.strip(), flags=re.IGNORECASE
    )
    phrase = re.sub(
        r"\s+(?:please|either|anymore|any more|ok|okay|thanks)$", "", phrase, flags=re.IGNORECASE
    ).strip()
    noun = re.sub(r"^(?:my|our)\s+", "", phrase, flags=re.IGNORECASE).strip().lower()
    if noun in _SYNONYMS:
        return _SYNONYMS[noun]
    words: list[str] = []
    if re.match(r"^(?:I|I'm|I've|we|my|our)\b", phrase, re.IGNORECASE):
        parsed = parse_key(phrase)
        if parsed is not None:
            words = _content_words(parsed.object or "")
    if not words:
        words = _content_words(phrase)
    return (tuple(words[:limit]),) if words else ()


def terms_for_previous(text: str, *, limit: int = 2) -> tuple[tuple[str, ...], ...]:
    """Word sets for "don't remember that": for each statement of the previous turn, the
    first words of its object ("I live in Tampere" -> tampere), or failing any statement,
    its longest content words. Few words per set, because a restatement later uses other
    words around the same value, and refusing too much is the safe side here."""
    from .extract.rules import split_clauses  # the extractor imports this module

    sets: list[tuple[str, ...]] = []
    for clause in split_clauses(text):
        if re.search(r"\b(?:you|your|you're)\b", clause, re.IGNORECASE):
            continue  # about the listener, not what the speaker said of themselves
        parsed = parse_key(re.sub(r"^(?:\w+,\s*)+", "", clause.strip()))
        if parsed is not None:
            words = _content_words(parsed.object or "")
            if words:
                sets.append(tuple(words[:limit]))
    if not sets:
        words = sorted(set(_content_words(text)), key=lambda w: (-len(w), w))[:limit]
        if words:
            sets.append(tuple(sorted(words)))
    return tuple(dict.fromkeys(sets))


def detect(text: str) -> SuppressionRequest | None:
    """The request in `text`, or None. Pure: no store, no clock."""
    text = re.sub(r"[’`]", "'", text or "").strip()
    if not text:
        return None
    for rx in _PREVIOUS:
        if rx.search(text) and not _NOT_A_REQUEST.search(text):
            return SuppressionRequest("previous", "")
    topic = _TOPIC.search(text)
    if topic:
        what = topic.group("what").strip()
        terms = rule_terms(what)
        if terms:
            return SuppressionRequest("topic", what, terms)
    if not _NOT_A_REQUEST.search(text):
        found = _FORGET_STATEMENT.search(text)
        if found:
            what = found.group("what").strip()
            terms = rule_terms(what)
            if terms:
                kind = "statement" if re.match(r"^(?:I|I'm|we)\b", what) else "topic"
                return SuppressionRequest(kind, what, terms)
    return None


def is_suppression_request(text: str) -> bool:
    return detect(text) is not None


def matching(rules: Sequence[Suppression], text: str, subject: str | None) -> Suppression | None:
    """The first rule that refuses `text` about `subject`, if any."""
    return next((r for r in rules if r.matches(text, subject)), None)


@dataclass
class AppliedRequest:
    """What honouring one request did: rules added, facts forgotten, turns refused."""

    request: SuppressionRequest
    turn_id: str
    rules: list[Suppression] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)  # fact ids
    suppressed_turns: list[str] = field(default_factory=list)  # turns whose claims are refused

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn_id,
            "kind": self.request.kind,
            "phrase": self.request.phrase,
            "rules": [{"id": r.id, "pattern": r.pattern, "subject": r.subject} for r in self.rules],
            "forgotten": list(self.forgotten),
            "suppressed_turns": list(self.suppressed_turns),
        }


def _without_secrets(term_sets: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """A rule never keeps a secret the request named ("don't remember my password
    hunter2" stores "password"): the gate refuses secrets anyway."""
    from .secrets import find_secrets

    out = []
    for terms in term_sets:
        phrase = " ".join(terms)
        found = find_secrets(phrase)
        spans = [(f.start, f.end) for f in found] if found else []
        kept, at = [], 0
        for word in terms:
            start = phrase.index(word, at)
            at = start + len(word)
            if not any(a < at and start < b for a, b in spans):
                kept.append(word)
        label = next((n for n, w in enumerate(kept) if w in _SECRET_LABELS), None)
        if label is not None:
            kept = kept[: label + 1]  # "password hunter2": what follows the label is the value
        if kept:
            out.append(tuple(kept))
    return out


_SECRET_LABELS = frozenset(
    {
        "password",
        "passwords",
        "passwort",
        "kennwort",
        "salasana",
        "lösenord",
        "wachtwoord",
        "contraseña",
        "senha",
        "passcode",
        "passphrase",
        "pin",
        "pw",
        "pwd",
        "token",
        "secret",
        "apikey",
        "api_key",
        "key",
        "ssn",
    }
)


def apply_request(
    memory: Memory,
    request: SuppressionRequest,
    *,
    turn_id: str,
    subject: str | None,
    previous_id: str | None = None,
    previous_text: str | None = None,
    dry_run: bool = False,
) -> AppliedRequest:
    """Store the rules a request stands for, and forget the stored facts it names.

    "Don't remember that" forgets the facts drawn from the speaker's previous turn and
    adds rules for what that turn said, so a restatement later is refused too. With
    `dry_run`, nothing is written: the rules are returned unsaved and nothing is forgotten.
    """
    applied = AppliedRequest(request, turn_id)
    term_sets = request.term_sets
    if request.kind == "previous":
        term_sets = terms_for_previous(previous_text) if previous_text else ()
        if previous_id:
            applied.suppressed_turns.append(previous_id)
    key = memory.entity(subject) if subject else None
    existing = {(r.pattern, r.subject): r for r in memory.rules()}
    for terms in _without_secrets(term_sets):
        pattern = " ".join(terms)
        if (pattern, key) in existing:
            have = existing[(pattern, key)]
            applied.rules.append(Suppression(have.id, have.pattern, have.subject))
        elif dry_run:
            applied.rules.append(Suppression("(dry-run)", pattern, key))
        else:
            rule = memory.add_rule(pattern, subject=subject, origin=turn_id)
            applied.rules.append(Suppression(rule.id, rule.pattern, rule.subject))
    if dry_run:
        return applied
    if request.kind == "previous":
        if previous_id:
            applied.forgotten.extend(memory.forget(episode=previous_id).fact_ids)
        return applied
    for fact in memory.list():
        if fact.id not in applied.forgotten and matching(applied.rules, fact.text, fact.subject):
            applied.forgotten.extend(memory.forget(id=fact.id).fact_ids)
    return applied
