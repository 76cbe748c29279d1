"""Ingestion: readers, the report, dates, dry runs, "don't remember", secrets, the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from credo import cli
from credo.cli_ingest import register
from credo.extract.base import Turn
from credo.extract.llm import LLMExtractor
from credo.ingest import (
    IngestError,
    detect_format,
    episodes,
    ingest,
    parse_timestamp,
    read_jsonl,
    read_locomo,
    read_openai,
    read_turns,
)
from credo.memory import Memory
from credo.testing import FakeChat, memory_for_tests

T0 = 1709283600.0  # 2024-03-01T09:00:00Z


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def user(n: int, text: str, ts: float | None = None) -> Turn:
    return Turn(f"u{n}", "user", text, ts if ts is not None else T0 + n * 60)


# -- readers ------------------------------------------------------------------------------
def test_timestamps() -> None:
    assert parse_timestamp("2024-03-01T09:00:00Z") == 1709283600.0
    assert parse_timestamp("2024-03-01T11:00:00+02:00") == 1709283600.0
    assert parse_timestamp("2024-03-01") == 1709251200.0  # no zone: UTC
    assert parse_timestamp(1709283600) == 1709283600.0
    assert parse_timestamp(1709283600000) == 1709283600.0  # milliseconds
    assert parse_timestamp("1709283600") == 1709283600.0
    assert parse_timestamp("10:37 am on 23 March, 2021") == 1616495820.0
    assert parse_timestamp(None) is None
    with pytest.raises(IngestError, match="timestamp"):
        parse_timestamp("last tuesday", where="x.jsonl:3")


def test_jsonl_reader(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "chat.jsonl",
        [
            {"role": "system", "content": "be nice"},
            {
                "role": "user",
                "content": "I live in Oulu.",
                "timestamp": "2024-03-01T09:00:00Z",
                "id": "m-1",
            },
            {"role": "assistant", "content": "Noted."},
            {"role": "human", "content": [{"type": "text", "text": "I use Helix."}]},
        ],
    )
    turns = read_jsonl(path)
    assert [(t.id, t.role) for t in turns] == [
        ("m-1", "user"),
        ("chat:3", "assistant"),
        ("chat:4", "user"),
    ]
    assert turns[0].timestamp == 1709283600.0 and turns[2].content == "I use Helix."
    assert detect_format(path) == "jsonl"


def test_jsonl_errors_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hi"}\n{not json}\n', encoding="utf-8")
    with pytest.raises(IngestError, match=r"bad.jsonl:2"):
        read_jsonl(bad)
    write_jsonl(bad, [{"role": "narrator", "content": "x"}])
    with pytest.raises(IngestError, match="role"):
        read_jsonl(bad)


def test_openai_reader(tmp_path: Path) -> None:
    msgs = [
        {"role": "system", "content": "x"},
        {"role": "user", "content": "I live in Oulu."},
        {"role": "assistant", "content": "ok"},
    ]
    arr = tmp_path / "arr.json"
    arr.write_text(json.dumps(msgs), encoding="utf-8")
    obj = tmp_path / "obj.json"
    obj.write_text(json.dumps({"messages": msgs}), encoding="utf-8")
    for path in (arr, obj):
        assert detect_format(path) == "openai"
        assert [t.role for t in read_openai(path)] == ["user", "assistant"]
        assert [t.role for t in read_turns(path)] == ["user", "assistant"]


def locomo_file(tmp_path: Path) -> Path:
    """A small conversation in LoCoMo's layout, written here (the real data is never
    copied into the repository)."""
    sample = {
        "sample_id": "conv-t1",
        "conversation": {
            "speaker_a": "Ada",
            "speaker_b": "Bo",
            "session_1_date_time": "10:37 am on 23 March, 2021",
            "session_1": [
                {"speaker": "Ada", "dia_id": "D1:1", "text": "Hey Bo! How are you?"},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Great! I adopted a rescue greyhound yesterday.",
                },
                {"speaker": "Ada", "dia_id": "D1:3", "text": "I work as a baker in Leeds."},
            ],
            "session_2_date_time": "10:00 am on 20 June, 2023",
            "session_2": [
                {
                    "speaker": "Bo",
                    "dia_id": "D2:1",
                    "text": "I love long walks with my dog.",
                    "img_url": ["x"],
                    "blip_caption": "a photo of a dog",
                },
                {"speaker": "Ada", "dia_id": "D2:2", "text": "That's so sweet!"},
            ],
        },
        "qa": [
            {
                "question": "What does Ada do?",
                "answer": "baker",
                "evidence": ["D1:3"],
                "category": 4,
            },
            {
                "question": "What did Bo adopt?",
                "answer": "a greyhound",
                "evidence": ["D1:2; D2:1"],
                "category": 1,
            },
            {"question": "What is Ada's favourite colour?", "evidence": ["D2:2"], "category": 4},
            {"question": "trick", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5},
        ],
        "observation": {"session_1_observation": {"Bo": [["Bo adopted a dog.", "D1:2"]]}},
    }
    path = tmp_path / "locomo_small.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return path


def test_locomo_reader(tmp_path: Path) -> None:
    path = locomo_file(tmp_path)
    assert detect_format(path) == "locomo"
    turns = read_locomo(path)
    assert [t.id for t in turns] == [
        "conv-t1:D1:1",
        "conv-t1:D1:2",
        "conv-t1:D1:3",
        "conv-t1:D2:1",
        "conv-t1:D2:2",
    ]
    assert {t.role for t in turns} == {"user"}
    assert turns[1].speaker == "Bo" and turns[1].timestamp == parse_timestamp(
        "10:37 am on 23 March, 2021"
    )
    assert turns[3].timestamp == parse_timestamp("10:00 am on 20 June, 2023")
    assert "[shares a photo: a photo of a dog]" in turns[3].content
    assert [len(e) for e in episodes(turns, 20)] == [3, 2]  # sessions are episodes
    with pytest.raises(IngestError, match="no sample"):
        read_locomo(path, sample="conv-nope")


def test_locomo_ingest_each_speaker_is_a_subject(tmp_path: Path) -> None:
    mem = memory_for_tests(tmp_path / "l.db")
    report = ingest(mem, read_turns(locomo_file(tmp_path), fmt="locomo"))
    facts = {f.text: f for f in mem.list()}
    # the words as said: "yesterday" stays, and the fact carries the turn's time
    greyhound = facts["Bo adopted a rescue greyhound yesterday."]
    assert greyhound.subject == "bo"
    assert greyhound.valid_from == parse_timestamp("10:37 am on 23 March, 2021")
    assert "Ada works as a baker in Leeds." in facts
    baker = facts["Ada works as a baker in Leeds."]
    assert baker.subject == "ada" and baker.derived_from == ["conv-t1:D1:3", "conv-t1:session_1"]
    assert baker.valid_from == parse_timestamp("10:37 am on 23 March, 2021")
    assert report.turns == 5 and report.episodes == 2


# -- the report ---------------------------------------------------------------------------
def test_report_counts(tmp_path: Path) -> None:
    mem = memory_for_tests(tmp_path / "r.db")
    turns = [
        user(1, "Hi there! How are you?"),
        Turn("a1", "assistant", "Fine, thanks. What's up?", T0 + 61),
        user(2, "I live in Oulu. I'm so tired today."),
        user(3, "I might move to Turku eventually."),
        user(4, "I live in Oulu."),
    ]
    report = ingest(mem, turns)
    data = report.to_dict()
    assert data["turns"] == 5 and data["user_turns"] == 4
    assert data["accepted"] == 2 and data["rejected"] >= 2
    assert data["relations"]["new"] == 1 and data["relations"]["duplicate"] == 1
    assert data["rejected_by_code"]["affect"] >= 1 and data["rejected_by_code"]["hedged"] == 1
    assert data["turns_with_fact"] == 2 and data["accepted_per_turn"] == 0.4
    assert data["accepted_per_user_turn"] == 0.5
    assert data["unresolved_conflicts"] == 0
    assert {r["code"] for r in data["rejected_candidates"]} >= {"affect", "hedged"}
    assert [f["text"] for f in data["accepted_facts"]] == ["The user lives in Oulu."] * 2
    json.dumps(data)  # serialisable as is


def test_conflicts_are_reported(memory: Memory) -> None:
    turns = [user(1, "My deploy target is staging."), user(2, "My deploy target is prod.")]
    report = ingest(memory, turns)
    assert report.relations["conflict"] == 1 and report.unresolved_conflicts == 1


def test_valid_from_is_the_turn_time_not_now(memory: Memory) -> None:
    then = 1622548800.0  # 2021-06-01T12:00:00Z
    ingest(memory, [Turn("old-1", "user", "I work at Reaktor.", then)])
    (fact,) = memory.list()
    assert fact.valid_from == then and fact.created_at > then


def test_dry_run_stores_nothing(memory: Memory) -> None:
    turns = [
        user(1, "I live in Oulu."),
        user(2, "I'm so stressed."),
        user(3, "please don't store my address"),
    ]
    report = ingest(memory, turns, dry_run=True)
    assert report.dry_run and report.accepted == 1 and report.rejected == 1
    assert report.accepted_facts[0]["text"] == "The user lives in Oulu."
    assert report.accepted_facts[0]["relation"] is None
    assert memory.list() == [] and memory.rejections() == [] and memory.rules() == []


# -- "don't remember" ---------------------------------------------------------------------
def test_dont_remember_that_refuses_the_previous_turn(memory: Memory) -> None:
    turns = [user(1, "I live at 12 Harbour Street."), user(2, "Actually, don't remember that.")]
    report = ingest(memory, turns)
    assert report.accepted == 0 and report.rejected_by_code["suppressed"] == 1
    assert memory.list() == []
    (applied,) = report.suppressions
    assert applied.request.kind == "previous" and applied.rules
    # the request itself is no fact either
    assert not any("remember" in f["text"].lower() for f in report.accepted_facts)


def test_dont_remember_that_forgets_what_an_earlier_episode_stored(memory: Memory) -> None:
    turns = [user(1, "I live in Tampere."), user(2, "don't remember that")]
    report = ingest(memory, turns, episode_size=1)
    assert report.relations["new"] == 1  # stored in the first episode ...
    assert memory.list() == []  # ... and forgotten by the second
    assert report.suppressions[0].forgotten


def test_rules_hold_across_two_ingests(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    first = memory_for_tests(db)
    ingest(first, [user(1, "Please don't store my phone number.")])
    assert [r.pattern for r in first.rules()] == ["phone", "mobile", "cell"]
    first.store.close()

    second = memory_for_tests(db)  # a new process, later
    report = ingest(
        second, [user(2, "My phone number is 040 123 4567."), user(3, "I live in Oulu.")]
    )
    assert report.rejected_by_code["suppressed"] == 1
    assert [f.text for f in second.list()] == ["The user lives in Oulu."]
    rej = [r for r in second.rejections() if r.code == "suppressed"]
    assert rej and "phone" in rej[0].reason


def test_forget_that_forgets_stored_facts(memory: Memory) -> None:
    ingest(memory, [user(1, "I live in Berlin."), user(2, "I work at Reaktor.")])
    assert len(memory.list()) == 2
    report = ingest(memory, [user(3, "Please forget that I live in Berlin.")])
    assert [f.text for f in memory.list()] == ["The user works at Reaktor."]
    (applied,) = report.suppressions
    assert applied.request.kind == "statement" and len(applied.forgotten) == 1
    again = ingest(memory, [user(4, "I live in Berlin.")])
    assert again.rejected_by_code["suppressed"] == 1


def test_rules_are_per_subject(memory: Memory) -> None:
    turns = [
        Turn("1", "user", "Please don't store my address.", T0, "Ada"),
        Turn("2", "user", "My address is 1 Elm Row.", T0 + 1, "Bo"),
        Turn("3", "user", "My address is 2 Oak Lane.", T0 + 2, "Ada"),
    ]
    ingest(memory, turns)
    assert [f.text for f in memory.list()] == ["Bo's address is 1 Elm Row."]


# -- secrets ------------------------------------------------------------------------------
def test_secrets_are_refused_and_masked_in_the_stored_rejection(memory: Memory) -> None:
    key = "sk-proj-" + "Zq8Yx7Wv6Ut5Sr4Qp3On2Ml1Kj0Ih9Gf"
    turns = [
        user(1, f"My OpenAI key is {key}"),
        user(2, "My staging DB URL is postgres://app:S3cr3tPw0rd@db.internal:5432/app"),
    ]
    report = ingest(memory, turns)
    assert report.accepted == 0 and report.rejected_by_code["secret"] == 2
    assert memory.list() == []
    stored = " ".join(r.text for r in memory.rejections())
    assert key not in stored and "S3cr3tPw0rd" not in stored and "[secret:" in stored
    assert all(key not in r["text"] for r in report.rejected_candidates)


def test_secrets_are_refused_on_the_llm_path_too(memory: Memory) -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    reply = json.dumps(
        {
            "facts": [
                {
                    "text": "The user's GitHub token is [secret-1:github_token]",
                    "subject": "the user",
                    "turns": [0],
                }
            ]
        }
    )
    chat = FakeChat([reply])
    report = ingest(memory, [user(1, f"my github token is {key}")], extractor=LLMExtractor(chat))
    assert key not in json.dumps(chat.calls)
    assert report.rejected_by_code["secret"] == 1 and memory.list() == []
    assert all(key not in r.text for r in memory.rejections())


# -- the LLM path through ingest -----------------------------------------------------------
def test_llm_extraction_runs_per_episode(memory: Memory) -> None:
    reply = json.dumps(
        {
            "facts": [
                {
                    "text": "The user lives in Oulu.",
                    "subject": "the user",
                    "predicate": "lives_in",
                    "object": "Oulu",
                    "turns": [1],
                }
            ]
        }
    )
    chat = FakeChat([reply])
    turns = [user(n, f"message {n}") for n in range(1, 8)]
    report = ingest(memory, turns, extractor=LLMExtractor(chat), episode_size=3)
    assert len(chat.calls) == 3 == report.episodes  # 3 + 3 + 1 turns
    # episodes 1 and 2 both name their turn [1]: one fact, stored then reinforced; the
    # one-turn third episode has no turn [1], so its item is dropped with a note
    (fact,) = memory.list()
    assert report.relations == {"new": 1, "duplicate": 1}
    assert fact.subject == "user" and set(fact.derived_from) == {"u2", "u5"}
    assert fact.valid_from == T0 + 2 * 60
    assert len(report.notes) == 1 and "turn index 1" in report.notes[0]


def test_a_malformed_llm_reply_is_a_note_not_a_crash(memory: Memory) -> None:
    report = ingest(
        memory, [user(1, "I live in Oulu.")], extractor=LLMExtractor(FakeChat(["{oops"]))
    )
    assert report.accepted == 0 and report.notes and not report.errors


# -- the CLI ------------------------------------------------------------------------------
@pytest.fixture
def credo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[..., int]]:
    """`credo ...` with this module's commands wired in, on a SQLite file in tmp_path."""
    monkeypatch.setattr(cli, "_command_groups", lambda: [register])
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    for var in ("CREDO_LLM", "CREDO_LLM_URL", "CREDO_LLM_KEY", "EDITOR", "VISUAL"):
        monkeypatch.delenv(var, raising=False)

    def run(*argv: str) -> int:
        return cli.main(list(argv))

    yield run


