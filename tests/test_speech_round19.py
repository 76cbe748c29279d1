"""Natural speech the write path reads since the nineteenth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a name whose last word looks plural ("the bahamas") is looked up as typed, not only as
  the lemma the tagger gives it ("bahama"), so a synonym set that holds it is found;
- an amount given again in another spelling of its unit ("30kg" / "33 kilos");
- one of the speaker's own named in a key's relation ("our dog bruno weighs 30kg",
  `dog_bruno_weigh`) and as the subject of the next sentence ("bruno is ...");
- a thing moved off a named place ("moved the backend off render onto railway") ends the
  stored fact of that thing on that place, though that fact is keyed on the thing;
- a change verb's new value after "up to" / "down to" or "onto", and an amount of a
  thing in one unit changed by it ("i take 50mg sertraline" / "put my sertraline up to
  100mg");
- an amount said to have gone "down to" / "up to" a number of a unit ends the one stored
  fact with an amount of that unit; with two such facts, nothing is ended;
- a sentence that names nothing but its amount ("i weigh 80kg") measures what another
  does only when the two read closer than where both name something: a lift's record in
  kilos is no weight;
- the gate: what another person "says" is theirs, not a fact of the user's, as what they
  "think" or "claim" already was; a sentence opened by "if only" is a wish."""

from __future__ import annotations

import pytest
from speech_pairs import DAY, T0, memory, module_store, outcome

from credo.keys import changed_value
from credo.resolver import objects_agree
from credo.store.sqlite import SQLiteStore

store = module_store("round19")


def statuses(store: SQLiteStore, said: list[tuple[str, float]]) -> list[tuple[str, str]]:
    """Remember each (sentence, day) in one scope; every stored sentence and its status."""
    mem = memory(store)
    for text, day in said:
        assert mem.remember(text, valid_from=T0 + day * DAY).accepted, text
    return sorted((f.text, f.status.value) for f in store.all(scope=mem.scope))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("the bahamas", "the bahama islands", True),
        ("motion pictures", "movies", True),
        ("the bahamas", "jamaica", False),
        # a version's "v", how often said as an adverb
        ("vue 3", "vue v3", True),
        ("vue 3", "vue v2", False),
        ("950 a month", "950 monthly", True),
        ("950 a month", "950 weekly", False),
    ],
)
def test_one_value_said_another_way_agrees(a: str, b: str, same: bool) -> None:
    assert objects_agree(a, b) is same


def test_one_place_said_by_another_of_its_names_is_the_same_place(store: SQLiteStore) -> None:
    assert outcome(store, "i grew up in the bahamas", "grew up in the bahama islands", 0) == (
        "active",
        "duplicate",
    )


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("gp put my sertraline up to 100mg", ("put up", "sertraline", "100mg")),
        ("moved the backend onto railway", ("move", "backend", "railway")),
        ("they bumped my hours down to 20 a week", ("bump", "hour", "20")),
        ("the landlord put the rent up to 1010", ("put up", "rent", "1010")),
    ],
)
def test_a_new_value_after_up_to_down_to_or_onto(said: str, expected: tuple[str, ...]) -> None:
    assert changed_value(said) == expected


@pytest.mark.parametrize(
    "said",
    ["put the baby down to nap", "walked up to the corner shop", "moved onto the next topic"],
)
def test_no_value_where_nothing_is_given_one(said: str) -> None:
    assert changed_value(said) is None


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # an amount of a thing, another number in its unit: the dose changed
        (
            "i take 50mg sertraline every day",
            "my doctor put my sertraline up to 100mg",
            40,
            ("superseded", "update"),
        ),
        # the same with the unit spelt apart and a question after it
        (
            "i take 50mg sertraline every day",
            "gp bumped my sertraline up to 75 mg, will i feel worse at first?",
            40,
            ("superseded", "update"),
        ),
        # the speaker's weight down to a number of kilos, the unit spelt otherwise
        ("i weigh 80kg", "down to 76 kilos!", 60, ("superseded", "update")),
        # "down to" says the change itself: the same day is no conflict
        (
            "i cycle 100 miles a week",
            "down to 40 miles a week since the new job",
            0,
            ("superseded", "update"),
        ),
        # a pet of the speaker's named in the relation, then as the subject
        ("our dog bruno weighs 30kg", "bruno is up to 33 kilos now", 90, ("superseded", "update")),
    ],
)
def test_an_amount_said_again_in_its_unit_ends_the_old_one(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


def test_an_amount_that_two_facts_could_hold_ends_neither(store: SQLiteStore) -> None:
    got = statuses(
        store, [("i weigh 80kg", 0), ("my best squat is 120kg", 1), ("down to 76 kilos!", 60)]
    )
    assert [status for _, status in got] == ["active", "active", "active"]


def test_an_amount_of_a_named_thing_does_not_measure_a_bare_amount(store: SQLiteStore) -> None:
    # "i weigh 80kg" names nothing but its amount; a lift's record in kilos is no weight
    assert outcome(store, "i weigh 80kg", "my best squat is 120kg", 30) == ("active", "new")


def test_another_pet_measured_is_not_the_first_one(store: SQLiteStore) -> None:
    got = dict(
        statuses(
            store,
            [
                ("our dog bruno weighs 30kg", 0),
                ("our cat tig weighs 4kg", 1),
                ("tig is up to 5 kilos now", 90),
            ],
        )
    )
    assert got["our dog bruno weighs 30kg"] == "active"
    assert got["our cat tig weighs 4kg"] == "superseded"


def test_another_drug_is_not_the_dose_changed(store: SQLiteStore) -> None:
    got = dict(
        statuses(
            store,
            [
                ("i take 50mg sertraline every day", 0),
                ("i take 5mg of melatonin at night", 1),
                ("my doctor put my sertraline up to 100mg", 40),
            ],
        )
    )
    assert got["The user takes 5mg of melatonin at night"] == "active"
    assert got["The user takes 50mg sertraline every day"] == "superseded"


def test_a_thing_moved_off_a_named_place_ends_it_there(store: SQLiteStore) -> None:
    got = dict(
        statuses(
            store,
            [
                ("the backend is hosted on render", 0),
                ("the blog is hosted on render", 1),
                ("moved the backend off render onto railway last week, now the cron jobs fail", 30),
            ],
        )
    )
    assert got["the backend is hosted on render"] == "superseded"
    assert got["the blog is hosted on render"] == "active"


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("my uncle says crypto is a pyramid scheme haha", "attributed_opinion"),
        ("my flatmate says the landlord is useless", "attributed_opinion"),
        ("if only i could work four days a week", "speculative"),
        ("If only we lived nearer the sea", "speculative"),
    ],
)
def test_what_others_say_and_if_only_are_no_facts(store: SQLiteStore, said: str, code: str) -> None:
    got = memory(store).remember(said, valid_from=T0)
    assert not got.accepted and got.code == code, got.why


@pytest.mark.parametrize(
    "said",
    ["i only eat fish if its fresh", "my kids say goodnight to the cat every night"],
)
def test_only_and_say_elsewhere_leave_a_fact(store: SQLiteStore, said: str) -> None:
    assert memory(store).remember(said, valid_from=T0).accepted
