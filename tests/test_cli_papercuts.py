"""What a new user ran into (issue 13, part 6), each as they met it: on the real command
line and Python API, with real SQLite files."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from credo.cli import db_label, main
from credo.errors import InvalidInput
from credo.memory import Memory
from credo.testing import memory_for_tests

README = Path(__file__).resolve().parents[1] / "README.md"
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.delenv("CREDO_DB", raising=False)
    monkeypatch.delenv("CREDO_SCOPE", raising=False)
    monkeypatch.chdir(tmp_path)

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's usage errors
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


# -- global options after the command ----------------------------------------------------------
def test_global_options_work_after_the_command(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("remember", "I live in Berlin", "--db", "x.db", "--scope", "arttu")[0] == 0
    assert (tmp_path / "x.db").exists()
    before = json.loads(cli("--db", "x.db", "--scope", "arttu", "list", "--json")[1])
    after = json.loads(cli("list", "--json", "--scope", "arttu", "--db", "x.db")[1])
    assert [f["text"] for f in before] == [f["text"] for f in after] == ["The user lives in Berlin"]
    # given after the command, it wins; left out there, what came before stands
    assert (
        json.loads(cli("--scope", "arttu", "--db", "x.db", "list", "--json", "--scope", "b")[1])
        == []
    )
    assert cli("alias", "add", "me2", "arttu", "--db", "x.db", "--scope", "arttu")[0] == 0
    assert "me2 -> arttu" in cli("--db", "x.db", "alias", "list", "--scope", "arttu")[1]
    assert "me2" not in cli("--db", "x.db", "alias", "list")[1]  # the default scope has none


def test_mcp_takes_them_after_the_command(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("mcp", "--scope", "arttu", "--db", "x.db", "--print-config", "claude")
    assert code == 0, err
    entry = json.loads(out)["mcpServers"]["credo-arttu"]
    args = entry["args"]
    assert args[args.index("--db") + 1] == str(tmp_path / "x.db")
    assert args[args.index("--scope") + 1] == "arttu" and args[-1] == "mcp"


def test_eval_keeps_its_own_embedder_option(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("eval", "probes", "nope.yaml", "--embedder", "hash", "--scope", "x")
    assert code == 2 and "probe file" in err  # parsed: the file is what is wrong


# -- --db: a missing directory, --create, stats says where ---------------------------------------
def test_a_db_in_a_missing_directory_is_an_error_unless_create(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("--db", "typo/credo.db", "remember", "I live in Berlin")
    assert code == 2 and "typo does not exist" in err and "--create" in err
    assert not (tmp_path / "typo").exists()
    assert cli("remember", "I live in Berlin", "--db", "typo/credo.db", "--create")[0] == 0
    assert (tmp_path / "typo" / "credo.db").exists()
    assert cli("--db", "typo/credo.db", "stats")[0] == 0  # there now: no --create needed


def test_a_missing_directory_in_credo_db_is_an_error_too(
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CREDO_DB", "nowhere/x.db")
    code, _, err = cli("list")
    assert code == 2 and "nowhere does not exist" in err


def test_stats_says_which_database(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("--db", "s.db", "--scope", "arttu", "stats")
    assert code == 0
    assert out.splitlines()[:2] == [f"database: {tmp_path / 's.db'}", "scope: arttu"]
    data = json.loads(cli("--db", "s.db", "stats", "--json")[1])
    assert data["database"] == str(tmp_path / "s.db") and data["active"] == 0


def test_a_postgres_url_is_shown_without_its_password() -> None:
    assert (
        db_label("postgresql://arttu:s3cret@db.example:5432/credo")
        == "postgresql://arttu@db.example:5432/credo"
    )
    assert (
        db_label("postgresql://h/credo?user=a&password=s3cret&sslmode=require")
        == "postgresql://h/credo?user=a&sslmode=require"
    )


# -- recall --subject, --min-confidence ----------------------------------------------------------
def test_recall_subject_filters_to_that_subject(cli) -> None:  # type: ignore[no-untyped-def]
    for text in ["Arttu lives in Berlin", "Sam lives in Oslo", "I use Helix"]:
        cli("--db", "r.db", "remember", text)
    hits = json.loads(
        cli("--db", "r.db", "recall", "where does someone live", "--subject", "sam", "--json")[1]
    )
    assert [h["subject"] for h in hits] == ["sam"]
    everyone = json.loads(cli("--db", "r.db", "recall", "where does someone live", "--json")[1])
    assert {h["subject"] for h in everyone} >= {"sam", "arttu"}


def test_no_option_is_taken_by_a_prefix_of_its_name(cli) -> None:  # type: ignore[no-untyped-def]
    """`--k 0` meant -k to its user; read as `--known-at 0`, it answered "(nothing known)"."""
    assert cli("--db", "m.db", "remember", "I live in Berlin")[0] == 0
    code, out, err = cli("--db", "m.db", "recall", "where do I live", "--k", "3")
    assert code == 2 and "unrecognized arguments: --k 3" in err and out == ""
    code, _, err = cli("--db", "m.db", "list", "--stat", "active")  # not --status
    assert code == 2 and "--stat" in err
    assert "Berlin" in cli("--db", "m.db", "recall", "where do I live", "-k", "3")[1]
    assert "Berlin" in cli("--db", "m.db", "list", "--status", "active")[1]


def test_min_confidence_outside_0_1_is_an_error(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for bad in ["1.5", "-0.1", "high"]:
        code, _, err = cli("--db", "m.db", "recall", "x", "--min-confidence", bad)
        assert code == 2 and "--min-confidence" in err
    memory = memory_for_tests(tmp_path / "api.db")
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(InvalidInput, match="between 0 and 1"):
            memory.recall("x", min_confidence=bad)


def test_conflicted_facts_obey_the_floor(tmp_path: Path) -> None:
    memory = memory_for_tests(tmp_path / "c.db")
    memory.remember("The deploy target is staging")
    memory.remember("The deploy target is prod", source="tool:ci")  # a conflict lowers both
    both = memory.recall("deploy target", min_confidence=0.4)
    assert {h.fact.object for h in both} == {"staging", "prod"}
    assert all(h.fact.status.value == "conflicted" for h in both)
    confidence = {f.object: f.confidence for f in memory.list()}
    assert confidence["prod"] < 0.82 < confidence["staging"] < 0.9
    high = memory.recall("deploy target", min_confidence=0.82)
    # staging passes the floor on its own; prod, under it, comes only as its counterpart
    # (a contradiction is never cut in half)
    assert [h.fact.object for h in high] == ["staging", "prod"]
    assert high[1].found_by[-1] == "conflict" and "conflict" not in high[0].found_by
    assert memory.recall("deploy target", min_confidence=0.9) == []  # neither passes


# -- remember - ----------------------------------------------------------------------------------
def test_remember_dash_reads_standard_input(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.StringIO("I live in Berlin\n\nI use Helix\n"))
    code, out, _ = cli("--db", "in.db", "remember", "-")
    assert code == 0 and out.count("new:") == 2
    texts = sorted(f["text"] for f in json.loads(cli("--db", "in.db", "list", "--json")[1]))
    assert texts == ["The user lives in Berlin", "The user uses Helix"]


def test_remember_dash_through_a_real_pipe(tmp_path: Path) -> None:
    env = {"CREDO_EMBEDDER": "hash", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "credo.cli", "--db", str(tmp_path / "p.db"), "remember", "-"],
        input="Arttu lives in Berlin\n",
        text=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and "Arttu lives in Berlin" in done.stdout, done.stderr


# -- --json times: ISO 8601, the same strings as MCP ---------------------------------------------
def test_json_times_are_iso_and_match_mcp(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from credo.mcp import fact_out

    cli("--db", "j.db", "remember", "I live in Berlin", "--valid-from", "2025-03-01")
    cli("--db", "j.db", "remember", "The deploy target is staging")
    cli("--db", "j.db", "remember", "The deploy target is prod")
    listed = json.loads(cli("--db", "j.db", "list", "--json")[1])
    berlin = next(f for f in listed if f["object"] == "Berlin")
    assert berlin["valid_from"] == "2025-03-01T00:00:00Z" and ISO.match(berlin["created_at"])
    assert berlin["valid_to"] is None
    stored = Memory(memory_for_tests(tmp_path / "j.db").store).get(berlin["id"])
    mcp = fact_out(stored)
    assert (berlin["valid_from"], berlin["created_at"]) == (mcp["valid_from"], mcp["learned_at"])
    recalled = json.loads(cli("--db", "j.db", "recall", "where do I live", "--json")[1])
    conflicts = json.loads(cli("--db", "j.db", "conflicts", "--json")[1])
    rejected = (
        cli("--db", "j.db", "remember", "how are you?"),
        json.loads(cli("--db", "j.db", "rejected", "--json")[1]),
    )[1]
    for record in [recalled[0], conflicts[0], conflicts[0]["a"], rejected[0]]:
        assert ISO.match(record["created_at"]), record
    why = json.loads(cli("--db", "j.db", "why", berlin["id"], "--json")[1])
    assert why["fact"]["valid_from"] == "2025-03-01T00:00:00Z"
    assert why["sources"] and all(ISO.match(s["at"]) for s in why["sources"])


# -- alias add shows what it leaves under the old name -------------------------------------------
def test_alias_add_lists_the_facts_already_under_the_alias(cli) -> None:  # type: ignore[no-untyped-def]
    cli("--db", "a.db", "remember", "Arttuan deploys arttuan.com on Vercel")
    code, out, _ = cli("--db", "a.db", "alias", "add", "arttuan", "arttu")
    assert code == 0 and out.startswith("arttuan -> arttu")
    assert "1 fact(s) stored before under 'arttuan' keep that subject" in out
    assert "Arttuan deploys arttuan.com on Vercel" in out and "f_" in out
    code, out, _ = cli("--db", "a.db", "alias", "add", "art", "arttu")
    assert code == 0 and out.strip() == "art -> arttu"  # nothing stored under it: nothing said


# -- the README's Python snippet does what its comments say --------------------------------------
def test_the_readme_python_snippet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    found = re.search(
        r"<!-- test: python-api -->\s*```python\n(.*?)```",
        README.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found, "README.md has no example marked python-api"
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    code = found.group(1)
    before_forget = code.replace('memory.forget(subject="arttu")', "facts = memory.list()")
    exec(compile(before_forget, "README.md (python-api)", "exec"), namespace)
    texts = sorted(f.text for f in namespace["facts"])  # type: ignore[attr-defined]
    assert texts == ["Arttu deploys arttuan.com on Vercel", "Arttu lives in Berlin"]
    printed = capsys.readouterr().out
    assert "Arttu deploys arttuan.com on Vercel" in printed and "reference material" in printed
    namespace = {}
    exec(compile(code, "README.md (python-api)", "exec"), namespace)
    assert namespace["memory"].list() == []  # type: ignore[attr-defined]
