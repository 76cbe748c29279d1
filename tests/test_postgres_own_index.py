"""A large scope among others gets an HNSW index of its own rows (a partial index, built
concurrently after the commit that made it large), its searches walk that graph, and
forgetting the scope drops it. Behaviour, not timings: what it buys (the exact top 10 for
a large tenant among many small ones) is measured in bench/bench_large_tenant.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("psycopg")
pytest.importorskip("pgvector")

from conftest import PG_DSN, drop_store, make_store  # noqa: E402

import credo.store.postgres as postgres_mod  # noqa: E402
from credo.embed import HashEmbedder  # noqa: E402
from credo.fact import Fact  # noqa: E402
from credo.store.postgres import _LOCK_OWN_INDEX, PostgresStore, vector_query  # noqa: E402
from credo.store.postgres_schema import own_index_name  # noqa: E402

needs_pg = pytest.mark.skipif(not PG_DSN, reason="needs CREDO_TEST_PG_DSN")

DIM = 32
WORDS = ["berlin", "oslo", "rust", "postgres", "cats", "padel", "helix", "vercel", "tea"]
FROM = 100  # own_index_from in these tests


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[PostgresStore]:
    store = make_store("postgres", tmp_path, HashEmbedder(DIM))
    assert isinstance(store, PostgresStore)
    store.exact_below = 20
    store.own_index_from = FROM
    store.own_index_wait = 10.0
    try:
        yield store
    finally:
        drop_store(store)


def _facts(scope: str, n: int, start: int = 0) -> list[Fact]:
    return [
        Fact(
            text=f"item {start + i} {WORDS[(start + i) % 9]} {WORDS[(start + i) // 9 % 9]}",
            scope=scope,
        )
        for i in range(n)
    ]


def _others(pg: PostgresStore, n: int = 5) -> None:
    """Small tenants holding most of the table, counted by the statistics."""
    for i in range(n):
        pg.put_many(_facts(f"small-{i}", 60, start=10_000 * (i + 1)))
    pg._conn.execute("ANALYZE vectors")


def _built(pg: PostgresStore) -> dict[str, int]:
    """The scopes' own indexes once the builds due are done (in a thread of their own)."""
    assert pg.wait_for_indexes(60)
    return pg.own_indexes()


def _index_used(pg: PostgresStore, scope: str) -> str:
    q = pg.embed(["rust"], kind="query")[0]
    with pg.transaction():
        for knob in ("enable_seqscan", "enable_bitmapscan"):
            pg._conn.execute(f"SET LOCAL {knob} = off")
        rows = pg._conn.execute(
            "EXPLAIN " + vector_query(DIM), {"q": q, "scope": scope, "k": 10}
        ).fetchall()
    return "\n".join(str(r[0]) for r in rows)


def _exact(pg: PostgresStore, scope: str, q: np.ndarray, k: int) -> list[tuple[str, float]]:
    """The exact top k of the scope, from every stored vector of it."""
    ids = [f.id for f in pg.all(scope=scope)]
    vectors = pg.vectors_of(ids, scope=scope)
    matrix = np.stack([vectors[i] for i in ids])
    scores = matrix @ q / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(q))
    order = np.argsort(-scores, kind="stable")[:k]
    return [(ids[int(i)], float(scores[int(i)])) for i in order]


def _same(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """The same scores in order, and the same ids above the last score (rows that tie with
    it may differ)."""
    assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-5)
    last = want[-1][1]
    assert {i for i, s in got if s > last + 1e-5} == {i for i, s in want if s > last + 1e-5}


@needs_pg
def test_a_scope_that_grows_large_among_others_gets_its_own_graph(pg: PostgresStore) -> None:
    pg.own_index_background = False  # built before the transaction returns
    _others(pg)
    pg.put_many(_facts("big", FROM - 10))
    assert _built(pg) == {}  # not yet large
    with pg.transaction():  # the commit that takes it across; nested blocks join it
        with pg.transaction():
            pg.put_many(_facts("big", 20, start=500))
        assert _built(pg) == {}  # nothing built inside the transaction
    assert pg.own_indexes() == {"big": FROM + 10}
    pg._conn.execute("ANALYZE vectors")  # the planner knows the scope is not a rare one
    assert own_index_name(DIM, "big") in _index_used(pg, "big")
    assert own_index_name(DIM, "big") not in _index_used(pg, "small-0")
    # its searches walk its own graph, with the list for its size, and find what exact
    # search finds
    for text in ("rust berlin", "item 503 cats", "helix"):
        q = pg.embed([text], kind="query")[0]
        _same(pg.vector_search(q, scope="big", k=10), _exact(pg, "big", q, 10))
    conn = pg._search_conn()
    assert pg._own_index_rows(conn, "big") == FROM + 10
    assert pg._own_index_rows(conn, "small-0") == 0


