"""Start-up: `credo recall` per prompt imports only what recall uses; help is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from credo.cli import _command_of, build_parser

#: modules a recall never needs (the LLM extractor, ingestion, evaluation, MCP, spaCy)
NOT_FOR_RECALL = (
    "credo.extract",
    "credo.extract.llm",
    "credo.ingest",
    "credo.cli_ingest",
    "credo.cli_eval",
    "credo.mcp",
    "credo.aio",
    "credo.llm",
    "spacy",
    "httpx",
    "asyncio",
)


def test_command_word_found_after_global_options() -> None:
    assert _command_of(["--db", "x.db", "--scope", "s", "recall", "q"]) == "recall"
    assert _command_of(["--db=x.db", "recall", "q"]) == "recall"
    assert _command_of(["--help"]) is None
    assert _command_of(["--emb", "hash", "recall", "q"]) is None  # abbreviation: unclear
    assert _command_of([]) is None


def test_full_parser_lists_every_command() -> None:
    full = build_parser()
    sub = next(a for a in full._actions if a.dest == "command")
    names = set(sub.choices)  # type: ignore[arg-type]
    assert {"remember", "recall", "forget", "mcp", "eval", "ingest", "gate", "rules"} <= names
    # an unclear or foreign command line still gets every command
    for argv in (["--help"], ["ingest", "f.jsonl"], ["nosuch"], ["--emb", "hash", "recall"]):
        sub = next(a for a in build_parser(argv)._actions if a.dest == "command")
        assert set(sub.choices) == names  # type: ignore[arg-type]


def test_core_command_parses_without_groups() -> None:
    args = build_parser(["recall", "where", "-k", "2"]).parse_args(["recall", "where", "-k", "2"])
    assert args.command == "recall" and args.k == 2


def test_recall_process_imports_nothing_recall_does_not_use(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    code = (
        "import sys, json, credo.cli\n"
        f"rc = credo.cli.main(['--db', {str(db)!r}, '--embedder', 'hash', 'recall', 'x'])\n"
        f"print(json.dumps([rc, [m for m in {list(NOT_FOR_RECALL)!r} if m in sys.modules]]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    rc, loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert rc == 0
    assert loaded == []
