"""A learned reranker over credo's recall, against credo's fusion alone, on LoCoMo.

    pip install --no-deps --target /tmp/rerank-lib nanoranker onnxruntime-extensions
    PYTHONPATH=/tmp/rerank-lib .venv/bin/python bench/bench_rerank.py \\
        --data ../shared/data/locomo/locomo_dev.json [--unit extracted] [--depth 30]

No cross-encoder ships its weights in a PyPI package that we could find (issue 25, part 3;
docs/benchmarks.md, "Recall of what a question names"): FlashRank, mxbai-rerank,
sentence-transformers' CrossEncoder and the rest fetch them from a model hub at run time.
`nanoranker` (MIT) is the one reranker whose wheel holds its weights (an ONNX network over
the Universal Sentence Encoder's embedding of the query and of each text, plus character
n-gram hashes; a learned scorer, not a cross-encoder). It is not a credo dependency: the
command above puts it beside credo's venv for this bench only.

Rows: credo's recall (fusion) at each k; the reranker ordering credo's top `--depth` and
cut at each k. Latency per question: credo's recall at k = depth, and the reranker on its
texts, with the texts' embeddings computed in the call (cold) or kept from an earlier call
(cached, as a store that kept them would have). Same stores and questions as `credo eval
locomo`; writes JSON to bench/results/rerank-<unit>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from credo.embed import get_embedder
from credo.eval import locomo
from credo.fact import Fact
from credo.store.base import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_retrieval import Memo  # noqa: E402
from bench_scale import RESULTS, machine  # noqa: E402


class Reranker:
    def __init__(self) -> None:
        import nanoranker  # not a credo dependency: see the module's docstring

        self.n = nanoranker
        self.kept: dict[str, Any] = {}
        self.times: dict[str, list[float]] = {"cold": [], "cached": []}

    def embed(self, text: str) -> Any:
        if text not in self.kept:
            self.kept[text] = self.n.embed(text)
        return self.kept[text]

    def order(self, query: str, facts: list[Fact]) -> list[Fact]:
        if not facts:
            return facts
        cold = any(f.text not in self.kept for f in facts)
        start = time.perf_counter()
        docs = np.array([self.embed(f.text) for f in facts])
        pairs = np.concatenate([np.tile(self.n.embed(query), (len(facts), 1)), docs], axis=1)
        scores = self.n.reranker_model.run(["output"], {"input": pairs.astype(np.float32)})[0]
        self.times["cold" if cold else "cached"].append(time.perf_counter() - start)
        return [facts[i] for i in np.argsort(-scores.reshape(-1), kind="stable")]


def ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "n": len(values),
        "p50_ms": round(1000 * float(np.median(values)), 2),
        "p95_ms": round(1000 * float(np.percentile(values, 95)), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", required=True)
    parser.add_argument("--unit", choices=locomo.UNITS, default="turn")
    parser.add_argument("--embedder", default="local:minilm")
    parser.add_argument(
        "--depth", type=int, default=30, help="how many of credo's facts it reorders"
    )
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    convs = locomo.read_locomo(args.data)
    embedder = Memo(get_embedder(args.embedder))
    reranker = Reranker()
    fusion_times: list[float] = []
    memo: dict[tuple[int, str], tuple[list[Fact], list[Fact]]] = {}

    def both(store: Store, question: str) -> tuple[list[Fact], list[Fact]]:
        key = (id(store), question)
        if key not in memo:
            start = time.perf_counter()
            facts = locomo.credo_recall(store, question, args.depth)
            fusion_times.append(time.perf_counter() - start)
            memo[key] = (facts, reranker.order(question, facts))
        return memo[key]

    rows: list[dict[str, Any]] = []
    configs = (("credo recall (fusion)", 0), (f"nanoranker over credo's top {args.depth}", 1))
    for name, pick in configs:

        def retrieve(store: Store, question: str, k: int, pick: int = pick) -> list[Fact]:
            if pick == 0:
                return locomo.credo_recall(store, question, k)
            return both(store, question)[1][:k]

        data = locomo.evaluate(
            convs, embedder, unit=args.unit, ks=args.k, retriever=retrieve
        ).to_dict()
        row = {
            "config": name,
            **{k: v for k, v in data["overall_1_4"].items() if k.startswith("R@")},
            **{f"cat{c.split()[0]} R@10": v["R@10"] for c, v in data["categories"].items()},
        }
        rows.append(row)
        memo.clear()  # the next evaluate builds new stores
        print(json.dumps(row), file=sys.stderr)
    latency = {
        "credo recall at k=depth": ms(fusion_times),
        "rerank, texts embedded in the call": ms(reranker.times["cold"]),
        "rerank, texts' embeddings kept": ms(reranker.times["cached"]),
    }
    cols = list(rows[0])
    print(" | ".join(cols))
    print(" | ".join("---" for _ in cols))
    for row in rows:
        print(
            " | ".join(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in cols)
        )
    for name, figures in latency.items():
        print(f"{name}: {figures}")
    out = Path(args.out) if args.out else RESULTS / f"rerank-{args.unit}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "machine": machine(),
                "command": " ".join(sys.argv),
                "unit": args.unit,
                "depth": args.depth,
                "rows": rows,
                "latency": latency,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
