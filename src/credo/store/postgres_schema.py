"""PostgreSQL schema, as named migrations (applied once each, recorded in `migrations`).

The tables mirror SQLite's, with three differences of substance:

* Full text is a stored generated `tsvector` column of `facts` with a GIN index, so a
  fact's full-text entry cannot outlive the fact or drift from its text.
* Vectors live in an untyped `vector` column next to their `dim`. The dimension belongs
  to the embedder, which migrations cannot see, and `credo reindex` may switch to a model
  of another size without an `ALTER TABLE`. pgvector's HNSW needs a fixed dimension, so
  the store builds one partial expression index per dimension it uses
  (`vector_index_sql`): `((vec::vector(N)) vector_cosine_ops) WHERE dim = N`. Queries
  repeat that expression and predicate with N as a literal, which is what lets the
  planner match the index (a bound parameter would not match the partial predicate).
* Rules and aliases are keyed by (scope, id) and (scope, alias): the same rule id
  imported into two scopes is two rules, never one moved across the wall.
"""

from __future__ import annotations

import hashlib
from typing import Any

import psycopg
from psycopg import sql

from .migrations import Migrations

MIGRATIONS: Migrations[psycopg.Connection[Any]] = Migrations()

#: the search expression the HNSW indexes are built on; `vector_search` must use it verbatim
VEC_EXPR = "(vec::vector({dim}))"
#: the HNSW graph's links per node (pgvector's default)
HNSW_M = 16
#: the candidate list each row's links are chosen from when it joins the graph. pgvector's
#: default, 64, leaves clusters of near-duplicate facts ("Arttu 1234 lives in Berlin",
#: "Arttu 3726 lives in Oslo") as islands the search cannot reach: at 100k such facts the
#: top 10 held 0.90 of exact search's at ef_search 100 and never more than 0.956 at any
#: ef_search; built with 200 it holds 0.989 at 100 and 1.0 at 200, for a build 3.5 times
#: as long (docs/benchmarks.md, issue 27). An index built before keeps its graph until it
#: is rebuilt (`PostgresStore.rebuild_vector_index`)
HNSW_EF_CONSTRUCTION = 200


def _script(conn: psycopg.Connection[Any], text: str) -> None:
    """Statement by statement: one multi-statement string would run as an implicit
    transaction of its own, and a migration must land together with its record."""
    for statement in text.split(";"):
        lines = [ln for ln in statement.splitlines() if not ln.strip().startswith("--")]
        if "".join(lines).strip():
            conn.execute("\n".join(lines))


def vector_index_name(dim: int) -> str:
    return f"vectors_hnsw_{int(dim)}"


def vector_index_sql(dim: int) -> sql.Composed:
    """The HNSW index for vectors of one dimension (cosine distance)."""
    dim = int(dim)
    if not 1 <= dim <= 2000:  # pgvector's HNSW limit for `vector`
        raise ValueError(f"pgvector's HNSW index takes 1 to 2000 dimensions, not {dim}")
    return sql.SQL(
        "CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw "
        "(" + VEC_EXPR.format(dim=dim) + " vector_cosine_ops) "
        f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) WHERE dim = {dim}"
    ).format(name=sql.Identifier(vector_index_name(dim)))


def own_index_name(dim: int, scope: str) -> str:
    """The HNSW index of one scope's vectors alone: named by a hash of the scope (any text
    may be a scope; an index name is at most 63 bytes), its own dimension first so that
    `reindex` drops it with the shared one."""
    digest = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]
    return f"vectors_hnsw_{int(dim)}_s{digest}"


def own_index_sql(dim: int, scope: str) -> sql.Composed:
    """A partial HNSW index of one scope's vectors (`PostgresStore` builds it for a large
    scope among others, see `postgres.OWN_INDEX_FROM`): built CONCURRENTLY, so that no
    tenant's writes wait for it, with the shared index's parameters. The scope is a
    literal of the predicate; the search's `scope = $1`, planned for its value each time
    (the vector query is never prepared), matches it."""
    dim = int(dim)
    return sql.SQL(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON vectors USING hnsw "
        "(" + VEC_EXPR.format(dim=dim) + " vector_cosine_ops) "
        f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) "
        f"WHERE dim = {dim} AND scope = {{scope}}"
    ).format(name=sql.Identifier(own_index_name(dim, scope)), scope=sql.Literal(scope))


