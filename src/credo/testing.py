"""Fakes and helpers for tests, shipped so users can test their own agents with credo.

`FakeChat` replays scripted replies and records what it was asked; `HashEmbedder` gives
deterministic vectors with no model; `memory_for_tests` builds a Memory on a real SQLite
file. Nothing here touches the network.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .embed import HashEmbedder
from .memory import Memory
from .store.sqlite import SQLiteStore

__all__ = ["FakeChat", "HashEmbedder", "exact_similarity", "memory_for_tests", "weak_similarity"]


class FakeChat:
    """A `ChatClient` that returns scripted replies in order (the last one repeats)."""

    def __init__(self, replies: Iterable[str] = ("[]",)) -> None:
        self.replies = list(replies)
        if not self.replies:
            raise ValueError("FakeChat needs at least one reply")
        self.calls: list[list[dict[str, str]]] = []
        self.schemas: list[dict[str, Any] | None] = []

    def complete(
        self, messages: Sequence[dict[str, str]], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        self.calls.append([dict(m) for m in messages])
        self.schemas.append(json_schema)
        index = min(len(self.calls) - 1, len(self.replies) - 1)
        return self.replies[index]


def exact_similarity(a: str, b: str) -> float:
    """1.0 for the same words, else 0.0: a similarity with no model, for resolver tests."""
    return 1.0 if " ".join(a.lower().split()) == " ".join(b.lower().split()) else 0.0


def weak_similarity(a: str, b: str) -> float:
    """Always low: two facts that are related but never duplicates."""
    return 0.3


def memory_for_tests(path: str | Path, *, scope: str = "default", **kwargs: Any) -> Memory:
    """A Memory on a real SQLite file at `path`, with the hash embedder."""
    return Memory(SQLiteStore(path, HashEmbedder()), scope=scope, **kwargs)
