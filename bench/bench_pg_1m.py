"""PostgreSQL at 1M facts in one scope, built once and measured many times (issue 27).

    # build: table + HNSW index in a schema that is kept, the rows' vectors in a .npy
    nice -n 15 .venv/bin/python bench/bench_pg_1m.py build --db postgresql://... \\
        --schema pg1m --facts 1000000 --pool 10000 --pool-cache /tmp/pool10k.npy \\
        --matrix /tmp/wt27/pg1m.npy --build-memory 3GB
    # measure: top-10 overlap with exact (numpy over the same rows) and search p50/p95
    nice -n 15 .venv/bin/python bench/bench_pg_1m.py measure --db postgresql://... \\
        --schema pg1m --pool 10000 --pool-cache /tmp/pool10k.npy --matrix /tmp/wt27/pg1m.npy \\
        --configs vector:100 vector:400 vector:1000 halfvec-rerank:1000:400 ...

The rows are bench_pg_options' synthetic kind: a pool of --pool generated sentences
embedded by the model, each row one pool vector plus Gaussian noise (sigma --noise,
re-normalised): clusters of near-duplicates, the hard case for a graph. The table has
credo's shape (`scope`, `dim`, untyped `vec`), one scope, and credo's index
(`postgres_schema.vector_index_sql`'s expression, m 16, ef_construction 200), built with
`max_parallel_maintenance_workers` 0 and its backend reniced (two shared cores).

A config is `variant:ef_search[:shortlist[:iterative]]`:

- vector:  the store's query shape, the float index's walk (`hnsw.ef_search` = ef);
  with a shortlist L > 10 its first L rows (the iterative scan walks on past ef_search)
  ranked again exactly;
- halfvec / bit: the reduced-precision index (built by `index --variant`), its first
  `shortlist` rows ranked again exactly by the float vectors;
- partsN: N graphs over parts of the rows (`index --variant part --part k --parts N`,
  `WHERE id % N = k`), each walked for its top 10 (shortlist: its top L), merged exactly;
- exact-in-sql: no index (a sequential scan of every row), for the cost of exact search.

iterative is off / relaxed_order (default) / strict_order. Every step is printed and
appended to --out (JSON) with the 1-minute load average beside it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import embedded_pool, log_step, make_query, make_text, pct  # noqa: E402

from credo.embed import get_embedder  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


log = log_step


def renice_backend(conn: Any, niceness: int) -> None:
    """Lower the priority of this connection's server process (the benchmark runs as
    root on the database's machine): the cores are shared with other measurements."""
    pid = conn.info.backend_pid
    try:
        os.setpriority(os.PRIO_PROCESS, pid, niceness)
    except OSError as exc:  # not root, or another machine
        print(f"could not renice backend {pid}: {exc}", file=sys.stderr)


def pool_and_queries(args: argparse.Namespace, model: Any) -> tuple[np.ndarray, list[str]]:
    rng = random.Random(args.seed)
    texts = list(dict.fromkeys(make_text(rng) for _ in range(args.pool)))
    pool = embedded_pool(model, texts, args.pool_cache)
    queries = [make_query(rng) for _ in range(args.queries)]
    return pool, queries


