"""Where a recall's time goes, store call by store call, on an existing store.

    .venv/bin/python bench/bench_recall_steps.py --db postgresql://... --schema bench_1000000_1
    .venv/bin/python bench/bench_recall_steps.py --db /tmp/scale-1000000-1.db

Opens the store (a kept `bench_scale.py --keep` build: a SQLite file, or with a
postgresql:// URL the schema it kept), recalls --queries of bench_scale's queries after a
warm-up, and times each store method a recall calls (on whichever thread calls it) and the
whole recall. Calls that run beside each other (the query embedding and the vector search
on a worker thread, the full-text search on the caller's) add up to more than the recall
takes: the "recall" row is the wall time, each other row the time spent in that method per
recall (p50 over the recalls that called it, and the mean per recall over all of them).

SQLite, `--paths codes ivf`: both vector-search paths side by side in one run, on the same
loaded index: each query is recalled once on each path (in alternating order, the store's
query-vector cache emptied before each), "codes" scanning every row's sign code, "ivf"
only the lists of the inverted file nearest the query (made before the warm-up; see
`credo.store.vectors`); each path's table, and its vector search's top-10 overlap with
exact search over the same rows (the store's `nearest` against `VectorIndex.exact`).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import make_query  # noqa: E402

from credo.embed import get_embedder  # noqa: E402
from credo.recall import recall  # noqa: E402
from credo.store import open_store  # noqa: E402
from credo.store.base import Store  # noqa: E402

METHODS = (
    "embed",
    "nearest",
    "lexical_nearest",
    "lexical_search",
    "vectors_of",
    "aliases",
    "known_subjects",
    "by_subject",
    "get_many",
    "conflicts_of",
)


def timed(store: Store, spent: dict[str, float]) -> None:
    """Wrap the store's methods (on the instance) to add their time to `spent`."""
    lock = threading.Lock()

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                with lock:
                    spent[name] += (time.perf_counter() - t0) * 1000

        return inner

    for name in METHODS:
        setattr(store, name, wrap(name, getattr(store, name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a SQLite file or a postgresql:// URL")
    parser.add_argument(
        "--schema", help="the PostgreSQL schema (bench_scale --keep: bench_<facts>_<scopes>)"
    )
    parser.add_argument("--scope", help="the scope to recall in (default: the store's first)")
    parser.add_argument(
        "--random-scope",
        action="store_true",
        help="each query in a scope drawn at random (bench_scale --scopes N)",
    )
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--embedder", default="local:minilm")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--paths",
        nargs="+",
        choices=("codes", "ivf"),
        help="SQLite: time these vector-search paths side by side (see above)",
    )
    args = parser.parse_args()

    embedder = get_embedder(args.embedder)
    if args.db.startswith("postgres"):
        from credo.store.postgres import PostgresStore

        store: Store = PostgresStore(args.db, embedder, schema=args.schema)
    else:
        if not Path(args.db).exists():
            parser.error(f"no such file: {args.db}")
        store = open_store(args.db, embedder)
    scopes = [args.scope] if args.scope else store.scopes()
    if not scopes:
        parser.error("the store holds no scope")
    rng = random.Random(args.seed)
    pick = random.Random(args.seed + 1)

    def scope_of_query() -> str:
        return pick.choice(scopes) if args.random_scope else scopes[0]

    paths = args.paths or [""]
    if args.paths:
        recall(store, make_query(rng), scope=scopes[0], k=10)  # loads the index
        t0 = time.perf_counter()
        for scope in scopes:
            index = store.loaded_index(scope)  # type: ignore[attr-defined]
            if index is not None:
                index.wait_inverted_file()
        print(f"inverted files made in {time.perf_counter() - t0:.1f} s (after the load)")

    def use(path: str, scope: str) -> None:
        if path:
            index = store.loaded_index(scope)  # type: ignore[attr-defined]
            index.ivf_from = 0 if path == "ivf" else 1 << 62
            store._embed_cache.clear()  # type: ignore[attr-defined]

    for i in range(args.warmup):
        scope = scope_of_query()
        use(paths[i % len(paths)], scope)
        recall(store, make_query(rng), scope=scope, k=10)
    spent: dict[str, float] = defaultdict(float)
    timed(store, spent)
    per_call: dict[str, dict[str, list[float]]] = {p: defaultdict(list) for p in paths}
    overlap: dict[str, list[float]] = defaultdict(list)
    loads = []
    for i in range(args.queries):
        query, scope = make_query(rng), scope_of_query()
        for path in paths if i % 2 == 0 else paths[::-1]:
            use(path, scope)
            spent.clear()
            t0 = time.perf_counter()
            recall(store, query, scope=scope, k=10)
            per_call[path]["recall"].append((time.perf_counter() - t0) * 1000)
            for name, ms in spent.items():
                per_call[path][name].append(ms)
            if path:
                index = store.loaded_index(scope)  # type: ignore[attr-defined]
                q = store.embed([query], kind="query")[0]
                got = {fid for fid, _, _ in index.nearest(q, 10)}
                want = {fid for fid, _ in index.exact(q, 10)}
                overlap[path].append(len(got & want) / max(1, len(want)))
        loads.append(os.getloadavg()[0])
    store.close()
    for path in paths:
        if path:
            print(f"\npath {path}: vector top-10 overlap with exact {np.mean(overlap[path]):.3f}")
        print(f"{'step':<16} {'p50 ms':>8} {'mean/recall':>12} {'calls':>6}")
        for name in ("recall", *METHODS):
            values = per_call[path].get(name)
            if not values:
                continue
            mean = sum(values) / args.queries
            print(f"{name:<16} {statistics.median(values):>8.2f} {mean:>12.2f} {len(values):>6}")
        p95 = float(np.percentile(per_call[path]["recall"], 95))
        embed = statistics.median(per_call[path]["embed"]) if per_call[path]["embed"] else 0.0
        ratio = statistics.median(per_call[path]["recall"]) / embed if embed else 0.0
        print(f"recall p95 {p95:.2f} ms over {args.queries} queries; recall / embed {ratio:.2f}x")
    print(f"load (1 min) during the recalls: {min(loads):.2f}-{max(loads):.2f}")


if __name__ == "__main__":
    main()
