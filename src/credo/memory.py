"""`Memory`: the one facade the CLI, the MCP server and agent code call.

It takes its parts as objects (a store, optionally a chat client and a gate policy) and
is bound to one scope: every read and write it makes names that scope, so a `Memory` for
scope A cannot see or touch scope B.
"""

from __future__ import annotations

import builtins
import dataclasses
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import numpy as np

from . import gate, suppress
from .config import MAX_FACT_CHARS, RECALL_FLOOR, REJECTIONS_KEPT
from .fact import (
    Fact,
    Status,
    base_key,
    normalize_entity,
    normalize_predicate,
    seed_confidence,
    validate_source,
)
from .keys import Statement, analyse, display_name
from .predicates import split_polarity, with_polarity
from .recall import Hit, recall
from .render import render
from .resolver import Relation, Resolution, apply, reopen_if_settled, resolve
from .store.base import Conflict, ForgetReport, Rejection, Rule, Store, check_scope
from .timeparse import MAX_CLOCK_SKEW, TimeError
from .timeparse import parse_time as _parse_time

EXPORT_VERSION = 1
#: "don't remember that", said through `remember`, names the last fact stored this recently
PREVIOUS_WINDOW = 600.0
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class MemoryError_(ValueError):
    """Bad input or misuse of the Memory API; the message says what to do."""


class NotFound(MemoryError_):
    """No fact (or conflict, alias, rule) with that id in this scope."""


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "request": self.request,
            "accepted": self.accepted,
            "relation": self.relation.value if self.relation else None,
            "why": self.why,
            "code": self.code,
            "fact": self.fact.to_dict() if self.fact else None,
            "touched": [f.to_dict() for f in self.touched],
        }


