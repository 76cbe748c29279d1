"""`Memory`: the one facade the CLI, the MCP server and agent code call.

It takes its parts as objects (a store, optionally a chat client and a gate policy) and
is bound to one scope: every read and write it makes names that scope, so a `Memory` for
scope A cannot see or touch scope B.

It decides nothing itself: it gathers what a decision needs, calls the module that makes
it (`gate`, `keys`, `retraction` and `resolver` on the write path, `suppress` for "don't
remember" requests, `recall` and `render` on the read path) and writes what comes back.
Export and import are `credo.transfer`'s; see ARCHITECTURE.md.
"""

from __future__ import annotations

import builtins
import dataclasses
import re
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

import numpy as np

from . import gate, suppress
from .beliefs import KeyHistory, TimeView, Why, explain, key_histories
from .config import (
    CHANGES_WITHIN,
    MAX_FACT_CHARS,
    MAX_REJECTION_CHARS,
    MAX_TURN_CHARS,
    RECALL_FLOOR,
    REJECTIONS_KEPT,
    UPDATE_WINDOW,
)
from .corrections import amendment, amends
from .errors import InvalidInput, NotFound
from .fact import (
    Fact,
    Status,
    base_key,
    normalize_entity,
    normalize_predicate,
    seed_confidence,
    validate_source,
)
from .introduced import as_own, introduced_as
from .isotime import format_iso
from .keys import Statement, analyse, display_name, elided_subject
from .predicates import split_polarity, with_polarity
from .recall import Hit, recall
from .relevance import keep_relevant
from .render import render
from .resolver import WE, Relation, Resolution, apply, reopen_if_settled, resolve
from .retraction import reassertions, refusal, retracted_claims
from .secrets import (
    BLOCK_KINDS,
    find_secrets,
    find_secrets_whole,
    mask_field,
    mask_fields,
    mask_secrets,
    masked_kind,
    public_blocks,
    read_in_paste,
    shown_public_by_paste,
)
from .store.base import Conflict, Event, ForgetReport, Rejection, Rule, Store, check_scope
from .suppress import AppliedRequest
from .suppress_request import RequestParts, split_requests
from .textcheck import CONTROL as _CONTROL
from .textcheck import NOT_UTF8 as _NOT_UTF8
from .textcheck import rejection_excerpt as rejection_excerpt  # its old home
from .timeparse import MAX_CLOCK_SKEW, TimeError, parse_instant
from .timeparse import parse_time as _parse_time

if TYPE_CHECKING:
    from .transfer import ImportReport

#: "don't remember that", said through `remember`, names the last fact stored this recently
PREVIOUS_WINDOW = 600.0


#: the old name of `InvalidInput` (credo.errors), kept so that code catching it still works;
#: deprecated: new code names `InvalidInput`
MemoryError_ = InvalidInput


#: refusals a correction said without its sentence gets from the gate ("make that 10
#: people" reads as a request, "i meant thursday" as a reply): read as corrections first
_ELLIPTIC = frozenset({"instruction", "vague", "too_short"})
#: refusals for what a sentence says of the moment, a plan or a hedge, which may still
#: name in passing a thing of the speaker's ("my brother's coming to stay this weekend")
_SAID_IN_PASSING = frozenset({"transient", "speculative", "hedged", "vague"})
#: clauses joined by "and" alone, with no contrast that may keep what one of them ends
#: ("switched to neovim but still use sublime text for work" stays whole)
_JOINED_ONLY = re.compile(r"^(?!.*\b(?:but|still|though|yet|although)\b).*\band\b", re.I | re.S)


def _with_referent(text: str, fact: Fact, owner: str) -> str:
    """`text` with what its first "it" stands for put after it in brackets, every word
    typed kept: "it's a thinkpad x1" -> "it [the user's laptop]'s a thinkpad x1" (a thing
    the key names, `has_<noun>`), "it [a toyota]'s a 2016 prius" (the stored value)."""
    predicate = fact.predicate or ""
    if predicate.startswith("has_"):
        whose = "the user" if owner == "The user" else owner
        referent = f"{whose}'s {predicate.removeprefix('has_').replace('_', ' ')}"
    else:
        referent = fact.object or ""
    found = re.search(r"\bit\b", text, re.IGNORECASE)
    if found is None or not referent:
        return text
    return f"{text[: found.end()]} [{referent}]{text[found.end() :]}"


#: a part of a message that says a thing still holds ("but i still use vim for work")
_STILL = re.compile(r"\bstill\b", re.IGNORECASE)
#: how many of the scope's latest live facts a correction said without its sentence is
#: looked for among
_AMENDED_AMONG = 20
#: the piece a text opens with, up to its first comma, and the words of the speaker
_OPENING_PIECE = re.compile(r"\s*([^,;:?]+)[,;:]")
_OF_THE_SPEAKER = re.compile(r"\b(?:i|im|i'm|i’m|my|me|we|we're|our|us)\b", re.IGNORECASE)


def _affirmed(results: Sequence[RememberResult]) -> frozenset[str]:
    """The facts the earlier parts of a message stored or reaffirmed."""
    return frozenset(r.fact.id for r in results if r.accepted and r.fact is not None)


def _supersedes_any(resolution: Resolution, ids: frozenset[str]) -> bool:
    """Does `resolution` supersede (update or refine) one of the facts `ids`?"""
    if resolution.relation not in (Relation.UPDATE, Relation.REFINEMENT):
        return False
    ended = [resolution.existing, *resolution.others]
    return any(f is not None and f.id in ids for f in ended)


@dataclass(frozen=True)
class RememberResult:
    accepted: bool
    relation: Relation | None  # None when the gate refused the text
    fact: Fact | None  # the fact that now stands for the claim
    why: str  # the resolver's reason, or the gate's
    code: str = "ok"  # the gate's category
    touched: tuple[Fact, ...] = ()  # stored facts the decision changed
    #: a "don't remember ..." / "forget that ..." request, and what honouring it did
    request: dict[str, Any] | None = None
    #: the other statements of the same text, each stored on its own ("im from cork, but
    #: i live in lyon now": this result is the first clause's, `also` the second's)
    also: tuple[RememberResult, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "request": self.request,
            "accepted": self.accepted,
            "relation": self.relation.value if self.relation else None,
            "why": self.why,
            "code": self.code,
            "fact": self.fact.to_dict() if self.fact else None,
            "touched": [f.to_dict() for f in self.touched],
            "also": [r.to_dict() for r in self.also],
        }


def parse_time(value: str | float | int | None, *, now: float | None = None) -> float | None:
    """A date, datetime (ISO 8601) or epoch seconds or milliseconds -> epoch seconds (UTC
    when no zone): `credo.timeparse.parse_time`, with its errors as `InvalidInput`. With
    `now`, a time further in the future than a small clock skew is refused."""
    try:
        stamp = _parse_time(value)
    except TimeError as exc:
        raise InvalidInput(str(exc)) from exc
    if stamp is not None and now is not None and stamp > now + MAX_CLOCK_SKEW:
        from datetime import datetime

        when = datetime.fromtimestamp(stamp, tz=UTC).isoformat(timespec="seconds")
        raise InvalidInput(
            f"valid_from {when} is in the future: a fact is remembered once it is true "
            "(give the date it became true, today at the latest)"
        )
    return stamp


