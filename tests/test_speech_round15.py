"""Natural speech the write path reads since the fifteenth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

A correction names the value it corrects ("its the 7:50 train not 7:40"): the stored
fact that holds that value is corrected (an update, the same day too) whatever the two
keys, when it is the speaker's own and the correction shares a word with it or names
nothing else; a "not" after the complement ("im a teacher, not a nurse") contrasts and
denies nothing. A correction said the same day
needs no word in common ("the 10th not the 9th, i misread it"). "used to" typed as it
sounds ("i use to live in hull") is read as "used to" and kept as typed. A count said
without a number and then with one ("a few tattoos",
"exactly five tattoos"), a kind of place and then its name ("the city", "denver"), and
the same verb said of a thing first named by its kind ("i sing in a choir", "i sing alto
in a gospel choir called ...") say the same value more exactly: refinements. Where one comes
from holds one value: two said the same day clash. A habit said to be past with nothing of its own ("i used to sail") ends the present
one, whatever its object. Being an only child and a sibling named in passing ("my big brother
...") conflict at any gap; not knowing how to do a thing and doing it conflict. Things let
go of with other verbs
("offloaded", "packed in", "closed down") end having or doing them, and so does a thing
said to be had in place of one named ("an e-bike instead of the corsa")."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, pair, stored

from credo.fact import Status
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

store = module_store("round15")

PAIRS = [
    # a correction that names the wrong value, whatever the keys
    ("we take the 7:40 train", "oops its the 7:50 train not 7:40", 0, ("superseded", "update")),
    ("the meeting is at 3pm on friday", "sorry, its at 4pm not 3pm", 0, ("superseded", "update")),
    (
        "our weekly call is on tuesdays",
        "the call is on thursday, not tuesday",
        0,
        ("superseded", "update"),
    ),
    ("the party is for 8 people", "its 10 people not 8", 0, ("superseded", "update")),
    ("im a nurse", "im a teacher, not a nurse", 0, ("superseded", "update")),
    (
        "my train to york is on the 9th",
        "sorry, the 10th not the 9th, i misread the ticket",
        0,
        ("superseded", "update"),
    ),
    # "used to" typed as it sounds
    ("i live in hull", "i use to live in hull", 200, ("superseded", "update")),
    # not a correction: another person's fact, a value said again, a denial
    ("my sister takes the 8:02 bus", "i take the 8:12 bus, not the 8:02", 0, ("active", "new")),
    ("we take the 7:40 train", "its the 7:40 not the 7:50", 0, ("active", "new")),
    ("i take the 8:02 bus", "i dont take the 8:02 bus", 0, ("conflicted", "conflict")),
    # a count, then the count exactly
    ("i have a few piercings", "i have exactly four piercings", 20, ("superseded", "refinement")),
    ("we keep some chickens", "we keep 6 chickens now", 10, ("superseded", "refinement")),
    ("i have a few piercings", "i also have 2 tattoos", 20, ("active", "new")),
    # a kind of place, then its name
    ("we reside in the city", "we reside in Denver", 20, ("superseded", "refinement")),
    ("We reside in the city.", "We reside in Kansas City.", 40, ("superseded", "refinement")),
    ("im from a small town", "im from tiverton", 30, ("superseded", "refinement")),
    ("we reside in the city", "we moved to Denver", 20, ("superseded", "update")),
    # the thing named by its kind, said more fully with the same verb
    (
        "i sing in a choir",
        "i sing alto in a gospel choir called blue static",
        20,
        ("superseded", "refinement"),
    ),
    (
        "i volunteer at a shelter",
        "i volunteer at a cat rescue shelter on weekends",
        20,
        ("superseded", "refinement"),
    ),
    ("i sing in a choir", "i sing tenor in another choir", 20, ("active", "new")),
    # where one comes from holds one value
    ("im from ghana", "i am from peru", 0, ("conflicted", "conflict")),
    ("im from ghana", "im from accra, ghana", 30, ("superseded", "refinement")),
    ("my mum is from cork", "my mum is from galway originally", 0, ("conflicted", "conflict")),
    # an only child, and a sibling named in passing: a childhood stands
    ("im an only child", "my big brother is staying with me", 60, ("conflicted", "conflict")),
    ("im an only child", "my brother-in-law is a chef", 60, ("active", "new")),
    # a habit said to be past ends the present one
    ("i sail on the lake most weekends", "i used to sail", 300, ("superseded", "update")),
    ("i sail on the lake", "i used to sail at sea", 300, ("active", "new")),
    # not knowing how, and doing it
    ("i dont know how to ski", "i ski in val thorens every winter", 0, ("conflicted", "conflict")),
    # things let go of with other verbs
    ("we own a narrowboat", "we finally offloaded the narrowboat", 200, ("superseded", "update")),
    (
        "i do intermittent fasting, 16:8",
        "packed in the intermittent fasting, it wasnt for me",
        90,
        ("superseded", "update"),
    ),
    ("we run a small bakery in town", "we closed down the bakery", 200, ("superseded", "update")),
    ("we run a small bakery in town", "we closed down the old shed", 200, ("active", "new")),
    # a thing had in place of another, named, ends the stored one
    (
        "i commute on a vauxhall corsa",
        "i commute on an e-bike instead of the corsa",
        60,
        ("superseded", "update"),
    ),
    (
        "i commute on a vauxhall corsa",
        "i also ride a scooter instead of walking",
        60,
        ("active", "new"),
    ),
]


@pytest.mark.parametrize(("first", "then", "gap", "expected"), PAIRS)
def test_pairs(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    status, relation = pair(store, first, then, gap)
    assert (Status(status).value, Relation(relation).value) == expected


def test_a_correction_keeps_the_words_and_says_why(store: SQLiteStore) -> None:
    from speech_pairs import T0, memory

    mem = memory(store)
    first = mem.remember("we take the 7:40 train", valid_from=T0)
    fixed = mem.remember("oops its the 7:50 train not 7:40", valid_from=T0 + 60)
    assert first.fact is not None and fixed.fact is not None
    assert fixed.relation is Relation.UPDATE
    assert "correction" in fixed.why or "oops" in fixed.why
    assert [f.text for f in mem.list(status="active")] == ["its the 7:50 train not 7:40"]
    old = store.get(first.fact.id, scope=mem.scope)
    assert old is not None and old.superseded_by == fixed.fact.id


def test_a_refinement_by_name_says_what_it_named(store: SQLiteStore) -> None:
    from speech_pairs import T0, memory

    mem = memory(store)
    mem.remember("we reside in the city", valid_from=T0)
    named = mem.remember("we reside in Denver", valid_from=T0 + 20 * 86400)
    assert named.relation is Relation.REFINEMENT
    assert "named" in named.why and "Denver" in named.why


def test_a_contrast_is_no_denial(store: SQLiteStore) -> None:
    assert stored(store, "im a teacher, not a nurse") == ["The user is a teacher, not a nurse"]


# what the gate takes since this round, and what it still refuses
TAKEN = [
    # "did" with no verb after its object is what was done, no question
    ("did the three peaks challenge last summer", True),
    ("did the ironman in 2019, 13h40", True),
    ("did the bus come", False),
    ("did the kids enjoy it", False),
    # "roughly" before a number says about so much
    ("im on roughly fifteen cigs a day", True),
    ("i roughly know how the boiler works", False),
    # a time to come that dates a thing, or that a past change moved a thing to
    ("we pushed the gig back to june next year", True),
    ("my visa for next year came through", True),
    ("im flying to lisbon for a conference next week", False),
    ("i will start my new job next week", False),
]


def test_used_to_typed_as_it_sounds_is_kept_as_said(store: SQLiteStore) -> None:
    assert stored(store, "i use to play rugby") == ["i use to play rugby"]
    assert stored(store, "i use to-do lists for work") == ["The user uses to-do lists for work"]


@pytest.mark.parametrize(("said", "taken"), TAKEN)
def test_taken(store: SQLiteStore, said: str, taken: bool) -> None:
    assert bool(stored(store, said)) is taken
