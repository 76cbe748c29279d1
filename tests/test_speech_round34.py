"""Chat the write path reads since the thirty-fourth round (issue 23): a liking said as
being a fan or being into a thing, and who the speaker is said with no verb at all.

"im a big fan of jazz", "not a fan of horror films", "a lifelong fan of the giants": a fan
of a thing likes it (`be_fan_of`, a way of saying `like` in the predicate catalogue), so
that "i love horror films" then "im not a fan of horror films" is one liking ended, and
"i love horror films" then "im a huge fan of horror films" or "i love jazz" then "im a
massive jazz fan" is the same liking said again (how big a fan is its degree, lexicon
"fan_degrees", not more of what is liked). "not really into football" after "i love
football" is the liking denied: "into" is the word "be_into" says it with,
not a part of football that the denial would leave out.

"huge arsenal fan", "total night owl", "never a morning person", "not a fan of horror
films", "not really into football": a message that only describes the speaker, its "I'm"
left out, as people type it. It is keyed as the statement it makes ("I am a huge arsenal
fan") and stored in the words said (it was stored with no key, so nothing said later could
bear on it). "not a problem", "great weather today", "my plumber" say nothing of who the
speaker is.

Every sentence is invented for the class it stands for; every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file).
"""

from __future__ import annotations

import pytest
from speech_pairs import ingested, memory, module_store, outcome, remembered

store = module_store("round34")


# -- a fan of a thing likes it -------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("im a big fan of jazz", ("like", "jazz")),
        ("I'm a lifelong fan of the Giants", ("like", "the Giants")),
        ("i'm not a fan of horror films", ("not_like", "horror films")),
        ("im not a huge fan of spicy food tbh", ("not_like", "spicy food")),
        # the thing before "fan", how big a fan before it
        ("im a massive taylor swift fan", ("like", "taylor swift")),
        ("Im a lifelong Tolkien fan", ("like", "Tolkien")),
        # a fan of nothing named is who the speaker is, no liking
        ("im a big fan", ("be", "a big fan")),
    ],
)
def test_a_fan_of_a_thing_likes_it(store, said: str, key: tuple[str, str]) -> None:
    [(_, predicate, obj)] = remembered(store, said)
    assert (predicate, obj) == key


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # a liking ended, said as no longer being a fan, or not being into it
        (
            "i love horror films",
            "im not a fan of horror films anymore",
            200,
            ("superseded", "update"),
        ),
        (
            "i love football",
            "im not really into football these days",
            200,
            ("superseded", "update"),
        ),
        ("i really enjoy opera", "i'm not into opera", 200, ("superseded", "update")),
        # the same liking said again, however big a fan
        ("i love horror films", "im a huge fan of horror films", 30, ("active", "duplicate")),
        ("i like board games", "big fan of board games", 30, ("active", "duplicate")),
        ("i love jazz", "im a huge jazz fan", 30, ("active", "duplicate")),
        # a liking of another thing stays beside it
        ("i like thai food", "im not a fan of spicy food", 30, ("active", "new")),
    ],
)
def test_a_fan_bears_on_the_liking(
    store, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


# -- who the speaker is, said with no verb ---------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("huge arsenal fan", ("like", "arsenal")),
        ("total night owl", ("be", "a total night owl")),
        ("never a morning person", ("not_be", "a morning person")),
        ("not a morning person at all", ("not_be", "a morning person")),
        ("lifelong vegetarian", ("be", "a lifelong vegetarian")),
        ("big fan of horror films", ("like", "horror films")),
        ("not really into football", ("not_like", "football")),
        ("Massive coffee snob.", ("be", "a Massive coffee snob")),
    ],
)
def test_who_the_speaker_is_said_without_a_verb_is_keyed(
    store, said: str, key: tuple[str, str]
) -> None:
    [(text, predicate, obj)] = remembered(store, said)
    assert text == said  # stored in the words said
    assert (predicate, obj) == key


