"""Corrections said without their sentence (`credo.corrections`), read alone and through
`Memory.remember` with the real parser and model. Every sentence is invented."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store

from credo.corrections import Amendment, amendment, amends
from credo.fact import Status
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

store = module_store("corrections")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("make that 10 people, my sister is coming", Amendment("10", "number", "people")),
        ("sorry i meant thursday", Amendment("thursday", "day", None)),
        ("oops, make it 6", Amendment("6", "number", None)),
        ("correction: the 8:12", Amendment("8:12", "number", None)),
        ("no wait, should be the 16th", Amendment("16th", "number", None)),
        ("make that cake for my mum", None),
        ("i meant what i said", None),
        ("the meeting is at 10", None),
    ],
)
def test_amendment(said: str, expected: Amendment | None) -> None:
    assert amendment(said) == expected


def test_amends_finds_the_one_value_of_its_kind() -> None:
    ten = Amendment("10", "number", "people")
    assert amends(ten, "the dinner is for 8 people on saturday") == "8"
    assert amends(ten, "the dinner is for 10 people") is None  # the same value
    assert amends(ten, "we have 2 dogs and 3 cats") is None  # no "people" counted
    six = Amendment("6", "number", None)
    assert amends(six, "we have 2 dogs and 3 cats") is None  # which one: no telling
    assert amends(Amendment("friday", "day", None), "standup is on tuesdays") == "tuesdays"


PAIRS = [
    (
        "the dinner is for 8 people on saturday",
        "make that 10 people, my sister is bringing her in-laws",
        ("superseded", "update"),
    ),
    ("the standup is on tuesday", "sorry i meant thursday", ("superseded", "update")),
    ("we need 4 folding chairs", "make it 6", ("superseded", "update")),
]


@pytest.mark.parametrize(("first", "then", "expected"), PAIRS)
def test_a_correction_the_same_day_updates(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    mem = memory(store)
    a = mem.remember(first, valid_from=T0)
    b = mem.remember(then, valid_from=T0 + 600)
    assert a.fact is not None and b.accepted and b.fact is not None, b.why
    old = store.get(a.fact.id, scope=mem.scope)
    assert old is not None
    assert (Status(old.status).value, Relation(b.relation).value) == expected
    assert b.fact.subject == a.fact.subject and b.fact.predicate == a.fact.predicate
    assert old.superseded_by == b.fact.id


def test_the_corrected_value_is_in_the_key(store: SQLiteStore) -> None:
    mem = memory(store)
    mem.remember("the dinner is for 8 people on saturday", valid_from=T0)
    b = mem.remember("make that 10 people", valid_from=T0 + 600)
    assert b.fact is not None and b.fact.object == "10 people on saturday"
    assert b.fact.text == "make that 10 people"  # the user's words, as said


@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("we need 4 folding chairs", "make it 6", 2 * 86400),  # not just before
        ("i have a cat", "make it a dog", 600),  # no value of the kind
        ("we have 2 dogs and 3 cats", "make that 4", 600),  # which one: no telling
    ],
)
def test_nothing_to_correct_keeps_the_refusal(
    store: SQLiteStore, first: str, then: str, gap: float
) -> None:
    mem = memory(store)
    a = mem.remember(first, valid_from=T0)
    b = mem.remember(then, valid_from=T0 + gap)
    assert not b.accepted and b.code == "instruction"
    assert a.fact is not None
    kept = store.get(a.fact.id, scope=mem.scope)
    assert kept is not None and kept.status is Status.ACTIVE


def test_a_correction_beside_a_question_is_read_as_a_clause(store: SQLiteStore) -> None:
    mem = memory(store)
    a = mem.remember("the picnic is for 6 people on sunday", valid_from=T0)
    b = mem.remember(
        "make that 9 people, my cousins are coming. how many sandwiches is that?",
        valid_from=T0 + 600,
    )
    assert a.fact is not None and b.accepted
    old = store.get(a.fact.id, scope=mem.scope)
    assert old is not None and old.status is Status.SUPERSEDED
    live = [f.text for f in mem.list(status="active")]
    assert any(t.startswith("make that 9 people") for t in live), live
    assert not any("how many" in t for t in live)


def test_a_correction_is_shown_with_what_it_corrected(store: SQLiteStore) -> None:
    mem = memory(store)
    mem.remember("the dinner is for 8 people on saturday", valid_from=T0)
    b = mem.remember("make that 10 people", valid_from=T0 + 600)
    assert b.fact is not None
    block = mem.render([b.fact])
    assert '"make that 10 people" (correcting: "the dinner is for 8 people on saturday")' in block
    # what it retired is listed once
    assert [f.text for f in b.touched] == ["the dinner is for 8 people on saturday"]