@MIGRATIONS
def m001_initial(conn: psycopg.Connection[Any]) -> None:
    _script(
        conn,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        CREATE TABLE facts (
            -- insertion order, the tie-break SQLite gets from its rowid
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            id TEXT PRIMARY KEY,
            scope TEXT NOT NULL,
            text TEXT NOT NULL,
            subject TEXT,
            predicate TEXT,
            object TEXT,
            source TEXT NOT NULL,
            confidence DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN 0 AND 1),
            status TEXT NOT NULL
                CHECK (status IN ('active', 'superseded', 'conflicted', 'retracted')),
            derived_from TEXT[] NOT NULL DEFAULT '{}',
            superseded_by TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            valid_from DOUBLE PRECISION,
            valid_to DOUBLE PRECISION,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_seen_at DOUBLE PRECISION,
            tsv TSVECTOR GENERATED ALWAYS AS (
                to_tsvector('english'::regconfig,
                            text || ' ' || coalesce(subject, '') || ' ' || coalesce(object, ''))
            ) STORED
        );
        CREATE INDEX facts_scope_key ON facts (scope, subject, predicate);
        CREATE INDEX facts_scope_status ON facts (scope, status);
        CREATE INDEX facts_scope_created ON facts (scope, created_at, seq);
        CREATE INDEX facts_superseded_by ON facts (superseded_by)
            WHERE superseded_by IS NOT NULL;
        CREATE INDEX facts_tsv ON facts USING gin (tsv);

        -- every provenance reference (episode, turn or fact id), for forget by episode
        CREATE TABLE provenance (
            fact_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            scope TEXT NOT NULL,
            ref TEXT NOT NULL,
            PRIMARY KEY (fact_id, ref)
        );
        CREATE INDEX provenance_ref ON provenance (scope, ref);

        -- untyped on purpose (see the module docstring): dim says which HNSW index holds it
        CREATE TABLE vectors (
            fact_id TEXT PRIMARY KEY REFERENCES facts (id) ON DELETE CASCADE,
            scope TEXT NOT NULL,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vec VECTOR NOT NULL,
            CHECK (vector_dims(vec) = dim)
        );
        CREATE INDEX vectors_scope ON vectors (scope);

        CREATE TABLE aliases (
            scope TEXT NOT NULL,
            alias TEXT NOT NULL,
            canonical TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (scope, alias)
        );

        CREATE TABLE lineage (
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            scope TEXT NOT NULL,
            parent_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            child_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'refines', 'derived')),
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (parent_id, child_id, kind)
        );
        CREATE INDEX lineage_child ON lineage (child_id);
        CREATE INDEX lineage_scope ON lineage (scope, created_at, seq);

        CREATE TABLE conflicts (
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            scope TEXT NOT NULL,
            fact_a TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            fact_b TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            resolved_at DOUBLE PRECISION,
            resolution TEXT,
            decided_by TEXT,
            PRIMARY KEY (fact_a, fact_b)
        );
        CREATE INDEX conflicts_b ON conflicts (fact_b);
        CREATE INDEX conflicts_scope ON conflicts (scope, resolved_at);

        CREATE TABLE rejections (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scope TEXT NOT NULL,
            text TEXT NOT NULL,
            code TEXT NOT NULL,
            reason TEXT NOT NULL,
            source TEXT NOT NULL,
            subject TEXT,
            derived_from TEXT[] NOT NULL DEFAULT '{}',
            created_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX rejections_scope ON rejections (scope, id);
        CREATE INDEX rejections_subject ON rejections (scope, subject);

        CREATE TABLE rules (
            id TEXT NOT NULL,
            scope TEXT NOT NULL,
            pattern TEXT NOT NULL,
            subject TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            origin TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (scope, id)
        )
        """,
    )


#: columns that hold what a user said (text, keys, ids, vectors): ANALYZE samples none of
#: them, so pg_statistic (a catalog no forget can reach) never keeps a copy of a value
PRIVATE_COLUMNS = {
    "facts": (
        "id",
        "text",
        "subject",
        "predicate",
        "object",
        "derived_from",
        "superseded_by",
        "tsv",
    ),
    "vectors": ("fact_id", "vec"),
    "provenance": ("fact_id", "ref"),
    "lineage": ("parent_id", "child_id"),
    "conflicts": ("fact_a", "fact_b", "reason", "resolution"),
    "rejections": ("text", "reason", "subject", "derived_from"),
    "aliases": ("alias", "canonical"),
    "rules": ("id", "pattern", "subject", "origin"),
}


@MIGRATIONS
def m002_erase(conn: psycopg.Connection[Any]) -> None:
    _script(
        conn,
        """
        -- forgets whose erase step (rewriting the tables named, with their indexes) has
        -- not run yet, and xid is the forget's transaction. No forgotten text is kept here.
        CREATE TABLE pending_erase (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            xid BIGINT NOT NULL,
            tables TEXT[] NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
        -- one row, updated by every forget: once VACUUM finds no dead version of it left,
        -- no snapshot can still see what those forgets deleted
        CREATE TABLE erase_probe (n BIGINT NOT NULL);
        INSERT INTO erase_probe VALUES (0)
        """,
    )
    for table, columns in PRIVATE_COLUMNS.items():
        conn.execute(
            sql.SQL("ALTER TABLE {} {}").format(
                sql.Identifier(table),
                sql.SQL(", ").join(
                    sql.SQL("ALTER COLUMN {} SET STATISTICS 0").format(sql.Identifier(c))
                    for c in columns
                ),
            )
        )
    # samples taken before this migration stay until deleted, which only a superuser may
    row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    if row and row[0]:
        conn.execute(
            "DELETE FROM pg_statistic s USING pg_attribute a WHERE a.attrelid = s.starelid "
            "AND a.attnum = s.staattnum AND a.attstattarget = 0 "
            "AND s.starelid = ANY(%s::regclass[])",
            (list(PRIVATE_COLUMNS),),
        )


@MIGRATIONS
def m003_fact_events(conn: psycopg.Connection[Any]) -> None:
    # the decision log (`credo why`, record-time reads); see the SQLite migration of the
    # same name for the rows given to facts retired before it existed
    _script(
        conn,
        """
        CREATE TABLE fact_events (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scope TEXT NOT NULL,
            fact_id TEXT NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            at DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL,
            other_id TEXT,
            decided_by TEXT NOT NULL DEFAULT '',
            confidence DOUBLE PRECISION,
            detail JSONB NOT NULL DEFAULT '{}'
        );
        CREATE INDEX fact_events_fact ON fact_events (fact_id, id);
        CREATE INDEX fact_events_other ON fact_events (other_id);
        ALTER TABLE fact_events ALTER COLUMN fact_id SET STATISTICS 0,
            ALTER COLUMN other_id SET STATISTICS 0, ALTER COLUMN detail SET STATISTICS 0;
        INSERT INTO fact_events (scope, fact_id, at, kind, other_id, decided_by, confidence, detail)
            SELECT f.scope, f.id,
                   COALESCE(s.created_at, f.valid_to, f.created_at),
                   CASE f.status WHEN 'retracted' THEN 'retracted' ELSE 'superseded' END,
                   f.superseded_by, 'migration', f.confidence,
                   '{"note": "recorded before credo kept a decision log"}'::jsonb
            FROM facts f LEFT JOIN facts s ON s.id = f.superseded_by
            WHERE f.status IN ('superseded', 'retracted')
        """,
    )


@MIGRATIONS
def m004_ingest_episodes(conn: psycopg.Connection[Any]) -> None:
    # see the SQLite migration of the same name
    _script(
        conn,
        """
        CREATE TABLE ingest_episodes (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            status TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            refs TEXT[] NOT NULL DEFAULT '{}',
            accepted INTEGER NOT NULL DEFAULT 0,
            rejected INTEGER NOT NULL DEFAULT 0,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (scope, key)
        );
        ALTER TABLE ingest_episodes ALTER COLUMN reason SET STATISTICS 0,
            ALTER COLUMN refs SET STATISTICS 0
        """,
    )
