"""Beliefs over time: what credo held true at a date, why it holds a fact, and how a key's
value changed.

Two times, kept apart (bi-temporal):
- **valid time**: when a fact was true in the world, `valid_from` to `valid_to` (set when
  a later fact superseded it). `as_of` reads it.
- **record time**: when credo learned and unlearned it: `created_at`, and the decision log
  (`store.base.Event`), whose first superseded / history / retracted row says when the
  fact stopped being held current. `known_at` reads it: what credo knew then.

`TimeView(as_of, known_at)` projects each stored fact to what it was in that view: absent
(not yet learned, retracted by then, or not true at `as_of`), or with the status it had
(a fact superseded after `known_at` was still live then; a conflict settled after it was
still open). With only `as_of`, credo answers with all it knows now; with only
`known_at`, as it would have answered then (`as_of` = `known_at`).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .fact import Fact, Status
from .predicates import split_polarity
from .store.base import RETIRING_EVENTS, Conflict, Event, Store


@dataclass(frozen=True)
class Times:
    """When a fact left the record: first retired (superseded, history or retracted) and
    retracted, in record time; None while it has not."""

    retired: float | None = None
    retracted: float | None = None


def times_of(events: Iterable[Event]) -> dict[str, Times]:
    out: dict[str, Times] = {}
    for e in events:
        if e.kind not in RETIRING_EVENTS:
            continue
        t = out.get(e.fact_id, Times())
        retired = e.at if t.retired is None else min(t.retired, e.at)
        retracted = t.retracted
        if e.kind == "retracted":
            retracted = e.at if retracted is None else min(retracted, e.at)
        out[e.fact_id] = Times(retired, retracted)
    return out


@dataclass
class TimeView:
    """What credo believed true at `as_of` (valid time), as known at `known_at` (record
    time). Fill it with `load` for the facts a read looks at, then `project` each."""

    as_of: float
    known_at: float
    times: dict[str, Times] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)

    @classmethod
    def at(cls, as_of: float | None, known_at: float | None, *, now: float) -> TimeView:
        if as_of is None and known_at is None:
            raise ValueError("a time view needs as_of, known_at or both")
        known = now if known_at is None else known_at
        return cls(as_of=known if as_of is None else as_of, known_at=known)

    def load(self, store: Store, ids: Sequence[str], *, scope: str) -> None:
        missing = [i for i in ids if i not in self.times]
        if missing:
            found = times_of(store.events(scope=scope, fact_ids=missing))
            self.times.update({i: found.get(i, Times()) for i in missing})

    def load_conflicts(self, store: Store, *, scope: str) -> None:
        self.conflicts = [
            c
            for c in store.conflicts(scope=scope, include_resolved=True)
            if c.created_at <= self.known_at
            and (c.resolved_at is None or c.resolved_at > self.known_at)
        ]

    def project(self, fact: Fact) -> Fact | None:
        """The fact as this view saw it, or None when the view does not hold it."""
        if fact.created_at > self.known_at:
            return None
        t = self.times.get(fact.id, Times())
        if t.retracted is not None and t.retracted <= self.known_at:
            return None  # by then credo held it was never true
        retired = t.retired is not None and t.retired <= self.known_at
        valid_to = fact.valid_to if retired else None
        start = fact.asserted_at
        if start > self.as_of or (valid_to is not None and valid_to <= self.as_of):
            return None
        status = Status.CONFLICTED if self.open_partners(fact.id) else Status.ACTIVE
        return fact.evolve(status=status, valid_to=valid_to)

    def open_partners(self, fact_id: str) -> builtins.list[str]:
        return [
            c.b.id if c.a.id == fact_id else c.a.id
            for c in self.conflicts
            if fact_id in (c.a.id, c.b.id)
        ]


# -- why ---------------------------------------------------------------------------------
@dataclass
class Why:
    """Everything credo knows about why it holds a fact: the fact, where it came from,
    and every decision that touched it, oldest first."""

    fact: Fact
    sources: builtins.list[dict[str, Any]]
    decisions: builtins.list[dict[str, Any]]
    confidence: builtins.list[tuple[float, float]]
    related: dict[str, Fact]

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact.to_dict(),
            "sources": self.sources,
            "decisions": self.decisions,
            "confidence_history": [{"at": at, "confidence": c} for at, c in self.confidence],
            "related": {i: f.to_dict() for i, f in self.related.items()},
        }


#: how a decision reads, from the side of the fact it is about
_PHRASES = {
    "new": "stored ({relation})",
    "reinforced": "reinforced by a repetition from {by} (not an independent source)",
    "corroborated": "corroborated by {by}",
    "updated": "superseded {other_text}",
    "refined": "refined from {other_text}",
    "superseded": "superseded by {other_text}",
    "history": "kept as history: {other_text} holds the slot",
    "conflict": "in conflict with {other_text}",
    "resolved": "conflict with {other_text} settled by {by}",
    "retracted": "retracted by {by}",
    "reasserted": "asserted again after the retraction of {other_text}",
}


def explain(store: Store, fact: Fact) -> Why:
    events = store.events(scope=fact.scope, fact_ids=[fact.id])
    other_ids = {e.other for e in events if e.other} | {
        e.fact_id for e in events if e.fact_id != fact.id
    }
    related = {f.id: f for f in store.get_many(sorted(other_ids), scope=fact.scope)}
    decisions: builtins.list[dict[str, Any]] = []
    sources: builtins.list[dict[str, Any]] = []
    confidence: builtins.list[tuple[float, float]] = []
    for e in events:
        own = e.fact_id == fact.id
        other = e.other if own else e.fact_id
        kind = e.kind if own else _mirror(e.kind)
        if kind is None:
            continue
        text = f"{other} ({related[other].text!r})" if other in related else "a forgotten fact"
        phrase = _PHRASES.get(kind, kind).format(
            relation=e.detail.get("relation", "new"),
            by=e.by or "unknown",
            other_text=text,
        )
        decisions.append(
            {
                "at": e.at,
                "kind": kind,
                "other": other,
                "by": e.by,
                "what": phrase,
                "why": e.detail.get("why") or e.detail.get("note"),
            }
        )
        if own and e.confidence is not None:
            confidence.append((e.at, e.confidence))
        if own and "said" in e.detail:
            sources.append(
                {
                    "at": e.at,
                    "source": e.detail.get("source", e.by),
                    "said": e.detail["said"],
                    "episodes": list(e.detail.get("derived_from", [])),
                    "kind": kind,
                    "independent": e.detail.get("independent"),
                }
            )
    if not any(s["kind"] == "new" for s in sources):  # stored before the log existed
        sources.insert(
            0,
            {
                "at": fact.created_at,
                "source": fact.source,
                "said": None,
                "episodes": [r for r in fact.derived_from if r not in related],
                "kind": "new",
                "independent": None,
            },
        )
    for parent, child, kind in store.lineage(scope=fact.scope, fact_id=fact.id):
        if kind == "derived" and child == fact.id and parent not in related:
            found = store.get(parent, scope=fact.scope)
            if found is not None:
                related[parent] = found
                decisions.append(
                    {
                        "at": fact.created_at,
                        "kind": "derived",
                        "other": parent,
                        "by": fact.source,
                        "what": f"derived from {parent} ({found.text!r})",
                        "why": None,
                    }
                )
    decisions.sort(key=lambda d: d["at"])
    return Why(fact, sources, decisions, confidence, related)


def _mirror(kind: str) -> str | None:
    """A decision logged on another fact, read from this fact's side: most are logged on
    both sides already; a fact stored as history is logged on the older fact alone."""
    return "history_of" if kind == "history" else None


_PHRASES["history_of"] = "holds the slot over the older {other_text}"


# -- history -----------------------------------------------------------------------------
@dataclass
class KeyHistory:
    """The values a key held over time, oldest first."""

    subject: str
    predicate: str
    entries: builtins.list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"subject": self.subject, "predicate": self.predicate, "entries": self.entries}


def key_histories(
    store: Store, facts: Sequence[Fact], *, scope: str, predicate: str | None = None
) -> builtins.list[KeyHistory]:
    """Group a subject's facts by key (both polarities of a relation together) and order
    each group by valid time, saying how each value came and went."""
    groups: dict[str, builtins.list[Fact]] = {}
    for fact in facts:
        if not fact.predicate:
            continue
        base = split_polarity(fact.predicate)[0]
        if predicate is not None and base != split_polarity(predicate)[0]:
            continue
        groups.setdefault(base, []).append(fact)
    ids = [f.id for group in groups.values() for f in group]
    events = store.events(scope=scope, fact_ids=ids) if ids else []
    times = times_of(events)
    how: dict[str, str] = {}
    by: dict[str, str] = {}
    for e in events:
        if e.kind == "new":
            how.setdefault(e.fact_id, str(e.detail.get("relation", "new")))
            by.setdefault(e.fact_id, e.by)
        if e.kind == "retracted":
            by[f"retracted:{e.fact_id}"] = e.by
    conflicts = store.conflicts(scope=scope, include_resolved=True)
    out = []
    for base, group in sorted(groups.items()):
        group.sort(key=lambda f: (f.asserted_at, f.created_at))
        entries = []
        for f in group:
            partners = [
                {
                    "with": c.b.id if c.a.id == f.id else c.a.id,
                    "opened": c.created_at,
                    "closed": c.resolved_at,
                    "decided_by": c.decided_by,
                }
                for c in conflicts
                if f.id in (c.a.id, c.b.id)
            ]
            t = times.get(f.id, Times())
            entries.append(
                {
                    "id": f.id,
                    "value": f.object,
                    "negated": split_polarity(f.predicate or "")[1],
                    "text": f.text,
                    "status": f.status.value,
                    "valid_from": f.asserted_at,
                    "valid_to": f.valid_to,
                    "learned_at": f.created_at,
                    "retired_at": t.retired,
                    "how": how.get(f.id, "new"),
                    "source": by.get(f.id, f.source),
                    "retracted_by": by.get(f"retracted:{f.id}"),
                    "superseded_by": f.superseded_by,
                    "conflicts": partners,
                }
            )
        subject = group[0].subject or ""
        out.append(KeyHistory(subject, base, entries))
    return out
