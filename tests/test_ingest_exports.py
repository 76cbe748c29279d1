"""Chat exports and notes in: ChatGPT's and Claude's conversations.json (and their .zip) as
downloaded, and a notes folder, through `credo ingest`. The exports here are small,
invented conversations written by hand in the shapes the real exports have."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from credo import cli
from credo.cli_ingest import register
from credo.exports import detect_export, read_chatgpt, read_claude, read_notes
from credo.extract.base import Extraction, Turn
from credo.extract.rules import RuleExtractor
from credo.ingest import IngestError, detect_format, ingest, read_turns
from credo.memory import Memory
from credo.testing import memory_for_tests

T0 = 1_709_283_600.0  # 2024-03-01 09:00 UTC


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# -- a ChatGPT export, as downloaded ------------------------------------------------------
def chatgpt_node(
    node_id: str,
    parent: str | None,
    children: list[str],
    role: str | None,
    parts: list[Any] | None = None,
    at: float | None = None,
    content_type: str = "text",
    **extra: Any,
) -> dict[str, Any]:
    message = None
    if role is not None:
        message = {
            "id": node_id,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": at,
            "update_time": None,
            "content": {"content_type": content_type, "parts": parts or [""]},
            "status": "finished_successfully",
            "end_turn": role == "assistant" or None,
            "weight": 1.0,
            "metadata": extra.pop("metadata", {}),
            "recipient": extra.pop("recipient", "all"),
            "channel": None,
        }
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def chatgpt_conversation(
    conv_id: str, title: str, start: float, said: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """A conversation with no branches: the client root, a hidden system message, then
    `said` as (role, text) one a minute."""
    ids = ["root", "sys", *[f"{conv_id}-m{n}" for n in range(len(said))]]
    nodes = [
        chatgpt_node("root", None, ["sys"], None),
        chatgpt_node(
            "sys",
            "root",
            [ids[2]] if said else [],
            "system",
            [""],
            None,
            metadata={"is_visually_hidden_from_conversation": True},
        ),
    ]
    for n, (role, text) in enumerate(said):
        node_id = ids[n + 2]
        nodes.append(
            chatgpt_node(
                node_id, ids[n + 1], ids[n + 3 : n + 4], role, [text], start + 60 * (n + 1)
            )
        )
    mapping = {f"{conv_id}:{node['id']}": node for node in nodes}
    for node in nodes:  # node ids are unique across the export, as the real ones are
        node["id"] = f"{conv_id}:{node['id']}"
        node["parent"] = f"{conv_id}:{node['parent']}" if node["parent"] else None
        node["children"] = [f"{conv_id}:{c}" for c in node["children"]]
        if node["message"]:
            node["message"]["id"] = node["id"]
    return {
        "title": title,
        "create_time": start,
        "update_time": start + 3600,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": nodes[-1]["id"],
        "plugin_ids": None,
        "conversation_id": conv_id,
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "safe_urls": [],
        "default_model_slug": "gpt-4o",
        "id": conv_id,
    }


def chatgpt_branched(start: float = T0 + 86_400) -> dict[str, Any]:
    """The user asked, then edited the question: the first version and its answer are a
    branch edited away; the conversation goes on from the edited one. A tool call, a
    code run, an image part and the user's hidden custom instructions are there too."""
    mapping = {
        "b-root": chatgpt_node("b-root", None, ["b-ctx"], None),
        "b-ctx": chatgpt_node(
            "b-ctx",
            "b-root",
            ["b-u1", "b-u1e"],
            "user",
            None,
            None,
            content_type="user_editable_context",
            metadata={"is_visually_hidden_from_conversation": True},
        ),
        # the branch edited away
        "b-u1": chatgpt_node("b-u1", "b-ctx", ["b-a1"], "user", ["I live in Lisbon."], start),
        "b-a1": chatgpt_node("b-a1", "b-u1", [], "assistant", ["Lisbon is lovely."], start + 5),
        # the edited question and what followed it
        "b-u1e": chatgpt_node(
            "b-u1e", "b-ctx", ["b-a1e"], "user", ["I live in Porto."], start + 120
        ),
        "b-a1e": chatgpt_node(
            "b-a1e",
            "b-u1e",
            ["b-tool"],
            "assistant",
            ['{"query": "porto weather"}'],
            start + 125,
            content_type="code",
            recipient="browser",
        ),
        "b-tool": chatgpt_node(
            "b-tool",
            "b-a1e",
            ["b-a2"],
            "tool",
            ["Sunny, 21C"],
            start + 126,
            content_type="execution_output",
        ),
        "b-a2": chatgpt_node(
            "b-a2", "b-tool", ["b-u2"], "assistant", ["Porto is sunny today."], start + 130
        ),
        "b-u2": chatgpt_node(
            "b-u2",
            "b-a2",
            ["b-a3"],
            "user",
            [
                {"content_type": "image_asset_pointer", "asset_pointer": "file-service://x"},
                "My sister Anna keeps bees.",
            ],
            start + 7200,
            content_type="multimodal_text",
        ),
        "b-a3": chatgpt_node("b-a3", "b-u2", [], "assistant", ["I have a cat named Miso."], None),
    }
    return {
        "title": "Moving house",
        "create_time": start,
        "update_time": start + 7300,
        "mapping": mapping,
        "current_node": "b-a3",
        "conversation_id": "conv-b",
        "id": "conv-b",
    }


