"""What only the PostgreSQL backend has: its connection errors, the pgvector extension,
migrations shared by many processes, schemas, HNSW and GIN indexes, advisory locks and
bulk loading. The store contract itself runs on both backends in test_store_contract.py."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("pgvector")

import psycopg  # noqa: E402
from conftest import PG_DSN, drop_store, make_store  # noqa: E402
from psycopg.conninfo import make_conninfo  # noqa: E402

from credo.embed import HashEmbedder  # noqa: E402
from credo.fact import Fact  # noqa: E402
from credo.memory import Memory  # noqa: E402
from credo.recall import recall  # noqa: E402
from credo.store import open_store  # noqa: E402
from credo.store.base import StoreError  # noqa: E402
from credo.store.postgres import (  # noqa: E402
    PostgresStore,
    lexical_query,
    vector_query,
)
from credo.store.postgres_schema import MIGRATIONS  # noqa: E402

needs_pg = pytest.mark.skipif(not PG_DSN, reason="needs CREDO_TEST_PG_DSN")

INSTALL_HINT = (
    "CREATE EXTENSION vector failed: install pgvector on the server (Debian: "
    "postgresql-15-pgvector, or bash scripts/ci-postgres.sh)"
)


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[PostgresStore]:
    store = make_store("postgres", tmp_path)
    assert isinstance(store, PostgresStore)
    try:
        yield store
    finally:
        drop_store(store)


def _admin() -> psycopg.Connection[Any]:
    return psycopg.connect(PG_DSN, autocommit=True)


def _schema_name() -> str:
    return f"t_{uuid.uuid4().hex[:12]}"


def _drop_schema(name: str) -> None:
    with _admin() as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def _indexes(store: PostgresStore) -> dict[str, str]:
    rows = store._conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s", (store.schema,)
    )
    return {str(r[0]): str(r[1]) for r in rows}


# -- errors without a server --------------------------------------------------------------
def test_unreachable_server_is_a_clear_store_error() -> None:
    url = "postgresql://credo:s3cret-pw@127.0.0.1:1/nowhere"
    with pytest.raises(StoreError) as info:
        PostgresStore(url, HashEmbedder())
    message = str(info.value)
    assert message.startswith("cannot connect to PostgreSQL at credo@127.0.0.1:1/nowhere")
    assert "s3cret-pw" not in message
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL"):
        open_store(url, HashEmbedder())
    with pytest.raises(StoreError) as info:
        PostgresStore(
            "host=127.0.0.1 port=1 user=credo password=s3cret-pw dbname=nowhere", HashEmbedder()
        )
    assert "credo@127.0.0.1:1/nowhere" in str(info.value)
    assert "s3cret-pw" not in str(info.value)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://%zz",
        "postgresql://u:s3cret-pw@[::1",
        "postgresql://u:s3cret-pw@127.0.0.1:5432/db?no_such_option=1",
        "postgresql://127.0.0.1:notaport/db",
    ],
)
def test_a_bad_url_is_a_store_error_without_the_password(url: str) -> None:
    with pytest.raises(StoreError) as info:
        PostgresStore(url, HashEmbedder())
    assert "PostgreSQL" in str(info.value)
    assert "s3cret-pw" not in str(info.value)


def test_a_bad_schema_name_is_refused_before_connecting() -> None:
    with pytest.raises(StoreError, match="invalid schema name"):
        PostgresStore("postgresql://127.0.0.1:1/x", HashEmbedder(), schema='x"; DROP TABLE y')


# -- the extension ------------------------------------------------------------------------
@needs_pg
def test_missing_extension_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PostgresStore, "extension", "credo_no_such_extension")
    schema = _schema_name()
    with pytest.raises(StoreError) as info:
        PostgresStore(PG_DSN, HashEmbedder(), schema=schema)
    assert "CREATE EXTENSION credo_no_such_extension failed: install pgvector" in str(info.value)
    with _admin() as conn:  # it stopped before creating anything
        assert (
            conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
            is None
        )


@needs_pg
def test_a_role_that_cannot_create_the_extension_gets_the_install_hint() -> None:
    """A real database without `vector` and a role that may not create it; then a
    superuser on the same database, for whom the store creates the extension itself."""
    name = f"credo_noext_{uuid.uuid4().hex[:10]}"
    with _admin() as conn:
        row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
        if not row or not row[0]:
            pytest.skip("needs a superuser DSN to create a database and a role")
        conn.execute(f'CREATE DATABASE "{name}"')
        conn.execute(f"CREATE ROLE \"{name}\" LOGIN PASSWORD 's3cret-pw'")
    try:
        limited = make_conninfo(PG_DSN, dbname=name, user=name, password="s3cret-pw")
        with pytest.raises(StoreError) as info:
            PostgresStore(limited, HashEmbedder(), schema="credo")
        assert INSTALL_HINT in str(info.value)
        assert "s3cret-pw" not in str(info.value)

        store = PostgresStore(make_conninfo(PG_DSN, dbname=name), HashEmbedder(), schema="credo")
        try:
            Memory(store, scope="s").remember("Ann lives in Oslo")
            assert store.vector_search("Ann lives in Oslo", scope="s", k=1)
        finally:
            store.close()
    finally:
        with _admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{name}"')


# -- migrations and schemas -----------------------------------------------------------------
@needs_pg
def test_migrations_are_recorded_once_and_reopening_applies_nothing(pg: PostgresStore) -> None:
    assert pg.applied_migrations() == MIGRATIONS.names
    rows = pg._conn.execute("SELECT name, applied_at FROM migrations").fetchall()
    assert [r[0] for r in rows] == MIGRATIONS.names
    assert all(r[1] > 0 for r in rows)
    other = PostgresStore(PG_DSN, HashEmbedder(), schema=pg.schema)
    try:
        assert other.migrate() == []
        assert other.applied_migrations() == MIGRATIONS.names
        fact = Fact(text="Ann lives in Oslo", subject="ann", predicate="live_in", object="Oslo")
        pg.put(fact)
        assert other.get(fact.id, scope="default") == fact
    finally:
        other.close()


@needs_pg
def test_processes_opening_a_new_schema_at_once_migrate_it_once() -> None:
    schema = _schema_name()
    start = threading.Barrier(4)
    opened: list[PostgresStore] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            start.wait(timeout=30)
            opened.append(PostgresStore(PG_DSN, HashEmbedder(), schema=schema))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert not errors, errors
        assert len(opened) == 4
        rows = opened[0]._conn.execute("SELECT name FROM migrations").fetchall()
        assert [r[0] for r in rows] == MIGRATIONS.names
    finally:
        for store in opened:
            store.close()
        _drop_schema(schema)


@needs_pg
def test_schemas_are_isolated(tmp_path: Path) -> None:
    a = make_store("postgres", tmp_path)
    b = make_store("postgres", tmp_path)
    assert isinstance(a, PostgresStore) and isinstance(b, PostgresStore)
    try:
        Memory(a, scope="default").remember("Ann lives in Oslo")
        a.set_alias("default", "annie", "ann")
        assert a.count(scope="default") == 1
        assert (
            b.count(scope="default") == 0 and b.scopes() == [] and b.aliases(scope="default") == {}
        )
        assert b.vector_search("Ann lives in Oslo", scope="default", k=5) == []
        assert b.lexical_search("Oslo", scope="default", k=5) == []
        drop_store(a)
        Memory(b, scope="default").remember("Bob lives in Rome")
        assert [f.text for f in b.all(scope="default")] == ["Bob lives in Rome"]
    finally:
        drop_store(b)


@needs_pg
def test_without_a_schema_the_search_path_decides(tmp_path: Path) -> None:
    schema = _schema_name()
    with _admin() as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_conninfo(PG_DSN, options=f"-csearch_path={schema}")
    try:
        store = PostgresStore(url, HashEmbedder())
        try:
            Memory(store, scope="s").remember("Ann lives in Oslo")
            assert store.vector_search("Ann lives in Oslo", scope="s", k=1)
            with pytest.raises(StoreError, match="schema="):
                store.drop_schema()
        finally:
            store.close()
        with _admin() as conn:
            tables = {
                r[0]
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)
                )
            }
        assert {"facts", "vectors", "migrations", "conflicts", "rules"} <= tables
    finally:
        _drop_schema(schema)


# -- indexes ----------------------------------------------------------------------------------
@needs_pg
def test_hnsw_and_gin_indexes_exist_and_match_the_queries(pg: PostgresStore) -> None:
    dim = pg.embedder.dim
    indexes = _indexes(pg)
    hnsw = indexes[f"vectors_hnsw_{dim}"]
    assert "USING hnsw" in hnsw and "vector_cosine_ops" in hnsw
    assert f"vector({dim})" in hnsw and f"(dim = {dim})" in hnsw
    assert "USING gin (tsv)" in indexes["facts_tsv"]

    memory = Memory(pg, scope="default")
    for city in ("Oslo", "Rome", "Paris", "Lima"):
        memory.remember(f"Ann visited {city}")
    c = pg._conn
    vec = pg.embedder.embed_query("Ann visited Oslo")
    with pg.transaction():
        # a table this small is read whole; forbid that to see whether the index fits
        for knob in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            c.execute(f"SET LOCAL {knob} = off")
        plan = "\n".join(
            str(r[0])
            for r in c.execute(
                "EXPLAIN " + vector_query(dim), {"q": vec, "scope": "default", "k": 3}
            )
        )
        assert f"vectors_hnsw_{dim}" in plan, plan
    with c.transaction(force_rollback=True):
        # the scope's btree indexes would win on so few rows: drop them for this look only
        for index in ("facts_scope_key", "facts_scope_status", "facts_scope_created"):
            c.execute(f"DROP INDEX {index}")
        c.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(
            str(r[0])
            for r in c.execute("EXPLAIN " + lexical_query(2), ("oslo", "rome", "default", 3))
        )
        assert "facts_tsv" in plan, plan
    assert "facts_scope_created" in _indexes(pg)
    hits = pg.vector_search(vec, scope="default", k=2)
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert pg.get(hits[0][0], scope="default").text.startswith("Ann visited Oslo")  # type: ignore[union-attr]


@needs_pg
def test_reindex_moves_to_a_model_of_another_dimension(tmp_path: Path) -> None:
    small = make_store("postgres", tmp_path, HashEmbedder(64))
    assert isinstance(small, PostgresStore)
    big: PostgresStore | None = None
    try:
        Memory(small, scope="s").remember("Ann lives in Oslo")
        Memory(small, scope="s").remember("Bob lives in Rome")
        big = PostgresStore(PG_DSN, HashEmbedder(128), schema=small.schema)
        with pytest.raises(StoreError, match="credo reindex"):
            big.vector_search("Oslo", scope="s", k=1)
        with pytest.raises(StoreError, match="credo reindex"):
            big.put(Fact(text="Cai lives in Lima", scope="s"))
        assert big.reindex() == 2
        assert set(_indexes(big)) >= {"vectors_hnsw_128"}
        assert "vectors_hnsw_64" not in _indexes(big)
        hits = big.vector_search("Ann lives in Oslo", scope="s", k=1)
        assert hits and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        assert big.vectors_of([hits[0][0]], scope="s")[hits[0][0]].shape == (128,)
    finally:
        if big is not None:
            big.close()
        drop_store(small)


# -- bulk loading -------------------------------------------------------------------------------
@needs_pg
def test_bulk_put_many_rebuilds_the_index_at_commit(pg: PostgresStore) -> None:
    facts = [
        Fact(
            text=f"Item {i} is stored in bin {i % 37} of aisle {i % 11}",
            scope="bulk",
            derived_from=[f"ep{i % 5}"],
        )
        for i in range(1500)
    ]
    with pytest.raises(RuntimeError, match="abort"), pg.transaction():
        pg.put_many(facts)
        assert f"vectors_hnsw_{pg.embedder.dim}" not in _indexes(pg)
        raise RuntimeError("abort")
    assert pg.count(scope="bulk") == 0
    assert f"vectors_hnsw_{pg.embedder.dim}" in _indexes(pg)  # the drop rolled back too

    started = time.perf_counter()
    pg.put_many(facts)
    elapsed = time.perf_counter() - started
    assert elapsed < 60
    assert pg.count(scope="bulk") == 1500
    assert f"vectors_hnsw_{pg.embedder.dim}" in _indexes(pg)
    hits = pg.vector_search(facts[700].text, scope="bulk", k=3)
    assert hits[0][0] == facts[700].id and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert pg.get(facts[3].id, scope="bulk") == facts[3]
    assert pg.forget(scope="bulk", episode="ep1").facts == 300

    # a put_many over ids already stored takes put's rules: text is never overwritten
    pg.put_many([facts[0].evolve(confidence=0.5)])
    assert pg.get(facts[0].id, scope="bulk").confidence == 0.5  # type: ignore[union-attr]
    with pytest.raises(StoreError):
        pg.put_many([facts[0].evolve(text="something else")])


@needs_pg
def test_small_writes_keep_the_index(pg: PostgresStore) -> None:
    pg.put_many([Fact(text=f"Note {i}", scope="s") for i in range(20)])
    with pg.transaction():
        pg.put_many([Fact(text=f"Other note {i}", scope="s") for i in range(20)])
        assert f"vectors_hnsw_{pg.embedder.dim}" in _indexes(pg)


# -- locks and odd input --------------------------------------------------------------------------
@needs_pg
def test_lock_key_serialises_writers_on_a_key(pg: PostgresStore) -> None:
    other = PostgresStore(PG_DSN, HashEmbedder(), schema=pg.schema)
    try:

        def attempt(scope: str, subject: str | None, predicate: str | None) -> threading.Event:
            """Take a lock from another connection, in a thread; the event says it got it."""
            got = threading.Event()

            def run() -> None:
                with other.transaction():
                    other.lock_key(scope, subject, predicate)
                    got.set()

            threading.Thread(target=run, daemon=True).start()
            return got

        with pg.transaction():
            pg.lock_key("s", "ann", "live_in")
            same = attempt("s", "ann", "live_in")
            assert not same.wait(0.5), "a second writer got a key that is held"
        assert same.wait(10), "the key is free again after commit"
        with pg.transaction():
            pg.lock_key("s", "ann", "live_in")
            assert attempt("s", "bob", "live_in").wait(10), "another key must not wait"
        with pg.transaction():
            pg.lock_key("s", "ann", "live_in")
            assert attempt("elsewhere", None, None).wait(10), "another scope must not wait"
        with pg.transaction():
            pg.lock_key("s", "ann", "live_in")
            keyless = attempt("s", None, None)
            assert not keyless.wait(0.5), "a keyless writer waits for the scope's keyed ones"
        assert keyless.wait(10)
    finally:
        other.close()


@needs_pg
def test_lock_key_needs_a_transaction(pg: PostgresStore) -> None:
    with pytest.raises(StoreError, match="transaction"):
        pg.lock_key("s", "ann", "live_in")


@needs_pg
@pytest.mark.parametrize(
    "query",
    [
        "a & b",
        "!x",
        "x:*",
        "a <-> b",
        "'quoted'",
        "\\",
        "a:A",
        "(a | b",
        "x:*B & !'y'",
        "NULL",
        "1=1; DROP TABLE facts",
        "日本語 テキスト",
        "ÅÄÖ åäö",
        "x_y_z",
        "_",
        "a" * 3000,
    ],
)
def test_tsquery_syntax_in_user_text_is_only_words(pg: PostgresStore, query: str) -> None:
    Memory(pg, scope="s").remember("Ann quoted a book about xyz")
    assert isinstance(pg.lexical_search(query, scope="s", k=5), list)


@needs_pg
def test_nul_characters_never_reach_the_driver(pg: PostgresStore) -> None:
    """PostgreSQL text cannot hold NUL: writing one is a StoreError, looking one up finds
    nothing, and a refused text with one is still recorded as a rejection."""
    with pytest.raises(StoreError, match="NUL"):
        pg.put(Fact(text="Ann lives in\x00Oslo", scope="s"))
    with pytest.raises(StoreError, match="NUL"):
        pg.set_alias("s", "an\x00n", "ann")
    assert pg.count(scope="s") == 0
    assert pg.get("f_\x00", scope="s") is None
    assert pg.by_key("a\x00", "b", scope="s") == []
    assert pg.by_subject("a\x00", scope="s") == []
    assert pg.lineage(scope="s", fact_id="\x00") == []
    assert pg.forget(scope="s", ids=["\x00"], subject="\x00", episode="\x00").facts == 0
    from credo.gate import Candidate

    result = Memory(pg, scope="s").remember_candidate(
        Candidate(text="my password: hunter2\x00", subject="ann")
    )
    assert not result.accepted
    assert [r.code for r in pg.rejections(scope="s")] == [result.code]


def test_export_from_sqlite_piped_into_postgres_loses_nothing(tmp_path: Path) -> None:
    """`credo export --db file | credo import --db postgresql://...`, as a user runs it."""
    import json
    import os
    import subprocess
    import sys
    import uuid

    if not PG_DSN:
        pytest.skip("needs CREDO_TEST_PG_DSN")
    from credo.embed import HashEmbedder
    from credo.memory import Memory
    from credo.store.sqlite import SQLiteStore

    db = tmp_path / "src.db"
    with SQLiteStore(db, HashEmbedder()) as s:
        for scope in ("alice", "bob"):
            m = Memory(s, scope=scope)
            m.alias_add("@me", scope)
            m.remember("Arttu lives in Helsinki", valid_from="2024-01-01", derived_from=["ep-1"])
            m.remember("Arttu lives in Berlin", derived_from=["ep-2"])
            m.remember("The deploy target is staging")
            m.remember("The deploy target is prod")
            m.add_rule("home address")
            m.remember("I might move to Paris")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "CREDO_EMBEDDER": "hash"}
    cli = [sys.executable, "-m", "credo.cli"]
    exported = subprocess.run(
        [*cli, "--db", str(db), "export", "--all-scopes"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    pg_url = f"{PG_DSN}?options=-csearch_path%3D{schema}"
    try:
        PostgresStore(PG_DSN, HashEmbedder(), schema=schema).close()  # create the schema
        subprocess.run(
            [*cli, "--db", pg_url, "import", "--all-scopes"],
            input=exported,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        again = subprocess.run(
            [*cli, "--db", pg_url, "export", "--all-scopes"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

        def body(text: str) -> list[dict[str, object]]:
            rows = [json.loads(line) for line in text.splitlines()]
            return sorted(
                (r for r in rows if r["type"] != "header"),
                key=lambda r: json.dumps(r, sort_keys=True),
            )

        assert body(again) == body(exported)
        assert len([r for r in body(exported) if r["type"] == "fact"]) == 8
    finally:
        store = PostgresStore(PG_DSN, HashEmbedder(), schema=schema)
        store.drop_schema()
        store.close()


def _berliners_and_zebulon(pg: PostgresStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """600 facts that share "lives" and "Berlin", and one with two rare words, in a table
    counted as large (rare-word selection from 10 rows on)."""
    from credo.store import postgres as postgres_module

    monkeypatch.setattr(postgres_module, "RARE_WORDS_FROM", 10)
    pg.put_many([Fact(text=f"Person {i} lives in Berlin", scope="s") for i in range(600)])
    pg.put_many([Fact(text="Zebulon lives in Oslo", scope="s")])
    pg._conn.execute("ANALYZE facts")


def test_large_tables_select_lexical_candidates_by_rare_words(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _berliners_and_zebulon(pg, monkeypatch)
    assert pg._rare_words(["zebulon", "live"], "s") == ["zebulon"]
    (best, _), *_ = pg.lexical_search("where does Zebulon live", scope="s", k=5)
    assert pg.get(best, scope="s").text == "Zebulon lives in Oslo"  # type: ignore[union-attr]
    assert pg.lexical_search("person lives berlin", scope="s", k=3)


def test_a_small_scope_ranks_every_match_whatever_the_table_holds(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tenant of few facts in a large table: its full-text search ranks every one of
    its facts that holds a query word, as a store of few facts does. No word is counted
    over the table for it (a sample per new word), and its rows come from the scope's
    btree, never from the full-text index, which holds every tenant's rows."""
    from credo.store.postgres import lexical_query

    _berliners_and_zebulon(pg, monkeypatch)
    pg.put_many(
        [
            Fact(text="Zebulon lives in Oslo", scope="small"),
            Fact(text="Pekka lives in Turku", scope="small"),
            Fact(text="Pekka plays chess", scope="small"),
        ]
    )
    counted: list[Sequence[str]] = []
    count_words = pg._count_words

    def counting(words: Sequence[str], rows: int, cutoff: int) -> list[int]:
        counted.append(list(words))
        return count_words(words, rows, cutoff)

    monkeypatch.setattr(pg, "_count_words", counting)
    small = {
        pg.get(fid, scope="small").text  # type: ignore[union-attr]
        for fid, _ in pg.lexical_search("where does Zebulon live", scope="small", k=5)
    }
    assert small == {"Zebulon lives in Oslo", "Pekka lives in Turku"}
    assert counted == []
    (best, _), *rest = pg.lexical_search("where does Zebulon live", scope="s", k=5)
    assert pg.get(best, scope="s").text == "Zebulon lives in Oslo"  # type: ignore[union-attr]
    assert rest == [] and counted  # the large scope: candidates by the rare word
    with pg.transaction():
        pg._conn.execute("SET LOCAL enable_seqscan = off")
        plan = " ".join(
            str(r[0])
            for r in pg._conn.execute(
                "EXPLAIN " + lexical_query(2, with_vectors=True, small=True),
                ("zebulon", "live", "small", 5),
            )
        )
    assert "facts_tsv" not in plan and "scope" in plan, plan


