"""A denial of the past ("I've never ...") against a report of what it denies, said in
other words and on another key: both kept and flagged, at any gap (the past does not
change). The report may name the denied thing anywhere in its sentence; a doing said
with another verb, a liking, or another thing of the same kind is no report of it.
Real sentences through `Memory.remember`, the real parser and embedding model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from credo.embed import get_embedder
from credo.fact import Status
from credo.keys import content_lemmas, denied_words
from credo.memory import Memory
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

DAY = 86400.0
T0 = 1_704_067_200.0  # 2024-01-01


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    path = tmp_path_factory.mktemp("denial") / "d.db"
    with SQLiteStore(path, get_embedder("local:minilm")) as s:
        yield s


def _told(store: SQLiteStore, scope: str, first: str, then: str, gap_days: float = 0):
    mem = Memory(store, scope=scope)
    a = mem.remember(first, valid_from=T0)
    b = mem.remember(then, valid_from=T0 + gap_days * DAY)
    assert a.accepted and b.accepted, (a.why, b.why)
    assert a.fact is not None
    return b, store.get(a.fact.id, scope=scope)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # the denied doing, said in the report in another tense
        ("i skied for my county as a teenager", "ive never learned to ski lol"),
        # the thing named in the report's other words, with two words of it shared
        (
            "i got 7/10 on the quiz about sorting algorithms and binary trees",
            "ive never studied binary trees or any sorting algorithms",
        ),
        # a name the report uses, denied with another verb joined by "or"
        (
            "our api runs behind Traefik 2.10 on two small boxes",
            "I've never configured a reverse proxy or used Traefik at all",
        ),
        # typed as people type, a year later: still a clash, not an update
        ("ran my first half marathon in oslo in 2022", "ive never run a half marathon"),
    ],
)
def test_a_denial_of_the_past_flags_the_report_it_denies(
    store: SQLiteStore, first: str, then: str
) -> None:
    b, a = _told(store, f"clash-{hash(first)}", first, then, gap_days=300)
    assert b.relation is Relation.CONFLICT, b.why
    assert a is not None and a.status is Status.CONFLICTED


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i play squash twice a week", "i never played cricket"),  # another of its kind
        ("im learning italian on an app", "i never learned how to ride a bike"),  # the manner
        ("i adore lisbon", "ive never lived in lisbon"),  # a liking is no report
        ("i ride my neighbour's horse on sundays", "ive never owned a horse"),  # another doing
        ("i was a lifeguard at a lake", "ive never set foot in a gym"),  # nothing shared
    ],
)
def test_what_the_denial_does_not_deny_coexists(store: SQLiteStore, first: str, then: str) -> None:
    b, a = _told(store, f"apart-{hash(first)}", first, then)
    assert b.relation is Relation.NEW, b.why
    assert a is not None and a.status is Status.ACTIVE


def test_the_denied_words_are_the_thing_not_the_manner() -> None:
    heads, said, doing = denied_words("I never learned to ski")
    assert heads == {"ski"} and doing == {"ski"} and "learn" in said
    heads, said, doing = denied_words("ive never tried any of the sourdough recipes")
    assert "recipe" in heads and "try" not in heads and not doing
    # a clause that goes on to something else is not denied
    heads, said, _ = denied_words("i never went to college, went straight into a trade")
    assert heads == {"college"} and "trade" not in said
    assert denied_words("I love hiking") == (frozenset(), frozenset(), frozenset())


def test_content_lemmas_leave_out_stop_words_and_light_verbs() -> None:
    assert content_lemmas("I have two dogs and I walk them daily") >= {"dog", "walk"}
    assert not content_lemmas("I have it") & {"have", "it", "i"}
