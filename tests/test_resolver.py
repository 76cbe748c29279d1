"""The resolver is a pure function: every outcome, decided without a store."""

from __future__ import annotations

from credo.config import UPDATE_WINDOW
from credo.fact import Fact, Status
from credo.resolver import Relation, other_version, resolve
from credo.testing import exact_similarity, weak_similarity

DAY = 86400.0
T0 = 1_700_000_000.0


def fact(
    text: str,
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    *,
    at: float = T0,
    source: str = "user",
    **kw: object,
) -> Fact:
    return Fact(
        text=text,
        subject=subject,
        predicate=predicate,
        object=obj,
        source=source,
        created_at=at,
        valid_from=at,
        **kw,
    )  # type: ignore[arg-type]


def test_no_stored_fact_is_new() -> None:
    new = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin")
    assert resolve(new, [], similarity=weak_similarity).relation is Relation.NEW


def test_same_claim_in_other_words_is_a_duplicate() -> None:
    old = fact("Arttu prefers dark mode", "arttu", "like", "dark mode")
    new = fact("Arttu likes dark mode", "arttu", "like", "dark mode", at=T0 + 10 * DAY)
    res = resolve(new, [old], similarity=weak_similarity)
    assert res.relation is Relation.DUPLICATE
    assert res.existing is old
    (reinforced,) = res.writes
    assert reinforced.id == old.id and reinforced.confidence > old.confidence
    assert reinforced.access_count == old.access_count + 1


def test_high_similarity_does_not_make_a_different_value_a_duplicate() -> None:
    old = fact("Arttu prefers dark mode", "arttu", "like", "dark mode")
    new = fact("Arttu prefers light mode", "arttu", "like", "light mode", at=T0 + 60)
    res = resolve(new, [old], similarity=lambda a, b: 0.97)
    assert res.relation is Relation.CONFLICT  # dark / light mode exclude each other


def test_paraphrase_over_the_threshold_is_a_duplicate_without_a_key() -> None:
    old = fact("Standup is at nine every weekday", None, None, None)
    new = fact("Standup happens at nine on weekdays", None, None, None)
    res = resolve(new, [old], similarity=lambda a, b: 0.95, duplicate_at=0.9)
    assert res.relation is Relation.DUPLICATE


def test_without_a_key_vectors_never_claim_a_contradiction() -> None:
    old = fact("Standup is at nine every weekday", None, None, None)
    new = fact("Standup is at ten every weekday", None, None, None)
    res = resolve(new, [old], similarity=lambda a, b: 0.8, duplicate_at=0.9)
    assert res.relation is Relation.NEW


def test_refinement_replaces_and_keeps_lineage() -> None:
    old = fact("Arttu uses Postgres", "arttu", "use", "Postgres")
    new = fact("Arttu uses Postgres 16 on Neon", "arttu", "use", "Postgres 16 on Neon", at=T0 + 60)
    res = resolve(new, [old], similarity=weak_similarity)
    assert res.relation is Relation.REFINEMENT
    retired = next(w for w in res.writes if w.id == old.id)
    assert retired.status is Status.SUPERSEDED and retired.superseded_by == new.id
    assert old.id in res.incoming.derived_from
    assert res.lineage == ((old.id, new.id, "refines"),)


def test_vaguer_restatement_reinforces_the_specific_fact() -> None:
    old = fact("Arttu uses Postgres 16 on Neon", "arttu", "use", "Postgres 16 on Neon")
    new = fact("Arttu uses Postgres", "arttu", "use", "Postgres", at=T0 + 60)
    assert resolve(new, [old], similarity=weak_similarity).relation is Relation.DUPLICATE


def test_update_needs_a_later_assertion_by_the_window() -> None:
    old = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki")
    soon = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin", at=T0 + 3600)
    later = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin", at=T0 + UPDATE_WINDOW)
    assert resolve(soon, [old], similarity=weak_similarity).relation is Relation.CONFLICT
    res = resolve(later, [old], similarity=weak_similarity)
    assert res.relation is Relation.UPDATE
    retired = next(w for w in res.writes if w.id == old.id)
    assert retired.valid_to == later.valid_from