def _snapshots_of_others(pg: PostgresStore) -> int:
    """How many other client sessions the database has now: any of them may take and
    drop a snapshot between two looks (a worker's short transaction), so only a database
    with none is sure to have let VACUUM mark every page all-visible."""
    row = pg._conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
    ).fetchone()
    return int(row[0])  # type: ignore[index]


def test_a_bulk_load_in_small_batches_leaves_planner_statistics(pg: PostgresStore) -> None:
    """An import puts facts in batches of 512 inside one transaction: the statistics a
    planner needs to use the indexes must follow the load, not wait for autovacuum."""

    def planned_rows() -> float:
        row = pg._conn.execute("SELECT reltuples FROM pg_class WHERE oid = 'facts'::regclass")
        return float(row.fetchone()[0])  # type: ignore[index]

    assert planned_rows() <= 0  # never analysed
    held = _snapshots_of_others(pg)
    with pg.transaction():
        for start in range(0, 1200, 400):
            pg.put_many(
                [
                    Fact(text=f"Person {i} lives in Oslo", scope="s")
                    for i in range(start, start + 400)
                ]
            )
    assert planned_rows() == 1200
    # vacuumed too: the loaded pages are all-visible (hint bits set), so reads after the
    # load neither dirty them nor, where autovacuum is off, keep doing so. A snapshot
    # another session of the database holds (the suite's other workers) keeps VACUUM from
    # marking rows all-visible; the pages are counted then, their visibility not
    others = held + _snapshots_of_others(pg)
    for table in ("facts", "vectors"):
        pages, visible = pg._conn.execute(
            "SELECT relpages, relallvisible FROM pg_class WHERE oid = %s::regclass", (table,)
        ).fetchone()  # type: ignore[misc]
        assert pages > 0
        if not others:
            assert visible == pages
    pg.put_many([Fact(text=f"Person {i} lives in Rome", scope="s") for i in range(10)])
    assert planned_rows() == 1200  # a small write does not re-analyse


