"""Chat the write path reads since the thirty-eighth round (issue 23): a product named as
typed, a group of the speaker's named without "our", a thing had and then described, and
a role said at the place one works.

- "we use slack" / "we switched to microsoft teams": "teams" is the product as typed, not
  the plural of "team", so the two rival chat apps make a change.
- "team moved everything to github", "company switched us over to asana": a group the
  speaker is part of, named without "my" or "our" as chat does, does what "we" do.
- "i have a sister" -> "my older sister is a vet in york", "i have a daughter" -> "my
  daughter works at a bakery": the stored fact only says the speaker has one of a kind;
  the incoming sentence says who or where that one is (a refinement). Not two of them,
  not "my other sister", not another of her people ("my sister's husband"), not an
  ending, not what the thing does or how it is ("my dog loves the park").
- "i work for the nhs" -> "i'm a nurse in the nhs": where one works said again with the
  role one holds there (a refinement). Not another person's role, not a role elsewhere.
- "my braces came off today" / "i have braces", "my bike got stolen" / "i have a bike": a
  thing had, said to be gone by a verb of its going or a state of being gone, is no
  longer had (an update). Not another's ("my sister's bike got stolen").
- "upped my practice sessions to 6 piano pieces" / then "extended my practice sessions
  to include more scales": a change said with no measure does not end a stored measure
  by closeness of meaning alone (the value 6 would be lost).
- "i go to bed at 11" / "i go to bed at midnight now": one habit at two clock times, with
  nothing else said otherwise, is a change (an update over time or with a change word, a
  conflict the same day). Not one more ("also at 6pm"), nor a time of other days.

Every sentence is invented for the class it stands for; every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file).
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome

store = module_store("round38")


# -- a product named as typed -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("we use slack", "we switched to microsoft teams", ("superseded", "update")),
        ("we use discord", "we switched to teams", ("superseded", "update")),
        # another team is no product
        ("we use slack", "we switched teams at work", ("active", "new")),
    ],
)
def test_a_product_named_as_typed(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 90) == expected


# -- a group of one's own named without "our" -------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("team switched to notion for docs", ("user", "team_use")),
        ("company moved us onto google workspace", ("user", "company_move_onto")),
        # a name at the start is no group of one's own
        ("Acme moved to london", ("acme", "live_in")),
    ],
)
def test_a_group_named_without_our_is_the_speakers(store, said: str, key) -> None:
    result = memory(store).remember(said)
    assert result.accepted and result.fact is not None, result.why
    assert (result.fact.subject, result.fact.predicate) == key


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("we keep our code on gitlab", "team moved everything to github", ("superseded", "update")),
        (
            "we use trello for our tasks",
            "company switched us over to asana",
            ("superseded", "update"),
        ),
    ],
)
def test_what_a_group_named_so_does_is_what_we_do(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 120) == expected


# -- a thing had, then described --------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i have a sister", "my sister lives in york", ("superseded", "refinement")),
        ("ive got a brother", "my younger brother tom is a chef", ("superseded", "refinement")),
        ("i have a daughter", "my daughter works at a bakery", ("superseded", "refinement")),
        ("i have a dog", "my dog is scared of fireworks", ("active", "new")),
        ("i have a dog", "my dog loves the park", ("active", "new")),
        ("we just got a kitten", "our new kitten is a ragdoll", ("superseded", "refinement")),
        ("i own a bicycle", "my bicycle is a carbon road bike", ("superseded", "refinement")),
        # two of them: the count is not said again
        ("i have two brothers", "my brother lives in cork", ("active", "new")),
        # another one, another of her people, an ending
        ("i have a sister", "my other sister lives in york", ("active", "new")),
        ("i have a sister", "my sister's husband is a pilot", ("active", "new")),
        # a word of the stored one not said again
        ("i have a red car", "my car is a ford", ("active", "new")),
        ("i have a dog", "my cat is a tabby", ("active", "new")),
    ],
)
def test_a_thing_had_then_described(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 30) == expected


# -- a role said at the place one works -------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i work for the council", "im a planner at the council", ("superseded", "refinement")),
        (
            "my sister is in the navy",
            "my sister's an engineer in the navy",
            ("superseded", "refinement"),
        ),
        ("i work at a school", "i'm a teacher at the school", ("superseded", "refinement")),
        # another person's role, a role somewhere else, a role held once
        ("i work for the council", "my wife is a planner at the council", ("active", "new")),
        ("i work at a school", "i'm a chef at a restaurant", ("active", "new")),
        ("i work at a school", "i was a teacher at the school", ("active", "new")),
    ],
)
def test_a_role_said_at_the_place_one_works(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 30) == expected


def test_the_refinement_says_why(store) -> None:
    mem = memory(store)
    mem.remember("i have a brother")
    result = mem.remember("my brother lives in galway")
    assert result.why == "says more of 'a brother'"


# -- one habit at two clock times -------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("i go to bed at 11", "i go to bed at 1am now", 90, ("superseded", "update")),
        ("i usually get up at 6", "i get up at 7:30 these days", 90, ("superseded", "update")),
        ("i go to the gym at 6am", "i go to the gym at 7am", 0, ("conflicted", "conflict")),
        # one more time, a time of other days, the same time
        ("i go to the gym at 6am", "i also go to the gym at 6pm", 90, ("active", "new")),
        ("i get up at 6", "i get up at 9 on sundays", 90, ("active", "new")),
        ("i go to bed at 10pm", "i go to bed at 10 now", 90, ("active", "new")),
    ],
)
def test_one_habit_at_two_clock_times(store, first: str, then: str, gap: int, expected) -> None:
    assert outcome(store, first, then, gap) == expected


# -- a thing had, gone --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i have braces", "my braces came off yesterday", ("superseded", "update")),
        ("i have a moped", "my moped got stolen from outside work", ("superseded", "update")),
        ("we have a parrot", "our parrot went missing last week", ("superseded", "update")),
        ("i have a cast on my wrist", "the cast came off on friday", ("superseded", "update")),
        # another's, another thing
        ("i have a moped", "my brother's moped got stolen", ("active", "new")),
        ("we have a parrot", "our cat went missing last week", ("active", "new")),
    ],
)
def test_a_thing_had_said_gone(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 60) == expected


# -- a change with no measure keeps a stored measure -----------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        (
            "I upped my practice sessions to 6 piano pieces last month",
            "I have extended my practice sessions to include more scales and arpeggios",
        ),
        (
            "ive increased my weekly runs to 5 runs",
            "ive recently extended my training to include more hill work",
        ),
    ],
)
def test_a_change_said_without_a_measure_keeps_the_stored_one(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 5) == ("active", "new")