@dataclass
class ImportReport:
    facts: int = 0
    skipped: int = 0
    lineage: int = 0
    conflicts: int = 0
    aliases: int = 0
    rules: int = 0
    rejections: int = 0
    scopes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def parse_time(value: str | float | int | None, *, now: float | None = None) -> float | None:
    """A date, datetime (ISO 8601) or epoch seconds or milliseconds -> epoch seconds (UTC
    when no zone): `credo.timeparse.parse_time`, with its errors as `MemoryError_`. With
    `now`, a time further in the future than a small clock skew is refused."""
    try:
        stamp = _parse_time(value)
    except TimeError as exc:
        raise MemoryError_(str(exc)) from exc
    if stamp is not None and now is not None and stamp > now + MAX_CLOCK_SKEW:
        from datetime import datetime

        when = datetime.fromtimestamp(stamp, tz=UTC).isoformat(timespec="seconds")
        raise MemoryError_(
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
            raise MemoryError_(f"{name!r} does not name an entity")
        return key

    def alias_add(self, alias: str, canonical: str) -> tuple[str, str]:
        a, c = base_key(alias), base_key(canonical)
        if not a or not c:
            raise MemoryError_("an alias and its canonical name must both have letters or digits")
        if a == c:
            raise MemoryError_(f"{alias!r} is already its own canonical name")
        table = self.aliases()
        if table.get(c) == a:
            raise MemoryError_(f"{canonical!r} is already an alias of {alias!r}: that is a loop")
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
    ) -> RememberResult:
        """Gate, key, resolve and store one explicit statement.

        The same steps as every ingested candidate: a "don't remember ..." or "forget
        that ..." request is honoured (and nothing stored), then the gate, the key parser
        and the resolver. Questions and instructions are refused with a reason."""
        if not isinstance(text, str) or not text.strip():
            raise MemoryError_("remember needs a non-empty text")
        if _CONTROL.search(text):
            raise MemoryError_("the text holds control characters (such as NUL): remove them")
        if len(text) > MAX_FACT_CHARS:
            raise MemoryError_(
                f"text is {len(text)} characters; a fact is at most {MAX_FACT_CHARS}: "
                "ingest documents instead of remembering them"
            )
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) > 1:
            raise MemoryError_(
                f"the text holds {len(lines)} lines: remember one statement at a time "
                "(`credo remember` takes each line of its input as one statement)"
            )
        try:
            source = validate_source(source)
        except ValueError as exc:
            raise MemoryError_(str(exc)) from exc
        stamp = parse_time(valid_from, now=self.clock())
        request = suppress.detect(text)
        if request is not None:
            return self._honour(request, text)
        candidate = gate.Candidate(
            text=text.strip(), subject=subject, predicate=predicate, object=object,
            source=source, derived_from=tuple(derived_from), valid_from=stamp,
        )
        return self.remember_candidate(candidate, require_subject=False, confidence=confidence)

    def _honour(self, request: suppress.SuppressionRequest, text: str) -> RememberResult:
        """A request not to remember something, said through `remember`: stored as rules,
        what it names forgotten, and the request itself never stored (it may carry the
        very thing it asks not to keep)."""
        previous: Fact | None = None
        if request.kind == "previous":
            recent = [f for f in self.store.all(scope=self.scope, limit=50)
                      if f.source == "user" and self.clock() - f.created_at <= PREVIOUS_WINDOW]
            previous = max(recent, key=lambda f: f.created_at, default=None)
        applied = suppress.apply_request(
            self, request, turn_id=f"remember@{self.clock():.0f}", subject=None,
            previous_text=previous.text if previous else None,
        )
        if previous is not None:
            applied.forgotten.extend(self.forget(id=previous.id).fact_ids)
        what = request.phrase or ("the last thing said" if previous else "nothing recent")
        why = f"will not remember {what!r}"
        if applied.rules:
            why += f": {len(applied.rules)} rule(s) now refuse it"
        if applied.forgotten:
            why += f"; forgot {len(applied.forgotten)} stored fact(s)"
        return RememberResult(False, None, None, why, "request", request=applied.to_dict())

    def remember_candidate(
        self,
        candidate: gate.Candidate,
        *,
        require_subject: bool = True,
        confidence: float | None = None,
        rules: Sequence[gate.Suppression] | None = None,
    ) -> RememberResult:
        """The path every candidate takes, whatever produced it: gate, key, resolver."""
        if rules is None:
            rules = self.suppressions()
        aliases = self.aliases()
        if candidate.subject:  # rules and keys compare normalised subjects
            candidate = dataclasses.replace(
                candidate, subject=normalize_entity(candidate.subject, aliases=aliases)
            )
        me = normalize_entity("user", aliases=aliases)
        statement = analyse(candidate.text, self_name=display_name(me))
        verdict = gate.check(candidate, self.policy, require_subject=require_subject,
                             suppressions=rules, statement=statement)
        if not verdict.accepted:
            self._reject(candidate, verdict, statement)
            return RememberResult(False, None, None, verdict.reason, verdict.code)
        try:
            fact = self._to_fact(candidate, statement, confidence)
        except ValueError as exc:
            raise MemoryError_(str(exc)) from exc
        return self._resolve_and_store(fact)

    def _reject(self, candidate: gate.Candidate, verdict: gate.Verdict,
                statement: Statement | None = None) -> None:
        """Keep the refusal with its reason, secrets masked, under the subject it is about
        (so that forgetting the subject forgets its refusals too)."""
        from .secrets import mask_secrets

        text = mask_secrets(candidate.text)
        named = candidate.subject or (statement.subject if statement and
                                      not statement.pronoun_subject else None)
        subject = normalize_entity(named, aliases=self.aliases()) if named else None
        self.store.add_rejection(
            Rejection(self.scope, text, verdict.code, verdict.reason, candidate.source,
                      subject, candidate.derived_from, self.clock()),
            keep=REJECTIONS_KEPT,
        )

    def _to_fact(self, candidate: gate.Candidate, statement: Statement,
                 confidence: float | None) -> Fact:
        """The record to resolve: the candidate's own key when it has one (an extractor
        or the caller named it), else the parser's, with the stored sentence the parser
        made (the user's words, the speaker named)."""
        aliases = self.aliases()
        text = candidate.text
        subject, predicate, obj = candidate.subject, candidate.predicate, candidate.object
        if subject is None:
            text = statement.text
            if statement.keyed:
                subject, predicate, obj = statement.subject, statement.predicate, statement.object
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

    def _resolve_and_store(self, fact: Fact) -> RememberResult:
        store = self.store
        vec = store.embed([fact.text])[0]
        base = _base(fact.predicate)
        with store.transaction():
            store.lock_key(self.scope, fact.subject, base)
            stored: dict[str, Fact] = {}
            if fact.subject and base:
                for predicate in (base, with_polarity(base, True)):
                    stored.update((f.id, f) for f in store.by_key(fact.subject, predicate,
                                                                  scope=self.scope))
            near = store.vector_search(vec, scope=self.scope, k=8)
            stored.update((f.id, f) for f in store.get_many([i for i, _ in near],
                                                            scope=self.scope))
            vectors = store.vectors_of(list(stored), scope=self.scope)
            by_text = {f.text: vectors[f.id] for f in stored.values() if f.id in vectors}
            by_text[fact.text] = vec

            def similarity(a: str, b: str) -> float:
                va, vb = by_text.get(a), by_text.get(b)
                return float(np.dot(va, vb)) if va is not None and vb is not None else 0.0

            resolution = resolve(
                fact, list(stored.values()), similarity=similarity,
                duplicate_at=store.embedder.duplicate_threshold, catalogue=self.catalogue,
            )
            apply(store, resolution)
            self._record_derivation(resolution)
        return self._result(resolution)

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
    def recall(self, query: str, *, k: int = 5, min_confidence: float | None = None,
               subject: str | None = None) -> builtins.list[Hit]:
        try:
            return recall(
                self.store, query, scope=self.scope, k=k,
                min_confidence=self.recall_floor if min_confidence is None else min_confidence,
                subject=self.entity(subject) if subject else None,
                canonical_subject=None,
            )
        except ValueError as exc:
            raise MemoryError_(str(exc)) from exc

    def render(self, items: Iterable[Fact | Hit]) -> str:
        return render(items)

    def for_prompt(self, query: str, *, k: int = 5) -> str:
        """The rendered block for a prompt: what to put before the model answers `query`."""
        return render(self.recall(query, k=k))

    def get(self, fact_id: str) -> Fact:
        fact = self.store.get(fact_id, scope=self.scope)
        if fact is None:
            raise NotFound(f"no fact {fact_id!r} in scope {self.scope!r}")
        return fact

    def list(self, *, subject: str | None = None, status: Status | str | None = None,
             limit: int | None = None, offset: int = 0) -> builtins.list[Fact]:
        if limit is not None and limit < 0 or offset < 0:
            raise MemoryError_("limit and offset must not be negative")
        try:
            st = Status(status) if status is not None else None
        except ValueError as exc:
            raise MemoryError_(
                f"unknown status {status!r}: use {', '.join(s.value for s in Status)}"
            ) from exc
        return self.store.all(scope=self.scope, status=st,
                              subject=self.entity(subject) if subject else None,
                              limit=limit, offset=offset)

    def lineage(self, fact_id: str) -> builtins.list[tuple[str, str, str]]:
        self.get(fact_id)
        return self.store.lineage(scope=self.scope, fact_id=fact_id)

    def rejections(self, *, limit: int = 100) -> builtins.list[Rejection]:
        return self.store.rejections(scope=self.scope, limit=limit)

    def stats(self) -> dict[str, int]:
        counts = {s.value: self.store.count(scope=self.scope, status=s) for s in Status}
        counts["conflicts"] = len(self.store.conflicts(scope=self.scope))
        counts["rejections"] = len(self.store.rejections(scope=self.scope, limit=REJECTIONS_KEPT))
        return counts

    # -- conflicts -----------------------------------------------------------------------
    def conflicts(self, *, include_resolved: bool = False) -> builtins.list[Conflict]:
        return self.store.conflicts(scope=self.scope, include_resolved=include_resolved)

    def resolve_conflict(self, *, keep: str | None = None, retract: Sequence[str] = (),
                         decided_by: str = "user") -> builtins.list[Fact]:
        """Settle a contradiction: keep one fact (its conflict partners are retracted), or
        retract facts outright. Records who decided. Returns the facts it changed."""
        if (keep is None) == (not retract):
            raise MemoryError_("give either the fact to keep, or the facts to retract")
        if not decided_by.strip():
            raise MemoryError_("say who decided (decided_by)")
        now = self.clock()
        changed: builtins.list[Fact] = []
        with self.store.transaction():
            if keep is not None:
                kept = self.get(keep)
                if not kept.is_live:
                    raise MemoryError_(
                        f"fact {keep!r} is {kept.status.value}: only a live fact can be kept "
                        "(a superseded or retracted fact is history, never revived)"
                    )
                self.store.lock_key(self.scope, kept.subject, _base(kept.predicate))
                partners = self.store.conflicts_of(kept.id, scope=self.scope)
                if not partners:
                    raise NotFound(f"fact {keep!r} has no unresolved conflict")
                for other in partners:
                    self.store.settle_conflict(self.scope, kept.id, other.id,
                                               resolution=f"kept {kept.id}", decided_by=decided_by,
                                               resolved_at=now)
                    changed.append(self._retract(other, now, superseded_by=kept.id))
                if not self.store.conflicts_of(kept.id, scope=self.scope):
                    kept = kept.evolve(status=Status.ACTIVE)
                    self.store.put(kept)
                changed.insert(0, kept)
            else:
                facts = [self.get(i) for i in retract]
                for fact in facts:
                    self.store.lock_key(self.scope, fact.subject, _base(fact.predicate))
                others: dict[str, Fact] = {}
                for fact in facts:
                    for other in self.store.conflicts_of(fact.id, scope=self.scope):
                        others[other.id] = other
                        self.store.settle_conflict(
                            self.scope, fact.id, other.id,
                            resolution="retracted " + ", ".join(f.id for f in facts),
                            decided_by=decided_by, resolved_at=now,
                        )
                for fact in facts:
                    changed.append(self._retract(fact, now))
                # a partner left with no open conflict is no longer in doubt
                for other in others.values():
                    if other.id not in retract:
                        active = reopen_if_settled(self.store, other.id, scope=self.scope)
                        if active is not None:
                            changed.append(active)
        return changed

    def _retract(self, fact: Fact, now: float, superseded_by: str | None = None) -> Fact:
        retracted = fact.evolve(status=Status.RETRACTED, valid_to=now,
                                superseded_by=superseded_by)
        self.store.put(retracted)
        return retracted

    # -- forgetting ----------------------------------------------------------------------
    def forget(self, *, id: str | None = None, subject: str | None = None,  # noqa: A002
               episode: str | None = None, everything: bool = False) -> ForgetReport:
        """Delete what is named and everything derived from it. The only delete."""
        if not any((id, subject, episode, everything)):
            raise MemoryError_("say what to forget: an id, a subject, an episode, or the scope")
        if id is not None:
            self.get(id)
        return self.store.forget(
            scope=self.scope, ids=[id] if id else [],
            subject=self.entity(subject) if subject else None,
            episode=episode, everything=everything,
        )

    # -- rules ---------------------------------------------------------------------------
    def suppressions(self) -> builtins.list[gate.Suppression]:
        return [gate.Suppression(r.id, r.pattern, r.subject)
                for r in self.store.rules(scope=self.scope)]

    def add_rule(self, pattern: str, *, subject: str | None = None, origin: str = "") -> Rule:
        import uuid

        words = [w for w in pattern.split() if w.strip()]
        if not words:
            raise MemoryError_("a rule needs at least one word to match")
        rule = Rule("r_" + uuid.uuid4().hex[:12], self.scope, " ".join(words),
                    self.entity(subject) if subject else None, self.clock(), origin)
        self.store.add_rule(rule)
        return rule

    def rules(self) -> builtins.list[Rule]:
        return self.store.rules(scope=self.scope)

    def remove_rule(self, rule_id: str) -> None:
        if not self.store.remove_rule(self.scope, rule_id):
            raise NotFound(f"no rule {rule_id!r} in scope {self.scope!r}")

    # -- export and import ---------------------------------------------------------------
    def export(self) -> Iterator[dict[str, Any]]:
        """Everything in the scope, as records that `import_` reads back with nothing lost."""
        return export_scope(self.store, self.scope)

    def import_(self, records: Iterable[dict[str, Any]], *, into: str | None = None
                ) -> ImportReport:
        return import_records(self.store, records, into=into)


