"""Replies recorded from a real local model, played back through the extractor.

The recordings in tests/fixtures/llm_replies/ were made by scripts/record_llm_replies.py
against a real model served on 127.0.0.1 (each file's header names the model file, its
SHA-256, the server and the command); none was written by hand. They keep the replies and
prompt digests only: the turns are read at test time from the invented conversation they
were recorded from, in fixtures/llm_replies/input/ (never from the evaluation data, which a
model's replies would echo into the repository)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from credo.extract.llm import LLMExtractor, _parse_reply, refused_reply
from credo.ingest import episodes, ingest, read_locomo
from credo.llm import LLMError
from credo.llm_replay import (
    RecordedChat,
    RecordedReply,
    RecordingChat,
    load_recording,
    save_recording,
)
from credo.memory import Memory
from credo.testing import FakeChat

FIXTURES = Path(__file__).parent / "fixtures" / "llm_replies"
INPUT = FIXTURES / "input"
CHAT = [{"role": "system", "content": "rules"}, {"role": "user", "content": "[0] user: hi"}]


def test_recording_and_playing_back_round_trip(tmp_path: Path) -> None:
    class Failing:
        def complete(self, messages: Any, *, json_schema: Any = None) -> str:
            raise LLMError("timed out after 1 s", smaller_may_work=True)

    recorder = RecordingChat(FakeChat(['{"facts": []}']))
    assert recorder.complete(CHAT) == '{"facts": []}'
    failing = RecordingChat(Failing())
    other = [CHAT[0], {"role": "user", "content": "[0] user: bye"}]
    with pytest.raises(LLMError):
        failing.complete(other)
    path = tmp_path / "r.json"
    save_recording(path, {"model": "fake:m"}, [*recorder.replies, *failing.replies])
    header, replies = load_recording(path)
    assert header["model"] == "fake:m" and len(replies) == 2
    assert "hi" not in path.read_text("utf-8")  # digests, not the conversation

    chat = RecordedChat(replies, model=header["model"])
    assert chat.complete(CHAT) == '{"facts": []}'
    with pytest.raises(LLMError) as info:
        chat.complete(other)
    assert info.value.smaller_may_work
    with pytest.raises(LLMError, match="re-record with scripts/record_llm_replies.py"):
        chat.complete([CHAT[0], {"role": "user", "content": "[0] user: never said"}])
    # a changed system prompt still finds the reply, and is counted as stale
    assert chat.complete([{"role": "system", "content": "new rules"}, CHAT[1]]) == '{"facts": []}'
    assert chat.stale == 1 and len(chat.played) == 3
    path.write_text(json.dumps({"format": "something else"}), "utf-8")
    with pytest.raises(ValueError, match="not a recording"):
        load_recording(path)


def _outcome(reply: RecordedReply) -> str:
    """What the extractor must make of one recorded reply, from the reply alone."""
    if reply.error is not None:
        return "error"
    played = reply.play()
    if refused_reply(played) is not None:
        return "refused"
    items, why = _parse_reply(played)
    return "parsed" if items is not None else "unreadable"


def _recordings() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


def test_there_is_a_recorded_set_with_the_hard_cases() -> None:
    files = _recordings()
    assert files, "no recorded replies in tests/fixtures/llm_replies"
    kinds: Counter[str] = Counter()
    for path in files:
        header, replies = load_recording(path)
        assert header["model"] and header["server"] and header["command"]
        assert header.get("model_sha256"), "the header names the weights it was recorded with"
        for reply in replies:
            kinds[_outcome(reply)] += 1
            if reply.finish_reason == "length":
                kinds["truncated"] += 1
            if reply.text is not None and not reply.text.strip():
                kinds["empty"] += 1
    assert kinds["parsed"] and kinds["truncated"], kinds
    assert kinds["unreadable"] + kinds["refused"] >= kinds["truncated"], kinds


@pytest.mark.parametrize("path", _recordings(), ids=lambda p: p.stem)
def test_recorded_replies_replayed_through_ingest(path: Path, memory: Memory) -> None:
    header, replies = load_recording(path)
    data = header["data"]
    turns = read_locomo(INPUT / data["file"], sample=data["sample"])
    chosen = list(episodes(turns, data["episode_size"]))[: data["episodes"]]
    turns = [t for batch in chosen for t in batch]
    for name in header["passes"]:
        recorded = [r for r in replies if r.meta.get("pass") == name]
        chat = RecordedChat(recorded, model=header["model"])
        scope = Memory(memory.store, scope=f"{memory.scope}-{name}", policy=memory.policy)
        report = ingest(
            scope,
            turns,
            extractor=LLMExtractor(chat),
            episode_size=data["episode_size"],
            resume=False,
        )
        # the same prompts as when recorded: every reply found, in the recorded order
        assert chat.played == [r.key for r in recorded], f"{name}: re-record the replies"
        outcomes = Counter(_outcome(r) for r in recorded)
        assert len(report.failed) == outcomes["error"]
        refusals = [n for n in report.notes if "no candidates" in n]
        assert len(refusals) == outcomes["refused"] + outcomes["unreadable"]
        cut = sum(1 for r in recorded if r.error is None and r.play().truncated)
        assert sum("cut off at the model's token limit" in n for n in refusals) == cut
        # what was parsed went through the gate, and the report adds up
        assert report.accepted + report.rejected == report.candidates
        assert report.candidates <= sum(
            len(_parse_reply(r.play())[0] or []) for r in recorded if _outcome(r) == "parsed"
        )
        assert report.usage["prompt_tokens"] == sum(
            r.usage.get("prompt_tokens", 0) for r in recorded if r.error is None
        )
        assert len(scope.list()) <= report.accepted