def test_newer_is_judged_by_when_it_was_asserted_not_inserted() -> None:
    # inserted long apart, but the new row reports a turn from the same hour
    old = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki")
    new = Fact(
        text="Arttu lives in Berlin",
        subject="arttu",
        predicate="live_in",
        object="Berlin",
        created_at=T0 + 300 * DAY,
        valid_from=T0 + 60,
    )
    assert resolve(new, [old], similarity=weak_similarity).relation is Relation.CONFLICT


def test_a_less_trusted_later_source_conflicts_instead_of_superseding() -> None:
    old = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki", source="user")
    new = fact(
        "Arttu lives in Berlin",
        "arttu",
        "live_in",
        "Berlin",
        at=T0 + 30 * DAY,
        source="inferred",
        confidence=0.5,
    )
    assert resolve(new, [old], similarity=weak_similarity).relation is Relation.CONFLICT


def test_an_older_assertion_arriving_late_becomes_history() -> None:
    current = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin", at=T0 + 400 * DAY)
    late = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki")
    res = resolve(late, [current], similarity=weak_similarity)
    assert res.relation is Relation.UPDATE and res.incoming_is_older
    assert res.incoming.status is Status.SUPERSEDED
    assert res.incoming.superseded_by == current.id


def test_multi_valued_relations_add_instead_of_contradicting() -> None:
    old = fact("Arttu plays guitar", "arttu", "play", "guitar")
    new = fact("Arttu plays chess", "arttu", "play", "chess", at=T0 + 60)
    assert resolve(new, [old], similarity=weak_similarity).relation is Relation.NEW
    assert other_version("Python 3.11", "Python 3.12")
    assert other_version("two kids", "three kids")
    assert not other_version("Python", "Rust")
    assert not other_version("Python 3.11", "Python 3.11")


def test_a_trusted_later_source_settles_an_open_conflict() -> None:
    a = fact(
        "The deploy target is staging", "deploy target", "is", "staging", status=Status.CONFLICTED
    )
    b = fact(
        "The deploy target is prod",
        "deploy target",
        "is",
        "prod",
        at=T0 + 60,
        status=Status.CONFLICTED,
    )
    c = fact("The deploy target is prod-eu", "deploy target", "is", "prod-eu", at=T0 + 30 * DAY)
    res = resolve(c, [a, b], similarity=weak_similarity)
    assert res.relation is Relation.UPDATE
    retired = {w.id for w in res.writes if w.status is Status.SUPERSEDED}
    assert retired == {a.id, b.id}


def test_conflict_flags_both_and_lowers_confidence() -> None:
    a = fact("The deploy target is staging", "deploy target", "is", "staging")
    b = fact("The deploy target is prod", "deploy target", "is", "prod", at=T0 + 60)
    res = resolve(b, [a], similarity=weak_similarity)
    assert res.relation is Relation.CONFLICT
    assert {w.id: w.status for w in res.writes} == {
        a.id: Status.CONFLICTED,
        b.id: Status.CONFLICTED,
    }
    assert all(w.confidence < 0.9 for w in res.writes)
    assert res.conflicts == ((a.id, b.id, res.why),)


def test_resolve_does_not_mutate_its_inputs() -> None:
    old = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki")
    snapshot = old.to_dict()
    new = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin", at=T0 + 400 * DAY)
    resolve(new, [old], similarity=exact_similarity)
    assert old.to_dict() == snapshot


def test_superseded_and_retracted_facts_are_not_resolved_against() -> None:
    old = fact("Arttu lives in Helsinki", "arttu", "live_in", "Helsinki", status=Status.SUPERSEDED)
    new = fact("Arttu lives in Berlin", "arttu", "live_in", "Berlin", at=T0 + 60)
    assert resolve(new, [old], similarity=weak_similarity).relation is Relation.NEW


def test_inferred_duplicates_stay_under_the_cap() -> None:
    old = fact("Arttu owns a bike", "arttu", "own", "a bike", source="inferred", confidence=0.6)
    new = fact("Arttu owns a bike", "arttu", "own", "a bike", source="inferred", confidence=0.5)
    (reinforced,) = resolve(new, [old], similarity=exact_similarity).writes
    assert reinforced.confidence <= 0.6
