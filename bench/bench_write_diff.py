"""What a change to the write path does to real sentences: the stored sentence and the key
of every distinct sentence of the persona files, read by the parser at a base commit and
by the working tree, side by side in one run.

    .venv/bin/python bench/bench_write_diff.py --base REV \
        [--data ../shared/data/msc_personas/msc_personas_dev.json] \
        [--data ../shared/data/personaext/personaext_dev.jsonl] [--show 40] [--seed 0]

The base is checked out with `git worktree` into a temporary folder and run in its own
interpreter (`PYTHONPATH` on its `src`), so both sides read the same sentences with their
own code. Printed: how many stored sentences differ, split into those now kept as said
(the rewrite declined) and those rewritten differently, how many keys differ (dropped,
added, another predicate, another object), and a sample of each for reading. It judges
nothing: each difference is for a person to read as the user who said the sentence.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = (
    ROOT.parent / "shared/data/msc_personas/msc_personas_dev.json",
    ROOT.parent / "shared/data/personaext/personaext_dev.jsonl",
)


def sentences(paths: list[Path]) -> list[str]:
    """Distinct sentences, in file order: MSC persona lines, PersonaExt utterances."""
    seen: dict[str, None] = {}
    for path in paths:
        if path.suffix == ".jsonl":
            for line in path.read_text("utf-8").splitlines():
                if line.strip():
                    seen.setdefault(json.loads(line)["text"], None)
            continue
        data: Any = json.loads(path.read_text("utf-8"))
        splits = data.values() if isinstance(data, dict) else [data]
        for split in splits:
            for item in split:
                for value in item.values():
                    if isinstance(value, list):
                        for text in value:
                            if isinstance(text, str):
                                seen.setdefault(text, None)
    return list(seen)


def dump(texts: list[str], out: Path) -> None:
    """(said, stored, kind, subject, predicate, object) per sentence, as JSON lines."""
    from credo.keys import analyse

    with out.open("w", encoding="utf-8") as f:
        for text in texts:
            a = analyse(text)
            f.write(json.dumps([text, a.text, a.kind, a.subject, a.predicate, a.object]) + "\n")


def run_side(src: Path, texts_file: Path, out: Path) -> None:
    cmd = [sys.executable, __file__, "--dump", str(texts_file), str(out)]
    subprocess.run(cmd, check=True, env={**os.environ, "PYTHONPATH": str(src)})


def compare(base: list[list[Any]], head: list[list[Any]], show: int, seed: int) -> None:
    rng = random.Random(seed)
    texts = [(b, h) for b, h in zip(base, head, strict=True) if b[1] != h[1]]
    as_said = [(b, h) for b, h in texts if h[1] == h[0]]
    other = [(b, h) for b, h in texts if h[1] != h[0]]
    keys = [(b, h) for b, h in zip(base, head, strict=True) if b[3:] != h[3:]]
    kinds: Counter[str] = Counter()
    for b, h in keys:
        if b[4] and not h[4]:
            kinds["dropped"] += 1
        elif h[4] and not b[4]:
            kinds["added"] += 1
        elif b[4] != h[4]:
            kinds["predicate"] += 1
        else:
            kinds["object" if b[5] != h[5] else "subject"] += 1
    print(f"sentences: {len(base)}")
    print(
        f"stored sentence differs: {len(texts)} "
        f"(now kept as said: {len(as_said)}; rewritten differently: {len(other)})"
    )
    print(f"key differs: {len(keys)} ({', '.join(f'{k} {n}' for k, n in kinds.most_common())})")
    for title, rows, field in (
        ("rewritten differently", other, 1),
        ("now kept as said", as_said, 1),
        ("key differs", keys, 3),
    ):
        print(f"\n-- {title} (sample of {min(show, len(rows))}) --")
        for b, h in rng.sample(rows, min(show, len(rows))):
            print(f"  {b[0]!r}")
            print(f"    base: {b[field:] if field == 3 else b[1]!r}")
            print(f"    head: {h[field:] if field == 3 else h[1]!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the commit to compare the working tree with")
    parser.add_argument("--data", action="append", type=Path, help="MSC .json / PersonaExt .jsonl")
    parser.add_argument("--show", type=int, default=40, help="sample size per list")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", nargs=2, metavar=("TEXTS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.dump:
        dump(json.loads(Path(args.dump[0]).read_text("utf-8")), Path(args.dump[1]))
        return 0
    if not args.base:
        parser.error("--base REV is required")
    paths = args.data or [p for p in DEFAULT_DATA if p.exists()]
    missing = [p for p in paths if not p.exists()]
    if not paths or missing:
        parser.error(f"no such data file: {', '.join(map(str, missing)) or 'none given'}")
    texts = sentences(paths)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "texts.json").write_text(json.dumps(texts), "utf-8")
        tree = work / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.base],
            check=True,
        )
        try:
            run_side(tree / "src", work / "texts.json", work / "base.jsonl")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )
        run_side(ROOT / "src", work / "texts.json", work / "head.jsonl")
        read = lambda p: [json.loads(x) for x in p.read_text("utf-8").splitlines()]  # noqa: E731
        compare(read(work / "base.jsonl"), read(work / "head.jsonl"), args.show, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
