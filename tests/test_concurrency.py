"""Many processes remembering on overlapping keys at once, on every backend.

Four processes (spawned, so each has its own connection and nothing shared but the
database) make 200 `remember` calls each on ten subjects x one predicate x three objects,
at a few assertion times, so the same key sees new facts, exact repeats, updates, stale
updates and contradictions from several writers at the same moment. Afterwards the store
must hold what a single writer would have left: no lost fact, no doubled claim, every
conflict recorded whole, every supersession pointing at a fact that exists.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import random
import re
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import PG_DSN, drop_store, make_store

from credo.embed import HashEmbedder
from credo.fact import Fact, Status
from credo.memory import Memory
from credo.store.base import Store

WORKERS = 4
CALLS = 200
SCOPE = "race"
NAMES = ["Ann", "Bob", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon"]
CITIES = ["Paris", "Rome", "Oslo"]
BASE = 1_700_000_000.0
DAY = 86_400.0
#: most calls share one assertion day (duplicates and contradictions); the rest are a
#: week or two later (updates) or arrive late with an older date (history)
DAYS = [0, 0, 0, 7, 14]


def _plan(worker: int) -> list[tuple[str, float]]:
    rng = random.Random(worker)
    return [
        (f"{rng.choice(NAMES)} lives in {rng.choice(CITIES)}", BASE + rng.choice(DAYS) * DAY)
        for _ in range(CALLS)
    ]


def _open(backend: str, target: str, schema: str | None) -> Store:
    if backend == "sqlite":
        from credo.store.sqlite import SQLiteStore

        return SQLiteStore(target, HashEmbedder())
    from credo.store.postgres import PostgresStore

    return PostgresStore(target, HashEmbedder(), schema=schema)


def _worker(
    backend: str, target: str, schema: str | None, worker: int, start: Any, results: Any
) -> None:
    """One writer process: returns the id of the fact each call says now stands for it."""
    try:
        store = _open(backend, target, schema)
        try:
            memory = Memory(store, scope=SCOPE)
            start.wait(timeout=120)
            ids = []
            for text, when in _plan(worker):
                result = memory.remember(text, valid_from=when)
                if not result.accepted or result.fact is None:
                    raise AssertionError(f"{text!r} was not accepted: {result.why}")
                ids.append(result.fact.id)
        finally:
            store.close()
        results.put((worker, ids, None))
    except BaseException:  # noqa: BLE001 - the parent reports it
        results.put((worker, [], traceback.format_exc()))


def _normal(value: str | None) -> str:
    return " ".join(re.findall(r"\w+", (value or "").lower()))


def _conflict_rows(store: Store, backend: str) -> list[tuple[str, str, Any]]:
    """Raw rows, so a row whose fact is gone would show (the API skips those)."""
    conn = store._conn  # type: ignore[attr-defined]
    mark = "?" if backend == "sqlite" else "%s"
    rows = conn.execute(
        f"SELECT fact_a, fact_b, resolved_at FROM conflicts WHERE scope = {mark}", (SCOPE,)
    ).fetchall()
    return [(str(r[0]), str(r[1]), r[2]) for r in rows]


@pytest.mark.slow
def test_concurrent_writers_keep_every_invariant(backend: str, tmp_path: Path) -> None:
    store = make_store(backend, tmp_path)
    try:
        if backend == "sqlite":
            target, schema = str(tmp_path / "credo.db"), None
        else:
            target, schema = PG_DSN, store.schema  # type: ignore[attr-defined]
        ctx = mp.get_context("spawn")
        start = ctx.Barrier(WORKERS)
        results = ctx.Queue()
        procs = [
            ctx.Process(target=_worker, args=(backend, target, schema, w, start, results))
            for w in range(WORKERS)
        ]
        for p in procs:
            p.start()
        returned: dict[int, list[str]] = {}
        errors: list[str] = []
        try:
            for _ in procs:
                worker, ids, error = results.get(timeout=300)
                returned[worker] = ids
                if error:
                    errors.append(f"worker {worker}:\n{error}")
        except queue.Empty:
            errors.append("a worker did not finish within 300 s")
        finally:
            for p in procs:
                p.join(timeout=30)
                if p.is_alive():
                    p.terminate()
        assert not errors, "\n".join(errors)
        assert sorted(returned) == list(range(WORKERS))
        assert all(len(ids) == CALLS for ids in returned.values())

        facts = {f.id: f for f in store.all(scope=SCOPE)}

        # no lost fact: whatever a call said stands for its claim is stored
        wanted = {i for ids in returned.values() for i in ids}
        missing = wanted - set(facts)
        assert not missing, f"{len(missing)} returned facts are not stored"

        # never one claim twice among live facts (active, or in a flagged contradiction)
        claims = Counter(
            (f.subject, f.predicate, _normal(f.object)) for f in facts.values() if f.is_live
        )
        doubled = {claim: n for claim, n in claims.items() if n > 1}
        assert not doubled, f"claims stored twice: {doubled}"
        assert all(f.key == (f.subject, "live_in") and f.subject for f in facts.values())

        # every conflict is recorded whole: both facts exist, and every flagged fact has
        # an open conflict to show for it
        rows = _conflict_rows(store, backend)
        for a, b, _ in rows:
            assert a in facts and b in facts, f"conflict {a} / {b} names a missing fact"
        open_ids = {i for a, b, resolved in rows if resolved is None for i in (a, b)}
        flagged = {f.id for f in facts.values() if f.status is Status.CONFLICTED}
        assert flagged <= open_ids, f"conflicted without an open conflict: {flagged - open_ids}"
        # a flagged fact contradicts a live fact on its own key
        for conflict in store.conflicts(scope=SCOPE):
            assert conflict.a.key == conflict.b.key

        # supersession always points at a fact that is there
        for f in facts.values():
            if f.status is Status.SUPERSEDED:
                assert f.superseded_by in facts, f"{f.id} superseded by a missing fact"

        # each key ends with at least one live fact, and the run exercised every path
        live_keys = {f.subject for f in facts.values() if f.is_live}
        assert live_keys == {n.lower() for n in NAMES}
        statuses = Counter(f.status for f in facts.values())
        assert statuses[Status.SUPERSEDED] and statuses[Status.CONFLICTED]
        assert rows, "the plan should have produced contradictions"
        assert len(facts) < WORKERS * CALLS, "repeats should have been merged"
        print(f"{backend}: {len(facts)} facts, {dict(statuses)}, {len(rows)} conflicts")
    finally:
        drop_store(store)


def test_plan_is_deterministic_and_overlapping() -> None:
    plans = [_plan(w) for w in range(WORKERS)]
    assert plans == [_plan(w) for w in range(WORKERS)]
    texts = Counter(text for plan in plans for text, _ in plan)
    assert len(texts) == len(NAMES) * len(CITIES)  # every claim is made, most many times


def _recall_in_child(path: str, out: Any) -> None:
    from credo.store import open_store

    store = open_store(path, HashEmbedder())
    out.put([h.fact.text for h in Memory(store).recall("who plays the cello", k=3)])
    store.close()


def test_recall_works_in_a_child_forked_after_a_recall(tmp_path: Path) -> None:
    """recall embeds the query on a worker thread; a child forked after the parent made
    that pool has none of its threads and must make its own, not wait forever."""
    from credo.store import open_store

    path = str(tmp_path / "fork.db")
    store = open_store(path, HashEmbedder())
    memory = Memory(store)
    memory.remember("Arttu plays the cello")
    assert memory.recall("who plays the cello", k=3)  # the parent's pool now exists
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_recall_in_child, args=(path, out))
    child.start()
    try:
        texts = out.get(timeout=60)
    finally:
        child.join(timeout=60)
        if child.is_alive():
            child.kill()
    store.close()
    assert child.exitcode == 0
    assert any("cello" in t for t in texts)


def _open_when_released(path: str, barrier: Any, out: Any) -> None:
    from credo.store import open_store

    barrier.wait()
    try:
        store = open_store(path, HashEmbedder())
        store.put(Fact(text=f"Process {mp.current_process().pid} started on time"))
        store.close()
        out.put("ok")
    except Exception as exc:  # handed to the test, whatever it is
        out.put(f"{type(exc).__name__}: {exc}")


def test_processes_that_open_one_new_file_together_all_open_it(tmp_path: Path) -> None:
    """Two MCP servers or agents started together on a database that does not exist yet:
    each must open it (switching a new file to WAL answers "database is locked" at once,
    without SQLite's busy handler), and every one's write must land."""
    ctx = mp.get_context("fork")
    for trial in range(8):
        path = str(tmp_path / f"new-{trial}.db")
        barrier, out = ctx.Barrier(4), ctx.Queue()
        procs = [
            ctx.Process(target=_open_when_released, args=(path, barrier, out)) for _ in range(4)
        ]
        for proc in procs:
            proc.start()
        results = [out.get(timeout=120) for _ in procs]
        for proc in procs:
            proc.join(timeout=60)
        assert results == ["ok"] * 4, results
        from credo.store import open_store

        with open_store(path, HashEmbedder()) as store:
            assert len(store.all(scope="default")) == 4
