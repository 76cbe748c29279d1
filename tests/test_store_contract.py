"""The store contract and the Memory behaviours built on it, run on every backend."""

from __future__ import annotations

import json
import re
import time

import pytest

from credo.errors import InvalidInput, NotFound
from credo.fact import Fact, Status
from credo.memory import Memory
from credo.resolver import Relation
from credo.store.base import ScopeError, Store, StoreError

HOSTILE_QUERIES = [
    '"',
    "'",
    "AND",
    "OR NOT",
    "NEAR(",
    "deploy*",
    "^prod",
    "col:val",
    "a - b",
    "(((",
    ")",
    '"unbalanced AND OR NEAR(',
    "{}",
    "+-*/",
    "🙂",
    "x" * 500,
    "-- drop table facts;",
    "\x00",
    "NOT",
    "a:b:c",
    '""',
    "* OR *",
]


def test_put_then_get_round_trips_every_field(store: Store) -> None:
    fact = Fact(
        text="Arttu lives in Berlin",
        subject="arttu",
        predicate="live_in",
        object="Berlin",
        scope="s1",
        source="tool:crm",
        confidence=0.85,
        derived_from=["ep1", "turn-3"],
        created_at=1000.0,
        valid_from=900.0,
    )
    store.put(fact)
    assert store.get(fact.id, scope="s1") == fact


def test_text_and_key_are_never_overwritten(store: Store) -> None:
    fact = Fact(text="Arttu lives in Berlin", subject="arttu", predicate="live_in")
    store.put(fact)
    with pytest.raises(StoreError):
        store.put(fact.evolve(text="Arttu lives in Paris"))
    store.put(fact.evolve(status=Status.RETRACTED))
    assert store.get(fact.id, scope="default").status is Status.RETRACTED  # type: ignore[union-attr]


def test_scope_wall_on_every_read(store: Store) -> None:
    a, b = Memory(store, scope="alice"), Memory(store, scope="bob")
    fa = a.remember("Alice lives in Oslo").fact
    a.remember("The deploy target is staging")
    a.remember("The deploy target is prod")
    a.alias_add("al", "alice")
    assert fa is not None
    assert b.recall("where does alice live in oslo") == []
    assert b.list() == [] and b.conflicts() == [] and b.aliases() == {}
    assert store.get(fa.id, scope="bob") is None
    assert store.get_many([fa.id], scope="bob") == []
    assert store.vector_search("Oslo", scope="bob", k=10) == []
    assert store.lexical_search("Oslo", scope="bob", k=10) == []
    assert store.by_subject("alice", scope="bob") == []
    with pytest.raises(NotFound):
        b.forget(id=fa.id)
    assert store.get(fa.id, scope="alice") is not None
    with pytest.raises(StoreError):
        store.put(fa.evolve(scope="bob"))


def test_ids_held_elsewhere_names_only_other_scopes_ids(store: Store) -> None:
    a, b, c = (Fact(text=f"Fact {n}", scope=s) for n, s in enumerate(("alice", "bob", "bob")))
    for fact in (a, b, c):
        store.put(fact)
    asked = [a.id, b.id, c.id, "f_unknown", b.id]
    assert store.ids_held_elsewhere(asked, scope="bob") == {a.id}
    assert store.ids_held_elsewhere(asked, scope="alice") == {b.id, c.id}
    assert store.ids_held_elsewhere(asked, scope="carol") == {a.id, b.id, c.id}
    assert store.ids_held_elsewhere([], scope="bob") == set()


def test_a_fact_cannot_be_written_into_another_scope_by_id(store: Store) -> None:
    fact = Fact(text="Alice lives in Oslo", scope="alice")
    store.put(fact)
    with pytest.raises(StoreError):
        store.put(Fact(text="Alice lives in Oslo", scope="bob", id=fact.id))


@pytest.mark.parametrize("scope", ["", " ", "a b", "x" * 200, "a/b", "a'b"])
def test_bad_scope_names_are_refused(store: Store, scope: str) -> None:
    with pytest.raises(ScopeError):
        Memory(store, scope=scope)


