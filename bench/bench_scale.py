"""Recall and remember latency against store size, one scope, on the real default model.

    .venv/bin/python bench/bench_scale.py                                   # 1k 10k 100k 1M
    .venv/bin/python bench/bench_scale.py --sizes 100000 --db postgresql://... --writers 1 4

Each size runs in its own process (so peak memory is that size's), on a fresh store: a
SQLite file in a temporary folder, or with --db a fresh schema of that PostgreSQL database.

- Build: N synthetic facts through the bulk path (`Store.put_many`: no resolver). Below
  --precomputed-from (default 1,000,000) every fact is embedded with the model, so the
  throughput includes embedding. From that size on, building with the model would take
  longer than the benchmark is worth (~11 min at 1,500 facts/s): a pool of --pool distinct
  texts is embedded once, and each fact reuses one pool text with its numbers re-drawn
  (so the text stays unique and still says what its vector says) and that text's vector
  plus Gaussian noise (sigma --noise per dimension, then re-normalised; mean cosine to the
  pool vector ~0.98). That throughput is the store's write path alone, and says so.
- --vectors-from FILE (instead of the pool): a credo SQLite file an earlier embedded build
  left (e.g. `bench_scale.py --keep DIR`); its texts and their real vectors are replayed in
  order, so a 1M build has 1M distinct real texts with the model's own vectors and only
  the embedding is skipped (the bulk figure is then the write path alone, and says so).
- --scopes S: the facts go round-robin into S scopes of one store; each query is recalled
  in a scope drawn at random (the many-tenants case).
- PostgreSQL builds run in one transaction, so the HNSW index is dropped once and built
  once at commit (as an import does); that build's time is reported apart
  (`hnsw_build_s`), with the index's size; `--pg-ef-search` adds the vector overlap and
  search time at other `hnsw.ef_search` values.
- recall: `Memory.recall(query, k=10)` (query embedding + vector + lexical + entity +
  fusion) over varied queries after a warm-up; p50/p95. The first query (index load) is
  reported apart.
- remember: `Memory.remember(text)` of new facts (gate, key, embedding, resolution, one
  transaction); p50/p95; and throughput with --writers W processes writing at once.
- reference: the exact brute-force limit, numpy top-10 over the same vectors (matrix
  product + argpartition), timed, and the overlap of credo's vector list with it (1.0 means
  credo's vector search returns exactly the true top 10).
- bytes per fact: the SQLite file (+WAL) size, or PostgreSQL's schema size, over N.

Prints a table and writes JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from credo.embed import Embedder, Kind, Vectors, get_embedder
from credo.fact import Fact
from credo.memory import Memory
from credo.store import open_store
from credo.store.base import Store

FIRST = [
    "Arttu",
    "Anna",
    "Mikko",
    "Sara",
    "Leo",
    "Aino",
    "Olli",
    "Emma",
    "Juho",
    "Iida",
    "Ville",
    "Noora",
    "Eero",
    "Helmi",
    "Kalle",
    "Linnea",
    "Pekka",
    "Venla",
]
CITIES = [
    "Berlin",
    "Helsinki",
    "Oslo",
    "Lisbon",
    "Tampere",
    "Madrid",
    "Tallinn",
    "Zurich",
    "Porto",
    "Vienna",
    "Krakow",
    "Riga",
]
TOOLS = [
    "Postgres",
    "Neovim",
    "Helix",
    "VS Code",
    "Rust",
    "Go",
    "Terraform",
    "Docker",
    "Kubernetes",
    "Vercel",
    "Fly.io",
    "Redis",
    "SQLite",
    "Django",
    "FastAPI",
    "React",
]
PETS = ["a cat", "two dogs", "a parrot", "a rabbit", "three goldfish", "a tortoise"]
TEMPLATES = [
    "{p} lives in {c}.",
    "{p} works at {co}.",
    "{p} uses {t} for {proj}.",
    "{p}'s editor is {t}.",
    "{p} deploys {proj} on {t}.",
    "{p} has {pet}.",
    "The deploy target for {proj} is {c}-prod.",
    "{p} is allergic to {food}.",
    "{p} plays {sport} on weekends.",
    "{p}'s manager is {q}.",
]
COMPANIES = ["Reaktor", "Futurice", "Wolt", "Supercell", "Nokia", "Relex", "Aiven", "Smartly"]
FOODS = ["peanuts", "shellfish", "gluten", "lactose", "kiwi", "sesame"]
SPORTS = ["football", "padel", "climbing", "chess", "tennis", "floorball"]
QUERIES = [
    "where does {p} live",
    "what editor does {p} use",
    "where is {proj} deployed",
    "who is {p}'s manager",
    "what is {p} allergic to",
    "does {p} have pets",
    "which company does {p} work for",
    "what sport does {p} play",
]
RESULTS = Path(__file__).resolve().parent / "results"


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.randint(1, 5000)}"


def make_text(rng: random.Random) -> str:
    return rng.choice(TEMPLATES).format(
        p=person(rng),
        q=person(rng),
        c=rng.choice(CITIES),
        co=rng.choice(COMPANIES),
        t=rng.choice(TOOLS),
        proj=f"project-{rng.randint(1, 20000)}",
        pet=rng.choice(PETS),
        food=rng.choice(FOODS),
        sport=rng.choice(SPORTS),
    )


def make_query(rng: random.Random) -> str:
    return rng.choice(QUERIES).format(p=person(rng), proj=f"project-{rng.randint(1, 20000)}")


def ort_no_spin() -> None:
    """Make every onnxruntime session built from now on block instead of spin between
    runs (`session.intra_op.allow_spinning = 0`). The proposed change to credo's embedder:
    on a 2-core machine the spinning threads of the query embedding take the cores from
    the vector search that follows it."""
    import onnxruntime as ort

    base = ort.SessionOptions

    class Options(base):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.add_session_config_entry("session.intra_op.allow_spinning", "0")

    ort.SessionOptions = Options  # type: ignore[misc]


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def embedded_pool(model: Embedder, texts: Sequence[str], cache: str | None) -> np.ndarray:
    """The pool sentences' vectors, embedded 512 at a time, or read back from `cache`
    (a `.npy` file written the first time) when it holds as many as there are texts."""
    path = Path(cache) if cache else None
    if path is not None and path.exists():
        pool = np.load(path)
        if len(pool) != len(texts):
            sys.exit(f"{path} holds {len(pool)} vectors, not the {len(texts)} of this --pool")
        return pool.astype(np.float32)
    pool = np.empty((0, model.dim), dtype=np.float32)
    if texts:
        pool = np.concatenate(
            [model.embed_batch(texts[i : i + 512]) for i in range(0, len(texts), 512)]
        )
    if path is not None:
        np.save(path, pool)
    return pool.astype(np.float32)


def log_step(out: Path, record: dict[str, Any]) -> None:
    """Print one measured step as JSON, with the load average and the time, and append it
    to the `steps` of the results file `out`."""
    record["load_1min"] = round(os.getloadavg()[0], 2)
    record["at"] = time.strftime("%H:%M:%S")
    print(json.dumps(record), flush=True)
    data = json.loads(out.read_text()) if out.exists() else {"steps": []}
    data["steps"].append(record)
    out.write_text(json.dumps(data, indent=2))


class PrecomputedEmbedder(Embedder):
    """Documents from a table filled before each batch; queries from the real model. Its
    name is the real model's, so the store records (and checks) the real model."""

    def __init__(self, real: Embedder) -> None:
        self.real = real
        self.name = real.name
        self.dim = real.dim
        self.duplicate_threshold = real.duplicate_threshold
        self.table: dict[str, np.ndarray] = {}

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        if kind == "document" and all(t in self.table for t in texts):
            return np.stack([self.table[t] for t in texts]).astype(np.float32)
        return self.real.embed_batch(texts, kind=kind)


