""" "Don't remember that": what honouring a request writes, planned here, applied by
`Memory.honour`.

A request (found by `credo.suppress_request.detect`) becomes stored suppression rules in
the scope: the words a candidate must contain to be refused, and the subject it is about.
The gate refuses matching candidates now and in every later ingest, with the reason
recorded. A request also removes what it names from the store, because a store that still
holds what its rules now refuse is not honouring the request. `plan_request` decides all
of that from the request alone (pure: no store), as a `RequestPlan`; `Memory.honour` writes
it and reports what it did as an `AppliedRequest`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .gate import Suppression
from .keys import parse_key
from .suppress_request import (
    SuppressionRequest,
    content_words,
    detect,
    is_suppression_request,
    rule_terms,
)

__all__ = [
    "AppliedRequest",
    "RequestPlan",
    "SuppressionRequest",
    "detect",
    "is_suppression_request",
    "matching",
    "plan_request",
    "rule_terms",
    "terms_for_previous",
]


def terms_for_previous(text: str, *, limit: int = 2) -> tuple[tuple[str, ...], ...]:
    """Word sets for "don't remember that": for each statement of the previous turn, the
    first words of its object ("I live in Tampere" -> tampere), or failing any statement,
    its longest content words. Few words per set, because a restatement later uses other
    words around the same value, and refusing too much is the safe side here."""
    from .extract.rules import split_clauses  # loaded only when a request is planned

    sets: list[tuple[str, ...]] = []
    for clause in split_clauses(text):
        if re.search(r"\b(?:you|your|you're)\b", clause, re.IGNORECASE):
            continue  # about the listener, not what the speaker said of themselves
        parsed = parse_key(re.sub(r"^(?:\w+,\s*)+", "", clause.strip()))
        if parsed is not None:
            words = content_words(parsed.object or "")
            if words:
                sets.append(tuple(words[:limit]))
    if not sets:
        words = sorted(set(content_words(text)), key=lambda w: (-len(w), w))[:limit]
        if words:
            sets.append(tuple(sorted(words)))
    return tuple(dict.fromkeys(sets))


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


@dataclass(frozen=True)
class RequestPlan:
    """What honouring one request writes, decided from the request alone: a rule for each
    pattern (about `subject`, as the request's speaker named it), then what to forget: the
    facts drawn from the turn `forget_episode` ("don't remember that"), or, when
    `forget_matching`, every stored fact the request's rules refuse."""

    request: SuppressionRequest
    turn_id: str
    subject: str | None
    patterns: tuple[str, ...]
    forget_episode: str | None = None
    forget_matching: bool = False
    suppressed_turns: tuple[str, ...] = ()


def plan_request(
    request: SuppressionRequest,
    *,
    turn_id: str,
    subject: str | None,
    previous_id: str | None = None,
    previous_text: str | None = None,
) -> RequestPlan:
    """The rules a request stands for, and what it makes forgotten.

    "Don't remember that" forgets the facts drawn from the speaker's previous turn
    (`previous_id`) and adds rules for what that turn said (`previous_text`), so a
    restatement later is refused too. A rule never holds a secret the request named."""
    term_sets = request.term_sets
    previous = request.kind == "previous"
    if previous:
        term_sets = terms_for_previous(previous_text) if previous_text else ()
    return RequestPlan(
        request,
        turn_id,
        subject,
        tuple(" ".join(terms) for terms in _without_secrets(term_sets)),
        forget_episode=previous_id if previous else None,
        forget_matching=not previous,
        suppressed_turns=(previous_id,) if previous and previous_id else (),
    )