def test_a_rare_word_count_counts_every_new_word_at_once(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from credo.store import postgres as postgres_module

    _berliners_and_zebulon(pg, monkeypatch)
    statements: list[str] = []
    real_execute = pg._conn.execute

    def execute(query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(str(query))
        return real_execute(query, *args, **kwargs)

    monkeypatch.setattr(pg._conn, "execute", execute)
    words = ["zebulon", "live", "oslo", "berlin"]
    assert pg._rare_words(words, "s") == ["zebulon", "oslo"]
    assert len([q for q in statements if "TABLESAMPLE" in q]) == 1  # one pass, four words
    # a sample of 3,000 facts is the whole of this table: the counts are exact
    assert [pg._words.held(w) for w in words] == [1, 601, 1, 600]
    statements.clear()
    assert pg._rare_words(["berlin", "zebulon"], "s") == ["zebulon"]
    assert not [q for q in statements if "count(*)" in q]  # known words are not counted again

    # a sample of a few pages: estimates, scaled to the table, that still tell rare words
    # from common ones
    monkeypatch.setattr(postgres_module, "COUNT_SAMPLE", 150)
    live, berlin, zebulon = pg._count_words(["live", "berlin", "zebulon"], 601, 500)
    assert live == 601  # every sampled fact holds it
    assert 500 <= berlin <= 601 and zebulon < 300  # (the cutoff is 500)
    # an empty sample: counted exactly instead, up to one past the cutoff
    monkeypatch.setattr(postgres_module, "COUNT_SAMPLE", 0)
    assert pg._count_words(["live", "zebulon", "nowhere"], 601, 500) == [501, 1, 0]


def _backend_pid(conn: Any) -> int:
    return int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])