_NUMBER = re.compile(r"\d+")


def replay(path: str) -> Any:
    """(text, vector) of every fact of an earlier build's SQLite file, in insertion order."""
    import sqlite3

    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for text, blob in conn.execute(
            "SELECT f.text, v.vec FROM facts f JOIN vectors v ON v.fact_id = f.id ORDER BY f.rowid"
        ):
            yield text, np.frombuffer(blob, dtype=np.float32)
    finally:
        conn.close()


def scope_names(n: int, scopes: int) -> list[str]:
    return [f"bench-{n}"] if scopes <= 1 else [f"bench-{n}-{i}" for i in range(scopes)]


def build(
    store: Store,
    scopes: list[str],
    n: int,
    rng: random.Random,
    real: Embedder,
    *,
    precomputed: bool,
    pool: int,
    noise: float,
    batch: int = 2000,
    vectors_from: str | None = None,
) -> float:
    """Write n facts round-robin into `scopes`; returns the seconds the writes took
    (embedding included unless precomputed)."""
    now = time.time()
    pool_texts: list[str] = []
    pool_vecs = np.zeros((0, real.dim), dtype=np.float32)
    source = replay(vectors_from) if precomputed and vectors_from else None
    if precomputed and source is None:
        pool_texts = list(dict.fromkeys(make_text(rng) for _ in range(pool)))
        t0 = time.perf_counter()
        pool_vecs = np.concatenate(
            [real.embed_batch(pool_texts[i : i + 256]) for i in range(0, len(pool_texts), 256)]
        )
        print(
            f"  embedded a pool of {len(pool_texts)} texts in {time.perf_counter() - t0:.1f}s",
            file=sys.stderr,
        )
    embedder = store.embedder
    table = embedder.table if isinstance(embedder, PrecomputedEmbedder) else None
    spent = 0.0
    done = 0
    nprng = np.random.default_rng(rng.randint(0, 2**31))
    seen: set[str] = set()
    while done < n:
        size = min(batch, n - done)
        texts: list[str] = []
        while len(texts) < size:
            if source is not None:
                try:
                    text, vec = next(source)
                except StopIteration:
                    sys.exit(f"{vectors_from} holds only {done + len(texts)} facts, fewer than {n}")
                assert table is not None  # a text said twice there is replayed twice
                table[text] = vec
            elif precomputed:
                j = rng.randrange(len(pool_texts))
                text = _NUMBER.sub(lambda _: str(rng.randint(1, 99999)), pool_texts[j])
                if text in seen:
                    continue
                vec = pool_vecs[j] + nprng.normal(0.0, noise, real.dim).astype(np.float32)
                assert table is not None
                table[text] = vec / np.linalg.norm(vec)
            else:
                text = make_text(rng)
            seen.add(text)
            texts.append(text)
        facts = [
            Fact(text=t, scope=scopes[(done + i) % len(scopes)], created_at=now, valid_from=now)
            for i, t in enumerate(texts)
        ]
        t0 = time.perf_counter()
        store.put_many(facts)
        spent += time.perf_counter() - t0
        if table is not None:
            table.clear()
        done += size
        print(f"  built {done}/{n}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return spent


def store_bytes(url: str, store: Store) -> int:
    if url.startswith("postgres"):
        schema = getattr(store, "schema", None)
        conn = getattr(store, "_conn", None)
        if schema is None or conn is None:
            return 0
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = %s "
            "AND c.relkind IN ('r', 'm')",
            (schema,),
        ).fetchone()
        return int(row[0]) if row else 0
    return sum(os.path.getsize(url + s) for s in ("", "-wal") if os.path.exists(url + s))