def _base(predicate: str | None) -> str | None:
    """The predicate writers lock on: both polarities of a relation share one lock."""
    return split_polarity(predicate)[0] if predicate else None


def export_scope(store: Store, scope: str) -> Iterator[dict[str, Any]]:
    yield {"type": "header", "format": "credo-export", "version": EXPORT_VERSION,
           "scope": scope, "embedder": store.embedder.name, "exported_at": time.time()}
    for fact in store.iter_all(scope=scope):
        yield {"type": "fact", **fact.to_dict()}
    for parent, child, kind in store.lineage(scope=scope):
        yield {"type": "lineage", "scope": scope, "parent": parent, "child": child, "kind": kind}
    for c in store.conflicts(scope=scope, include_resolved=True):
        yield {"type": "conflict", "scope": scope, "a": c.a.id, "b": c.b.id, "reason": c.reason,
               "created_at": c.created_at, "resolved_at": c.resolved_at,
               "resolution": c.resolution, "decided_by": c.decided_by}
    for alias, canonical in store.aliases(scope=scope).items():
        yield {"type": "alias", "scope": scope, "alias": alias, "canonical": canonical}
    for rule in store.rules(scope=scope):
        yield {"type": "rule", **rule.to_dict()}
    for rej in reversed(store.rejections(scope=scope, limit=REJECTIONS_KEPT)):
        yield {"type": "rejection", **rej.to_dict()}


