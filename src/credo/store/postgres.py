"""The scale-out store: PostgreSQL with pgvector (HNSW, cosine) and a tsvector column.

Many processes and machines share one database. Writers on one (subject, predicate) key
serialise on a transaction-scoped advisory lock, so two of them never both decide "new"
for one claim; everything else relies on row locks and READ COMMITTED, where each
statement sees what had committed when it began (so a writer that waited for the key lock
reads what the writer before it stored).

Locks (two-int advisory locks, so they cannot collide with an application's bigint ones):

* (_LOCK_SETUP, 0), session-scoped: creating the extension, the schema, migrations and
  HNSW indexes; database-wide because the extension is.
* (_LOCK_SCOPE, hash(scope)): shared by writers on a key, exclusive for writers without
  a key (matched by vectors against every fact of the scope) and for `forget`.
* (_LOCK_KEY, hash(scope, subject, predicate)): exclusive, per key.
* (_LOCK_OWN_INDEX, hash(scope)), session-scoped, tried and never waited for: building or
  dropping a scope's own HNSW index (`OWN_INDEX_FROM`), so that one process does it.

Every order of acquisition is scope before key, so these locks alone cannot deadlock.
The hashed text starts with the schema, so stores in separate schemas do not wait for each
other.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import select
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.adapt import Loader
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import Format
from psycopg.rows import TupleRow

from ..embed import Embedder
from ..fact import Fact
from . import sql as q
from .base import (
    ForgetReport,
    StoreError,
    StoreUnavailable,
    Vector,
    check_scope,
)
from .postgres_schema import (
    MIGRATIONS,
    PRIVATE_COLUMNS,
    VEC_EXPR,
    own_index_name,
    own_index_sql,
    vector_index_name,
    vector_index_sql,
)
from .sql import POSTGRES, nul
from .sqlstore import SQLStore
from .words import RARE_WORDS_FROM as _RARE_WORDS_FROM
from .words import WordCounts, query_words

Conn = psycopg.Connection[TupleRow]

_LOCK_SETUP = 0x63726564  # "cred"
_LOCK_SCOPE = _LOCK_SETUP + 1
_LOCK_KEY = _LOCK_SETUP + 2
_LOCK_OWN_INDEX = _LOCK_SETUP + 3

_FACT_TYPES = [
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "text",
    "float8",
    "text",
    "text[]",
    "text",
    "float8",
    "float8",
    "float8",
    "int4",
    "float8",
]
_SCHEMA_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
_EMBED_BATCH = 1024
#: scopes whose size class a process keeps, at most
_SIZES_KEPT = 100_000
#: a transaction that adds at least this many facts, and at least a quarter as many as the
#: table held, drops the HNSW index and rebuilds it once at commit: building is about five
#: times cheaper per row than inserting into the graph row by row
_BULK_MIN = 1000

MISSING_EXTENSION = (
    "CREATE EXTENSION {ext} failed: install pgvector on the server (Debian: "
    "postgresql-15-pgvector, or bash scripts/ci-postgres.sh), or have a superuser run "
    "CREATE EXTENSION {ext} in the database {db}"
)


#: a scope with fewer vectors than this is ranked exactly: every row of it, found by the
#: scope's btree. That is what exact search returns, and what a small tenant of a large
#: table needs: the HNSW walk with a scope filter passes over the other tenants' rows
#: (at max_scan_tuples it gives up, short of k). Each row is a heap page read at random
#: (rows of many scopes interleave), so it stays small: p50 2.0 ms for a scope of 1,000
#: in a table of 100k, 30 ms for 5,000, 53 ms for 10,000 (bench_pg_options --scopes).
#: 1,000 at first; up to OWN_INDEX_FROM, where a scope gets a graph of its own, exact search
#: took 1.9-2.4 ms at 1k-2k rows in a table of 138k, where the shared walk took 7-22 ms
#: for 0.96-0.97 of the exact top 10 (bench_large_tenant; "A large tenant among many")
EXACT_BELOW = 2_000
#: from EXACT_BELOW on, the HNSW index hands over at least this many rows, ranked again
#: exactly (an iterative scan walks on past `ef_search` to find them). 0: the walk's own
#: top k. With the float `vector` index the walk's distances are exact already: in one
#: scope of 100k a shortlist of 100 found what ef_search alone found, 0.4 ms later, and one
#: of 400 past ef_search cost 5-11 ms (docs/benchmarks.md, issue 27); a larger
#: `ef_search` is the cheaper way to a longer candidate list
SHORTLIST = 0
#: the HNSW candidate list (`hnsw.ef_search`) grows with the graph: one candidate per
#: EF_ROWS vectors in the table, from EF_SEARCH_MIN to pgvector's limit, EF_SEARCH_MAX.
#: Measured on clusters of near-duplicate facts (a graph's hard case; at 300k of them the
#: old index found what 1M real sentences found: 0.71 of the exact top 10 at 100, 0.88 at
#: 400), with HNSW_EF_CONSTRUCTION 200: top-10 overlap with exact search 0.989 / 1.0 at
#: ef_search 100 / 200 at 100k; 0.887 / 0.929 / 0.954 / 0.974 at 100 / 200 / 400 / 800 at
#: 300k (docs/benchmarks.md, issue 27). One per 750 at first; denser clusters (a tenant
#: of 100k or 50k rows, ~50 near-duplicates of each sentence, in a graph of its own) found
#: 0.923-0.956 at 133 (min 0.0) and 0.973-0.99 at 100 for 50k; 0.979 / 0.99 at 200 / 400
#: for 100k, 1.0 at 200 for 50k: one per 250 (100 to 25k rows, 400 at 100k, pgvector's
#: limit from 250k: what 1M already took; "A large tenant among many")
EF_SEARCH_MIN = 100
EF_ROWS = 250
EF_SEARCH_MAX = 1000


#: a scope with at least this many vectors, holding less than OWN_INDEX_SHARE of the
#: table's, gets an HNSW index of its own rows (a partial index, `postgres_schema.
#: own_index_sql`), built CONCURRENTLY after the commit that made it that large (or, in a
#: store from before, after its next write in a process), and dropped when a forget leaves
#: it fewer than half as many. The shared graph walked with the scope filter passes over
#: other tenants' rows and stops short of exact: a tenant of 20,000 among 1,000 tenants of
#: 100 found 0.92-0.97 of the exact top 10; its own graph finds what a one-scope table of
#: its size finds (docs/benchmarks.md, issue 27, "A large tenant among many")
OWN_INDEX_FROM = 2_000
#: a scope holding this share of the table or more is searched in the shared graph: the
#: scope filter passes most rows, and its own index would be a second copy of the graph
OWN_INDEX_SHARE = 0.5
#: at most this many scopes get an index of their own: the planner opens every index of
#: the table for each search, and each insert tests every partial index's predicate. With
#: 500 more partial indexes a small scope's search took 0.66 -> 1.8 ms p50, an insert 4 ->
#: 8 ms; with 100, 0.67 -> 0.93 and 4.0 -> 4.0 (bench_large_tenant --extra-own)
OWN_INDEXES_MAX = 100


#: a concurrent build waits for every transaction of the database older than it, at most
#: `own_index_wait` for each; one open longer (an import, a dump, another index build)
#: makes it give up and leaves the index invalid. It was built again only at the scope's
#: next write: a read-mostly tenant of 100k stayed on the shared graph, 0.856 of the exact
#: top 10 and 128 ms recall p50 among 10,000 tenants (docs/benchmarks.md, "PostgreSQL at
#: 1M and 10,000 tenants"). A search that finds the scope's index invalid starts the build
#: again in the background, at most once per this many seconds per scope and process: a
#: build of 100k rows takes minutes, and may give up again while the old transaction lasts
OWN_INDEX_RETRY = 600.0


def ef_for_rows(rows: int) -> int:
    """The HNSW candidate list for a graph of `rows` vectors."""
    return max(EF_SEARCH_MIN, min(EF_SEARCH_MAX, int(rows) // EF_ROWS))


#: seconds a process trusts what it learnt of a scope's size: a scope that crossed
#: EXACT_BELOW meanwhile is still answered right, exactly (slower) or by the index
SIZE_TTL = 60.0


def vector_query(
    dim: int, *, with_vectors: bool = False, exact: bool = False, shortlist: int = SHORTLIST
) -> str:
    """Nearest vectors of one scope, with each hit's insertion order (to break ties as
    SQLite does), and with `with_vectors` the stored vector itself: named parameters `q`
    (the query vector), `scope` and `k`.

    `exact`: every row of the scope ranked, found through the scope's btree; the distance
    is spelled on the bare column, which the HNSW index cannot serve, so the planner never
    walks the graph for a small scope (a small tenant never pays for a large one's graph).
    Otherwise the HNSW index's first `shortlist` rows (at least k), ranked again, and the
    best k of them."""
    dim = int(dim)
    vec = ", vec" if with_vectors else ""
    where = f"FROM vectors WHERE dim = {dim} AND scope = %(scope)s ORDER BY distance"
    if exact:
        nearest = (
            f"SELECT fact_id{vec}, vec <=> %(q)s::vector({dim}) AS distance {where} LIMIT %(k)s"
        )
    else:
        # the expression and `dim = N` are spelled exactly as in the partial index, with N
        # a literal, or the planner could not use the index
        # a plain k when there is no shortlist: the planner costs the walk by its LIMIT,
        # and reads no value out of an expression
        limit = f"greatest(%(k)s, {int(shortlist)})" if shortlist > 0 else "%(k)s"
        walk = (
            f"SELECT fact_id, vec, {VEC_EXPR.format(dim=dim)} <=> %(q)s::vector({dim}) "
            f"AS distance {where} LIMIT {limit}"
        )
        # ranked again on a distance computed out here: ordered by the walk's own column,
        # the planner would trust the walk's order and stop reading after k rows
        nearest = (
            f"SELECT fact_id{vec}, vec <=> %(q)s::vector({dim}) AS distance FROM ({walk}) w "
            "ORDER BY distance LIMIT %(k)s"
        )
    vec = ", v.vec" if with_vectors else ""
    return (
        f"SELECT v.fact_id, v.distance, f.seq{vec} FROM ({nearest}) v "
        "JOIN facts f ON f.id = v.fact_id"
    )


class _RawVectorLoader(Loader):
    """A `vector` column as its binary wire form, left for `_unpack_vectors` to read
    all at once: pgvector's own loader makes a `Vector` object per row and numpy then
    converts each row's byte order, 3 ms for a recall's 200 vectors at 1M facts, held
    under the GIL while the query embedding waits for it."""

    format = Format.BINARY

    def load(self, data: Any) -> bytes:
        return bytes(data)


def _unpack_vectors(raws: Sequence[bytes]) -> list[Vector]:
    """Vectors from pgvector's binary form (int16 dim, int16 unused, then dim big-endian
    float32 values): one conversion for all rows of one size."""
    if not raws:
        return []
    width = len(raws[0])
    if width >= 4 and all(len(r) == width for r in raws):
        dim = (width - 4) // 4
        matrix = np.frombuffer(b"".join(raws), dtype=">f4").reshape(len(raws), dim + 1)
        return list(matrix[:, 1:].astype(np.float32))
    return [np.frombuffer(r, dtype=">f4", offset=4).astype(np.float32) for r in raws]


def _tsquery(words: int) -> str:
    # one plainto_tsquery per word, each a bound parameter: no user text is ever parsed
    # as tsquery syntax, so nothing anyone types can raise
    return " || ".join(["plainto_tsquery('english'::regconfig, %s)"] * words)


def lexical_query(
    words: int, required: int = 0, *, with_vectors: bool = False, small: bool = False
) -> str:
    """Full-text match of `words` words OR-ed: parameters (each word, scope, k). With
    `required` (parameters: each word, each required word, scope, k), a row must hold one
    of the required words, and every word still scores it. With `with_vectors`, a third
    column holds each hit's stored vector (NULL for a fact without one).

    `small`: the scope holds few facts; they are read through the scope's btree and each
    tested, never through the full-text index, which holds the whole table's rows for a
    common word (a tenant of 100 facts among 230,000: 37,863 index entries read and
    ANDed with the scope's 100, 4.6 ms, against 0.1 ms for the 100 rows)."""
    rare = f", {_tsquery(required)} AS r" if required else ""
    facts = "facts f"
    scope_is = "f.scope = %s AND "
    if small:  # OFFSET 0: planned on its own, so its rows come from the scope's btree
        facts = "(SELECT id, tsv, seq FROM facts WHERE scope = %s OFFSET 0) f"
        scope_is = ""
    query = (
        "SELECT f.id, ts_rank_cd(f.tsv, q.q) AS score, f.seq "
        f"FROM (SELECT {_tsquery(words)} AS q{rare}) q, {facts} "
        f"WHERE {scope_is}f.tsv @@ q.{'r' if required else 'q'} "
        "ORDER BY score DESC, f.seq LIMIT %s"
    )
    if not with_vectors:
        return query
    return (
        f"SELECT l.id, l.score, v.vec FROM ({query}) l "
        "LEFT JOIN vectors v ON v.fact_id = l.id ORDER BY l.score DESC, l.seq"
    )


#: facts in the sample that estimates how many hold a query word (`_count_words`)
COUNT_SAMPLE = 3000

#: tables with fewer rows than this rank every row that matches any query word (here so
#: a test can lower it for this backend)
RARE_WORDS_FROM = _RARE_WORDS_FROM

#: the tables `erase` may rewrite, in the order it rewrites them (ingest_episodes: the
#: turn ids of each ingested episode, kept for resume)
ERASABLE = (*PRIVATE_COLUMNS, "fact_events", "ingest_episodes")

#: whether a session, prepared transaction or replication slot of this database may still
#: see rows deleted by transaction %(x)s (an xid); for servers before 15, where the probe's
#: statistics are not current (see `PostgresStore._older_snapshots`)
OLDER_SNAPSHOTS = """
SELECT EXISTS (
    SELECT 1 FROM pg_stat_activity
    WHERE pid <> pg_backend_pid() AND datname = current_database()
      AND NOT (backend_type = 'autovacuum worker' AND query LIKE 'autovacuum: VACUUM%%')
      AND (age(backend_xmin) >= age(%(x)s::xid) OR age(backend_xid) >= age(%(x)s::xid))
) OR EXISTS (
    SELECT 1 FROM pg_prepared_xacts
    WHERE database = current_database() AND age(transaction) >= age(%(x)s::xid)
) OR EXISTS (
    SELECT 1 FROM pg_replication_slots
    WHERE (database IS NULL OR database = current_database())
      AND age(xmin) >= age(%(x)s::xid)
)
"""


_PASSWORD_IN_URL = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")
_PASSWORD_PARAM = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]+)", re.IGNORECASE)