@pytest.mark.parametrize(
    "said", ["not a problem", "great weather in leeds", "no worries at all", "any tips"]
)
def test_a_verbless_piece_of_no_one_is_not_who_the_speaker_is(store, said: str) -> None:
    mem = memory(store)
    mem.remember(said)
    assert all(f.predicate is None for f in mem.list())


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("im a night owl", "total night owl", 30, ("active", "duplicate")),
        ("i love horror films", "not a fan of horror films", 300, ("superseded", "update")),
        ("i love football", "not really into football", 300, ("superseded", "update")),
    ],
)
def test_a_verbless_description_bears_on_what_was_said(
    store, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


# -- a hedge said beside a clause hedges it --------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "i love sushi, i think",
        "im a night owl, i guess",
        "i live in leeds, probably",
        "i work at kpmg, i believe",
        "i think, my landlord is called derek",
        "not a fan of sushi, i think",
    ],
)
def test_a_hedge_beside_a_clause_is_said_of_it(store, said: str) -> None:
    # it was cut off and the clause stored as if asserted, the hedge dropped
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "hedged"
    assert mem.list() == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a hedge that says a clause of its own leaves the other one
        ("i live in leeds, i think my sister does too", "The user lives in leeds"),
        ("i love sushi, i think its great", "The user loves sushi"),
    ],
)
def test_a_hedged_clause_of_its_own_leaves_the_other(store, said: str, kept: str) -> None:
    assert [text for text, _, _ in remembered(store, said)] == [kept]


@pytest.mark.parametrize("said", ["...", "not .", "never!!", "- -"])
def test_punctuation_alone_is_no_description(store, said: str) -> None:
    # a message of dots after a denial word or alone: read, never an error
    mem = memory(store)
    mem.remember(said)
    assert all(f.predicate is None for f in mem.list())


# -- "am", "was", "have been" with the "I" left out ----------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("was diagnosed with asthma as a kid", ("be_diagnosed_with", "asthma")),
        ("was born in leeds", ("be_born_in", "leeds")),
        ("am allergic to nuts", ("be_allergic_to", "nuts")),
        ("am a nurse", ("be", "a nurse")),
        ("have been vegan for 6 years", ("be", "vegan for 6 years")),
        ("Was married for 10 years", ("be_married_for", "10 years")),
    ],
)
def test_an_auxiliary_with_the_i_left_out_is_the_speakers(
    store, said: str, key: tuple[str, str]
) -> None:
    [(text, predicate, obj)] = remembered(store, said)
    assert text.startswith("The user ")
    assert (predicate, obj) == key


@pytest.mark.parametrize(
    "said",
    [
        "has been a rough year",  # "it has": not the speaker
        "have a look at my garden",  # "have" the verb itself, a request
    ],
)
def test_no_i_is_put_before_what_is_not_the_speakers(store, said: str) -> None:
    assert not any(text.startswith("The user") for text, _, _ in remembered(store, said))


def test_the_conversation_extractor_puts_the_i_back_too() -> None:
    assert ingested("was born in leeds", "The user") == [
        ("The user was born in leeds", "be_born_in", "leeds")
    ]


# -- a place typed in lower case by a writer who capitalises "I" -----------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("I live in paris", ("live_in", "paris")),
        ("I have been living in oslo for years", ("live_in", "oslo")),
        # where, described rather than named, stays off the one-valued slot
        ("I live in the suburbs", ("live", "in the suburbs")),
        ("I live in an apartment", ("live", "in an apartment")),
    ],
)
def test_a_place_the_gazetteer_knows_is_named_in_any_case(
    store, said: str, key: tuple[str, str]
) -> None:
    [(_, predicate, obj)] = remembered(store, said)
    assert (predicate, obj) == key


def test_a_move_from_a_lower_case_place_is_an_update(store) -> None:
    assert outcome(store, "I live in paris", "I live in lyon", 200) == (
        "superseded",
        "update",
    )
