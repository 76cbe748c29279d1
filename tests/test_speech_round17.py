"""Natural speech the write path reads since the seventeenth round (issue 23), through
`Memory.remember` and the conversation extractor (`ingest`), the real parser, the default
embedding model and a SQLite file. Every sentence is invented for the class it stands for.

A contraction typed with a space for its apostrophe ("i don t", "i m", "they re") is read
as spelt and stored as typed. A conversation turn is read as `remember` reads it where
the extractor used to stop short: a habit's amount per unit of time ("i sleep 7 hours a
night"), hours as a range ("i work 8 to 4"), a state said with "no longer" ("im no longer
vegan"), a fear of a named thing ("im afraid of wasps"), how much one does a thing ("i
cook a lot"), where one keeps a thing ("i keep my passport in the desk"), a quotation as
a value. Words said around a claim ("yes, ...", "i actually ...") name no value: the
claim said again with them is the same claim."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store, outcome

from credo.extract.base import Turn
from credo.ingest import ingest
from credo.store.sqlite import SQLiteStore

store = module_store("round17")


def remembered(store: SQLiteStore, said: str) -> list[tuple[str, str | None, str | None, str]]:
    mem = memory(store)
    mem.remember(said, valid_from=T0)
    return [(f.text, f.subject, f.predicate, f.object or "") for f in mem.list()]


def ingested(store: SQLiteStore, said: str) -> list[tuple[str, str | None, str | None, str]]:
    mem = memory(store)
    ingest(mem, [Turn("t1", "user", said, T0)])
    return [(f.text, f.subject, f.predicate, f.object or "") for f in mem.list()]


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i m a welder", ("user", "be", "a welder")),
        ("I can t stand olives", ("user", "not_like", "olives")),
        ("i don t own a tv", ("user", "not_have", "a tv")),
        ("i ve got three ferrets", ("user", "have", "three ferrets")),
    ],
)
def test_a_spaced_contraction_is_read_as_spelt_and_stored_as_typed(
    store: SQLiteStore, said: str, key: tuple[str, str, str]
) -> None:
    facts = remembered(store, said)
    assert [(s, p, o) for _, s, p, o in facts] == [key]
    # the words as typed: never "don't" where the user typed "don t"
    if " t " in said:
        assert facts[0][0] == said


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i sleep 7 hours a night", ("user", "sleep", "7 hours a night")),
        ("I meditate 20 minutes every morning", ("user", "meditate", "20 minutes")),
        ("I work 8 to 4", ("user", "work", "8 to 4")),
        ("I'm no longer vegetarian", ("user", "not_be", "vegetarian")),
        ("I'm afraid of wasps", ("user", "be_afraid_of", "wasps")),
        ("i cook a lot", ("user", "cook", "a lot")),
        (
            "I keep my passport in the desk drawer",
            ("user", "keep", "my passport in the desk drawer"),
        ),
        ("I keep my notes in .notes.md", ("user", "keep", "my notes in .notes.md")),
        ("i don t eat pork", ("user", "not_eat", "pork")),
    ],
)
def test_a_conversation_turn_is_keyed_as_remember_keys_it(
    store: SQLiteStore, said: str, key: tuple[str, str, str]
) -> None:
    by_remember = [(s, p, o) for _, s, p, o in remembered(store, said)]
    by_ingest = [(s, p, o) for _, s, p, o in ingested(store, said)]
    assert by_remember == [key]
    assert key in by_ingest


@pytest.mark.parametrize(
    "said",
    [
        "i keep forgetting my keys",  # "keep" as "go on": nothing kept anywhere
        "i slept 4 hours last night",  # a night, not a habit
        "i'm scared",  # a fear of nothing named is a mood
        "im so scared of the results tomorrow",
    ],
)
def test_what_the_extractor_still_leaves(store: SQLiteStore, said: str) -> None:
    assert ingested(store, said) == []


def test_a_quotation_is_a_value(store: SQLiteStore) -> None:
    said = 'my mantra is "slow is smooth"'
    facts = ingested(store, said)
    assert [t for t, *_ in facts] == ['The user\'s mantra is "slow is smooth"']


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("i actually own four hens", "yes, i have four hens.", 0, ("active", "duplicate")),
        ("honestly i cycle to work", "yep i cycle to work", 30, ("active", "duplicate")),
        # a filler word beside a new value still leaves the value new
        ("i keep four hens", "yeah i keep six hens now", 90, ("superseded", "update")),
    ],
)
def test_words_around_a_claim_name_no_value(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # a change said of "it": what changed, the sentence does not say; nothing ends
        (
            "I've found the cause and reworked the indexes to use partial ones",
            "i have now managed to reduce it by a third",
            20,
            ("active", "new"),
        ),
        (
            "i track my spending in a notebook",
            "i got it down to 40 a week",
            30,
            ("active", "new"),
        ),
    ],
)
def test_a_change_of_it_ends_no_guess(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("said", "key"),
    [
        # a level the speaker is at, said with no "I'm", before a question
        ("down to 71 kilos, whats a sensible protein target", ("user", "be_down_to", "71 kilos")),
        ("on 15mg of mirtazapine, can i drink coffee?", ("user", "be_on", "15mg of mirtazapine")),
        ("up to 9k steps a day now", ("user", "be_up_to", "9k steps a day")),
        ("im back at 90 kilos", ("user", "be_back_at", "90 kilos")),
    ],
)
def test_a_level_said_without_im(store: SQLiteStore, said: str, key: tuple[str, str, str]) -> None:
    assert [(s, p, o) for _, s, p, o in remembered(store, said)] == [key]


@pytest.mark.parametrize(
    "said",
    [
        "in 2 weeks, what should i pack",  # when, not a level
        "at 5pm, whats good for dinner",
        "for 3 years, how much interest would i pay",
    ],
)
def test_a_time_is_no_level(store: SQLiteStore, said: str) -> None:
    assert remembered(store, said) == []


def test_a_level_reached_updates_the_one_before(store: SQLiteStore) -> None:
    assert outcome(store, "i weigh 97kg", "down to 88 kilos! how much protein now", 150) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("said", "key"),
    [
        # an "'s" no noun can own what follows is "is" (or "has"), read so, stored as typed
        (
            "the shop's hosted on squarespace, how do i add a banner?",
            ("shop", "be_hosted_on", "squarespace"),
        ),
        ("the boat's in the marina at hythe", ("boat", "be_in", "the marina")),
        ("my anniversary's the 9th of june", ("user", "has_anniversary", "the 9th of june")),
        ("my nephew's 6", ("user", "has_nephew_old", "6")),
    ],
)
def test_an_s_that_owns_nothing_is_is(
    store: SQLiteStore, said: str, key: tuple[str, str, str]
) -> None:
    facts = remembered(store, said)
    assert [(s, p, o) for _, s, p, o in facts] == [key]
    # the "'s" as typed: "... anniversary's the 9th of june", never "is"
    assert facts[0][0].endswith(said.split(",")[0].split(" ", 1)[1])


def test_an_s_before_a_noun_still_owns_it(store: SQLiteStore) -> None:
    facts = remembered(store, "my brother's renovated kitchen is tiny")
    assert all(p != "be_renovated" for _, _, p, _ in facts)


@pytest.mark.parametrize(
    "said",
    [
        # a wish, a hope: nothing the user is or has
        "i would love to find a flat with a garden",
        "id like to learn the cello",
        "ive always wanted to go to iceland",
        "hiya, hope youre keeping well!",
        "I hope the ferry runs on sunday",
        # how a thing went, told in passing, is a verdict, not a fact
        "the rehearsal was chaotic",
        "that meeting was pointless",
    ],
)
def test_wishes_and_verdicts_are_not_facts(store: SQLiteStore, said: str) -> None:
    assert remembered(store, said) == []


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("my gran was deaf", "The user's gran was deaf"),
        ("the house was built in 1920", "the house was built in 1920"),
        ("i was shy as a kid", "The user was shy as a kid"),
    ],
)
def test_a_past_that_says_who_or_what_stays(store: SQLiteStore, said: str, text: str) -> None:
    assert [t for t, *_ in remembered(store, said)] == [text]


def test_an_id_typed_for_i_d_is_read_as_i_d(store: SQLiteStore) -> None:
    assert [t for t, *_ in remembered(store, "id walked there before")] == [
        "The user had walked there before"
    ]
    assert remembered(store, "id rather walk") == []  # "I'd rather": a wish


@pytest.mark.parametrize(
    "said",
    [
        "idk if i even enjoy the course anymore",  # a hedge, and half a sentence after it
        "not sure whether i still want the allotment",
    ],
)
def test_a_clause_after_if_or_whether_is_no_statement(store: SQLiteStore, said: str) -> None:
    assert remembered(store, said) == []


def test_a_statement_in_parentheses_beside_a_request_is_kept(store: SQLiteStore) -> None:
    said = "draft an email to my choir (we rehearse every thursday) about the concert"
    assert [t for t, *_ in remembered(store, said)] == ["we rehearse every thursday"]


def test_an_s_read_as_is_sets_two_values_of_one_thing_against_each_other(
    store: SQLiteStore,
) -> None:
    assert outcome(
        store, "the boat's the blue one by the gate", "the boat is the red one near the slipway", 0
    ) == ("conflicted", "conflict")


def test_an_adverb_and_its_place_are_one_relation(store: SQLiteStore) -> None:
    # "moved back to ..." names where one lives now, as "moved to ..." does (live_in)
    assert [(s, p, o) for _, s, p, o in remembered(store, "i moved back to hull")] == [
        ("user", "live_in", "hull")
    ]
    assert outcome(store, "i live in york", "i moved back to hull", 100) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("said", "keys"),
    [
        ("neither my brother nor i smoke", [("user", "not_smoke", "")]),
        # "neither ... nor" on the object: no key carries it; stored as said, unkeyed
        ("i like neither gin nor rum", [("user", None, "")]),
    ],
)
def test_neither_and_nor(
    store: SQLiteStore, said: str, keys: list[tuple[str, object, str]]
) -> None:
    assert [(s, p, o) for _, s, p, o in remembered(store, said)] == keys
    if keys[0][1] is not None:
        assert [(s, p, o) for _, s, p, o in ingested(store, said)] == keys


@pytest.mark.parametrize(
    ("said", "key", "text"),
    [
        # an aside between the subject and its verb, read without its commas, kept in the
        # stored words
        ("I, too, collect stamps", ("user", "collect", "stamps"), "The user, too, collects stamps"),
        (
            "My uncle, however, lives in Tromso",
            ("user", "uncle_live_in", "Tromso"),
            "The user's uncle, however, lives in Tromso",
        ),
    ],
)
def test_an_aside_after_the_subject(
    store: SQLiteStore, said: str, key: tuple[str, str, str], text: str
) -> None:
    assert remembered(store, said) == [(text, *key)]
