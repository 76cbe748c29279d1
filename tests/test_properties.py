"""Invariants, checked on generated input (hypothesis)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo.embed import HashEmbedder
from credo.errors import InvalidInput
from credo.fact import Status
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

SUBJECTS = ["Arttu", "Anna", "The deploy target", "My editor", "I"]
VERBS = ["lives in", "works at", "is", "uses", "deploys to", "prefers"]
OBJECTS = [
    "Berlin",
    "Helsinki",
    "prod",
    "staging",
    "Helix",
    "Postgres",
    "Postgres 16 on Neon",
    "dark mode",
    "light mode",
]

statement = st.builds(
    lambda s, v, o: f"{s} {v} {o}",
    st.sampled_from(SUBJECTS),
    st.sampled_from(VERBS),
    st.sampled_from(OBJECTS),
)
anything = st.text(min_size=0, max_size=80)
step = st.tuples(
    st.one_of(statement, anything),
    st.integers(min_value=0, max_value=900),
    st.sampled_from(["user", "tool:crm", "inferred", "imported:wiki"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=12))
def test_no_remember_loses_an_existing_fact(steps: list[tuple[str, int, str]]) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        SQLiteStore(Path(tmp) / "p.db", HashEmbedder()) as store,
    ):
        mem = Memory(store)
        seen: set[str] = set()
        for text, days_ago, source in steps:
            try:
                mem.remember(text, valid_from=1_700_000_000 - days_ago * 86400, source=source)
            except InvalidInput:
                pass  # refused input is fine; losing a stored fact is not
            facts = {f.id: f for f in mem.list()}
            assert seen <= set(facts), "a stored fact disappeared"
            seen |= set(facts)
            for fact in facts.values():
                if fact.status is Status.SUPERSEDED:
                    assert fact.superseded_by in facts
                if fact.status is Status.CONFLICTED:
                    assert store.conflicts_of(fact.id, scope="default")
            live = [
                (f.subject, f.predicate, (f.object or "").lower())
                for f in facts.values()
                if f.is_live and f.subject and f.predicate
            ]
            assert len(live) == len(set(live)), "two live facts make the same claim"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(statement, min_size=1, max_size=6),
    st.lists(statement, min_size=1, max_size=6),
    st.one_of(statement, anything.filter(lambda q: q.strip() != "")),
)
def test_no_query_under_scope_a_returns_a_fact_of_scope_b(
    a_facts: list[str], b_facts: list[str], query: str
) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        SQLiteStore(Path(tmp) / "w.db", HashEmbedder()) as store,
    ):
        a, b = Memory(store, scope="a"), Memory(store, scope="b")
        for text in a_facts:
            a.remember(text)
        for text in b_facts:
            b.remember(text)
        for mem, scope in ((a, "a"), (b, "b")):
            assert all(h.fact.scope == scope for h in mem.recall(query, k=20))
            assert all(f.scope == scope for f in mem.list())
            assert all(c.a.scope == scope and c.b.scope == scope for c in mem.conflicts())


# -- the write path's invariants, on sentences people say (the real parser) -----------------
CLAIMS = [
    ("I live in {}", ["Helsinki", "Berlin", "Oslo"]),
    ("I use {}", ["Python 3.11", "Python 3.12", "Rust", "Postgres", "Postgres 16 on Neon"]),
    ("I eat {}", ["meat", "fish"]),
    ("I like {}", ["hiking", "cooking", "jazz"]),
    ("My editor is {}", ["Helix", "Vim", "VS Code"]),
    ("The deploy target is {}", ["staging", "prod", "prod in eu-west"]),
    ("I have {}", ["two kids", "three kids", "a dog"]),
    ("I work at {}", ["Reaktor", "Nokia"]),
    ("I'm {}", ["vegetarian", "married", "single", "a nurse"]),
]
NEGATED = {
    "I live in {}": "I no longer live in {}",
    "I use {}": "I stopped using {}",
    "I eat {}": "I don't eat {}",
    "I like {}": "I never like {}",
    "I have {}": "I don't have {}",
    "I work at {}": "I don't work at {}",
    "I'm {}": "I'm not {}",
    "My editor is {}": "My editor is not {}",
    "The deploy target is {}": "The deploy target is not {}",
}


@st.composite
def said(draw: st.DrawFn) -> tuple[str, bool]:
    template, values = draw(st.sampled_from(CLAIMS))
    negate = draw(st.booleans())
    text = (NEGATED[template] if negate else template).format(draw(st.sampled_from(values)))
    return text, negate


write = st.tuples(
    said(),
    st.integers(min_value=0, max_value=800),
    st.sampled_from(["user", "user", "tool:crm", "inferred"]),
)
NEGATION_WORDS = ("not", "n't", "never", "no longer", "stopped")


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(write, min_size=2, max_size=10))
@example(
    [
        (("The deploy target is prod", False), 1, "user"),  # found by a run: two live values
        (("The deploy target is not prod in eu-west", True), 0, "user"),
        (("The deploy target is prod in eu-west", False), 0, "user"),
    ]
)
def test_the_write_path_never_loses_or_invents(
    steps: list[tuple[tuple[str, bool], int, str]],
) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        SQLiteStore(Path(tmp) / "w.db", HashEmbedder()) as store,
    ):
        mem = Memory(store, scope="p", clock=lambda: 1_800_000_000.0)
        for (text, negated), day, source in steps:
            before = {f.id: f for f in mem.list() if f.is_live}
            result = mem.remember(text, valid_from=1_700_000_000 + day * 86400, source=source)
            after = {f.id: f for f in mem.list()}
            if result.accepted and result.fact is not None and negated:
                stored = result.fact.text.lower()
                assert any(w in stored for w in NEGATION_WORDS), (text, result.fact.text)
            # no live value lost without a superseding fact that names it in its lineage
            for fid in before:
                now = after[fid]
                if not now.is_live:
                    assert now.status is Status.SUPERSEDED and now.superseded_by in after
                    assert any(p == fid for p, _, _ in mem.lineage(now.superseded_by)), text
            # a live conflicted fact always has a live partner, and open conflicts are live
            for fact in after.values():
                if fact.status is Status.CONFLICTED:
                    assert store.conflicts_of(fact.id, scope="p"), fact.text
            assert all(c.a.is_live and c.b.is_live for c in mem.conflicts())
            # no one-valued key holds two live values unless they are flagged
            live_one: dict[tuple[str, str], list[Status]] = {}
            for fact in after.values():
                if (
                    fact.is_live
                    and fact.key
                    and mem.catalogue.one_valued(fact.predicate or "")
                    and not (fact.predicate or "").startswith("not_")
                ):
                    live_one.setdefault(fact.key, []).append(fact.status)
            for key, statuses in live_one.items():
                assert len(statuses) == 1 or set(statuses) == {Status.CONFLICTED}, key
