"""Natural speech the write path reads since the twentieth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a comma inside a list of measures ("a shed of 2 m, 3 m, and ...") goes on with the list:
  the clause after the list is read whole, not cut into a piece that opens with a number;
- "considering" / "given" / "seeing" with a clause of the speaker's after it (with or
  without "that") gives grounds: the clause is a fact, not an intention;
- "never been to japan", "never owned a car": a denial of the past with its "I" (and the
  "have" of a participle) left out is the speaker's, keyed as one, so it flags the report
  it denies; a kind denied ("never played a team sport") is judged by meaning, though the
  report of one of its members is on the same key;
- "i never played cricket" / "i play squash": one verb, another thing named, is no
  denial of the report;
- a total told in the present perfect ("ive read 15 books") does not shrink: a smaller
  one later is no new total;
- "retired from" the place one works ends that work, and is never its paraphrase;
- one studies at one place at a time: another named is a rival;
- handedness is a state one is born into, and "left" in "left handed" is no change said;
- one amount in two systems of units ("180 lbs" / "82 kg", "5 foot 10" / "178cm") is
  one claim, and another amount in the other system a new value."""

from __future__ import annotations

import pytest
from speech_pairs import DAY, T0, memory, module_store, outcome, stored

from credo.extract.rules import split_clauses
from credo.keys import analyse, elided_subject
from credo.store.sqlite import SQLiteStore
from credo.values import quantities, same_amount

store = module_store("round20")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "can you check my maths for a room of 3 m, 4 m, 2.5 m, and we've already "
            "bought 12 litres of paint, so how many coats is that",
            "we've already bought 12 litres of paint",
        ),
        (
            "plan me a drive past three towns, york, leeds, hull, and i've already booked "
            "the hotel in york",
            "The user has already booked the hotel in york",
        ),
    ],
)
def test_a_list_after_a_comma_goes_on_and_the_clause_after_it_is_whole(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert kept in stored(store, said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("what should i cook tonight, considering i've been vegan since may", "vegan"),
        ("any tips for sleeping in the day considering that i work nights", "works nights"),
        ("which car would suit us considering we have three kids", "three kids"),
        (
            "help me plan the week, considering i've never driven on the motorway",
            "never driven on the motorway",
        ),
    ],
)
def test_a_clause_given_as_grounds_after_considering_is_a_fact(
    store: SQLiteStore, said: str, kept: str
) -> None:
    facts = stored(store, said)
    assert any(kept in f for f in facts), facts


@pytest.mark.parametrize(
    "said", ["im considering moving to berlin", "considering my options for a new job"]
)
def test_considering_a_plan_is_still_no_fact(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("never been to japan", "I've never been to japan"),
        ("never owned a car", "I've never owned a car"),
        ("never went to university", "I never went to university"),
    ],
)
def test_a_denial_of_the_past_with_no_subject_is_the_speakers(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i went to japan in 2019", "never been to japan"),
        ("i had a car at uni", "never owned a car"),
        ("i played hockey at school", "never played a team sport"),
    ],
)
def test_a_subjectless_never_flags_the_report_it_denies(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 30) == ("conflicted", "conflict")


def test_never_eaten_before_a_question_is_told(store: SQLiteStore) -> None:
    facts = stored(store, "never eaten sushi, is it safe when pregnant")
    assert facts == ["The user has never eaten sushi"]


@pytest.mark.parametrize(
    ("first", "then"),
    [("i play squash", "i never played cricket"), ("i play the cello", "ive never played golf")],
)
def test_one_verb_and_another_thing_named_is_no_denial(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 30) == ("active", "new")


