"""SQLite schema, as named migrations (applied once each, recorded in `migrations`)."""

from __future__ import annotations

import sqlite3

from .migrations import Migrations

MIGRATIONS: Migrations[sqlite3.Connection] = Migrations()


def _script(conn: sqlite3.Connection, sql: str) -> None:
    """Run statements one by one: `executescript` would commit the open transaction,
    and a migration must land together with the row that records it."""
    for statement in sql.split(";"):
        lines = [ln for ln in statement.splitlines() if not ln.strip().startswith("--")]
        if "".join(lines).strip():
            conn.execute("\n".join(lines))


@MIGRATIONS
def m001_initial(conn: sqlite3.Connection) -> None:
    _script(
        conn,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        CREATE TABLE facts (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            scope TEXT NOT NULL,
            text TEXT NOT NULL,
            subject TEXT,
            predicate TEXT,
            object TEXT,
            source TEXT NOT NULL,
            confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
            status TEXT NOT NULL
                CHECK (status IN ('active', 'superseded', 'conflicted', 'retracted')),
            derived_from TEXT NOT NULL DEFAULT '[]',
            superseded_by TEXT,
            created_at REAL NOT NULL,
            valid_from REAL,
            valid_to REAL,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_seen_at REAL
        );
        CREATE INDEX facts_scope_key ON facts (scope, subject, predicate);
        CREATE INDEX facts_scope_status ON facts (scope, status);
        CREATE INDEX facts_scope_created ON facts (scope, created_at);

        -- every provenance reference (episode, turn or fact id), for forget by episode
        CREATE TABLE provenance (
            fact_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            scope TEXT NOT NULL,
            ref TEXT NOT NULL,
            PRIMARY KEY (fact_id, ref)
        );
        CREATE INDEX provenance_ref ON provenance (scope, ref);

        CREATE TABLE vectors (
            fact_id TEXT PRIMARY KEY REFERENCES facts (id) ON DELETE CASCADE,
            scope TEXT NOT NULL,
            model TEXT NOT NULL,
            vec BLOB NOT NULL
        );
        CREATE INDEX vectors_scope ON vectors (scope);

        -- bumped in the transaction that changes a scope's vectors, so every process can
        -- tell whether its in-memory vector index is current
        CREATE TABLE scope_gen (scope TEXT PRIMARY KEY, gen INTEGER NOT NULL);

        CREATE VIRTUAL TABLE facts_fts USING fts5 (
            text, subject, object, scope, tokenize = 'porter unicode61'
        );

        CREATE TABLE aliases (
            scope TEXT NOT NULL,
            alias TEXT NOT NULL,
            canonical TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (scope, alias)
        );

        CREATE TABLE lineage (
            scope TEXT NOT NULL,
            parent_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            child_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'refines', 'derived')),
            created_at REAL NOT NULL,
            PRIMARY KEY (parent_id, child_id, kind)
        );
        CREATE INDEX lineage_child ON lineage (child_id);

        CREATE TABLE conflicts (
            scope TEXT NOT NULL,
            fact_a TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            fact_b TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            created_at REAL NOT NULL,
            resolved_at REAL,
            resolution TEXT,
            decided_by TEXT,
            PRIMARY KEY (fact_a, fact_b)
        );
        CREATE INDEX conflicts_b ON conflicts (fact_b);
        CREATE INDEX conflicts_scope ON conflicts (scope, resolved_at);

        CREATE TABLE rejections (
            id INTEGER PRIMARY KEY,
            scope TEXT NOT NULL,
            text TEXT NOT NULL,
            code TEXT NOT NULL,
            reason TEXT NOT NULL,
            source TEXT NOT NULL,
            subject TEXT,
            derived_from TEXT NOT NULL DEFAULT '[]',
            created_at REAL NOT NULL
        );
        CREATE INDEX rejections_scope ON rejections (scope, id);

        CREATE TABLE rules (
            id TEXT PRIMARY KEY,
            scope TEXT NOT NULL,
            pattern TEXT NOT NULL,
            subject TEXT,
            created_at REAL NOT NULL,
            origin TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX rules_scope ON rules (scope);
        """,
    )


@MIGRATIONS
def m002_rejection_codes(conn: sqlite3.Connection) -> None:
    # the accept/reject report groups rejections by reason; keep that an index scan
    conn.execute("CREATE INDEX rejections_code ON rejections (scope, code)")


@MIGRATIONS
def m003_pending_erase(conn: sqlite3.Connection) -> None:
    # a forget whose erase step has not finished: the FTS index still to merge (fts_done
    # 0), or the write-ahead log still to fold into the zeroed pages of the main file and
    # truncate, because a reader of an older snapshot held it. No forgotten text is kept.
    conn.execute(
        "CREATE TABLE pending_erase (id INTEGER PRIMARY KEY, created_at REAL NOT NULL, "
        "fts_done INTEGER NOT NULL DEFAULT 0)"
    )


@MIGRATIONS
def m004_fact_events(conn: sqlite3.Connection) -> None:
    # the decision log (`credo why`, record-time reads): one row per decision about a
    # fact. Facts retired before the log existed get one row, dated when their successor
    # was stored (or, lacking one, when they stopped being valid), so that `--known-at`
    # reads of an older database are as exact as what it kept allows.
    _script(
        conn,
        """
        CREATE TABLE fact_events (
            id INTEGER PRIMARY KEY,
            scope TEXT NOT NULL,
            fact_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            other_id TEXT,
            decided_by TEXT NOT NULL DEFAULT '',
            confidence REAL,
            detail TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX fact_events_fact ON fact_events (fact_id, id);
        CREATE INDEX fact_events_other ON fact_events (other_id);
        INSERT INTO fact_events (scope, fact_id, at, kind, other_id, decided_by, confidence, detail)
            SELECT f.scope, f.id,
                   COALESCE(s.created_at, f.valid_to, f.created_at),
                   CASE f.status WHEN 'retracted' THEN 'retracted' ELSE 'superseded' END,
                   f.superseded_by, 'migration', f.confidence,
                   '{"note": "recorded before credo kept a decision log"}'
            FROM facts f LEFT JOIN facts s ON s.id = f.superseded_by
            WHERE f.status IN ('superseded', 'retracted')
        """,
    )


@MIGRATIONS
def m005_ingest_episodes(conn: sqlite3.Connection) -> None:
    # what became of each episode `credo ingest` read (done, or failed and why), so that
    # a re-run skips what is done and retries what failed; refs (JSON: the session and
    # turn ids) let `forget --episode` take the record with the facts
    _script(
        conn,
        """
        CREATE TABLE ingest_episodes (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            status TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            refs TEXT NOT NULL DEFAULT '[]',
            accepted INTEGER NOT NULL DEFAULT 0,
            rejected INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL,
            PRIMARY KEY (scope, key)
        )
        """,
    )


@MIGRATIONS
def m006_vector_changelog(conn: sqlite3.Connection) -> None:
    # every change to a scope's vectors, in commit order, written in the transaction that
    # makes it: another process's in-memory index reads what changed since the last entry
    # it applied (a delta) instead of reloading the scope's whole vector table. Ids only,
    # no text or vectors. Forget drops a forgotten fact's entries and logs a 'sweep' (no
    # id: a reader drops the ids its index holds that the table no longer has), so no
    # forgotten id stays behind; 'reset' (re-embedding): reload. Old entries are pruned;
    # a reader behind the oldest one reloads.
    _script(
        conn,
        """
        CREATE TABLE vector_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            scope TEXT NOT NULL,
            fact_id TEXT NOT NULL,
            op TEXT NOT NULL CHECK (op IN ('add', 'sweep', 'reset'))
        );
        CREATE INDEX vector_log_scope ON vector_log (scope, seq);
        CREATE INDEX vector_log_fact ON vector_log (fact_id)
        """,
    )
