"""A claim the user retracted: the resolver's refusal to store it again.

`resolve()` decides what an incoming fact is to the facts stored on its key; before it,
this module decides whether the incoming fact repeats a claim that was retracted ("that's
wrong", a conflict settled against it). Such a claim is refused, with a reason naming who
retracted it, when and why, unless the caller re-asserts it (`force`); a claim re-asserted
is recorded as such. `Memory` gathers the stored facts and the decision log, calls these,
and writes what they return.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .fact import Fact, Status
from .predicates import Catalogue
from .render import format_date
from .resolver import Resolution, Similarity, same_claim
from .store.base import Event

__all__ = ["reassertions", "refusal", "retracted_claims"]


def retracted_claims(
    fact: Fact,
    stored: Iterable[Fact],
    *,
    similarity: Similarity,
    duplicate_at: float,
    catalogue: Catalogue | None = None,
) -> list[Fact]:
    """The retracted facts among `stored` that make the claim `fact` makes."""
    return [
        f
        for f in stored
        if f.status is Status.RETRACTED
        and same_claim(
            fact, f, similarity=similarity, duplicate_at=duplicate_at, catalogue=catalogue
        )
    ]


def refusal(retracted: Sequence[Fact], log: Sequence[Event], *, force: bool) -> str | None:
    """Why the claim is refused (the last of `retracted`, as its decision log `log` tells
    it), or None when it is not: nothing was retracted, or `force` re-asserts it."""
    if not retracted or force:
        return None
    old = retracted[-1]
    entry = next((e for e in reversed(log) if e.kind == "retracted"), None)
    when = format_date(entry.at if entry else old.valid_to)
    who = f" by {entry.by}" if entry and entry.by else ""
    reason = entry.detail.get("why") if entry else None
    because = f" ({reason})" if reason else ""
    return (
        f"retracted{who} on {when}{because} as fact {old.id}: not stored again; "
        "re-assert it with --force (force=True) if it is true after all"
    )


def reassertions(
    fact: Fact, retracted: Sequence[Fact], resolution: Resolution, scope: str
) -> list[Event]:
    """The decision-log rows of a retracted claim (`fact`) stored again, re-asserted: one
    for each retracted fact the stored one now stands for."""
    stored = resolution.stored
    if stored is None:
        return []
    return [
        Event(scope, stored.id, fact.created_at, "reasserted", old.id, fact.source)
        for old in retracted
        if old.id != stored.id
    ]
