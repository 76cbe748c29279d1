"""Chat the write path reads since the thirty-seventh round (issue 23): words typed short,
a kind said beside its value, how often said two ways, and facts told beside a question
typed without its punctuation.

- "im a swe" / "im a software engineer", "based in manc" / "i live in manchester": a word
  English does not have, typed as a shortening of words the other sentence says (each
  word's first letter and maybe more of its letters, in order), is those words. Two
  letters never shorten one word ("ny" is no "norway").
- "cello's my instrument" / "i play the cello": a word naming the kind of thing a value
  is, said beside the value, names nothing else (WordNet's hypernyms); "i play an
  instrument" / "i play the cello" still says more.
- "i cycle 4 times a week" / "... four days a week": "times" and "days" of how often.
- "i have type 2 diabetes": "have" read as an auxiliary of a noun root ("type") is the verb.
- "since im diabetic can i eat bananas", "as a vegan where do i get b12 from", "what
  should i cook tonight im vegetarian": the fact told is stored, not the question, though
  no comma or "?" was typed; a clause the question asks about stays in it ("how do i know
  im pregnant", "what do i do if i miss a dose").

Every sentence is invented for the class it stands for; every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file).
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome, remembered

from credo.values import spelt_out

store = module_store("round37")


# -- words typed short ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("short", "long", "expected"),
    [
        ("im a swe", "im a software engineer", ["software", "engineer"]),
        ("based in manc", "i live in manchester", ["manchester"]),
        ("we're in akl", "we live in auckland", ["auckland"]),
        ("as a t1 diabetic", "i have type 1 diabetes", ["type", "1"]),
        ("dentist appt", "my dentist appointment", ["appointment"]),
        # initials, as before
        ("i live in la", "i live in los angeles", ["los", "angeles"]),
    ],
)
def test_a_shortened_word_stands_for_the_words_it_shortens(short, long, expected) -> None:
    assert any(run == expected for _, run in spelt_out(short, long)), spelt_out(short, long)


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("i live in ny", "i live in norway"),  # two letters of one word
        ("i use aws", "i use azure"),
        ("i drive a bmw", "i drive a buick"),
        ("i play the cello", "i play the cellos"),  # an English word shortens nothing
    ],
)
def test_a_word_that_shortens_nothing_said(short, long) -> None:
    assert spelt_out(short, long) == []


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("im a pm", "im a product manager", ("active", "duplicate")),
        ("im a swe", "im a software engineer", ("active", "duplicate")),
        ("i live in liverpool", "based in lpool", ("active", "duplicate")),
        # a rival value stays one
        ("i live in norway", "i live in ny", ("superseded", "update")),
    ],
)
def test_a_claim_said_again_in_short(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 30) == expected


# -- a kind said beside its value -------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i play the cello", "cello's my instrument", ("active", "duplicate")),
        # the kind alone, then the value: said more fully
        ("i play an instrument", "i play the cello", ("superseded", "refinement")),
    ],
)
def test_a_kind_said_beside_its_value(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 30) == expected


# -- how often, said two ways -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i swim 3 times a week", "i swim three days a week", ("active", "duplicate")),
        # another number is another claim
        ("i swim 3 times a week", "i swim five days a week", ("active", "new")),
    ],
)
def test_times_and_days_a_week(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 30) == expected


# -- "have" read as an auxiliary --------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i have type 2 diabetes", ("have", "type 2 diabetes")),
        ("my dad has type 1 diabetes", ("father_have", "type 1 diabetes")),
        # a participle after "have" stays the verb
        ("i have read that book", ("read", "that book")),
    ],
)
def test_have_before_a_noun_root_is_the_verb(store, said: str, key) -> None:
    [(_, predicate, obj)] = remembered(store, said)
    assert (predicate, obj) == key


# -- facts told beside a question, unpunctuated -----------------------------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("since im diabetic can i eat bananas", "The user is diabetic"),
        ("as a vegan where do i get b12 from", "The user is a vegan"),
        ("im allergic to penicillin can i take amoxicillin", "The user is allergic to penicillin"),
        ("i have a golden retriever will she be ok in the heat", "The user has a golden retriever"),
        ("what should i cook tonight im vegetarian", "The user is vegetarian"),
        ("is it worth upgrading my phone i have an iphone 11", "The user has an iphone 11"),
        (
            "where should we go on holiday we have a toddler and a dog",
            "we have a toddler and a dog",
        ),
        ("recommend me a podcast i like true crime", "The user likes true crime"),
    ],
)
def test_the_fact_beside_an_unpunctuated_question_is_kept(store, said: str, kept: str) -> None:
    assert [text for text, _, _ in remembered(store, said)] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "how do i know im pregnant",
        "what do i do if i miss a dose",
        "what should i wear when i go to the interview",
        "recommend a podcast i would like",
        "where did i put my keys",
    ],
)
def test_a_question_about_a_clause_stays_a_question(store, said: str) -> None:
    result = memory(store).remember(said)
    assert not result.accepted and result.code in ("question", "instruction"), result.why


# -- in a place, said plainly ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("im in leeds", ("live_in", "leeds")),
        ("i'm in walthamstow, east london", ("live_in", "walthamstow, east london")),
        ("im in leeds now", ("live_in", "leeds")),
        # a stay, or no place named: as said
        ("i'm in london for work", ("be_in", "london")),
        ("im in hospital", ("be_in", "hospital")),
    ],
)
def test_in_a_named_place_is_where_one_lives(store, said: str, key) -> None:
    [(_, predicate, obj)] = remembered(store, said)
    assert (predicate, obj) == key


def test_in_a_place_within_where_one_lives_refines_it(store) -> None:
    assert outcome(store, "i live in london", "i'm in walthamstow, east london", 20) == (
        "superseded",
        "refinement",
    )


# -- statements run on with no punctuation ----------------------------------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "i live in leeds i work at the hospital",
            ["The user lives in leeds", "The user works at the hospital"],
        ),
        ("im 34 i have two kids", ["The user is 34", "The user has two kids"]),
        (
            "my sister lives in york my brother lives in hull",
            ["The user's sister lives in york", "The user's brother lives in hull"],
        ),
    ],
)
def test_statements_run_on_are_read_apart(store, said: str, kept: list[str]) -> None:
    assert sorted(text for text, _, _ in remembered(store, said)) == sorted(kept)


@pytest.mark.parametrize(
    "said",
    [
        "i hope we win",  # what the first clause says, not a statement of its own
        "i know i should exercise more",
        "the house i grew up in was tiny",  # a clause that says which house
    ],
)
def test_a_clause_inside_a_statement_is_not_read_apart(store, said: str) -> None:
    assert len(remembered(store, said)) <= 1


# -- a question joined on, a request typed short, a "?" inside ---------------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # "so" and a question: the statement alone, no "so" left hanging
        (
            "im allergic to latex so what gloves do nurses use instead",
            ["The user is allergic to latex"],
        ),
        ("we rent so what can we change in the flat", ["we rent"]),
        # "can u": a request, its statement kept
        ("can u recommend a good vet, we have two cats", ["we have two cats"]),
        # an adverb between the thing asked of and its verb
        (
            "which laptop really works best for music production, i use ableton",
            ["The user uses ableton"],
        ),
        # a "?" typed inside the text ends what asks
        (
            "best way to learn to ski as an adult? im scared of heights",
            ["The user is scared of heights"],
        ),
        ("whats your favourite season? mine is autumn", ["The user's favourite season is autumn"]),
    ],
)
def test_the_statement_beside_a_question_alone(store, said: str, kept: list[str]) -> None:
    assert [text for text, _, _ in remembered(store, said)] == kept


@pytest.mark.parametrize(
    "said",
    [
        # the question's own "i" is the asker's, not a statement
        "how do i stop my puppy from chewing the sofa",
        "how do i get my kids to sleep earlier",
        "i think so",
    ],
)
def test_a_question_or_an_answer_stays_unstored(store, said: str) -> None:
    assert remembered(store, said) == []


def test_words_quoted_are_no_statement_run_on(store) -> None:
    # "translate ..." asks for the quoted words, which are not the speaker's statement
    said = "translate 'i live in a small flat i work from home' into spanish"
    assert remembered(store, said) == []