def chatgpt_export(tmp_path: Path, name: str = "conversations.json") -> Path:
    convs = [
        # the export lists the newest conversation first
        chatgpt_branched(),
        chatgpt_conversation(
            "conv-a",
            "Hobbies",
            T0,
            [
                ("user", "I play the cello in an orchestra."),
                ("assistant", "You must practise a lot. I live in Oslo myself."),
                ("user", "I'm so tired today."),
            ],
        ),
    ]
    path = tmp_path / name
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


# -- a Claude export, as downloaded -------------------------------------------------------
def claude_message(
    uuid: str, sender: str, text: str, at: float, blocks: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "text": text,
        "content": blocks
        if blocks is not None
        else [
            {
                "start_timestamp": iso(at),
                "stop_timestamp": iso(at + 1),
                "type": "text",
                "text": text,
                "citations": [],
            }
        ],
        "sender": sender,
        "created_at": iso(at),
        "updated_at": iso(at),
        "attachments": [],
        "files": [],
    }


def claude_export(tmp_path: Path, name: str = "conversations.json") -> Path:
    start = T0 + 3 * 86_400
    convs = [
        {
            "uuid": "c1a2b3c4-0000-4000-8000-000000000001",
            "name": "Garden plans",
            "created_at": iso(start),
            "updated_at": iso(start + 600),
            "account": {"uuid": "acc-1"},
            "chat_messages": [
                claude_message("cm-1", "human", "I work as a baker at the city hospital.", start),
                claude_message(
                    "cm-2",
                    "assistant",
                    "That sounds busy.",
                    start + 30,
                    blocks=[
                        {"type": "thinking", "thinking": "I live in Madrid."},
                        {"type": "text", "text": "That sounds busy. I live in Madrid."},
                    ],
                ),
                claude_message("cm-3", "human", "My brother Leo plays chess.", start + 3600),
            ],
        },
        {
            "uuid": "c1a2b3c4-0000-4000-8000-000000000002",
            "name": "",
            "created_at": iso(start + 86_400),
            "updated_at": iso(start + 86_500),
            "account": {"uuid": "acc-1"},
            "chat_messages": [
                {  # an older export: no content blocks, only text
                    "uuid": "cm-4",
                    "text": "I moved to Tampere in 2020.",
                    "sender": "human",
                    "created_at": iso(start + 86_400),
                    "updated_at": iso(start + 86_400),
                    "attachments": [],
                    "files": [],
                },
            ],
        },
    ]
    path = tmp_path / name
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


def zipped(path: Path, *, folder: str = "") -> Path:
    out = path.with_suffix(".zip")
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(f"{folder}conversations.json", path.read_text(encoding="utf-8"))
        archive.writestr(f"{folder}user.json", "{}")
        archive.writestr(f"{folder}chat.html", "<html></html>")
    return out


def facts(memory: Memory) -> list[str]:
    return sorted(f.text for f in memory.list())


