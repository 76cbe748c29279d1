"""A turn or statement that holds a "don't remember" request and other sentences keeps
the others (issue 25, part 4), on both write paths, through the real English parser; and
an ingested turn without a timestamp is dated by the turn before it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from credo.extract.base import Turn
from credo.ingest import ingest
from credo.memory import Memory
from credo.suppress_request import split_requests
from credo.testing import memory_for_tests

T0 = 1709283600.0  # 2024-03-01T09:00:00Z
DAY = 86400.0


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    return memory_for_tests(tmp_path / "m.db")


def _keys(mem: Memory) -> list[tuple[str | None, str | None]]:
    return sorted((f.subject, f.predicate) for f in mem.list())


def test_split_requests_reads_sentences() -> None:
    parts = split_requests("I moved to Porto. Don't store my salary.")
    assert parts is not None
    assert [(s, r.kind) for s, r, _ in parts.requests] == [("Don't store my salary.", "topic")]
    assert parts.kept == ("I moved to Porto.",) and parts.named == ()
    parts = split_requests("I'm 52. Don't remember that. I work at Acme.")
    assert parts is not None
    assert parts.named == ("I'm 52.",) and parts.kept == ("I work at Acme.",)
    # one sentence, or a request that runs on in its sentence: the whole text is the request
    assert split_requests("Don't save my phone number, it's on my card") is None
    assert split_requests("I live in Oslo. I work at Acme.") is None


# -- remember ------------------------------------------------------------------------------
def test_remember_keeps_a_statement_said_with_a_topic_request(mem: Memory) -> None:
    mem.remember("I earn 90k a year")
    result = mem.remember("I moved to Porto. Don't store my salary.")
    assert result.code == "request"
    assert "salary" in {r["pattern"] for r in result.request["rules"]}  # type: ignore[index]
    stored = [each for each in result.also if each.accepted]
    assert len(stored) == 1 and stored[0].fact is not None
    assert stored[0].fact.predicate == "live_in" and stored[0].fact.object == "Porto"
    assert _keys(mem) == [("user", "live_in")]  # the salary was forgotten, as asked
    assert mem.remember("My salary is 95k").code == "suppressed"


def test_remember_refuses_what_that_names_in_the_same_text(mem: Memory) -> None:
    mem.remember("I live in Oslo")
    result = mem.remember("I'm 52. Don't remember that. I work at Acme.")
    assert result.code == "request"
    codes = [each.code for each in result.also]
    assert codes.count("suppressed") == 1  # "I'm 52", named by "that", listed as refused
    assert [e.fact.predicate for e in result.also if e.accepted and e.fact] == ["work_at"]
    # "that" named the sentence before it, not the fact stored before: Oslo stays
    assert _keys(mem) == [("user", "live_in"), ("user", "work_at")]
    assert mem.remember("I am 52").code == "suppressed"


def test_remember_dont_remember_that_then_a_statement(mem: Memory) -> None:
    mem.remember("I live at 12 Harbour Street")
    result = mem.remember("Don't remember that. I drive a Volvo now.")
    assert result.code == "request" and result.request is not None
    assert result.request["forgotten"]  # the address, said just before
    assert _keys(mem) == [("user", "drive")]


def test_a_request_alone_is_unchanged(mem: Memory) -> None:
    mem.remember("I live in Tampere")
    result = mem.remember("please don't store my address")
    assert result.code == "request" and result.also == ()


# -- ingest --------------------------------------------------------------------------------
def test_ingest_keeps_the_statements_of_a_turn_with_a_request(tmp_path: Path) -> None:
    by_ingest = memory_for_tests(tmp_path / "i.db")
    report = ingest(
        by_ingest,
        [
            Turn("u1", "user", "I earn 90k a year.", T0),
            Turn("u2", "user", "I moved to Porto. Don't store my salary.", T0 + 60),
        ],
    )
    assert [s.request.kind for s in report.suppressions] == ["topic"]
    assert _keys(by_ingest) == [("user", "live_in")]  # Porto kept, the salary forgotten
    by_remember = memory_for_tests(tmp_path / "r.db")
    by_remember.remember("I moved to Porto. Don't store my salary.")
    assert _keys(by_remember) == _keys(by_ingest)  # one key on both paths


def test_ingest_lists_what_that_names_in_the_same_turn_as_refused(mem: Memory) -> None:
    report = ingest(
        mem,
        [
            Turn("u1", "user", "I live in Oslo.", T0),
            Turn("u2", "user", "I'm 52. Don't remember that. I work at Acme.", T0 + 60),
        ],
    )
    assert _keys(mem) == [("user", "live_in"), ("user", "work_at")]
    refused = [r for r in report.rejected_candidates if r["code"] == "suppressed"]
    assert len(refused) == 1 and refused[0]["turns"] == ["u2"]
    assert "52" not in json.dumps(report.rejected_candidates)  # listed, never shown
    (applied,) = report.suppressions
    assert applied.suppressed_turns == []  # the turn before (Oslo) was not what it named


def test_an_undated_turn_takes_the_time_of_the_turn_before(mem: Memory) -> None:
    ingest(
        mem,
        [
            Turn("u1", "user", "I live in Oslo.", T0, episode="s1"),
            Turn("a1", "assistant", "Nice city.", None, episode="s1"),
            Turn("u2", "user", "I work at Acme.", None, episode="s1"),
            Turn("u3", "user", "I drive a Volvo.", None, episode="s2"),  # another session
        ],
    )
    when = {f.predicate: f.valid_from for f in mem.list()}
    assert when["work_at"] == T0
    assert when["drive"] != T0  # nothing said before it in its session: now


# -- the command line ----------------------------------------------------------------------
def test_remember_from_stdin_with_a_request_and_statements(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "CREDO_DB": str(tmp_path / "c.db"),
        "CREDO_EMBEDDER": "hash",
    }
    out = subprocess.run(
        [sys.executable, "-m", "credo.cli", "remember", "-"],
        input="I moved to Porto. Don't store my salary.\nSam drives a Volvo\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "line 1: honoured: will not remember 'my salary'" in out.stdout
    assert "line 1: new:" in out.stdout and "moved to Porto" in out.stdout
    assert "line 2: new:" in out.stdout and "Sam drives a Volvo" in out.stdout
    assert "2 statement(s) read: 2 stored, 0 not stored" in out.stderr
