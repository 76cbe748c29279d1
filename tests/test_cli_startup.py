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


#: what `credo --version` and `credo --help` never need: the parser, numpy, the store, the
#: write path, the command groups' modules
NOT_FOR_HELP = (
    "spacy",
    "numpy",
    "lemminflect",
    "credo.memory",
    "credo.store",
    "credo.embed",
    "credo.mcp",
    "credo.serve",
    "credo.ui",
    "credo.cli_ingest",
    "pydantic",
)


def _loaded_after(argv: list[str]) -> list[str]:
    code = (
        "import sys, json, credo.cli\n"
        "try:\n"
        f"    credo.cli.main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps([m for m in {list(NOT_FOR_HELP)!r} if m in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_version_and_help_import_no_heavy_module() -> None:
    for argv in (["--version"], ["--help"], ["--db", "x.db", "--help"], ["-h"]):
        assert _loaded_after(argv) == [], argv


def test_top_level_help_names_each_group_command_as_the_group_does() -> None:
    """`credo --help` lists the command groups from GROUP_COMMANDS, without importing
    them: each name and help must be what the group itself registers."""
    from credo.cli import GROUP_COMMANDS

    def commands(parser: object) -> list[tuple[str, str | None]]:
        sub = next(a for a in parser._actions if a.dest == "command")  # type: ignore[attr-defined]
        return [(a.dest, a.help) for a in sub._choices_actions]

    core = {name for name, _ in commands(build_parser(["recall", "x"]))}
    groups = [item for item in commands(build_parser()) if item[0] not in core]
    assert groups == list(GROUP_COMMANDS)
    assert commands(build_parser(["--help"])) == commands(build_parser())


def test_import_credo_is_lazy_and_names_resolve() -> None:
    code = (
        "import sys, json, credo\n"
        "before = 'credo.memory' in sys.modules or 'numpy' in sys.modules\n"
        "from credo import Memory, Fact, open_store, AsyncMemory\n"
        "print(json.dumps([before, Memory.__name__, 'credo.memory' in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [False, "Memory", True]


def test_importing_the_cli_loads_no_parser_model_or_numpy() -> None:
    """`import credo.cli` (what every command pays before its own imports) loads no
    spaCy, lemminflect, onnxruntime, numpy or write path."""
    heavy = ["spacy", "lemminflect", "onnxruntime", "numpy", "credo.memory", "credo.secrets"]
    code = (
        "import sys, json, credo.cli\n"
        f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_rule_extractor_does_not_import_the_llm_client() -> None:
    """`remember` reads a statement with credo.extract.rules: the package imports the LLM
    extractor (and its HTTP client) only when it is asked for."""
    code = (
        "import sys, json\n"
        "from credo.extract.rules import RuleExtractor\n"
        "from credo.extract import Turn\n"
        "before = [m for m in ('credo.llm', 'credo.extract.llm') if m in sys.modules]\n"
        "from credo.extract import LLMExtractor\n"
        "print(json.dumps([before, LLMExtractor.__name__]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [[], "LLMExtractor"]


def test_the_parser_loads_without_spacys_command_line() -> None:
    """credo.nlp imports spaCy without `spacy.cli` (its download and project commands:
    requests, typer, weasel): the parse is the same, and `spacy.cli` and `spacy.info`
    still work when asked for."""
    code = (
        "import sys, json\n"
        "from credo import nlp\n"
        "doc = nlp.parse('My sister moved to Porto')\n"
        "loaded = [m for m in ('spacy.cli', 'requests', 'typer', 'weasel') if m in sys.modules]\n"
        "import spacy, spacy.cli\n"
        "print(json.dumps([loaded, [(t.text, t.dep_, t.lemma_) for t in doc],\n"
        "    callable(spacy.cli.download), isinstance(spacy.info(), dict)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    loaded, parsed, has_download, info = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded == []
    assert ["moved", "ROOT", "move"] in parsed and ["sister", "nsubj", "sister"] in parsed
    assert has_download and info
