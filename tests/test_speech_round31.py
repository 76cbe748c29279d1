"""Chat the write path reads since the thirty-first round (issue 23): how many of a kind.
"my only sibling is a sister" after "i have two brothers" cannot both be true: two
brothers are two siblings. The count a sentence gives, said in passing ("my only dog", "my
3 kids") or as a thing had ("i have 2 brothers and a sister"), is compared with every
count the other gives, in either order: another number of the same kind, or more of a
narrower kind (brothers, sons, dogs) than of the broader one (siblings, children, pets),
is a contradiction, flagged at once. Fewer of the narrower kind says nothing ("my only
son" beside "i have two kids": a daughter, perhaps). Every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file); every
sentence is invented for the class it stands for.

A sentence refused for what it says of the moment, a plan or a hedge ("my sister's
flying in on friday") still names a sibling in passing. After "i'm an only child" it is
kept and flagged against it, whatever the gap: refused, the state would stand
unquestioned. Without such a state it is refused as before; an in-law, a friend or
another's sibling names no sibling of the speaker's.
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome

store = module_store("round31")


# -- counts that cannot both be true ----------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        # a narrower kind counted past the broader one
        ("i have two brothers", "my only sibling is a sister"),
        ("my only sibling is a sister", "i have two brothers"),
        ("i have 2 brothers and a sister", "my only sibling lives in perth"),
        ("I have three sons.", "my only child just started school"),
        ("i have two dogs", "our only pet is a cat called Miso"),
        # one kind, two numbers, each said in passing or as a thing had
        ("our only dog is a beagle", "i have two dogs"),
        ("my only child is at uni", "we have three kids"),
        ("my two sons are twins", "my only son is 5"),
        ("i have 2 dogs plus a cat", "my only dog is a collie"),
        ("ive got 2 sisters", "my only sister is a nurse"),
    ],
)
def test_counts_that_cannot_both_hold_are_flagged(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 0) == ("conflicted", "conflict")


# -- counts that can ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        # fewer of the narrower kind: the rest may be of another
        ("i have two kids", "my only son plays football"),
        ("we have two daughters", "my only son is in year 3"),
        ("i have three sisters", "my only brother is a pilot"),
        # a count of one kind beside another kind, or beside no number
        ("i have 2 dogs plus a cat", "my only cat is ginger"),
        ("i have a rabbit and 2 cats", "my only rabbit is a lop"),
        ("i have two cats", "my only dog is a lab"),
        ("i have 2 cars", "my only bike got stolen"),
        # the same count again
        ("i have two brothers", "my two older brothers live in cork"),
        ("i have two kids", "my 2 kids are at camp"),
    ],
)
def test_counts_that_can_both_hold_stay_apart(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 0) == ("active", "new")


# -- a sibling named in passing, after "an only child" ----------------------------------------
@pytest.mark.parametrize(
    "then",
    [
        "my sister's flying in on friday",
        "my older brother is staying with us next week",
        "My brother might come to the wedding.",
        "my sisters kids are coming over tomorrow",
    ],
)
@pytest.mark.parametrize("gap", [0, 45])
def test_a_sibling_named_in_passing_is_kept_and_flagged(store, then: str, gap: int) -> None:
    assert outcome(store, "i'm an only child", then, gap) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i'm an only child", "my brother-in-law is flying in on friday"),
        ("i'm an only child", "my best friend is staying with us next week"),
        ("i'm an only child", "my wife's sister is coming over tomorrow"),
        ("i have an older sister", "my sister's flying in on friday"),
        ("i'm a nurse", "my brother is staying with us next week"),
    ],
)
def test_a_plan_that_gainsays_nothing_is_still_refused(store, first: str, then: str) -> None:
    mem = memory(store)
    assert mem.remember(first).accepted
    result = mem.remember(then)
    assert not result.accepted and result.code in ("speculative", "transient"), result.why
    assert len(mem.list()) == 1  # the first statement alone


# -- "'s" typed for "is" before a plan -------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "my sister's flying in on friday",
        "my dad's driving up saturday",
        "Tom's picking me up tomorrow",
    ],
)
def test_a_plan_with_is_typed_as_s_is_refused(store, said: str) -> None:
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "speculative", result.why
    assert mem.list() == []


@pytest.mark.parametrize(
    "said",
    [
        "my sister's living in leeds now",
        "my mum's retiring in june",
        "my son's starting uni in october",
    ],
)
def test_what_is_not_a_plan_for_a_day_close_ahead_is_kept(store, said: str) -> None:
    assert memory(store).remember(said).accepted
