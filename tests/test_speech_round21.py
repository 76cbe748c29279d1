"""Natural speech the write path reads since the twenty-first round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a statement that opens with "been" has left its "I've" out ("been vegan for six
  years"): the speaker's, keyed as theirs;
- a negation no command opens with ("didnt", "havent") and "dont" before a verb of one's
  own life have left their "I" out; "dont" before any other verb is a command;
- an adverb of habit before a verb in its base form ("usually cycle to work") has left
  its "I" out: a habit of the speaker's, not a command;
- "didn't" with no time said denies the past as "never" does ("i didn't go to uni"
  against "i went to uni in leeds" is a clash at any gap); one occasion denied ("didn't go
  to the gym yesterday") is no habit denied."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, outcome, stored

from credo.keys import analyse, elided_subject
from credo.store.sqlite import SQLiteStore

store = module_store("round21")


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("been vegan for six years now", "I've been vegan for six years now"),
        ("been at the same firm since 2016", "I've been at the same firm since 2016"),
        ("been learning welsh on and off", "I've been learning welsh on and off"),
        ("Been a nurse for a decade", "I've been a nurse for a decade"),
    ],
)
def test_been_with_no_subject_has_left_its_ive_out(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("didnt go to uni, went straight into work", "I didnt go to uni, went straight into work"),
        ("havent had a drink since march", "I havent had a drink since march"),
        ("dont own a car", "I dont own a car"),
        ("don't have any pets", "I don't have any pets"),
    ],
)
def test_a_negation_no_command_opens_with_is_the_speakers(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "dont use bullet points in your answers",
        "don't mention the budget in the summary",
        "never say that again",
    ],
)
def test_dont_before_any_other_verb_stays_a_command(store: SQLiteStore, said: str) -> None:
    assert elided_subject(said) == said
    assert stored(store, said) == []


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("usually cycle to work unless it rains", "I usually cycle to work unless it rains"),
        ("normally get up at 6 on weekdays", "I normally get up at 6 on weekdays"),
        ("mostly eat vegetarian at home", "I mostly eat vegetarian at home"),
        ("sometimes play bass in a covers band", "I sometimes play bass in a covers band"),
    ],
)
def test_a_habit_with_no_subject_is_the_speakers(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    "said",
    ["always answer in french", "just give me the short version", "also add a summary"],
)
def test_an_adverb_of_command_keeps_the_command(said: str) -> None:
    assert elided_subject(said) == said


def test_a_subjectless_statement_is_keyed_as_the_speakers() -> None:
    for said in ("been vegan for six years now", "havent had a drink since march"):
        read = analyse(said)
        assert read.subject is not None and read.predicate, (said, read)


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # refused as a command before: read as the speaker's, it relates
        ("i have a car", "dont own a car", 30, ("superseded", "update")),
        ("i have two cats", "dont have any pets", 0, ("conflicted", "conflict")),
        # "didn't" denies the past as "never" does: a clash at any gap, never an update
        ("i went to uni in leeds", "didnt go to uni", 30, ("conflicted", "conflict")),
        ("i went to uni in leeds", "i didn't go to university", 400, ("conflicted", "conflict")),
        # one occasion denied is no habit denied
        (
            "i swim at the lido most mornings",
            "i didnt swim at the lido yesterday",
            30,
            ("active", "new"),
        ),
    ],
)
def test_a_subjectless_statement_relates_to_the_claim_it_meets(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("i hate tacos", "tacos"),
        ("we just had the 12 week scan", "12 week scan"),
    ],
)
def test_a_sentence_typed_without_a_full_stop_keeps_its_last_word(said: str, thing: str) -> None:
    """The parser may read the last word of a sentence typed with no full stop as the
    stop itself; read with one typed, the word is the object it is."""
    read = analyse(said)
    assert read.object is not None and thing in read.object, read


def test_a_dislike_typed_without_a_full_stop_flags_the_liking(store: SQLiteStore) -> None:
    assert outcome(store, "i love tacos and nachos", "i hate tacos", 0) == (
        "conflicted",
        "conflict",
    )


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # the one thing of ours at a version of that name, whatever the thing is called
        (
            "the staging box runs mysql 8.0",
            "we're on mysql 5.7 on staging",
            0,
            ("conflicted", "conflict"),
        ),
        (
            "the site targets php 7.4",
            "bumped the repo to php 8.3 last month",
            20,
            ("superseded", "update"),
        ),
        # another thing named as the subject is another thing
        ("my laptop has python 3.9", "the build server runs python 3.12", 30, ("active", "new")),
    ],
)
def test_a_version_said_by_us_meets_the_one_thing_held_at_a_version(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


def test_of_two_things_at_a_version_of_one_name_neither_is_meant(store: SQLiteStore) -> None:
    from speech_pairs import T0, memory

    mem = memory(store)
    mem.remember("the api runs python 3.11", valid_from=T0)
    mem.remember("the worker runs python 3.9", valid_from=T0)
    mem.remember("we bumped it to python 3.12", valid_from=T0 + 10 * 86400)
    assert len(mem.list()) == 3


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("the instrument i play is the bassoon", ("play", "the bassoon")),
        ("the company i work for is acme", ("work_for", "acme")),
        ("the language im learning is welsh", ("learn", "welsh")),
    ],
)
def test_a_thing_named_by_what_the_speaker_does_to_it_is_keyed_as_that(
    said: str, key: tuple[str, str]
) -> None:
    read = analyse(said)
    assert (read.predicate, read.object) == key, read


def test_a_relative_clause_of_why_or_when_is_no_object() -> None:
    read = analyse("the reason i moved is the job")
    assert read.predicate != "move"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i work at a bank", "the bank i work for is hsbc"),
        ("i'm learning a language", "the language im learning is welsh"),
        ("i play an instrument", "the instrument i play is the bassoon"),
    ],
)
def test_naming_the_thing_one_does_it_to_refines(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 10) == ("superseded", "refinement")


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we're on react 16", "react 16"),
        ("we're on rails 7", "rails 7"),
        ("the api uses react v19", "react v19"),
    ],
)
def test_a_lower_case_name_keeps_its_version(said: str, value: str) -> None:
    """The parser may hang a version on the verb, or read the name before it as a verb;
    read as the name it is, the version is the name's."""
    assert analyse(said).object == value


