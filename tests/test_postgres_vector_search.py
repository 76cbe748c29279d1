"""PostgreSQL's vector search by scope size: a small scope is ranked exactly (the HNSW
graph is never walked for it, whatever the planner thinks), a large one takes the HNSW
index's shortlist and ranks it exactly. Behaviour, not timings (speed and the overlap with
exact search at scale are measured in bench/bench_pg_options.py and bench/bench_scale.py)."""

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
from credo.store.postgres import PostgresStore, vector_query  # noqa: E402

needs_pg = pytest.mark.skipif(not PG_DSN, reason="needs CREDO_TEST_PG_DSN")

DIM = 32
WORDS = ["berlin", "oslo", "rust", "postgres", "cats", "padel", "helix", "vercel", "tea"]


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[PostgresStore]:
    store = make_store("postgres", tmp_path, HashEmbedder(DIM))
    assert isinstance(store, PostgresStore)
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


def _plan(pg: PostgresStore, scope: str, *, exact: bool) -> str:
    q = pg.embed(["rust"], kind="query")[0]
    with pg.transaction():
        # tables this small are read whole; forbid that to see which index each query takes
        for knob in ("enable_seqscan", "enable_bitmapscan"):
            pg._conn.execute(f"SET LOCAL {knob} = off")
        rows = pg._conn.execute(
            "EXPLAIN " + vector_query(DIM, exact=exact), {"q": q, "scope": scope, "k": 10}
        )
        return "\n".join(str(r[0]) for r in rows)


@needs_pg
def test_a_small_scope_is_ranked_exactly_without_the_graph(pg: PostgresStore) -> None:
    pg.exact_below = 100
    pg.put_many(_facts("big", 300))
    pg.put_many(_facts("small", 40, start=1000))
    conn = pg._search_conn()
    assert pg._small_scope(conn, "small") is True
    assert pg._small_scope(conn, "big") is False
    exact_plan = _plan(pg, "small", exact=True)
    assert f"vectors_hnsw_{DIM}" not in exact_plan, exact_plan
    assert "vectors_scope" in exact_plan, exact_plan
    assert f"vectors_hnsw_{DIM}" in _plan(pg, "big", exact=False)
    for text in ("rust berlin", "item 1003 cats", "tea"):
        q = pg.embed([text], kind="query")[0]
        got = pg.vector_search(q, scope="small", k=10)
        _same(got, _exact(pg, "small", q, 10))
        assert {fid for fid, _ in got} <= {f.id for f in pg.all(scope="small")}


@needs_pg
def test_a_large_scope_ranks_the_index_shortlist_exactly(pg: PostgresStore) -> None:
    """Above the threshold the HNSW index hands over a shortlist: with a candidate list of
    one (ef_search 1, where the graph alone returns what it happens to reach first) and a
    shortlist as long as the scope, the iterative scan walks on until it has every row,
    and the top k is exact search's."""
    pg.exact_below = 50
    pg.put_many(_facts("big", 250))
    pg.put_many(_facts("other", 250, start=5000))  # rows the scope filter must pass over
    pg.set_ef_search(1)
    pg.shortlist = 250
    conn = pg._search_conn()
    assert pg._small_scope(conn, "big") is False
    for text in ("rust berlin", "item 17 oslo", "helix vercel", "padel"):
        q = pg.embed([text], kind="query")[0]
        with pg.transaction():  # the same knobs as _plan: the graph, not a scan of the table
            for knob in ("enable_seqscan", "enable_bitmapscan"):
                pg._conn.execute(f"SET LOCAL {knob} = off")
            got = pg.vector_search(q, scope="big", k=10)
            plan = [
                str(r[0])
                for r in pg._conn.execute(
                    "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "
                    + vector_query(DIM, shortlist=pg.shortlist),
                    {"q": q, "scope": "big", "k": 10},
                )
            ]
        _same(got, _exact(pg, "big", q, 10))
        # the graph handed over the whole shortlist, not the ten rows asked for
        walk = next(line for line in plan if f"vectors_hnsw_{DIM}" in line)
        assert "rows=250 " in walk, plan


@needs_pg
def test_the_vector_query_is_planned_for_its_scope_every_time(pg: PostgresStore) -> None:
    """Never a prepared statement: its generic plan would know no scope, and a large
    tenant's search could be planned as a small one's."""
    pg.exact_below = 50
    pg.put_many(_facts("big", 120))
    pg.put_many(_facts("small", 20, start=500))
    q = pg.embed(["rust"], kind="query")[0]
    for _ in range(8):  # psycopg prepares a statement from its fifth run
        for scope in ("big", "small"):
            assert len(pg.vector_search(q, scope=scope, k=5)) == 5
    prepared = pg._search_conn().execute("SELECT statement FROM pg_prepared_statements")
    assert not [r for r in prepared if "<=>" in str(r[0])]