# -- ChatGPT ------------------------------------------------------------------------------
def test_chatgpt_follows_the_current_branch_and_skips_what_nobody_said(tmp_path: Path) -> None:
    turns = read_chatgpt(chatgpt_export(tmp_path))
    said = [(t.role, t.content) for t in turns]
    assert said == [
        # oldest conversation first, though the export lists it last
        ("user", "I play the cello in an orchestra."),
        ("assistant", "You must practise a lot. I live in Oslo myself."),
        ("user", "I'm so tired today."),
        # the edited question, not the first version; no tool call, code run or image
        ("user", "I live in Porto."),
        ("assistant", "Porto is sunny today."),
        ("user", "My sister Anna keeps bees."),
        ("assistant", "I have a cat named Miso."),
    ]
    assert all("Lisbon" not in t.content for t in turns)
    assert {t.episode for t in turns} == {"chatgpt:conv-a", "chatgpt:conv-b"}
    assert turns[3].id == "chatgpt:b-u1e"


def test_chatgpt_dates_come_from_the_messages(tmp_path: Path) -> None:
    turns = read_chatgpt(chatgpt_export(tmp_path))
    start = T0 + 86_400
    assert [t.timestamp for t in turns[:3]] == [T0 + 60, T0 + 120, T0 + 180]
    assert turns[3].timestamp == start + 120
    assert turns[5].timestamp == start + 7200
    assert turns[6].timestamp == start + 7200  # no time of its own: the previous message's


def test_chatgpt_ingest_keeps_only_the_users_statements(memory: Memory, tmp_path: Path) -> None:
    report = ingest(memory, read_turns(chatgpt_export(tmp_path), fmt="chatgpt"), session_keys=True)
    assert report.episodes == 2 and not report.errors
    stored = facts(memory)
    assert "The user lives in Porto." in stored
    assert "The user plays the cello in an orchestra." in stored
    assert not any("Lisbon" in f or "Oslo" in f or "Miso" in f for f in stored), stored
    porto = next(f for f in memory.list() if "Porto" in f.text)
    assert porto.valid_from == T0 + 86_400 + 120  # when it was said, not when ingested


# -- Claude -------------------------------------------------------------------------------
def test_claude_roles_text_blocks_and_dates(tmp_path: Path) -> None:
    turns = read_claude(claude_export(tmp_path))
    start = T0 + 3 * 86_400
    assert [(t.id, t.role, t.content, t.timestamp) for t in turns] == [
        ("claude:cm-1", "user", "I work as a baker at the city hospital.", start),
        ("claude:cm-2", "assistant", "That sounds busy. I live in Madrid.", start + 30),
        ("claude:cm-3", "user", "My brother Leo plays chess.", start + 3600),
        ("claude:cm-4", "user", "I moved to Tampere in 2020.", start + 86_400),
    ]
    assert turns[0].episode == "claude:c1a2b3c4-0000-4000-8000-000000000001"


def test_claude_follows_the_branch_it_ended_on(tmp_path: Path) -> None:
    start = T0
    msgs = [
        claude_message("m1", "human", "I live in Lisbon.", start),
        claude_message("m2", "assistant", "Nice.", start + 1),
        claude_message("m1e", "human", "I live in Porto.", start + 60),
        claude_message("m2e", "assistant", "Nice.", start + 61),
    ]
    root = "00000000-0000-4000-8000-000000000000"
    for m, parent in zip(msgs, [root, "m1", root, "m1e"], strict=True):
        m["parent_message_uuid"] = parent
    conv = {"uuid": "u", "name": "x", "created_at": iso(start), "chat_messages": msgs}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]), encoding="utf-8")
    assert [t.content for t in read_claude(path)] == ["I live in Porto.", "Nice."]
    conv["current_leaf_message_uuid"] = "m2"
    path.write_text(json.dumps([conv]), encoding="utf-8")
    assert [t.content for t in read_claude(path)] == ["I live in Lisbon.", "Nice."]


def test_claude_ingest(memory: Memory, tmp_path: Path) -> None:
    report = ingest(memory, read_turns(claude_export(tmp_path), fmt="claude"), session_keys=True)
    assert report.episodes == 2 and not report.errors
    stored = facts(memory)
    assert any("baker" in f for f in stored), stored
    assert not any("Madrid" in f for f in stored), stored


