"""Writers on one existing store: remember throughput with 1 and N writer processes, and
the recall latency of a reader in this process while they write (bench_scale's writer
part, on a store already built, e.g. one bench_scale left or a copy of a real one).

    .venv/bin/python bench/bench_writers.py --db /path/to/store.db --scope bench --writers 1 4
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import RESULTS, make_query, pct, writers_throughput  # noqa: E402

from credo.embed import get_embedder  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True)
    p.add_argument("--scope", default="bench")
    p.add_argument("--writers", type=int, nargs="+", default=[1, 4])
    p.add_argument("--writer-writes", type=int, default=200)
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--out", default=str(RESULTS / "writers.json"))
    args = p.parse_args()
    rng = random.Random(3)
    queries = [make_query(rng) for _ in range(200)]
    rows = []
    for procs in args.writers:
        load = os.getloadavg()[0]
        t0 = time.time()
        rate, during = writers_throughput(
            args.db,
            None,
            args.embedder,
            args.scope,
            procs,
            args.writer_writes,
            queries=queries,
            reader=get_embedder(args.embedder),
        )
        row = {
            "writers": procs,
            "remember_per_s": round(rate, 1),
            "reader_recalls": len(during),
            "recall_p50_ms": round(statistics.median(during), 2) if during else None,
            "recall_p95_ms": round(pct(during, 95), 2) if during else None,
            "load_1min": round(load, 2),
            "s": round(time.time() - t0, 1),
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