def scope_vectors(store: Store, scope: str) -> tuple[list[str], np.ndarray]:
    """Every (id, vector) of the scope, read from the table in one pass."""
    ids: list[str] = []
    blobs: list[np.ndarray] = []
    conn = getattr(store, "_conn", None)
    if hasattr(store, "schema"):  # PostgreSQL
        assert conn is not None
        with conn.cursor(binary=True) as cur:
            cur.execute("SELECT fact_id, vec FROM vectors WHERE scope = %s", (scope,))
            for fid, vec in cur:
                ids.append(str(fid))
                blobs.append(np.asarray(vec.to_numpy(), dtype=np.float32))
    else:
        assert conn is not None
        for fid, blob in conn.execute("SELECT fact_id, vec FROM vectors WHERE scope = ?", (scope,)):
            ids.append(fid)
            blobs.append(np.frombuffer(blob, dtype=np.float32))
    return ids, np.ascontiguousarray(np.vstack(blobs), dtype=np.float32)


def reference(
    store: Store, scopes: list[str], queries: list[str], k: int = 10, ef_values: Sequence[int] = ()
) -> dict[str, float]:
    """Exact numpy top-k over the scope's vectors, and how much credo's list agrees. With
    several scopes, each query goes to one drawn at random (seeded)."""
    pick = random.Random(1)
    asked = [(q, pick.choice(scopes)) for q in queries]
    cache: dict[str, tuple[list[str], np.ndarray]] = {}
    times: list[float] = []
    exact_of: list[set[str]] = []
    qvecs = []
    for q, scope in asked:
        if scope not in cache:
            if len(cache) > 4:
                cache.clear()
            cache[scope] = scope_vectors(store, scope)
        ids, matrix = cache[scope]
        qv = store.embed([q], kind="query")[0]
        t0 = time.perf_counter()
        scores = matrix @ qv
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        times.append((time.perf_counter() - t0) * 1000)
        exact_of.append({ids[int(i)] for i in top})
        qvecs.append(qv)
    cache.clear()

    def agreement() -> tuple[float, float]:
        took, overlaps = [], []
        for (_, scope), qv, exact in zip(asked, qvecs, exact_of, strict=True):
            t0 = time.perf_counter()
            mine = {fid for fid, _ in store.vector_search(qv, scope=scope, k=k)}
            took.append((time.perf_counter() - t0) * 1000)
            overlaps.append(len(exact & mine) / k)
        return float(np.mean(overlaps)), statistics.median(took)

    overlap, took = agreement()
    out = {
        "exact_top10_p50_ms": round(statistics.median(times), 2),
        "exact_top10_p95_ms": round(pct(times, 95), 2),
        "vector_search_p50_ms": round(took, 2),
        "vector_overlap_at_10": round(overlap, 4),
    }
    default_ef = getattr(store, "ef_search", None)  # None: by the table size
    for ef in ef_values:  # PostgreSQL: the same queries at other HNSW candidate lists
        store.set_ef_search(ef)  # type: ignore[attr-defined]
        overlap, took = agreement()
        out[f"vector_overlap_at_10_ef{ef}"] = round(overlap, 4)
        out[f"vector_search_p50_ms_ef{ef}"] = round(took, 2)
    if ef_values:
        store.ef_search = default_ef  # type: ignore[attr-defined]
        store._ef_set.clear()  # type: ignore[attr-defined]
    return out