def _clean(exc: BaseException) -> str:
    """An error's text for a message: one line, and no password a URL may have carried."""
    text = _PASSWORD_IN_URL.sub(r"\1***@", " ".join(str(exc).split()))
    return _PASSWORD_PARAM.sub(r"\1***", text)


def _describe(url: str) -> str:
    """Where a URL points, for messages: never the password."""
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error:
        return "<an unreadable PostgreSQL URL>"
    host = params.get("host") or "localhost"
    port = params.get("port") or "5432"
    user = f"{params['user']}@" if params.get("user") else ""
    return f"{user}{host}:{port}/{params.get('dbname') or ''}"


#: SQLSTATE classes and codes that mean the connection, not the statement, failed: a
#: connection exception, the server shutting down or crashing, or not accepting yet
_LOST_STATES = ("08", "57P01", "57P02", "57P03")


def _connection_lost(exc: BaseException, conn: Conn | None) -> bool:
    """Whether `exc` says the connection to the server is gone (restart, crash, network),
    as opposed to an error of the statement."""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = getattr(exc, "sqlstate", None) or ""
    return (
        state.startswith(_LOST_STATES)
        or conn is None
        or conn.closed
        or conn.broken
        or isinstance(exc, psycopg.errors.ConnectionTimeout)
    )


def _idle_and_dead(conn: Conn) -> bool:
    """Whether an idle connection is known or suspected dead without a round trip: psycopg
    marked it, or the server wrote to it unasked (a server that shuts down sends a last
    error and closes the socket). A suspect connection is then pinged."""
    if conn.closed or conn.broken:
        return True
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return True
    if not readable:
        return False
    try:
        conn.execute("SELECT 1")
        return False
    except psycopg.Error:
        return True


def _reconnecting(method: Any) -> Any:
    """A store method that, outside a transaction, survives a lost connection: what
    failed on it never committed (a read, or a write whose own transaction rolled back),
    so it runs again once on a new connection. Inside a caller's transaction, and when a
    commit's outcome is unknown, the failure is the caller's: `StoreUnavailable`."""

    @functools.wraps(method)
    def wrapper(self: PostgresStore, *args: Any, **kwargs: Any) -> Any:
        if self._depth or threading.get_ident() == self._tx_thread:
            return method(self, *args, **kwargs)
        self._revive()
        try:
            return method(self, *args, **kwargs)
        except StoreUnavailable as exc:
            if not exc.retry:
                raise
        except psycopg.OperationalError as exc:
            if _connection_lost(exc, self._conn):
                self._revive(force=True)
            elif self._reader is not None and _connection_lost(exc, self._reader):
                with self._reader_lock:  # the next search opens a new one
                    with contextlib.suppress(psycopg.Error):
                        self._reader.close()
                    self._reader = None
            else:
                raise
        self._revive()
        try:
            return method(self, *args, **kwargs)
        except psycopg.OperationalError as exc:
            if _connection_lost(exc, self._conn) or _connection_lost(exc, self._reader):
                raise self._unavailable(exc) from exc
            raise

    return wrapper