@pytest.mark.parametrize(
    ("said", "value"),
    [("i ran 5 miles today", "5 miles"), ("i weigh 80 kg", "80 kg"), ("i have 2 kids", "2 kids")],
)
def test_a_number_that_counts_is_no_version(said: str, value: str) -> None:
    assert analyse(said).object == value


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("we're on rails 7", "we use rails v7", ("active", "duplicate")),
        ("the api uses react v19", "we're on react 19", ("active", "duplicate")),
        ("i have a pixel 7", "i use a pixel 7 for work", ("active", "new")),  # says more
    ],
)
def test_the_same_version_held_again_is_a_duplicate(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, 10) == expected


@pytest.mark.parametrize(
    "said",
    [
        "im currently in law school",
        "currently in the navy, posted in plymouth",
        "i'm in a choir at the moment",
        "my brother is currently divorced",
        "i'm currently in a relationship",
    ],
)
def test_a_membership_or_a_status_as_of_now_is_no_passing_state(
    store: SQLiteStore, said: str
) -> None:
    assert stored(store, said), said


@pytest.mark.parametrize(
    "said",
    ["i'm currently in a seminar", "im currently in hospital", "currently in paris for work"],
)
def test_a_gathering_or_a_place_as_of_now_still_passes(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


def test_in_a_relationship_excludes_single(store: SQLiteStore) -> None:
    assert outcome(store, "im single", "im in a relationship", 0) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # a state said in another of its ways is the same state
        ("im left handed", "im a southpaw", 20, ("active", "duplicate")),
        ("im a righty", "im right-handed", 20, ("active", "duplicate")),
        # and a rival of the group in any of its ways is a rival, at any gap
        (
            "im right handed",
            "as a leftie, which tin opener should i get",
            0,
            ("conflicted", "conflict"),
        ),
        ("im a lefty", "im right handed", 200, ("conflicted", "conflict")),
    ],
)
def test_a_state_in_another_of_its_ways(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # where a thing runs, lives or is hosted moves with it
        (
            "my portfolio site runs on a hetzner box",
            "moved the portfolio site onto vercel",
            40,
            ("superseded", "update"),
        ),
        (
            "my wiki lives on a pi in the loft",
            "i moved the wiki to a cheap vps",
            40,
            ("superseded", "update"),
        ),
        ("my wiki lives on a pi in the loft", "i moved my photos to a nas", 40, ("active", "new")),
        # a model's name is a name ("the s9"), a count is none
        ("my tablet is a galaxy tab s7", "sold the s7 to my cousin", 90, ("superseded", "update")),
        (
            "my laptop is a thinkpad x1",
            "finally retired the x1, it was dying",
            90,
            ("superseded", "update"),
        ),
        # "retired from" the place one works, said with the verb
        (
            "i work at the council",
            "i retired from the council in june",
            200,
            ("superseded", "update"),
        ),
        # a doing ended with nothing of its own ends the habit, whatever its amount
        (
            "i cycle 100 miles a week",
            "i stopped cycling after the crash",
            90,
            ("superseded", "update"),
        ),
        (
            "i cycle 100 miles a week",
            "no longer cycling since the crash",
            90,
            ("superseded", "update"),
        ),
        ("i cycle 100 miles a week", "i stopped swimming after the crash", 90, ("active", "new")),
    ],
)
def test_an_ending_or_a_move_said_of_what_is_held(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("no longer cycling since the crash", "I'm no longer cycling since the crash"),
        ("no longer work weekends", "I no longer work weekends"),
        ("no longer on facebook", "I'm no longer on facebook"),
    ],
)
def test_no_longer_with_no_subject_is_the_speakers(said: str, read: str) -> None:
    assert elided_subject(said) == read


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i have a shellfish allergy", ("be_allergic_to", "shellfish")),
        ("bad cashew allergy here", ("be_allergic_to", "cashew")),
        ("i have a lactose intolerance", ("be_intolerant_to", "lactose")),
        ("im a mum of two", ("have", "two kids")),
    ],
)
def test_an_allergy_or_a_count_of_children_is_keyed_the_plain_way(
    said: str, key: tuple[str, str]
) -> None:
    read = analyse(said)
    assert (read.predicate, read.object) == key


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("im allergic to shellfish", "i have a shellfish allergy", 20, ("active", "duplicate")),
        ("i have 2 kids", "im a dad of three", 0, ("conflicted", "conflict")),
    ],
)
def test_the_plain_key_meets_the_claim(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    "said", ["oh, i am sorry", "im ok", "i feel fine", "i am great lol", "we're good thanks"]
)
def test_how_one_is_in_a_bare_word_is_a_mood(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("im good at chess", "good at chess"),
        ("i am fine with night shifts", "fine with night shifts"),
        ("i am a great cook", "great cook"),
    ],
)
def test_more_after_the_word_is_no_mood(store: SQLiteStore, said: str, kept: str) -> None:
    assert any(kept in f for f in stored(store, said))