def test_cli_ingest(
    credo: Callable[..., int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            {"role": "user", "content": "I live in Oulu.", "timestamp": "2024-03-01T09:00:00Z"},
            {"role": "assistant", "content": "Nice."},
            {"role": "user", "content": "I'm so frustrated with CI."},
        ],
    )
    assert credo("ingest", str(path), "--dry-run") == 0
    out = capsys.readouterr().out
    assert "DRY RUN" in out and "The user lives in Oulu." in out
    assert credo("list", "--json") == 0
    assert json.loads(capsys.readouterr().out) == []

    assert credo("ingest", str(path), "--show-rejected") == 0
    out = capsys.readouterr().out
    assert "new        The user lives in Oulu." in out
    assert "affect" in out and "frustrated" in out
    assert "turns that produced a fact: 1 of 3 (33.3%" in out

    assert credo("ingest", str(path), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["episodes_skipped"] == 1 and data["candidates"] == 0  # done before
    assert "rejected_candidates" not in data

    assert credo("ingest", str(path), "--json", "--force") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["relations"]["duplicate"] == 1 and "rejected_candidates" not in data
    assert data["extractor"] == "rules"


def test_cli_ingest_bad_file(
    credo: Callable[..., int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n", encoding="utf-8")
    assert credo("ingest", str(bad)) == 1
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_cli_ingest_llm_without_key_names_the_setting(
    credo: Callable[..., int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_jsonl(tmp_path / "c.jsonl", [{"role": "user", "content": "I live in Oulu."}])
    assert credo("ingest", str(path), "--llm", "openai:gpt-4o-mini") == 1
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_cli_rules(credo: Callable[..., int], capsys: pytest.CaptureFixture[str]) -> None:
    assert credo("rules") == 0
    assert "(no suppression rules)" in capsys.readouterr().out
    assert credo("rules", "add", "home address", "--subject", "Ada") == 0
    capsys.readouterr()
    assert credo("rules", "list", "--json") == 0
    (rule,) = json.loads(capsys.readouterr().out)
    assert rule["pattern"] == "home address" and rule["subject"] == "ada"
    assert credo("rules", "remove", rule["id"]) == 0
    assert credo("rules", "remove", rule["id"]) == 1


def test_cli_gate(
    credo: Callable[..., int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert credo("gate", "path") == 0
    path = Path(capsys.readouterr().out.strip())
    assert path == tmp_path / "cli.db.gate.toml"
    assert credo("gate", "show") == 0
    assert "deny_list" in capsys.readouterr().out
    assert credo("gate", "edit") == 0  # no editor, no tty: writes defaults, prints the path
    assert path.exists() and str(path) in capsys.readouterr().out
    assert credo("gate", "show", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] and "frustrated" in data["affect"]
    path.write_text('affect = [\n  "grumpy",\n]\nhedges = 3\n', encoding="utf-8")
    assert credo("gate", "show") == 1
    assert f"{path}:4" in capsys.readouterr().err


def test_forget_by_episode_takes_a_whole_ingested_session(tmp_path: Path) -> None:
    from credo.extract.base import Turn
    from credo.ingest import ingest
    from credo.testing import memory_for_tests

    mem = memory_for_tests(tmp_path / "ep.db")
    turns = [
        Turn("t1", "user", "I live in Berlin.", 1_700_000_000.0, "Arttu", "session-1"),
        Turn("t2", "user", "My editor is Helix.", 1_700_000_060.0, "Arttu", "session-1"),
        Turn("t3", "user", "I work at Reaktor.", 1_700_100_000.0, "Arttu", "session-2"),
    ]
    report = ingest(mem, turns)
    assert report.accepted == 3
    gone = mem.forget(episode="session-1")
    assert gone.facts == 2
    (left,) = mem.list()
    assert "Reaktor" in left.text and "session-2" in left.derived_from and "t3" in left.derived_from
