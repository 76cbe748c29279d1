"""The default store: one SQLite file (WAL, foreign keys, FTS5), vectors in the database,
exact vector search in process with numpy (works with any CPython's stdlib sqlite3)."""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ..embed import Embedder
from ..fact import Fact
from .base import (
    DiskFull,
    ForgetReport,
    StoreError,
    Vector,
    check_scope,
)
from .files import private_sqlite
from .sql import SQLITE, insert_fact
from .sqlite_schema import MIGRATIONS
from .sqlstore import SQLStore, reading
from .vectors import VectorIndex, matrix_for
from .words import RARE_WORDS_FROM as _RARE_WORDS_FROM
from .words import WordCounts, query_words

# Queries by id write `+scope = ?` (`Dialect.pin`): the unary plus keeps SQLite from
# choosing a scope index (a scan of the whole scope) over the unique id index; the scope
# still filters every row.

#: the searchable columns: the FTS table also holds the scope, which a word must not match
FTS_COLUMNS = "{text subject object}"
#: stores with fewer rows than this rank every row that matches any query word (here so
#: a test can lower it for this backend)
RARE_WORDS_FROM = _RARE_WORDS_FROM
#: the change log of vectors keeps at least this many newest entries (pruned every
#: LOG_PRUNE_EVERY): a process whose index is further behind reloads it
LOG_KEEP = 100_000
LOG_PRUNE_EVERY = 1024
#: a delta of more entries than this (or than the index holds) is a reload instead
DELTA_MAX = 10_000


def _quoted(words: Sequence[str]) -> str:
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def fts_query(text: str, required: Sequence[str] | None = None) -> str | None:
    """User text to a safe FTS5 query: each word quoted, OR-ed. Never a syntax error.

    With `required`, a document must hold one of those words, while every word still
    counts towards its score: `(required) AND (all words)`."""
    words = query_words(text)
    if not words:
        return None
    if required and len(required) < len(words):
        return f"{FTS_COLUMNS} : (({_quoted(required)}) AND ({_quoted(words)}))"
    return f"{FTS_COLUMNS} : ({_quoted(words)})"


def _free_bytes(path: str) -> int | None:
    """Bytes free to this user on the file system holding `path` (None if unknown)."""
    try:
        info = os.statvfs(Path(path).parent if path != ":memory:" else ".")
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


#: less free space than this, beside a disk I/O error, means the disk is full: SQLite
#: reports a full disk as an I/O error where it cannot tell (growing its -shm file)
NEARLY_FULL = 256 * 1024


