"""Issue 25, parts 5 and 6 on the command line: many statements in one `remember`, and the
papercuts a new user met (export -o, times, --print-config), each as they met it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from credo.cli import main

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$")


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "m.db"))
    monkeypatch.delenv("CREDO_SCOPE", raising=False)
    monkeypatch.chdir(tmp_path)

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


# -- part 5: many statements in one call -----------------------------------------------------
def test_remember_a_file_reports_each_line_and_loses_none_on_a_bad_one(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "facts.txt"
    path.write_text(
        "I live in Berlin\n\nwhat time is it?\n" + "xyzzy " * 500 + "\nI work at Acme\n",
        encoding="utf-8",
    )
    code, out, err = cli("remember", "--file", str(path))
    assert code == 1  # some line was not stored
    assert "line 1: new:" in out and "The user lives in Berlin" in out
    assert "line 5: new:" in out and "The user works at Acme" in out  # after the bad line
    assert "line 3: not stored (question)" in err
    assert "line 4:" in err and "at most" in err  # too long: named, not a traceback
    assert "4 statement(s) read: 2 stored, 2 not stored" in err
    listed = json.loads(cli("list", "--json")[1])
    assert sorted(f["text"] for f in listed) == [
        "The user lives in Berlin",
        "The user works at Acme",
    ]


def test_remember_from_stdin_and_json_names_lines(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("remember", "-", "--json", stdin="I like tea\nI have two cats\n")
    assert code == 0
    data = json.loads(out)
    assert [d["line"] for d in data] == [1, 2] and all(d["accepted"] for d in data)
    code, out, _ = cli("remember", "--file", "-", stdin="I drive a Volvo\n")
    assert code == 0 and "new:" in out and "line 1" not in out  # one line: as before


def test_remember_needs_exactly_one_input(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("remember")[0] == 2
    (tmp_path / "f.txt").write_text("I like tea\n", encoding="utf-8")
    code, _, err = cli("remember", "I like tea", "--file", "f.txt")
    assert code == 2 and "not both" in err


# -- part 6: export -o -----------------------------------------------------------------------
def test_export_to_a_file_says_what_it_wrote_in_iso_times_and_imports_back(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    cli("remember", "I live in Berlin")
    cli("remember", "I live in Porto")
    code, out, _ = cli("export", "-o", "out.jsonl")
    assert code == 0
    assert "wrote out.jsonl" in out and "fact(s)" in out
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    times = [
        (r["type"], key, value)
        for r in records
        for key, value in r.items()
        if key.endswith("_at") or key in ("valid_from", "valid_to", "at")
    ]
    assert times and all(value is None or ISO.match(value) for _, _, value in times), times
    # import reads them (into a fresh database), and an old export's epoch seconds too
    code, out, err = cli("--db", str(tmp_path / "b.db"), "import", "out.jsonl")
    assert code == 0, err
    again = json.loads(cli("--db", str(tmp_path / "b.db"), "list", "--json")[1])
    before = json.loads(cli("list", "--json")[1])
    assert [(f["id"], f["status"], f["created_at"]) for f in again] == [
        (f["id"], f["status"], f["created_at"]) for f in before
    ]
    epoch = [dict(r, exported_at=1_700_000_000.5) if r["type"] == "header" else r for r in records]
    for r in epoch:
        if r["type"] == "fact":
            r["created_at"] = 1_700_000_000.25
    (tmp_path / "old.jsonl").write_text("\n".join(json.dumps(r) for r in epoch) + "\n")
    code, _, err = cli("--db", str(tmp_path / "c.db"), "import", "old.jsonl")
    assert code == 0, err


# -- part 6: the README's command-line block runs as written ----------------------------------
@pytest.mark.slow
def test_readme_command_line_block_runs_as_written(tmp_path: Path) -> None:
    """Every line of the README's command-line block, in a shell, on a fresh database:
    the ids it resolves, explains and retracts are ones that database has."""
    import os
    import subprocess
    import sys

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The command line", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert "resolve --keep" in block and "f_0fb6" not in block
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "CREDO_EMBEDDER": "hash",
        "CREDO_DB": str(tmp_path / "readme.db"),
    }
    env.pop("CREDO_SCOPE", None)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "resolved" in done.stdout or "active" in done.stdout
    assert (tmp_path / "backup.jsonl").exists() and (tmp_path / "other.db").exists()


def test_a_refusal_names_its_reason_once(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("remember", "I think maybe I live in Berlin")
    assert code == 1
    assert "not stored (hedged):" in err and "hedged: hedged" not in err
    assert "(hedged): hedged:" not in err


def test_rules_show_times_readably(cli) -> None:  # type: ignore[no-untyped-def]
    from credo.cli_ingest import readable_origin

    assert cli("remember", "don't remember my salary")[0] == 0
    code, out, _ = cli("rules")
    assert code == 0 and "from=remember@" in out
    assert not re.search(r"remember@\d{9,}", out)  # no epoch seconds
    assert re.search(r"remember@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", out)
    assert readable_origin("remember@1796276561") == "remember@2026-12-03T05:42:41Z"
    assert readable_origin("turn:abc") == "turn:abc"
    rules = json.loads(cli("rules", "--json")[1])
    assert rules and all(ISO.match(r["created_at"]) for r in rules)


def test_every_time_in_history_and_why_json_is_iso(cli) -> None:  # type: ignore[no-untyped-def]
    """`history --json` wrote each value's learned_at as epoch seconds, beside ISO times."""
    cli("remember", "I live in Berlin")
    cli("remember", "Arttu lives in Helsinki", "--valid-from", "2024-01-10")
    cli("remember", "Arttu lives in Berlin")
    code, out, _ = cli("history", "arttu", "--json")
    assert code == 0
    entries = [e for key in json.loads(out) for e in key["entries"]]
    assert len(entries) == 2
    for entry in entries:
        for field in ("valid_from", "valid_to", "learned_at", "retired_at"):
            assert entry[field] is None or ISO.match(entry[field]), (field, entry[field])
    assert any(e["retired_at"] for e in entries)  # Helsinki, superseded
    fact_id = entries[-1]["id"]
    why = json.loads(cli("why", fact_id, "--json")[1])
    times = [d["at"] for d in why["decisions"]] + [why["fact"]["created_at"]]
    assert all(ISO.match(t) for t in times), times


def test_print_config_ends_with_a_newline(cli) -> None:  # type: ignore[no-untyped-def]
    for client in ("claude", "cursor"):
        code, out, err = cli("mcp", "--print-config", client)
        assert code == 0 and out.endswith("}\n") and err.endswith("\n")
