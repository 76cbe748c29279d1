"""Hostile input at every edge: no traceback, no hang, a clear error (issue 24).

- every option and positional of every `credo` command (found by walking the parser, so a
  new option is fuzzed the day it is added) with hostile values: huge and negative
  numbers, NaN, bytes that are not UTF-8, control characters, very long text; the
  command ends within seconds with status 0, 1 or 2 and an error that says what is
  wrong, never a traceback;
- the issue's own cases: invalid UTF-8 on the command line, `-k 10^30`, `--offset
  10^20`, ingest of turns holding NUL;
- `credo mcp` over stdio and HTTP answers every request, even one it cannot parse (a
  lone surrogate escape, JSON nested 300 deep), and then serves the next.

The property test over every MCP tool's arguments is `tests/test_fuzz.py::test_mcp_tools`.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import credo
from credo.cli import build_parser, main
from credo.errors import InvalidInput
from credo.extract.base import Turn
from credo.ingest import IngestError, ingest
from credo.memory import Memory
from credo.store.base import Store

SRC = str(Path(credo.__file__).resolve().parents[1])
EXAMPLES = int(os.environ.get("CREDO_FUZZ_EXAMPLES", "40"))
#: seconds one command may take before it counts as a hang
HANG = 60

#: values for any option: numbers no column holds, NaN, not UTF-8 (as Python reads such
#: argv bytes), control characters, long, empty, option-like, odd Unicode
HOSTILE = [
    "1" + "0" * 30,
    "-1" + "0" * 20,
    str(2**63),
    "-1",
    "0",
    "nan",
    "inf",
    "1e309",
    "",
    " ",
    "\udcff\udcfe",
    "a\x01b\x1b[31m",
    "x" * 20_000,
    "--",
    "-x",
    "\u202e\u200b\ufeff",
    "2024-13-45",
    "../../../../etc/passwd",
    "/dev/null",
]

#: what each command needs to get as far as its options matter (positionals and required
#: options not being fuzzed); files that do not exist keep eval from running a benchmark
BASE: dict[tuple[str, ...], list[str]] = {
    ("remember",): ["Arttu likes tea"],
    ("recall",): ["tea"],
    ("forget",): ["--subject", "Nobody"],
    ("import",): ["{missing}"],
    ("resolve",): ["--keep", "f_0000000000000000"],
    ("alias", "add"): ["zy", "zyxwvut"],
    ("alias", "remove"): ["zy"],
    ("why",): ["f_0000000000000000"],
    ("history",): ["Arttu"],
    ("retract",): ["f_0000000000000000"],
    ("ingest",): ["{missing}"],
    ("rules", "add"): ["home", "address"],
    ("rules", "remove"): ["r_000000000000"],
    ("eval", "probes"): ["{missing}"],
    ("eval", "locomo"): ["--data", "{missing}"],
    ("eval", "beam"): ["--data", "{missing}"],
    ("eval", "natural"): ["{missing}"],
    ("eval", "gate"): ["--data", "{missing}"],
    ("eval", "resolver"): ["--data", "{missing}"],
    ("eval", "updates"): ["--data", "{missing}"],
    ("eval", "personaext"): ["--data", "{missing}"],
    ("mcp",): [],
}


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[Any]:
    """(command path, action) for every argument of every command, at every level."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))
        elif path and not isinstance(action, argparse._HelpAction | argparse._VersionAction):
            yield path, action


#: options every command takes (fuzzed on a few commands, not on each of them)
GLOBALS = {"--db", "--scope", "--embedder", "--create"}
GLOBAL_ON = {("stats",), ("recall",), ("remember",), ("mcp",), ("ui",)}

ARGUMENTS = sorted(
    {
        (path, action.option_strings[-1] if action.option_strings else action.dest): action
        for path, action in commands(build_parser())
        if path in GLOBAL_ON or not GLOBALS & set(action.option_strings)
    }.items(),
    key=lambda item: item[0],
)


def invocation(path: tuple[str, ...], name: str, value: str, tmp: Path) -> list[str]:
    """The command line that sets argument `name` of command `path` to `value`."""
    base = [a.replace("{missing}", str(tmp / "missing.jsonl")) for a in BASE.get(path, [])]
    action = dict(ARGUMENTS)[(path, name)]
    if not action.option_strings:  # a positional: in place of the base's first one
        positionals = [a for a in base if not a.startswith("-")]
        rest = [a for a in base if a not in positionals[:1]] if positionals else base
        return [*path, *rest, "--", value] if value.startswith("-") else [*path, value, *rest]
    if action.nargs == 0:  # a flag: the hostile value goes to the command's positional
        return [*path, *base, name]
    return [*path, *base, f"{name}={value}"]


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang


