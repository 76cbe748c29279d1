"""Do `remember` and `ingest` key the same statement the same way?

Runs every single statement of `examples/write-path.yaml` (the cases without `before`)
once through `Memory.remember` and once through `credo.ingest` as one user turn, each in a
fresh scope of one temporary SQLite store on the shipped embedder, and prints how many give
the same key and, for the rest, both readings. A measurement for the next round of the
write path (issue 25, item 4), not a test: the two paths still differ.

    .venv/bin/python scripts/compare_write_paths.py [--all]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

from credo.embed import get_embedder
from credo.extract.base import Turn
from credo.ingest import ingest
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

Key = tuple[str | None, str | None, str | None]


def main(show_all: bool = False) -> int:
    root = Path(__file__).resolve().parent.parent
    cases = [
        c
        for c in yaml.safe_load((root / "examples/write-path.yaml").read_text())
        if "before" not in c
    ]
    with tempfile.TemporaryDirectory(prefix="credo-paths-") as tmp:
        store = SQLiteStore(Path(tmp) / "paths.db", get_embedder())
        same, differ = 0, []
        for n, case in enumerate(cases):
            said = case["say"]
            result = Memory(store, scope=f"r{n}").remember(said)
            by_remember: Key | None = (
                (result.fact.subject, result.fact.predicate, result.fact.object)
                if result.accepted and result.fact
                else None
            )
            ingest(Memory(store, scope=f"i{n}"), [Turn(id=f"t{n}", role="user", content=said)])
            by_ingest: list[Key] = [
                (f.subject, f.predicate, f.object) for f in store.all(scope=f"i{n}")
            ]
            if by_remember in by_ingest or by_remember is None and not by_ingest:
                same += 1
            else:
                differ.append((said, by_remember, by_ingest))
        store.close()
    print(f"{same} of {len(cases)} statements keyed alike, {len(differ)} differ")
    for said, mine, theirs in differ if show_all else differ[:20]:
        print(f"- {said!r}\n    remember: {mine}\n    ingest:   {theirs or 'nothing proposed'}")
    return 0


if __name__ == "__main__":
    sys.exit(main("--all" in sys.argv[1:]))