@pytest.mark.parametrize("query", HOSTILE_QUERIES)
def test_fts_hostile_queries_never_raise(memory: Memory, query: str) -> None:
    """A query is read as words, never as full-text syntax: no error, the fact found when
    the query holds one of its words and not otherwise, nothing of another scope, and the
    table untouched afterwards."""
    fact = memory.remember("The deploy target is prod").fact
    other = Memory(memory.store, scope="other").remember("The deploy target is prod").fact
    assert fact is not None and other is not None
    found = memory.store.lexical_search(query, scope="default", k=5)
    words = set(re.findall(r"\w+", query.lower()))
    expected = [fact.id] if words & {"deploy", "target", "prod"} else []
    assert [i for i, _ in found] == expected
    if query.strip(" \x00"):
        hits = memory.recall(query)
        assert {h.fact.id for h in hits} <= {fact.id}  # never the other scope's twin
    assert [f.id for f in memory.list()] == [fact.id]
    assert [i for i, _ in memory.store.lexical_search("deploy", scope="default", k=5)] == [fact.id]


def test_empty_query_is_a_clear_error(memory: Memory) -> None:
    with pytest.raises(InvalidInput):
        memory.recall("   ")


def test_lexical_and_vector_search_find_the_fact(memory: Memory) -> None:
    memory.remember("Arttu deploys arttuan.com on Vercel")
    memory.remember("Anna rides a green bicycle")
    lexical = memory.store.lexical_search("vercel", scope="default", k=5)
    assert len(lexical) == 1
    hits = memory.recall("where does Arttu deploy")
    assert hits[0].fact.text == "Arttu deploys arttuan.com on Vercel"
    assert "entity" in hits[0].found_by


def test_vector_index_follows_writes_and_forgets(memory: Memory) -> None:
    first = memory.remember("Arttu plays the cello").fact
    assert first is not None
    assert (
        memory.store.vector_search("Arttu plays the cello", scope="default", k=1)[0][0] == first.id
    )
    second = memory.remember("Arttu collects vintage stamps").fact
    assert second is not None
    found = memory.store.vector_search("Arttu collects vintage stamps", scope="default", k=1)
    assert found[0][0] == second.id
    memory.forget(id=second.id)
    ids = [i for i, _ in memory.store.vector_search("stamps", scope="default", k=10)]
    assert second.id not in ids and first.id in ids


def test_remember_update_and_conflict_end_to_end(memory: Memory) -> None:
    long_ago = time.time() - 400 * 86400
    memory.remember("Arttu lives in Helsinki", valid_from=long_ago)
    update = memory.remember("Arttu lives in Berlin")
    assert update.relation is Relation.UPDATE
    assert [f.status for f in update.touched] == [Status.SUPERSEDED]
    memory.remember("The deploy target is staging")
    conflict = memory.remember("The deploy target is prod")
    assert conflict.relation is Relation.CONFLICT
    (pair,) = memory.conflicts()
    assert {pair.a.object, pair.b.object} == {"staging", "prod"}
    statuses = sorted(f.status.value for f in memory.list())
    assert statuses == ["active", "conflicted", "conflicted", "superseded"]


def test_valid_from_dates_are_validated(memory: Memory) -> None:
    with pytest.raises(InvalidInput):
        memory.remember("Arttu lives in Berlin", valid_from="last tuesday")
    result = memory.remember("Arttu lives in Berlin", valid_from="2024-05-01")
    assert result.fact is not None
    assert time.strftime("%Y-%m-%d", time.gmtime(result.fact.valid_from)) == "2024-05-01"


def test_bad_input_is_refused_and_loses_nothing(memory: Memory) -> None:
    memory.remember("Arttu lives in Berlin")
    with pytest.raises(InvalidInput):
        memory.remember("")
    with pytest.raises(InvalidInput):
        memory.remember("x " * 2000)
    with pytest.raises(InvalidInput):
        memory.remember("Arttu lives in Paris", source="gossip")
    with pytest.raises(InvalidInput):
        memory.list(status="deleted")
    assert [f.object for f in memory.list()] == ["Berlin"]


def test_gate_rejections_are_stored_with_reasons(memory: Memory) -> None:
    result = memory.remember("The user seems frustrated with the build")
    assert not result.accepted and result.code == "affect"
    (rejection,) = memory.rejections()
    assert rejection.code == "affect" and "frustrated" in rejection.reason
    assert memory.list() == []


