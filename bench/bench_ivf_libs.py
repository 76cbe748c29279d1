"""credo's inverted file against faiss-cpu's binary IVF over the same sign codes, on a kept
SQLite build (issue 27; faiss is not a credo dependency: install it apart).

    pip install --no-deps --target /tmp/faiss faiss-cpu
    PYTHONPATH=/tmp/faiss .venv/bin/python bench/bench_ivf_libs.py /tmp/s/scale-1000000-1.db

Loads the store's first scope, waits for its inverted file, builds faiss's
`IndexBinaryIVF` over the same codes (as many lists, one thread, as many probed), and
times, query by query in rotating order: credo's scan of every code, credo's inverted
file, and faiss's search (k = the inverted file's shortlist) followed by the same exact
re-ranking. Prints each one's top-10 overlap with exact search and p50.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import make_query  # noqa: E402

import credo.store.vectors as vectors  # noqa: E402
from credo.embed import get_embedder  # noqa: E402
from credo.store import open_store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="a kept bench_scale SQLite file")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--embedder", default="local:minilm")
    args = parser.parse_args()
    import faiss  # type: ignore[import-not-found]

    faiss.omp_set_num_threads(1)
    embedder = get_embedder(args.embedder)
    store: Any = open_store(args.db, embedder)
    scope = store.scopes()[0]
    store.vector_search("warm", scope=scope, k=1)
    index = store.loaded_index(scope)
    t0 = time.perf_counter()
    index.wait_inverted_file()
    print(f"credo inverted file made in {time.perf_counter() - t0:.1f} s")
    ivf = index.inverted_file
    n = len(index)
    rng = random.Random(7)
    queries = [embedder.embed_query(make_query(rng)) for _ in range(args.queries)]
    exact = [{f for f, _ in index.exact(q, 10)} for q in queries]
    packed = np.ascontiguousarray(index._codes[:, :n].T).view(np.uint8)  # (n, bytes)
    keep = vectors.shortlist(10, n) * vectors.IVF_SHORTLIST

    def rerank(rows: np.ndarray, q: np.ndarray) -> set[str]:
        scores = np.vecdot(index._matrix[rows], q)
        top = rows[np.argpartition(-scores, 10)[:10]]
        return {index._ids[r] for r in top.tolist()}

    bits = index.dim
    binary = faiss.IndexBinaryIVF(faiss.IndexBinaryFlat(bits), bits, ivf.lists)
    t0 = time.perf_counter()
    sample = np.random.default_rng(0).choice(n, min(n, 40 * ivf.lists), replace=False)
    binary.train(packed[sample])
    binary.add(packed)
    made = time.perf_counter() - t0
    binary.nprobe = max(vectors.PROBE_MIN, -(-ivf.lists // vectors.PROBE_SHARE))
    print(f"faiss IndexBinaryIVF ({ivf.lists} lists, one thread) train + add {made:.1f} s")

    def faiss_search(q: np.ndarray) -> set[str]:
        code = np.ascontiguousarray(vectors.sign_codes(q, index.center)[:, 0]).view(np.uint8)
        _, rows = binary.search(code[None], keep)
        return rerank(rows[0][rows[0] >= 0], q)

    def credo(path: str) -> Callable[[np.ndarray], set[str]]:
        def search(q: np.ndarray) -> set[str]:
            index.ivf_from = 0 if path == "ivf" else 1 << 62
            return {f for f, _, _ in index.nearest(q, 10)}

        return search

    methods = {
        "credo, every code (before)": credo("codes"),
        f"credo inverted file ({ivf.lists} lists, {binary.nprobe} probed)": credo("ivf"),
        f"faiss IndexBinaryIVF ({binary.nprobe} probed, k {keep}) + exact": faiss_search,
    }
    names = list(methods)
    overlap: dict[str, list[float]] = {m: [] for m in names}
    spent: dict[str, list[float]] = {m: [] for m in names}
    loads = []
    for i, (q, want) in enumerate(zip(queries, exact, strict=True)):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            t0 = time.perf_counter()
            got = methods[name](q)
            spent[name].append((time.perf_counter() - t0) * 1000)
            overlap[name].append(len(got & want) / 10)
        loads.append(os.getloadavg()[0])
    for name in names:
        print(
            f"{name}: overlap {np.mean(overlap[name]):.3f} "
            f"p50 {float(np.median(spent[name])):.2f} ms"
        )
    print(f"load (1 min) {min(loads):.1f}-{max(loads):.1f}")
    store.close()


if __name__ == "__main__":
    main()
