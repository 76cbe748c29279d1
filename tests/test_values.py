"""Two readings the resolver takes as evidence where keys differ: one claim in other words
(`same_values`), and one thing measured with another number (`remeasured`). Each is tried
through `Memory.remember` (the real parser, gate and resolver, on the shipped model) with
sentences typed as people type them, and with the near misses that must stay apart."""

from __future__ import annotations

import pytest

from credo import Memory
from credo.embed import get_embedder
from credo.store.sqlite import SQLiteStore
from credo.values import (
    amounts,
    in_digits,
    masked,
    one_word,
    quantities,
    same_values,
    typed_number,
    value_words,
)

DAY = 86400.0
START = 1_700_000_000.0


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    return SQLiteStore(tmp_path_factory.mktemp("values") / "values.db", get_embedder())


def said(store: SQLiteStore, first: str, then: str, gap_days: float = 0) -> str:
    mem = Memory(store, scope=f"s{abs(hash((first, then, gap_days)))}")
    a = mem.remember(first, valid_from=START)
    assert a.accepted, (first, a.why)
    b = mem.remember(then, valid_from=START + gap_days * DAY)
    assert b.accepted, (then, b.why)
    assert b.relation is not None
    return b.relation.value


@pytest.mark.parametrize(
    "first, then",
    [
        ("i work at spotify", "im employed by Spotify"),
        ("im allergic to peanuts", "I have a peanut allergy"),
        ("i ride a yamaha scooter", "i own a yamaha scooter"),
        ("my son is called teo", "my son is called Teo"),
        # the slot named by a noun in one wording and by a plain verb in the other, with a
        # name the tagger misreads as a verb ("is kubectl")
        ("i use sublime", "my editor is sublime"),
        ("i use kubectl", "my cli is kubectl"),
        # praise in one wording only; a description left out of the second
        ("my wife and i run a bakery in hull", "my lovely wife and i run a bakery in hull"),
        ("i drive a red vespa", "i drive a vespa"),
        # a part of the value in initials, or all of it with its small words left out
        ("i work for the united kingdom border force", "i work for the uk border force"),
        ("i lecture at the university of east anglia", "i lecture at uea"),
        # an amount with a thousands separator and a currency sign, or as "k" per month;
        # a name English does not have keeps its letters ("gcp" is no plural)
        ("our gcp bill is $3,500 a month", "gcp bill: 3.5k/month"),
        ("i maintain two repos for the club", "i maintain 2 repo for the club"),
    ],
)
def test_one_claim_in_other_words_is_a_duplicate(store: SQLiteStore, first: str, then: str) -> None:
    assert said(store, first, then) == "duplicate"


