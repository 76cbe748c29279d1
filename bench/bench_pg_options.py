"""pgvector's options for credo's vectors table at scale: one scope, or many scopes.

    .venv/bin/python bench/bench_pg_options.py --db postgresql://... --facts 1000000 --scopes 1
    .venv/bin/python bench/bench_pg_options.py --db postgresql://... --facts 1000000 --scopes 1000

A fresh schema holds a table shaped as credo's (`scope`, `dim`, untyped `vec`) with N
vectors: a pool of --pool synthetic facts (bench_scale's generator) embedded with the real
model, each row one pool vector plus Gaussian noise (sigma --noise, re-normalised), or with
--vectors-from the real vectors of an earlier embedded build (one distinct sentence each),
spread evenly over --scopes scopes. Then, for each variant, an HNSW index is built (time, size,
maintenance_work_mem) and --queries real query embeddings are searched with the scope
filter and `hnsw.iterative_scan = relaxed_order` (p50/p95 ms, and top-10 overlap with the
exact answer computed in numpy over the same scope), side by side at every --ef-search and
--shortlist (the index's first L rows ranked again exactly by the float vectors: past
ef_search the iterative scan goes on walking the graph to find them), for every --builds
m:ef_construction:

- vector:  credo's index, `((vec::vector(N)) vector_cosine_ops) WHERE dim = N`;
- halfvec: `((vec::halfvec(N)) halfvec_cosine_ops)`: half the size, same search;
- bit:     `((binary_quantize(vec)::bit(N)) bit_hamming_ops)`: a shortlist of rows by
  Hamming distance, ranked by exact cosine (as SQLite's index does);
- btree:   no HNSW, the scope's rows by the scope index and an exact scan (what the planner
  may choose anyway for a selective scope).

Each step is printed and appended to the JSON (--out) as it finishes, so a run that cannot
finish (a 1M HNSW build on two shared cores) still says what it reached.
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
from bench_scale import embedded_pool, log_step, make_query, make_text, pct, replay  # noqa: E402

from credo.embed import get_embedder  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"

INDEXES = {
    "vector": "CREATE INDEX {name} ON v USING hnsw ((vec::vector({dim})) vector_cosine_ops) "
    "WITH (m = {m}, ef_construction = {efc}) WHERE dim = {dim}",
    "halfvec": "CREATE INDEX {name} ON v USING hnsw ((vec::halfvec({dim})) halfvec_cosine_ops) "
    "WITH (m = {m}, ef_construction = {efc}) WHERE dim = {dim}",
    "bit": "CREATE INDEX {name} ON v USING hnsw ((binary_quantize(vec)::bit({dim})) "
    "bit_hamming_ops) WITH (m = {m}, ef_construction = {efc}) WHERE dim = {dim}",
}
#: what each variant's index orders by (the exact order is the float vector's cosine)
ORDER = {
    "vector": "vec::vector({dim}) <=> %(q)s::vector({dim})",
    "halfvec": "vec::halfvec({dim}) <=> %(q)s::vector({dim})::halfvec({dim})",
    "bit": "binary_quantize(vec)::bit({dim}) <~> binary_quantize(%(q)s::vector({dim}))",
    "btree": "vec::vector({dim}) <=> %(q)s::vector({dim})",
}
EXACT = "vec::vector({dim}) <=> %(q)s::vector({dim})"


def query(variant: str, dim: int, shortlist: int) -> str:
    """The top 10 of a scope by `variant`'s index; with `shortlist` > 10, the index's
    first `shortlist` rows (an iterative scan goes on past ef_search to find them) ranked
    again by the exact cosine of the float vectors."""
    order = ORDER[variant].format(dim=dim)
    where = f"FROM v WHERE dim = {dim} AND scope = %(s)s"
    if shortlist <= 10 and variant != "bit":
        return f"SELECT id {where} ORDER BY {order} LIMIT 10"
    return (
        f"SELECT id FROM (SELECT id, vec {where} ORDER BY {order} LIMIT {int(shortlist)}) s "
        f"ORDER BY {EXACT.format(dim=dim)} LIMIT 10"
    )


log = log_step


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True)
    p.add_argument("--facts", type=int, default=1_000_000)
    p.add_argument("--scopes", type=int, default=1)
    p.add_argument("--pool", type=int, default=20000)
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument(
        "--variants", nargs="*", default=["bit", "halfvec", "vector"], choices=sorted(INDEXES)
    )
    p.add_argument(
        "--shortlist",
        type=int,
        nargs="+",
        default=[10],
        help="rows fetched by the index and ranked again exactly (10: the index's own top "
        "10; bit always takes a shortlist, 200 when none above 10 is given)",
    )
    p.add_argument("--ef-search", type=int, nargs="+", default=[100])
    p.add_argument(
        "--builds",
        nargs="+",
        default=["16:64"],
        help="HNSW build parameters m:ef_construction, one index built per value",
    )
    p.add_argument("--max-scan-tuples", type=int, default=20000, help="hnsw.max_scan_tuples")
    p.add_argument("--build-memory", default="1GB")
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    p.add_argument(
        "--vectors-from",
        help="an embedded bench_scale build's SQLite file "
        "(bench_scale.py --keep DIR): its first --facts real vectors instead of "
        "the noisy pool",
    )
    p.add_argument(
        "--pool-cache",
        help="a .npy file holding the embedded pool (written on the first run, read after: "
        "the same --pool and --seed give the same texts)",
    )
    p.add_argument("--out", default=None)
    args = p.parse_args()
    import psycopg
    from pgvector.psycopg import register_vector

    out = Path(args.out or RESULTS / f"pg-options-{args.facts}-{args.scopes}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    rng = random.Random(args.seed)
    nprng = np.random.default_rng(args.seed)
    model = get_embedder(args.embedder)
    dim = model.dim
    t0 = time.perf_counter()
    texts = (
        [] if args.vectors_from else list(dict.fromkeys(make_text(rng) for _ in range(args.pool)))
    )
    pool = embedded_pool(model, texts, args.pool_cache)
    real = replay(args.vectors_from) if args.vectors_from else None
    queries = [make_query(rng) for _ in range(args.queries)]
    qvecs = model.embed_batch(queries)
    log(
        out,
        {
            "step": "embedded pool",
            "pool": len(texts),
            "s": round(time.perf_counter() - t0, 1),
            "facts": args.facts,
            "scopes": args.scopes,
            "command": " ".join(sys.argv),
        },
    )

    schema = f"pgopt_{args.facts}_{args.scopes}_{os.getpid()}"
    conn = psycopg.connect(args.db, autocommit=True)
    conn.execute(f"CREATE SCHEMA {schema}")
    conn.execute(f"SET search_path TO {schema}, public")
    register_vector(conn)
    conn.execute(
        "CREATE TABLE v (id bigint PRIMARY KEY, scope text NOT NULL, dim int NOT NULL,"
        " vec vector NOT NULL)"
    )
    t0 = time.perf_counter()
    matrix = np.empty((args.facts, dim), dtype=np.float32)
    scopes = [f"s{i % args.scopes}" for i in range(args.facts)]
    with conn.cursor().copy("COPY v (id, scope, dim, vec) FROM STDIN WITH (FORMAT BINARY)") as cp:
        cp.set_types(["int8", "text", "int4", "vector"])
        for start in range(0, args.facts, 50000):
            n = min(50000, args.facts - start)
            if real is not None:
                vecs = np.stack([vec for _, vec in (next(real) for _ in range(n))])
            else:
                base = pool[nprng.integers(0, len(pool), n)]
                vecs = base + nprng.normal(0.0, args.noise, (n, dim)).astype(np.float32)
                vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            matrix[start : start + n] = vecs
            for i in range(n):
                cp.write_row((start + i, scopes[start + i], dim, vecs[i]))
    conn.execute("CREATE INDEX v_scope ON v (scope)")
    conn.execute("ANALYZE v")
    size = conn.execute("SELECT pg_total_relation_size('v')").fetchone()[0]
    log(out, {"step": "loaded", "s": round(time.perf_counter() - t0, 1), "table_mb": size >> 20})

    conn.execute("SET hnsw.iterative_scan = relaxed_order")
    conn.execute("SET jit = off")
    scope_of = np.array([int(s[1:]) for s in scopes])
    probe = [f"s{rng.randrange(args.scopes)}" for _ in queries]
    exact: list[set[int]] = []
    for q, s in zip(qvecs, probe, strict=True):
        rows = np.flatnonzero(scope_of == int(s[1:]))
        top = rows[np.argsort(-(matrix[rows] @ q))[:10]]
        exact.append({int(i) for i in top})

    def measure(variant: str, shortlist: int, ef: int) -> dict[str, Any]:
        conn.execute(f"SET hnsw.ef_search = {int(ef)}")
        sql = query(variant, dim, shortlist)
        params = [{"s": s, "q": q} for q, s in zip(qvecs, probe, strict=True)]
        for prm in params[:5]:
            conn.execute(sql, prm).fetchall()
        times, overlaps = [], []
        for prm, want in zip(params, exact, strict=True):
            t = time.perf_counter()
            got = {r[0] for r in conn.execute(sql, prm).fetchall()}
            times.append((time.perf_counter() - t) * 1000)
            overlaps.append(len(got & want) / 10)
        plan = conn.execute("EXPLAIN " + sql, params[0]).fetchall()
        uses = (
            "hnsw"
            if any("v_hnsw" in r[0] for r in plan)
            else ("scope btree" if any("v_scope" in r[0] for r in plan) else "seq scan")
        )
        return {
            "variant": variant,
            "ef_search": ef,
            "shortlist": shortlist,
            "p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(pct(times, 95), 2),
            "overlap_at_10": round(float(np.mean(overlaps)), 4),
            "min_overlap": round(float(np.min(overlaps)), 2),
            "plan": uses,
        }

    conn.execute(f"SET hnsw.max_scan_tuples = {int(args.max_scan_tuples)}")
    log(out, {"step": "search", **measure("btree", 10, 100), "variant": "btree (no HNSW)"})
    for variant in args.variants:
        for build in args.builds:
            m, efc = (int(x) for x in build.split(":"))
            name = f"v_hnsw_{variant}"
            conn.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
            t0 = time.perf_counter()
            try:
                conn.execute(INDEXES[variant].format(name=name, dim=dim, m=m, efc=efc))
            except psycopg.Error as exc:
                log(out, {"step": "build", "variant": variant, "error": str(exc)})
                continue
            built = time.perf_counter() - t0
            isize = conn.execute("SELECT pg_relation_size(%s)", (name,)).fetchone()[0]
            log(
                out,
                {
                    "step": "build",
                    "variant": variant,
                    "m": m,
                    "ef_construction": efc,
                    "s": round(built, 1),
                    "index_mb": isize >> 20,
                    "maintenance_work_mem": args.build_memory,
                },
            )
            lists = args.shortlist
            if variant == "bit" and max(lists) <= 10:
                lists = [200]
            for shortlist in lists:
                for ef in args.ef_search:
                    log(out, {"step": "search", "build": build, **measure(variant, shortlist, ef)})
            conn.execute(f"DROP INDEX {name}")
    if not args.keep:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
    conn.close()


if __name__ == "__main__":
    main()
