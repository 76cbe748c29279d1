"""Recall and remember latency against store size, one scope, on the real default model.

    .venv/bin/python bench/bench_scale.py --sizes 1000 10000 100000
    .venv/bin/python bench/bench_scale.py --sizes 100000 --db postgresql://...   # PostgreSQL

Builds a store of N synthetic facts (bulk import path: embedded in batches, no resolver),
then times `Memory.recall` (query embedding + vector + lexical + entity + fusion) over
varied queries after a warm-up, and `Memory.remember` of new facts (gate, key, embedding,
resolution, one transaction). Prints a table and writes JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from credo.embed import get_embedder
from credo.fact import Fact
from credo.memory import Memory
from credo.store import open_store

FIRST = ["Arttu", "Anna", "Mikko", "Sara", "Leo", "Aino", "Olli", "Emma", "Juho", "Iida",
         "Ville", "Noora", "Eero", "Helmi", "Kalle", "Linnea", "Pekka", "Venla"]
CITIES = ["Berlin", "Helsinki", "Oslo", "Lisbon", "Tampere", "Madrid", "Tallinn", "Zurich",
          "Porto", "Vienna", "Krakow", "Riga"]
TOOLS = ["Postgres", "Neovim", "Helix", "VS Code", "Rust", "Go", "Terraform", "Docker",
         "Kubernetes", "Vercel", "Fly.io", "Redis", "SQLite", "Django", "FastAPI", "React"]
PETS = ["a cat", "two dogs", "a parrot", "a rabbit", "three goldfish", "a tortoise"]
TEMPLATES = [
    "{p} lives in {c}.", "{p} works at {co}.", "{p} uses {t} for {proj}.",
    "{p}'s editor is {t}.", "{p} deploys {proj} on {t}.", "{p} has {pet}.",
    "The deploy target for {proj} is {c}-prod.", "{p} is allergic to {food}.",
    "{p} plays {sport} on weekends.", "{p}'s manager is {q}.",
]
COMPANIES = ["Reaktor", "Futurice", "Wolt", "Supercell", "Nokia", "Relex", "Aiven", "Smartly"]
FOODS = ["peanuts", "shellfish", "gluten", "lactose", "kiwi", "sesame"]
SPORTS = ["football", "padel", "climbing", "chess", "tennis", "floorball"]
QUERIES = [
    "where does {p} live", "what editor does {p} use", "where is {proj} deployed",
    "who is {p}'s manager", "what is {p} allergic to", "does {p} have pets",
    "which company does {p} work for", "what sport does {p} play",
]


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.randint(1, 5000)}"


def make_text(rng: random.Random) -> str:
    return rng.choice(TEMPLATES).format(
        p=person(rng), q=person(rng), c=rng.choice(CITIES), co=rng.choice(COMPANIES),
        t=rng.choice(TOOLS), proj=f"project-{rng.randint(1, 20000)}", pet=rng.choice(PETS),
        food=rng.choice(FOODS), sport=rng.choice(SPORTS),
    )


def make_query(rng: random.Random) -> str:
    return rng.choice(QUERIES).format(p=person(rng), proj=f"project-{rng.randint(1, 20000)}")


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def build(mem: Memory, n: int, rng: random.Random, batch: int = 2000) -> float:
    start = time.perf_counter()
    done = 0
    now = time.time()
    while done < n:
        size = min(batch, n - done)
        facts = [Fact(text=make_text(rng), scope=mem.scope, created_at=now, valid_from=now)
                 for _ in range(size)]
        mem.store.put_many(facts)
        done += size
        print(f"  built {done}/{n}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return time.perf_counter() - start


def run_size(url: str, embedder_name: str, n: int, queries: int, writes: int,
             seed: int) -> dict[str, float | int | str]:
    rng = random.Random(seed)
    embedder = get_embedder(embedder_name)
    store = open_store(url, embedder)
    mem = Memory(store, scope=f"bench-{n}")
    existing = store.count(scope=mem.scope)
    build_s = build(mem, n - existing, rng) if existing < n else 0.0
    for _ in range(20):  # warm-up: index load, caches, query path
        mem.recall(make_query(rng), k=10)
    recall_ms = []
    for _ in range(queries):
        q = make_query(rng)
        t0 = time.perf_counter()
        mem.recall(q, k=10)
        recall_ms.append((time.perf_counter() - t0) * 1000)
    remember_ms = []
    for _ in range(writes):
        text = make_text(rng)
        t0 = time.perf_counter()
        mem.remember(text)
        remember_ms.append((time.perf_counter() - t0) * 1000)
    size_bytes = 0
    if not url.startswith("postgres"):
        size_bytes = sum(os.path.getsize(url + s) for s in ("", "-wal") if os.path.exists(url + s))
    store.close()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "facts": n, "backend": "postgres" if url.startswith("postgres") else "sqlite",
        "embedder": embedder_name,
        "recall_p50_ms": round(statistics.median(recall_ms), 2),
        "recall_p95_ms": round(pct(recall_ms, 95), 2),
        "remember_p50_ms": round(statistics.median(remember_ms), 2),
        "remember_p95_ms": round(pct(remember_ms, 95), 2),
        "bulk_facts_per_s": round((n - existing) / build_s, 1) if build_s else 0.0,
        "bytes_per_fact": round(size_bytes / n, 1) if size_bytes else 0.0,
        "peak_rss_mb": round(peak_mb, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--db", help="postgresql:// URL (default: a fresh SQLite file per size)")
    parser.add_argument("--embedder", default="local:minilm")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="bench/results/scale.json")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            url = args.db or str(Path(tmp) / f"scale-{n}.db")
            print(f"size {n} on {url}", file=sys.stderr)
            rows.append(run_size(url, args.embedder, n, args.queries, args.writes, args.seed))
    cols = list(rows[0])
    print(" | ".join(cols))
    print(" | ".join("---" for _ in cols))
    for row in rows:
        print(" | ".join(str(row[c]) for c in cols))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"machine": os.uname().machine, "cpus": os.cpu_count(),
                                          "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
