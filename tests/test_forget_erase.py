"""`forget` leaves no copy on disk: the raw bytes of every file of the store hold neither
the forgotten text, its lexemes, its vector nor its id once the erase step has run.

SQLite: the database, its -wal and -shm, with another connection open during the forget
(and, when that connection is part-way through a read, the erase is pending until it is
done). PostgreSQL: every file of every table, index and TOAST relation of the store's
schema, after a CHECKPOINT; skipped where the server's data directory is not readable
here (a remote server, or a role that may not read `data_directory`)."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PG_DSN, drop_store, make_store

from credo.gate import Candidate
from credo.memory import Memory
from credo.store.base import Rejection, Store

MODES = ["id", "subject", "episode", "scope"]
TEXT = "Zyxwvut lives in Qorbington"
#: the text, and the lexemes of its words as tsvector and FTS5 store them (lowercased)
WORDS = [b"qorbington", b"zyxwvut"]


# -- reading the files ------------------------------------------------------------------
def sqlite_files(store: Store) -> list[Path]:
    path = str(getattr(store, "path"))  # noqa: B009 - SQLiteStore only
    return [Path(path + suffix) for suffix in ("", "-wal", "-shm") if Path(path + suffix).exists()]


def _pg_admin() -> Any:
    import psycopg

    return psycopg.connect(PG_DSN, autocommit=True)


def pg_files(store: Store) -> list[Path]:
    """Every file of the schema's relations, their TOAST tables and TOAST indexes: all
    forks (main, fsm, vm, init) and segments."""
    schema = getattr(store, "schema")  # noqa: B009 - PostgresStore only
    with _pg_admin() as conn:
        try:
            datadir = Path(conn.execute("SHOW data_directory").fetchone()[0])
        except Exception:  # noqa: BLE001 - not allowed to read it
            pytest.skip("the role may not read data_directory")
        if not datadir.is_dir() or not any(datadir.iterdir()):
            pytest.skip(f"{datadir} is not readable here")
        conn.execute("CHECKPOINT")  # what is in shared buffers goes to the files
        rows = conn.execute(
            """
            WITH own AS (
                SELECT c.oid, c.reltoastrelid FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %(s)s
            ), rels AS (
                SELECT oid FROM own
                UNION SELECT reltoastrelid FROM own WHERE reltoastrelid <> 0
                UNION SELECT i.indexrelid FROM pg_index i
                      JOIN own ON own.reltoastrelid = i.indrelid
            )
            SELECT pg_relation_filepath(oid) FROM rels
            WHERE pg_relation_filepath(oid) IS NOT NULL
            """,
            {"s": schema},
        ).fetchall()
    assert len(rows) > 20  # tables, indexes, TOAST: the query found the schema
    files = []
    for (rel,) in rows:
        base = datadir / rel
        pattern = re.compile(re.escape(base.name) + r"(\.\d+|_fsm|_vm|_init)?")
        files += [p for p in base.parent.iterdir() if pattern.fullmatch(p.name)]
    return files


def files_of(store: Store) -> list[Path]:
    return sqlite_files(store) if hasattr(store, "path") else pg_files(store)


def found(store: Store, needles: dict[str, bytes]) -> dict[str, list[str]]:
    """Which needles occur (case-insensitively for words) in which file of the store."""
    hits: dict[str, list[str]] = {}
    for path in files_of(store):
        data = path.read_bytes()
        lower = data.lower()
        for name, needle in needles.items():
            if needle in data or needle.lower() in lower:
                hits.setdefault(name, []).append(path.name)
    return hits


# -- the stored things --------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgres"])
def erasable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    store = make_store(str(request.param), tmp_path)
    # both backends have it; the erase waits only while an older snapshot may see the
    # forgotten rows (on a shared test server another worker's import or index build
    # can hold one for seconds), so a long limit costs nothing when none does
    setattr(store, "erase_wait", 30.0)  # noqa: B010
    try:
        yield store
    finally:
        drop_store(store)


def seed(mem: Memory, mode: str) -> dict[str, bytes]:
    """Facts around one marked fact, and (but for forget by id, which takes only facts)
    refusals and a rule that repeat its words. Returns the needles to look for."""
    for i in range(20):
        mem.remember(f"Colleague number {i} works at Reaktor")
    fact = mem.remember(TEXT, derived_from=["ep-zy"]).fact
    assert fact is not None and fact.subject == "zyxwvut"
    if mode != "id":
        refused = mem.remember_candidate(
            Candidate(
                text="Zyxwvut seems sad about Qorbington",
                subject="zyxwvut",
                derived_from=("ep-zy",),
            )
        )
        assert not refused.accepted
    if mode in ("subject", "scope"):
        # filed under no subject, naming it only in the text; and a rule about it
        mem.store.add_rejection(
            Rejection(mem.scope, "Maybe Zyxwvut visits Qorbington", "hedge", "a hedge, not a fact")
        )
        mem.add_rule("qorbington", subject="Zyxwvut")
    vector = mem.store.vectors_of([fact.id], scope=mem.scope)[fact.id]
    return {"word " + w.decode(): w for w in WORDS} | {
        "fact id": fact.id.encode(),
        "vector": vector.tobytes(),
    }


def forget(mem: Memory, mode: str, needles: dict[str, bytes]) -> Any:
    if mode == "id":
        return mem.forget(id=needles["fact id"].decode())
    if mode == "subject":
        return mem.forget(subject="Zyxwvut")
    if mode == "episode":
        return mem.forget(episode="ep-zy")
    return mem.forget(everything=True)


# -- the tests ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_forget_leaves_no_copy_in_any_file(erasable: Store, mode: str) -> None:
    mem = Memory(erasable, scope="default")
    needles = seed(mem, mode)
    assert set(found(erasable, needles)) == set(needles)  # the scan sees what is there
    other = None
    if hasattr(erasable, "path"):  # another connection, open and reading, during it
        other = Memory(make_store("sqlite", Path(erasable.path).parent), scope="default")  # type: ignore[attr-defined]
        assert other.recall("where does Zyxwvut live")
    try:
        report = forget(mem, mode, needles)
        assert report.facts >= 1 and report.erased and report.pending_erase == 0
        assert report.to_dict()["erased"] is True
        if mode != "id":
            assert report.rejections >= 1
        if mode in ("subject", "scope"):
            assert report.rejections == 2 and report.rules == 1
        assert found(erasable, needles) == {}  # the other connection still open
    finally:
        if other is not None:
            other.store.close()
    assert erasable.pending_erase() == 0
    if mode != "scope":
        assert erasable.count(scope="default") == 20  # the rest is still there, and searchable
        assert mem.recall("who works at Reaktor")


def test_sqlite_reader_holding_the_log_leaves_the_erase_pending(tmp_path: Path) -> None:
    store = make_store("sqlite", tmp_path)
    setattr(store, "erase_wait", 0.2)  # noqa: B010
    mem = Memory(store, scope="default")
    needles = seed(mem, "id")
    path = Path(store.path)  # type: ignore[attr-defined]
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM facts").fetchone()[0] == 21  # a snapshot
    report = forget(mem, "id", needles)
    assert report.facts == 1 and not report.erased and report.pending_erase == 1
    assert report.to_dict()["pending_erase"] == 1
    assert store.pending_erase() == 1
    reader.execute("COMMIT")  # the reader is done; the next write finishes the erase
    mem.remember("Anna lives in Oslo")
    assert store.pending_erase() == 0
    assert found(store, needles) == {}

    # pending again, and this time the next process to open the file finishes it
    fact = mem.remember("Qorbington hosts the Zyxwvut festival", derived_from=["ep-2"]).fact
    assert fact is not None
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM facts").fetchone()
    assert not mem.forget(id=fact.id).erased
    store.close()  # it cannot finish the erase while the reader reads
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM pending_erase").fetchone()[0] == 1
    reader.close()
    again = make_store("sqlite", tmp_path)
    try:
        assert again.pending_erase() == 0
        assert found_in(path, WORDS + [fact.id.encode()]) == []
    finally:
        again.close()


def found_in(path: Path, needles: list[bytes]) -> list[bytes]:
    data = b"".join(
        Path(str(path) + s).read_bytes()
        for s in ("", "-wal", "-shm")
        if Path(str(path) + s).exists()
    ).lower()
    return [n for n in needles if n.lower() in data]


def test_postgres_old_snapshot_leaves_the_erase_pending(tmp_path: Path) -> None:
    store = make_store("postgres", tmp_path)
    try:
        setattr(store, "erase_wait", 0.3)  # noqa: B010
        mem = Memory(store, scope="default")
        needles = seed(mem, "subject")
        import psycopg

        with psycopg.connect(PG_DSN) as reader:  # a transaction of its own
            reader.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            reader.execute(f'SELECT count(*) FROM "{store.schema}".facts').fetchone()  # type: ignore[attr-defined]
            report = forget(mem, "subject", needles)
            assert report.facts == 1 and not report.erased and report.pending_erase == 1
            assert not store.erase(wait=0)  # still held
        assert store.pending_erase() == 1
        assert store.erase()
        assert store.pending_erase() == 0
        assert found(store, needles) == {}
    finally:
        drop_store(store)


def test_postgres_transaction_in_another_database_leaves_the_erase_pending(
    tmp_path: Path,
) -> None:
    """A transaction of another database cannot see this store's rows, but while it runs
    VACUUM FULL keeps deleted rows (its own snapshot's horizon is server-wide): the erase
    must say it is pending, not that it is done with the words still in the files."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    store = make_store("postgres", tmp_path)
    try:
        setattr(store, "erase_wait", 0.3)  # noqa: B010
        mem = Memory(store, scope="default")
        needles = seed(mem, "subject")
        with psycopg.connect(make_conninfo(PG_DSN, dbname="postgres")) as elsewhere:
            elsewhere.execute("SELECT pg_current_xact_id()").fetchone()  # holds an xid
            report = forget(mem, "subject", needles)
            assert report.facts == 1 and not report.erased and report.pending_erase == 1
            assert not store.erase(wait=0)
        assert store.erase()  # the other transaction ended
        assert store.pending_erase() == 0
        assert found(store, needles) == {}
    finally:
        drop_store(store)


def test_postgres_statistics_never_sample_what_users_said(tmp_path: Path) -> None:
    store = make_store("postgres", tmp_path)
    try:
        mem = Memory(store, scope="default")
        seed(mem, "subject")
        conn = store._conn  # type: ignore[attr-defined]
        conn.execute("ANALYZE")
        schema = store.schema  # type: ignore[attr-defined]
        stats = conn.execute(
            "SELECT tablename, attname, concat_ws(' ', most_common_vals::text, "
            "histogram_bounds::text, most_common_elems::text) FROM pg_stats "
            "WHERE schemaname = %s",
            (schema,),
        ).fetchall()
        assert stats  # the other columns are sampled
        leaked = [
            (t, a) for t, a, v in stats if "zyxwvut" in v.lower() or "qorbington" in v.lower()
        ]
        assert leaked == []
    finally:
        drop_store(store)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_forget_by_subject_takes_what_names_it(backend: str, tmp_path: Path) -> None:
    store = make_store(backend, tmp_path)
    try:
        mem = Memory(store, scope="default")
        other = Memory(store, scope="other")
        mem.alias_add("@zy", "zyxwvut")
        mem.remember("Zyxwvut lives in Qorbington")
        for text, subject in [
            ("I think zyxwvut might move", None),  # the name, any case
            ("Zyxwvut's cat seems sad", None),  # possessive
            ("Maybe zy is moving", None),  # an alias
            ("Someone seems sad", "zyxwvut"),  # filed under it
            ("Zyxwvutson seems sad", None),  # another word: kept
            ("Anna seems sad", "anna"),  # another subject: kept
        ]:
            store.add_rejection(Rejection("default", text, "mood", "a mood", subject=subject))
        other.store.add_rejection(Rejection("other", "Zyxwvut seems sad", "mood", "a mood"))
        mem.add_rule("cats", subject="Zyxwvut")
        mem.add_rule("dogs", subject="Anna")
        report = mem.forget(subject="@zy")
        assert report.facts == 1 and report.rejections == 4 and report.rules == 1
        assert report.aliases == 1 and report.erased
        assert sorted(r.text for r in mem.rejections()) == [
            "Anna seems sad",
            "Zyxwvutson seems sad",
        ]
        assert [r.subject for r in mem.rules()] == ["anna"]
        assert len(other.rejections()) == 1  # scopes never see each other
    finally:
        drop_store(store)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_settled_conflict_keeps_no_forgotten_id(backend: str, tmp_path: Path) -> None:
    store = make_store(backend, tmp_path)
    try:
        mem = Memory(store, scope="default")
        a = mem.remember("The deploy target is staging").fact
        b = mem.remember("The deploy target is prod").fact
        c = mem.remember("Anna lives in Oslo").fact
        assert a is not None and b is not None and c is not None
        store.settle_conflict(
            "default", a.id, b.id, resolution=f"retracted {a.id}, {c.id}", decided_by="arttu"
        )
        mem.forget(id=c.id)
        (conflict,) = store.conflicts(scope="default", include_resolved=True)
        assert conflict.resolution == f"retracted {a.id}, (forgotten)"
    finally:
        drop_store(store)


def test_the_report_says_nothing_was_pending_when_nothing_was_removed(
    erasable: Store,
) -> None:
    report = Memory(erasable, scope=f"s-{uuid.uuid4().hex[:6]}").forget(subject="nobody")
    assert report.facts == 0 and report.erased and report.pending_erase == 0


def test_a_forget_inside_a_transaction_is_erased_after_its_commit(erasable: Store) -> None:
    mem = Memory(erasable, scope="default")
    needles = seed(mem, "id")
    with erasable.transaction():
        report = forget(mem, "id", needles)
        assert report.facts == 1 and not report.erased  # nothing can be erased before the commit
    assert erasable.pending_erase() == 0
    assert found(erasable, needles) == {}

    fact = mem.remember("Qorbington hosts the Zyxwvut festival").fact
    assert fact is not None
    with pytest.raises(RuntimeError), erasable.transaction():
        mem.forget(id=fact.id)
        raise RuntimeError("roll back")
    assert erasable.pending_erase() == 0 and mem.get(fact.id).id == fact.id


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_forget_by_turn_id_erases_the_ingest_record(backend: str, tmp_path: Path) -> None:
    """Ingest keeps a record of each episode (for resume) naming its turn ids: forgetting a
    turn takes that record, and the erase leaves the turn id in no file (issue 24: on
    PostgreSQL the record's table was not rewritten)."""
    from credo.extract.base import Turn
    from credo.ingest import ingest

    store = make_store(backend, tmp_path)
    # both backends have it; the erase waits only while an older snapshot may see the
    # forgotten rows (on a shared test server another worker's import or index build
    # can hold one for seconds), so a long limit costs nothing when none does
    setattr(store, "erase_wait", 30.0)  # noqa: B010
    try:
        mem = Memory(store, scope="default")
        turn_id = "turn-qxjvwz-" + uuid.uuid4().hex[:8]
        ingest(mem, [Turn(turn_id, "user", TEXT, 1_700_000_000.0, episode="ep-qxjvwz")])
        needles = {"turn id": turn_id.encode()}
        assert found(store, needles)
        report = mem.forget(episode=turn_id)
        assert report.ingest_episodes == 1 and report.erased and report.pending_erase == 0
        assert found(store, needles) == {}
    finally:
        drop_store(store)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_forget_by_subject_takes_every_fact_that_names_them(backend: str, tmp_path: Path) -> None:
    """A person who asks to be forgotten is forgotten in every role: a fact about someone
    else that names them ("Sanna is married to Zyxwvut") goes too, and the inspector's
    preview lists it (issue 24)."""
    from credo.ui.queries import forget_preview

    store = make_store(backend, tmp_path)
    try:
        mem = Memory(store, scope="default")
        mem.alias_add("Zy", "zyxwvut")
        kept = [
            mem.remember("Anna lives in Oslo").fact,
            mem.remember("Zyxwvutson lives in Bergen").fact,  # another word: kept
            mem.remember("Anna 100% likes under_scores").fact,  # LIKE's wildcards, literal
        ]
        gone = [
            mem.remember("Zyxwvut lives in Qorbington").fact,
            mem.remember("Sanna is married to Zyxwvut").fact,
            mem.remember("Anna works with zy at Reaktor").fact,  # an alias
            mem.remember("Mia's best friend is Zyxwvut's sister").fact,
        ]
        assert all(f is not None for f in (*kept, *gone))
        preview = forget_preview(mem, "subject", "Zyxwvut")
        assert {f.id for f in preview.named} == {f.id for f in gone if f}
        report = mem.forget(subject="Zyxwvut")
        assert sorted(report.fact_ids) == sorted(f.id for f in gone if f)
        assert sorted(f.id for f in mem.list()) == sorted(f.id for f in kept if f)
        assert report.erased
        assert found(store, {"a": b"married to zyxwvut", "b": b"works with zy at"}) == {}
    finally:
        drop_store(store)