@needs_pg
def test_a_scope_that_is_most_of_the_table_keeps_the_shared_graph(pg: PostgresStore) -> None:
    """One tenant alone (or holding most rows): the scope filter passes nearly every row of
    the shared graph, and an index of its own would be a second copy of it."""
    pg.put_many(_facts("only", 150))
    pg._conn.execute("ANALYZE vectors")
    pg.put_many(_facts("only", 10, start=900))
    assert pg.index_scopes() == []
    assert _built(pg) == {}


@needs_pg
def test_forgetting_the_scope_drops_its_index(pg: PostgresStore) -> None:
    _others(pg)
    pg.put_many(_facts("big", FROM + 20))
    assert set(_built(pg)) == {"big"}
    ids = [f.id for f in pg.all(scope="big")]
    pg.forget(scope="big", ids=ids[:30])  # still large enough: kept
    assert set(_built(pg)) == {"big"}
    report = pg.forget(scope="big", everything=True)
    assert report.removed
    assert _built(pg) == {}
    names = pg._conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = %s", (pg.schema,)
    ).fetchall()
    assert own_index_name(DIM, "big") not in {str(r[0]) for r in names}
    q = pg.embed(["rust"], kind="query")[0]
    assert pg.vector_search(q, scope="big", k=5) == []
    assert len(pg.vector_search(q, scope="small-0", k=5)) == 5


@needs_pg
def test_a_store_from_before_gets_the_indexes_at_a_write_or_at_once(pg: PostgresStore) -> None:
    """Large scopes written before this version (here: with the feature off) get their
    index at their next write in a process, or all at once from `index_scopes`."""
    pg.own_index_from = 0
    _others(pg)
    pg.put_many(_facts("a", FROM + 5))
    pg.put_many(_facts("b", FROM + 5, start=1000))
    pg._conn.execute("ANALYZE vectors")
    assert _built(pg) == {}
    later = PostgresStore(PG_DSN, HashEmbedder(DIM), schema=pg.schema)
    try:
        later.own_index_from = FROM
        later.put(Fact(text="one more fact for a", scope="a"))
        assert set(_built(later)) == {"a"}
        assert later.index_scopes() == ["a", "b"]
    finally:
        later.close()