def test_secret_rejections_are_stored_masked(memory: Memory) -> None:
    key = "sk-proj-" + "Zx9Yw8Vu" * 6
    result = memory.remember(f"Arttu's OpenAI key is {key}")
    assert result.code == "secret"
    (rejection,) = memory.rejections()
    assert key not in rejection.text and "OpenAI key" in rejection.text


def test_aliases_join_entities_and_self_references(memory: Memory) -> None:
    memory.alias_add("@ArttuAn", "Arttu")
    memory.alias_add("user", "arttu")
    memory.remember("I live in Berlin")
    memory.remember("ArttuAn deploys arttuan.com on Vercel")
    facts = memory.list(subject="arttu")
    assert len(facts) == 2
    assert all(f.subject == "arttu" for f in facts)
    assert facts[0].text == "Arttu lives in Berlin"
    assert memory.list(subject="anna") == []
    memory.alias_remove("@arttuan")
    assert "arttuan" not in memory.aliases()
    with pytest.raises(NotFound):
        memory.alias_remove("nobody")


def test_similar_names_are_never_merged(memory: Memory) -> None:
    memory.remember("Arttu Antikainen lives in Helsinki")
    memory.remember("Anna Antikainen lives in Berlin")
    assert {f.subject for f in memory.list()} == {"arttu antikainen", "anna antikainen"}
    assert memory.conflicts() == []


def test_resolve_conflict_keeps_one_and_records_who(memory: Memory) -> None:
    memory.remember("The deploy target is staging")
    prod = memory.remember("The deploy target is prod").fact
    assert prod is not None
    changed = memory.resolve_conflict(keep=prod.id, decided_by="arttu")
    assert changed[0].id == prod.id and changed[0].status is Status.ACTIVE
    assert changed[1].status is Status.RETRACTED
    assert memory.conflicts() == []
    (settled,) = memory.conflicts(include_resolved=True)
    assert settled.decided_by == "arttu" and settled.resolution == f"kept {prod.id}"
    assert [h.fact.object for h in memory.recall("deploy target")] == ["prod"]


def test_resolve_conflict_can_retract_both(memory: Memory) -> None:
    a = memory.remember("The deploy target is staging").fact
    b = memory.remember("The deploy target is prod").fact
    assert a is not None and b is not None
    memory.resolve_conflict(retract=[a.id, b.id], decided_by="arttu")
    assert {f.status for f in memory.list()} == {Status.RETRACTED}
    assert memory.recall("deploy target") == []
    with pytest.raises(InvalidInput):
        memory.resolve_conflict(decided_by="arttu")


def test_forget_by_subject_takes_aliases_rejections_and_lineage(memory: Memory) -> None:
    memory.alias_add("@arttuan", "arttu")
    memory.remember("Arttu lives in Helsinki", valid_from=time.time() - 400 * 86400)
    memory.remember("Arttu lives in Berlin")
    memory.remember("Anna lives in Oslo")
    memory.remember_candidate  # noqa: B018 - the public path used by extractors
    from credo.gate import Candidate

    memory.remember_candidate(Candidate(text="Arttu seems stressed lately", subject="arttu"))
    report = memory.forget(subject="@arttuan")
    assert report.facts == 2 and report.vectors == 2 and report.fts_rows == 2
    assert report.lineage == 1 and report.rejections == 1 and report.aliases == 1
    assert [f.subject for f in memory.list()] == ["anna"]
    assert memory.recall("Helsinki Berlin") == [] or all(
        h.fact.subject == "anna" for h in memory.recall("Helsinki Berlin")
    )


def test_forget_by_episode_and_reopen_conflict_partner(memory: Memory) -> None:
    memory.remember("The deploy target is staging", derived_from=["ep-1"])
    prod = memory.remember("The deploy target is prod", derived_from=["ep-2"]).fact
    assert prod is not None
    report = memory.forget(episode="ep-1")
    assert report.facts == 1 and report.conflicts == 1
    assert report.reopened == [prod.id]
    assert memory.get(prod.id).status is Status.ACTIVE


def test_forget_needs_a_target(memory: Memory) -> None:
    with pytest.raises(InvalidInput):
        memory.forget()


