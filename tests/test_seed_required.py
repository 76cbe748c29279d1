"""The seed's required tests (memory-semantic.md, "Required tests"), filled in.

They read like the spec on purpose; each runs on every store backend."""

from __future__ import annotations

import time

from credo.fact import Fact, Status, normalize_entity
from credo.gate import passes_gate
from credo.memory import Memory
from credo.recall import recall
from credo.render import render
from credo.resolver import apply, resolve
from credo.store.base import Store
from credo.testing import FakeChat, exact_similarity, weak_similarity


def test_gate_rejects_affect_and_hedges() -> None:
    assert not passes_gate({"text": "The user seems frustrated with the build", "subject": "user"})[
        0
    ]
    assert not passes_gate(
        {"text": "Arttu might switch to Postgres eventually", "subject": "arttu"}
    )[0]
    assert not passes_gate({"text": "Arttu deploys on Vercel"})[0]  # no subject
    assert passes_gate({"text": "Arttu deploys arttuan.com on Vercel", "subject": "arttu"})[0]


def test_duplicate_reinforces_and_does_not_add(store: Store) -> None:
    a = Fact(text="Arttu prefers dark mode", subject="arttu", predicate="prefers")
    store.put(a)
    b = Fact(text="Arttu prefers dark mode", subject="arttu", predicate="prefers")
    apply(store, resolve(b, [a], similarity=exact_similarity))
    assert len(store.all(scope="default", status=Status.ACTIVE)) == 1
    stored = store.get(a.id, scope="default")
    assert stored is not None and stored.confidence > a.confidence


def test_update_supersedes_and_keeps_lineage(store: Store) -> None:
    old = Fact(
        text="Arttu lives in Helsinki",
        subject="arttu",
        predicate="lives_in",
        object="helsinki",
        created_at=time.time() - 400 * 86400,
    )
    store.put(old)
    new = Fact(text="Arttu lives in Berlin", subject="arttu", predicate="lives_in", object="berlin")
    apply(store, resolve(new, [old], similarity=weak_similarity))
    stored_old = store.get(old.id, scope="default")
    stored_new = store.get(new.id, scope="default")
    assert stored_old is not None and stored_new is not None
    assert stored_old.status is Status.SUPERSEDED
    assert stored_old.superseded_by == new.id
    assert stored_old.valid_to == stored_new.valid_from
    assert old.id in stored_new.derived_from
    assert (old.id, new.id, "supersedes") in store.lineage(scope="default")


def _deploy_conflict(store: Store) -> tuple[Fact, Fact]:
    now = time.time()
    a = Fact(
        text="The deploy target is staging",
        subject="deploy",
        predicate="target",
        object="staging",
        created_at=now,
    )
    b = Fact(
        text="The deploy target is prod",
        subject="deploy",
        predicate="target",
        object="prod",
        created_at=now + 60,
    )
    store.put(a)
    apply(store, resolve(b, [a], similarity=weak_similarity))
    return a, b


def test_conflict_keeps_both_and_flags(store: Store) -> None:
    a, b = _deploy_conflict(store)
    assert store.get(a.id, scope="default").status is Status.CONFLICTED  # type: ignore[union-attr]
    assert store.get(b.id, scope="default").status is Status.CONFLICTED  # type: ignore[union-attr]
    assert [f.id for f in store.conflicts_of(a.id, scope="default")] == [b.id]


def test_conflicted_facts_both_reach_the_prompt(store: Store) -> None:
    _deploy_conflict(store)
    rendered = render([h.fact for h in recall(store, "deploy target", k=5)])
    assert "staging" in rendered and "prod" in rendered
    assert "contradict" in rendered


def test_conflicted_partner_comes_even_when_k_is_one(store: Store) -> None:
    _deploy_conflict(store)
    texts = {h.fact.text for h in recall(store, "deploy target staging", k=1)}
    assert texts == {"The deploy target is staging", "The deploy target is prod"}


def test_superseded_facts_are_not_recalled(store: Store) -> None:
    mem = Memory(store)
    mem.remember("Arttu lives in Helsinki", valid_from=time.time() - 400 * 86400)
    mem.remember("Arttu lives in Berlin")
    hits = recall(store, "where does arttu live")
    assert hits, "the current fact must be recalled"
    assert all(h.fact.status is not Status.SUPERSEDED for h in hits)
    assert "Helsinki" not in render(hits)


def test_inferred_confidence_is_capped(store: Store) -> None:
    mem = Memory(store)
    result = mem.remember("Arttu owns a red bicycle", source="inferred", confidence=0.95)
    assert result.fact is not None and result.fact.confidence <= 0.6
    again = mem.remember("Arttu owns a red bicycle", source="inferred")
    assert again.fact is not None and again.fact.confidence <= 0.6


def test_self_reference_normalizes_to_the_scope_subject() -> None:
    assert normalize_entity("the user", canonical_subject="arttu") == "arttu"
    assert normalize_entity("You", canonical_subject="arttu") == "arttu"
    assert normalize_entity("Anna", canonical_subject="arttu") == "anna"  # not merged


def test_empty_extraction_is_a_normal_outcome() -> None:
    from credo.extract.llm import LLMExtractor

    extractor = LLMExtractor(FakeChat(["[]"]))
    assert extractor.extract("nice weather today").candidates == []


def test_forget_removes_derived_facts_too(store: Store) -> None:
    mem = Memory(store, scope="user-a")
    base = mem.remember("Arttu works at Reaktor").fact
    assert base is not None
    inferred = mem.remember(
        "Arttu lives near Helsinki", source="inferred", derived_from=[base.id]
    ).fact
    assert inferred is not None
    other = Memory(store, scope="user-b").remember("Anna works at Futurice").fact
    report = mem.forget(id=base.id)
    assert set(report.fact_ids) == {base.id, inferred.id}
    store.forget(scope="user-a", everything=True)
    assert not store.all(scope="user-a")
    assert other is not None and store.get(other.id, scope="user-b") is not None
