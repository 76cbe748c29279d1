"""Many tenants on PostgreSQL: many small scopes and a few large ones in one store.

    .venv/bin/python bench/bench_tenants.py --db postgresql://... --small 1000 --small-facts 100 \
        --large 2 --large-facts 20000 --import-facts 5000

Builds (bench_scale's generator, a pool of --pool texts embedded with the real model, each
fact one pool vector plus noise) --small scopes of --small-facts facts and --large scopes of
--large-facts, in one fresh schema, then:

- recall p50/p95 (`Memory.recall(q, k=10)`, the query embedded each time) in a small scope
  drawn at random per query, and in a large one: a small tenant must not pay for the large
  ones' graph;
- the vector search's top-10 overlap with exact search in each kind of scope;
- a bulk import of --import-facts new facts into one large tenant (`Store.put_many` in one
  transaction, in another process, as `credo import` runs) while this process recalls in
  small scopes: p95 during the import against the quiet p95 (an import must not stall the
  other tenants).

Prints one JSON line per step and writes them to --out.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import (  # noqa: E402
    PrecomputedEmbedder,
    build,
    make_query,
    make_text,
    pct,
    scope_vectors,
)

from credo.embed import get_embedder  # noqa: E402
from credo.fact import Fact  # noqa: E402
from credo.memory import Memory  # noqa: E402
from credo.store.postgres import PostgresStore  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def log(out: Path, rows: list[dict[str, Any]], record: dict[str, Any]) -> None:
    record["load_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(record), flush=True)
    rows.append(record)
    out.write_text(json.dumps({"command": " ".join(sys.argv), "steps": rows}, indent=2))


def recalls(store: PostgresStore, scopes: list[str], n: int, rng: random.Random) -> list[float]:
    took = []
    for _ in range(n):
        mem = Memory(store, scope=rng.choice(scopes))
        q = make_query(rng)
        t0 = time.perf_counter()
        mem.recall(q, k=10)
        took.append((time.perf_counter() - t0) * 1000)
    return took


def overlap(store: PostgresStore, scopes: list[str], n: int, rng: random.Random) -> float:
    """Top-10 overlap of the store's vector search with exact search over the scope."""
    found = []
    cached: dict[str, tuple[list[str], np.ndarray]] = {}
    for scope in [rng.choice(scopes) for _ in range(n)]:
        if scope not in cached:
            cached[scope] = scope_vectors(store, scope)
        ids, matrix = cached[scope]
        q = store.embed([make_query(rng)], kind="query")[0]
        exact = {ids[int(i)] for i in np.argsort(-(matrix @ q))[:10]}
        mine = {fid for fid, _ in store.vector_search(q, scope=scope, k=10)}
        found.append(len(exact & mine) / 10)
    return float(np.mean(found))


def _importer(url: str, schema: str, embedder: str, scope: str, n: int, pool: int,
              started: Any, done: Any) -> None:  # fmt: skip
    """Import n new facts into one scope in one transaction, as `credo import` does; their
    vectors are a small pool's plus noise, made before the clock starts."""
    real = get_embedder(embedder)
    table = PrecomputedEmbedder(real)
    store = PostgresStore(url, table, schema=schema)
    rng = random.Random(99)
    noise = np.random.default_rng(99)
    texts = [make_text(rng) for _ in range(min(pool, 200))]
    base = real.embed_batch(texts)
    started.set()
    t0 = time.perf_counter()
    with store.transaction():
        for start in range(0, n, 1000):
            facts = []
            for i in range(start, min(n, start + 1000)):
                text = f"{texts[i % len(texts)]} (imported {i})"
                vec = base[i % len(texts)] + noise.normal(0.0, 0.01, real.dim)
                table.table[text] = (vec / np.linalg.norm(vec)).astype(np.float32)
                facts.append(Fact(text=text, scope=scope))
            store.put_many(facts)
            table.table.clear()
    done.put(time.perf_counter() - t0)
    store.close()


def build_all(store: PostgresStore, small: list[str], large: list[str],
              args: argparse.Namespace, rng: random.Random, real: Any) -> None:  # fmt: skip
    with store.transaction():
        build(store, large, args.large * args.large_facts, rng, real, precomputed=True,
              pool=args.pool, noise=0.01)  # fmt: skip
        build(store, small, args.small * args.small_facts, rng, real, precomputed=True,
              pool=args.pool, noise=0.01)  # fmt: skip
    store.wait_for_indexes()  # the large scopes' own indexes, built after the commit