def pg_index_facts(store: Store) -> dict[str, Any]:
    """Size of the HNSW index and the memory it was built with."""
    conn = getattr(store, "_conn", None)
    schema = getattr(store, "schema", None)
    if conn is None or schema is None:
        return {}
    row = conn.execute(
        "SELECT coalesce(sum(pg_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace s "
        "ON s.oid = c.relnamespace WHERE s.nspname = %s AND c.relname LIKE 'vectors_hnsw_%%'",
        (schema,),
    ).fetchone()
    return {
        "hnsw_index_mb": round(int(row[0]) / 2**20, 1) if row else 0.0,
        "hnsw_build_memory": getattr(store, "build_memory", ""),
    }


def settle(url: str) -> None:
    """Measure a store at rest, not one still writing its build to disk: a checkpoint
    (PostgreSQL), then every dirty page of the OS flushed. At 1M facts on PostgreSQL the
    recalls measured while the build's gigabytes went to disk were twice as slow (15.8
    against 8 ms p50) as the same recalls a minute later."""
    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
    os.sync()


def open_bench_store(url: str, embedder: Embedder, schema: str | None) -> Store:
    """SQLite by path, or PostgreSQL in the given schema (a fresh one per size)."""
    if schema is None:
        return open_store(url, embedder)
    from credo.store.postgres import PostgresStore

    return PostgresStore(url, embedder, schema=schema)


def _writer(
    url: str,
    schema: str | None,
    embedder_name: str,
    scope: str,
    writes: int,
    seed: int,
    barrier: Any,
    out: Any,
    no_spin: bool = False,
) -> None:
    if no_spin:
        ort_no_spin()
    rng = random.Random(seed)
    store = open_bench_store(url, get_embedder(embedder_name), schema)
    mem = Memory(store, scope=scope)
    mem.remember(make_text(rng))  # warm: model, index, connection
    barrier.wait()
    t0 = time.time()
    for _ in range(writes):
        mem.remember(make_text(rng))
    out.put((t0, time.time()))
    store.close()