@needs_pg
def test_a_scope_size_is_counted_once_and_kept(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg.exact_below = 30
    pg.put_many(_facts("s", 20))
    conn = pg._search_conn()
    assert pg._small_scope(conn, "s") is True
    other = PostgresStore(PG_DSN, HashEmbedder(DIM), schema=pg.schema)
    try:  # another process's writes
        other.put_many(_facts("s", 20, start=100))
    finally:
        other.close()
    assert pg._small_scope(conn, "s") is True  # kept: still answered right, exactly
    q = pg.embed(["rust"], kind="query")[0]
    _same(pg.vector_search(q, scope="s", k=5), _exact(pg, "s", q, 5))
    monkeypatch.setattr(postgres_mod, "SIZE_TTL", 0.0)
    assert pg._small_scope(conn, "s") is False  # counted again once the time is up
    _same(pg.vector_search(q, scope="s", k=5), _exact(pg, "s", q, 5))
    monkeypatch.setattr(postgres_mod, "SIZE_TTL", 60.0)
    pg.put_many(_facts("t", 20))
    assert pg._small_scope(conn, "t") is True
    pg.put_many(_facts("t", 20, start=100))  # this process's own writes: counted again
    assert pg._small_scope(conn, "t") is False


@needs_pg
def test_a_bulk_import_into_one_tenant_does_not_lock_the_others_out(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import large enough to rebuild the index at commit drops it only when no other
    scope holds vectors: dropping locks the table, and every other tenant's search would
    wait for the import's commit."""
    monkeypatch.setattr(postgres_mod, "_BULK_MIN", 100)
    pg.put_many(_facts("small", 20))
    other = PostgresStore(PG_DSN, HashEmbedder(DIM), schema=pg.schema)
    try:
        other._search_conn().execute("SET lock_timeout = '3s'")
        q = other.embed(["rust berlin"], kind="query")[0]
        with pg.transaction():
            pg.put_many(_facts("big", 300, start=100))
            assert pg._rebuild == set()  # the index stays, the rows go into it
            hits = other.vector_search(q, scope="small", k=5)  # not blocked by the import
            assert len(hits) == 5
        assert len(pg.vector_search(q, scope="big", k=5)) == 5
    finally:
        other.close()

    # alone in the table, the same import drops the index and rebuilds it at commit
    with pg.transaction():
        pg.put_many(_facts("fresh", 300, start=1000))
        assert pg._rebuild == set()  # 300 rows into a table of 320: not a quarter more
    alone = make_store("postgres", Path("unused"), HashEmbedder(DIM))
    assert isinstance(alone, PostgresStore)
    try:
        with alone.transaction():
            alone.put_many(_facts("only", 300))
            assert alone._rebuild == {DIM}
        assert len(alone.vector_search(q, scope="only", k=5)) == 5
    finally:
        drop_store(alone)


@needs_pg
def test_the_index_is_built_with_the_graph_parameters_and_rebuilt_on_request(
    pg: PostgresStore,
) -> None:
    from credo.store.postgres_schema import HNSW_EF_CONSTRUCTION, HNSW_M

    want = [f"m={HNSW_M}", f"ef_construction={HNSW_EF_CONSTRUCTION}"]
    assert pg.vector_index_options() == want
    pg.put_many(_facts("s", 30))
    # an index an earlier version built, with pgvector's defaults
    name = f"vectors_hnsw_{DIM}"
    pg._conn.execute(f'DROP INDEX "{pg.schema}".{name}')
    pg._conn.execute(
        f"CREATE INDEX {name} ON vectors USING hnsw ((vec::vector({DIM})) vector_cosine_ops) "
        f"WITH (m = 16, ef_construction = 64) WHERE dim = {DIM}"
    )
    assert pg.vector_index_options() == ["m=16", "ef_construction=64"]
    pg.rebuild_vector_index()
    assert pg.vector_index_options() == want
    q = pg.embed(["item 3 postgres"], kind="query")[0]
    _same(pg.vector_search(q, scope="s", k=5), _exact(pg, "s", q, 5))


def test_the_candidate_list_grows_with_the_graph() -> None:
    from credo.store.postgres import EF_SEARCH_MAX, EF_SEARCH_MIN, ef_for_rows

    assert ef_for_rows(0) == ef_for_rows(25_000) == EF_SEARCH_MIN
    assert ef_for_rows(100_000) == 400
    assert ef_for_rows(300_000) == ef_for_rows(1_000_000) == EF_SEARCH_MAX
    assert ef_for_rows(10_000_000) == EF_SEARCH_MAX
    sizes = [ef_for_rows(n) for n in range(0, 2_000_000, 50_000)]
    assert sizes == sorted(sizes)


@needs_pg
def test_a_search_of_the_graph_takes_the_list_for_the_table_size(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg.exact_below = 10
    pg.put_many(_facts("s", 40))
    conn = pg._search_conn()
    monkeypatch.setattr(postgres_mod, "ef_for_rows", lambda rows: 333)
    q = pg.embed(["rust"], kind="query")[0]
    pg.vector_search(q, scope="s", k=5)
    assert conn.execute("SHOW hnsw.ef_search").fetchone() == ("333",)
    with pg.transaction():  # inside a transaction, for it alone
        monkeypatch.setattr(postgres_mod, "ef_for_rows", lambda rows: 444)
        pg.vector_search(q, scope="s", k=5)
        assert pg._conn.execute("SHOW hnsw.ef_search").fetchone() == ("444",)
    assert pg._conn.execute("SHOW hnsw.ef_search").fetchone() == ("100",)
    pg.set_ef_search(40)  # a fixed list wins over the table's size
    pg.vector_search(q, scope="s", k=5)
    assert conn.execute("SHOW hnsw.ef_search").fetchone() == ("40",)