def own_ok(store: PostgresStore, args: argparse.Namespace) -> bool:
    """Whether every large scope that should have an index of its own has one (a build
    that gave up, e.g. waiting for an old snapshot, leaves none)."""
    if not store.own_index_from:
        return True
    return len(store.own_indexes()) >= args.large


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--small-facts", type=int, default=100)
    p.add_argument("--large", type=int, default=2)
    p.add_argument("--large-facts", type=int, default=20000)
    p.add_argument("--import-facts", type=int, default=5000)
    p.add_argument("--pool", type=int, default=2000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    p.add_argument(
        "--schema",
        default=None,
        help="measure a schema an earlier run kept (--keep) with the same --small / --large "
        "shape: no build; the scopes' own indexes made first (`index_scopes`), timed. Kept",
    )
    p.add_argument(
        "--build-memory",
        default=None,
        help="PostgresStore.build_memory (maintenance_work_mem of the HNSW builds), e.g. 3GB",
    )
    p.add_argument(
        "--own-index-from",
        type=int,
        default=None,
        help="PostgresStore.own_index_from (default: the store's; 0: no scope gets an index "
        "of its own)",
    )
    p.add_argument(
        "--compare-shared",
        action="store_true",
        help="then measure the large scopes again without their own indexes (the shared "
        "graph and the scope filter), and again once they are built back: side by side",
    )
    p.add_argument("--out", default=str(RESULTS / "tenants.json"))
    args = p.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    rng = random.Random(args.seed)
    real = get_embedder(args.embedder)
    schema = args.schema or f"tenants_{uuid.uuid4().hex[:8]}"
    store = PostgresStore(args.db, PrecomputedEmbedder(real), schema=schema)
    if args.own_index_from is not None:
        store.own_index_from = args.own_index_from
    if args.build_memory:
        store.build_memory = args.build_memory
    small = [f"small-{i}" for i in range(args.small)]
    large = [f"large-{i}" for i in range(args.large)]
    try:
        t0 = time.perf_counter()
        if args.schema:
            store.index_scopes()
            log(out, rows, {"step": "indexed", "schema": schema,
                            "s": round(time.perf_counter() - t0, 1),
                            "own_indexes": store.own_indexes()})  # fmt: skip
        else:
            build_all(store, small, large, args, rng, real)
        if not own_ok(store, args):
            log(out, rows, {"step": "warning", "own_indexes": store.own_indexes(),
                            "note": "large scopes without an index of their own"})  # fmt: skip
        if not args.schema:
            log(out, rows, {"step": "built", "s": round(time.perf_counter() - t0, 1),
                            "own_indexes": store.own_indexes(),
                            "small": f"{args.small} x {args.small_facts}",
                            "large": f"{args.large} x {args.large_facts}"})  # fmt: skip
        recalls(store, small + large, 30, rng)  # warm-up
        embed = []
        for _ in range(args.queries):
            q = make_query(rng)
            t = time.perf_counter()
            real.embed_query(q)
            embed.append((time.perf_counter() - t) * 1000)
        for kind, scopes in (("small", small), ("large", large)):
            took = recalls(store, scopes, args.queries, rng)
            log(out, rows, {"step": "recall", "scopes": kind,
                            "p50_ms": round(statistics.median(took), 2),
                            "p95_ms": round(pct(took, 95), 2),
                            "embed_p50_ms": round(statistics.median(embed), 2),
                            "overlap_at_10": round(overlap(store, scopes, 100, rng), 4),
                            })  # fmt: skip
        if args.compare_shared:
            for label in ("shared graph", "own indexes again"):
                if label == "shared graph":
                    for scope in store.own_indexes():
                        store._own_index_ddl(scope, int(store.embedder.dim), build=False)
                    keep_from, store.own_index_from = store.own_index_from, 0
                else:
                    store.own_index_from = keep_from
                    store.index_scopes()
                store._own_rows.clear()
                took = recalls(store, large, args.queries, rng)
                log(
                    out,
                    rows,
                    {
                        "step": "recall",
                        "scopes": f"large, {label}",
                        "own_indexes": store.own_indexes(),
                        "p50_ms": round(statistics.median(took), 2),
                        "p95_ms": round(pct(took, 95), 2),
                        "overlap_at_10": round(overlap(store, large, 100, rng), 4),
                    },
                )
        quiet = recalls(store, small, args.queries, rng)
        ctx = mp.get_context("spawn")
        started, done = ctx.Event(), ctx.Queue()
        todo = (args.db, schema, args.embedder, large[0], args.import_facts, args.pool)
        proc = ctx.Process(target=_importer, args=(*todo, started, done))
        proc.start()
        started.wait()
        during: list[float] = []
        spent = None
        while spent is None:
            during += recalls(store, small, 1, rng)
            time.sleep(0.02)
            if not done.empty():
                spent = done.get()
        proc.join()
        log(out, rows, {"step": "import", "facts": args.import_facts, "s": round(spent, 1),
                        "recalls_during": len(during),
                        "quiet_p95_ms": round(pct(quiet, 95), 2),
                        "during_p95_ms": round(pct(during, 95), 2),
                        "during_max_ms": round(max(during), 1),
                        "ratio_p95": round(pct(during, 95) / pct(quiet, 95), 2)})  # fmt: skip
    finally:
        if not (args.keep or args.schema):
            store.drop_schema()
        store.close()


if __name__ == "__main__":
    main()
