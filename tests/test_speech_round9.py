"""Natural speech the write path reads since the ninth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

A sentence that says a change but shares no key with what it changes ("finally off
early shifts" after "i do the early shift at the bakery") ends the stored fact of the
same speaker closest to it in meaning (`resolver._changed_topic`); one that adds
("also"), speaks of someone else, changes a mind or moves another thing ends nothing."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store, pair

from credo.store.sqlite import SQLiteStore

store = module_store("round9")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (
            "i do the early shift at the bakery",
            "finally off early shifts, afternoons only from now on",
        ),
        ("im a 2nd year nursing student", "i dropped out of nursing school in the spring"),
        (
            "we keep our photos on google photos",
            "all our photos live on a nas now, no more subscriptions",
        ),
    ],
)
@pytest.mark.parametrize("gap_days", [0, 60])
def test_a_change_ends_what_it_changes_across_keys(
    store: SQLiteStore, first: str, then: str, gap_days: int
) -> None:
    status, relation = pair(store, first, then, gap_days)
    assert (status, relation) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i live in leeds", "my brother moved to cardiff"),  # someone else's move
        ("i play the cello", "now i also play the harp"),  # one more, not another
        ("i commute by train", "the train company changed the timetable again"),
        ("i have a kindle", "changed my mind about the kindle"),  # a mind changed
        ("i drink coffee every morning", "started drinking more water now"),
        ("i use sentry for the api", "we moved the api to rust"),  # another thing moved
        ("i do the early shift at the bakery", "the bakery got a new oven"),  # no change of mine
        ("i broke my wrist skiing in january", "my wrist is finally fine now"),  # an event
        # a measure moved ends only what measured the same thing
        (
            "ive finished 20 sudoku puzzles with 90% accuracy",
            "improved my chess rating from 1200 to 1350",
        ),
    ],
)
def test_a_change_of_something_else_ends_nothing(store: SQLiteStore, first: str, then: str) -> None:
    status, _ = pair(store, first, then, 60)
    assert status == "active"


@pytest.mark.parametrize(
    "said",
    [
        "they promoted me to team lead last week",
        "they cancelled my flight to rome",
        "they laid me off in june",
    ],
)
def test_what_they_did_to_the_speaker_is_a_fact(store: SQLiteStore, said: str) -> None:
    """The "they" of an employer or a company, doing something to the speaker or their
    thing, is no one to name: the sentence is stored as said, with no key (a thing of
    theirs changed to a value, "theyve moved our standup to 11", is keyed as its new
    value: tests/test_speech_round23.py)."""
    mem = memory(store)
    result = mem.remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None, result.why
    assert result.fact.predicate is None


@pytest.mark.parametrize(
    "said",
    ["they told me to rest my knee", "they said my visa is approved", "they live near my parents"],
)
def test_what_they_say_or_who_they_are_needs_them_named(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code == "ungrounded"


@pytest.mark.parametrize(
    ("first", "then", "duplicate"),
    [
        ("i take the tram to work every day", "I ride the tram to work.", True),
        ("i swim at the lido every morning", "i swim at the lido", True),
        ("my sister lives in porto", "i live in porto", False),  # a person left out
    ],
)
def test_saying_less_of_a_thing_is_said_already(
    store: SQLiteStore, first: str, then: str, duplicate: bool
) -> None:
    _, relation = pair(store, first, then, 30)
    assert (relation == "duplicate") is duplicate


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i teach skiing in verbier every winter", "ive never been skiing in my life"),
        ("i played rugby at school", "never played a team sport"),
        ("i never eat meat", "had a steak last night"),
        ("ive never had a pet", "i have a dog called biscuit"),
    ],
)
@pytest.mark.parametrize("gap_days", [0, 400])
def test_a_never_against_a_report_is_a_conflict_at_any_gap(
    store: SQLiteStore, first: str, then: str, gap_days: int
) -> None:
    """ "never" against what the speaker reports, whichever is said first: the past does
    not change, so neither supersedes the other."""
    status, relation = pair(store, first, then, gap_days)
    assert (status, relation) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("ive never been to south america", "we spent two weeks in lisbon last summer"),
        ("i never eat meat", "i love cooking pasta"),
        ("ive never owned a pet", "my neighbour has three cats"),  # someone else's
    ],
)
def test_a_never_against_something_else_is_no_conflict(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 45)
    assert (status, relation) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then", "duplicate"),
    [
        ("i live alone", "i live by myself", True),  # no value either way, close in meaning
        ("i have a dog", "i have a cat", False),  # another value
        ("my sister lives in paris", "i live in paris", False),  # another person's
    ],
)
def test_the_same_said_again_off_the_key(
    store: SQLiteStore, first: str, then: str, duplicate: bool
) -> None:
    _, relation = pair(store, first, then, 20)
    assert (relation == "duplicate") is duplicate
