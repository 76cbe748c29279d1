"""A text refused whole may still state a fact in one of its clauses, as people write to
an assistant: a hedge or a long request beside a plain statement. The clause is stored in
the user's words; the hedged or asking clause is not. Through `Memory.remember`, the real
parser and gate."""

from __future__ import annotations

import pytest

from credo import Memory


@pytest.mark.parametrize(
    "said, kept, left_out",
    [
        ("i moved to leeds last month, maybe i'll get a dog", "leeds", "dog"),
        # a feeling is a mood; what it is about is a fact
        ("so relieved that i finally passed my driving test", "driving test", "relieved"),
        ("thrilled to say i'm now a qualified electrician", "qualified electrician", "thrilled"),
        ("nervous because i started at a new law firm on monday", "law firm", "nervous"),
        # a request for the reason takes the reason's clause as true
        ("can you explain why my sourdough never rises?", "sourdough never rises", "explain"),
        ("clarify why i have never been billed for the api", "never been billed", "clarify"),
        (
            "I've been a paramedic for nine years and I'm trying to put together a study "
            "plan for the advanced life support course that fits around my night shifts, "
            "my gym sessions and the weekly choir rehearsals, and I would really like some "
            "help working out how many hours a week that leaves me realistically",
            "paramedic",
            "hours a week",
        ),
    ],
)
def test_the_stating_clause_is_kept(memory: Memory, said: str, kept: str, left_out: str) -> None:
    result = memory.remember(said)
    assert result.accepted, result.why
    texts = [f.text for f in memory.list()]
    assert any(kept in t for t in texts), texts
    assert not any(left_out in t for t in texts), texts


def test_a_hedge_stays_with_its_clause(memory: Memory) -> None:
    result = memory.remember("i think my landlord is called derek")
    assert not result.accepted and result.code == "hedged"
    assert memory.list() == []


def test_a_worry_about_what_may_happen_is_no_fact(memory: Memory) -> None:
    result = memory.remember("i'm worried that i might lose my job")
    assert not result.accepted
    assert memory.list() == []


def test_it_in_capitals_is_the_trade(memory: Memory) -> None:
    result = memory.remember("i work in IT")
    assert result.accepted, result.why
    assert not memory.remember("i like it").accepted  # the pronoun still refers to nothing


@pytest.mark.parametrize(
    "said, kept",
    [
        ("my son started primary school this week", True),  # a change, dated
        ("we adopted a greyhound this week", True),
        ("i had sushi today", False),  # passing
        ("im swamped this week", False),
    ],
)
def test_a_change_told_today_is_dated_not_passing(memory: Memory, said: str, kept: bool) -> None:
    assert memory.remember(said).accepted is kept


@pytest.mark.parametrize(
    "said",
    [
        "explain how i can deploy it to the staging box",  # how: a question, no fact
        "can you explain why the sky looks blue?",  # not the speaker's, nor their thing's
    ],
)
def test_a_request_that_tells_nothing_stores_nothing(memory: Memory, said: str) -> None:
    result = memory.remember(said)
    assert not result.accepted
    assert memory.list() == []