class Memory:
    def __init__(
        self,
        store: Store,
        *,
        scope: str = "default",
        policy: gate.GatePolicy | None = None,
        chat: Any = None,
        clock: Callable[[], float] = time.time,
        recall_floor: float = RECALL_FLOOR,
    ) -> None:
        self.store = store
        self.scope = check_scope(scope)
        self.policy = policy or gate.GatePolicy()
        self.catalogue = self.policy.catalogue()
        self.chat = chat
        self.clock = clock
        self.recall_floor = recall_floor

    # -- entities ------------------------------------------------------------------------
    def aliases(self) -> dict[str, str]:
        return self.store.aliases(scope=self.scope)

    def canonical_subject(self) -> str:
        """Who "I", "me" and "the user" are in this scope ("user" unless aliased)."""
        return normalize_entity("user", aliases=self.aliases())

    def entity(self, name: str) -> str:
        key = normalize_entity(name, aliases=self.aliases())
        if not key:
            raise InvalidInput(f"{name!r} does not name an entity")
        return key

    def alias_add(self, alias: str, canonical: str) -> tuple[str, str]:
        a, c = base_key(alias), base_key(canonical)
        if not a or not c:
            raise InvalidInput("an alias and its canonical name must both have letters or digits")
        if find_secrets(alias) or find_secrets(canonical) or find_secrets(f"{a} {c}"):
            raise InvalidInput("an alias names a person or a thing: this one holds a secret")
        if a == c:
            raise InvalidInput(f"{alias!r} is already its own canonical name")
        table = self.aliases()
        if table.get(c) == a:
            raise InvalidInput(f"{canonical!r} is already an alias of {alias!r}: that is a loop")
        c = table.get(c, c)  # point at the end of a chain, never into the middle
        self.store.set_alias(self.scope, a, c)
        return a, c

    def alias_remove(self, alias: str) -> None:
        if not self.store.remove_alias(self.scope, base_key(alias)):
            raise NotFound(f"no alias {alias!r} in scope {self.scope!r}")

    # -- remembering ---------------------------------------------------------------------
    def remember(
        self,
        text: str,
        *,
        source: str = "user",
        valid_from: str | float | None = None,
        derived_from: Sequence[str] = (),
        confidence: float | None = None,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,  # noqa: A002 - the triple's name for it
        force: bool = False,
    ) -> RememberResult:
        """Gate, key, resolve and store one explicit statement.

        The same steps as every ingested candidate: a "don't remember ..." or "forget
        that ..." request is honoured (and nothing stored), then the gate, the key parser
        and the resolver. Questions and instructions are refused with a reason. A claim
        the user retracted is refused (code "retracted") unless `force` re-asserts it."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("remember needs a non-empty text")
        if _NOT_UTF8.search(text):
            raise InvalidInput("the text holds bytes that are not UTF-8: pass it in UTF-8")
        if _CONTROL.search(text):
            raise InvalidInput("the text holds control characters (such as NUL): remove them")
        if len(text) <= MAX_TURN_CHARS:
            # secrets are looked for in the whole text, before it is cut into lines or
            # sentences: a key block, or a secret said over two lines, is refused whole
            # ("don't remember my PIN 4821" is still honoured, the PIN masked first)
            masked = mask_secrets(text)
            if masked != text or masked_kind(text):
                request = suppress.detect(masked)
                if request is not None:
                    return self._honour(request, masked)
                return self._refuse_secret(masked, source=source, derived_from=derived_from)
        if len(text) > MAX_FACT_CHARS:
            raise InvalidInput(
                f"text is {len(text)} characters; a fact is at most {MAX_FACT_CHARS}: "
                "ingest documents instead of remembering them"
            )
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) > 1:
            raise InvalidInput(
                f"the text holds {len(lines)} lines: remember one statement at a time "
                "(`credo remember` takes each line of its input as one statement)"
            )
        try:
            source = validate_source(source)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from exc
        stamp = parse_time(valid_from, now=self.clock())
        request = suppress.detect(text)
        if request is not None:
            parts = split_requests(text)
            if parts is None:
                return self._honour(request, text)
            return self._requests_and_statements(
                parts,
                source=source,
                valid_from=valid_from,
                derived_from=derived_from,
                confidence=confidence,
                force=force,
            )
        candidate = gate.Candidate(
            text=text.strip(),
            subject=subject,
            predicate=predicate,
            object=object,
            source=source,
            derived_from=tuple(derived_from),
            valid_from=stamp,
        )
        told = self._told_and_asked(candidate)
        several = self._statements_of(candidate, told)
        if several:
            results: list[RememberResult] = []
            # "switched to neovim but i still use sublime text for work": what a part says
            # still holds is told first, so that no other part of the message ends it
            for part in sorted(several, key=lambda p: _STILL.search(p) is None):
                results.append(
                    self.remember_candidate(
                        dataclasses.replace(candidate, text=part),
                        require_subject=False,
                        confidence=confidence,
                        force=force,
                        affirmed=_affirmed(results),
                    )
                )
            first = next((r for r in results if r.accepted), results[0])
            return dataclasses.replace(first, also=tuple(r for r in results if r is not first))
        result = self._asked_beside(candidate, told) or self.remember_candidate(
            candidate, require_subject=False, confidence=confidence, force=force
        )
        if result.accepted:
            return result
        return self._clauses_of(candidate, result, confidence=confidence, force=force)

    def remember_lines(
        self,
        text: str,
        *,
        source: str = "user",
        valid_from: str | float | None = None,
        derived_from: Sequence[str] = (),
        force: bool = False,
    ) -> builtins.list[RememberResult]:
        """Each non-blank line of `text` remembered as one statement (what `credo remember`
        does with its input), after secrets are looked for in the whole text: a key, a
        seed phrase, a list of codes or any secret that runs over a line break refuses
        the whole text (one rejection, masked); a line holding a secret that only the
        whole text shows ("my door code" on one line, "is 4821" on the next) is refused
        with it masked. Other lines go their own way."""
        return [
            result
            for _, result in self.remember_numbered(
                text, source=source, valid_from=valid_from, derived_from=derived_from, force=force
            )
        ]

    def remember_numbered(
        self,
        text: str,
        *,
        source: str = "user",
        valid_from: str | float | None = None,
        derived_from: Sequence[str] = (),
        force: bool = False,
        keep_going: bool = False,
    ) -> builtins.list[tuple[int, RememberResult]]:
        """`remember_lines` with each result's line number in `text` (1-based; 0 for a
        text refused whole for a secret). With `keep_going`, a line that cannot be
        remembered at all (too long, control characters) is not an error that stops the
        rest: its result is refused, code "invalid", the reason naming the line, and the
        lines after it are remembered."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("remember needs a non-empty text")
        options: dict[str, Any] = {
            "source": source,
            "valid_from": valid_from,
            "derived_from": derived_from,
            "force": force,
        }
        findings = find_secrets_whole(text) if len(text) <= MAX_INPUT_CHARS_SCANNED else []
        if any(f.kind in BLOCK_KINDS or "\n" in text[f.start : f.end] for f in findings):
            if _CONTROL.search(text):
                raise InvalidInput("the text holds control characters (such as NUL): remove them")
            whole = mask_secrets(text)
            return [(0, self._refuse_secret(whole, source=source, derived_from=derived_from))]
        masked = _masked_at(text, findings)
        # the paste is one message: a value a line alone reads as a secret and the whole
        # paste shows public (an invoice's IBAN under the payee's name) is not refused
        public = (
            shown_public_by_paste(text) if len(text) <= MAX_INPUT_CHARS_SCANNED else frozenset()
        )
        out: builtins.list[tuple[int, RememberResult]] = []
        with read_in_paste(public):
            for n, line in _statement_lines(masked):
                if not line.strip():
                    continue
                try:
                    out.append((n, self.remember(line.strip(), **options)))
                except InvalidInput as exc:
                    if not keep_going:
                        raise
                    out.append(
                        (n, RememberResult(False, None, None, f"line {n}: {exc}", "invalid"))
                    )
        return out

    def _refuse_secret(
        self, masked: str, *, source: str, derived_from: Sequence[str]
    ) -> RememberResult:
        """Refuse a text that holds a secret, given already masked: one rejection of the
        whole, with its secrets masked, its source and references masked too."""
        try:
            source = validate_source(source)
        except ValueError:
            source = "user"  # the refusal is about the secret, whatever the label
        candidate = gate.Candidate(
            text=masked.strip(), source=source, derived_from=tuple(derived_from)
        )
        kind = masked_kind(masked) or "unmasked"
        verdict = gate.Verdict(False, "secret", f"carries a secret ({kind})")
        self._reject(candidate, verdict, analyse(_one_line(candidate.text)), self.aliases())
        return RememberResult(False, None, None, verdict.reason, verdict.code)

    @staticmethod
    def _told_and_asked(candidate: gate.Candidate) -> tuple[list[str], bool]:
        """The clauses of the text that state and whether it asks too
        (`extract.rules.told_and_asked`), read once for the readings below; nothing for a
        candidate that comes with a key (the key is the whole text's)."""
        from .extract.rules import told_and_asked

        if candidate.subject or candidate.predicate or candidate.object:
            return [], False
        told = told_and_asked(candidate.text)
        if len(told[0]) == 1 and not told[1] and _JOINED_ONLY.search(candidate.text):
            # "quit my job and moved to spain": two clauses with the "I" of both left out,
            # read apart as they would be with it ("I quit my job", "moved to spain")
            said = candidate.text.strip()
            full = elided_subject(said)
            added = full[: len(full) - len(said)]
            if full != said and full.endswith(said):
                parts, asks = told_and_asked(full)
                if len(parts) > 1 and not asks and parts[0].startswith(added):
                    # each part in the words said: the "I" put back for reading only
                    return [parts[0][len(added) :], *parts[1:]], asks
        return told

    def _asked_beside(
        self, candidate: gate.Candidate, told: tuple[list[str], bool]
    ) -> RememberResult | None:
        """A text that asks a question beside what it states ("vegan, nut allergy. what can
        i cook for a dinner party", "my birthday's 3 feb, what star sign is that") is not
        stored whole, its question in a fact: refused whole as a question (the refusal
        kept), so that its statements are read on their own (`_clauses_of`); a text whose
        every clause asks is a question ("as a result of the move, whats the best way to
        ship a piano"). None for a text that asks nothing, one the gate refuses as a
        question itself, or one that comes with a key."""
        parts, asks = told
        if not asks:
            return None
        opening = _OPENING_PIECE.match(candidate.text)
        if not parts and opening and _OF_THE_SPEAKER.search(opening.group(1)):
            # "my birthday's 3 feb, what star sign is that": a piece of the speaker's the
            # reading of clauses did not part from the question; stored whole, as said,
            # rather than lost
            return None
        aliases = self.aliases()
        me = normalize_entity("user", aliases=aliases)
        statement = analyse(candidate.text, self_name=display_name(me))
        if statement.kind in ("question", "instruction"):
            return None  # the gate refuses it as one ("can you book a table for two")
        verdict = gate.Verdict(False, "question", "a question asserts nothing")
        self._reject(candidate, verdict, statement, aliases)
        return RememberResult(False, None, None, verdict.reason, verdict.code)

    def _statements_of(self, candidate: gate.Candidate, told: tuple[list[str], bool]) -> list[str]:
        """The clauses of a text that each state a keyed fact the gate would take ("im
        from cork, but i live in lyon now"), when there are several and every clause
        is one: each is then stored on its own, in the user's words, so that each finds
        the fact it updates. A text with any clause that is not (a pronoun to resolve, a
        mood, a question, a clause that names nothing: "I used to smoke but I quit")
        stays whole: splitting it would lose what that clause says."""
        from .extract.rules import names_something, states

        parts, asks = told  # nothing for a candidate with a key
        # "whats your favourite season? mine is autumn": a question, then the one statement
        # (a question last makes the whole a question, which `_clauses_of` reads)
        alone = len(parts) == 1 and parts[0] != candidate.text and asks
        if len(parts) < 2 and not alone:
            return []
        for part in parts:
            statement = analyse(part)
            if not names_something(part, statement):
                return []  # "... but I quit": a clause that names nothing means little alone
            if not states(part):
                return []  # "if i won the lottery, ...": a condition, half a sentence
            if not gate.check(
                dataclasses.replace(candidate, text=part),
                self.policy,
                require_subject=False,
                statement=statement,
            ).accepted:
                return []
        return parts

    def _clauses_of(
        self,
        candidate: gate.Candidate,
        whole: RememberResult,
        *,
        confidence: float | None,
        force: bool,
    ) -> RememberResult:
        """A text refused as a whole may still state a fact in one of its clauses, as
        people write to an assistant: "i just moved to lisbon, any tips for a dentist?"
        keeps "i just moved to lisbon" (the question is refused). Each clause that is not
        a question goes the same way as the whole; the result is the first one stored, or
        the refusal of the whole when none is."""
        from .extract.rules import told_apart

        if candidate.subject or candidate.predicate or candidate.object:
            return whole  # a key the caller gave is the whole text's
        parts = told_apart(candidate.text, whole.code)
        if not parts:
            return whole
        first: RememberResult | None = None
        done: list[RememberResult] = []
        for part in parts:
            one = dataclasses.replace(candidate, text=part)
            result = self.remember_candidate(
                one,
                require_subject=False,
                confidence=confidence,
                force=force,
                affirmed=_affirmed(done),
            )
            if not result.accepted and len(part) < len(candidate.text):
                # a clause refused for a clause of its own ("happy friday!! im an
                # accountant so this week was brutal": the second piece is refused for
                # "this week") is read apart in turn; each cut is shorter, so it ends
                result = self._clauses_of(one, result, confidence=confidence, force=force)
            done.append(result)
            if result.accepted and first is None:
                first = result
        return first or whole

    def _requests_and_statements(
        self,
        parts: RequestParts,
        *,
        source: str,
        valid_from: str | float | None,
        derived_from: Sequence[str],
        confidence: float | None,
        force: bool,
    ) -> RememberResult:
        """A text holding a request and other sentences ("I moved to Porto. Don't store my
        salary."): each request honoured first (so its rules apply to the rest), what a
        request's "that" names in the same text refused, unstored ("I'm 52. Don't remember
        that."), and every other sentence remembered as a statement of its own. The first
        request's result, the others in `also`: nothing of the text is lost silently."""
        results: list[RememberResult] = []
        for sentence, request, names in parts.requests:
            results.append(self._honour(request, sentence, names=" ".join(names) or None))
        results.extend(
            RememberResult(
                False,
                None,
                None,
                "the same text asks not to remember it",
                "suppressed",
            )
            for _ in parts.named
        )
        for sentence in parts.kept:
            result = self.remember(
                sentence,
                source=source,
                valid_from=valid_from,
                derived_from=derived_from,
                confidence=confidence,
                force=force,
            )
            results.extend((dataclasses.replace(result, also=()), *result.also))
        return dataclasses.replace(results[0], also=tuple(results[1:]))

    def _honour(
        self, request: suppress.SuppressionRequest, text: str, *, names: str | None = None
    ) -> RememberResult:
        """A request not to remember something, said through `remember`: stored as rules,
        what it names forgotten, and the request itself never stored (it may carry the
        very thing it asks not to keep). `names`: what a "don't remember that" names when
        it was said before the request in the same text (then no stored fact is forgotten
        for it: that text was never stored)."""
        previous: Fact | None = None
        if request.kind == "previous" and names is None:
            recent = [
                f
                for f in self.store.all(scope=self.scope, limit=50)
                if f.source == "user" and self.clock() - f.created_at <= PREVIOUS_WINDOW
            ]
            previous = max(recent, key=lambda f: f.created_at, default=None)
        plan = suppress.plan_request(
            request,
            turn_id=f"remember@{format_iso(self.clock())}",
            subject=None,
            previous_text=names or (previous.text if previous else None),
        )
        applied = self.honour(plan)
        if previous is not None:
            applied.forgotten.extend(self.forget(id=previous.id).fact_ids)
        what = request.phrase or (
            "what was said before it" if names else "the last thing said" if previous else ""
        )
        what = what or "nothing recent"
        why = f"will not remember {what!r}"
        if applied.rules:
            why += f": {len(applied.rules)} rule(s) now refuse it"
        if applied.forgotten:
            why += f"; forgot {len(applied.forgotten)} stored fact(s)"
        return RememberResult(False, None, None, why, "request", request=applied.to_dict())

    def honour(self, plan: suppress.RequestPlan, *, dry_run: bool = False) -> AppliedRequest:
        """Write what a "don't remember" request was planned to write (`credo.suppress`):
        its rules (one already there is reused), then forget what it names. With
        `dry_run`, nothing is written: the rules come back unsaved, nothing is forgotten."""
        applied = AppliedRequest(plan.request, plan.turn_id)
        applied.suppressed_turns.extend(plan.suppressed_turns)
        key = self.entity(plan.subject) if plan.subject else None
        existing = {(r.pattern, r.subject): r for r in self.rules()}
        for pattern in plan.patterns:
            if (pattern, key) in existing:
                have = existing[(pattern, key)]
                applied.rules.append(gate.Suppression(have.id, have.pattern, have.subject))
            elif dry_run:
                applied.rules.append(gate.Suppression("(dry-run)", pattern, key))
            else:
                rule = self.add_rule(pattern, subject=plan.subject, origin=plan.turn_id)
                applied.rules.append(gate.Suppression(rule.id, rule.pattern, rule.subject))
        if dry_run:
            return applied
        if plan.forget_episode:
            applied.forgotten.extend(self.forget(episode=plan.forget_episode).fact_ids)
        if plan.forget_matching:
            for fact in self.list():
                if fact.id not in applied.forgotten and suppress.matching(
                    applied.rules, fact.text, fact.subject
                ):
                    applied.forgotten.extend(self.forget(id=fact.id).fact_ids)
        return applied

    def remember_candidate(
        self,
        candidate: gate.Candidate,
        *,
        require_subject: bool = True,
        confidence: float | None = None,
        rules: Sequence[gate.Suppression] | None = None,
        force: bool = False,
        affirmed: frozenset[str] = frozenset(),
    ) -> RememberResult:
        """The path every candidate takes, whatever produced it: gate, key, resolver. A
        claim retracted earlier is refused unless `force`. `affirmed`: the facts the same
        message told or reaffirmed in another part, which this part does not end."""
        if rules is None:
            rules = self.suppressions()
        # what is stored beside the text (where it came from) is masked like it
        candidate = dataclasses.replace(
            candidate,
            source=mask_field(candidate.source),
            derived_from=tuple(mask_fields(candidate.derived_from)),
        )
        aliases = self.aliases()
        if candidate.subject:  # rules and keys compare normalised subjects
            candidate = dataclasses.replace(
                candidate, subject=normalize_entity(candidate.subject, aliases=aliases)
            )
        me = normalize_entity("user", aliases=aliases)
        statement = analyse(candidate.text, self_name=display_name(me))
        verdict = gate.check(
            candidate,
            self.policy,
            require_subject=require_subject,
            suppressions=rules,
            statement=statement,
        )
        if (
            not verdict.accepted
            and verdict.code in _ELLIPTIC
            or verdict.accepted
            and not statement.keyed
            and candidate.subject is None
        ):
            # "make that 10 people", "sorry i meant thursday": a value said again for
            # a fact told a moment before
            amended = self._amended(candidate, statement, aliases)
            if amended is not None:
                return self._resolve_and_store(
                    amended, me=me, said=candidate.text, force=force, affirmed=affirmed
                )
        if not verdict.accepted and verdict.code == "ungrounded" and candidate.subject is None:
            # "it's a thinkpad x1 carbon" after "my laptop's a thinkpad": "it" is the thing
            # a stored fact holds, named again
            grounded = self._named_again(candidate, statement, aliases)
            if grounded is not None:
                return self._resolve_and_store(
                    grounded, me=me, said=candidate.text, force=force, affirmed=affirmed
                )
        if not verdict.accepted and not (
            verdict.code in _SAID_IN_PASSING and self._gainsays_a_state(candidate.text, me)
        ):
            self._reject(candidate, verdict, statement, aliases)
            return RememberResult(False, None, None, verdict.reason, verdict.code)
        try:
            fact = self._to_fact(candidate, statement, confidence, aliases)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from exc
        if candidate.subject is None:
            fact = self._of_a_name_given(fact, candidate.text, me, aliases)
        return self._resolve_and_store(
            fact, me=me, said=candidate.text, force=force, affirmed=affirmed
        )

    def _gainsays_a_state(self, text: str, me: str) -> bool:
        """Does `text`, refused for what it says of the moment, name in passing a thing of
        the speaker's that a live stored state says the speaker has none of ("my
        brother's coming to stay this weekend" after "I'm an only child")? Refused, the
        state would stand unquestioned; kept, the resolver flags the two."""
        from .resolver import names_denied_own

        states = self.store.by_key(me, "be", scope=self.scope)
        return any(f.is_live and names_denied_own(f, text, self.catalogue) for f in states)

    def _amended(
        self, candidate: gate.Candidate, statement: Statement, aliases: dict[str, str]
    ) -> Fact | None:
        """A correction said without its sentence (`credo.corrections`), as the fact it
        corrects with the value said again: the latest live fact of the scope told within
        the update window before it that holds one value of the same kind. The stored
        sentence is the user's words as typed; the key is the corrected fact's, with the
        new value.
        None where the text is no such correction or nothing told just before holds such
        a value (the gate's verdict stands)."""
        found = amendment(candidate.text)
        if found is None:
            return None
        stamp = candidate.valid_from if candidate.valid_from is not None else self.clock()
        for fact in self._latest_live():
            if not 0 <= stamp - fact.asserted_at < UPDATE_WINDOW or not fact.key:
                continue
            old = amends(found, fact.text)
            if old is None:
                continue
            obj = fact.object
            if obj and old in obj:
                obj = obj.replace(old, found.value, 1)
            keyed = dataclasses.replace(
                candidate, subject=fact.subject, predicate=fact.predicate, object=obj
            )
            # the words as typed ("sorry i meant thursday"): told in the third person they
            # would read as a fact of their own ("The user meant thursday")
            return self._to_fact(keyed, statement, None, aliases)
        return None

    def _latest_live(self) -> builtins.list[Fact]:
        """The scope's latest live facts (`_AMENDED_AMONG` of them), newest first: what a
        sentence said without its subject or its sentence may be about."""
        total = self.store.count(scope=self.scope, status=Status.ACTIVE)
        recent = self.store.all(
            scope=self.scope,
            status=Status.ACTIVE,
            limit=_AMENDED_AMONG,
            offset=max(0, total - _AMENDED_AMONG),
        )
        return sorted(recent, key=lambda f: f.asserted_at, reverse=True)

    def _named_again(
        self, candidate: gate.Candidate, statement: Statement, aliases: dict[str, str]
    ) -> Fact | None:
        """ "it's a thinkpad x1 carbon gen 9" after "my laptop's a thinkpad", "it's a 2016
        toyota prius" after "i drive a toyota": an "it" said to be a thing whose name holds
        the product or name a live stored fact says the speaker has, uses, drives or
        rides, read as that thing: the fact it refines, keyed as the stored fact with the
        value said now (`resolver.named_again`). The stored sentence is the user's words
        as typed, with what "it" is put beside it in brackets ("it [the user's laptop]'s a
        thinkpad x1 carbon"), so that it still says what it is about once the fact it
        refines is superseded. None where no fact of the scope's latest is so named (the
        gate's "nothing to refer to" stands)."""
        from .resolver import named_again

        if not (statement.pronoun_subject and (statement.subject or "").lower() == "it"):
            return None
        if statement.predicate != "be" or statement.negated or not statement.object:
            return None
        for fact in self._latest_live():
            if fact.key and named_again(statement.object, fact, self.catalogue):
                keyed = dataclasses.replace(
                    candidate,
                    text=_with_referent(candidate.text, fact, display_name(fact.subject or "")),
                    subject=fact.subject,
                    predicate=fact.predicate,
                    object=statement.object,
                )
                return self._to_fact(keyed, statement, None, aliases)
        return None

    def _of_a_name_given(self, fact: Fact, said: str, me: str, aliases: dict[str, str]) -> Fact:
        """ "lily just started year 6" after "my daughter lily is in year 5": a fact about a
        name that a stored fact near it gives as the speaker's own (`credo.introduced`)
        keyed as said of "my daughter", so that it meets what is stored of her; the stored
        sentence stays as typed. `fact` itself where no such fact is near, or where the
        sentence said of "my <noun>" has no key of the speaker's."""
        name = fact.subject
        if not name or name in (me, WE) or not fact.key or len(name.split()) > 2:
            return fact
        if as_own(said, name, "x") is None:
            return fact  # the name is not said as a word of its own
        store = self.store
        near = store.vector_search(store.embed([fact.text])[0], scope=self.scope, k=8)
        nearby = [f for f in store.get_many([i for i, _ in near], scope=self.scope) if f.is_live]
        if any(f.subject == name for f in nearby):
            return fact  # "my sister anna lives in berlin" was keyed on her name: so is this
        for stored in nearby:
            noun = introduced_as(name, stored.text)
            ours = as_own(said, name, noun) if noun else None
            if ours is None:
                continue
            read = analyse(ours, self_name=display_name(me))
            if not read.keyed or read.kind != "statement" or not read.predicate:
                continue
            subject = normalize_entity(read.subject or "", aliases=aliases)
            if subject != me:
                continue
            predicate = self.catalogue.normalise(normalize_predicate(read.predicate))
            return dataclasses.replace(
                fact, subject=subject, predicate=predicate, object=read.object or None
            )
        return fact

    def _reject(
        self,
        candidate: gate.Candidate,
        verdict: gate.Verdict,
        statement: Statement,
        aliases: dict[str, str],
    ) -> None:
        """Keep the refusal with its reason, secrets masked, under the subject it is about
        (so that forgetting the subject forgets its refusals too)."""
        text = rejection_excerpt(candidate.text)
        if verdict.code == "secret":
            # the subject is read from the masked text: never a secret's own words
            values = [candidate.text[f.start : f.end].lower() for f in find_secrets(candidate.text)]
            statement = analyse(_one_line(text))
            given = candidate.subject
            if given and (find_secrets(given) or any(v in given.lower() for v in values)):
                candidate = dataclasses.replace(candidate, subject=None)
        named = candidate.subject or (None if statement.pronoun_subject else statement.subject)
        subject = normalize_entity(named, aliases=aliases) if named else None
        self.store.add_rejection(
            Rejection(
                self.scope,
                text,
                verdict.code,
                verdict.reason,
                mask_field(candidate.source),
                subject,
                tuple(mask_fields(candidate.derived_from)),
                self.clock(),
            ),
            keep=REJECTIONS_KEPT,
        )

    def _to_fact(
        self,
        candidate: gate.Candidate,
        statement: Statement,
        confidence: float | None,
        aliases: dict[str, str],
    ) -> Fact:
        """The record to resolve: the candidate's own key when it has one (an extractor
        or the caller named it), else the parser's, with the stored sentence the parser
        made (the user's words, the speaker named)."""
        text = candidate.text
        subject, predicate, obj = candidate.subject, candidate.predicate, candidate.object
        if subject is None:
            text = statement.text
            if statement.keyed:
                subject, predicate, obj = statement.subject, statement.predicate, statement.object
            elif statement.first_person and statement.kind == "statement":
                # no key the parser can vouch for ("I hardly ever drink", "I own a cat;
                # its name is Miso"), but whose fact it is is plain: the speaker's, found
                # by what is known about the user
                subject = "I"
        if len(text) > MAX_FACT_CHARS:  # naming the speaker made it longer than a fact
            text = candidate.text
        now = self.clock()
        pred = self.catalogue.normalise(normalize_predicate(predicate)) if predicate else None
        return Fact(
            text=text,
            subject=normalize_entity(subject, aliases=aliases) if subject else None,
            predicate=pred or None,
            object=(obj or "").strip() or None,
            scope=self.scope,
            source=candidate.source,
            confidence=seed_confidence(candidate.source, confidence),
            derived_from=list(candidate.derived_from),
            created_at=now,
            valid_from=candidate.valid_from if candidate.valid_from is not None else now,
        )

    def _resolve_and_store(
        self,
        fact: Fact,
        *,
        me: str,
        said: str | None = None,
        force: bool = False,
        affirmed: frozenset[str] = frozenset(),
    ) -> RememberResult:
        """Resolve `fact` against the stored facts that bear on it and write the outcome;
        `me` is the scope's canonical subject (who "I" is, whom a "we" includes). A fact
        in `affirmed` (told or reaffirmed by another part of the same message) is not
        superseded by this one: "since im allergic to gluten im baking with rice flour
        instead" does not end "im allergic to gluten"."""
        store = self.store
        vec = store.embed([fact.text])[0]
        base = _base(fact.predicate)
        with store.transaction():
            store.lock_key(self.scope, fact.subject, base)
            stored: dict[str, Fact] = {}
            if fact.subject and base:
                # "we live in Leeds" bears on where the user lives, and "I live in York" on
                # where "we" do
                subjects = {fact.subject} | ({me, WE} if fact.subject in (me, WE) else set())
                for subject in sorted(subjects):
                    for predicate in (base, with_polarity(base, True)):
                        stored.update(
                            (f.id, f) for f in store.by_key(subject, predicate, scope=self.scope)
                        )
            near = store.vector_search(vec, scope=self.scope, k=8)
            stored.update((f.id, f) for f in store.get_many([i for i, _ in near], scope=self.scope))
            vectors = store.vectors_of(list(stored), scope=self.scope)
            by_text = {f.text: vectors[f.id] for f in stored.values() if f.id in vectors}
            by_text[fact.text] = vec

            def similarity(a: str, b: str) -> float:
                # a text not stored (a sentence with its numbers masked) is embedded once
                missing = [t for t in dict.fromkeys((a, b)) if t not in by_text]
                if missing:
                    by_text.update(zip(missing, store.embed(missing), strict=True))
                return float(np.dot(by_text[a], by_text[b]))

            retracted = retracted_claims(
                fact,
                stored.values(),
                similarity=similarity,
                duplicate_at=store.embedder.duplicate_threshold,
                catalogue=self.catalogue,
            )
            if retracted:
                log = store.events(scope=self.scope, fact_ids=[retracted[-1].id])
                why = refusal(retracted, log, force=force)
                if why is not None:
                    return self._refuse_retracted(fact, why, said)
            resolution = resolve(
                fact,
                list(stored.values()),
                similarity=similarity,
                duplicate_at=store.embedder.duplicate_threshold,
                catalogue=self.catalogue,
                me=me,
                said=said,
            )
            if affirmed and _supersedes_any(resolution, affirmed):
                resolution = resolve(
                    fact,
                    [f for f in stored.values() if f.id not in affirmed],
                    similarity=similarity,
                    duplicate_at=store.embedder.duplicate_threshold,
                    catalogue=self.catalogue,
                    me=me,
                    said=said,
                )
            apply(store, resolution, said=said)
            reasserted = reassertions(fact, retracted, resolution, self.scope)
            if reasserted:
                store.add_events(reasserted)
            self._record_derivation(resolution)
        return self._result(resolution)

    def _refuse_retracted(self, fact: Fact, why: str, said: str | None) -> RememberResult:
        """The same claim as a retracted fact, refused (`credo.retraction`): kept as a
        rejection, and said why."""
        self.store.add_rejection(
            Rejection(
                self.scope,
                rejection_excerpt(said or fact.text),
                "retracted",
                why,
                fact.source,
                fact.subject,
                tuple(fact.derived_from),
                self.clock(),
            ),
            keep=REJECTIONS_KEPT,
        )
        return RememberResult(False, None, None, why, "retracted")

    def _record_derivation(self, resolution: Resolution) -> None:
        """A fact inferred from stored facts is their child: forgetting them forgets it."""
        if resolution.relation is Relation.DUPLICATE:
            return
        new = resolution.incoming
        known = self.store.get_many(new.derived_from, scope=self.scope)
        lineage = {(p, c) for p, c, _ in resolution.lineage}
        for parent in known:
            if (parent.id, new.id) not in lineage:
                self.store.add_lineage(self.scope, parent.id, new.id, "derived")

    def _result(self, resolution: Resolution) -> RememberResult:
        stored = resolution.stored
        touched = tuple(w for w in resolution.writes if stored is None or w.id != stored.id)
        return RememberResult(True, resolution.relation, stored, resolution.why, "ok", touched)

    # -- reading -------------------------------------------------------------------------
    def view(
        self, as_of: str | float | None = None, known_at: str | float | None = None
    ) -> TimeView | None:
        """The time view of a read (`beliefs.TimeView`), or None to read what is held now.
        `as_of`: valid time (what was true then); `known_at`: record time (what credo
        knew then; `as_of` defaults to it). A date without a time of day means the end of
        that year, month or day."""
        if as_of is None and known_at is None:
            return None
        try:
            a = parse_instant(as_of, where="as_of")
            k = parse_instant(known_at, where="known_at")
        except TimeError as exc:
            raise InvalidInput(str(exc)) from exc
        if a is None and k is None:
            return None
        return TimeView.at(a, k, now=self.clock())

    def recall(
        self,
        query: str,
        *,
        k: int = 5,
        min_confidence: float | None = None,
        subject: str | None = None,
        as_of: str | float | None = None,
        known_at: str | float | None = None,
    ) -> builtins.list[Hit]:
        """The facts that answer `query`, best first (see `credo.recall`). With `as_of`
        and/or `known_at`, the facts that were true then as credo knew them then. With
        `subject`, only facts about that entity; `min_confidence` (0 to 1) leaves out
        facts below it, conflicted ones too."""
        floor = self.recall_floor if min_confidence is None else min_confidence
        if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0 <= floor <= 1:
            raise InvalidInput(f"min_confidence must be between 0 and 1, not {floor!r}")
        about = self.entity(subject) if subject else None
        view = self.view(as_of, known_at)
        if view is not None:
            view.load_conflicts(self.store, scope=self.scope)
        try:
            hits = recall(
                self.store,
                query,
                scope=self.scope,
                k=k,
                min_confidence=floor,
                subject=about,
                view=view,
            )
        except ValueError as exc:
            raise InvalidInput(str(exc)) from exc
        return hits if about is None else [h for h in hits if h.fact.subject == about]

    def render(
        self,
        items: Iterable[Fact | Hit],
        *,
        query: str | None = None,
        as_of: str | float | None = None,
        changes: bool = False,
        changes_within: float = CHANGES_WITHIN,
    ) -> str:
        """The prompt block for `items`. With the `query` the hits answer, only what bears
        on it is carried (`credo.relevance`: entity hits and whole conflicts always, other
        facts above a similarity floor; a query without a word carries nothing). `as_of`
        says the block is a view of that date; `changes=True` adds, to a fact whose value
        replaced another within `changes_within` seconds (a year by default) of the
        view's date, when it changed and the value before ("since 2025-03; before:
        Helsinki"). A correction said without its sentence ("make that 10 people") is
        always shown with the sentence it corrected."""
        items = builtins.list(items)
        if query is not None:
            hits = [i for i in items if isinstance(i, Hit)]
            kept = {id(h) for h in keep_relevant(hits, query=query)}
            items = [i for i in items if not isinstance(i, Hit) or id(i) in kept]
        facts = [item if isinstance(item, Fact) else item.fact for item in items]
        stamp = None
        if as_of is not None:
            try:
                stamp = parse_instant(as_of, where="as_of")
            except TimeError as exc:
                raise InvalidInput(str(exc)) from exc
        before = self._previous_values(facts, stamp, changes_within) if changes else {}
        # "make that 10 people" says nothing alone: it is shown with what it corrected
        elliptic = [f for f in facts if amendment(f.text) is not None]
        corrected = self._previous_values(elliptic, None, float("inf")) if elliptic else {}
        return render(facts, as_of=stamp, before=before, corrected=corrected)

    def _previous_values(
        self, facts: Sequence[Fact], as_of: float | None, within: float
    ) -> dict[str, Fact]:
        """For each fact that superseded (updated, not refined) an older value recently
        enough, that older value."""
        now = self.clock() if as_of is None else as_of
        out: dict[str, Fact] = {}
        for fact in facts:
            if fact.asserted_at < now - within:
                continue
            parents = [
                p
                for p, c, kind in self.store.lineage(scope=self.scope, fact_id=fact.id)
                if c == fact.id and kind == "supersedes"
            ]
            olds = [
                f
                for f in self.store.get_many(parents, scope=self.scope)
                if f.status is Status.SUPERSEDED and f.key == fact.key
            ]
            if olds:
                out[fact.id] = max(olds, key=lambda f: f.asserted_at)
        return out

    def for_prompt(
        self,
        query: str,
        *,
        k: int = 5,
        as_of: str | float | None = None,
        known_at: str | float | None = None,
        changes: bool = False,
    ) -> str:
        """The rendered block for a prompt: what to put before the model answers `query`
        (the facts recall finds that bear on it; see `render`)."""
        hits = self.recall(query, k=k, as_of=as_of, known_at=known_at)
        view = self.view(as_of, known_at)
        return self.render(hits, query=query, as_of=view.as_of if view else None, changes=changes)

    def get(self, fact_id: str) -> Fact:
        fact = self.store.get(fact_id, scope=self.scope)
        if fact is None:
            raise NotFound(f"no fact {fact_id!r} in scope {self.scope!r}")
        return fact

    def list(
        self,
        *,
        subject: str | None = None,
        status: Status | str | None = None,
        limit: int | None = None,
        offset: int = 0,
        as_of: str | float | None = None,
        known_at: str | float | None = None,
    ) -> builtins.list[Fact]:
        """Everything stored (in order of storing), or with `as_of` / `known_at` the facts
        held true then, each with the status it had then."""
        if limit is not None and limit < 0 or offset < 0:
            raise InvalidInput("limit and offset must not be negative")
        try:
            st = Status(status) if status is not None else None
        except ValueError as exc:
            raise InvalidInput(
                f"unknown status {status!r}: use {', '.join(s.value for s in Status)}"
            ) from exc
        view = self.view(as_of, known_at)
        who = self.entity(subject) if subject else None
        if view is None:
            return self.store.all(
                scope=self.scope, status=st, subject=who, limit=limit, offset=offset
            )
        view.load_conflicts(self.store, scope=self.scope)
        out: builtins.list[Fact] = []
        for batch in _batched(self.store.iter_all(scope=self.scope), 500):
            view.load(self.store, [f.id for f in batch], scope=self.scope)
            for fact in batch:
                seen = view.project(fact) if who is None or fact.subject == who else None
                if seen is not None and (st is None or seen.status is st):
                    out.append(seen)
        return out[offset:] if limit is None else out[offset : offset + limit]

    def lineage(self, fact_id: str) -> builtins.list[tuple[str, str, str]]:
        self.get(fact_id)
        return self.store.lineage(scope=self.scope, fact_id=fact_id)

    def rejections(self, *, limit: int = 100) -> builtins.list[Rejection]:
        return self.store.rejections(scope=self.scope, limit=limit)

    def stats(self) -> dict[str, int]:
        counts = {s.value: self.store.count(scope=self.scope, status=s) for s in Status}
        counts["conflicts"] = len(self.store.conflicts(scope=self.scope))
        counts["rejections"] = len(self.store.rejections(scope=self.scope, limit=REJECTIONS_KEPT))
        counts["pending_erase"] = self.store.pending_erase()  # the whole store, not the scope
        return counts

    # -- conflicts -----------------------------------------------------------------------
    def conflicts(self, *, include_resolved: bool = False) -> builtins.list[Conflict]:
        return self.store.conflicts(scope=self.scope, include_resolved=include_resolved)

    def resolve_conflict(
        self, *, keep: str | None = None, retract: Sequence[str] = (), decided_by: str = "user"
    ) -> builtins.list[Fact]:
        """Settle a contradiction: keep one fact (its conflict partners are retracted), or
        retract facts outright. Records who decided. Returns the facts it changed."""
        if (keep is None) == (not retract):
            raise InvalidInput("give either the fact to keep, or the facts to retract")
        if not decided_by.strip():
            raise InvalidInput("say who decided (decided_by)")
        decided_by = mask_field(decided_by)
        now = self.clock()
        changed: builtins.list[Fact] = []
        with self.store.transaction():
            if keep is not None:
                kept = self.get(keep)
                if not kept.is_live:
                    raise InvalidInput(
                        f"fact {keep!r} is {kept.status.value}: only a live fact can be kept "
                        "(a superseded or retracted fact is history, never revived)"
                    )
                self.store.lock_key(self.scope, kept.subject, _base(kept.predicate))
                partners = self.store.conflicts_of(kept.id, scope=self.scope)
                if not partners:
                    raise NotFound(f"fact {keep!r} has no unresolved conflict")
                for other in partners:
                    self.store.settle_conflict(
                        self.scope,
                        kept.id,
                        other.id,
                        resolution=f"kept {kept.id}",
                        decided_by=decided_by,
                        resolved_at=now,
                    )
                    changed.append(
                        self._retract(
                            other,
                            now,
                            superseded_by=kept.id,
                            by=decided_by,
                            why=f"conflict settled: {kept.id} kept",
                        )
                    )
                    self.store.add_events(
                        [
                            Event(self.scope, kept.id, now, "resolved", other.id, decided_by),
                        ]
                    )
                if not self.store.conflicts_of(kept.id, scope=self.scope):
                    kept = kept.evolve(status=Status.ACTIVE)
                    self.store.put(kept)
                changed.insert(0, kept)
            else:
                facts = [self.get(i) for i in retract]
                changed += self._retract_settling(
                    facts, now, by=decided_by, why="conflict settled: retracted"
                )
        return changed

    def _retract(
        self,
        fact: Fact,
        now: float,
        superseded_by: str | None = None,
        *,
        by: str,
        why: str | None = None,
    ) -> Fact:
        """Mark a fact wrong, keeping it (and its lineage) as history, with who and why."""
        valid_to = fact.valid_to if fact.valid_to is not None else now
        retracted = fact.evolve(
            status=Status.RETRACTED,
            valid_to=valid_to,
            superseded_by=superseded_by or fact.superseded_by,
        )
        self.store.put(retracted)
        detail = {"why": why} if why else {}
        self.store.add_events(
            [
                Event(
                    self.scope,
                    fact.id,
                    now,
                    "retracted",
                    superseded_by,
                    by,
                    fact.confidence,
                    detail,
                )
            ]
        )
        return retracted

    def _retract_settling(
        self, facts: Sequence[Fact], now: float, *, by: str, why: str | None
    ) -> builtins.list[Fact]:
        """Retract `facts`, closing their open conflicts (decided by `by`); a partner left
        with no open conflict is active again. Returns the retracted facts, then those
        partners."""
        ids = {f.id for f in facts}
        for fact in facts:
            self.store.lock_key(self.scope, fact.subject, _base(fact.predicate))
        others: dict[str, Fact] = {}
        for fact in facts:
            for other in self.store.conflicts_of(fact.id, scope=self.scope):
                others[other.id] = other
                self.store.settle_conflict(
                    self.scope,
                    fact.id,
                    other.id,
                    resolution="retracted " + ", ".join(f.id for f in facts),
                    decided_by=by,
                    resolved_at=now,
                )
        changed = [self._retract(fact, now, by=by, why=why) for fact in facts]
        survivors = [o for o in others.values() if o.id not in ids]
        self.store.add_events(
            [Event(self.scope, o.id, now, "resolved", f.id, by) for f in facts for o in survivors]
        )
        for other in survivors:  # no longer in doubt once no conflict is left open
            active = reopen_if_settled(self.store, other.id, scope=self.scope)
            if active is not None:
                changed.append(active)
        return changed

    def retract(self, fact_id: str, *, why: str | None = None, by: str = "user") -> Fact:
        """ "That's wrong": the fact leaves recall and stays in lineage as retracted, with
        who said so and why. Nothing comes back in its place (a value it superseded stays
        superseded); its open conflicts close, and a partner left with none is active
        again. The same claim remembered later is refused unless re-asserted with force."""
        if not isinstance(by, str) or not by.strip():
            raise InvalidInput("say who retracts it (by)")
        if why is not None and (not isinstance(why, str) or len(why) > MAX_REJECTION_CHARS):
            raise InvalidInput(f"why is a text of at most {MAX_REJECTION_CHARS} characters")
        if why is not None and _CONTROL.search(why):
            raise InvalidInput("why holds control characters (such as NUL): remove them")
        why, by = (mask_field(why) if why else why), mask_field(by)
        now = self.clock()
        with self.store.transaction():
            fact = self.get(fact_id)
            if fact.status is Status.RETRACTED:
                raise InvalidInput(f"fact {fact_id!r} is already retracted")
            retracted = self._retract_settling([fact], now, by=by, why=why)[0]
        return retracted

    def why(self, fact_id: str) -> Why:
        """Why credo holds a fact: its sources and episodes (with the statement as said),
        its confidence over time, and every decision that touched it."""
        return explain(self.store, self.get(fact_id))

    def history(self, subject: str, predicate: str | None = None) -> builtins.list[KeyHistory]:
        """The values each key of `subject` held over time (one key with `predicate`),
        with how each came and went and the conflicts that were open."""
        who = self.entity(subject)
        facts = self.store.all(scope=self.scope, subject=who)
        pred = None
        if predicate is not None:
            if not isinstance(predicate, str) or not predicate.strip():
                raise InvalidInput("predicate must be a non-empty text")
            pred = self.catalogue.normalise(normalize_predicate(predicate))
        return key_histories(self.store, facts, scope=self.scope, predicate=pred)

    # -- forgetting ----------------------------------------------------------------------
    def forget(
        self,
        *,
        id: str | None = None,
        subject: str | None = None,  # noqa: A002
        episode: str | None = None,
        everything: bool = False,
    ) -> ForgetReport:
        """Delete what is named and everything derived from it. The only delete."""
        if not any((id, subject, episode, everything)):
            raise InvalidInput("say what to forget: an id, a subject, an episode, or the scope")
        if id is not None:
            self.get(id)
        return self.store.forget(
            scope=self.scope,
            ids=[id] if id else [],
            subject=self.entity(subject) if subject else None,
            episode=episode,
            everything=everything,
        )

    # -- rules ---------------------------------------------------------------------------
    def suppressions(self) -> builtins.list[gate.Suppression]:
        return [
            gate.Suppression(r.id, r.pattern, r.subject) for r in self.store.rules(scope=self.scope)
        ]

    def add_rule(self, pattern: str, *, subject: str | None = None, origin: str = "") -> Rule:

        words = [w for w in pattern.split() if w.strip()]
        if not words:
            raise InvalidInput("a rule needs at least one word to match")
        if find_secrets(pattern) or masked_kind(pattern) or (subject and find_secrets(subject)):
            raise InvalidInput(
                "a rule holds a secret: name what not to remember without the secret itself "
                '("my bank PIN", not the PIN)'
            )
        rule = Rule(
            "r_" + uuid.uuid4().hex[:12],
            self.scope,
            " ".join(words),
            self.entity(subject) if subject else None,
            self.clock(),
            mask_field(origin),
        )
        self.store.add_rule(rule)
        return rule

    def rules(self) -> builtins.list[Rule]:
        return self.store.rules(scope=self.scope)

    def remove_rule(self, rule_id: str) -> None:
        if not self.store.remove_rule(self.scope, rule_id):
            raise NotFound(f"no rule {rule_id!r} in scope {self.scope!r}")

    # -- export and import ---------------------------------------------------------------
    def export(self) -> Iterator[dict[str, Any]]:
        """Everything in the scope, as records that `import_` reads back with nothing lost
        (`credo.transfer.export_scope`)."""
        from .transfer import export_scope  # transfer raises this module's errors

        return export_scope(self.store, self.scope)

    def import_(
        self, records: Iterable[dict[str, Any]], *, into: str | None = None
    ) -> ImportReport:
        """Write exported records into this memory's scope, and into no other.

        Every record is checked as a write: types, sizes (`config.MAX_FACT_CHARS`), control
        characters, confidence, status, source and times. A malformed record stops the
        import before anything is written. A fact holding a secret or over the size limit
        is not imported (`ImportReport.refused` says which, never what); rejections are
        masked and cut to `config.MAX_REJECTION_CHARS`. A record naming another scope is
        refused, naming that scope, unless `into` is this memory's scope: then every record
        is copied into it. Ids in use elsewhere in the database get new ones
        (`credo.transfer.import_records`)."""
        if into is not None and into != self.scope:
            raise InvalidInput(
                f"into={into!r}, but this memory is scope {self.scope!r}: an import writes "
                f"only its memory's scope (use Memory(store, scope={into!r}))"
            )
        from .transfer import import_records

        return import_records(self.store, records, scope=self.scope, into=into, clock=self.clock)