def import_records(store: Store, records: Iterable[dict[str, Any]], *, into: str | None = None
                   ) -> ImportReport:
    """Write exported records back. Idempotent: a fact already there (same id, same text)
    is skipped; the same id with other content is an error, never an overwrite."""
    report = ImportReport()
    facts: list[Fact] = []
    rest: list[dict[str, Any]] = []
    for n, record in enumerate(records, start=1):
        if not isinstance(record, dict) or "type" not in record:
            raise MemoryError_(f"record {n}: not a credo export record (no 'type')")
        kind = record["type"]
        data = {k: v for k, v in record.items() if k != "type"}
        if into is not None and "scope" in data:
            data["scope"] = check_scope(into)
        if kind == "header":
            if record.get("format") != "credo-export" or record.get("version") != EXPORT_VERSION:
                raise MemoryError_(f"record {n}: unsupported export format or version")
            continue
        if kind == "fact":
            try:
                fact = Fact.from_dict(data)
                check_scope(fact.scope)
            except (TypeError, ValueError) as exc:
                raise MemoryError_(f"record {n}: bad fact: {exc}") from exc
            facts.append(fact)
        elif kind in ("lineage", "conflict", "alias", "rule", "rejection"):
            rest.append({"type": kind, **data})
        else:
            raise MemoryError_(f"record {n}: unknown record type {kind!r}")
    with store.transaction():
        new: list[Fact] = []
        have_by_id: dict[str, Fact] = {}
        for scope in {f.scope for f in facts}:
            ids = [f.id for f in facts if f.scope == scope]
            for start in range(0, len(ids), 500):
                have_by_id.update(
                    (f.id, f) for f in store.get_many(ids[start : start + 500], scope=scope))
        for fact in facts:
            have = have_by_id.get(fact.id)
            if have is None:
                new.append(fact)
            elif have.text == fact.text:
                report.skipped += 1
            else:
                raise MemoryError_(f"fact {fact.id} already exists with other content")
        for start in range(0, len(new), 512):
            store.put_many(new[start : start + 512])
        report.facts = len(new)
        for r in rest:
            try:
                _import_record(store, r, report)
            except KeyError as exc:
                raise MemoryError_(f"{r['type']} record without {exc}") from exc
    report.scopes = sorted({f.scope for f in facts} | {r.get("scope", "") for r in rest})
    return report