def test_vector_searches_run_on_their_own_connection_outside_a_transaction(
    tmp_path: Path,
) -> None:
    """recall runs its vector search on a worker thread while the full-text search runs:
    on a connection of its own, or the two would take turns on the server."""
    pg = make_store("postgres", tmp_path)
    assert isinstance(pg, PostgresStore) and pg.concurrent_nearest
    try:
        _reader_checks(pg)
    finally:
        if not pg._conn.closed:
            drop_store(pg)


def _reader_checks(pg: PostgresStore) -> None:
    pg.put(Fact(text="Arttu deploys arttuan.com on Vercel", scope="s"))
    (hit, _), *_ = pg.vector_search("where does Arttu deploy", scope="s", k=1)
    assert pg.get(hit, scope="s").text == "Arttu deploys arttuan.com on Vercel"  # type: ignore[union-attr]
    reader = pg._reader
    assert reader is not None and not reader.closed
    assert _backend_pid(reader) != _backend_pid(pg._conn)
    # the same session settings as the main connection: schema, ef_search, iterative scan
    for setting in ("search_path", "hnsw.ef_search", "hnsw.iterative_scan", "jit"):
        show = f"SHOW {setting}"
        assert reader.execute(show).fetchone() == pg._conn.execute(show).fetchone()
    pg.set_ef_search(40)
    assert reader.execute("SHOW hnsw.ef_search").fetchone() == ("40",)
    assert pg._conn.execute("SHOW hnsw.ef_search").fetchone() == ("40",)
    with pytest.raises(StoreError, match="at least 1"):
        pg.set_ef_search(0)
    pg.drop_schema()
    pg.close()
    assert reader.closed and pg._conn.closed