class PostgresStore(SQLStore):
    """`Store` on PostgreSQL + pgvector. `schema` (created when missing) keeps one credo
    database apart from others in the same PostgreSQL database, as the tests do."""

    #: the extension providing the `vector` type (a class attribute so tests can break it)
    extension = "vector"
    #: HNSW candidate list: higher is slower and closer to exact; None: by the table's
    #: size (`ef_for_rows`); a number fixes it (`set_ef_search`)
    ef_search: int | None = None
    #: scopes with fewer vectors are ranked exactly (see `EXACT_BELOW`)
    exact_below = EXACT_BELOW
    #: a large scope among others gets an HNSW index of its own from this many vectors
    #: (see `OWN_INDEX_FROM`); 0: never
    own_index_from = OWN_INDEX_FROM
    #: seconds building or dropping a scope's own index waits for each lock (other
    #: sessions' transactions on the table) before it gives up, to try again later
    own_index_wait = 60.0
    #: seconds between two builds of a scope's own index that a search starts, when it
    #: finds the index left invalid by a build that gave up (see `OWN_INDEX_RETRY`)
    own_index_retry = OWN_INDEX_RETRY
    #: build and drop scopes' own indexes in a thread of their own (False: in the thread
    #: whose commit made them due, before its `transaction()` returns). `close` and
    #: `wait_for_indexes` wait for that thread
    own_index_background = True
    #: rows the HNSW walk hands over for exact ranking (see `SHORTLIST`)
    shortlist = SHORTLIST
    concurrent_nearest = True
    dialect = POSTGRES
    text_index_in_row = True  # the tsvector column
    #: memory for an HNSW build; when the graph does not fit, pgvector builds far slower
    build_memory = "512MB"
    #: whether `forget` runs the erase step itself (False: it records it as pending, and
    #: `erase()` completes it, e.g. from a scheduled `credo erase`)
    erase_on_forget = True
    #: seconds the erase step waits for older snapshots and for each table's lock before
    #: it is left pending
    erase_wait = 5.0

    def __init__(self, url: str, embedder: Embedder, *, schema: str | None = None) -> None:
        super().__init__(embedder)
        if schema is not None and not _SCHEMA_NAME.match(schema):
            raise StoreError(
                f"invalid schema name {schema!r}: use a letter or '_' and then up to 62 "
                "letters, digits or '_'"
            )
        self.url = url
        self.schema = schema
        self.where = _describe(url) + (f" (schema {schema})" if schema else "")
        self._lock = threading.RLock()
        self._depth = 0
        self._words = WordCounts()  # facts holding each word, to the cutoff (_rare_words)
        # bulk-load state of the open transaction (see `_BULK_MIN`)
        self._added = 0
        self._rows_before: int | None = None
        self._rebuild: set[int] = set()
        self._bulk_scopes: set[str] = set()
        self._others: bool | None = None  # other scopes' vectors present (`_defer_index`)
        self._erase_due = False  # a forget inside a transaction: erase after its commit
        self._reader: Conn | None = None  # for vector searches (see `_search_conn`)
        # scope -> (its facts counted up to a cap, when) (see `_scope_rows`)
        self._scope_sizes: dict[str, tuple[int, float]] = {}
        self._rows_seen: tuple[int, float] | None = None  # (vectors in the table, when)
        # scopes whose vectors the open transaction added (count) or forgot (-1), and
        # those committed and not yet looked at for an own index (`_own_indexes_due`)
        self._written: dict[str, int] = {}
        self._due: dict[str, int] = {}
        self._due_lock = threading.Lock()
        # scope -> build (True) or drop, for the worker thread (`_own_index_ddl_soon`)
        self._ddl_due: dict[str, bool] = {}
        self._ddl_thread: threading.Thread | None = None
        # scope -> [vectors counted (capped), when, added since] (`_own_index_check`)
        self._own_checked: dict[str, list[float]] = {}
        # scope -> (rows of its own valid HNSW index, 0 when none; when looked up)
        self._own_rows: dict[str, tuple[int, float]] = {}
        #: when a search last started the build of a scope's invalid own index
        self._own_retried: dict[str, float] = {}
        # the hnsw.ef_search each connection's session has (`_use_ef_search`)
        self._ef_set: weakref.WeakKeyDictionary[Conn, int] = weakref.WeakKeyDictionary()
        self._reader_lock = threading.Lock()
        self._search_path: list[str] = []
        self._tx_thread: int | None = None  # the thread inside the open transaction
        self._conn = self._connect(url)
        try:
            self._setup()
            self._check_model()
        except psycopg.Error as exc:
            self._conn.close()
            raise StoreError(
                f"cannot set up credo in PostgreSQL at {self.where}: {_clean(exc)}"
            ) from exc
        except BaseException:
            self._conn.close()
            raise

    # -- setup ---------------------------------------------------------------------------
    def _connect(self, url: str) -> Conn:
        try:
            params = conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise StoreError(f"cannot read the PostgreSQL URL: {_clean(exc)}") from exc
        extra: dict[str, Any] = {}
        if "connect_timeout" not in params:
            extra["connect_timeout"] = 10  # libpq's default is to wait forever
        if "application_name" not in params:
            extra["application_name"] = "credo"
        try:
            conn = psycopg.connect(url, autocommit=True, **extra)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to PostgreSQL at {_describe(url)}: {_clean(exc)}"
            ) from exc
        # explicit, because a server default of REPEATABLE READ would freeze a writer's
        # snapshot before it got the key lock, and it would decide on stale facts
        conn.isolation_level = psycopg.IsolationLevel.READ_COMMITTED
        return conn

    def _setup(self) -> None:
        c = self._conn
        with self._advisory(_LOCK_SETUP, 0):
            ext_schema = self._ensure_extension()
            if self.schema is not None:
                c.execute(
                    sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema))
                )
                home = self.schema
            else:
                row = c.execute("SELECT current_schema()").fetchone()
                if row is None or row[0] is None:
                    raise StoreError(
                        f"no schema to create credo's tables in at {self.where}: the "
                        "search_path names none that exists; pass schema=..."
                    )
                home = str(row[0])
            self._search_path = [home] if home == ext_schema else [home, ext_schema]
            self._set_search_path(c)
            self._home = home
            self.migrate()
            self._ensure_vector_index(self.embedder.dim)
        self._configure(c)

    def _set_search_path(self, conn: Conn) -> None:
        conn.execute(
            sql.SQL("SET search_path TO {}").format(
                sql.SQL(", ").join(sql.Identifier(s) for s in self._search_path)
            )
        )

    def _configure(self, conn: Conn) -> None:
        """A connection's session as credo's queries need it (its search_path set)."""
        from pgvector.psycopg import register_vector

        register_vector(conn)
        # for the session, not SET LOCAL: searches outside a transaction need it too
        ef = EF_SEARCH_MIN if self.ef_search is None else int(self.ef_search)
        conn.execute(sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(ef)))
        self._ef_set[conn] = ef
        # without it a scope filter can starve the result: HNSW hands back the k nearest of
        # every scope and the filter leaves fewer than k
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        # credo's queries are short; on a large table their estimates pass JIT's threshold
        # and compiling would take longer than running them
        conn.execute("SET jit = off")

    def _unavailable(self, exc: BaseException, *, committing: bool = False) -> StoreUnavailable:
        what = (
            "the connection was lost while the change committed: it may or may not be "
            "stored (look before you repeat it)"
            if committing
            else "nothing of the failed step was stored"
        )
        return StoreUnavailable(
            f"PostgreSQL at {self.where} cannot be reached ({_clean(exc)}): {what}. "
            "Check that the server is running, then try again"
        )

    def _revive(self, *, force: bool = False) -> None:
        """A new connection in place of a dead one (`force`: of one that just failed),
        set up as the first was; the reader's is replaced when next used. Raises
        `StoreUnavailable` when the server cannot be reached."""
        with self._lock:
            if self._depth or not (force or _idle_and_dead(self._conn)):
                return
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            with self._reader_lock:
                if self._reader is not None:
                    with contextlib.suppress(psycopg.Error):
                        self._reader.close()
                    self._reader = None
            try:
                conn = self._connect(self.url)
            except StoreError as exc:
                raise self._unavailable(exc.__cause__ or exc) from exc
            try:
                self._set_search_path(conn)
                self._configure(conn)
            except psycopg.Error as exc:
                conn.close()
                raise self._unavailable(exc) from exc
            self._conn = conn

    def set_ef_search(self, value: int) -> None:
        """The HNSW candidate list of this store's searches from now on (higher: slower
        and closer to exact), instead of one by the table's size."""
        if int(value) < 1:
            raise StoreError("ef_search must be at least 1")
        self.ef_search = int(value)
        with self._reader_lock:
            for conn in (self._conn, self._reader):
                if conn is not None:
                    conn.execute(
                        sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(self.ef_search))
                    )
                    self._ef_set[conn] = self.ef_search

    def _use_ef_search(self, conn: Conn, rows: int | None = None) -> None:
        """Set the HNSW candidate list for a search of the graph on `conn`: the fixed one,
        or the one for the graph's size (`rows`, or the table's). A statement only when it
        changes (inside a transaction for that transaction alone, which a rollback would
        undo)."""
        if self.ef_search is not None:
            ef = self.ef_search
        else:
            ef = ef_for_rows(self._vector_rows(conn) if rows is None else rows)
        if self._ef_set.get(conn) == ef:
            return
        if self._depth:
            conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef)))
            return
        conn.execute(sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(ef)))
        self._ef_set[conn] = ef

    def _vector_rows(self, conn: Conn, *, fresh: bool = False) -> int:
        """The planner's idea of how many vectors the table holds, kept SIZE_TTL seconds
        (`fresh`: looked up again now)."""
        now = time.monotonic()
        if not fresh and self._rows_seen is not None and now - self._rows_seen[1] < SIZE_TTL:
            return self._rows_seen[0]
        row = conn.execute(
            "SELECT greatest(reltuples, pg_stat_get_live_tuples(oid)) FROM pg_class "
            "WHERE oid = 'vectors'::regclass"
        ).fetchone()
        rows = int(row[0]) if row and row[0] and row[0] > 0 else 0
        self._rows_seen = (rows, now)
        return rows

    def _search_conn(self) -> Conn:
        """The connection vector searches run on outside a transaction: one of their own,
        opened on first use, so that recall's vector search and its full-text search run
        at once on the server (on one connection they would take turns: at 1M facts the
        vector query is 6 ms of a recall). Inside a transaction the transaction's own
        connection, whose reads see its writes."""
        if self._depth:
            return self._conn
        with self._reader_lock:
            if self._reader is None or _idle_and_dead(self._reader):
                if self._reader is not None:
                    with contextlib.suppress(psycopg.Error):
                        self._reader.close()
                reader = self._connect(self.url)
                try:
                    self._set_search_path(reader)
                    self._configure(reader)
                except BaseException:
                    reader.close()
                    raise
                self._reader = reader
            return self._reader

    def _ensure_extension(self) -> str:
        c = self._conn
        find = (
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n "
            "ON n.oid = e.extnamespace WHERE e.extname = %s"
        )
        row = c.execute(find, (self.extension,)).fetchone()
        if row is None:
            try:
                c.execute(
                    sql.SQL("CREATE EXTENSION IF NOT EXISTS {}").format(
                        sql.Identifier(self.extension)
                    )
                )
            except psycopg.Error as exc:
                db = _describe(self.url).rpartition("/")[2] or "(default)"
                raise StoreError(
                    MISSING_EXTENSION.format(ext=self.extension, db=db) + f" ({_clean(exc)})"
                ) from exc
            row = c.execute(find, (self.extension,)).fetchone()
            if row is None:
                raise StoreError(MISSING_EXTENSION.format(ext=self.extension, db="?"))
        return str(row[0])

    def _ensure_vector_index(self, dim: int) -> None:
        if not self._has_index(vector_index_name(dim)):
            self._build_vector_index(dim)

    def _build_vector_index(self, dim: int) -> None:
        try:
            statement = vector_index_sql(dim)
        except ValueError as exc:
            raise StoreError(str(exc)) from exc
        with self.transaction():
            self._conn.execute(
                sql.SQL("SET LOCAL maintenance_work_mem = {}").format(
                    sql.Literal(self.build_memory)
                )
            )
            self._conn.execute(statement)
            # ANALYZE samples an expression index's values too: never the vectors
            self._conn.execute(
                sql.SQL("ALTER INDEX {} ALTER COLUMN 1 SET STATISTICS 0").format(
                    sql.Identifier(self._home, vector_index_name(dim))
                )
            )

    def _defer_index(self, added: Sequence[Fact]) -> None:
        """Count facts bulk-added in this transaction; past the threshold, drop the HNSW
        index now and let the commit rebuild it (see `_BULK_MIN`), but only while the
        table holds no other scope's vectors. Dropping locks the vectors table until
        commit: every search waits for the import to finish, so with other tenants
        present the import inserts into the graph row by row (slower for it, and no
        stall for them)."""
        dim = int(self.embedder.dim)
        if self._rows_before is None:
            row = self._conn.execute(
                "SELECT count(*) FROM vectors WHERE dim = %s", (dim,)
            ).fetchone()
            self._rows_before = int(row[0]) if row else 0
        self._added += len(added)
        self._bulk_scopes.update(f.scope for f in added)
        if (
            dim not in self._rebuild
            and self._added >= _BULK_MIN
            and self._added * 4 >= self._rows_before
            and not self._other_scopes_present(dim)
        ):
            self._conn.execute(
                sql.SQL("DROP INDEX IF EXISTS {}").format(
                    sql.Identifier(self._home, vector_index_name(dim))
                )
            )
            self._rebuild.add(dim)

    def _other_scopes_present(self, dim: int) -> bool:
        """Whether the vectors table holds a vector of a scope this transaction's bulk
        load did not write to (one look per load, when it first passes the threshold)."""
        if self._others is None:
            row = self._conn.execute(
                "SELECT EXISTS (SELECT 1 FROM vectors WHERE dim = %s AND NOT scope = ANY(%s))",
                (dim, sorted(self._bulk_scopes)),
            ).fetchone()
            self._others = bool(row and row[0])
        return self._others

    def rebuild_vector_index(self) -> None:
        """Build the HNSW index again, with this version's graph parameters
        (`postgres_schema.HNSW_M`, `HNSW_EF_CONSTRUCTION`): an index an earlier version
        built keeps its graph until then. The vectors table is locked while it builds
        (minutes at 1M facts)."""
        dim = int(self.embedder.dim)
        with self.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (_LOCK_SETUP,))
            self._conn.execute(
                sql.SQL("DROP INDEX IF EXISTS {}").format(
                    sql.Identifier(self._home, vector_index_name(dim))
                )
            )
            self._rebuild.add(dim)  # built at commit

    def vector_index_options(self) -> list[str]:
        """The HNSW index's build parameters, as PostgreSQL holds them ("m=16", ...)."""
        row = self._conn.execute(
            "SELECT c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = %s",
            (self._home, vector_index_name(int(self.embedder.dim))),
        ).fetchone()
        return [str(o) for o in row[0]] if row and row[0] else []

    def _has_index(self, name: str) -> bool:
        row = self._conn.execute(
            "SELECT 1 FROM pg_indexes WHERE schemaname = %s AND indexname = %s",
            (self._home, name),
        ).fetchone()
        return row is not None

    @contextmanager
    def _advisory(self, key1: int, key2: int) -> Iterator[None]:
        """A session-scoped advisory lock (it must outlive the transactions it spans)."""
        with self._lock:
            self._conn.execute("SELECT pg_advisory_lock(%s, %s)", (key1, key2))
            try:
                yield
            finally:
                if not self._conn.closed and not self._conn.broken:
                    self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (key1, key2))

    def migrate(self) -> list[str]:
        """Apply pending migrations, each in its own transaction with its record."""
        c = self._conn
        with self._advisory(_LOCK_SETUP, 0):
            c.execute(
                "CREATE TABLE IF NOT EXISTS migrations ("
                "seq BIGINT GENERATED ALWAYS AS IDENTITY, name TEXT PRIMARY KEY, "
                "applied_at DOUBLE PRECISION NOT NULL)"
            )
            applied = {str(r[0]) for r in c.execute("SELECT name FROM migrations")}
            try:
                pending = list(MIGRATIONS.pending(applied))
            except RuntimeError as exc:
                raise StoreError(str(exc)) from exc
            done = []
            for name, step in pending:
                with self.transaction():
                    step(c)
                    c.execute(
                        "INSERT INTO migrations (name, applied_at) VALUES (%s, %s)",
                        (name, time.time()),
                    )
                done.append(name)
            return done

    def applied_migrations(self) -> list[str]:
        return [str(r[0]) for r in self._conn.execute("SELECT name FROM migrations ORDER BY seq")]

    def drop_schema(self) -> None:
        """Drop this store's schema and everything in it (for tests and teardown)."""
        if self.schema is None:
            raise StoreError("drop_schema needs a store opened with schema=...")
        self.wait_for_indexes()
        with self._lock:
            self._conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema))
            )

    def vacuum(self) -> None:
        """Reclaim the space of deleted rows now rather than at autovacuum's pace (after a
        large `forget`). Cannot run inside a transaction."""
        with self._lock:
            if self._depth:
                raise StoreError("vacuum cannot run inside a transaction")
            self._conn.execute(
                "VACUUM facts, vectors, provenance, lineage, conflicts, rejections, aliases, rules"
            )

    # -- transactions --------------------------------------------------------------------
    @contextmanager
    def _outermost(self) -> Iterator[None]:
        """Begin the outermost transaction; commit it, or roll it back (`transaction`
        holds the lock)."""
        self._revive()  # a connection the server dropped while idle: a new one
        self._depth = 1
        self._tx_thread = threading.get_ident()
        added = 0
        written: dict[str, int] = {}
        committing = False
        conn = self._conn
        try:
            with conn.transaction():
                yield
                for dim in sorted(self._rebuild):
                    self._build_vector_index(dim)
                added = self._added
                written = dict(self._written)
                committing = True
        except BaseException as exc:
            self._erase_due = False
            if _connection_lost(exc, conn):
                # rolled back by the server (or, when committing, unknown): the
                # caller's error, and a new connection for whatever comes next
                unavailable = self._unavailable(exc, committing=committing)
                unavailable.retry = not committing
                self._depth = 0
                with contextlib.suppress(StoreError):
                    self._revive(force=True)
                raise unavailable from exc
            raise
        finally:
            self._depth = 0
            self._tx_thread = None
            self._added = 0
            self._rows_before = None
            self._rebuild.clear()
            self._bulk_scopes.clear()
            self._others = None
            self._written.clear()
        if written:  # looked at for an own index once the lock is released (`transaction`)
            with self._due_lock:
                for scope, n in written.items():
                    was = self._due.get(scope, 0)
                    self._due[scope] = -1 if n < 0 or was < 0 else was + n
        if added >= _BULK_MIN:  # a bulk load, however it was split into put_many calls
            self._refresh_statistics()
        if self._erase_due:  # a forget ran inside this transaction
            self._erase_due = False
            self.erase()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with super().transaction():
            yield
        # after the outermost commit, with the store's lock released: a scope the
        # transaction made large gets its own HNSW index (built in the worker thread, see
        # `own_index_background`), one a forget made small loses it
        if not self._depth and self._due:
            self._own_indexes_due()

    def _ns(self, *parts: str) -> str:
        return "\x1f".join((self._home, *parts))

    def lock_key(self, scope: str, subject: str | None, predicate: str | None) -> None:
        check_scope(scope)
        if not self._depth:
            raise StoreError(
                "lock_key needs an open transaction: call it inside store.transaction()"
            )
        c = self._conn
        if not subject or not predicate:
            c.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOCK_SCOPE, self._ns(scope))
            )
            return
        c.execute(
            "SELECT pg_advisory_xact_lock_shared(%s, hashtext(%s))", (_LOCK_SCOPE, self._ns(scope))
        )
        c.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
            (_LOCK_KEY, self._ns(scope, subject, predicate)),
        )

    # -- statements (for SQLStore) ----------------------------------------------------------
    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._conn.execute(statement, params).fetchall()

    def _run(self, statement: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(statement, params).rowcount

    def _run_many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cur:
            cur.executemany(statement, rows)

    # -- facts ---------------------------------------------------------------------------
    def _insert(self, fact: Fact, vector: Vector | None) -> None:
        self._require_model()
        vec = self._vector(fact, vector)
        c = self._conn
        self._scope_sizes.pop(fact.scope, None)  # counted again at its next search
        self._wrote(fact.scope, 1)
        c.execute(*q.insert_fact(POSTGRES, fact))
        self._write_provenance(fact)
        c.execute(
            "INSERT INTO vectors (fact_id, scope, model, dim, vec) VALUES (%s, %s, %s, %s, %s)",
            (fact.id, fact.scope, self.embedder.name, self.embedder.dim, vec),
        )
        self._stored_model = self.embedder.name

    def put_many(self, facts: Sequence[Fact]) -> None:
        """Bulk insert: new facts go in by binary COPY; known ids take `put`'s path."""
        for fact in facts:
            check_scope(fact.scope)
            q.check_fact_text(fact)
        if not facts:
            return
        c = self._conn
        with self.transaction():
            known = {
                str(r[0])
                for r in c.execute(
                    "SELECT id FROM facts WHERE id = ANY(%s)", (list({f.id for f in facts}),)
                )
            }
            fresh: list[Fact] = []
            again: list[Fact] = []
            for fact in facts:
                if fact.id in known:
                    again.append(fact)
                else:
                    known.add(fact.id)
                    fresh.append(fact)
            if fresh:
                self._require_model()
                self._defer_index(fresh)
                self._copy_new(fresh)
                self._stored_model = self.embedder.name
            for fact in again:
                self.put(fact)

    def _table_rows(self) -> int:
        """The planner's idea of how many facts there are (0 before any statistics)."""
        # the statistics function, not the pg_stat_user_tables view: 0.06 ms, not 0.14
        # (3.3 ms on a new connection's first call)
        row = self._conn.execute(
            "SELECT greatest(reltuples, pg_stat_get_live_tuples(oid)) FROM pg_class "
            "WHERE oid = 'facts'::regclass"
        ).fetchone()
        return int(row[0]) if row and row[0] and row[0] > 0 else 0

    def _refresh_statistics(self) -> None:
        """After a bulk load (outside any transaction), VACUUM (ANALYZE) the two big
        tables: the planner's statistics (with none it serves indexed lookups by scanning
        a whole scope), and the new rows' hint bits and visibility map. Without the vacuum
        every first read of a loaded page dirties it to set the hint bits, and a server
        may run without autovacuum (this project's CI server does): at 1M facts in 1,000
        scopes a recall's vector search read and dirtied ~1,000 heap pages: recall p50
        15.5-16.4 ms before, 6.4 ms with the vacuum (bench/bench_scale.py), which took ~4 s
        for the 1M rows."""
        with self._lock:
            analysed = self._conn.execute(
                "SELECT reltuples FROM pg_class WHERE oid = 'facts'::regclass"
            ).fetchone()
            before = float(analysed[0]) if analysed and analysed[0] is not None else -1.0
            rows = self._conn.execute("SELECT count(*) FROM facts").fetchone()
            now = int(rows[0]) if rows else 0
            if before < 0 or now > 1.5 * before:
                self._conn.execute("VACUUM (ANALYZE) facts")
                self._conn.execute("VACUUM (ANALYZE) vectors")
            # the rows a load put in the full-text index's pending list (GIN's fast
            # update) go into the index proper: every search reads the whole pending list
            # until autovacuum comes (at 1M facts: 3.2 ms -> 0.05 ms for a rare word)
            with contextlib.suppress(psycopg.Error):  # not its owner: autovacuum will do it
                self._conn.execute(
                    "SELECT gin_clean_pending_list(%s::regclass)", (f'"{self._home}".facts_tsv',)
                )

    def _copy_new(self, facts: Sequence[Fact]) -> None:
        c = self._conn
        for scope in {f.scope for f in facts}:  # counted again at their next search
            self._scope_sizes.pop(scope, None)
        for fact in facts:
            self._wrote(fact.scope, 1)
        name, dim = self.embedder.name, self.embedder.dim
        with c.cursor() as cur:
            with cur.copy(f"COPY facts ({q.FACT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as cp:
                cp.set_types(_FACT_TYPES)
                for fact in facts:
                    cp.write_row(q.fact_values(POSTGRES, fact))
            refs = [(f.id, f.scope, str(r)) for f in facts for r in dict.fromkeys(f.derived_from)]
            if refs:
                with cur.copy(
                    "COPY provenance (fact_id, scope, ref) FROM STDIN (FORMAT BINARY)"
                ) as cp:
                    cp.set_types(["text", "text", "text"])
                    for ref in refs:
                        cp.write_row(ref)
            with cur.copy(
                "COPY vectors (fact_id, scope, model, dim, vec) FROM STDIN (FORMAT BINARY)"
            ) as cp:
                cp.set_types(["text", "text", "text", "int4", "vector"])
                for start in range(0, len(facts), _EMBED_BATCH):
                    batch = facts[start : start + _EMBED_BATCH]
                    vectors = self.embed([f.text for f in batch])
                    for fact, vec in zip(batch, vectors, strict=True):
                        vec = np.asarray(vec, dtype=np.float32)
                        if vec.shape != (dim,):
                            raise StoreError(f"vector of shape {vec.shape}, expected ({dim},)")
                        cp.write_row((fact.id, fact.scope, name, dim, vec))

    # -- search --------------------------------------------------------------------------
    def vector_search(self, query: str | Vector, *, scope: str, k: int) -> list[tuple[str, float]]:
        return [(fid, score) for fid, score, _ in self._nearest(query, scope, k, False)]

    def nearest(self, query: Vector, *, scope: str, k: int) -> list[tuple[str, float, Vector]]:
        return [(fid, score, vec) for fid, score, vec in self._nearest(query, scope, k, True)]

    def _nearest(
        self, query: str | Vector, scope: str, k: int, with_vectors: bool
    ) -> list[tuple[str, float, Any]]:
        check_scope(scope)
        self._require_model()
        if k <= 0:
            return []
        vec = self.embed([query], kind="query")[0] if isinstance(query, str) else query
        vec = np.asarray(vec, dtype=np.float32)
        dim = int(self.embedder.dim)
        if vec.shape != (dim,):
            raise StoreError(f"query vector of shape {vec.shape}, expected ({dim},)")
        conn = self._search_conn()
        exact = self._small_scope(conn, scope)
        if not exact:
            # the scope's own graph (the planner takes it for `scope = $1`), its list by
            # its own size; or the shared one, by the table's
            self._use_ef_search(conn, self._own_index_rows(conn, scope) or None)
        query_sql = vector_query(
            dim, with_vectors=with_vectors, exact=exact, shortlist=self.shortlist
        )
        # planned for this scope every time, never prepared: a prepared statement's generic
        # plan knows no scope, and in a store of many small tenants it ranked a large
        # tenant's 20,000 rows by the scope's btree (nearest 22.6 ms p50 inside recall,
        # 7.3 ms by the graph; docs/benchmarks.md, issue 27)
        rows = self._fetch_vectors(
            conn, query_sql, {"q": vec, "scope": scope, "k": int(k)}, prepare=False
        )
        stored: list[Any] = (
            _unpack_vectors([row[3] for row in rows]) if with_vectors else [None] * len(rows)
        )
        hits: list[tuple[float, int, str, Any]] = []
        for row, kept in zip(rows, stored, strict=True):
            d = float(row[1])
            # a zero vector has no direction: cosine is undefined and pgvector says NaN
            hits.append((0.0 if math.isnan(d) else 1.0 - d, int(row[2]), str(row[0]), kept))
        # relaxed_order lets an iterative scan return rows slightly out of order; equal
        # scores (to float noise) go oldest first, as in SQLite's index
        hits.sort(key=lambda h: (-round(h[0], 6), h[1]))
        return [(fact_id, score, stored) for score, _, fact_id, stored in hits]

    # -- a large scope's own HNSW index ---------------------------------------------------
    def _wrote(self, scope: str, n: int) -> None:
        """Count vectors the open transaction adds to a scope (a forget marks it -1: looked
        at after the commit whatever was counted)."""
        was = self._written.get(scope, 0)
        if was >= 0:
            self._written[scope] = was + n

    def _own_indexes_due(self) -> None:
        """Look at the scopes committed transactions wrote to or forgot from (see
        `_own_index_check`). Never raises for the index: the writes are committed, and a
        scope without its own index is still searched in the shared graph."""
        with self._due_lock:
            due, self._due = self._due, {}
        for scope, n in due.items():
            # what fails is tried again at a write SIZE_TTL seconds later
            with contextlib.suppress(psycopg.Error, StoreError):
                self._own_index_check(scope, n)

    def _own_index_check(self, scope: str, added: int) -> None:
        """Build the scope's own HNSW index when it holds at least `own_index_from`
        vectors and less than OWN_INDEX_SHARE of the table's; drop it when it holds fewer
        than half `own_index_from`. `added`: vectors committed since the last look (-1: a
        forget). The count is kept SIZE_TTL seconds, so a scope written fact by fact is
        counted about once a minute, and again as soon as its writes may have taken it
        across the threshold."""
        threshold = int(self.own_index_from or 0)
        if threshold <= 0:
            return
        now = time.monotonic()
        seen = self._own_checked.get(scope)
        if seen is not None and added >= 0:
            seen[2] += added
            crossed = seen[0] < threshold <= seen[0] + seen[2]
            if now - seen[1] < SIZE_TTL and not crossed:
                return
        dim = int(self.embedder.dim)
        with self._lock:  # the store's connection, between transactions
            conn = self._conn
            table = self._vector_rows(conn, fresh=True)
            # counted to the share at most: a scope that reaches it is the table's larger
            # part
            cap = max(threshold, int(table * OWN_INDEX_SHARE) + 1)
            row = conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM vectors WHERE scope = %s AND dim = %s "
                "LIMIT %s) s",
                (scope, dim, cap),
            ).fetchone()
            count = int(row[0]) if row else 0
            state = self._own_index_state(conn, dim, scope)
        if len(self._own_checked) >= _SIZES_KEPT:
            self._own_checked.clear()
        # most of a table that is large itself: counted (up to half the table) ten times
        # less often
        later = 9 * SIZE_TTL if count >= cap > threshold else 0.0
        self._own_checked[scope] = [count, now + later, 0]
        if state == "valid":
            if count < threshold // 2:
                self._own_index_ddl_soon(scope, dim, build=False)
            return
        # the table's row count lags behind writes the statistics have not seen yet (then
        # the scope looks like most of the table, and is looked at again a while later)
        wanted = threshold <= count < OWN_INDEX_SHARE * table
        with self._due_lock:
            queued = sum(self._ddl_due.values()) + (self._ddl_thread is not None)
        if wanted and len(self.own_indexes()) + queued < OWN_INDEXES_MAX:
            self._own_index_ddl_soon(scope, dim, build=True)
        elif state == "invalid":  # a build that failed, and the scope no longer wants one
            self._own_index_ddl_soon(scope, dim, build=False)

    def _own_index_state(self, conn: Conn, dim: int, scope: str) -> str | None:
        """'valid', 'invalid' (a concurrent build that did not finish), or None."""
        row = conn.execute(
            "SELECT i.indisvalid AND i.indisready FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE n.nspname = %s AND c.relname = %s",
            (self._home, own_index_name(dim, scope)),
        ).fetchone()
        if row is None:
            return None
        return "valid" if row[0] else "invalid"

    def _own_index_ddl_soon(self, scope: str, dim: int, *, build: bool) -> None:
        """Build the scope's own index in the worker thread (see `own_index_background`): a
        build reads the whole table twice (CONCURRENTLY), seconds to minutes, which the
        write that made it due should not wait for. A drop now (it waits only for the
        searches running on it): the erase step that follows a forget rewrites the table,
        and would wait for a drop running beside it."""
        if not (build and self.own_index_background):
            self._own_index_ddl(scope, dim, build=build)
            return
        with self._due_lock:
            self._ddl_due[scope] = build
            if self._ddl_thread is None:
                self._ddl_thread = threading.Thread(
                    target=self._ddl_worker, args=(dim,), name="credo-own-index", daemon=True
                )
                self._ddl_thread.start()

    def _ddl_worker(self, dim: int) -> None:
        while True:
            with self._due_lock:
                if not self._ddl_due:
                    self._ddl_thread = None
                    return
                scope, build = self._ddl_due.popitem()
            # what fails is tried again at a write SIZE_TTL seconds later; nothing a build
            # raises may end the thread with work left (or `wait_for_indexes` waiting)
            with contextlib.suppress(Exception):
                self._own_index_ddl(scope, dim, build=build)

    def wait_for_indexes(self, timeout: float | None = None) -> bool:
        """Wait until the scopes' own indexes due are built or dropped (see
        `own_index_background`); False when `timeout` seconds ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._due_lock:
                thread = self._ddl_thread
                if thread is not None and not thread.is_alive():  # ended unexpectedly
                    self._ddl_thread = thread = None
            if thread is None:
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            thread.join(left)

    def _own_index_ddl(self, scope: str, dim: int, *, build: bool) -> None:
        """Build (or drop) the scope's own index, CONCURRENTLY, on a connection of its own:
        no other tenant's reads or writes wait for it. One process does it (a session
        lock, tried: a process that finds it held leaves the work to its holder, and
        looks again at a write SIZE_TTL seconds later). A leftover of a failed build is
        dropped first. Each lock wait is bounded by `own_index_wait` (a transaction left
        open in this very thread would otherwise keep a concurrent build waiting for
        ever)."""
        name = own_index_name(dim, scope)
        conn = self._connect(self.url)
        try:
            self._set_search_path(conn)
            conn.execute(
                sql.SQL("SET lock_timeout = {}").format(
                    sql.Literal(f"{max(1, int(self.own_index_wait * 1000))}ms")
                )
            )
            got = conn.execute(
                "SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                (_LOCK_OWN_INDEX, self._ns(scope)),
            ).fetchone()
            if not (got and got[0]):
                return
            state = self._own_index_state(conn, dim, scope)
            if state == "invalid" or (state == "valid" and not build):
                conn.execute(
                    sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(
                        sql.Identifier(self._home, name)
                    )
                )
                state = None
            if build and state is None:
                conn.execute(
                    sql.SQL("SET maintenance_work_mem = {}").format(sql.Literal(self.build_memory))
                )
                conn.execute(own_index_sql(dim, scope))
                # ANALYZE samples an expression index's values too: never the vectors
                conn.execute(
                    sql.SQL("ALTER INDEX {} ALTER COLUMN 1 SET STATISTICS 0").format(
                        sql.Identifier(self._home, name)
                    )
                )
        finally:
            conn.close()  # and with it the session lock
        self._own_rows.pop(scope, None)  # looked up again at the scope's next search

    def own_indexes(self) -> dict[str, int]:
        """The scopes with an HNSW index of their own (valid ones), and its rows."""
        rows = self._conn.execute(
            "SELECT c.relname, c.reltuples, pg_get_expr(i.indpred, i.indrelid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE n.nspname = %s AND c.relname LIKE %s AND i.indisvalid",
            (self._home, own_index_name(int(self.embedder.dim), "")[:-16] + "%"),
        ).fetchall()
        found: dict[str, int] = {}
        for name, tuples, pred in rows:
            match = re.search(r"scope = '((?:[^']|'')*)'::text", str(pred))
            if match:
                scope = match.group(1).replace("''", "'")
                if own_index_name(int(self.embedder.dim), scope) == name:
                    found[scope] = max(0, int(tuples))
        return found

    def index_scopes(self) -> list[str]:
        """Give every scope that should have one its own HNSW index now, and drop those
        whose scope shrank (what writes do by themselves, for a store whose large scopes
        were written before this version, or to do it at a quiet hour). Returns the
        scopes that have one afterwards. Builds one index after another, each CONCURRENTLY
        (minutes for a scope of 100k vectors)."""
        threshold = int(self.own_index_from or 0)
        dim = int(self.embedder.dim)
        scopes = set(self.own_indexes())
        if threshold > 0:
            scopes.update(
                str(r[0])
                for r in self._conn.execute(
                    "SELECT scope FROM vectors WHERE dim = %s GROUP BY scope HAVING count(*) >= %s",
                    (dim, threshold),
                )
            )
        for scope in sorted(scopes):
            self._own_checked.pop(scope, None)
            self._own_index_check(scope, -1)
        self.wait_for_indexes()
        return sorted(self.own_indexes())

    def _own_index_rows(self, conn: Conn, scope: str) -> int:
        """Rows of the scope's own valid HNSW index (0: none), kept SIZE_TTL seconds. An
        invalid one (a concurrent build that gave up, or one running) has its build
        started again in the background, at most every `own_index_retry` seconds."""
        now = time.monotonic()
        known = self._own_rows.get(scope)
        if known is not None and now - known[1] < SIZE_TTL:
            return known[0]
        dim = int(self.embedder.dim)
        row = conn.execute(
            "SELECT c.reltuples, i.indisvalid AND i.indisready FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_index i ON i.indexrelid = c.oid "
            "WHERE n.nspname = %s AND c.relname = %s",
            (self._home, own_index_name(dim, scope)),
        ).fetchone()
        rows = 0 if row is None or not row[1] else max(1, int(row[0]))
        if row is not None and not row[1] and self.own_index_background:
            last = self._own_retried.get(scope)
            if last is None or now - last >= self.own_index_retry:
                if len(self._own_retried) >= _SIZES_KEPT:
                    self._own_retried.clear()
                self._own_retried[scope] = now
                # the build drops the leftover first; one running elsewhere holds the
                # session lock, and this one then leaves it to that one
                self._own_index_ddl_soon(scope, dim, build=True)
        if len(self._own_rows) >= _SIZES_KEPT:
            self._own_rows.clear()
        self._own_rows[scope] = (rows, now)
        return rows

    def _small_scope(self, conn: Conn, scope: str) -> bool:
        """Whether the scope holds fewer than `exact_below` facts (so fewer vectors), and
        is ranked exactly."""
        return self._scope_rows(conn, scope) < self.exact_below

    def _scope_rows(self, conn: Conn, scope: str) -> int:
        """How many facts the scope holds, counted up to the larger of `exact_below` and
        `RARE_WORDS_FROM` through the scope's btree (an index-only scan) and kept for
        SIZE_TTL seconds, shared by every scope's recalls in this process: one count
        serves a recall's full-text search (`_lexical`, which runs first) and its vector
        search."""
        now = time.monotonic()
        known = self._scope_sizes.get(scope)
        if known is not None and now - known[1] < SIZE_TTL:
            return known[0]
        row = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM facts WHERE scope = %s LIMIT %s) s",
            (scope, max(int(self.exact_below), RARE_WORDS_FROM)),
        ).fetchone()
        size = int(row[0]) if row is not None else 0
        if len(self._scope_sizes) >= _SIZES_KEPT:
            self._scope_sizes.clear()
        self._scope_sizes[scope] = (size, now)
        return size

    def lexical_search(self, query: str, *, scope: str, k: int) -> list[tuple[str, float]]:
        return [(fid, score) for fid, score, _ in self._lexical(query, scope, k, False)]

    def lexical_nearest(
        self, query: str, *, scope: str, k: int
    ) -> list[tuple[str, float, Vector | None]]:
        # the hits' vectors in the same statement: at 1M facts a second query for them cost
        # 1.5 ms alone, 2.8 inside a recall (docs/benchmarks.md, "PostgreSQL at 1M facts")
        return self._lexical(query, scope, k, True)

    def _lexical(
        self, query: str, scope: str, k: int, with_vectors: bool
    ) -> list[tuple[str, float, Any]]:
        check_scope(scope)
        words = query_words(query)
        if not words or k <= 0:
            return []
        # a scope of few facts ranks every fact holding a query word, as a store of few
        # facts does, whatever the other tenants hold: counting the words over the table
        # (a sample, 1.4-1.7 ms for each new word) cost a small tenant more than its search
        few = self._scope_rows(self._conn, scope) < RARE_WORDS_FROM
        required = None if few else self._rare_words(words, scope)
        if required and len(required) < len(words):
            sql = lexical_query(len(words), len(required), with_vectors=with_vectors)
            args: tuple[Any, ...] = (*words, *required, scope, int(k))
        else:
            sql = lexical_query(len(words), with_vectors=with_vectors, small=few)
            args = (*words, scope, int(k))
        if not with_vectors:
            return [(str(r[0]), float(r[1]), None) for r in self._conn.execute(sql, args)]
        rows = self._fetch_vectors(self._conn, sql, args)
        present = [r[2] for r in rows if r[2] is not None]
        unpacked = iter(_unpack_vectors(present))
        return [
            (str(r[0]), float(r[1]), next(unpacked) if r[2] is not None else None) for r in rows
        ]

    def _rare_words(self, words: list[str], scope: str) -> list[str] | None:
        """The words that select candidates in a large table (see `store.words`),
        counted over the whole table: counted per scope, a store of many small scopes
        counted the query's words again for nearly every query (4.6 of 18.6 ms at 200k
        facts in 200 scopes)."""
        rows = self._table_rows()
        return self._words.rare(
            words,
            rows,
            lambda new, cutoff: self._count_words(new, rows, cutoff),
            start=RARE_WORDS_FROM,
        )

    def _count_words(self, words: Sequence[str], rows: int, cutoff: int) -> list[int]:
        """How many of the table's `rows` facts hold each word, estimated from a sample of
        about COUNT_SAMPLE of them (whole pages, TABLESAMPLE SYSTEM), all words in one
        pass. Counted exactly through the full-text index, a common word costs a visit to
        every row that holds it, up to the cutoff: at 1M facts 24 ms for a first name in
        5% of them, 60-90 ms for a query's first recall in a new process (a CLI call per
        prompt); the sample costs 1.2-1.75 ms whatever the words (2.5-3 under load). Only
        which words select candidates depends on it, so an estimate will do. An empty
        sample (a table of a few pages) falls back to the exact count, up to one past
        `cutoff`."""
        words = list(words)
        tests = ", ".join(
            f"count(*) FILTER (WHERE tsv @@ plainto_tsquery('english'::regconfig, q.w[{i}]))"
            for i in range(1, len(words) + 1)
        )
        percent = min(100.0, 100.0 * COUNT_SAMPLE / max(rows, 1))
        row = self._conn.execute(
            f"SELECT count(*), {tests} FROM facts TABLESAMPLE SYSTEM (%s), "
            "(SELECT %s::text[] AS w) q",
            (percent, words),
        ).fetchone()
        if row is not None and row[0]:
            sampled = int(row[0])
            return [round(int(hits) * max(rows, sampled) / sampled) for hits in row[1:]]
        exact = self._conn.execute(
            "SELECT (SELECT count(*) FROM (SELECT 1 FROM facts WHERE "
            "tsv @@ plainto_tsquery('english'::regconfig, w.word) LIMIT %s) t) "
            "FROM unnest(%s::text[]) WITH ORDINALITY AS w(word, n) ORDER BY w.n",
            (cutoff + 1, words),
        ).fetchall()
        return [int(r[0]) for r in exact]

    def vectors_of(self, ids: Sequence[str], *, scope: str) -> dict[str, Vector]:
        check_scope(scope)
        wanted = [i for i in dict.fromkeys(ids) if not nul(i)]
        if not wanted:
            return {}
        rows = self._fetch_vectors(
            self._conn,
            "SELECT fact_id, vec FROM vectors WHERE scope = %s AND fact_id = ANY(%s)",
            (scope, wanted),
        )
        vecs = _unpack_vectors([r[1] for r in rows])
        return {str(r[0]): v for r, v in zip(rows, vecs, strict=True)}

    def _fetch_vectors(
        self,
        conn: Conn,
        query: str,
        args: Sequence[Any] | dict[str, Any],
        *,
        prepare: bool | None = None,
    ) -> list[TupleRow]:
        """Rows of a query in binary, its `vector` columns as their raw wire form (see
        `_RawVectorLoader`). `prepare`: psycopg's (None: prepared from its fifth run)."""
        with conn.cursor(binary=True) as cur:
            info = conn.adapters.types.get("vector")
            if info is not None:
                cur.adapters.register_loader(info.oid, _RawVectorLoader)
            return cur.execute(query, args, prepare=prepare).fetchall()

    # -- forgetting ----------------------------------------------------------------------
    def _forget_lock(self, scope: str) -> None:
        self._written[scope] = -1  # its own index, if any, looked at after the commit
        # no writer of the scope may be halfway through a decision about these facts
        self._conn.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOCK_SCOPE, self._ns(scope))
        )

    def _forget_mark_erase(self, scope: str, report: ForgetReport) -> None:
        tables = []
        if report.fact_ids:
            tables += ["facts", "vectors", "provenance", "lineage", "conflicts", "fact_events"]
        tables += [
            name
            for name, count in (
                ("rejections", report.rejections),
                ("aliases", report.aliases),
                ("rules", report.rules),
                ("ingest_episodes", report.ingest_episodes),
            )
            if count
        ]
        c = self._conn
        c.execute(
            "INSERT INTO pending_erase (xid, tables, created_at) "
            "VALUES (pg_current_xact_id()::text::bigint, %s, %s)",
            (tables, time.time()),
        )
        c.execute("UPDATE erase_probe SET n = n + 1")

    def _forget_scrub(self) -> bool:
        return self.erase() if self.erase_on_forget else False

    def pending_erase(self) -> int:
        row = self._conn.execute("SELECT count(*) FROM pending_erase").fetchone()
        return int(row[0]) if row else 0

    def erase(self, *, wait: float | None = None) -> bool:
        """Leave no copy of forgotten rows in the table and index files. A delete only
        marks rows dead, and VACUUM frees their space without overwriting it: the text,
        its lexemes, ids and vectors stay readable in the heap, GIN, btree and HNSW files
        until something happens to write over them. So rewrite every table a pending
        forget touched, with its indexes and TOAST (VACUUM FULL: the old files are cut to
        nothing at commit and unlinked at the next checkpoint).

        VACUUM FULL copies rows that a snapshot older than the delete may still see, so
        first wait, at most `wait` seconds (`erase_wait` when None), until none can; it
        also waits for each table's lock, as long. When either wait runs out the erase
        stays pending. Runs outside a transaction; True when nothing is left pending.
        Takes an exclusive lock on each table while it is rewritten (seconds at 100k
        facts, mostly the HNSW index rebuilt)."""
        wait = self.erase_wait if wait is None else max(0.0, float(wait))
        with self._lock:
            if self._depth:  # within a transaction: right after its commit
                self._erase_due = True
                return False
            c = self._conn
            rows = c.execute("SELECT id, xid, tables FROM pending_erase ORDER BY id").fetchall()
            if not rows:
                return True
            ids = [int(r[0]) for r in rows]
            named = {str(t) for r in rows for t in r[2]}
            tables = [t for t in ERASABLE if t in named]
            deadline = time.monotonic() + wait
            try:
                c.execute(
                    sql.SQL("SET lock_timeout = {}").format(
                        sql.Literal(f"{max(200, int(wait * 1000))}ms")
                    )
                )
                while self._older_snapshots(max(int(r[1]) for r in rows)):
                    if time.monotonic() >= deadline:
                        return False
                    time.sleep(0.05)
                if tables:
                    c.execute(
                        sql.SQL("SET maintenance_work_mem = {}").format(
                            sql.Literal(self.build_memory)
                        )
                    )
                    c.execute(
                        sql.SQL("VACUUM (FULL) {}").format(
                            sql.SQL(", ").join(sql.Identifier(t) for t in tables)
                        )
                    )
            except psycopg.Error:  # a lock not had in time, a statement timeout
                return False
            finally:
                if not c.closed and not c.broken:
                    c.execute("RESET lock_timeout")
                    c.execute("RESET maintenance_work_mem")
            c.execute("DELETE FROM pending_erase WHERE id = ANY(%s)", (ids,))
            return True

    def _older_snapshots(self, xid: int) -> bool:
        """Whether anything may still see rows that transaction `xid` (and those before
        it) deleted. From PostgreSQL 15 the server says so exactly: VACUUM the probe row
        every forget updates, and count the dead versions it had to keep (statistics are
        current there). Before 15, ask pg_stat_activity, which shows another role's
        sessions only to a privileged role.

        Either way, first: whether a transaction of any database of the server that began
        before `xid` ended is still running. VACUUM FULL runs in a transaction, and its
        own snapshot's horizon is the oldest transaction still running anywhere on the
        server, so it copies the deleted rows whole into the rewritten files while one
        runs (a bulk load or an index build in another database, say) although no
        session of this database can see them; the probe's plain VACUUM is exempt from
        its own horizon, and would say the erase could go ahead."""
        c = self._conn
        row = c.execute("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint").fetchone()
        if row is not None and row[0] is not None and int(row[0]) <= xid:
            return True
        if c.info.server_version >= 150000:
            c.execute("SELECT pg_stat_force_next_flush()")  # this session's counts first
            c.execute("VACUUM erase_probe")
            row = c.execute("SELECT pg_stat_get_dead_tuples('erase_probe'::regclass)").fetchone()
            return bool(row and row[0])
        row = c.execute(OLDER_SNAPSHOTS, {"x": str(xid % 2**32)}).fetchone()
        return bool(row and row[0])

    # -- models --------------------------------------------------------------------------
    def reindex(self) -> int:
        """Re-embed every fact of every scope. Vectors are replaced wholesale and the HNSW
        index rebuilt once, which is far faster than updating an index row by row."""
        c = self._conn
        name, dim = self.embedder.name, int(self.embedder.dim)
        # a concurrent build of a scope's index waits for this transaction, which would
        # wait to drop that index: let this process's builds finish first
        self.wait_for_indexes()
        with self.transaction():
            c.execute("SELECT pg_advisory_xact_lock(%s, 0)", (_LOCK_SETUP,))
            rows = c.execute("SELECT id, scope, text FROM facts ORDER BY seq").fetchall()
            old = [
                str(r[0])
                for r in c.execute(
                    "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND tablename = "
                    "'vectors' AND indexname LIKE 'vectors\\_hnsw\\_%%'",
                    (self._home,),
                )
            ]
            for index in old:
                c.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(self._home, index)))
            c.execute("DELETE FROM vectors")
            self._rebuild.add(dim)  # built once, at commit, over every new vector
            with (
                c.cursor() as cur,
                cur.copy(
                    "COPY vectors (fact_id, scope, model, dim, vec) FROM STDIN (FORMAT BINARY)"
                ) as cp,
            ):
                cp.set_types(["text", "text", "text", "int4", "vector"])
                for start in range(0, len(rows), 256):
                    batch = rows[start : start + 256]
                    vecs = self.embedder.embed_documents([str(r[2]) for r in batch])
                    for r, v in zip(batch, vecs, strict=True):
                        cp.write_row((r[0], r[1], name, dim, np.asarray(v, dtype=np.float32)))
        self._embed_cache.clear()
        self._scope_sizes.clear()
        self._own_rows.clear()  # the own indexes went with the old vectors
        self._own_checked.clear()
        self._stored_model = name if rows else None
        with contextlib.suppress(psycopg.Error, StoreError):  # and come back for the new
            self.index_scopes()
        return len(rows)

    def close(self) -> None:
        self.wait_for_indexes()  # an index half built would be built again from the start
        with self._lock:
            with self._reader_lock:
                if self._reader is not None:
                    self._reader.close()
                    self._reader = None
            self._conn.close()


#: methods that manage connections or transactions themselves
_NOT_RETRIED = frozenset({"transaction", "close", "lock_key", "vacuum"})
for _name in dir(PostgresStore):
    _attr = getattr(PostgresStore, _name)
    if (
        not _name.startswith("_")
        and _name not in _NOT_RETRIED
        and callable(_attr)
        and not isinstance(PostgresStore.__dict__.get(_name), staticmethod | classmethod)
        and _name in {n for k in PostgresStore.__mro__ for n in k.__dict__}
        and not isinstance(_attr, type)
    ):
        setattr(PostgresStore, _name, _reconnecting(_attr))
