"""`credo.language.schedule`: when a named thing happens or is due, and two sentences that
give one thing rival times; then the same through `Memory.remember` (a clash the same day,
an update later), on sentences as people type them."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.embed import HashEmbedder
from credo.language.schedule import rival_times, when_of
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

DAY = 86400.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("the weekly sync is at 2pm", "our weekly syncs at 3pm"),
        ("Piano lesson is at 4:30", "piano lesson is at 5"),
        ("the grant application is due april 4", "grant application deadline is end of march"),
        ("the thesis is due on the 3rd", "the deadline for the thesis is the 9th"),
        ("book club is on tuesdays", "book club is every wednesday"),
        ("our pub quiz got moved to 8", "the pub quiz is at 7"),
        ("my birthday is 4 july", "my birthday is july 9th"),
        ("the kids bedtime is 7pm", "bedtime for the kids is 8pm"),
    ],
)
def test_one_thing_given_two_times_of_one_kind(a: str, b: str) -> None:
    assert rival_times(a, b) and rival_times(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("the weekly sync is at 2pm", "the retro is at 3pm"),  # two things
        ("the weekly sync is at 2", "the weekly sync is at 2pm"),  # one hour
        ("the grant application is due april 4", "the grant application is due in april"),
        ("the grant report is due april 4", "the grant application is due may 1"),  # narrowed
        ("my birthday is july 4", "my brother's birthday is july 9"),  # whose
        ("book club is on tuesdays and fridays", "book club is on wednesdays"),  # two days
        ("the party is on saturday", "the party is at 8pm"),  # two kinds
        ("i run at 6am", "i run at 7am"),  # a person's doing, no thing's time
        ("the gym opens at 6", "the gym closes at 10"),  # opening is not closing
        ("we meet at 9 people", "we meet at 10"),  # a count
    ],
)
def test_no_rival_times(a: str, b: str) -> None:
    assert not rival_times(a, b) and not rival_times(b, a)


def test_what_a_sentence_says_of_a_time() -> None:
    found = when_of("the api migration deadline is june 30")
    assert found is not None
    assert (found.thing, found.narrowed, found.role, found.date) == (
        "migration",
        frozenset({"api"}),
        "due",
        (6, 30),
    )
    assert when_of("I may go there") is None  # "may" alone is the verb
    assert when_of("no time words here") is None


@pytest.fixture()
def memory(tmp_path: Path) -> Memory:
    return Memory(SQLiteStore(tmp_path / "m.db", HashEmbedder()))


def test_a_rival_time_the_same_day_is_a_conflict(memory: Memory) -> None:
    first = memory.remember("the weekly sync is at 2pm", valid_from=1_700_000_000.0)
    second = memory.remember("our weekly syncs at 3pm", valid_from=1_700_000_000.0 + 600)
    assert first.fact is not None and second.fact is not None
    assert second.relation is not None and second.relation.value == "conflict"
    assert {f.text for f in memory.list()} >= {first.fact.text, second.fact.text}
    # two keys: the reason says another value, never "same key"
    assert "same key" not in second.why and "another value" in second.why


def test_a_rival_time_days_later_is_an_update(memory: Memory) -> None:
    first = memory.remember("the thesis is due on the 3rd", valid_from=1_700_000_000.0)
    second = memory.remember(
        "the deadline for the thesis is the 9th", valid_from=1_700_000_000.0 + 5 * DAY
    )
    assert first.fact is not None and second.fact is not None
    assert second.relation is not None and second.relation.value == "update"
    assert [f.id for f in memory.list(status="active")] == [second.fact.id]
    assert [f.id for f in memory.list(status="superseded")] == [first.fact.id]
