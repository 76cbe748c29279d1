"""Chat the write path reads since the thirty-third round (issue 23): questions asked as
a search for the reason or the way, who the speaker is before a question, a phrase between
two clauses.

"i'm trying to figure out why my tomatoes keep splitting", "i want to know how my
sister found my diary", "i need to find out why my laptop keeps overheating" ask why
(or how) in other words, as "i wonder why ..." does: the gate refuses the search as a
question, and the speaker's clause it asks about ("my tomatoes keep splitting") is kept
in the words said, by `remember` and by the conversation extractor. A "how" tells a
clause only when it is told as done ("how my score went up"; not "how to fold a sheet",
"how i can deploy it", "how my score relates to my rank").

"as a runner which shoes are best for flat feet", "being a night shift nurse how do i fix
my sleep": who the speaker is, then a question with no comma or "?"; who they are is kept,
the question is refused (the whole was stored, question and all).

"I want to get better at chess, mostly with endgames, and I have joined a club": a phrase
after a comma stays with the clause it says more of (it opened the next one: "mostly
with endgames, and I have joined a club").

"i have a few ideas", "i got some great advice", "i had a big milestone last week": a
thing had, got or made that names nothing of what it is is refused as vague (it was
stored); "a few ideas for my garden", "advice from my doctor" are kept.

Every sentence is invented for the class it stands for; every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file).
"""

from __future__ import annotations

import pytest
from speech_pairs import T0, ingested, memory, module_store, remembered

store = module_store("round33")


# -- a search for the reason or the way is a question -------------------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "im trying to figure out why my tomatoes keep splitting",
            "The user's tomatoes keep splitting",
        ),
        ("i want to know why my cat sleeps on the stairs", "The user's cat sleeps on the stairs"),
        (
            "i need to find out why my laptop keeps overheating",
            "The user's laptop keeps overheating",
        ),
        (
            "im trying to work out how my typing speed went from 40 to 70 wpm in a month",
            "The user's typing speed went from 40 to 70 wpm in a month",
        ),
        (
            "i want to know how my sister found my old diary",
            "The user's sister found the user's old diary",
        ),
    ],
)
def test_a_search_for_the_reason_keeps_the_clause_it_asks_about(
    store, said: str, kept: str
) -> None:
    mem = memory(store)
    mem.remember(said, valid_from=T0)
    assert [f.text for f in mem.list()] == [kept]
    refused = [r for r in mem.rejections() if r.code == "question"]
    assert len(refused) == 1  # the search itself, on record as a question


@pytest.mark.parametrize(
    "said",
    [
        # a "how" of no clause told as done
        "i want to understand how to fold a fitted sheet",
        "i want to understand how my score relates to my rank",
        # the reason known, not sought
        "i know why my tomatoes split",
    ],
)
def test_no_clause_is_taken_from_what_is_not_a_search(store, said: str) -> None:
    assert all(text != said for text, _, _ in remembered(store, said))
    assert not any(
        text.startswith("The user's score relates") for text, _, _ in remembered(store, said)
    )


def test_the_conversation_extractor_keeps_the_clause_too() -> None:
    said = "im trying to work out how my typing speed went from 40 to 70 wpm in a month"
    found = ingested(said, "The user")
    assert [text for text, _, _ in found] == [
        "The user's typing speed went from 40 to 70 wpm in a month"
    ]


# -- who the speaker is, then a question with no comma or "?" -----------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("as a runner which shoes are best for flat feet", "The user is a runner"),
        ("as a type 2 diabetic what cereals are ok for breakfast", "The user is a type 2 diabetic"),
        ("being a night shift nurse how do i fix my sleep", "The user is a night shift nurse"),
    ],
)
def test_who_the_speaker_is_is_kept_from_a_question_without_its_mark(
    store, said: str, kept: str
) -> None:
    assert [text for text, _, _ in remembered(store, said)] == [kept]


def test_a_clause_after_who_the_speaker_was_is_no_question(store) -> None:
    assert remembered(store, "as a kid i lived in tromso") == [
        ("as a kid the user lived in tromso", "live_in", "tromso")
    ]


# -- a phrase after a comma stays with the clause it says more of -------------------------
@pytest.mark.parametrize(
    ("said", "clauses"),
    [
        (
            "i love cooking, especially thai food, and my wife loves baking",
            ["i love cooking, especially thai food", "my wife loves baking"],
        ),
        (
            "I want to get better at chess, mostly with endgames, and I have joined a club",
            ["I want to get better at chess, mostly with endgames", "I have joined a club"],
        ),
        # a list is no phrase of its own
        ("we keep a goat, a pony, and two geese", ["we keep a goat, a pony, and two geese"]),
    ],
)
def test_a_phrase_after_a_comma_stays_with_its_clause(said: str, clauses: list[str]) -> None:
    from credo.extract.rules import statements_in

    assert statements_in(said) == clauses


def test_no_fact_opens_with_the_phrase_before_it() -> None:
    said = (
        "im trying to get better at geometry, especially with circle problems, and ive "
        "lately stretched my practice blocks to 3 hours"
    )
    texts = [text for text, _, _ in ingested(said, "The user")]
    assert texts == ["The user has lately stretched the user's practice blocks to 3 hours"]


# -- a thing had that names nothing of what it is ------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "I have a few ideas",
        "i got some really useful advice",
        "I had a huge milestone last week",
        "i made some changes",
        "ive got a couple of suggestions for you",
        "i have some news!!",
    ],
)
def test_a_thing_had_that_names_nothing_is_vague(store, said: str) -> None:
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "vague"
    assert mem.list() == []


@pytest.mark.parametrize(
    "said",
    [
        "i have a few ideas for my garden",
        "i got some advice from my physio",
        "I made some changes to my diet",
        "i have a business idea",
        "i have 3 kids",
        "i have my grandad's advice",
    ],
)
def test_a_thing_had_said_of_what_is_kept(store, said: str) -> None:
    assert len(remembered(store, said)) == 1
