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
    assert sorted(f["text"] for f in listed) == ["The user lives in Berlin", "The user works at Acme"]


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
def test_export_to_a_file_says_what_it_wrote_in_iso_times_and_imports_back(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
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