# -- the file as downloaded ---------------------------------------------------------------
def test_formats_are_told_apart_and_the_zip_is_read(tmp_path: Path) -> None:
    gpt = chatgpt_export(tmp_path, "gpt.json")
    claude = claude_export(tmp_path, "claude.json")
    assert detect_format(gpt) == "chatgpt" and detect_format(claude) == "claude"
    gpt_zip = zipped(gpt, folder="")
    claude_zip = zipped(claude, folder="data-2024-03-09/")
    assert detect_export(gpt_zip) == "chatgpt" and detect_format(claude_zip) == "claude"
    assert read_turns(gpt_zip) == read_chatgpt(gpt)
    assert read_turns(claude_zip) == read_claude(claude)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("I keep bees.\n", encoding="utf-8")
    assert detect_format(tmp_path / "notes") == "notes"
    assert detect_format(tmp_path / "notes" / "a.md") == "notes"
    assert [t.content for t in read_turns(tmp_path / "notes" / "a.md")] == ["I keep bees."]


def test_a_zip_without_conversations_names_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("user.json", "{}")
    with pytest.raises(IngestError, match=r"no conversations.json in this zip \(it holds user"):
        read_chatgpt(path)


@pytest.mark.parametrize(
    ("fmt", "mangle", "expected"),
    [
        (
            "chatgpt",
            lambda c: c[0].pop("mapping"),
            r"conversation 1 \('Moving house'\): no 'mapping'",
        ),
        (
            "chatgpt",
            lambda c: c[0].update(current_node="nowhere"),
            r"current_node 'nowhere' is not in its mapping",
        ),
        (
            "chatgpt",
            lambda c: c[0]["mapping"]["b-u1e"]["message"].update(author="user"),
            r"message b-u1e: 'author' must be an object",
        ),
        (
            "chatgpt",
            lambda c: c[1]["mapping"]["conv-a:conv-a-m0"]["message"].update(create_time="soon"),
            r"conversation 2 \('Hobbies'\): message conv-a:conv-a-m0",
        ),
        ("chatgpt", lambda c: c.append("oops"), r"conversation 3 is str, not an object"),
        ("claude", lambda c: c[1].pop("chat_messages"), r"conversation 2: no 'chat_messages'"),
        (
            "claude",
            lambda c: c[0]["chat_messages"][0].pop("sender"),
            r"conversation 1 \('Garden plans'\): message cm-1: 'sender'",
        ),
    ],
)
def test_a_malformed_export_is_a_clear_error_and_writes_nothing(
    fmt: str,
    mangle: Callable[[list[Any]], Any],
    expected: str,
    tmp_path: Path,
    credo: Callable[..., int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = chatgpt_export(tmp_path) if fmt == "chatgpt" else claude_export(tmp_path)
    assert credo("ingest", "--format", fmt, str(path)) == 0
    capsys.readouterr()
    assert credo("list", "--json") == 0
    before = json.loads(capsys.readouterr().out)
    convs = json.loads(path.read_text(encoding="utf-8"))
    mangle(convs)
    path.write_text(json.dumps(convs), encoding="utf-8")
    assert credo("ingest", "--format", fmt, str(path)) == 1
    err = capsys.readouterr().err
    assert err.startswith("credo: error: ") and str(path) in err
    assert re.search(expected, err), err
    assert credo("list", "--json") == 0
    assert json.loads(capsys.readouterr().out) == before  # nothing lost, nothing added


def test_a_truncated_download_is_named(tmp_path: Path) -> None:
    path = chatgpt_export(tmp_path)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(IngestError, match="not JSON .*is the download complete"):
        read_chatgpt(path)
    with pytest.raises(IngestError, match="a ChatGPT export's conversations.json is a JSON array"):
        path.write_text('{"title": "x"}', encoding="utf-8")
        read_chatgpt(path)


def test_long_messages_and_stray_bytes(tmp_path: Path) -> None:
    long_user = ("I grow tomatoes on my balcony. " * 400).strip()  # 12,399 characters
    long_answer = "Tomatoes need sun. " * 1000
    conv = chatgpt_conversation(
        "conv-l", "Long", T0, [("user", long_user + "\x00"), ("assistant", long_answer)]
    )
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]), encoding="utf-8")
    turns = read_chatgpt(path)
    assert [t.id for t in turns] == [
        "chatgpt:conv-l:conv-l-m0",
        "chatgpt:conv-l:conv-l-m0#2",
        "chatgpt:conv-l:conv-l-m1",
    ]
    assert all(len(t.content) <= 10_000 for t in turns)
    assert " ".join(t.content for t in turns[:2]) == long_user  # the user's words, all kept
    assert turns[2].content.endswith("…")