def test_export_import_round_trip_loses_nothing(store: Store, tmp_path: object) -> None:
    from conftest import drop_store, make_store

    src = Memory(store, scope="team")
    src.alias_add("@arttuan", "arttu")
    src.remember(
        "Arttu lives in Helsinki", valid_from=time.time() - 400 * 86400, derived_from=["ep-1"]
    )
    src.remember("Arttu lives in Berlin", derived_from=["ep-2"])
    src.remember("The deploy target is staging")
    src.remember("The deploy target is prod")
    a = src.remember("The API's host is Fly").fact
    b = src.remember("The API's host is Render").fact
    assert a and b
    src.resolve_conflict(keep=b.id, decided_by="arttu")
    src.add_rule("home address")
    src.remember("I might move to Paris")
    exported = [json.loads(json.dumps(r)) for r in src.export()]

    import pathlib

    other = make_store("sqlite", pathlib.Path(str(tmp_path)) / "copy")
    try:
        dst = Memory(other, scope="team")
        report = dst.import_(exported)
        assert report.facts == 6 and report.conflicts == 2 and report.aliases == 1
        assert report.rules == 1 and report.rejections == 1 and report.lineage == 1
        again = [r for r in dst.export() if r["type"] != "header"]
        assert again == [r for r in exported if r["type"] != "header"]
        # importing twice changes nothing
        assert dst.import_(exported).skipped == 6
        assert dst.recall("deploy target")  # vectors were rebuilt
    finally:
        drop_store(other)


def test_import_refuses_malformed_records(memory: Memory) -> None:
    with pytest.raises(InvalidInput):
        memory.import_([{"type": "fact", "text": ""}])
    with pytest.raises(InvalidInput):
        memory.import_([{"no": "type"}])
    with pytest.raises(InvalidInput):
        memory.import_([{"type": "conflict", "scope": "default"}])
    assert memory.list() == []


def test_reindex_re_embeds_and_model_mismatch_is_an_error(tmp_path: object) -> None:
    import pathlib

    from credo.embed import HashEmbedder
    from credo.store.sqlite import SQLiteStore

    path = pathlib.Path(str(tmp_path)) / "m.db"
    with SQLiteStore(path, HashEmbedder(64)) as s:
        Memory(s).remember("Arttu lives in Berlin")
    with SQLiteStore(path, HashEmbedder(128)) as s:
        with pytest.raises(StoreError, match="credo reindex"):
            Memory(s).recall("Berlin")
        assert s.reindex() == 1
        assert Memory(s).recall("Berlin")


def test_being_a_nurse_and_a_father_are_both_kept(memory: Memory) -> None:
    memory.remember("Arttu is a nurse", valid_from=time.time() - 5 * 86400)
    assert memory.remember("Arttu is a father").relation is Relation.NEW
    assert {f.status for f in memory.list()} == {Status.ACTIVE}


def test_subject_rules_match_whatever_the_candidate_calls_the_subject(memory: Memory) -> None:
    from credo.gate import Candidate

    memory.alias_add("the countess", "Ada")
    memory.add_rule("address", subject="Ada")
    result = memory.remember_candidate(
        Candidate(text="Ada's address is Main Street 1", subject="The Countess")
    )
    assert result.code == "suppressed"
    other = memory.remember_candidate(
        Candidate(text="Bob's address is Main Street 2", subject="Bob")
    )
    assert other.accepted


def test_control_characters_are_refused_clearly(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="control characters"):
        memory.remember("Arttu lives in\x00 Berlin")
    from credo.gate import Candidate

    assert (
        memory.remember_candidate(Candidate(text="Arttu lives in\x00 Berlin", subject="arttu")).code
        == "malformed"
    )


def test_conflict_times_come_from_the_memory_clock(store: Store) -> None:
    now = [1_800_000_000.0]
    mem = Memory(store, clock=lambda: now[0])
    mem.remember("The deploy target is staging")
    prod = mem.remember("The deploy target is prod").fact
    assert prod is not None
    (conflict,) = mem.conflicts()
    assert conflict.created_at == 1_800_000_000.0
    now[0] += 100
    mem.resolve_conflict(keep=prod.id, decided_by="arttu")
    (settled,) = mem.conflicts(include_resolved=True)
    assert settled.resolved_at == 1_800_000_100.0


