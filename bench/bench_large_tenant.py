"""A large tenant among many small ones on PostgreSQL: what finds its exact top 10, fast.

    .venv/bin/python bench/bench_large_tenant.py --db postgresql://... --small 1000 \
        --small-facts 100 --large 20000 5000 --pool 2000 --pool-cache /tmp/pool2k.npy

A fresh schema holds a table shaped as credo's vectors (`scope`, `dim`, untyped `vec`, a
btree on scope, the shared HNSW index `WHERE dim = N` built as credo builds it): --small
scopes of --small-facts rows and one scope per --large size, the rows of every scope
interleaved (as tenants writing at once leave them). Each row is one vector of a pool of
--pool generated sentences embedded by the real model, plus Gaussian noise (sigma
--noise, re-normalised): clusters of near-duplicates, a graph's hard case. Then, for each
large scope, --queries real query embeddings are searched by every variant in turn (one
query, every variant, then the next query, so that the machine's load falls on all of
them alike), with top-10 overlap against numpy's exact answer over the same scope:

- shared ef=E: the shared graph walked with the scope filter and
  `hnsw.iterative_scan = relaxed_order` (credo's path for a scope from EXACT_BELOW on), at
  every --ef-search (the first is what `postgres.ef_for_rows` gives the table);
- exact: every row of the scope by the scope's btree, the distance on the bare column
  (credo's path below EXACT_BELOW);
- own ef=E: a partial HNSW index of the scope's rows alone (`... WHERE dim = N AND
  scope = '...'`, built CONCURRENTLY, its build time printed), at every --own-ef-search.

Then small scopes (exact, as credo ranks them) with the partial indexes present, against
the same before they were built: whether a small tenant pays for the large ones' indexes.
Each step is printed as a JSON line and written to --out.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pg_options import log  # noqa: E402
from bench_scale import embedded_pool, make_query, make_text, pct  # noqa: E402

from credo.embed import get_embedder  # noqa: E402
from credo.store.postgres import ef_for_rows  # noqa: E402
from credo.store.postgres_schema import HNSW_EF_CONSTRUCTION, HNSW_M  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--small-facts", type=int, default=100)
    p.add_argument("--large", type=int, nargs="+", default=[20000, 5000])
    p.add_argument("--pool", type=int, default=2000)
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument(
        "--ef-search",
        type=int,
        nargs="*",
        default=None,
        help="shared-graph lists (default: ef_for_rows of the table, 200, 400, 800)",
    )
    p.add_argument("--own-ef-search", type=int, nargs="*", default=[40, 100])
    p.add_argument(
        "--extra-own",
        type=int,
        nargs="*",
        default=[],
        help="then give small scopes indexes of their own as well, this many more "
        "at each step, measuring after each (and once more after dropping them): "
        "what many partial indexes cost a small scope's search and a write",
    )
    p.add_argument(
        "--skip-shared",
        action="store_true",
        help="no shared HNSW index and no shared variants (exact and own only)",
    )
    p.add_argument("--build-memory", default="512MB")
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--pool-cache", help="a .npy file holding the embedded pool")
    p.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    p.add_argument("--out", default=None)
    args = p.parse_args()
    import psycopg
    from pgvector.psycopg import register_vector

    total = args.small * args.small_facts + sum(args.large)
    out = Path(args.out or RESULTS / f"large-tenant-{total}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    rng = random.Random(args.seed)
    nprng = np.random.default_rng(args.seed)
    model = get_embedder(args.embedder)
    dim = model.dim
    t0 = time.perf_counter()
    texts = list(dict.fromkeys(make_text(rng) for _ in range(args.pool)))
    pool = embedded_pool(model, texts, args.pool_cache)
    queries = [make_query(rng) for _ in range(args.queries)]
    qvecs = model.embed_batch(queries)
    shared_efs = args.ef_search or [ef_for_rows(total), 200, 400, 800]
    log(
        out,
        {
            "step": "embedded",
            "pool": len(texts),
            "s": round(time.perf_counter() - t0, 1),
            "rows": total,
            "command": " ".join(sys.argv),
        },
    )

    # every scope's rows interleaved: row i goes to a scope drawn by its share of the table
    large = [f"large-{n}" for n in args.large]
    small = [f"small-{i}" for i in range(args.small)]
    owners = np.concatenate(
        [np.full(n, i, dtype=np.int32) for i, n in enumerate(args.large)]
        + [np.repeat(np.arange(args.small, dtype=np.int32) + len(large), args.small_facts)]
    )
    nprng.shuffle(owners)
    names = large + small
    schema = f"large_tenant_{os.getpid()}"
    conn = psycopg.connect(args.db, autocommit=True)
    conn.execute(f"CREATE SCHEMA {schema}")
    conn.execute(f"SET search_path TO {schema}, public")
    register_vector(conn)
    conn.execute(
        "CREATE TABLE v (id bigint PRIMARY KEY, scope text NOT NULL, dim int NOT NULL,"
        " vec vector NOT NULL)"
    )
    t0 = time.perf_counter()
    matrix = np.empty((total, dim), dtype=np.float32)
    with conn.cursor().copy("COPY v (id, scope, dim, vec) FROM STDIN WITH (FORMAT BINARY)") as cp:
        cp.set_types(["int8", "text", "int4", "vector"])
        for start in range(0, total, 50000):
            n = min(50000, total - start)
            vecs = pool[nprng.integers(0, len(pool), n)]
            vecs = vecs + nprng.normal(0.0, args.noise, (n, dim)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            matrix[start : start + n] = vecs
            for i in range(n):
                cp.write_row((start + i, names[owners[start + i]], dim, vecs[i]))
    conn.execute("CREATE INDEX v_scope ON v (scope)")
    conn.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
    t1 = time.perf_counter()
    conn.execute(
        "SELECT 1"
        if args.skip_shared
        else f"CREATE INDEX v_hnsw ON v USING hnsw ((vec::vector({dim})) vector_cosine_ops) "
        f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) WHERE dim = {dim}"
    )
    built = time.perf_counter() - t1
    conn.execute("VACUUM (ANALYZE) v")
    log(
        out,
        {
            "step": "loaded",
            "s": round(time.perf_counter() - t0, 1),
            "shared_hnsw_build_s": round(built, 1),
            "scopes": {"large": args.large, "small": f"{args.small} x {args.small_facts}"},
        },
    )
    conn.execute("SET hnsw.iterative_scan = relaxed_order")
    conn.execute("SET jit = off")

    dist = f"(vec::vector({dim})) <=> %(q)s::vector({dim})"
    # `scope || ''` keeps the partial index out of the shared variant's plan (its predicate
    # names the scope); the walk filters the same rows
    shared_sql = (
        f"SELECT id FROM v WHERE dim = {dim} AND (scope || '') = %(s)s ORDER BY {dist} LIMIT 10"
    )
    exact_sql = (
        f"SELECT id FROM v WHERE dim = {dim} AND scope = %(s)s "
        f"ORDER BY vec <=> %(q)s::vector({dim}) LIMIT 10"
    )
    own_sql = f"SELECT id FROM v WHERE dim = {dim} AND scope = %(s)s ORDER BY {dist} LIMIT 10"

    def plan(sql: str, prm: dict[str, Any]) -> str:
        rows = [str(r[0]) for r in conn.execute("EXPLAIN " + sql, prm).fetchall()]
        used = [
            r.split(" using " if " using " in r else " Index Scan on ")[1].split(" ")[0]
            for r in rows
            if " using " in r or " Index Scan on " in r
        ]
        return ",".join(used) or "seq scan"

    def run(variants: dict[str, tuple[str, int]], scope: str, want: list[set[int]]) -> None:
        times: dict[str, list[float]] = {v: [] for v in variants}
        overlaps: dict[str, list[float]] = {v: [] for v in variants}
        params = [{"s": scope, "q": q} for q in qvecs]
        for prm, exact in zip(params, want, strict=True):
            for name, (sql, ef) in variants.items():
                conn.execute(f"SET hnsw.ef_search = {int(ef)}")
                t = time.perf_counter()
                got = {r[0] for r in conn.execute(sql, prm, prepare=False).fetchall()}
                times[name].append((time.perf_counter() - t) * 1000)
                overlaps[name].append(len(got & exact) / 10)
        for name, (sql, _ef) in variants.items():
            log(
                out,
                {
                    "step": "search",
                    "scope": scope,
                    "variant": name,
                    "p50_ms": round(statistics.median(times[name]), 2),
                    "p95_ms": round(pct(times[name], 95), 2),
                    "overlap_at_10": round(float(np.mean(overlaps[name])), 4),
                    "min_overlap": round(float(np.min(overlaps[name])), 2),
                    "plan": plan(sql, {"s": scope, "q": qvecs[0]}),
                },
            )

    def small_scopes(label: str) -> None:
        draw = random.Random(args.seed + 1)
        picks = [small[draw.randrange(len(small))] for _ in qvecs]
        took = []
        for q, s in zip(qvecs, picks, strict=True):
            t = time.perf_counter()
            conn.execute(exact_sql, {"s": s, "q": q}, prepare=False).fetchall()
            took.append((time.perf_counter() - t) * 1000)
        log(
            out,
            {
                "step": "small scopes",
                "when": label,
                "p50_ms": round(statistics.median(took), 2),
                "p95_ms": round(pct(took, 95), 2),
                "plan": plan(exact_sql, {"s": picks[0], "q": qvecs[0]}),
            },
        )

    small_scopes("shared index only")
    for i, scope in enumerate(large):
        rows = np.flatnonzero(owners == i)
        want = [{int(x) for x in rows[np.argsort(-(matrix[rows] @ q))[:10]]} for q in qvecs]
        variants = {
            f"shared ef={ef}": (shared_sql, ef) for ef in ([] if args.skip_shared else shared_efs)
        }
        variants["exact (btree)"] = (exact_sql, 100)
        literal = scope.replace("'", "''")
        t1 = time.perf_counter()
        conn.execute(
            f"CREATE INDEX CONCURRENTLY v_own_{i} ON v USING hnsw ((vec::vector({dim})) "
            f"vector_cosine_ops) WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) "
            f"WHERE dim = {dim} AND scope = '{literal}'"
        )
        own_s = time.perf_counter() - t1
        size = conn.execute("SELECT pg_relation_size(%s)", (f"v_own_{i}",)).fetchone()
        log(
            out,
            {
                "step": "own index",
                "scope": scope,
                "rows": len(rows),
                "build_s": round(own_s, 1),
                "index_mb": int(size[0]) >> 20 if size else None,
            },
        )
        for ef in args.own_ef_search:
            variants[f"own ef={ef}"] = (own_sql, ef)
        run(variants, scope, want)
    small_scopes("with the large scopes' own indexes")
    if args.extra_own:
        # a write as `remember` makes it: one row, its own transaction
        next_id = [total]

        def inserts(label: str, n: int = 200) -> None:
            took = []
            for _ in range(n):
                j = next_id[0]
                next_id[0] += 1
                t = time.perf_counter()
                conn.execute(
                    "INSERT INTO v (id, scope, dim, vec) VALUES (%s, %s, %s, %s)",
                    (j, small[j % len(small)], dim, matrix[j % total]),
                )
                took.append((time.perf_counter() - t) * 1000)
            log(
                out,
                {
                    "step": "inserts",
                    "when": label,
                    "p50_ms": round(statistics.median(took), 2),
                    "p95_ms": round(pct(took, 95), 2),
                },
            )

        i = 0
        rows = np.flatnonzero(owners == i)
        want = [{int(x) for x in rows[np.argsort(-(matrix[rows] @ q))[:10]]} for q in qvecs]
        own_ef = args.own_ef_search[-1]
        inserts("large scopes' own indexes only")
        small_scopes("large scopes' own indexes only")
        run({f"own ef={own_ef}, no more partial indexes": (own_sql, own_ef)}, large[i], want)
        made = 0
        for step in args.extra_own:
            t1 = time.perf_counter()
            for j in range(made, made + step):
                conn.execute(
                    f"CREATE INDEX v_extra_{j} ON v USING hnsw ((vec::vector({dim})) "
                    f"vector_cosine_ops) WHERE dim = {dim} AND scope = '{small[j]}'"
                )
            made += step
            log(
                out,
                {"step": "extra own indexes", "n": made, "s": round(time.perf_counter() - t1, 1)},
            )
            inserts(f"{made} more partial indexes")
            small_scopes(f"{made} more partial indexes")
            run(
                {f"own ef={own_ef}, {made} more partial indexes": (own_sql, own_ef)}, large[i], want
            )
        for j in range(made):
            conn.execute(f"DROP INDEX v_extra_{j}")
        inserts("dropped again")
        small_scopes("dropped again")
        run({f"own ef={own_ef}, dropped again": (own_sql, own_ef)}, large[i], want)
    if not args.keep:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
    conn.close()


if __name__ == "__main__":
    main()
