"""Full-text candidates by rare words, or every matching row: recall quality and speed on a
kept bench_scale build, side by side in one run.

    .venv/bin/python bench/bench_rare_words.py --db /tmp/s10k/scale-10000-1.db
    .venv/bin/python bench/bench_rare_words.py --db postgresql://... --schema bench_10000_1

Questions are made from the store's own facts by bench_scale's templates ("Arttu 1234 lives
in Berlin" -> "where does Arttu 1234 live"), so each has a known answer: the fact it was
made from. For each --starts value the backend's RARE_WORDS_FROM (the store size from which
only rare words select full-text candidates) is set and every question is recalled
(`Memory.recall(q, k=10)`): R@1 and R@10 of the answer, and recall p50 ms. The starts run
in turn, --rounds times, so that load drifts over all of them alike.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time

from credo.embed import get_embedder
from credo.memory import Memory
from credo.store import open_store
from credo.store.base import Store
from credo.store.words import WordCounts

P = r"^([A-Z][a-z]+ \d+)"
RULES = [
    (P + r" lives in", "where does {p} live"),
    (P + r" works at", "which company does {p} work for"),
    (P + r" plays", "what sport does {p} play"),
    (P + r" is allergic", "what is {p} allergic to"),
    (P + r" has ", "does {p} have pets"),
    (P + r"'s manager", "who is {p}'s manager"),
    (P + r"'s editor", "what editor does {p} use"),
]


def questions(store: Store, scope: str, n: int, seed: int) -> list[tuple[str, str]]:
    facts = store.all(scope=scope)
    random.Random(seed).shuffle(facts)
    cases = []
    for fact in facts:
        for pattern, question in RULES:
            m = re.match(pattern, fact.text)
            if m:
                cases.append((question.format(p=m.group(1)), fact.id))
                break
        if len(cases) >= n:
            break
    return cases


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--db", required=True, help="a SQLite file or a postgresql:// URL")
    p.add_argument("--schema", help="PostgreSQL: the kept schema")
    p.add_argument("--scope", help="default: the store's first")
    p.add_argument("--starts", type=int, nargs="+", default=[20000, 2000])
    p.add_argument("--questions", type=int, default=150)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()
    embedder = get_embedder(args.embedder)
    if args.db.startswith("postgres"):
        import credo.store.postgres as backend
        from credo.store.postgres import PostgresStore

        store: Store = PostgresStore(args.db, embedder, schema=args.schema)
    else:
        import credo.store.sqlite as backend  # type: ignore[no-redef]

        store = open_store(args.db, embedder)
    scope = args.scope or store.scopes()[0]
    mem = Memory(store, scope=scope)
    cases = questions(store, scope, args.questions, args.seed)
    for q, _ in cases[:10]:
        mem.recall(q, k=10)  # warm-up
    for _ in range(args.rounds):
        for start in args.starts:
            backend.RARE_WORDS_FROM = start  # type: ignore[attr-defined]
            store._words = WordCounts()  # type: ignore[attr-defined]
            first = top = 0
            took = []
            for q, answer in cases:
                t0 = time.perf_counter()
                ids = [h.fact.id for h in mem.recall(q, k=10)]
                took.append((time.perf_counter() - t0) * 1000)
                first += ids[:1] == [answer]
                top += answer in ids
            print(
                f"rare words from {start}: R@1 {first / len(cases):.3f}  R@10 "
                f"{top / len(cases):.3f}  recall p50 {statistics.median(took):.1f} ms  "
                f"({len(cases)} questions)",
                flush=True,
            )
    store.close()


if __name__ == "__main__":
    main()