# -- resume -------------------------------------------------------------------------------
class Interrupting:
    """The rule extractor, interrupted (as by Ctrl-C) on the episode starting at a turn."""

    name = "rules"

    def __init__(self, at: str | None = None) -> None:
        self.inner = RuleExtractor()
        self.at = at
        self.calls: list[str] = []

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user") -> Extraction:
        self.calls.append(turns[0].id)
        if turns[0].id == self.at:
            raise KeyboardInterrupt
        return self.inner.extract_episode(turns, self_name=self_name)


def many_conversations(n: int, start: float = T0) -> list[dict[str, Any]]:
    places = ["Oulu", "Turku", "Espoo", "Vaasa", "Lahti", "Kotka", "Pori", "Kemi"]
    return [
        chatgpt_conversation(
            f"conv-{k}",
            f"Chat {k}",
            start + k * 86_400,
            [
                ("user", f"My friend Aino{k} lives in {places[k % len(places)]}."),
                ("assistant", "Good to know."),
                ("user", f"I bought a bike in {places[(k + 3) % len(places)]}."),
            ],
        )
        for k in range(n)
    ]


def test_an_interrupted_import_finishes_on_the_next_run(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(many_conversations(6)[::-1]), encoding="utf-8")
    turns = read_turns(path)
    stop = Interrupting(at="chatgpt:conv-3:conv-3-m0")
    with pytest.raises(KeyboardInterrupt):
        ingest(memory, turns, extractor=stop, session_keys=True)
    kept = len(memory.list())
    assert kept > 0  # the three episodes before the interrupt are stored
    again = Interrupting()
    report = ingest(memory, read_turns(path), extractor=again, session_keys=True)
    assert report.skipped == 3 and report.episodes == 6 and not report.errors
    assert again.calls == [f"chatgpt:conv-{k}:conv-{k}-m0" for k in (3, 4, 5)]
    third = Interrupting()
    report = ingest(memory, read_turns(path), extractor=third, session_keys=True)
    assert report.skipped == 6 and third.calls == [] and report.accepted == 0

    # the same store, ingested in one go from scratch, holds the same facts
    other = memory_for_tests(tmp_path / "other.db")
    ingest(other, read_turns(path), session_keys=True)
    assert facts(other) == facts(memory)


def test_a_later_export_ingests_only_what_is_new(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(many_conversations(4)[::-1]), encoding="utf-8")
    ingest(memory, read_turns(path), session_keys=True)
    # a month later: a newer export holds two more conversations, newest first, and one
    # that was deleted in between is gone
    later = many_conversations(6)
    del later[1]
    path.write_text(json.dumps(later[::-1]), encoding="utf-8")
    seen = Interrupting()
    report = ingest(memory, read_turns(path), extractor=seen, session_keys=True)
    assert report.skipped == 3 and seen.calls == [
        "chatgpt:conv-4:conv-4-m0",
        "chatgpt:conv-5:conv-5-m0",
    ]


def test_secrets_in_an_export_are_masked(memory: Memory, tmp_path: Path) -> None:
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
    conv = chatgpt_conversation(
        "conv-s",
        "Keys",
        T0,
        [("user", f"My OpenAI API key is {key} and I live in Oulu."), ("assistant", "Noted.")],
    )
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]), encoding="utf-8")
    report = ingest(memory, read_turns(path), session_keys=True)
    stored = " ".join(facts(memory))
    rejected = " ".join(r.text for r in memory.rejections(limit=100))
    assert key not in stored and key not in rejected
    assert key not in json.dumps(report.to_dict())