def _batched(items: Iterable[Fact], size: int) -> Iterator[builtins.list[Fact]]:
    batch: builtins.list[Fact] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _base(predicate: str | None) -> str | None:
    """The predicate writers lock on: both polarities of a relation share one lock."""
    return split_polarity(predicate)[0] if predicate else None


#: how much of a text `remember_lines` looks at whole for secrets (a longer input is read
#: line by line, each line looked at alone)
MAX_INPUT_CHARS_SCANNED = 1_000_000


def _statement_lines(text: str) -> builtins.list[tuple[int, str]]:
    """The lines of `text` with their numbers (1-based), except that the lines of a public
    armoured block (a public key, a certificate, a signature: `public_blocks`) are one
    line, numbered by its first: a line of a public key read alone looks like key
    material, and is no statement of its own."""
    blocks = public_blocks(text)
    lines: builtins.list[tuple[int, str]] = []
    open_block: tuple[tuple[int, int], int] | None = None  # a block, and its line's index
    pos = 0
    for n, raw in enumerate(text.splitlines(keepends=True), start=1):
        line = raw.splitlines()[0] if raw.splitlines() else ""
        at = pos + len(line) - len(line.lstrip())  # where the line's words start
        pos += len(raw)
        if not line.strip():
            continue
        block = next(((a, b) for a, b in blocks if a <= at < b), None)
        if block is not None and open_block is not None and open_block[0] == block:
            first, joined = lines[open_block[1]]
            lines[open_block[1]] = (first, f"{joined} {line.strip()}")
            continue
        open_block = (block, len(lines)) if block is not None else None
        lines.append((n, line))
    return lines


def _masked_at(text: str, findings: Sequence[Any]) -> str:
    """`text` with each finding's span replaced by its placeholder (then masked again, as
    `mask_secrets` would, for what the placeholders uncover)."""
    if not findings:
        return text
    parts: list[str] = []
    cursor = 0
    for found in findings:
        parts.append(text[cursor : found.start])
        parts.append(f"[secret:{found.kind}]")
        cursor = found.end
    parts.append(text[cursor:])
    return "".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())
