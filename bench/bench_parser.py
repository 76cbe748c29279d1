"""The key parser, measured: load time, time per sentence, and what it stores.

    .venv/bin/python bench/bench_parser.py [--old REV]

Rows, side by side in one run:
- `spacy` (credo.keys, as shipped): en_core_web_sm 3.8 without NER, lemminflect;
- `regex` (the hand-written engine credo had before, read from git at REV, default
  45dcf3c): no model, regular expressions and a conjugation table.

Accuracy is on the single statements of examples/write-path.yaml, whose expected stored
sentences and keys were read by hand: share of sentences stored exactly as expected (a
final period aside, which the regex engine added), and share of negated statements whose
stored sentence still carries the negation. Load time is
a fresh interpreter importing the parser and reading one sentence.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
NEGATION = re.compile(r"\b(?:not|never|no longer|stopped|used to|no)\b|n't", re.IGNORECASE)


def _cases() -> list[dict[str, Any]]:
    cases = yaml.safe_load((ROOT / "examples" / "write-path.yaml").read_text())
    return [c for c in cases if "before" not in c and c.get("outcome") != "refused"]


def _old_parser(rev: str) -> Any:
    source = subprocess.run(
        ["git", "show", f"{rev}:src/credo/keys.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    source = source.replace("from .fact import", "from credo.fact import")
    path = Path(tempfile.mkdtemp()) / "old_keys.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_keys", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_keys"] = module
    spec.loader.exec_module(module)
    return module


def _stored_new(text: str) -> str:
    from credo.keys import analyse

    return analyse(text).text


def _load_seconds(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", default="45dcf3c", help="git revision of the regex engine")
    args = ap.parse_args()
    cases = _cases()
    old = _old_parser(args.old)

    def stored_old(text: str) -> str:
        found = old.parse_key(text)
        return found.text if found else text

    engines = {"spacy": _stored_new, "regex": stored_old}
    load = {
        "spacy": _load_seconds("from credo.keys import analyse; analyse('I live in Berlin')"),
        "regex": 0.0,
    }
    print(f"{len(cases)} statements from examples/write-path.yaml\n")
    print(f"{'engine':<8} {'load s':>7} {'ms/sent':>8} {'exact':>7} {'negation kept':>14}")
    for name, fn in engines.items():
        from credo import nlp

        nlp.parse.cache_clear()
        times, exact, neg_total, neg_kept = [], 0, 0, 0
        for case in cases:
            start = time.perf_counter()
            got = fn(case["say"])
            times.append((time.perf_counter() - start) * 1000)
            exact += got.rstrip(".") == case["stored"].rstrip(".")
            if NEGATION.search(case["say"]):
                neg_total += 1
                neg_kept += bool(NEGATION.search(got))
        print(
            f"{name:<8} {load[name]:>7.2f} {statistics.median(times):>8.2f} "
            f"{exact / len(cases):>7.3f} {f'{neg_kept}/{neg_total}':>14}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