def test_inside_a_transaction_a_vector_search_sees_its_writes(pg: PostgresStore) -> None:
    with pg.transaction():
        pg.put(Fact(text="Mika keeps bees in Porvoo", scope="s"))
        found = pg.vector_search("who keeps bees", scope="s", k=3)
        assert [pg.get(fid, scope="s").text for fid, _ in found] == [  # type: ignore[union-attr]
            "Mika keeps bees in Porvoo"
        ]
        hits = recall(pg, "who keeps bees", scope="s")  # recall too, in the transaction
        assert [h.fact.text for h in hits] == ["Mika keeps bees in Porvoo"]
    assert pg.vector_search("who keeps bees", scope="s", k=3)  # and after it, on the reader


def test_vectors_come_back_exactly_as_stored(pg: PostgresStore) -> None:
    """vectors are read in pgvector's binary form and unpacked all at once: the same
    float32 values, whatever their byte order on the wire."""
    import numpy as np

    from credo.store.postgres import _unpack_vectors

    rng = np.random.default_rng(1)
    facts = [Fact(text=f"Person {i} lives in Oslo", scope="s") for i in range(5)]
    vecs = [rng.standard_normal(pg.embedder.dim).astype(np.float32) for _ in facts]
    for fact, vec in zip(facts, vecs, strict=True):
        pg.put(fact, vec)
    got = pg.vectors_of([f.id for f in facts], scope="s")
    for fact, vec in zip(facts, vecs, strict=True):
        assert got[fact.id].dtype == np.float32
        assert np.array_equal(got[fact.id], vec)
    near = pg.nearest(vecs[2], scope="s", k=5)
    assert near[0][0] == facts[2].id and np.array_equal(near[0][2], vecs[2])
    # rows of different sizes (vectors of two models) are unpacked one by one
    mixed = [
        b"\x00\x02\x00\x00" + np.array([1.5, -2], ">f4").tobytes(),
        b"\x00\x01\x00\x00" + np.array([3], ">f4").tobytes(),
    ]
    assert [v.tolist() for v in _unpack_vectors(mixed)] == [[1.5, -2.0], [3.0]]
    assert _unpack_vectors([]) == []


