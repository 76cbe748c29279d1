"""The five outcomes for a new fact: new, duplicate, refinement, update, conflict.

`resolve()` decides, and is pure: it takes the incoming fact, the stored facts that could
bear on it, a similarity function and the update window, and returns a `Resolution` whose
`writes` describe the new records. `apply()` hands those records to a store, in one
transaction. Nothing here mutates its inputs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .config import (
    CONFLICT_PENALTY,
    REINFORCE_CEILING,
    REINFORCE_STEP,
    UPDATE_WINDOW,
)
from .fact import INFERRED_CAP, SOURCE_RANK, Fact, Status, source_kind
from .keys import MULTI_VALUED

if TYPE_CHECKING:
    from .store.base import Store

Similarity = Callable[[str, str], float]


class Relation(str, Enum):
    NEW = "new"
    DUPLICATE = "duplicate"
    REFINEMENT = "refinement"
    UPDATE = "update"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class Resolution:
    relation: Relation
    incoming: Fact
    existing: Fact | None = None
    why: str = ""
    #: other stored facts the decision touches (superseded together, or conflicting too)
    others: tuple[Fact, ...] = ()
    #: the incoming fact is older than the stored one: it is kept as history, not as news
    incoming_is_older: bool = False
    #: the records to write: (fact, is_new) pairs, computed by `resolve`
    writes: tuple[Fact, ...] = field(default=())
    conflicts: tuple[tuple[str, str, str], ...] = ()
    lineage: tuple[tuple[str, str, str], ...] = ()  # (parent, child, kind)

    @property
    def stored(self) -> Fact | None:
        """The fact this remember now stands for (the reinforced one for a duplicate)."""
        if self.relation is Relation.DUPLICATE:
            return next((w for w in self.writes if self.existing and w.id == self.existing.id),
                        self.existing)
        return next((w for w in self.writes if w.id == self.incoming.id), self.incoming)


_WORDS = re.compile(r"[\w.+#-]+")
_STOP = frozenset({"a", "an", "the", "of", "on", "in", "at", "to", "for", "with", "and"})


def _tokens(value: str | None) -> list[str]:
    return [t for t in _WORDS.findall((value or "").lower()) if t not in _STOP]


def _norm_text(text: str) -> str:
    return " ".join(_WORDS.findall(text.lower()))


def same_claim(a: Fact, b: Fact) -> bool:
    """Same normalised (subject, predicate, object), or the same words."""
    if a.key and a.key == b.key and a.object and b.object:
        return _tokens(a.object) == _tokens(b.object)
    return _norm_text(a.text) == _norm_text(b.text)


def extends(new: str | None, old: str | None) -> bool:
    """`new` says all that `old` says and more: Postgres -> Postgres 16 on Neon."""
    old_t, new_t = _tokens(old), _tokens(new)
    return bool(old_t) and len(new_t) > len(old_t) and set(old_t) <= set(new_t)


def objects_clash(predicate: str | None, a: str | None, b: str | None) -> bool:
    """Do two objects on one key contradict each other?

    Single-valued relations (lives in, deploy target is) clash on any different object.
    Multi-valued ones (likes, uses) clash only when the objects fill one slot with two
    values: "dark mode" / "light mode" share the head "mode"; "Python" / "Rust" do not.
    """
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb or ta == tb:
        return False
    base = (predicate or "").removeprefix("not_")
    if base not in MULTI_VALUED:
        return True
    return len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1]


def _rank(source: str) -> int:
    return SOURCE_RANK[source_kind(source)]


def resolve(
    incoming: Fact,
    stored: Sequence[Fact],
    *,
    similarity: Similarity,
    duplicate_at: float = 0.92,
    update_window: float = UPDATE_WINDOW,
) -> Resolution:
    """Classify `incoming` against stored facts on its key (or its nearest, with no key)."""
    live = [f for f in stored if f.is_live and f.scope == incoming.scope and f.id != incoming.id]
    # no key: vectors alone can find a duplicate, never a contradiction
    on_key = [f for f in live if f.key == incoming.key] if incoming.key else []
    if not live:
        return _new(incoming, "no live fact on this key")

    scored = sorted(((similarity(incoming.text, f.text), f) for f in live),
                    key=lambda p: p[0], reverse=True)
    # 1. duplicate: the same claim, or near-identical wording that does not change the value
    for score, fact in scored:
        if same_claim(incoming, fact):
            return _duplicate(incoming, fact, f"same claim (sim={score:.2f})")
    for score, fact in scored:
        if score < duplicate_at:
            break
        same_slot = fact.key == incoming.key or not incoming.key or not fact.key
        if same_slot and not objects_clash(incoming.predicate, incoming.object, fact.object):
            return _duplicate(incoming, fact, f"sim={score:.2f} >= {duplicate_at:.2f}")

    # 2. refinement: says what the old fact said, and more
    for fact in on_key:
        if extends(incoming.object, fact.object):
            return _supersede(
                Relation.REFINEMENT, incoming, fact, (),
                f"object {fact.object!r} extended to {incoming.object!r}",
            )
    # the reverse (a vaguer restatement) is a duplicate of the more specific fact
    for fact in on_key:
        if extends(fact.object, incoming.object):
            return _duplicate(incoming, fact, f"{incoming.object!r} is contained in "
                                              f"{fact.object!r}")

    clashing = [f for f in on_key if objects_clash(incoming.predicate, incoming.object, f.object)]
    if not clashing:
        return _new(incoming, "no contradiction on this key" if on_key else "no fact on this key")

    # 3. update or conflict: grounds to supersede are a later assertion (by the update
    #    window) from a source at least as trusted
    newer = [
        f for f in clashing
        if incoming.asserted_at - f.asserted_at >= update_window
        and _rank(incoming.source) >= _rank(f.source)
    ]
    if len(newer) == len(clashing):
        best = max(newer, key=lambda f: f.asserted_at)
        days = (incoming.asserted_at - best.asserted_at) / 86400
        why = f"newer by {days:.0f}d and the source is at least as trusted"
        return _supersede(Relation.UPDATE, incoming, best,
                          tuple(f for f in newer if f.id != best.id), why)
    older = [
        f for f in clashing
        if f.asserted_at - incoming.asserted_at >= update_window
        and _rank(f.source) >= _rank(incoming.source)
    ]
    if len(older) == len(clashing):
        best = min(older, key=lambda f: f.asserted_at)
        days = (best.asserted_at - incoming.asserted_at) / 86400
        return _historical(incoming, best, f"already superseded: a stored fact is {days:.0f}d "
                                           "newer from a source at least as trusted")
    best = max(clashing, key=lambda f: f.asserted_at)
    return _conflict(incoming, best, tuple(f for f in clashing if f.id != best.id),
                     "same key, different value, no grounds to prefer either")


def _new(incoming: Fact, why: str) -> Resolution:
    return Resolution(Relation.NEW, incoming, why=why, writes=(incoming,))


def _duplicate(incoming: Fact, existing: Fact, why: str) -> Resolution:
    confidence = min(REINFORCE_CEILING, max(existing.confidence, incoming.confidence)
                     + REINFORCE_STEP)
    if source_kind(existing.source) == "inferred" and source_kind(incoming.source) == "inferred":
        confidence = min(confidence, INFERRED_CAP)
    reinforced = existing.evolve(
        confidence=round(confidence, 4),
        access_count=existing.access_count + 1,
        last_seen_at=max(incoming.created_at, existing.last_seen_at or 0.0),
        derived_from=_merge(existing.derived_from, incoming.derived_from),
    )
    return Resolution(Relation.DUPLICATE, incoming, existing, why, writes=(reinforced,))


def _supersede(relation: Relation, incoming: Fact, existing: Fact, others: tuple[Fact, ...],
               why: str) -> Resolution:
    olds = (existing, *others)
    new = incoming.evolve(derived_from=_merge(incoming.derived_from, [f.id for f in olds]))
    retired = tuple(
        f.evolve(status=Status.SUPERSEDED, superseded_by=new.id, valid_to=new.asserted_at)
        for f in olds
    )
    kind = "refines" if relation is Relation.REFINEMENT else "supersedes"
    return Resolution(relation, new, existing, why, others, writes=(new, *retired),
                      lineage=tuple((f.id, new.id, kind) for f in olds))


def _historical(incoming: Fact, newer: Fact, why: str) -> Resolution:
    old = incoming.evolve(status=Status.SUPERSEDED, superseded_by=newer.id,
                          valid_to=newer.asserted_at)
    grown = newer.evolve(derived_from=_merge(newer.derived_from, [old.id]))
    return Resolution(Relation.UPDATE, old, newer, why, incoming_is_older=True,
                      writes=(old, grown), lineage=((old.id, newer.id, "supersedes"),))


def _conflict(incoming: Fact, existing: Fact, others: tuple[Fact, ...], why: str) -> Resolution:
    def flagged(f: Fact) -> Fact:
        return f.evolve(status=Status.CONFLICTED,
                        confidence=round(max(0.05, f.confidence - CONFLICT_PENALTY), 4))

    olds = (existing, *others)
    return Resolution(
        Relation.CONFLICT, flagged(incoming), existing, why, others,
        writes=(flagged(incoming), *(flagged(f) for f in olds)),
        conflicts=tuple((f.id, incoming.id, why) for f in olds),
    )


def _merge(first: Sequence[str], second: Sequence[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))


def apply(store: Store, resolution: Resolution) -> Fact | None:
    """Write a resolution in one transaction. Returns the fact now standing for the claim,
    or None for a pure reinforcement (the seed's contract)."""
    with store.transaction():
        for fact in resolution.writes:
            store.put(fact)
        for parent, child, kind in resolution.lineage:
            store.add_lineage(resolution.incoming.scope, parent, child, kind)
        for a, b, why in resolution.conflicts:
            store.record_conflict(resolution.incoming.scope, a, b, why,
                                  created_at=resolution.incoming.created_at)
    if resolution.relation is Relation.DUPLICATE:
        return None
    return resolution.stored