def writers_throughput(
    url: str,
    schema: str | None,
    embedder_name: str,
    scope: str,
    procs: int,
    writes: int,
    no_spin: bool = False,
    *,
    queries: Sequence[str] = (),
    reader: Embedder | None = None,
) -> tuple[float, list[float]]:
    """Remembers per second with `procs` writer processes on one store, and the recall
    latencies (ms) of a reader in this process while they write (a store opened before
    they start, so each of their writes costs it a delta of the change log)."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(procs + 1 if queries else procs)
    out = ctx.Queue()
    workers = [
        ctx.Process(
            target=_writer,
            args=(url, schema, embedder_name, scope, writes, 1000 + i, barrier, out, no_spin),
        )
        for i in range(procs)
    ]
    for w in workers:
        w.start()
    during: list[float] = []
    spans: list[tuple[float, float]] = []
    if queries and reader is not None:
        store = open_bench_store(url, reader, schema)
        mem = Memory(store, scope=scope)
        mem.recall(queries[0], k=10)  # load the index before the writes start
        barrier.wait()
        i = 0
        while len(spans) < procs:
            t0 = time.perf_counter()
            mem.recall(queries[i % len(queries)] + f" {i}", k=10)
            during.append((time.perf_counter() - t0) * 1000)
            i += 1
            time.sleep(0.02)  # an agent's pace, not a loop that takes a core from them
            while not out.empty():
                spans.append(out.get())
        store.close()
    spans += [out.get() for _ in range(procs - len(spans))]
    for w in workers:
        w.join()
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    return procs * writes / (end - start), during


def build_timed(
    args: argparse.Namespace,
    store: Store,
    scopes: list[str],
    n: int,
    rng: random.Random,
    real: Embedder,
    precomputed: bool,
) -> dict[str, Any]:
    """The build, and on PostgreSQL the HNSW build at its commit, timed apart."""

    def run() -> float:
        return build(
            store,
            scopes,
            n,
            rng,
            real,
            precomputed=precomputed,
            pool=args.pool,
            noise=args.noise,
            vectors_from=args.vectors_from,
        )

    if not hasattr(store, "schema"):
        return {"build_s": run()}
    if args.pg_build_memory:
        store.build_memory = args.pg_build_memory  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    with store.transaction():  # one transaction: the HNSW index is built once, at commit
        writes = run()
        t1 = time.perf_counter()
    commit = time.perf_counter() - t1
    return {
        "build_s": time.perf_counter() - t0,
        "writes_s": writes,
        "hnsw_build_s": round(commit, 1),
    }


def run_size(
    args: argparse.Namespace, n: int, url: str, schema: str | None = None
) -> dict[str, Any]:
    if args.ort_no_spin:
        ort_no_spin()
    rng = random.Random(args.seed)
    real = get_embedder(args.embedder)
    precomputed = n >= args.precomputed_from
    embedder: Embedder = PrecomputedEmbedder(real) if precomputed else real
    store = open_bench_store(url, embedder, schema)
    scopes = scope_names(n, args.scopes)
    scope = scopes[0]
    pick = random.Random(args.seed + 1)

    def mem_for() -> Memory:
        return Memory(store, scope=pick.choice(scopes))

    print(
        f"size {n} on {'postgres' if url.startswith('postgres') else 'sqlite'}"
        f"{' (precomputed vectors)' if precomputed else ''}"
        f"{f' in {len(scopes)} scopes' if len(scopes) > 1 else ''}",
        file=sys.stderr,
    )
    timing = build_timed(args, store, scopes, n, rng, real, precomputed)
    build_s = timing["build_s"]
    settle(url)
    t0 = time.perf_counter()
    mem_for().recall(make_query(rng), k=10)
    first_ms = (time.perf_counter() - t0) * 1000
    ivf_ms = wait_inverted_files(store, scopes)
    for _ in range(20):  # warm-up: caches, query path
        mem_for().recall(make_query(rng), k=10)
    recall_ms = []
    queries = [make_query(rng) for _ in range(args.queries)]
    # the floor: the query embedding alone, same model, same run (the embedder itself,
    # so the store's query cache stays cold for the recalls below)
    embed_ms = []
    for q in queries:
        t0 = time.perf_counter()
        real.embed_query(q)
        embed_ms.append((time.perf_counter() - t0) * 1000)
    load_at = os.getloadavg()[0]
    mems = [mem_for() for _ in queries]
    for q, mem in zip(queries, mems, strict=True):
        t0 = time.perf_counter()
        mem.recall(q, k=10)
        recall_ms.append((time.perf_counter() - t0) * 1000)
    remember_ms = []
    for _ in range(args.writes):
        text = make_text(rng)
        mem = mem_for()
        t0 = time.perf_counter()
        mem.remember(text)
        remember_ms.append((time.perf_counter() - t0) * 1000)
    size_bytes = store_bytes(url, store)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    build_kind = "embedded"
    if precomputed:
        build_kind = "real vectors replayed" if args.vectors_from else "precomputed vectors"
    row: dict[str, Any] = {
        "facts": n,
        "backend": "postgres" if url.startswith("postgres") else "sqlite",
        "scopes": len(scopes),
        "embedder": real.name + (" (no spin)" if args.ort_no_spin else ""),
        "build": build_kind,
        "recall_p50_ms": round(statistics.median(recall_ms), 2),
        "recall_p95_ms": round(pct(recall_ms, 95), 2),
        "embed_p50_ms": round(statistics.median(embed_ms), 2),
        "recall_over_embed": round(statistics.median(recall_ms) / statistics.median(embed_ms), 2),
        "p95_over_p50": round(pct(recall_ms, 95) / statistics.median(recall_ms), 2),
        "load_1min": round(load_at, 2),
        "first_recall_ms": round(first_ms, 1),
        "ivf_wait_ms": round(ivf_ms, 1),
        "remember_p50_ms": round(statistics.median(remember_ms), 2),
        "remember_p95_ms": round(pct(remember_ms, 95), 2),
        "bulk_facts_per_s": round(n / build_s, 1),
        "bytes_per_fact": round(size_bytes / n, 1) if size_bytes else 0.0,
        "peak_rss_mb": round(peak_mb, 1),
    }
    if "hnsw_build_s" in timing:
        row["hnsw_build_s"] = timing["hnsw_build_s"]
        row["writes_facts_per_s"] = round(n / timing["writes_s"], 1)
        row.update(pg_index_facts(store))
    if not args.no_reference:
        row.update(
            reference(
                store,
                scopes,
                queries[: args.reference_queries],
                ef_values=args.pg_ef_search if schema else (),
            )
        )
    store.close()
    for procs in args.writers if n <= args.writers_max_size else ():
        rate, during = writers_throughput(
            url,
            schema,
            args.embedder,
            scope,
            procs,
            args.writer_writes,
            args.ort_no_spin,
            queries=queries,
            reader=embedder,
        )
        row[f"remember_per_s_{procs}w"] = round(rate, 1)
        if during:
            row[f"recall_p50_ms_{procs}w"] = round(statistics.median(during), 2)
            row[f"recall_p95_ms_{procs}w"] = round(pct(during, 95), 2)
    return row


def wait_inverted_files(store: Store, scopes: Sequence[str]) -> float:
    """SQLite: wait until the loaded indexes' inverted files are made (from
    `vectors.IVF_FROM` rows, on a thread of their own after the first recall loads the
    scope; the recalls meanwhile scan every code), so that the timed recalls measure the
    path a running store settles on. The milliseconds waited (0 where there is none)."""
    loaded = getattr(store, "loaded_index", None)
    if loaded is None:
        return 0.0
    t0 = time.perf_counter()
    for scope in scopes:
        index = loaded(scope)
        if index is not None:
            index.wait_inverted_file()
    return (time.perf_counter() - t0) * 1000


def _child(args: argparse.Namespace) -> None:
    n = args.one_size
    if args.db:
        row = run_size(args, n, args.db, args.pg_schema)
    elif args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        path = Path(args.keep) / f"scale-{n}-{args.scopes}.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        row = run_size(args, n, str(path))
    else:
        with tempfile.TemporaryDirectory(prefix="credo-scale-") as tmp:
            row = run_size(args, n, str(Path(tmp) / f"scale-{n}.db"))
    print("ROW " + json.dumps(row))


def machine() -> dict[str, Any]:
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gb": round(mem_gb, 1),
        "python": platform.python_version(),
        "load_before": os.getloadavg(),
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    cols = list(dict.fromkeys(c for r in rows for c in r))
    print(" | ".join(cols))
    print(" | ".join("---" for _ in cols))
    for row in rows:
        print(" | ".join(str(row.get(c, "")) for c in cols))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000, 1000000])
    parser.add_argument(
        "--db",
        help="postgresql:// URL: each size in a fresh schema of it "
        "(default: a fresh SQLite file per size)",
    )
    parser.add_argument("--embedder", default="local:minilm")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument(
        "--writers",
        type=int,
        nargs="*",
        default=[1, 4],
        help="remember throughput with this many writer processes",
    )
    parser.add_argument(
        "--writers-max-size",
        type=int,
        default=100_000,
        help="measure writer throughput only up to this size (each writer "
        "process loads the scope's vectors)",
    )
    parser.add_argument(
        "--writer-writes", type=int, default=200, help="remembers per writer process"
    )
    parser.add_argument(
        "--precomputed-from",
        type=int,
        default=1_000_000,
        help="sizes from this on are built from precomputed vectors",
    )
    parser.add_argument(
        "--pool", type=int, default=20000, help="distinct texts embedded for a precomputed build"
    )
    parser.add_argument(
        "--noise", type=float, default=0.01, help="per-dimension noise added to pool vectors"
    )
    parser.add_argument(
        "--vectors-from",
        help="an earlier embedded build's SQLite file: "
        "precomputed sizes replay its real texts and vectors instead of "
        "the pool",
    )
    parser.add_argument(
        "--scopes", type=int, default=1, help="spread the facts round-robin over this many scopes"
    )
    parser.add_argument(
        "--keep",
        help="keep each size's SQLite file in this folder (with "
        "--db: keep each size's schema, named bench_<size>_<scopes>)",
    )
    parser.add_argument(
        "--pg-build-memory",
        default=None,
        help="maintenance_work_mem for the HNSW build (default: credo's)",
    )
    parser.add_argument(
        "--pg-ef-search",
        type=int,
        nargs="*",
        default=[],
        help="also measure vector search at these hnsw.ef_search values",
    )
    parser.add_argument(
        "--no-reference", action="store_true", help="skip the exact numpy reference"
    )
    parser.add_argument("--reference-queries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--ort-no-spin",
        action="store_true",
        help="onnxruntime threads block instead of spinning between runs "
        "(the embedder change this benchmark argues for)",
    )
    parser.add_argument(
        "--out", default=None, help="JSON path (default: bench/results/scale-<backend>.json)"
    )
    parser.add_argument("--one-size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--pg-schema", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_size:
        _child(args)
        return

    rows = []
    info = machine()
    for n in args.sizes:
        cmd = [
            sys.executable,
            __file__,
            "--one-size",
            str(n),
            "--embedder",
            args.embedder,
            "--queries",
            str(args.queries),
            "--writes",
            str(args.writes),
            "--writer-writes",
            str(args.writer_writes),
            "--precomputed-from",
            str(args.precomputed_from),
            "--pool",
            str(args.pool),
            "--noise",
            str(args.noise),
            "--seed",
            str(args.seed),
            "--reference-queries",
            str(args.reference_queries),
            "--writers-max-size",
            str(args.writers_max_size),
            "--writers",
            *map(str, args.writers),
        ]
        if args.no_reference:
            cmd.append("--no-reference")
        cmd += ["--scopes", str(args.scopes)]
        if args.vectors_from:
            cmd += ["--vectors-from", args.vectors_from]
        if args.keep:
            cmd += ["--keep", args.keep]
        if args.pg_build_memory:
            cmd += ["--pg-build-memory", args.pg_build_memory]
        if args.pg_ef_search:
            cmd += ["--pg-ef-search", *map(str, args.pg_ef_search)]
        if args.ort_no_spin:
            cmd.append("--ort-no-spin")
        schema = None
        if args.db:
            schema = (
                f"bench_{n}_{args.scopes}" if args.keep else f"bench_{n}_{uuid.uuid4().hex[:8]}"
            )
            if args.keep:  # a fresh build, in the kept name
                _drop_schema(args.db, schema)
            cmd += ["--db", args.db, "--pg-schema", schema]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
        if schema is not None and args.keep:
            print(f"kept schema {schema}", file=sys.stderr)
        elif schema is not None:
            _drop_schema(args.db, schema)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("ROW ")]
        if proc.returncode != 0 or not lines:
            print(f"size {n} failed (exit {proc.returncode})", file=sys.stderr)
            continue
        rows.append(json.loads(lines[-1][4:]))
    if not rows:
        sys.exit(1)
    print_table(rows)
    backend = rows[0]["backend"]
    out = Path(args.out) if args.out else RESULTS / f"scale-{backend}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps({"machine": info, "command": " ".join(sys.argv), "rows": rows}, indent=2)
    )
    print(f"wrote {out}", file=sys.stderr)


def _drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
