"""Natural speech the write path reads since the twenty-second round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a count of people, animals, plants or vehicles said with no verb ("two kids under
  five", "3 ferrets and a rabbit") is what the speaker has, alone or before a question
  ("four goats on the smallholding, what do they eat in winter?"); a count of anything
  else ("2 eggs", "three weeks to go", "20 min from town") is not;
- a sentence saying in words of not knowing that the speaker cannot tell why something is
  so ("i dont understand why ...", "I wonder why ...", "no idea why ...") asks why in
  other words: refused as a question, the clause of the speaker's it asks about kept on
  its own; "I know why ..." tells;
- a past participle the tagger does not know ("never swum", "never ridden") is read as
  the verb it is: with its "I've" left out, keyed on the verb, and a denial of what was
  reported;
- "currently" beside a verb of lasting use said with what it is done with is as of now,
  whatever the key's first word ("my booking system currently uses stripe", "the docs
  are currently hosted on gitbook"); a state of the moment still passes ("my phone is
  currently running slow");
- a "<who or what> here" piece opening a message with more said after it ("southpaw
  here, always smudging my notes") is what the message says of the speaker: keyed as
  the piece ("I am a southpaw"), stored as said;
- a participle used as a preposition opening a text ("given my tight budget", "regarding
  my mortgage") leaves no "I" out: alone it is a phrase, refused, never "I was given my
  tight budget"; "given a puppy by my aunt" is the participle ("I was given")."""

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


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("i dont understand why ive never broken a bone", ["The user has never broken a bone"]),
        ("I wonder why my tomatoes split every summer", ["The user's tomatoes split every summer"]),
        (
            "no idea why i never get seasick, is that genetic?",
            ["The user never gets seasick"],
        ),
        (
            "i really dont get why i have never been picked for jury duty, explain how they choose",
            ["The user has never been picked for jury duty"],
        ),
        ("i wonder why the moon looks bigger near the horizon", []),
        ("I don't understand why anyone likes opera", []),
    ],
)
def test_not_knowing_why_asks_and_keeps_the_speakers_clause(
    store: SQLiteStore, said: str, kept: list[str]
) -> None:
    assert stored(store, said) == kept


def test_knowing_why_tells(store: SQLiteStore) -> None:
    assert stored(store, "I know why my car keeps stalling") == [
        "The user knows why the user's car keeps stalling"
    ]


def test_a_never_inside_not_knowing_why_meets_the_report(store: SQLiteStore) -> None:
    assert outcome(
        store,
        "i broke my wrist skiing in 2015",
        "i dont understand why ive never broken a bone",
        30,
    ) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("said", "predicate"),
    [
        ("never swum in a lake in my life", "not_swim_in"),
        ("i've never ridden a camel", "not_ride"),
    ],
)
def test_a_participle_the_tagger_does_not_know_is_the_verb(said: str, predicate: str) -> None:
    assert analyse(said).predicate == predicate


def test_a_denial_with_an_unknown_participle_meets_the_report(store: SQLiteStore) -> None:
    assert outcome(
        store,
        "i swam in a lake in finland last summer",
        "never swum in a lake in my life, is it colder than the sea?",
        30,
    ) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    "said",
    [
        "my booking system currently uses stripe for payments",
        "the docs are currently hosted on gitbook",
        "our backend currently runs on a single vps",
    ],
)
def test_currently_beside_a_verb_of_lasting_use_is_as_of_now(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) != []


@pytest.mark.parametrize(
    "said",
    ["my phone is currently running slow", "the deploy is currently failing"],
)
def test_a_state_of_the_moment_still_passes(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("southpaw here, always smudging my notes", ("be", "a southpaw")),
        ("paramedic here - night shifts are brutal", ("be", "paramedic")),
    ],
)
def test_a_here_piece_opening_a_message_keys_it(said: str, key: tuple[str, str]) -> None:
    st = analyse(said)
    assert st.first_person and (st.predicate, st.object) == key


def test_a_here_piece_meets_a_rival(store: SQLiteStore) -> None:
    assert outcome(store, "southpaw here, always smudging my notes", "im right handed", 0) == (
        "conflicted",
        "conflict",
    )


@pytest.mark.parametrize(
    "said",
    ["given my tight budget", "Given the state of my knees", "regarding my mortgage"],
)
def test_a_phrase_opened_by_a_prepositional_participle_is_no_statement(
    store: SQLiteStore, said: str
) -> None:
    assert stored(store, said) == []
    assert elided_subject(said) == said


def test_given_before_a_thing_had_is_the_participle(store: SQLiteStore) -> None:
    assert stored(store, "given a bonsai by my uncle last week") != []
    assert elided_subject("given a puppy by my aunt") == "I was given a puppy by my aunt"
