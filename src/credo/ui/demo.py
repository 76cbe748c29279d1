"""A small memory to look at: real sentences through `Memory.remember`, with a move (one
value superseding another), a contradiction left open, and what the gate refuses. The
screenshots in docs/ui/ and the browser tests use it."""

from __future__ import annotations

from ..memory import Memory

#: (sentence, true from, source), in the order they are remembered
STATEMENTS: list[tuple[str, str | None, str]] = [
    ("I live in Berlin", "2019-03-01", "user"),
    ("I work at Reaktor as a designer", "2019-04-15", "user"),
    ("Arttu deploys arttuan.com on Vercel", "2022-01-10", "user"),
    ("My favourite editor is Vim", "2021-01-01", "user"),
    ("I live in Lisbon now", "2023-06-01", "user"),
    ("Maria works at Futurice", "2020-05-01", "user"),
    ("Maria works at Nitor", "2020-05-01", "imported:team-wiki"),
    ("Maria's daughter is called Aino", "2021-09-01", "user"),
    ("The staging database runs on PostgreSQL 16", "2024-02-01", "tool:terraform"),
    ("Can you remind me to call Maria tomorrow?", None, "user"),
    ("I'm feeling tired today", None, "user"),
    ("My password is hunter2hunter2", None, "user"),
    ("Arttu might switch to Emacs", None, "user"),
    ("lol ok", None, "user"),
]


def fill(memory: Memory) -> None:
    """Remember every demo statement in `memory` (refusals are kept as rejections)."""
    for text, valid_from, source in STATEMENTS:
        memory.remember(text, valid_from=valid_from, source=source)
