"""Chat replies recorded from a real model, and a chat client that plays them back.

`RecordingChat` wraps a real `ChatClient` and keeps every exchange (the reply's text,
finish reason and token counts, or the error); `save_recording` writes them to a JSON file
with a header saying which model and server produced them. `RecordedChat` answers each
prompt with the reply recorded for it, so tests run an extractor against what a real
model really said, with no model and no network. `scripts/record_llm_replies.py`
records a set from LoCoMo episodes.

A reply is looked up by the digest of the prompt's last user message (the numbered
turns), not of the whole prompt: the system prompt follows the gate policy, and a policy
edit should not orphan a recording of the same conversation. Whether the system prompt
still matches is kept (`RecordedChat.stale`) so a test can say the recording is old.
No conversation text is stored in a recording, only digests, turn ids and the replies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .llm import ChatClient, LLMError, Message, Reply

__all__ = [
    "RecordedChat",
    "RecordedReply",
    "RecordingChat",
    "load_recording",
    "prompt_keys",
    "save_recording",
]

FORMAT = "credo-llm-replies"
VERSION = 1


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def prompt_keys(messages: Sequence[Message]) -> tuple[str, str]:
    """(key, system digest): the digest of the last user message, which holds the
    episode's turns, and of everything before it."""
    users = [m for m in messages if m.get("role") == "user"]
    if not users:
        raise ValueError("a prompt without a user message cannot be recorded")
    rest = json.dumps([m for m in messages if m is not users[-1]], sort_keys=True)
    return _digest(users[-1]["content"]), _digest(rest)


@dataclass
class RecordedReply:
    """One exchange: the reply (text, finish reason, usage) or the error it raised."""

    key: str
    system: str
    text: str | None = None
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    structured: bool = False
    error: str | None = None
    smaller_may_work: bool = False
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)  # what the recorder adds

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "system": self.system,
            "text": self.text,
            "finish_reason": self.finish_reason,
            "usage": self.usage,
            "structured": self.structured,
            "error": self.error,
            "smaller_may_work": self.smaller_may_work,
            "seconds": round(self.seconds, 3),
            "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordedReply:
        return cls(
            key=str(data["key"]),
            system=str(data.get("system", "")),
            text=data.get("text"),
            finish_reason=data.get("finish_reason"),
            usage={k: int(v) for k, v in (data.get("usage") or {}).items()},
            structured=bool(data.get("structured")),
            error=data.get("error"),
            smaller_may_work=bool(data.get("smaller_may_work")),
            seconds=float(data.get("seconds") or 0.0),
            meta=dict(data.get("meta") or {}),
        )

    def play(self) -> Reply:
        if self.error is not None:
            raise LLMError(self.error, smaller_may_work=self.smaller_may_work)
        return Reply(
            self.text or "",
            usage=self.usage,
            finish_reason=self.finish_reason,
            structured=self.structured,
        )


class RecordingChat:
    """A `ChatClient` that passes each call to `inner` and keeps what came back."""

    def __init__(self, inner: ChatClient, *, clock: Any = None) -> None:
        import time

        self.inner = inner
        self.replies: list[RecordedReply] = []
        self.meta: dict[str, Any] = {}  # attached to the next reply recorded
        self._clock = clock or time.monotonic

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        key, system = prompt_keys(messages)
        record = RecordedReply(key, system, meta=dict(self.meta))
        started = self._clock()
        try:
            reply = self.inner.complete(messages, json_schema=json_schema)
        except LLMError as exc:
            record.error, record.smaller_may_work = str(exc), exc.smaller_may_work
            record.seconds = self._clock() - started
            self.replies.append(record)
            raise
        record.seconds = self._clock() - started
        record.text = str(reply)
        record.finish_reason = getattr(reply, "finish_reason", None)
        record.usage = dict(getattr(reply, "usage", None) or {})
        record.structured = bool(getattr(reply, "structured", False))
        self.replies.append(record)
        return reply


class RecordedChat:
    """A `ChatClient` that answers with recorded replies, looked up by prompt.

    A prompt with no recorded reply is an `LLMError` naming the script that records
    them; `played` counts the replies used and `stale` the ones whose system prompt has
    changed since they were recorded."""

    def __init__(self, replies: Sequence[RecordedReply], *, model: str = "recorded") -> None:
        self.model = model
        self.replies: dict[str, RecordedReply] = {}
        for reply in replies:
            self.replies.setdefault(reply.key, reply)
        self.played: list[str] = []
        self.stale = 0

    @classmethod
    def from_file(cls, path: str | Path) -> RecordedChat:
        header, replies = load_recording(path)
        return cls(replies, model=str(header.get("model", "recorded")))

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        key, system = prompt_keys(messages)
        record = self.replies.get(key)
        if record is None:
            raise LLMError(
                "no recorded reply for this prompt (its turns differ from the recording): "
                "re-record with scripts/record_llm_replies.py"
            )
        self.played.append(key)
        if record.system != system:
            self.stale += 1
        return record.play()


def save_recording(
    path: str | Path, header: Mapping[str, Any], replies: Sequence[RecordedReply]
) -> None:
    data = {
        "format": FORMAT,
        "version": VERSION,
        **header,
        "replies": [r.to_dict() for r in replies],
    }
    Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")


def load_recording(path: str | Path) -> tuple[dict[str, Any], list[RecordedReply]]:
    """(header, replies) of a recording file; ValueError when it is not one."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a recording of LLM replies (format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: recording version {data.get('version')!r}, not {VERSION}")
    replies = [RecordedReply.from_dict(r) for r in data.get("replies") or []]
    header = {k: v for k, v in data.items() if k not in ("format", "version", "replies")}
    return header, replies