def test_lexical_nearest_reads_the_hits_vectors_in_one_statement(
    pg: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full-text hits come with their vectors from one query; a hit whose vector row is
    gone comes back with None, not as an error or a missing hit."""
    facts = [
        Fact(text=t, scope="s")
        for t in ("Arttu plays the cello", "Arttu plays chess", "Anna rides a bike")
    ]
    pg.put_many(facts)
    pg._conn.execute("DELETE FROM vectors WHERE fact_id = %s", (facts[1].id,))
    statements: list[str] = []
    real_execute, real_fetch = pg._conn.execute, pg._fetch_vectors

    def execute(query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(str(query))
        return real_execute(query, *args, **kwargs)

    def fetch(conn: Any, query: str, args: Any) -> Any:
        statements.append(query)
        return real_fetch(conn, query, args)

    monkeypatch.setattr(pg._conn, "execute", execute)
    monkeypatch.setattr(pg, "_fetch_vectors", fetch)
    found = pg.lexical_nearest("arttu plays", scope="s", k=10)
    searches = [q for q in statements if "ts_rank_cd" in q]
    assert len(searches) == 1 and "vectors" in searches[0]
    assert not [q for q in statements if "ts_rank_cd" not in q and "vectors" in q]
    monkeypatch.undo()
    assert [i for i, _, _ in found] == [
        i for i, _ in pg.lexical_search("arttu plays", scope="s", k=10)
    ]
    by_id = {i: v for i, _, v in found}
    assert set(by_id) == {facts[0].id, facts[1].id}
    assert by_id[facts[1].id] is None
    stored = pg.vectors_of([facts[0].id], scope="s")[facts[0].id]
    assert by_id[facts[0].id] is not None and (by_id[facts[0].id] == stored).all()


@needs_pg
def test_a_lookup_by_id_never_reads_the_scopes_index_even_when_prepared(
    pg: PostgresStore,
) -> None:
    """A prepared statement's generic plan knows no scope: planned for an average one, it
    ANDed the scope's whole btree into the lookup by id (110,000 entries for a tenant of
    105k facts). The scope is spelled so that no plan can use that index."""
    from psycopg import sql as psql

    from credo.store import sql as q

    facts = [Fact(text=f"fact number {i}", scope="big") for i in range(300)]
    pg.put_many(facts)
    pg.put_many([Fact(text=f"other {i}", scope=f"s{i}") for i in range(30)])
    pg._conn.execute("ANALYZE facts")
    ids = [f.id for f in facts[:20]]
    with pg.transaction():
        pg._conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        for knob in ("enable_seqscan",):
            pg._conn.execute(f"SET LOCAL {knob} = off")
        for build in (q.facts_by_id, q.fact_ids_in):
            args = (
                (q.POSTGRES, "id", "big", ids)
                if build is q.facts_by_id
                else (q.POSTGRES, "big", ids)
            )
            statement, params = build(*args)  # type: ignore[operator]
            pg._conn.execute(f"PREPARE lookup(text, text[]) AS {_numbered(statement)}")
            try:
                plan = "\n".join(
                    str(r[0])
                    for r in pg._conn.execute(
                        psql.SQL("EXPLAIN EXECUTE lookup({}, {})").format(
                            *(psql.Literal(p) for p in params)
                        )
                    )
                )
            finally:
                pg._conn.execute("DEALLOCATE lookup")
            assert "facts_pkey" in plan and "facts_scope" not in plan, plan
    assert [f.id for f in pg.get_many(ids, scope="big")] == ids
    assert pg.get_many(ids, scope="s1") == []


def _numbered(statement: str) -> str:
    """psycopg's %s placeholders as PREPARE's $1, $2, ..."""
    parts = statement.split("%s")
    return "".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts))
