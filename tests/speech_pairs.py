"""What the natural-speech tests (`test_speech_round7.py`, `test_speech_round8.py`) do with
a store: remember a statement, or a pair of them some days apart, each in a scope of its
own (one counter for every module, so that no two calls share a scope)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest

from credo.embed import get_embedder
from credo.extract.base import Turn
from credo.extract.rules import RuleExtractor
from credo.fact import Status
from credo.gate import check
from credo.memory import Memory
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

DAY = 86400.0
T0 = 1_704_067_200.0  # 2024-01-01

_scopes = itertools.count()


def memory(store: SQLiteStore) -> Memory:
    """A memory of a scope nothing else uses."""
    return Memory(store, scope=f"s{next(_scopes)}")


def pair(store: SQLiteStore, first: str, then: str, gap_days: float) -> tuple[Status, Relation]:
    """Remember `first`, then `then` `gap_days` later; what became of the first, and what
    the second was taken for (both compare equal to their names: "superseded", "update")."""
    mem = memory(store)
    a = mem.remember(first, valid_from=T0)
    assert a.accepted and a.fact is not None, (first, a.why)
    b = mem.remember(then, valid_from=T0 + gap_days * DAY)
    assert b.accepted and b.relation is not None, (then, b.why)
    after = store.get(a.fact.id, scope=mem.scope)
    assert after is not None
    return after.status, b.relation


def outcome(store: SQLiteStore, first: str, then: str, gap_days: float) -> tuple[str, str]:
    """`pair` by name: ("superseded", "update"), as the speech tests' tables write it."""
    status, relation = pair(store, first, then, gap_days)
    return Status(status).value, Relation(relation).value


def stored(store: SQLiteStore, said: str) -> list[str]:
    """The sentences stored when `said` is remembered alone."""
    mem = memory(store)
    mem.remember(said, valid_from=T0)
    return [f.text for f in mem.list()]


Keyed = tuple[str, str | None, str | None]


def remembered(store: SQLiteStore, said: str) -> list[Keyed]:
    """(text, predicate, object) of what `Memory.remember` stores of `said` alone."""
    mem = memory(store)
    mem.remember(said)
    return [(f.text, f.predicate, f.object) for f in mem.list()]


def ingested(
    said: str, speaker: str = "Mia", *, after: tuple[str, str] | None = None
) -> list[Keyed]:
    """(text, predicate, object) of what the conversation extractor proposes of one turn
    of `speaker`'s that the gate keeps; `after`: (who, what) the other speaker said
    before it, so that the conversation has two people."""
    turns = [Turn("t0", "user", after[1], speaker=after[0])] if after else []
    turns.append(Turn("t1", "user", said, speaker=speaker))
    found = RuleExtractor().extract_episode(turns, self_name=speaker).candidates
    return [
        (c.text, c.predicate, c.object)
        for c in found
        if c.derived_from == ("t1",) and check(c).accepted
    ]


def module_store(name: str) -> Callable[[pytest.TempPathFactory], Iterator[SQLiteStore]]:
    """A module's `store` fixture: one SQLite file with the default embedding model."""

    @pytest.fixture(scope="module")
    def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
        with SQLiteStore(tmp_path_factory.mktemp(name) / "m.db", get_embedder("local:minilm")) as s:
            yield s

    return store