def test_a_write_is_found_by_vector_search_inside_its_transaction(store: Store) -> None:
    """The resolver searches before storing each candidate of an episode, all in one
    transaction: a fact written earlier in it must be found, or an episode could store
    the same sentence twice."""
    mem = Memory(store, scope="s1")
    with store.transaction():
        first = mem.remember("Gina opened her own dance studio downtown in 2023")
        again = mem.remember("Gina opened her own dance studio downtown in 2023")
        assert first.fact is not None
        assert again.relation is Relation.DUPLICATE
        found = store.vector_search(
            "Gina opened her own dance studio downtown in 2023", scope="s1", k=3
        )
        assert found and found[0][0] == first.fact.id
        assert store.vector_search("Gina dance studio", scope="s2", k=3) == []
        # recall too: its embedding (and on PostgreSQL its vector search) runs on a worker
        # thread, which must neither miss the transaction's write nor wait for its lock
        hits = mem.recall("who opened a dance studio")
        assert [h.fact.id for h in hits] == [first.fact.id]
    assert len(store.all(scope="s1")) == 1


def test_a_fact_forgotten_inside_a_transaction_is_not_found_inside_it(store: Store) -> None:
    mem = Memory(store, scope="s1")
    kept = mem.remember("Gina opened her own dance studio downtown in 2023").fact
    gone = mem.remember("Gina teaches salsa classes on Tuesdays").fact
    assert kept is not None and gone is not None
    query = store.embed(["Gina salsa classes"], kind="query")[0]
    with store.transaction():
        store.forget(scope="s1", ids=[gone.id])
        found = [fid for fid, _, _ in store.nearest(query, scope="s1", k=5)]
        assert found == [kept.id]
        assert [fid for fid, _ in store.vector_search(query, scope="s1", k=5)] == [kept.id]
    assert [fid for fid, _ in store.vector_search(query, scope="s1", k=5)] == [kept.id]


def test_nearest_is_vector_search_with_the_stored_vectors(memory: Memory) -> None:
    store = memory.store
    for text in ("Arttu plays the cello", "Arttu collects vintage stamps", "Anna rides a bike"):
        memory.remember(text)
    Memory(store, scope="other").remember("Arttu plays the violin")
    query = store.embed(["who plays music"], kind="query")[0]
    near = store.nearest(query, scope="default", k=10)
    assert [(i, round(s, 5)) for i, s, _ in near] == [
        (i, round(s, 5)) for i, s in store.vector_search(query, scope="default", k=10)
    ]
    assert len(near) == 3  # the other scope's fact never shows
    stored = store.vectors_of([i for i, _, _ in near], scope="default")
    for fact_id, score, vec in near:
        assert vec.shape == (store.embedder.dim,)
        assert abs(float(vec @ query) - score) < 1e-4
        assert (vec == stored[fact_id]).all()
    assert store.nearest(query, scope="default", k=0) == []


def test_lexical_nearest_is_lexical_search_with_the_stored_vectors(memory: Memory) -> None:
    store = memory.store
    for text in ("Arttu plays the cello", "Arttu collects vintage stamps", "Anna rides a bike"):
        memory.remember(text)
    Memory(store, scope="other").remember("Arttu plays the violin")
    for query in ("arttu plays", "cello stamps bike", "nothing matches this", "'\"(("):
        found = store.lexical_nearest(query, scope="default", k=10)
        assert [(i, round(s, 5)) for i, s, _ in found] == [
            (i, round(s, 5)) for i, s in store.lexical_search(query, scope="default", k=10)
        ]
        stored = store.vectors_of([i for i, _, _ in found], scope="default")
        for fact_id, _, vec in found:
            assert vec is not None and (vec == stored[fact_id]).all()
    assert len(store.lexical_nearest("cello stamps bike", scope="default", k=10)) == 3
    assert len(store.lexical_nearest("arttu", scope="default", k=10)) == 2  # not "other"'s
    assert store.lexical_nearest("arttu", scope="default", k=0) == []


def test_subjects_of_reads_the_keys_of_this_scope_only(memory: Memory) -> None:
    store = memory.store
    a = memory.remember("Arttu lives in Berlin").fact
    b = memory.remember("The deploy target is staging").fact
    bare = Fact(text="Nothing to key here at all", scope="default")
    store.put(bare)
    other = Memory(store, scope="other").remember("Anna lives in Oslo").fact
    assert a is not None and b is not None and other is not None
    got = store.subjects_of([a.id, b.id, bare.id, other.id, "f_missing"], scope="default")
    assert got == {a.id: a.subject, b.id: b.subject, bare.id: None}
    assert got[a.id] == "arttu"
    assert store.subjects_of([], scope="default") == {}