@pytest.fixture
def run_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Any:
    """Runs `credo` in process on a fresh database (hash embedder, empty stdin, in a
    temporary directory, servers replaced by no-ops): (status, stdout, stderr)."""
    import uvicorn

    from credo import mcp_stdio

    monkeypatch.chdir(tmp_path)
    for key in [k for k in os.environ if k.startswith("CREDO_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.setenv("EDITOR", "true")  # `credo gate edit` opens an editor
    monkeypatch.setenv("VISUAL", "true")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    monkeypatch.setattr(mcp_stdio, "run", lambda server: None)
    db = tmp_path / "fuzz.db"

    def run(argv: list[str], stdin: Any = None) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", stdin or io.StringIO(""))
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG)
        try:
            status = main(["--db", str(db), *argv])
        except SystemExit as exc:  # argparse: usage errors (2) and --help (0)
            status = exc.code if isinstance(exc.code, int) else 2
        except Hang:
            raise AssertionError(f"credo {argv!r:.300} ran past {HANG} s") from None
        except BaseException as exc:
            raise AssertionError(f"credo {argv!r:.300} raised {exc!r:.300}") from exc
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def judge(argv: list[str], status: int, err: str) -> None:
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err, (argv, err)
    if status:
        assert err.strip(), f"credo {argv!r:.200} failed ({status}) without saying why"
        assert len(err) < 5000 or "usage:" in err, err[:500]


@pytest.mark.slow
@pytest.mark.parametrize("value", HOSTILE[:12], ids=range(12))
def test_every_option_of_every_command_takes_hostile_values(run_cli: Any, value: str) -> None:
    """Each argument of each command, one hostile value at a time (the rest of HOSTILE
    goes to the property test below)."""
    assert len(ARGUMENTS) > 80  # the walk found the commands' arguments
    tmp = Path.cwd()
    for (path, name), _ in ARGUMENTS:
        argv = invocation(path, name, value, tmp)
        status, _, err = run_cli(argv)
        judge(argv, status, err)


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES * 3,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_options_property(run_cli: Any, data: st.DataObject) -> None:
    """Any argument of any command with anything: hostile values, random text (of any
    characters Python can hold in argv), numbers of any size."""
    (path, name), _ = data.draw(st.sampled_from(ARGUMENTS))
    value = data.draw(
        st.one_of(
            st.sampled_from(HOSTILE),
            st.text(max_size=40),
            st.integers().map(str),
            st.floats().map(repr),
        ).filter(lambda v: "\x00" not in v)  # no command line can hold NUL
    )
    argv = invocation(path, name, value, Path.cwd())
    status, _, err = run_cli(argv)
    judge(argv, status, err)


# -- the issue's cases ----------------------------------------------------------------------------
def test_the_issue_cases_on_the_command_line(run_cli: Any) -> None:
    status, _, err = run_cli(["remember", "Arttu \udcff likes tea"])
    assert status == 2 and "argument 4" in err and "not valid UTF-8" in err
    status, _, err = run_cli(["recall", "tea", "-k", "1" + "0" * 30])
    assert status == 2 and "too large" in err
    status, _, err = run_cli(["recall", "tea", "-k", str(2**62)])
    assert status == 1 and "k must be a whole number from 1 to 1,000,000" in err
    status, _, err = run_cli(["list", "--offset", "1" + "0" * 20])
    assert status == 2 and "too large" in err
    assert run_cli(["remember", "Arttu lives in Berlin"])[0] == 0
    status, out, _ = run_cli(["list", "--offset", str(2**62)])
    assert status == 0 and "(no facts)" in out
    status, out, _ = run_cli(["list", "--limit", str(2**62)])
    assert status == 0 and "Berlin" in out


def test_a_huge_unknown_source_is_not_echoed_whole(run_cli: Any) -> None:
    """Found by the property test: `remember --source=<20,000 characters>` printed the
    whole value back in the line's refusal."""
    argv = ["remember", "Arttu likes tea", "--source=" + "x" * 20_000]
    status, _, err = run_cli(argv)
    judge(argv, status, err)
    assert status == 1 and "unknown source" in err and len(err) < 500


def test_dashes_as_a_value_are_a_usage_error(run_cli: Any) -> None:
    """argparse reads a value "--" as an empty list; found by the property test."""
    for argv in (
        ["remember", "Arttu likes tea", "--derived-from=--"],
        ["alias", "add", "zyxwvut", "--", "--"],
    ):
        status, _, err = run_cli(argv)
        assert status == 2 and "'--' cannot be a value" in err, (argv, err)
    status, _, err = run_cli(["--db", "x" * 20_000, "list"])  # a path too long to open
    judge(["--db", "..."], status, err)
    assert status != 0 and len(err) < 2000


def test_standard_input_that_is_not_utf8_is_a_clear_error(run_cli: Any) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"Arttu \xff likes tea\n"), encoding="utf-8")
    status, _, err = run_cli(["remember", "-"], stdin)
    assert status == 1 and "UTF-8" in err.replace("utf-8", "UTF-8"), err
    stdin = io.TextIOWrapper(io.BytesIO(b"Arttu \xff likes tea\n"), "utf-8", "surrogateescape")
    status, _, err = run_cli(["remember", "-"], stdin)
    assert status == 1 and "not UTF-8" in err, err