def test_a_denial_keyed_as_the_speakers_is_listed_with_its_key(store: SQLiteStore) -> None:
    mem = memory(store)
    mem.remember("never been to lisbon")
    (fact,) = mem.list()
    assert fact.subject == "user" and fact.predicate and fact.predicate.startswith("not_")


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        # a total told in the present perfect grows: a larger one later is the new total
        ("ive visited 20 countries", "ive visited 23 countries", ("superseded", "update")),
        # a smaller one later is no new total: both kept, flagged on one key
        ("ive read 15 books this year", "ive read 12 books this year", ("conflicted", "conflict")),
        # ... and kept apart where they measure other lots
        (
            "i've finished 15 puzzles with 95% of them right",
            "i have finished 12 puzzles",
            ("active", "new"),
        ),
        # what one holds may shrink: "have" is no running total
        ("i have 3 bikes", "i have 2 bikes", ("superseded", "update")),
    ],
)
def test_a_running_total_does_not_shrink(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, 40) == expected


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        # retired from the place one worked: the work there ended (never its paraphrase)
        (
            "i work at the tax office in the audit team",
            "im retired from the tax office",
            ("superseded", "update"),
        ),
        ("i work for acme", "I'm retired from acme now.", ("superseded", "update")),
        # retired from somewhere else: the work one holds stands
        ("i work at a bakery", "im retired from the navy", ("active", "new")),
    ],
)
def test_retired_from_where_one_works_ends_that_work(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, 400) == expected


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # one studies at one place at a time: another named the same day is a rival ...
        (
            "im a student at exeter",
            "i'm a student at bath spa university",
            0,
            ("conflicted", "conflict"),
        ),
        # ... and a year on, a change
        (
            "im a student at exeter",
            "im a student at cardiff uni now",
            365,
            ("superseded", "update"),
        ),
        # the same place said more fully is no rival; "also" is one more
        (
            "im a student at exeter",
            "im a student at the university of exeter",
            0,
            ("superseded", "refinement"),
        ),
        (
            "im a student at exeter",
            "im also a student at the open university",
            0,
            ("active", "new"),
        ),
    ],
)
def test_a_place_of_study_named_anew(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize("gap", [0, 30])
@pytest.mark.parametrize(
    ("first", "then"),
    [("im right handed", "im left handed"), ("i'm left-handed", "I am right handed")],
)
def test_handedness_is_born_into_and_never_updated(
    store: SQLiteStore, first: str, then: str, gap: float
) -> None:
    # "left" in "left handed" says no one left anything: no change said, no update
    assert outcome(store, first, then, gap) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("180 lbs", "about 82 kg", True),
        ("5 foot 10", "178cm tall", True),
        ("6ft 2in", "188cm", True),
        ("12 stone 4", "78 kilos", True),
        ("5 miles", "8km", True),
        ("180 lbs", "75 kg", False),
        ("5 foot 10", "190cm", False),
        ("5 miles", "5 minutes", False),
        ("80kg", "80 kg of flour", False),
    ],
)
def test_one_amount_in_two_systems_of_units(a: str, b: str, same: bool) -> None:
    assert same_amount(a, b) is same


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("i weigh 180 lbs", "i weigh about 82 kg", 20, ("active", "duplicate")),
        ("im 5 foot 10", "im 178cm tall", 20, ("active", "duplicate")),
        ("i weigh 12 stone 4", "i weigh 78 kilos", 20, ("active", "duplicate")),
        # another amount in the other system: a change a season on, a rival the same day
        ("i weigh 180 lbs", "i weigh 75 kg now", 90, ("superseded", "update")),
        ("i weigh 180 lbs", "i weigh 75 kg", 0, ("conflicted", "conflict")),
    ],
)
def test_a_measure_said_in_other_units(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        # how often, typed "3x": the same number as "three times"
        ("i swim three times a week", "i go for a swim 3x a week", ("active", "duplicate")),
        ("i swim three times a week", "i go for a swim 4x a week", ("superseded", "update")),
    ],
)
def test_how_often_typed_with_an_x_is_the_number_said(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, 5) == expected


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("i play hockey weekly", "hockey"),
        ("we order pizza monthly", "pizza"),
        ("I attend Mass daily.", "Mass"),
    ],
)
def test_how_often_in_one_word_is_no_part_of_the_thing(said: str, thing: str) -> None:
    assert analyse(said).object == thing


def test_how_often_added_is_said_more_fully_not_the_same_words(store: SQLiteStore) -> None:
    assert outcome(store, "I attend mass.", "I attend Mass daily.", 14) == (
        "superseded",
        "refinement",
    )
    # words of "now" add nothing: the same life, said again
    assert outcome(store, "i work from home", "i work from home these days", 30) == (
        "active",
        "duplicate",
    )


@pytest.mark.parametrize(
    ("said", "statuses_after"),
    [
        # the one thing held at a version, its name left out of the upgrade
        (["i have an iphone 12", "upgraded to the 15 pro"], ["superseded", "active"]),
        # two such things: which one is not said, so neither ends
        (
            ["i have an iphone 12", "we run node 18", "upgraded to the 15 pro"],
            ["active", "active", "active"],
        ),
    ],
)
def test_an_upgrade_with_no_name_changes_the_one_thing_held_at_a_version(
    store: SQLiteStore, said: list[str], statuses_after: list[str]
) -> None:
    mem = memory(store)
    ids = []
    for n, text in enumerate(said):
        result = mem.remember(text, valid_from=T0 + n * 100 * DAY)
        assert result.fact is not None, text
        ids.append(result.fact.id)
    got = [store.get(i, scope=mem.scope) for i in ids]
    assert [f.status.value for f in got if f] == statuses_after


@pytest.mark.parametrize(
    "said",
    [
        "Always include the units when I ask about a recipe.",
        "always answer in spanish when i write in spanish",
    ],
)
def test_a_standing_instruction_with_the_speaker_asking_is_no_fact(
    store: SQLiteStore, said: str
) -> None:
    # the verb with no subject is asked of the listener: the speaker is who asks
    assert stored(store, said) == []


def test_code_pasted_in_a_message_is_no_speech() -> None:
    text = (
        "here's my test file:\n```js\nconst n = 1;\n// i use tabs\n```\n"
        "I've run the suite on my laptop. I use vitest 2 for the frontend."
    )
    got = split_clauses(text)
    assert "I use vitest 2 for the frontend." in got
    assert not any("```" in c or "const" in c or "tabs" in c for c in got)
    # a message cut inside its code block keeps the words before it
    assert split_clauses("my config is below\n```yaml\nport: 80") == ["My config is below"]


def test_a_count_counts_the_noun_its_words_name() -> None:
    # "12 sorting problems" counts problems, not "sorting"; a unit typed apart stays one
    assert [q.unit for q in quantities("i solved 12 algebra problems")] == ["problem"]
    assert [q.unit for q in quantities("i take 20 mg citalopram")] == ["mg"]


def test_another_kind_of_the_counted_thing_is_no_remeasure(store: SQLiteStore) -> None:
    # the kind said in one and not the other, and two more words: other problems
    assert outcome(
        store,
        "i recently finished 12 algebra problems with a steady accuracy rate above 70%",
        "ive finished 12 problems with 90% accuracy",
        20,
    ) == ("active", "new")


def test_hours_of_one_kind_are_a_measure_of_their_own() -> None:
    # "mixing hours" and "recording hours" are two measures: the kind names the unit
    assert [q.unit for q in quantities("we spent 9 mixing hours on the album")] == ["mixing"]


def test_a_height_in_feet_is_no_thing_held_at_a_version(store: SQLiteStore) -> None:
    # "5 foot 10" reads like a name and a number ("pixel 6"): a unit is no thing's name
    assert outcome(store, "im 5 foot 10", "upgraded to the 15 pro", 10) == ("active", "new")