def _import_record(store: Store, r: dict[str, Any], report: ImportReport) -> None:
    scope = r["scope"]
    if r["type"] == "lineage":
        store.add_lineage(scope, r["parent"], r["child"], r["kind"])
        report.lineage += 1
    elif r["type"] == "conflict":
        store.record_conflict(scope, r["a"], r["b"], r["reason"],
                              created_at=r.get("created_at"))
        if r.get("resolved_at"):
            store.settle_conflict(scope, r["a"], r["b"], resolution=r["resolution"] or "",
                                  decided_by=r["decided_by"] or "",
                                  resolved_at=r["resolved_at"])
        report.conflicts += 1
    elif r["type"] == "alias":
        store.set_alias(scope, r["alias"], r["canonical"])
        report.aliases += 1
    elif r["type"] == "rule":
        store.add_rule(Rule(r["id"], scope, r["pattern"], r.get("subject"),
                            r["created_at"], r.get("origin", "")))
        report.rules += 1
    elif r["type"] == "rejection":
        store.add_rejection(Rejection(
            scope, r["text"], r["code"], r["reason"], r.get("source", "user"),
            r.get("subject"), tuple(r.get("derived_from") or ()), r["created_at"]))
        report.rejections += 1


def dumps_jsonl(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    for record in records:
        yield json.dumps(record, ensure_ascii=False, sort_keys=True)
