"""The secrets corpus through every write path: nothing secret stored or shown, look-alikes kept.

Each item of `secrets.jsonl` (a realistic secret said in a sentence, with the secret
itself) and of `lookalikes.jsonl` (an ordinary fact that looks like one) goes through
every way text gets in: `Memory.remember`, `credo remember TEXT`, `credo remember -` (the
text on stdin), the MCP `remember` tool through an MCP client, `ingest` (the text as a
user turn) and `import` (the text as a fact's text, and in the metadata of a fact, a rule
and a rejection of an export file). Then the secret is looked for everywhere: the export
of every scope (facts, rejections, events, rules), every fact's `why`, everything the
command line and the MCP server answered, the ingest and import reports, and every log
record. A secret "shown" anywhere is a failure; a look-alike refused as a secret on any
path is a false positive.

    python -m credo.eval.secrets_corpus [--corpus tests/fixtures/secrets] [--split dev]

prints the figures per split and language (the command is repeated in its output).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import os
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import MAX_FACT_CHARS, MAX_LABEL_CHARS, MAX_REF_CHARS
from ..embed import HashEmbedder
from ..errors import InvalidInput
from ..extract.base import Turn
from ..memory import Memory
from ..store.sqlite import SQLiteStore

__all__ = ["FILES", "PATHS", "SPLITS", "Item", "Outcome", "load", "main", "run", "summary"]

#: every write path an item is sent through
PATHS = ("remember", "cli_arg", "cli_stdin", "mcp", "ingest", "import")
COMMAND = "python -m credo.eval.secrets_corpus --corpus tests/fixtures/secrets"


@dataclass(frozen=True)
class Item:
    id: str
    split: str
    lang: str
    kind: str
    text: str
    secret: str | None  # None for a look-alike

    @property
    def is_secret(self) -> bool:
        return self.secret is not None


@dataclass
class Outcome:
    """What became of one item: the paths that refused it as a secret, and where its
    secret was found afterwards ("fact" stored, or shown: "export", "why", "output",
    "log")."""

    item: Item
    refused_as_secret: set[str] = field(default_factory=set)
    stored_on: set[str] = field(default_factory=set)  # paths whose scope holds it as a fact
    shown_in: set[str] = field(default_factory=set)

    @property
    def stored(self) -> bool:
        return bool(self.stored_on)

    @property
    def false_positive(self) -> bool:
        return not self.item.is_secret and bool(self.refused_as_secret)


#: the corpus's files: secrets, look-alikes, and `fresh.jsonl` (both kinds, split "fresh":
#: written after the detector was tuned on dev and before it was changed again)
FILES = ("secrets.jsonl", "lookalikes.jsonl", "fresh.jsonl")
#: the splits: `dev` (what the detector was first tuned on), `heldout` and `fresh` (scored
#: blind until issue 24's second round, which tuned on their failures too)
SPLITS = ("dev", "heldout", "fresh")


def load(corpus: str | Path) -> list[Item]:
    """The items of every file of `FILES` in `corpus` (`fresh.jsonl` where there is one)."""
    items = []
    for name in FILES:
        if not (Path(corpus) / name).exists() and name == "fresh.jsonl":
            continue
        with (Path(corpus) / name).open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    d = json.loads(line)
                    items.append(
                        Item(d["id"], d["split"], d["lang"], d["kind"], d["text"], d.get("secret"))
                    )
    return items


def _needles(secret: str) -> list[re.Pattern[str]]:
    """What must not be found of a secret: the secret (and each long line of a secret of
    several lines), as a whole token (not the digits of some longer number, nor the
    decimals of one)."""
    parts = [secret.strip()]
    lines = [ln.strip() for ln in secret.splitlines() if len(ln.strip()) >= 8]
    if len(lines) > 1:
        parts += lines
    # not the decimals of another number either: an export's float time "1764780731.1176"
    # does not hold the door code 1176
    return [
        re.compile(r"(?<![A-Za-z0-9])(?<!\d[.,])" + re.escape(p) + r"(?![A-Za-z0-9])")
        for p in parts
        if p
    ]


class _Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.lines.append(record.getMessage())


@contextlib.contextmanager
def _captured() -> Iterator[io.StringIO]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        yield out


def _scope(path: str, item: Item) -> str:
    return f"{path}-{re.sub(r'[^a-z0-9]+', '-', item.id.lower())}"


def run(
    items: Sequence[Item], workdir: str | Path, *, paths: Iterable[str] = PATHS
) -> list[Outcome]:
    """Every item through every path in `paths`, in a fresh SQLite database in `workdir`;
    then every secret looked for everywhere."""
    paths = tuple(paths)
    db = Path(workdir) / "corpus.db"
    store = SQLiteStore(db, HashEmbedder())
    outcomes = {item.id: Outcome(item) for item in items}
    shown: list[str] = []  # every answer and report any path gave
    logs = _Logs()
    root = logging.getLogger()
    root.addHandler(logs)
    level = root.level
    root.setLevel(logging.DEBUG)
    try:
        for path in paths:
            runner = _RUNNERS[path]
            runner(store, db, items, outcomes, shown)
    finally:
        root.removeHandler(logs)
        root.setLevel(level)
    _look(store, items, outcomes, paths, shown, logs.lines)
    store.close()
    return [outcomes[item.id] for item in items]


# -- the paths ----------------------------------------------------------------------------
def _memory(store: SQLiteStore, path: str, item: Item) -> Memory:
    return Memory(store, scope=_scope(path, item))


def _by_remember(
    store: SQLiteStore, db: Path, items: Sequence[Item], out: Any, shown: list[str]
) -> None:
    for item in items:
        mem = _memory(store, "remember", item)
        try:
            result = mem.remember(item.text)
        except InvalidInput as exc:  # a look-alike of several lines: one at a time
            shown.append(str(exc))
            continue
        shown.append(json.dumps(result.to_dict(), ensure_ascii=False, default=str))
        if any(r.code == "secret" for r in (result, *result.also)):
            out[item.id].refused_as_secret.add("remember")


def _cli(db: Path, scope: str, argv: list[str], stdin: str | None = None) -> str:
    from ..cli import main

    env = {"CREDO_DB": str(db), "CREDO_EMBEDDER": "hash", "CREDO_SCOPE": scope}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    old_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        with _captured() as buf:
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
        return f"{code}\n{buf.getvalue()}"
    finally:
        sys.stdin = old_stdin
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _by_cli(stdin: bool) -> Any:
    path = "cli_stdin" if stdin else "cli_arg"

    def run_cli(
        store: SQLiteStore, db: Path, items: Sequence[Item], out: Any, shown: list[str]
    ) -> None:
        for item in items:
            scope = _scope(path, item)
            if stdin:
                answer = _cli(db, scope, ["remember", "-"], stdin=item.text)
            else:
                answer = _cli(db, scope, ["remember", "--", item.text])
            shown.append(answer)
            if "not stored (secret)" in answer:
                out[item.id].refused_as_secret.add(path)

    return run_cli


def _by_mcp(
    store: SQLiteStore, db: Path, items: Sequence[Item], out: Any, shown: list[str]
) -> None:
    from mcp import Client

    from ..mcp import build_server

    async def go() -> None:
        for item in items:
            server = build_server(_memory(store, "mcp", item))
            async with Client(server) as client:
                result = await client.call_tool("remember", {"text": item.text[:MAX_FACT_CHARS]})
            text = " ".join(getattr(c, "text", "") for c in result.content)
            shown.append(text)
            shown.append(json.dumps(result.structured_content, ensure_ascii=False, default=str))
            if result.is_error and "not stored (secret)" in text:
                out[item.id].refused_as_secret.add("mcp")

    asyncio.run(go())


def _by_ingest(
    store: SQLiteStore, db: Path, items: Sequence[Item], out: Any, shown: list[str]
) -> None:
    from ..ingest import ingest

    for item in items:
        mem = _memory(store, "ingest", item)
        turn = Turn(id=f"{item.id}:1", role="user", content=item.text, episode=item.id)
        report = ingest(mem, [turn])
        shown.append(json.dumps(report.to_dict(), ensure_ascii=False, default=str))
        if any(r["code"] == "secret" for r in report.rejected_candidates):
            out[item.id].refused_as_secret.add("ingest")


def _export_of(item: Item) -> list[dict[str, Any]]:
    """An export file holding the item's text as a fact, and in the metadata of a fact, a
    rule and a rejection."""
    text = item.text[:MAX_FACT_CHARS]
    flat = " ".join(item.text.split())
    room = MAX_LABEL_CHARS - len("imported:")
    label = flat[:room]
    if item.secret and len(flat) > room and item.secret in flat:  # keep the secret in it
        at = flat.index(item.secret)
        label = flat[max(0, at - room // 2) :][:room]
    ref = item.text[:MAX_REF_CHARS]
    return [
        {"type": "header", "format": "credo-export", "version": 1},
        {"type": "fact", "id": "f_0000000000000001", "text": text, "source": "user"},
        {
            "type": "fact",
            "id": "f_0000000000000002",
            "text": "The office kettle is blue.",
            "subject": "office kettle",
            "predicate": "colour",
            "object": "blue",
            "source": "imported:" + label,
            "derived_from": [ref],
        },
        {
            "type": "fact",
            "id": "f_0000000000000003",
            "text": "The office plant is a fern.",
            "predicate": flat[:MAX_FACT_CHARS],
        },
        {"type": "rule", "pattern": "kettle", "origin": label},
        {
            "type": "rejection",
            "text": item.text,
            "code": "secret",
            "reason": "carries a secret",
            "source": "tool:" + label[: MAX_LABEL_CHARS - 5],
            "derived_from": [ref],
        },
    ]


def _by_import(
    store: SQLiteStore, db: Path, items: Sequence[Item], out: Any, shown: list[str]
) -> None:
    for item in items:
        mem = _memory(store, "import", item)
        try:
            report = mem.import_(_export_of(item))
        except InvalidInput as exc:
            shown.append(str(exc))
            continue
        shown.append(json.dumps(report.to_dict(), ensure_ascii=False, default=str))
        if any("record 2 (fact)" in r and "secret" in r for r in report.refused):
            out[item.id].refused_as_secret.add("import")


_RUNNERS = {
    "remember": _by_remember,
    "cli_arg": _by_cli(stdin=False),
    "cli_stdin": _by_cli(stdin=True),
    "mcp": _by_mcp,
    "ingest": _by_ingest,
    "import": _by_import,
}


# -- looking for the secrets --------------------------------------------------------------
def _look(
    store: SQLiteStore,
    items: Sequence[Item],
    outcomes: dict[str, Outcome],
    paths: Sequence[str],
    shown: list[str],
    logs: list[str],
) -> None:
    # the items' own ids are in the answers (scope names, turn ids): the door code 0196
    # is not shown by an answer naming item s-0196
    ids = re.compile(
        "|".join(re.escape(i.id) for i in sorted(items, key=lambda i: -len(i.id))), re.I
    )
    answers = ids.sub("<item>", "\n".join(shown)) if items else ""
    logged = ids.sub("<item>", "\n".join(logs)) if items else ""
    for item in items:
        if item.secret is None:
            for path in paths:  # a look-alike is kept as a fact on the paths that store one
                if path != "import" and store.all(scope=_scope(path, item), limit=1):
                    outcomes[item.id].stored_on.add(path)
            continue
        needles = _needles(item.secret)
        for path in paths:
            scope = _scope(path, item)
            mem = Memory(store, scope=scope)
            facts = store.all(scope=scope, limit=10_000)
            for fact in facts:
                held = json.dumps(fact.to_dict(), ensure_ascii=False, default=str)
                if any(n.search(held) for n in needles):
                    outcomes[item.id].stored_on.add(path)
                why = json.dumps(mem.why(fact.id).to_dict(), ensure_ascii=False, default=str)
                if any(n.search(why) for n in needles):
                    outcomes[item.id].shown_in.add("why")
            # a record's row number is no text shown ("id": 1176 beside a door code 1176)
            exported = "\n".join(
                json.dumps(
                    {k: v for k, v in r.items() if not (k == "id" and isinstance(v, int))},
                    ensure_ascii=False,
                    default=str,
                )
                for r in mem.export()
            )
            if any(n.search(exported) for n in needles):
                outcomes[item.id].shown_in.add("export")
        if any(n.search(answers) for n in needles):
            outcomes[item.id].shown_in.add("output")
        if any(n.search(logged) for n in needles):
            outcomes[item.id].shown_in.add("log")


# -- figures ------------------------------------------------------------------------------
def summary(outcomes: Sequence[Outcome]) -> dict[str, dict[str, dict[str, Any]]]:
    """{split: {language or "all": figures}}: secrets, stored (kept as a fact on some
    path), shown (found anywhere: export, why, output, log), look-alikes, false positives
    (refused as a secret on some path) and their rate."""
    table: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        for split in (o.item.split, "all"):
            for lang in (o.item.lang, "all"):
                groups[(split, lang)].append(o)
    for (split, lang), group in sorted(groups.items()):
        secrets = [o for o in group if o.item.is_secret]
        alikes = [o for o in group if not o.item.is_secret]
        fps = sum(o.false_positive for o in alikes)
        table[split][lang] = {
            "secrets": len(secrets),
            "stored": sum(o.stored for o in secrets),
            "shown": sum(bool(o.shown_in) for o in secrets),
            "lookalikes": len(alikes),
            "false_positives": fps,
            "false_positive_rate": round(fps / len(alikes), 4) if alikes else 0.0,
        }
    return dict(table)


def _print(table: dict[str, dict[str, dict[str, Any]]], paths: Sequence[str]) -> None:
    print(f"$ {COMMAND}")
    print(f"paths: {', '.join(paths)}")
    head = f"{'split':<8} {'lang':<5} {'secrets':>7} {'stored':>6} {'shown':>5} "
    print(head + f"{'look-alikes':>11} {'false pos.':>10} {'rate':>6}")
    for split in sorted(table, key=lambda s: (s == "all", s)):
        for lang in sorted(table[split], key=lambda lang: (lang == "all", lang)):
            f = table[split][lang]
            print(
                f"{split:<8} {lang:<5} {f['secrets']:>7} {f['stored']:>6} {f['shown']:>5} "
                f"{f['lookalikes']:>11} {f['false_positives']:>10} "
                f"{100 * f['false_positive_rate']:>5.1f}%"
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m credo.eval.secrets_corpus")
    parser.add_argument("--corpus", default="tests/fixtures/secrets")
    parser.add_argument("--split", choices=SPLITS, help="only this split")
    parser.add_argument("--paths", default=",".join(PATHS), help="comma-separated paths")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--failures",
        action="store_true",
        help="also list the failures by id (every split is tune data since issue 24)",
    )
    args = parser.parse_args(argv)
    items = [i for i in load(args.corpus) if args.split in (None, i.split)]
    paths = [p for p in args.paths.split(",") if p]
    with tempfile.TemporaryDirectory() as tmp:
        outcomes = run(items, tmp, paths=paths)
    table = summary(outcomes)
    if args.json:
        print(json.dumps(table, indent=2))
    else:
        _print(table, paths)
    if args.failures:
        for o in outcomes:
            split = o.item.split
            if o.item.is_secret and (o.stored or o.shown_in):
                print(
                    f"{split} miss {o.item.id} stored={sorted(o.stored_on)} "
                    f"shown={sorted(o.shown_in)}"
                )
                print(f"  {o.item.text!r}")
            elif o.false_positive:
                print(f"{split} false positive {o.item.id} on {sorted(o.refused_as_secret)}")
                print(f"  {o.item.text!r}")
    bad = table.get("all", {}).get("all", {})
    return 1 if bad.get("stored") or bad.get("shown") else 0


if __name__ == "__main__":
    raise SystemExit(main())