@needs_pg
def test_one_process_builds_and_a_failed_build_is_redone(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _others(pg)
    holder = PostgresStore(PG_DSN, HashEmbedder(DIM), schema=pg.schema)
    try:  # another process is building it: this one leaves it to that one
        holder._conn.execute(
            "SELECT pg_advisory_lock(%s, hashtext(%s))", (_LOCK_OWN_INDEX, pg._ns("big"))
        )
        pg.put_many(_facts("big", FROM + 10))
        assert _built(pg) == {}
        holder._conn.execute(
            "SELECT pg_advisory_unlock(%s, hashtext(%s))", (_LOCK_OWN_INDEX, pg._ns("big"))
        )
    finally:
        holder.close()
    pg.put(Fact(text="another big fact", scope="big"))
    assert _built(pg) == {}  # left to the holder for a while
    monkeypatch.setattr(postgres_mod, "SIZE_TTL", 0.0)
    pg.put(Fact(text="one more big fact", scope="big"))  # the while is up: looked at again
    assert set(_built(pg)) == {"big"}
    # a concurrent build that died leaves an invalid index: dropped and built again
    name = own_index_name(DIM, "big")
    pg._conn.execute(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
        (f'"{pg.schema}".{name}',),
    )
    assert _built(pg) == {}
    assert pg._own_index_state(pg._conn, DIM, "big") == "invalid"
    assert pg.index_scopes() == ["big"]
    assert pg._own_index_state(pg._conn, DIM, "big") == "valid"


@needs_pg
def test_a_rolled_back_write_builds_nothing_and_long_scope_names_work(
    pg: PostgresStore,
) -> None:
    _others(pg)
    scope = "Team.A-" + "x" * 100 + ":user@example.org"  # past 63 bytes, every kind of sign
    with pytest.raises(RuntimeError), pg.transaction():
        pg.put_many(_facts(scope, FROM + 10))
        raise RuntimeError("rolled back")
    assert _built(pg) == {}
    assert pg._due == {}
    pg.put_many(_facts(scope, FROM + 10))
    assert set(_built(pg)) == {scope}
    q = pg.embed(["tea oslo"], kind="query")[0]
    _same(pg.vector_search(q, scope=scope, k=10), _exact(pg, scope, q, 10))
    pg.forget(scope=scope, everything=True)
    assert _built(pg) == {}


@needs_pg
def test_reindex_builds_the_own_indexes_again_over_the_new_vectors(pg: PostgresStore) -> None:
    _others(pg)
    pg.put_many(_facts("big", FROM + 10))
    assert set(_built(pg)) == {"big"}
    old = pg._conn.execute(
        "SELECT oid FROM pg_class WHERE relname = %s", (own_index_name(DIM, "big"),)
    ).fetchone()
    pg.reindex()  # drops it with the old vectors, and builds it again over the new ones
    assert set(_built(pg)) == {"big"}
    new = pg._conn.execute(
        "SELECT oid FROM pg_class WHERE relname = %s", (own_index_name(DIM, "big"),)
    ).fetchone()
    assert new is not None and old is not None and new != old
    q = pg.embed(["rust"], kind="query")[0]
    assert len(pg.vector_search(q, scope="big", k=5)) == 5


@needs_pg
def test_no_more_own_indexes_than_the_most(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every index of the table costs each search's planning and each insert a little:
    past OWN_INDEXES_MAX, a large scope stays in the shared graph."""
    monkeypatch.setattr(postgres_mod, "OWN_INDEXES_MAX", 1)
    _others(pg, 8)
    pg.put_many(_facts("a", FROM + 5))
    pg.put_many(_facts("b", FROM + 5, start=1000))
    assert set(_built(pg)) == {"a"}
    q = pg.embed(["rust"], kind="query")[0]
    assert len(pg.vector_search(q, scope="b", k=5)) == 5
    pg.forget(scope="a", everything=True)
    assert pg.index_scopes() == ["b"]


@needs_pg
def test_the_build_runs_beside_the_writes_and_searches(pg: PostgresStore) -> None:
    """The commit that makes a scope large returns before its index is built (a
    concurrent build waits for every older transaction of the database), and the other
    tenants write and search meanwhile."""
    import psycopg

    _others(pg)
    older = psycopg.connect(PG_DSN, autocommit=True)
    try:
        older.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        older.execute(f'SELECT count(*) FROM "{pg.schema}".vectors')  # holds its snapshot
        pg.put_many(_facts("big", FROM + 10))
        assert not pg.wait_for_indexes(0.5)  # waiting for the older transaction
        pg.put_many(_facts("small-0", 5, start=77_777))
        q = pg.embed(["rust"], kind="query")[0]
        assert len(pg.vector_search(q, scope="small-1", k=5)) == 5
        assert len(pg.vector_search(q, scope="big", k=5)) == 5  # the shared graph
        older.execute("ROLLBACK")
    finally:
        older.close()
    assert set(_built(pg)) == {"big"}


@needs_pg
def test_a_build_that_gave_up_is_started_again_by_a_search(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction older than the build, open longer than `own_index_wait`, makes the
    concurrent build give up and leave an invalid index; the scope's searches (a tenant
    that only reads) start it again once that transaction is gone, at most every
    `own_index_retry` seconds."""
    import psycopg

    monkeypatch.setattr(postgres_mod, "SIZE_TTL", 0.0)
    _others(pg)
    pg.own_index_wait = 0.5
    older = psycopg.connect(PG_DSN, autocommit=True)
    try:
        older.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        older.execute(f'SELECT count(*) FROM "{pg.schema}".vectors')  # holds its snapshot
        pg.put_many(_facts("big", FROM + 10))
        assert _built(pg) == {}  # gave up waiting for the older transaction
        assert pg._own_index_state(pg._conn, DIM, "big") == "invalid"
        q = pg.embed(["rust"], kind="query")[0]
        pg.own_index_retry = 3600.0
        assert len(pg.vector_search(q, scope="big", k=5)) == 5  # the shared graph
        assert _built(pg) == {}  # started again, and gave up again: the older one is open
        older.execute("ROLLBACK")
    finally:
        older.close()
    assert len(pg.vector_search(q, scope="big", k=5)) == 5
    assert _built(pg) == {}  # not again within own_index_retry
    pg.own_index_retry = 0.0
    got = pg.vector_search(q, scope="big", k=5)
    assert set(_built(pg)) == {"big"}
    pg._conn.execute("ANALYZE vectors")  # the planner knows the scope is not a rare one
    assert own_index_name(DIM, "big") in _index_used(pg, "big")
    assert [i for i, _ in pg.vector_search(q, scope="big", k=5)] == [i for i, _ in got]
