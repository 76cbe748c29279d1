"""Chat the write path reads since the thirty-sixth round (issue 23): an "it" named again,
a product named in full, a thing denied yet called one's own, and names given before.

- "it's an iphone 15 pro with 256gb" after "my phone's an iphone": the "it" is the thing a
  stored fact of the scope holds, named again by its product or name, with more; read as
  that thing, a refinement. An "it" that names nothing stored stays refused.
- "my car is a 2018 honda jazz" after "i drive a honda": the speaker's one car, named as
  a product whose name holds the one they drive, is the same car named more fully.
- "i don't have a cat" / "my cat sleeps on my bed": the very thing denied, said now to be
  the speaker's own, is a clash to show ("my cat died in march" is not: a cat had once).
- "oscar just started year 4" after "my son oscar is in year 3": a name a stored fact
  gave as the speaker's own is read, for the key, as "my son"; "pepper is a beagle"
  after "i have a dog named pepper" says which dog it is.

Every sentence is invented for the class it stands for; every pair goes through
`Memory.remember` (the real parser, the default embedding model and a SQLite file).
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome, remembered

from credo.introduced import as_own, introduced_as

store = module_store("round36")


# -- an "it" named again --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my phone's an iphone", "it's an iphone 15 pro with 256gb"),
        ("i ride a ducati", "it's a 2021 ducati monster"),
        ("i use a macbook", "it's a macbook air m2 from 2022"),
    ],
)
def test_an_it_naming_a_stored_thing_again_refines_it(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 12) == ("superseded", "refinement")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my phone's an iphone", "it's great honestly"),
        # a thing named by its kind alone: "it" may be anything
        ("i have a car", "it's a blue car"),
        # a liking, not a thing the speaker has
        ("i like arsenal", "it's an arsenal shirt"),
    ],
)
def test_an_it_that_names_nothing_stored_stays_refused(store, first: str, then: str) -> None:
    mem = memory(store)
    assert mem.remember(first).accepted
    said = mem.remember(then)
    assert not said.accepted and said.code == "ungrounded", (then, said.why)


# -- a product named in full ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i drive a honda", "my car is a 2018 honda jazz", ("superseded", "refinement")),
        ("i have a lenovo", "my laptop's a lenovo yoga 7", ("superseded", "refinement")),
        # the stored value says more than the product: not the same thing named
        ("i drive a silver honda", "my car is a honda jazz", ("active", "new")),
        # another product
        ("i drive a honda", "my car is a ford focus", ("active", "new")),
    ],
)
def test_a_product_named_in_full(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 20) == expected


# -- a thing denied, yet the speaker's own ----------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i don't have a cat", "my cat sleeps on my bed every night", ("conflicted", "conflict")),
        ("i dont own a car", "my car is in the garage for its mot", ("conflicted", "conflict")),
        # had once: not against "don't have" now
        ("i don't have a cat", "my cat died in march", ("active", "new")),
        # another's
        ("i don't have a cat", "my neighbour's cat visits every day", ("active", "new")),
    ],
)
def test_a_thing_denied_then_called_ones_own(store, first: str, then: str, expected) -> None:
    assert outcome(store, first, then, 0) == expected


# -- names given before -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        (
            "my son oscar is in year 3",
            "oscar just started year 4, loads more homework",
            300,
            ("superseded", "update"),
        ),
        ("i have a dog named pepper", "pepper is a beagle", 10, ("superseded", "refinement")),
        # keyed on the name from the start: read on it still
        ("my brother tom lives in cardiff", "tom moved to bristol", 200, ("superseded", "update")),
        # the sentence says whose the name is itself
        ("my wife is called nadia", "nadia is my wife", 5, ("active", "duplicate")),
    ],
)
def test_a_name_given_before(store, first: str, then: str, gap: float, expected) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("name", "text", "noun"),
    [
        ("oscar", "The user's son oscar is in year 3", "son"),
        ("pepper", "The user has a dog named pepper", "dog"),
        ("hannah", "my older sister hannah is a vet", "sister"),
        ("nadia", "The user's wife is called nadia", "wife"),
        ("anna", "anna, my cousin, lives in riga", "cousin"),
        # a name only mentioned, not given as the speaker's
        ("lily", "The user works with lily", None),
        ("tom", "my friends and tom went out", None),
    ],
)
def test_introduced_as(name: str, text: str, noun: str | None) -> None:
    assert introduced_as(name, text) == noun


def test_as_own_reads_the_name_as_the_speakers() -> None:
    assert as_own("oscar just started year 4", "oscar", "son") == "my son just started year 4"
    assert as_own("oscar's moved up a set", "oscar", "son") == "my son's moved up a set"
    assert as_own("nadia is my wife", "nadia", "wife") is None
    assert as_own("we saw oscarsson", "oscar", "son") is None


# -- "'s" before a compound adjective ---------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "predicate", "value"),
    [
        ("my nephew's lactose intolerant", "nephew_be", "lactose intolerant"),
        ("my dad's colour blind", "father_be", "colour blind"),
        ("my niece's dairy free now", "niece_be", "dairy free"),
    ],
)
def test_an_s_before_a_compound_adjective_is_is(store, said: str, predicate: str, value) -> None:
    [(_, got, obj)] = remembered(store, said)
    assert (got, obj) == (predicate, value)


def test_a_compound_adjective_is_kept_beside_a_question(store) -> None:
    kept = remembered(store, "my nephew's lactose intolerant, what can he have for pudding?")
    assert [(p, o) for _, p, o in kept] == [("nephew_be", "lactose intolerant")]


# -- a drug taken is a drug one is on ---------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        (
            "i take ibuprofen every morning for my knee",
            "my gp took me off the ibuprofen",
            90,
            ("superseded", "update"),
        ),
        ("i take statins", "i'm not on statins any more", 200, ("superseded", "update")),
        ("i'm on sertraline", "i take sertraline every morning", 30, ("superseded", "refinement")),
        # not a drug: taking the bus is no being on it
        ("i take the number 9 bus most days", "i'm not on the bus", 30, ("active", "new")),
    ],
)
def test_a_drug_taken_is_one_the_speaker_is_on(store, first, then, gap, expected) -> None:
    assert outcome(store, first, then, gap) == expected


# -- a diet that rules out what is started again ----------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("im vegetarian", "i've started eating fish again", 120, ("superseded", "update")),
        ("i'm vegan", "i eat fish now, my doctor suggested it", 120, ("superseded", "update")),
        ("i'm teetotal", "i started drinking again at uni", 300, ("superseded", "update")),
        # a pescatarian eats fish
        ("i'm a pescatarian", "i eat fish three times a week", 30, ("active", "new")),
    ],
)
def test_a_diet_ended_by_what_it_rules_out(store, first, then, gap, expected) -> None:
    assert outcome(store, first, then, gap) == expected


# -- "no more X" ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i play squash twice a week", "no more squash for me, my knee is shot", "update"),
        ("my twins are still in nappies", "potty training done, no more nappies here", "update"),
        ("i'm a freelance copywriter", "took a staff job, no more freelancing for me", "update"),
    ],
)
def test_no_more_ends_what_it_names(store, first: str, then: str, expected: str) -> None:
    assert outcome(store, first, then, 90) == ("superseded", expected)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i play squash twice a week", "i can manage no more than three games now"),
        ("i play squash twice a week", "no more excuses, i'm joining a gym"),
    ],
)
def test_no_more_of_another_thing_ends_nothing(store, first: str, then: str) -> None:
    mem = memory(store)
    first_said = mem.remember(first)
    mem.remember(then)
    assert first_said.fact is not None
    kept = store.get(first_said.fact.id, scope=mem.scope)
    assert kept is not None and kept.status == "active"


# -- a version of the product the key names ---------------------------------------------------
def test_a_version_of_the_product_a_key_names(store) -> None:
    first = "all my python scripts are on 3.9"
    assert outcome(store, first, "upgraded everything to python 3.13 last month", 120) == (
        "superseded",
        "update",
    )
    # learning another version is no change of the one in use
    assert outcome(store, first, "im learning python 3.14 on the side", 120)[0] == "active"


# -- two clauses with the "I" of both left out ------------------------------------------------
def test_two_clauses_with_no_i_are_read_apart(store) -> None:
    mem = memory(store)
    mem.remember("i live in glasgow")
    result = mem.remember("sold the flat and moved to dundee in june")
    texts = sorted(f.text for f in mem.list(status="active"))
    assert any("dundee" in t for t in texts) and not any("glasgow" in t for t in texts)
    assert result.accepted and result.also, "the two clauses are stored apart"
    # the words said, no "I" added
    assert all(not t.startswith("I ") for t in texts)


# -- a claim said again with more ------------------------------------------------------------
def test_a_claim_said_again_with_more_refines_it(store) -> None:
    first = "i walk to work"
    then = "i walk the 3 miles to work along the canal"
    assert outcome(store, first, then, 40) == ("superseded", "refinement")
    # a change said is no claim said more fully
    assert outcome(store, first, "i walk to work way less now", 40)[1] != "refinement"


def test_an_it_named_again_is_stored_as_typed_with_what_it_is() -> None:
    from credo.fact import Fact
    from credo.memory import _with_referent

    laptop = Fact(text="The user's laptop's a thinkpad", subject="user", predicate="has_laptop")
    said = "it's a thinkpad x1 carbon"
    assert (
        _with_referent(said, laptop, "The user") == "it [the user's laptop]'s a thinkpad x1 carbon"
    )
    car = Fact(
        text="The user drives a toyota", subject="user", predicate="drive", object="a toyota"
    )
    assert _with_referent("its a 2016 prius", car, "The user") == "its a 2016 prius"


def test_an_it_named_again_says_what_it_is_once_stored(store) -> None:
    mem = memory(store)
    mem.remember("my phone's an iphone")
    result = mem.remember("it's an iphone 15 pro with 256gb")
    assert result.fact is not None
    assert result.fact.text == "it [the user's phone]'s an iphone 15 pro with 256gb"


def test_a_drug_is_read_before_what_it_is_for(store) -> None:
    [(_, predicate, _)] = remembered(store, "i take ibuprofen for my knee")
    assert predicate == "be_on"


def test_no_more_said_the_same_day_is_a_change(store) -> None:
    assert outcome(
        store, "i play squash twice a week", "no more squash for me, knee's gone", 0
    ) == (
        "superseded",
        "update",
    )
