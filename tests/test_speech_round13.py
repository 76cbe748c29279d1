"""Natural speech the write path reads since the thirteenth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

One thing given two times of one kind ("the weekly sync is at 2" / "our weekly syncs at
3pm") is a clash whatever keys the two sentences got: a conflict the same day, an update
later. A denial of having any of a kind clashes with a sentence about the speaker's own
thing of that kind ("i don't have any pets" / "my cat sleeps on my desk"). How long is no
value, with "for" or without ("married six years", "married for six years"). An amount a
change brings a thing to is its new value, however the parse hangs it ("coverage reached
85%", "my weight dropped to 80kg")."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, pair

from credo.fact import Status
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

store = module_store("round13")


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("the weekly sync is at 2pm", "our weekly syncs at 3pm", 0, ("conflicted", "conflict")),
        ("the weekly sync is at 2pm", "our weekly syncs at 3pm", 20, ("superseded", "update")),
        (
            "the grant application is due april 4",
            "grant application deadline is end of march",
            0,
            ("conflicted", "conflict"),
        ),
        ("the weekly sync is at 2pm", "the retro is at 3pm", 0, ("active", "new")),
        ("i don't have any pets", "my cat sleeps on my desk", 0, ("conflicted", "conflict")),
        ("i don't have any pets", "my aunt's cat sleeps on her bed", 0, ("active", "new")),
        (
            "i have been married eight years",
            "ive been married for eight years",
            3,
            ("active", "duplicate"),
        ),
        (
            "our code coverage is 61%",
            "code coverage has now reached 74%",
            30,
            ("superseded", "update"),
        ),
        ("my weight is 92kg", "my weight dropped to 86kg", 30, ("superseded", "update")),
    ],
)
def test_pairs(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    status, relation = pair(store, first, then, gap)
    assert (Status(status).value, Relation(relation).value) == expected