def disk_error(path: str, exc: sqlite3.Error, doing: str) -> StoreError | None:
    """The store's error for a full disk or a disk I/O error (None for any other error):
    `DiskFull` saying so, and that nothing of the failed step was written."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    full = name == "SQLITE_FULL" or "disk is full" in text
    if not (full or name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) or "disk i/o" in text):
        return None
    free = _free_bytes(path)
    if full or (free is not None and free < NEARLY_FULL):
        left = "unknown space" if free is None else f"{free:,} bytes"
        return DiskFull(
            f"{doing} the database {path!r} failed: the disk holding it is full ({left} "
            "free). Free space on it and try again: the failed step wrote nothing, and "
            "everything stored before is intact"
        )
    return StoreError(
        f"{doing} the database {path!r} failed: {exc} (an error of the disk or file "
        "system: check the disk, its free space and the file's permissions)"
    )


class SQLiteStore(SQLStore):
    dialect = SQLITE

    #: seconds a forget waits for readers of older snapshots to let go of the write-ahead
    #: log before it leaves its erase pending (completed at the next open, write or close)
    erase_wait = 5.0
    #: the busy timeout of every other statement, in milliseconds
    busy_ms = 30_000

    def __init__(self, path: str | Path, embedder: Embedder) -> None:
        super().__init__(embedder)
        self.path = str(path) if str(path) == ":memory:" else str(Path(path).expanduser())
        self.where = self.path
        if self.path != ":memory:":
            private_sqlite(Path(self.path))  # 0700 directories, a 0600 file (and -wal/-shm)
        try:
            self._conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30.0
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path!r}: {exc}") from exc
        self._lock = threading.RLock()
        self._depth = 0
        self._pending: list[tuple[str, str, str, Vector | None]] = []  # (op, scope, id, vec)
        self._indexes: dict[str, VectorIndex] = {}
        self._logged = 0  # the last vector_log entry this transaction wrote
        self._read_in_tx: set[str] = set()  # scopes whose index a transaction loaded
        self._words = WordCounts()  # FTS documents holding each word (see _rare_words)
        self._erase_ready = False  # the pending_erase table exists (after migrations)
        self._erase_due = False  # a forget inside a transaction: erase after its commit
        self._marked = False  # this transaction recorded a pending erase
        self._erasing = False
        try:
            self._configure()
            self.migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            if (mapped := disk_error(self.path, exc, "opening")) is not None:
                raise mapped from exc
            if getattr(exc, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
                raise StoreError(f"{self.path!r} is not a credo database: {exc}") from exc
            raise StoreError(f"cannot open the database {self.path!r}: {exc}") from exc
        self._erase_ready = True
        self._check_model()
        if self.pending_erase():
            self.erase(wait=0)  # left by a forget a reader held up: finish it if we can

    # -- setup ---------------------------------------------------------------------------
    def _configure(self) -> None:
        c = self._conn
        c.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
        if self.path != ":memory:":
            self._enable_wal()
        c.execute("PRAGMA synchronous = NORMAL")
        c.execute("PRAGMA foreign_keys = ON")
        # freed pages are zeroed: what forget deletes does not linger in the file
        c.execute("PRAGMA secure_delete = ON")

    def _enable_wal(self) -> None:
        """Switch the file to WAL, waiting for other processes that open it meanwhile. The
        switch takes an exclusive lock and SQLite answers "database is locked" (or, while
        another process is switching the same new file, "disk I/O error") at once, without
        its busy handler: four processes opening one new file together failed in 9 of 20
        trials. Retried, with a growing pause, for up to `busy_ms`."""
        deadline = time.monotonic() + self.busy_ms / 1000
        pause = 0.001
        while True:
            try:
                self._conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                message = str(exc).lower()
                racing = "locked" in message or "disk i/o error" in message
                if not racing or time.monotonic() + pause > deadline:
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.1)

    def migrate(self) -> list[str]:
        """Apply pending migrations, each in its own transaction with its record."""
        with self._lock:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL)"
            )
            applied = {r[0] for r in self._conn.execute("SELECT name FROM migrations")}
            done = []
            for name, step in MIGRATIONS.pending(applied):
                with self.transaction():
                    if self._conn.execute(
                        "SELECT 1 FROM migrations WHERE name = ?", (name,)
                    ).fetchone():
                        continue  # another process applied it while we waited for the lock
                    step(self._conn)
                    self._conn.execute(
                        "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                        (name, time.time()),
                    )
                done.append(name)
            return done

    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self._conn.execute("SELECT name FROM migrations ORDER BY rowid")]

    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- transactions --------------------------------------------------------------------
    @contextmanager
    def _outermost(self) -> Iterator[None]:
        """Begin the outermost transaction; commit it, or roll it back (`transaction`
        holds the lock)."""
        self._conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
            gens = self._bump_generations()
            # an erase another forget left pending is finished by the next write
            waiting = (
                self._erase_ready
                and not self._erasing
                and not self._marked
                and self._conn.execute("SELECT 1 FROM pending_erase LIMIT 1").fetchone() is not None
            )
            self._conn.execute("COMMIT")
        except BaseException as exc:
            # SQLite has already rolled back after some errors (a full disk among
            # them): a second ROLLBACK would hide the cause behind "no transaction"
            if self._conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
            self._pending.clear()
            for scope in self._read_in_tx:  # they may hold what was rolled back
                self._indexes.pop(scope, None)
            self._read_in_tx.clear()
            self._erase_due = self._marked = False
            mapped = (
                disk_error(self.path, exc, "writing to")
                if isinstance(exc, sqlite3.OperationalError)
                else None
            )
            if mapped is not None:
                raise mapped from exc
            raise
        finally:
            self._depth = 0
        self._read_in_tx.clear()
        self._sync_indexes(gens)
        due, self._erase_due, self._marked = self._erase_due, False, False
        if due:
            self.erase()
        elif waiting:
            self.erase(wait=0)

    def lock_key(self, scope: str, subject: str | None, predicate: str | None) -> None:
        """SQLite's BEGIN IMMEDIATE already serialises every writer."""

    def _bump_generations(self) -> dict[str, int]:
        """In the committing transaction: log its vector changes (`vector_log`) and bump
        the generation of each scope it touched, so every process can tell whether its
        index is current and, if not, read only what changed."""
        log = [(scope, fact_id, op) for op, scope, fact_id, _ in self._pending if op == "add"]
        # a removal is logged without its id (forget leaves none behind): a sweep
        log += [
            (scope, "", "sweep" if op == "remove" else "reset")
            for op, scope in dict.fromkeys(
                (op, scope) for op, scope, _, _ in self._pending if op in ("remove", "reset")
            )
        ]
        if log:
            self._conn.executemany(
                "INSERT INTO vector_log (scope, fact_id, op) VALUES (?, ?, ?)", log
            )
            last = int(self._conn.execute("SELECT max(seq) FROM vector_log").fetchone()[0])
            first = last - len(log) + 1
            if last // LOG_PRUNE_EVERY != (first - 1) // LOG_PRUNE_EVERY:
                self._conn.execute("DELETE FROM vector_log WHERE seq <= ?", (last - LOG_KEEP,))
            self._logged = last
        gens = {}
        for scope in dict.fromkeys(op[1] for op in self._pending):
            row = self._conn.execute(
                "INSERT INTO scope_gen (scope, gen) VALUES (?, 1) "
                "ON CONFLICT (scope) DO UPDATE SET gen = gen + 1 RETURNING gen",
                (scope,),
            ).fetchone()
            gens[scope] = int(row[0])
        return gens

    def loaded_index(self, scope: str) -> VectorIndex | None:
        """The in-process vector index this store holds for `scope`, if it has loaded one:
        for inspection (its rows, whether it is coded, its capacity). A later write or a
        catch-up with another process's writes updates it in place; a reload replaces it."""
        return self._indexes.get(scope)

    def _sync_indexes(self, gens: dict[str, int]) -> None:
        """After a commit: apply this process's own changes to the loaded indexes. Where
        another process wrote to the scope since the index was current, leave it to catch
        up from the change log on its next use (our own entries are in the log too)."""
        pending, self._pending = self._pending, []
        logged, self._logged = self._logged, 0
        for scope, gen in gens.items():
            index = self._indexes.get(scope)
            if index is None:
                continue
            if index.generation != gen - 1 or any(
                op == "reset" and op_scope == scope for op, op_scope, _, _ in pending
            ):
                index.generation = -1  # stale: a delta (or a reload) on the next read
                continue
            for op, op_scope, fact_id, vec in pending:
                if op_scope != scope:
                    continue
                if op == "add" and vec is not None:
                    index.add(fact_id, vec)
                elif op == "remove":
                    index.remove(fact_id)
            index.generation = gen
            index.seq = max(index.seq, logged)

    def _index(self, scope: str) -> VectorIndex:
        """The scope's index, current with the database: as it is when no generation
        changed; else brought up to date from the change log (a delta); else (no index
        yet, a log pruned past it, a reset, or a delta larger than the index) rebuilt
        from the vectors table. Reads in one snapshot."""
        if self._depth:
            before = self._indexes.get(scope)
            seq = before.seq if before is not None else -1
            index = self._current_index(scope)
            if index is not before or index.seq != seq:  # read what may yet roll back
                self._read_in_tx.add(scope)
            return index
        self._conn.execute("BEGIN")
        try:
            return self._current_index(scope)
        finally:
            self._conn.execute("COMMIT")

    def _current_index(self, scope: str) -> VectorIndex:
        c = self._conn
        row = c.execute("SELECT gen FROM scope_gen WHERE scope = ?", (scope,)).fetchone()
        gen = int(row[0]) if row else 0
        index = self._indexes.get(scope)
        if index is not None and index.generation == gen:
            return index
        if index is not None and self._catch_up(scope, index):
            index.generation = gen
            return index
        last = c.execute("SELECT coalesce(max(seq), 0) FROM vector_log").fetchone()[0]
        dim = self.embedder.dim
        held = c.execute("SELECT count(*) FROM vectors WHERE scope = ?", (scope,)).fetchone()[0]
        # read into one preallocated matrix, a chunk at a time: the rows are never held
        # twice (1M rows: 1.5 GB of floats, not that again in bytes objects); the count
        # and the rows come from one snapshot (a read transaction, see _index)
        matrix = matrix_for(held, dim)
        ids: list[str] = []
        rows = c.execute("SELECT fact_id, vec FROM vectors WHERE scope = ?", (scope,))
        while chunk := rows.fetchmany(8192):
            start = len(ids)
            ids.extend(r[0] for r in chunk)
            matrix[start : len(ids)] = np.frombuffer(
                b"".join(r[1] for r in chunk), dtype=np.float32
            ).reshape(len(chunk), dim)
        index = VectorIndex.from_matrix(dim, ids, matrix, gen)  # the rest: room to add
        index.seq = int(last)
        self._indexes[scope] = index
        return index

    def _catch_up(self, scope: str, index: VectorIndex) -> bool:
        """Apply the scope's logged changes after `index.seq`; False when a delta cannot
        say what changed (pruned past the index, a reset) or costs more than a reload."""
        c = self._conn
        oldest = c.execute("SELECT min(seq) FROM vector_log").fetchone()[0]
        if oldest is not None and oldest > index.seq + 1:
            return False  # entries after index.seq may have been pruned
        entries = c.execute(
            "SELECT seq, op, fact_id FROM vector_log WHERE scope = ? AND seq > ? "
            "ORDER BY seq LIMIT ?",
            (scope, index.seq, max(DELTA_MAX, len(index)) + 1),
        ).fetchall()
        if len(entries) > max(DELTA_MAX, len(index)) or any(e[1] == "reset" for e in entries):
            return False
        added = list(dict.fromkeys(e[2] for e in entries if e[1] == "add"))
        found = self._vectors_from_table(added, scope)
        for fid in added:
            if fid in found:
                index.add(fid, found[fid])
        if any(e[1] == "sweep" for e in entries):  # forgotten: drop what the table lost
            rows = c.execute("SELECT fact_id FROM vectors WHERE scope = ?", (scope,))
            kept = {r[0] for r in rows}
            for fid in index.ids() - kept:
                index.remove(fid)
        if entries:
            index.seq = int(entries[-1][0])
            return True
        # the generation moved and nothing was logged: a forget of no vectors, or a writer
        # that logs nothing (an older credo on the same file). The index must hold as many
        # rows as the table, or it is rebuilt (a count: too slow to run on every delta)
        held = c.execute("SELECT count(*) FROM vectors WHERE scope = ?", (scope,)).fetchone()[0]
        return bool(held == len(index))

    # -- statements (for SQLStore) ----------------------------------------------------------
    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._conn.execute(statement, params).fetchall()

    def _run(self, statement: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(statement, params).rowcount

    def _run_many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(statement, rows)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Reads take the store's lock too: one connection is shared by threads, and a
        read must not see another thread's transaction half-way (it may still roll back).
        A full disk, or a disk I/O error, becomes the store's error (`disk_error`)."""
        with self._lock:
            try:
                yield
            except sqlite3.OperationalError as exc:
                if (mapped := disk_error(self.path, exc, "using")) is not None:
                    raise mapped from exc
                raise

    # -- facts ---------------------------------------------------------------------------
    def _insert(self, fact: Fact, vector: Vector | None) -> None:
        self._require_model()
        cur = self._conn.execute(*insert_fact(SQLITE, fact))
        self._conn.execute(
            "INSERT INTO facts_fts (rowid, text, subject, object, scope) VALUES (?, ?, ?, ?, ?)",
            (cur.lastrowid, fact.text, fact.subject or "", fact.object or "", fact.scope),
        )
        self._write_provenance(fact)
        vec = self._vector(fact, vector)
        self._conn.execute(
            "INSERT INTO vectors (fact_id, scope, model, vec) VALUES (?, ?, ?, ?)",
            (fact.id, fact.scope, self.embedder.name, vec.tobytes()),
        )
        self._stored_model = self.embedder.name
        self._pending.append(("add", fact.scope, fact.id, vec))

    # -- search --------------------------------------------------------------------------
    def vector_search(self, query: str | Vector, *, scope: str, k: int) -> list[tuple[str, float]]:
        check_scope(scope)
        self._require_model()
        vec = self.embed([query], kind="query")[0] if isinstance(query, str) else query
        return [(fid, score) for fid, score, _ in self.nearest(vec, scope=scope, k=k)]

    @reading
    def nearest(self, query: Vector, *, scope: str, k: int) -> list[tuple[str, float, Vector]]:
        """One look at the index: the hits' vectors come from the rows its ranking read."""
        check_scope(scope)
        self._require_model()
        found = self._index(scope).nearest(query, k)
        # this transaction's own writes reach the index at commit; until then a search
        # inside it (the resolver's, for the next candidate of one episode) sees them
        # here, so an episode cannot store the same sentence twice
        mine = [(op, fid, vec) for op, s, fid, vec in self._pending if s == scope]
        if not any(op in ("add", "remove") for op, _, _ in mine):
            return found
        gone = {fid for op, fid, _ in mine if op == "remove"}
        q = np.asarray(query, dtype=np.float32)
        hits = {fid: (score, vec) for fid, score, vec in found}
        for op, fid, vec in mine:
            if op == "add" and vec is not None:
                vec = np.asarray(vec, dtype=np.float32)
                hits[fid] = (float(np.dot(vec, q)), vec)
        ranked = sorted(
            ((fid, score, vec) for fid, (score, vec) in hits.items() if fid not in gone),
            key=lambda hit: -hit[1],
        )
        return ranked[:k]

    @reading
    def lexical_search(self, query: str, *, scope: str, k: int) -> list[tuple[str, float]]:
        check_scope(scope)
        if k <= 0:
            return []
        words = query_words(query)
        rare = self._rare_words(words)
        if rare and len(rare) < len(words):
            return self._rare_word_search(words, rare, scope, k)
        match = fts_query(query)
        if match is None:
            return []
        rows = self._conn.execute(
            "SELECT f.id, bm25(facts_fts, 1.0, 0.5, 0.5, 0.0) AS score FROM facts_fts "
            "JOIN facts f ON f.rowid = facts_fts.rowid "
            "WHERE facts_fts MATCH ? AND +f.scope = ? ORDER BY score LIMIT ?",
            (match, scope, k),
        )
        return [(r[0], -float(r[1])) for r in rows]

    def _rare_word_search(
        self, words: list[str], rare: list[str], scope: str, k: int
    ) -> list[tuple[str, float]]:
        """A large store's full-text search: the rows holding a rare word are the
        candidates, scored by FTS5's BM25 over the rare words plus, for each other query
        word a candidate holds, that word's inverse document frequency (BM25's term
        weight at one occurrence in a text of average length).

        Not FTS5's bm25() over every word: it counts the rows holding each phrase of the
        query on every call, a pass over the whole doclist of a common word ("live", a
        frequent first name): 7 of the 8 ms of a search at 1M facts. The counts are
        known here (see _rare_words), so the common words cost one AND per word."""
        c = self._conn
        required = f"{FTS_COLUMNS} : ({_quoted(rare)})"
        scores: dict[int, list[Any]] = {}
        for rowid, fact_id, score in c.execute(
            "SELECT f.rowid, f.id, bm25(facts_fts, 1.0, 0.5, 0.5, 0.0) FROM facts_fts "
            "JOIN facts f ON f.rowid = facts_fts.rowid WHERE facts_fts MATCH ? AND +f.scope = ?",
            (required, scope),
        ):
            scores[rowid] = [fact_id, -float(score)]
        if not scores:
            return []
        total = max(self._words.rows, 1)
        for word in words:
            if word in rare:
                continue
            held = self._words.held(word)
            weight = max(1e-6, math.log((total - held + 0.5) / (held + 0.5)))  # FTS5's idf
            for (rowid,) in c.execute(
                "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?",
                (f"{FTS_COLUMNS} : (({_quoted(rare)}) AND {_quoted([word])})",),
            ):
                if rowid in scores:
                    scores[rowid][1] += weight
        ranked = sorted(scores.items(), key=lambda item: (-item[1][1], item[0]))
        return [(fact_id, score) for _, (fact_id, score) in ranked[:k]]

    def _rare_words(self, words: list[str]) -> list[str] | None:
        """The words that select candidates in a large store (see `store.words`)."""
        rows = self._conn.execute("SELECT max(rowid) FROM facts").fetchone()[0] or 0

        def count(words: Sequence[str], cutoff: int) -> list[int]:
            return [
                int(
                    self._conn.execute(
                        "SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?",
                        (f"{FTS_COLUMNS} : ({_quoted([word])})",),
                    ).fetchone()[0]
                )
                for word in words
            ]

        return self._words.rare(words, rows, count, start=RARE_WORDS_FROM)

    @reading
    def vectors_of(self, ids: Sequence[str], *, scope: str) -> dict[str, Vector]:
        """From the scope's index when one is loaded (brought up to date first), else
        from the table: a recall's feedback round reads a hundred vectors."""
        check_scope(scope)
        if scope in self._indexes:
            index = self._index(scope)
            return index.vectors(ids)
        return self._vectors_from_table(ids, scope)

    def _vectors_from_table(self, ids: Sequence[str], scope: str) -> dict[str, Vector]:
        out: dict[str, Vector] = {}
        for chunk in SQLITE.chunks(list(dict.fromkeys(ids))):
            inside, params = SQLITE.one_of("fact_id", chunk)
            rows = self._conn.execute(
                f"SELECT fact_id, vec FROM vectors WHERE +scope = ? AND {inside}", (scope, *params)
            )
            out.update((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)
        return out

    # -- forgetting ----------------------------------------------------------------------
    def _forget_indexed(self, scope: str, doomed: Sequence[str], report: ForgetReport) -> None:
        marks = ", ".join("?" * len(doomed))
        report.fts_rows += self._conn.execute(
            f"DELETE FROM facts_fts WHERE rowid IN (SELECT rowid FROM facts WHERE id IN ({marks}))",
            doomed,
        ).rowcount
        # the change log keeps a removal for other processes' indexes, not the add
        self._conn.execute(f"DELETE FROM vector_log WHERE fact_id IN ({marks})", doomed)
        self._pending += [("remove", scope, fid, None) for fid in doomed]
        self._pending.append(("touch", scope, "", None))

    def _forget_mark_erase(self, scope: str, report: ForgetReport) -> None:
        self._conn.execute("INSERT INTO pending_erase (created_at) VALUES (?)", (time.time(),))
        self._marked = True

    @reading
    def pending_erase(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM pending_erase").fetchone()[0])

    def erase(self, *, wait: float | None = None) -> bool:
        """Leave no copy of forgotten records behind. Deleted rows are zeroed where they
        lay (secure_delete), but the full-text index keeps a deleted row's terms until
        its segments merge, and the write-ahead log keeps the pages as they were before
        the delete. So: merge the FTS segments ('optimize', dropping deleted entries),
        then fold the log into the main file and truncate it to nothing
        (wal_checkpoint(TRUNCATE)). A reader of an older snapshot keeps the log from
        being folded; wait for it at most `wait` seconds (`erase_wait` when None), then
        leave the erase pending: the next open, write or close of the database finishes
        it, and `pending_erase()` says how many wait."""
        wait = self.erase_wait if wait is None else max(0.0, float(wait))
        with self._lock:
            if self._depth:  # within a transaction: right after its commit
                self._erase_due = True
                return False
            if self._erasing:
                return False
            self._erasing = True
            try:
                self._conn.execute(f"PRAGMA busy_timeout = {max(1, int(wait * 1000))}")
                return self._erase(wait)
            except sqlite3.OperationalError:  # busy or locked: it stays pending
                return False
            finally:
                self._erasing = False
                self._conn.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")

    def _erase(self, wait: float) -> bool:
        c = self._conn
        last, fts_done = c.execute("SELECT max(id), min(fts_done) FROM pending_erase").fetchone()
        if last is None:
            return True
        if not fts_done:
            with self.transaction():
                c.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
                c.execute("UPDATE pending_erase SET fts_done = 1 WHERE id <= ?", (last,))
        if not self._fold_wal(wait):
            return False
        self._conn.execute(f"PRAGMA busy_timeout = {max(1000, int(wait * 1000))}")
        with self.transaction():
            c.execute("DELETE FROM pending_erase WHERE id <= ?", (last,))
        self._fold_wal(0)  # what that delete wrote: nothing forgotten, so best effort
        return True

    def _fold_wal(self, wait: float) -> bool:
        """Checkpoint the whole log into the main file and truncate it; True when done."""
        if self.path == ":memory:":
            return True
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            self._conn.execute(f"PRAGMA busy_timeout = {max(1, min(100, int(left * 1000)))}")
            # busy is 0 only once every frame is in the main file and the log is truncated
            busy, log, moved = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy == 0 and log == moved:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    # -- models --------------------------------------------------------------------------
    def reindex(self) -> int:
        done = 0
        with self.transaction():
            rows = self._conn.execute(
                "SELECT f.id, f.scope, f.text FROM facts f ORDER BY f.rowid"
            ).fetchall()
            for start in range(0, len(rows), 256):
                batch = rows[start : start + 256]
                vecs = self.embedder.embed_documents([r[2] for r in batch])
                self._conn.executemany(
                    "INSERT INTO vectors (fact_id, scope, model, vec) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (fact_id) DO UPDATE SET model = excluded.model, "
                    "vec = excluded.vec",
                    [
                        (r[0], r[1], self.embedder.name, np.asarray(v, np.float32).tobytes())
                        for r, v in zip(batch, vecs, strict=True)
                    ],
                )
                done += len(batch)
            for scope in {r[1] for r in rows}:
                self._pending.append(("reset", scope, "", None))
        self._indexes.clear()
        self._embed_cache.clear()
        self._stored_model = self.embedder.name if rows else None
        return done

    def close(self) -> None:
        with self._lock:
            try:
                if self._erase_ready and self.pending_erase():
                    self.erase(wait=0)
            except sqlite3.Error:
                pass
            self._conn.close()
