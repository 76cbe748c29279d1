"""What each part of credo's recall adds on LoCoMo: an ablation, one row per configuration.

    .venv/bin/python bench/bench_retrieval.py --data ../shared/data/locomo/locomo_dev.json

Same stores and questions as `credo eval locomo` (raw turns as facts, or --unit
extracted), scored the same way (evidence R@k, categories 1-4). Rows:

- lexical alone, vector alone: one list, no fusion;
- recall before (the algorithm up to commit 4606ce4, reproduced here): RRF over lists of
  max(4k, 20), and every fact of a named entity first, the entity's 200 most recent facts
  ranked by cosine;
- plain RRF: vector + lexical lists of max(4k, 20), nothing else;
- then credo's recall with its parts switched on one by one: list depth max(k, 20);
  entity-first (relevance-limited); the date list; pseudo-relevance feedback (= credo's
  recall as shipped).

Prints a table and writes JSON to bench/results/retrieval-<unit>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import credo.recall as R
from credo.embed import Embedder, Kind, Vectors, get_embedder
from credo.eval import locomo
from credo.fact import Fact
from credo.store.base import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import RESULTS, machine  # noqa: E402

SCOPE = locomo.SCOPE
Retriever = Callable[[Store, str, int], Sequence[Fact]]


def live(store: Store, ids: list[str], k: int) -> list[Fact]:
    return [f for f in store.get_many(ids, scope=SCOPE) if f.is_live][:k]


def lexical_alone(store: Store, q: str, k: int) -> list[Fact]:
    return live(store, [i for i, _ in store.lexical_search(q, scope=SCOPE, k=k)], k)


def vector_alone(store: Store, q: str, k: int) -> list[Fact]:
    qv = store.embed([q], kind="query")[0]
    return live(store, [i for i, _ in store.vector_search(qv, scope=SCOPE, k=k)], k)


def plain_rrf(store: Store, q: str, k: int) -> list[Fact]:
    n = max(4 * k, 20)
    qv = store.embed([q], kind="query")[0]
    fused = R.rrf(
        {
            "vector": [i for i, _ in store.vector_search(qv, scope=SCOPE, k=n)],
            "lexical": [i for i, _ in store.lexical_search(q, scope=SCOPE, k=n)],
        }
    )
    return live(store, sorted(fused, key=lambda i: -fused[i][0]), k)


def recall_before(store: Store, q: str, k: int) -> list[Fact]:
    """credo's recall up to commit 4606ce4 (without its conflict-partner step, which no
    LoCoMo fact needs)."""
    n = max(4 * k, 20)
    qv = store.embed([q], kind="query")[0]
    vector = [i for i, _ in store.vector_search(qv, scope=SCOPE, k=n)]
    lexical = [i for i, _ in store.lexical_search(q, scope=SCOPE, k=n)]
    named = R.entities_in(q, store, scope=SCOPE, aliases=store.aliases(scope=SCOPE))
    entity: list[str] = []
    if named:
        exact = [f for s in named for f in store.by_subject(s, scope=SCOPE, limit=200)]
        vecs = store.vectors_of([f.id for f in exact], scope=SCOPE)
        sims = {fid: float(np.dot(v, qv)) for fid, v in vecs.items()}
        entity = sorted((f.id for f in exact), key=lambda i: sims.get(i, -1.0), reverse=True)
    fused = R.rrf({"entity": entity, "vector": vector, "lexical": lexical})
    first = set(entity)
    return live(store, sorted(fused, key=lambda i: (i not in first, -fused[i][0])), k)


def credo_with(
    *, depth: int = R.LIST_DEPTH, entity: bool = True, dates: bool = True, feedback: bool = True
) -> Retriever:
    def retrieve(store: Store, q: str, k: int) -> list[Fact]:
        saved = (R.named_in, R.periods_in)
        if not entity:
            R.named_in = lambda q, *a, **kw: ([], q)  # type: ignore[assignment]
        if not dates:
            R.periods_in = lambda *a, **kw: []  # type: ignore[assignment]
        try:
            return [
                h.fact for h in R.recall(store, q, scope=SCOPE, k=k, depth=depth, feedback=feedback)
            ][:k]
        finally:
            R.named_in, R.periods_in = saved

    return retrieve


class Memo(Embedder):
    """The same model, each text embedded once for all configurations."""

    def __init__(self, real: Embedder) -> None:
        self.real, self.name, self.dim = real, real.name, real.dim
        self.duplicate_threshold = real.duplicate_threshold
        self.memo: dict[tuple[str, str], np.ndarray] = {}

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if (kind, t) not in self.memo]
        if missing:
            for t, v in zip(missing, self.real.embed_batch(missing, kind=kind), strict=True):
                self.memo[(kind, t)] = v
        return np.stack([self.memo[(kind, t)] for t in texts]).astype(np.float32)


CONFIGS: list[tuple[str, Retriever]] = [
    ("lexical alone (FTS5 BM25)", lexical_alone),
    ("vector alone", vector_alone),
    ("recall before (4606ce4)", recall_before),
    ("plain RRF, lists max(4k,20)", plain_rrf),
    ("RRF, lists max(k,20)", credo_with(entity=False, dates=False, feedback=False)),
    ("+ entity first", credo_with(dates=False, feedback=False)),
    ("+ dates", credo_with(feedback=False)),
    ("+ feedback = credo recall", credo_with()),
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", required=True)
    parser.add_argument("--unit", choices=locomo.UNITS, default="turn")
    parser.add_argument("--embedder", default="local:minilm")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    convs = locomo.read_locomo(args.data)
    embedder = Memo(get_embedder(args.embedder))
    rows: list[dict[str, Any]] = []
    for name, retriever in CONFIGS:
        report = locomo.evaluate(convs, embedder, unit=args.unit, ks=args.k, retriever=retriever)
        data = report.to_dict()
        row = {
            "config": name,
            **{k: v for k, v in data["overall_1_4"].items() if k.startswith("R@")},
            **{f"cat{c.split()[0]} R@10": v["R@10"] for c, v in data["categories"].items()},
            "ms_per_query": data["recall_ms_mean"],
        }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    cols = list(rows[0])
    print(" | ".join(cols))
    print(" | ".join("---" for _ in cols))
    for row in rows:
        print(
            " | ".join(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in cols)
        )
    out = Path(args.out) if args.out else RESULTS / f"retrieval-{args.unit}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "machine": machine(),
                "command": " ".join(sys.argv),
                "unit": args.unit,
                "embedder": embedder.name,
                "conversations": [c.sample_id for c in convs],
                "rows": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