@pytest.mark.parametrize(
    "first, then",
    [
        ("my favourite fruit is plum", "my favourite fruit is pear"),  # another value
        ("we live in Kent", "we live in rural Kent"),  # says more
        ("i work at spotify", "i worked at spotify"),  # the past: it may have ended
        ("I have a brother", "I have a sister"),
        ("i drink coffee", "i dont drink coffee"),
        ("my sister is a nurse", "my brother is a nurse"),  # both name their slot
        ("i use zed", "my editor is vim"),
        ("my sister lives in lyon", "i live in lyon"),  # leaves out whose the home is
        ("my new boss is lovely", "my new boss is tough"),  # praise against praise
        ("i work at the us embassy", "i work at the uk embassy"),  # other initials
        ("our gcp bill is $3,500 a month", "our gcp bill is $5,300 a month"),
        # read alike, said otherwise: an adverb of manner the other does not say
        ("i live close to the office", "i live far from the office"),
        ("i sleep well these days", "i sleep badly these days"),
    ],
)
def test_near_wordings_that_say_something_else_are_not_duplicates(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert said(store, first, then) != "duplicate"


@pytest.mark.parametrize(
    "first, then, gap, outcome",
    [
        ("i sleep like 6 hours a night", "im down to 5 hours a night now", 40, "update"),
        ("i weigh 91kg", "im at 84 kg now after a lot of cycling", 120, "update"),
        ("my mile time is 9 minutes", "i improved my mile time to 8 minutes", 0, "update"),
        ("i have 2 rabbits", "i have 3 rabbits", 0, "conflict"),  # the same day: no grounds
    ],
)
def test_one_thing_measured_with_another_number(
    store: SQLiteStore, first: str, then: str, gap: float, outcome: str
) -> None:
    assert said(store, first, then, gap) == outcome


@pytest.mark.parametrize(
    "first, then",
    [
        ("the budget for the shop site is 4k", "the blog budget is 9k"),  # another thing
        ("i have two hamsters", "i also have 4 goldfish"),  # another unit
        ("i moved here in march 2019", "i got my dog in march 2021"),  # unit-less, unlike
    ],
)
def test_other_measures_stay_beside(store: SQLiteStore, first: str, then: str) -> None:
    assert said(store, first, then, 30) == "new"


@pytest.mark.parametrize(
    "a, b",
    [
        ("i lecture at the university of east anglia", "i lecture at uea"),  # initials
        ("my brother lives in sf", "my brother lives in san francisco"),
        ("i manage a bakery in leeds", "im the manager of a bakery in leeds"),  # noun of a verb
        ("my nephew is twenty-two", "my nephew is 22"),  # a number with a hyphen
    ],
)
def test_one_value_named_in_other_words(a: str, b: str) -> None:
    assert same_values(a, b) and same_values(b, a)


@pytest.mark.parametrize(
    "a, b",
    [
        ("i live in la", "i live in london"),  # not initials of anything said
        ("i lecture at uea", "i lecture at the university of edinburgh"),
        ("my nephew is twenty-two", "my nephew is 20"),
        ("i run a bakery", "i run a bakery in leeds"),  # the second names more
    ],
)
def test_other_values_stay_apart(a: str, b: str) -> None:
    assert not same_values(a, b)


def test_quantities_read_numbers_as_typed() -> None:
    assert [(q.value, q.unit) for q in quantities("our budget is $2,000 a month")] == [
        ("2000", "$")
    ]
    assert [(q.value, q.unit) for q in quantities("im thirty-four years old")] == [("34", "year")]
    assert [(q.value, q.unit) for q in quantities("the page loads in 220ms")] == [("220", "ms")]
    assert [(q.value, q.unit) for q in quantities("aws spend is 2k")] == [("2000", "k")]
    assert masked("i weigh 82kg and run 5 miles") == "i weigh # kg and run # miles"


def test_words_are_one_as_people_type_them() -> None:
    assert one_word("corolla", "corola")  # a typo
    assert one_word("allergic", "allergy") and one_word("drum", "drummer")  # derivations
    assert not one_word("vegan", "vegetarian") and not one_word("cat", "catamaran")
    assert one_word("repos", "repo") and not one_word("bu", "bus")  # a plural kept
    assert typed_number("$2,000") == typed_number("2k/month") == "2000"
    assert typed_number("220ms") == "220ms" and typed_number("budget") is None
    assert "aws" in value_words("our aws budget is 2k")
    assert same_values("my daughter Zoë is seven", "my daughter zoe is 7")
    assert not same_values("i live in York", "i live in New York")


def test_a_one_valued_state_told_in_the_past_later_ends_it(store: SQLiteStore) -> None:
    assert said(store, "i work at spotify", "i worked at spotify", 200) == "update"
    assert said(store, "i live in ghent", "i lived in ghent", 0) == "new"  # same day: beside


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("forty eight thousand", "48000"),
        ("sixty-five thousand", "65000"),
        ("one hundred thousand", "100000"),
        ("i have twenty-two cats", "i have 22 cats"),
        ("twenty two", "twenty two"),  # two number words alone stay apart
        ("twelve hundred", "1200"),
    ],
)
def test_numbers_said_in_words_of_two_parts_and_a_scale_are_one_number(
    said: str, digits: str
) -> None:
    assert in_digits(said) == digits


@pytest.mark.parametrize("typed", ["5'10", "5’10", "5'10\"", "5ft10", "5 ft 10in"])
def test_a_height_in_feet_and_inches_as_typed_is_5_foot_10(typed: str) -> None:
    assert amounts(typed) == amounts("5 foot 10")