def build(args: argparse.Namespace, out: Path) -> None:
    import psycopg
    from pgvector.psycopg import register_vector

    model = get_embedder(args.embedder)
    dim = model.dim
    t0 = time.perf_counter()
    pool, _ = pool_and_queries(args, model)
    log(
        out,
        {
            "step": "pool",
            "pool": len(pool),
            "s": round(time.perf_counter() - t0, 1),
            "command": " ".join(sys.argv),
        },
    )
    nprng = np.random.default_rng(args.seed)
    conn = psycopg.connect(args.db, autocommit=True)
    renice_backend(conn, args.nice)
    conn.execute(f"CREATE SCHEMA {args.schema}")
    conn.execute(f"SET search_path TO {args.schema}, public")
    register_vector(conn)
    conn.execute(
        "CREATE TABLE vectors (id bigint PRIMARY KEY, scope text NOT NULL, dim int NOT NULL,"
        " vec vector NOT NULL)"
    )
    t0 = time.perf_counter()
    matrix = np.lib.format.open_memmap(
        args.matrix, mode="w+", dtype=np.float32, shape=(args.facts, dim)
    )
    with conn.cursor().copy(
        "COPY vectors (id, scope, dim, vec) FROM STDIN WITH (FORMAT BINARY)"
    ) as cp:
        cp.set_types(["int8", "text", "int4", "vector"])
        for start in range(0, args.facts, 50000):
            n = min(50000, args.facts - start)
            base = pool[nprng.integers(0, len(pool), n)]
            vecs = base + nprng.normal(0.0, args.noise, (n, dim)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            matrix[start : start + n] = vecs
            for i in range(n):
                cp.write_row((start + i, "s0", dim, vecs[i]))
    matrix.flush()
    del matrix
    conn.execute("CREATE INDEX vectors_scope ON vectors (scope)")
    conn.execute("ANALYZE vectors")
    size = conn.execute("SELECT pg_total_relation_size('vectors')").fetchone()[0]
    log(
        out,
        {
            "step": "loaded",
            "rows": args.facts,
            "s": round(time.perf_counter() - t0, 1),
            "table_mb": size >> 20,
        },
    )
    conn.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
    conn.execute("SET max_parallel_maintenance_workers = 0")
    t0 = time.perf_counter()
    conn.execute(
        f"CREATE INDEX vectors_hnsw_{dim} ON vectors USING hnsw "
        f"((vec::vector({dim})) vector_cosine_ops) "
        f"WITH (m = {args.m}, ef_construction = {args.ef_construction}) WHERE dim = {dim}"
    )
    isize = conn.execute("SELECT pg_relation_size(%s)", (f"vectors_hnsw_{dim}",)).fetchone()[0]
    log(
        out,
        {
            "step": "built",
            "variant": "vector",
            "m": args.m,
            "ef_construction": args.ef_construction,
            "s": round(time.perf_counter() - t0, 1),
            "index_mb": isize >> 20,
            "maintenance_work_mem": args.build_memory,
        },
    )
    conn.close()


#: reduced-precision indexes (`index` mode), searched for a shortlist re-ranked exactly
INDEXES = {
    "halfvec": "CREATE INDEX vectors_hnsw_halfvec ON vectors USING hnsw "
    "((vec::halfvec({dim})) halfvec_cosine_ops) WITH (m = {m}, ef_construction = {efc}) "
    "WHERE dim = {dim}",
    # one graph over a part of the rows (`--part k --parts n`: id % n = k)
    "part": "CREATE INDEX vectors_hnsw_part{part} ON vectors USING hnsw "
    "((vec::vector({dim})) vector_cosine_ops) WITH (m = {m}, ef_construction = {efc}) "
    "WHERE dim = {dim} AND id % {parts} = {part}",
    "bit": "CREATE INDEX vectors_hnsw_bit ON vectors USING hnsw "
    "((binary_quantize(vec)::bit({dim})) bit_hamming_ops) WITH (m = {m}, "
    "ef_construction = {efc}) WHERE dim = {dim}",
}
ORDER = {
    "halfvec": "vec::halfvec({dim}) <=> %(q)s::vector({dim})::halfvec({dim})",
    "bit": "binary_quantize(vec)::bit({dim}) <~> binary_quantize(%(q)s::vector({dim}))",
}


def index(args: argparse.Namespace, out: Path) -> None:
    """Build a reduced-precision index (--variant) beside the float one."""
    import psycopg

    conn = psycopg.connect(args.db, autocommit=True)
    renice_backend(conn, args.nice)
    conn.execute(f"SET search_path TO {args.schema}, public")
    conn.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
    conn.execute("SET max_parallel_maintenance_workers = 0")
    dim = int(conn.execute("SELECT dim FROM vectors LIMIT 1").fetchone()[0])
    t0 = time.perf_counter()
    conn.execute(
        INDEXES[args.variant].format(
            dim=dim, m=args.m, efc=args.ef_construction, part=args.part, parts=args.parts
        )
    )
    name = f"vectors_hnsw_{args.variant}" + (str(args.part) if args.variant == "part" else "")
    isize = conn.execute("SELECT pg_relation_size(%s)", (name,)).fetchone()[0]
    log(
        out,
        {
            "step": "built",
            "variant": args.variant,
            "m": args.m,
            "ef_construction": args.ef_construction,
            "s": round(time.perf_counter() - t0, 1),
            "index_mb": isize >> 20,
            "command": " ".join(sys.argv),
        },
    )
    conn.close()


def query_sql(variant: str, dim: int, shortlist: int) -> str:
    """The top 10 of scope s0, in the store's query shape (`postgres.vector_query`)."""
    where = f"FROM vectors WHERE dim = {dim} AND scope = %(s)s ORDER BY distance"
    if variant == "exact-in-sql":
        return f"SELECT id, vec <=> %(q)s::vector({dim}) AS distance {where} LIMIT 10"
    limit = max(10, shortlist)
    if variant.startswith("parts"):
        # each part's graph walked for its own top 10, the answers merged exactly
        parts = int(variant[5:])
        walks = " UNION ALL ".join(
            f"(SELECT id, (vec::vector({dim})) <=> %(q)s::vector({dim}) AS distance "
            f"FROM vectors WHERE dim = {dim} AND id %% {parts} = {k} AND scope = %(s)s "
            f"ORDER BY distance LIMIT {limit})"
            for k in range(parts)
        )
        return f"SELECT id FROM ({walks}) u ORDER BY distance LIMIT 10"
    if variant in ORDER:
        return (
            f"SELECT id FROM (SELECT id, vec FROM vectors WHERE dim = {dim} AND scope = %(s)s "
            f"ORDER BY {ORDER[variant].format(dim=dim)} LIMIT {limit}) w "
            f"ORDER BY vec <=> %(q)s::vector({dim}) LIMIT 10"
        )
    walk = (
        f"SELECT id, vec, (vec::vector({dim})) <=> %(q)s::vector({dim}) AS distance "
        f"{where} LIMIT {limit}"
    )
    return (
        f"SELECT id FROM (SELECT id, vec <=> %(q)s::vector({dim}) AS distance FROM ({walk}) w "
        "ORDER BY distance LIMIT 10) v"
    )


def measure(args: argparse.Namespace, out: Path) -> None:
    import psycopg
    from pgvector.psycopg import register_vector

    model = get_embedder(args.embedder)
    dim = model.dim
    _, queries = pool_and_queries(args, model)
    qvecs = model.embed_batch(queries).astype(np.float32)
    matrix = np.load(args.matrix, mmap_mode="r")
    t0 = time.perf_counter()
    exact: list[set[int]] = []
    tenth: list[float] = []
    scores = np.empty((len(matrix), len(qvecs)), dtype=np.float32)
    for start in range(0, len(matrix), 100_000):
        scores[start : start + 100_000] = matrix[start : start + 100_000] @ qvecs.T
    for j in range(len(qvecs)):
        col = scores[:, j]
        top = np.argpartition(-col, 10)[:10]
        top = top[np.argsort(-col[top])]
        exact.append({int(i) for i in top})
        tenth.append(float(col[top[-1]]))
    del scores
    log(
        out,
        {
            "step": "exact",
            "queries": len(qvecs),
            "rows": len(matrix),
            "s": round(time.perf_counter() - t0, 1),
            "command": " ".join(sys.argv),
        },
    )

    conn = psycopg.connect(args.db, autocommit=True)
    renice_backend(conn, args.nice)
    conn.execute(f"SET search_path TO {args.schema}, public")
    register_vector(conn)
    conn.execute("SET jit = off")
    conn.execute(f"SET hnsw.max_scan_tuples = {int(args.max_scan_tuples)}")
    if args.warm:
        t0 = time.perf_counter()
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        conn.execute(f"SELECT pg_prewarm('vectors_hnsw_{dim}')")
        log(out, {"step": "prewarm", "s": round(time.perf_counter() - t0, 1)})
    for config in args.configs:
        parts = config.split(":")
        variant, ef = parts[0], int(parts[1])
        shortlist = int(parts[2]) if len(parts) > 2 else 0
        iterative = parts[3] if len(parts) > 3 else "relaxed_order"
        conn.execute(f"SET hnsw.ef_search = {ef}")
        conn.execute(f"SET hnsw.iterative_scan = {iterative}")
        sql = query_sql(variant, dim, shortlist)
        params = [{"s": "s0", "q": q} for q in qvecs]
        n = len(params) if variant != "exact-in-sql" else min(len(params), 10)
        for prm in params[:3]:
            conn.execute(sql, prm).fetchall()
        times, overlaps, gaps = [], [], []
        for j, (prm, want) in enumerate(zip(params[:n], exact[:n], strict=True)):
            t = time.perf_counter()
            got = {int(r[0]) for r in conn.execute(sql, prm).fetchall()}
            times.append((time.perf_counter() - t) * 1000)
            overlaps.append(len(got & want) / 10)
            # how much less similar the 10th hit found is than exact search's 10th
            found = np.asarray(matrix[sorted(got)]) @ qvecs[j] if got else np.zeros(1)
            gaps.append(max(0.0, tenth[j] - float(found.min())))
        plan = " ".join(r[0] for r in conn.execute("EXPLAIN " + sql, params[0]).fetchall())
        log(
            out,
            {
                "step": "search",
                "config": config,
                "variant": variant,
                "ef_search": ef,
                "shortlist": shortlist,
                "iterative": iterative,
                "queries": n,
                "p50_ms": round(statistics.median(times), 2),
                "p95_ms": round(pct(times, 95), 2),
                "overlap_at_10": round(float(np.mean(overlaps)), 4),
                "min_overlap": round(float(np.min(overlaps)), 2),
                "queries_below_0.9": int(sum(o < 0.9 for o in overlaps)),
                "tenth_gap_mean": round(float(np.mean(gaps)), 5),
                "tenth_gap_max": round(float(np.max(gaps)), 5),
                "plan": ", ".join(sorted(set(re.findall(r"using (\w+)", plan, re.I))))
                or "seq scan",
            },
        )
    conn.close()


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("mode", choices=["build", "index", "measure"])
    p.add_argument("--variant", choices=sorted(INDEXES), default="bit")
    p.add_argument("--part", type=int, default=0, help="with --variant part: this part")
    p.add_argument("--parts", type=int, default=4, help="with --variant part: of so many")
    p.add_argument("--db", required=True)
    p.add_argument("--schema", default="pg1m")
    p.add_argument("--facts", type=int, default=1_000_000)
    p.add_argument("--pool", type=int, default=10000)
    p.add_argument("--pool-cache")
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--matrix", required=True, help=".npy of the rows' vectors (id = row)")
    p.add_argument("--m", type=int, default=16)
    p.add_argument("--ef-construction", type=int, default=200)
    p.add_argument("--build-memory", default="3GB")
    p.add_argument("--nice", type=int, default=15, help="the server backend's niceness")
    p.add_argument("--max-scan-tuples", type=int, default=20000)
    p.add_argument("--configs", nargs="*", default=["vector:100", "vector:400", "vector:1000"])
    p.add_argument("--warm", action="store_true", help="pg_prewarm the index first")
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out")
    args = p.parse_args()
    out = Path(args.out or RESULTS / f"pg-1m-{args.mode}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    {"build": build, "index": index, "measure": measure}[args.mode](args, out)


if __name__ == "__main__":
    main()
