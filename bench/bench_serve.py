"""`credo serve` under load: throughput and p50/p95 latency with many concurrent users, each
in a scope of their own, and the API's overhead over the library call it makes.

    bash scripts/ci-postgres.sh        # prints a DSN
    .venv/bin/python bench/bench_serve.py --db postgresql://postgres@127.0.0.1:5432/DB

1. Fills `--users` scopes (`bench-0` ...) with `--facts` facts each, through `Memory`.
2. Starts `credo serve` on that database in a subprocess (`--connections` store
   connections, one token allowed `bench-*`).
3. Overhead: one client, one request at a time: `--samples` recalls through the API and
   the same recalls as library calls (`Memory.recall` in this process, same database,
   same queries); the difference of the medians is what HTTP, JSON and the server add.
   The same for `list` (a cheap call, so the overhead is most of it).
4. Load: `--users` clients at once (asyncio + httpx), each sending `--requests` requests
   to its own scope, back to back: recall, with every `--write-every`th a remember.
   Throughput is requests answered per second of the whole run; latencies are per request.

Prints one JSON object per phase, and writes them to --out. Timing only: no test runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token-" + "x" * 32
NAMES = ["Arttu", "Noor", "Mia", "Ilkka", "Sade", "Tomas", "Ona", "Lea"]
TEMPLATES = [
    "{n} lives in {v}",
    "{n} works at {v}",
    "{n} prefers {v} tea",
    "{n}'s favourite band is {v}",
    "{n} deploys the site on {v}",
    "{n} plays {v} on Sundays",
    "{n} drives a {v}",
    "{n} is allergic to {v}",
]
VALUES = [
    "Berlin",
    "Reaktor",
    "oolong",
    "Vercel",
    "chess",
    "Volvo",
    "peanuts",
    "Lisbon",
    "Acme",
    "green",
    "Netlify",
    "tennis",
    "Tesla",
    "pollen",
    "Porto",
    "Kone",
]
QUERIES = [
    "where does {n} live",
    "what does {n} drink",
    "where does {n} deploy",
    "what does {n} play",
    "what car does {n} drive",
    "who does {n} work for",
]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(ms), 2),
        "p95_ms": round(pct(ms, 95), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }


def fill(db: str, embedder: str, users: int, facts: int) -> None:
    from credo.embed import get_embedder
    from credo.memory import Memory
    from credo.store import open_store

    store = open_store(db, get_embedder(embedder))
    rng = random.Random(7)
    try:
        for u in range(users):
            memory = Memory(store, scope=f"bench-{u}")
            if store.count(scope=memory.scope) >= facts:
                continue
            for i in range(facts):
                name = NAMES[i % len(NAMES)]
                text = TEMPLATES[(i // len(NAMES)) % len(TEMPLATES)].format(
                    n=name, v=rng.choice(VALUES)
                )
                memory.remember(text)
    finally:
        store.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, embedder: str, connections: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    table = json.dumps({"tokens": [{"name": "bench", "token": TOKEN, "scopes": ["bench-*"]}]})
    env = {
        **os.environ,
        "CREDO_EMBEDDER": embedder,
        "CREDO_SERVE_TOKENS": table,
        "PYTHONPATH": str(ROOT / "src"),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "credo.cli",
            "--db",
            db,
            "serve",
            "--port",
            str(port),
            "--connections",
            str(connections),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            raise SystemExit("the server exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("the server did not listen") from None
            time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}/v1"


def overhead(db: str, embedder: str, url: str, samples: int) -> list[dict[str, Any]]:
    """Median of the API call minus the median of the library call, one at a time."""
    from credo.embed import get_embedder
    from credo.memory import Memory
    from credo.store import open_store

    rng = random.Random(11)
    queries = [
        (f"bench-{rng.randrange(10)}", rng.choice(QUERIES).format(n=rng.choice(NAMES)))
        for _ in range(samples)
    ]
    store = open_store(db, get_embedder(embedder))
    rows = []
    headers = {"Authorization": f"Bearer {TOKEN}"}
    limits = httpx.Limits(keepalive_expiry=2.0)
    try:
        with httpx.Client(base_url=url, headers=headers, timeout=60, limits=limits) as http:
            for kind in ("recall", "list"):
                lib: list[float] = []
                api: list[float] = []
                for _round in range(2):  # the first round warms both up, the second counts
                    lib.clear()
                    api.clear()
                    for scope, query in queries:
                        memory = Memory(store, scope=scope)
                        t = time.perf_counter()
                        if kind == "recall":
                            memory.recall(query, k=5)
                        else:
                            memory.list(limit=20)
                        lib.append((time.perf_counter() - t) * 1e3)
                        t = time.perf_counter()
                        if kind == "recall":
                            r = http.post(f"/scopes/{scope}/recall", json={"query": query, "k": 5})
                        else:
                            r = http.get(f"/scopes/{scope}/facts", params={"limit": 20})
                        api.append((time.perf_counter() - t) * 1e3)
                        r.raise_for_status()
                row = {
                    "phase": f"overhead_{kind}",
                    "samples": len(queries),
                    "library": summary(lib),
                    "api": summary(api),
                    "added_p50_ms": round(statistics.median(api) - statistics.median(lib), 2),
                }
                print(json.dumps(row), flush=True)
                rows.append(row)
            # the floor: a round trip that touches no store (token check, routing, JSON)
            floor: list[float] = []
            for _ in range(len(queries)):
                t = time.perf_counter()
                http.get("/whoami").raise_for_status()
                floor.append((time.perf_counter() - t) * 1e3)
            row = {"phase": "http_round_trip", "samples": len(floor), "api": summary(floor)}
            print(json.dumps(row), flush=True)
            rows.append(row)
    finally:
        store.close()
    return rows


async def load(url: str, users: int, requests: int, write_every: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"recall": [], "remember": []}
    failures = 0
    errors: dict[str, int] = {}

    async def user(http: httpx.AsyncClient, u: int) -> None:
        nonlocal failures
        rng = random.Random(u)
        scope = f"bench-{u}"
        for i in range(requests):
            name = rng.choice(NAMES)
            if write_every and i % write_every == write_every - 1:
                kind, path = "remember", f"/scopes/{scope}/remember"
                text = f"{name} visited {rng.choice(VALUES)} in {2000 + i}"
                body: dict[str, Any] = {"text": text}
            else:
                kind, path = "recall", f"/scopes/{scope}/recall"
                body = {"query": rng.choice(QUERIES).format(n=name), "k": 5}
            t = time.perf_counter()
            try:
                r = await http.post(path, json=body)
            except httpx.TransportError as exc:
                failures += 1
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                continue
            latencies[kind].append((time.perf_counter() - t) * 1e3)
            if r.status_code != 200:
                failures += 1
                errors[str(r.status_code)] = errors.get(str(r.status_code), 0) + 1

    # keep-alive shorter than the server's (5 s), so the client never reuses a connection
    # the server is closing
    limits = httpx.Limits(
        max_connections=users, max_keepalive_connections=users, keepalive_expiry=2.0
    )
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=300, limits=limits) as http:
        t0 = time.perf_counter()
        await asyncio.gather(*(user(http, u) for u in range(users)))
        seconds = time.perf_counter() - t0
    done = sum(len(v) for v in latencies.values())
    row: dict[str, Any] = {
        "phase": "load",
        "users": users,
        "requests": done,
        "failures": failures,
        "errors": errors,
        "seconds": round(seconds, 2),
        "requests_per_s": round(done / seconds, 1),
        "all": summary([x for v in latencies.values() for x in v]),
    }
    for kind, values in latencies.items():
        if values:
            row[kind] = summary(values)
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True, help="a postgresql:// URL (or a SQLite file)")
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--users", type=int, default=100)
    p.add_argument("--facts", type=int, default=20, help="facts per user, filled first")
    p.add_argument("--requests", type=int, default=20, help="requests per user in the load")
    p.add_argument("--write-every", type=int, default=5, help="every Nth request a remember")
    p.add_argument("--connections", type=int, default=8, help="the server's store connections")
    p.add_argument("--samples", type=int, default=200, help="overhead samples per call")
    p.add_argument("--phases", default="overhead,load", help="which to run, comma-separated")
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "serve.json"))
    args = p.parse_args()

    t = time.perf_counter()
    fill(args.db, args.embedder, args.users, args.facts)
    print(
        json.dumps(
            {
                "phase": "fill",
                "users": args.users,
                "facts_per_user": args.facts,
                "seconds": round(time.perf_counter() - t, 1),
            }
        ),
        flush=True,
    )
    # the overhead on one store connection, as the library call has: the same embedding
    # cache on both sides, so neither is measured with the other's cache hits
    phases = set(args.phases.split(","))
    rows: list[dict[str, Any]] = []
    if "overhead" in phases:
        process, url = start_server(args.db, args.embedder, 1)
        try:
            rows += overhead(args.db, args.embedder, url, args.samples)
        finally:
            process.terminate()
            process.wait(timeout=30)
    if "load" in phases:
        process, url = start_server(args.db, args.embedder, args.connections)
        try:
            rows.append(asyncio.run(load(url, args.users, args.requests, args.write_every)))
        finally:
            process.terminate()
            process.wait(timeout=30)
    meta = {
        "command": " ".join(sys.argv),
        "cpus": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 2),
        "connections": args.connections,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({**meta, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
