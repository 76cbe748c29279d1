"""credo.progress: lines on a terminal, nothing when piped, the pace and the time left;
and `credo ingest` printing (or not) through it."""

from __future__ import annotations

import io
import json
import os
import pty
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from credo import cli
from credo.cli_ingest import register
from credo.progress import Progress, format_seconds, is_terminal


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_with_count_pace_and_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress(4, label="ingest", stream=out, enabled=True, clock=clock)
    clock.now += 10
    p.step("kept 2")
    clock.now += 30
    p.step("kept 0")
    p.step("skipped", timed=False)
    p.step("kept 1", seconds=20)
    lines = out.getvalue().splitlines()
    assert lines[0] == "ingest 1/4 | kept 2 | 10.0s each | ETA 30.0s"
    assert lines[1] == "ingest 2/4 | kept 0 | 20.0s each | ETA 40.0s"
    assert lines[2] == "ingest 3/4 | skipped | 20.0s each | ETA 20.0s"  # pace unchanged
    assert lines[3] == "ingest 4/4 | kept 1 | 20.0s each"  # done: no ETA
    p.note("finished")
    assert out.getvalue().splitlines()[-1] == "ingest: finished"


def test_nothing_is_written_when_the_stream_is_not_a_terminal() -> None:
    out = io.StringIO()
    p = Progress(3, label="import", stream=out)
    assert not p.enabled
    p.step("x")
    p.note("y")
    assert out.getvalue() == ""
    assert p.done == 1  # it still counts


def test_quiet_wins_over_a_terminal_and_a_real_pty_is_a_terminal() -> None:
    leader, follower = pty.openpty()
    try:
        with open(follower, "w", closefd=False) as tty:
            assert is_terminal(tty)
            assert Progress(1, label="x", stream=tty).enabled
            assert not Progress(1, label="x", stream=tty, quiet=True).enabled
    finally:
        os.close(leader)
        os.close(follower)
    assert not is_terminal(io.StringIO())


def test_min_interval_thins_quick_steps_but_shows_the_last() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress(100, label="reindex", stream=out, enabled=True, min_interval=1.0, clock=clock)
    for _ in range(100):
        clock.now += 0.1
        p.step()
    lines = out.getvalue().splitlines()
    assert 5 <= len(lines) <= 12
    assert lines[-1].startswith("reindex 100/100")


def test_format_seconds() -> None:
    assert format_seconds(5.25) == "5.2s"
    assert format_seconds(125) == "2m05s"
    assert format_seconds(7380) == "2h03m"
    assert format_seconds(-1) == "?"


@pytest.fixture
def credo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[..., int]]:
    monkeypatch.setattr(cli, "_command_groups", lambda: [register])
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    for var in ("CREDO_LLM", "CREDO_LLM_URL", "CREDO_LLM_KEY", "CREDO_LLM_TIMEOUT",
                "CREDO_LLM_CONCURRENCY", "CREDO_EPISODE_SIZE"):  # fmt: skip
        monkeypatch.delenv(var, raising=False)
    yield lambda *argv: cli.main(list(argv))


def _chat(tmp_path: Path) -> Path:
    path = tmp_path / "c.jsonl"
    rows = [{"role": "user", "content": f"I live in Oulu{n}."} for n in range(6)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_ingest_prints_a_line_per_episode_on_a_terminal(
    credo: Callable[..., int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    tty = FakeTTY()
    monkeypatch.setattr("sys.stderr", tty)
    assert credo("ingest", str(_chat(tmp_path)), "--episode-size", "2") == 0
    lines = [ln for ln in tty.getvalue().splitlines() if ln.startswith("ingest ")]
    assert [ln.split(" | ")[0] for ln in lines] == ["ingest 1/3", "ingest 2/3", "ingest 3/3"]
    assert "done: kept 2 of 2" in lines[0] and "2 kept in all" in lines[0]
    out = capsys.readouterr().out
    stored = int(out.split("; stored: ")[1].split(";")[0])
    assert stored >= 4 and f"; {stored} kept in all" in lines[2]
    assert "accept ratio" in out

    tty.seek(0)
    tty.truncate()
    assert credo("ingest", str(_chat(tmp_path)), "--episode-size", "2") == 0
    assert "skipped (done before: 2 kept)" in tty.getvalue()
    assert "skipped 3 episode(s) an earlier run had done" in capsys.readouterr().out


def test_ingest_json_and_pipes_print_no_progress(
    credo: Callable[..., int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    tty = FakeTTY()
    monkeypatch.setattr("sys.stderr", tty)
    assert credo("ingest", str(_chat(tmp_path)), "--json") == 0
    assert tty.getvalue() == ""
    json.loads(capsys.readouterr().out)
    monkeypatch.setattr("sys.stderr", io.StringIO())  # a pipe
    assert credo("ingest", str(_chat(tmp_path)), "--force") == 0
    captured = capsys.readouterr()
    assert "ingest 1/" not in captured.err and "ingest 1/" not in captured.out


def test_import_reindex_and_eval_progress_on_a_terminal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "p.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    assert cli.main(["remember", "I live in Oulu."]) == 0
    capsys.readouterr()
    export = tmp_path / "facts.jsonl"
    assert cli.main(["export"]) == 0
    export.write_text(capsys.readouterr().out, encoding="utf-8")
    conv = tmp_path / "locomo.json"
    conv.write_text(json.dumps([{
        "sample_id": "c1",
        "conversation": {"speaker_a": "Ada", "speaker_b": "Bo",
                         "session_1_date_time": "10:37 am on 23 March, 2021",
                         "session_1": [{"speaker": "Ada", "dia_id": "D1:1",
                                        "text": "I work as a baker in Leeds."}]},
        "qa": [{"question": "job?", "evidence": ["D1:1"], "category": 4}],
    }]), encoding="utf-8")  # fmt: skip
    commands = [
        ["import", "--into", "copy", str(export)],
        ["reindex"],
        ["eval", "locomo", "--data", str(conv), "--embedder", "hash", "--k", "1"],
    ]
    tty = FakeTTY()
    monkeypatch.setattr("sys.stderr", tty)
    for argv in commands:
        assert cli.main(argv) == 0
    lines = tty.getvalue().splitlines()
    assert any(re.match(r"import: \d+ record\(s\) read from", ln) for ln in lines)
    assert any(ln.startswith("import 1/1 | 1 fact(s) written") for ln in lines)
    assert any(ln.startswith("reindex: re-embedding every fact with hash") for ln in lines)
    assert any(ln.startswith("reindex 1/1 | ") for ln in lines)
    assert any(ln.startswith("eval locomo: c1:") for ln in lines)
    capsys.readouterr()

    pipe = io.StringIO()  # piped: the same commands print no progress at all
    monkeypatch.setattr("sys.stderr", pipe)
    for argv in [["import", "--into", "copy2", str(export)], *commands[1:]]:
        assert cli.main(argv) == 0
    assert pipe.getvalue() == ""