def test_large_numbers_through_the_python_api(sqlite_store: Store) -> None:
    mem = Memory(sqlite_store)
    mem.remember("Arttu lives in Berlin")
    assert mem.list(offset=10**20) == [] and len(mem.list(limit=10**30)) == 1
    with pytest.raises(InvalidInput, match="k must be"):
        mem.recall("Berlin", k=10**30)
    with pytest.raises(InvalidInput, match="not UTF-8"):
        mem.remember("Arttu likes \udcff tea")


@pytest.mark.parametrize(
    "content, shown",
    [
        ("I live in Oslo\x00 and I like tea", "'\\x00' at character 15"),
        ("I live in \ud800 Oslo", "'\\ud800' at character 11"),
        ("\x1b[31mI like tea", "'\\x1b' at character 1"),
    ],
)
def test_ingest_refuses_a_turn_that_is_not_text_and_names_it(
    store: Store, content: str, shown: str
) -> None:
    mem = Memory(store)
    turns = [
        Turn("t:1", "user", "I live in Berlin", 1_700_000_000.0),
        Turn("t:2", "user", content, 1_700_000_000.0),
    ]
    with pytest.raises(IngestError, match=r"turn 2 \('t:2'\): its content holds ") as caught:
        ingest(mem, turns)
    assert shown in str(caught.value) and "nothing was ingested" in str(caught.value)
    assert mem.list() == [] and mem.rejections() == []


def test_credo_ingest_names_the_turn_with_nul(run_cli: Any) -> None:
    path = Path.cwd() / "turns.jsonl"
    path.write_text(
        json.dumps({"role": "user", "content": "I live in Oslo", "id": "t1"})
        + "\n"
        + json.dumps({"role": "user", "content": "I like\u0000 tea", "id": "t2"})
        + "\n"
    )
    status, _, err = run_cli(["ingest", str(path)])
    assert status == 1 and "'t2'" in err and "\\x00" in err, err
    assert "(no facts)" in run_cli(["list"])[1]


# -- MCP: every request gets a reply ----------------------------------------------------------------
UNREADABLE = {
    "lone surrogate": '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
    '"remember","arguments":{"text":"Arttu likes \\ud800 tea"}}}',
    "surrogate in a query": '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
    '"recall","arguments":{"query":"\\udfff"}}}',
    "nested 300 deep": '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
    '"recall","arguments":{"query":' + "[" * 300 + "]" * 300 + "}}}",
    "nested, id last": '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"recall",'
    '"arguments":{"query":' + '{"a":' * 300 + "1" + "}" * 300 + '}},"id":%d}',
    "huge offset": '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
    '"list_facts","arguments":{"offset":100000000000000000000}}}',
    "huge k": '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":'
    '"recall","arguments":{"query":"tea","k":1000000000000000000000000000000}}}',
}
INIT = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "1"},
        },
    }
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC)
    return env


def test_mcp_over_stdio_answers_what_it_cannot_read(tmp_path: Path) -> None:
    pytest.importorskip("mcp.server.mcpserver")
    process = subprocess.Popen(
        [sys.executable, "-m", "credo.cli", "--db", str(tmp_path / "m.db"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "err.log").open("wb"),
        env=_env(),
    )
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line.encode() + b"\n")
        process.stdin.flush()

    def reply(timeout: float = 30.0) -> dict[str, Any]:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        assert ready, "no reply: the client would wait for ever"
        return dict(json.loads(process.stdout.readline()))

    try:
        send(INIT)
        assert reply(60)["id"] == 0
        send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for n, (what, template) in enumerate(UNREADABLE.items(), 1):
            started = time.monotonic()
            send(template % n)
            got = reply()
            assert got["id"] == n, (what, got)
            assert time.monotonic() - started < 10
            message = json.dumps(got)
            assert "Traceback" not in message
            if "error" in got:
                why = got["error"]["message"]
                assert ("too deeply" if "nested" in what else "surrogate") in why, got
            else:
                assert got["result"]["isError"] is (what == "huge k"), (what, got)
        send(
            '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"recall",'
            '"arguments":{"query":"tea"}}}'
        )
        assert reply()["result"]["isError"] is False  # the server lives on
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in (tmp_path / "err.log").read_text(errors="replace")


def test_mcp_stdio_error_replies_say_what_was_wrong() -> None:
    from credo.mcp_stdio import request_id, unreadable

    assert request_id(UNREADABLE["nested, id last"] % 7) == 7
    assert request_id('{"params":{"id":3},"id":"abc"}') == "abc"
    assert request_id('{"method":"x","params":{"id":3}}') is None
    assert request_id('{"id":"a\\"b"}') is None  # an escaped id: not guessed
    assert "too deeply" in unreadable("", "recursion limit exceeded")
    assert "surrogate" in unreadable("", "lone leading surrogate in hex escape")
