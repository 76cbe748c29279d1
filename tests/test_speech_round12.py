"""Natural speech the write path reads since the twelfth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

A yes-no question typed without its "?" after a statement ("my van is a 2012 transit,
can i tow a caravan with it") is a question: the statement is stored in the user's
words, the question never inside it.

What products are (`language.products`, a table of kinds written from general knowledge):
a change to a product ends the stored fact naming a rival of its kind ("i write code in
sublime text" / "moved over to helix"), a slot named by the kind ("my editor is ...",
"our db is ...") is one value against a rival said any other way, the kind of a product
both sentences name says nothing more ("my editor is kate" / "i write code in kate"), and
a product is a kind of the thing its kind names ("we run a database" -> "we run
mariadb").

A fragment whose only nouns name nothing a fact could be about ("quick question") is
refused as vague; one that names a thing, a person or a measure is kept as said."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store, pair

from credo.store.sqlite import SQLiteStore

store = module_store("round12")


def stored(store: SQLiteStore, said: str) -> list[str]:
    result = memory(store).remember(said, valid_from=T0)
    return [r.fact.text for r in (result, *result.also) if r.accepted and r.fact is not None]


@pytest.mark.parametrize(
    ("said", "kept", "asked"),
    [
        ("my van is a 2012 transit, can i tow a caravan with it", "2012 transit", "tow"),
        (
            "i keep bees in the back garden, should i tell my neighbours",
            "bees in the back garden",
            "tell",
        ),
        ("we have a 3 bed semi, is it worth getting solar", "3 bed semi", "solar"),
        ("i have a sesame allergy, are bagels ok", "sesame allergy", "bagels"),
        ("i work night shifts, does that mess with my sleep", "night shifts", "sleep"),
        ("my son is 6, is it normal that he still wets the bed", "son is 6", "normal"),
        ("i have a dog, is that weird for a landlord", "a dog", "weird"),
        ("i moved to hull last year, do you know any good gyms", "hull", "gyms"),
    ],
)
def test_a_yes_no_question_typed_without_its_mark_is_not_stored_in_the_fact(
    store: SQLiteStore, said: str, kept: str, asked: str
) -> None:
    texts = stored(store, said)
    assert any(kept in t for t in texts), texts
    assert not any(asked in t for t in texts), texts


@pytest.mark.parametrize(
    "said",
    [
        "can i freeze cooked rice",
        "should i repaint the hallway before selling",
        "are cashews ok for dogs",
        "is that normal",
        "does my landlord have to fix the boiler",
    ],
)
def test_a_yes_no_question_alone_is_refused(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code == "question"


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a verb first with no subject after it: a report with "i" left out, not a question
        ("i moved to derby, did a masters there", "did a masters"),
        ("was a chef for ten years", "chef"),
        # a name that opens with a verb's word is no question
        ("Will Harper lives in Bath", "Will Harper lives in Bath"),
    ],
)
def test_a_statement_opening_with_a_verb_is_no_question(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert any(kept in t for t in stored(store, said))


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i write code in sublime text", "moved over to neovim last month, loving it"),
        ("our shop runs on woocommerce", "we migrated the shop to shopify"),
        ("we track bugs in trello", "switched the team to youtrack"),
        ("i bank with barclays", "switched my current account to monzo"),
    ],
)
def test_a_change_to_a_rival_product_ends_the_old_one(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 40)
    assert (status, relation) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # one more, not instead
        ("i write code in sublime text", "also started using helix for notes"),
        # another person's change
        ("i write code in sublime text", "my brother switched to helix"),
        # not a rival: a cache beside a database
        ("our db is mariadb", "we switched caching to memcached"),
        # the old product named: kept beside, not this rule's to end
        ("i write code in sublime text", "switched to neovim but still use sublime text for work"),
    ],
)
def test_no_rival_ended_without_grounds(store: SQLiteStore, first: str, then: str) -> None:
    status, _ = pair(store, first, then, 40)
    assert status == "active"


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("i write code in sublime text", "my editor is helix", 0, ("conflicted", "conflict")),
        ("our db is mariadb", "we run everything on mongodb", 0, ("conflicted", "conflict")),
        ("our db is mariadb", "we run everything on mongodb", 90, ("superseded", "update")),
        ("i code in neovim", "my editor is neovim", 5, ("active", "duplicate")),
        ("we run a database", "we run mariadb", 5, ("superseded", "refinement")),
    ],
)
def test_a_product_is_read_by_its_kind(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert pair(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i work at the county council", "i resigned from the county council", "superseded"),
        ("i work at the county council", "i resigned last month", "superseded"),
        # a post that is no job of theirs stays
        ("i work at the county council", "i resigned from the pta", "active"),
    ],
)
def test_resigning_ends_work(store: SQLiteStore, first: str, then: str, expected: str) -> None:
    status, _ = pair(store, first, then, 30)
    assert status == expected


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        (
            "i walk the kids to school",
            "switched to the school bus to school, so much easier",
            "superseded",
        ),
        ("i use notepad for recipes", "i switched to paprika for recipes", "superseded"),
        # another end: kept
        ("i walk the kids to school", "switched to the bus to work", "active"),
        # the old way named as still used: kept
        (
            "i walk the kids to school",
            "switched to the bus to school but still walk on fridays",
            "active",
        ),
    ],
)
def test_a_switch_for_the_same_end_ends_the_old_way(
    store: SQLiteStore, first: str, then: str, expected: str
) -> None:
    status, _ = pair(store, first, then, 30)
    assert status == expected


@pytest.mark.parametrize(
    "said", ["quick question", "serious question", "long story short", "first time here"]
)
def test_a_fragment_that_names_nothing_is_refused(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code == "vague"


@pytest.mark.parametrize(
    "said", ["shellfish allergy here", "retired plumber", "down to 80 kilos", "self employed"]
)
def test_a_fragment_that_names_something_is_kept(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == [said]


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        # the sessions' count is another measure than their length
        (
            "i extended my piano sessions to 2 hours",
            "i increased my piano sessions to 6 pieces",
            "active",
        ),
        (
            "i extended my piano sessions to 2 hours",
            "i increased my piano sessions to 3 hours",
            "superseded",
        ),
        # one measure in two units
        ("i increased my long runs to 8 km", "i increased my long runs to 10 miles", "superseded"),
    ],
)
def test_a_measure_in_another_unit_is_another_measure(
    store: SQLiteStore, first: str, then: str, expected: str
) -> None:
    status, _ = pair(store, first, then, 20)
    assert status == expected