# -- notes --------------------------------------------------------------------------------
def test_notes_folder(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "journal").mkdir(parents=True)
    (notes / ".obsidian").mkdir()
    (notes / ".obsidian" / "workspace.md").write_text("I live in Nowhere.", encoding="utf-8")
    (notes / "journal" / "2024-03-05.md").write_text(
        "---\ntags: [journal]\n---\n# Tuesday\n\nI moved to Porto.\n\n"
        "```\nI live in Codeville.\n```\n\n- I adopted a cat\n- My sister Anna keeps bees\n",
        encoding="utf-8",
    )
    older = notes / "ideas.txt"
    older.write_text("I play the cello.\r\n", encoding="utf-8")
    os.utime(older, (T0, T0))
    (notes / "picture.png").write_bytes(b"\x89PNG")
    turns = read_notes(notes)
    assert [(t.id, t.content) for t in turns] == [
        ("notes:ideas.txt#1", "I play the cello."),
        ("notes:journal/2024-03-05.md#1", "Tuesday"),
        ("notes:journal/2024-03-05.md#2", "I moved to Porto."),
        ("notes:journal/2024-03-05.md#3", "I adopted a cat. My sister Anna keeps bees."),
    ]
    assert turns[0].timestamp == T0  # its modification time
    assert turns[1].timestamp == 1_709_596_800.0  # 2024-03-05, from its name
    assert all(t.role == "user" for t in turns)
    assert {t.episode for t in turns} == {"notes:ideas.txt", "notes:journal/2024-03-05.md"}


def test_notes_ingest_and_errors(memory: Memory, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2024-03-05 move.md").write_text("I moved to Porto.\n", encoding="utf-8")
    report = ingest(memory, read_turns(notes, fmt="notes"), session_keys=True)
    assert report.episodes == 1 and report.accepted >= 1
    porto = next(f for f in memory.list() if "Porto" in f.text)
    assert porto.valid_from == 1_709_596_800.0
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(IngestError, match="no notes here"):
        read_notes(empty)


# -- the CLI ------------------------------------------------------------------------------
@pytest.fixture
def credo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[..., int]]:
    monkeypatch.setattr(cli, "_command_groups", lambda: [register])
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    for var in ("CREDO_LLM", "CREDO_LLM_URL", "CREDO_LLM_KEY", "EDITOR", "VISUAL"):
        monkeypatch.delenv(var, raising=False)

    def run(*argv: str) -> int:
        return cli.main(list(argv))

    yield run


def test_cli_ingests_an_export_zip_and_resumes(
    credo: Callable[..., int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = zipped(chatgpt_export(tmp_path))
    assert credo("ingest", str(path), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["episodes"] == 2 and data["user_turns"] == 4 and data["accepted"] >= 2
    assert credo("ingest", "--format", "chatgpt", str(path), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["episodes_skipped"] == 2 and data["candidates"] == 0
    assert credo("ingest", "--format", "claude", str(path)) == 1
    assert "no 'chat_messages'" in capsys.readouterr().err


_KILLED_AT = """
import os, signal, sys
from credo.extract.rules import RuleExtractor
from credo.cli import main

real = RuleExtractor.extract_episode

def dies_at(self, turns, **kw):
    if turns[0].id == sys.argv[1]:
        os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, no finally: a killed process
    return real(self, turns, **kw)

RuleExtractor.extract_episode = dies_at
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_killed_cli_import_finishes_on_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(many_conversations(5)[::-1]), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "OPENAI_"))}
    env.update(CREDO_DB=str(tmp_path / "k.db"), CREDO_EMBEDDER="hash")

    def credo_ingest(die_at: str, *extra: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-c", _KILLED_AT, die_at, "ingest", str(path), *extra]
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)

    killed = credo_ingest("chatgpt:conv-2:conv-2-m0")
    assert killed.returncode == -signal.SIGKILL
    resumed = credo_ingest("none", "--json")
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["episodes"] == 5 and data["episodes_skipped"] == 2  # conv-0 and conv-1
    again = json.loads(credo_ingest("none", "--json").stdout)
    assert again["episodes_skipped"] == 5 and again["candidates"] == 0

    whole = memory_for_tests(tmp_path / "whole.db")
    ingest(whole, read_turns(path), session_keys=True)
    killed_then_resumed = memory_for_tests(tmp_path / "k.db")
    assert facts(killed_then_resumed) == facts(whole)  # nothing lost, nothing twice


def test_a_txt_of_json_lines_is_still_a_conversation(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    path.write_text('{"role": "user", "content": "I live in Oulu."}\n', encoding="utf-8")
    assert detect_format(path) == "jsonl"
