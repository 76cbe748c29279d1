"""Natural speech the write path reads since the twenty-second round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a count of people, animals, plants or vehicles said with no verb ("two kids under
  five", "3 ferrets and a rabbit") is what the speaker has, alone or before a question
  ("four goats on the smallholding, what do they eat in winter?"); a count of anything
  else ("2 eggs", "three weeks to go", "20 min from town") is not."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, outcome, stored

from credo.keys import analyse, elided_subject
from credo.store.sqlite import SQLiteStore

store = module_store("round22")


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("two kids under five", "I have two kids under five"),
        ("3 ferrets and a rabbit", "I have 3 ferrets and a rabbit"),
        ("nine houseplants on the windowsill", "I have nine houseplants on the windowsill"),
        ("Two cars on the drive", "I have two cars on the drive"),
    ],
)
def test_a_count_of_what_one_keeps_said_with_no_verb_is_had(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "2 eggs and some flour",
        "three weeks to go",
        "20 min from town",
        "5 stars from me",
        "two coffees a day",
    ],
)
def test_a_count_of_anything_else_is_left_as_said(said: str) -> None:
    assert elided_subject(said) == said


def test_a_counted_fragment_is_keyed_as_the_speakers() -> None:
    st = analyse("two dogs and a cat")
    assert st.first_person and st.keyed
    assert st.object is not None and "dogs" in st.object


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "four goats on the smallholding, what do they eat in winter?",
            "four goats on the smallholding",
        ),
        (
            "2 teenagers in the house, how do i get them off their phones",
            "2 teenagers in the house",
        ),
    ],
)
def test_a_count_before_a_question_is_kept_and_the_question_is_not(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert stored(store, said) == [kept]


def test_a_count_said_without_a_verb_meets_the_claim(store: SQLiteStore) -> None:
    assert outcome(store, "i have three kids", "3 kids, how do i get them to bed on time", 20) == (
        "active",
        "duplicate",
    )
    assert outcome(store, "i have two dogs", "three dogs now, how do i walk them all", 90)[0] == (
        "superseded"
    )
