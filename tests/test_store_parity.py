"""Where the two stores had drifted apart, a contract that holds them together: run on
every backend (SQLite, and PostgreSQL when CREDO_TEST_PG_DSN names a server)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from credo.fact import Fact, Status
from credo.memory import Memory
from credo.store.base import IngestOutcome, Rejection, Rule, Store, StoreError

NUL_REFUSED = "a NUL character cannot be stored in text"


def _facts(scope: str = "s") -> list[Fact]:
    # created_at ties among x, z and v: they keep the order they were stored in
    times = {"f_x": 5.0, "f_y": 1.0, "f_z": 5.0, "f_w": 3.0, "f_v": 5.0}
    return [
        Fact(
            id=fid,
            text=f"Ann likes thing {n}",
            subject="ann",
            predicate=f"like_{n}",
            scope=scope,
            created_at=at,
            derived_from=["ep1"],
        )
        for n, (fid, at) in enumerate(times.items())
    ]


def test_all_lists_the_oldest_first_then_in_the_order_stored(store: Store) -> None:
    facts = _facts()
    store.put_many(facts[:3])
    for fact in facts[3:]:
        store.put(fact)
    expected = ["f_y", "f_w", "f_x", "f_z", "f_v"]
    assert [f.id for f in store.all(scope="s")] == expected
    assert [f.id for f in store.all(scope="s", limit=2, offset=2)] == expected[2:4]
    assert [f.id for f in store.iter_all(scope="s", batch=2)] == expected
    # an update keeps a fact's place; a fact stored again after a forget goes last
    store.put(facts[0].evolve(status=Status.RETRACTED))
    store.forget(scope="s", ids=["f_z"])
    store.put(facts[2])
    assert [f.id for f in store.all(scope="s")] == ["f_y", "f_w", "f_x", "f_v", "f_z"]
    assert [f.id for f in store.all(scope="s", status=Status.ACTIVE)] == [
        "f_y",
        "f_w",
        "f_v",
        "f_z",
    ]


def test_forget_lists_its_facts_in_the_order_they_were_stored(store: Store) -> None:
    for fact in _facts():
        store.put(fact)
    assert store.forget(scope="s", ids=["f_v", "f_x", "f_w"]).fact_ids == ["f_x", "f_w", "f_v"]
    assert store.forget(scope="s", episode="ep1").fact_ids == ["f_y", "f_z"]
    for fact in _facts():
        store.put(fact)
    assert store.forget(scope="s", everything=True).fact_ids == ["f_x", "f_y", "f_z", "f_w", "f_v"]


WRITES_WITH_NUL: dict[str, Callable[[Store], object]] = {
    "fact text": lambda s: s.put(Fact(text="Ann lives in\x00Oslo", scope="s")),
    "fact subject": lambda s: s.put(Fact(text="Ann lives in Oslo", subject="a\x00", scope="s")),
    "fact provenance": lambda s: s.put(
        Fact(text="Ann lives in Oslo", scope="s", derived_from=["t\x00"])
    ),
    "fact id": lambda s: s.put_many([Fact(id="f_\x00", text="Ann lives in Oslo", scope="s")]),
    "alias": lambda s: s.set_alias("s", "an\x00n", "ann"),
    "rule": lambda s: s.add_rule(Rule("r_1", "s", "address\x00", None, 1.0)),
    "ingest record": lambda s: s.record_ingest_outcome(
        IngestOutcome("s", "k", "failed", reason="bad\x00", updated_at=1.0)
    ),
}


@pytest.mark.parametrize("what", WRITES_WITH_NUL)
def test_text_with_nul_is_refused_by_every_store_with_one_error(store: Store, what: str) -> None:
    with pytest.raises(StoreError) as refused:
        WRITES_WITH_NUL[what](store)
    assert str(refused.value).endswith(NUL_REFUSED)
    assert store.count(scope="s") == 0
    assert store.aliases(scope="s") == {} and store.rules(scope="s") == []
    assert store.ingest_outcomes(scope="s", keys=["k"]) == {}


def test_conflict_text_with_nul_is_refused(store: Store) -> None:
    a, b = Fact(text="The target is prod", scope="s"), Fact(text="The target is dev", scope="s")
    store.put_many([a, b])
    with pytest.raises(StoreError, match=NUL_REFUSED):
        store.record_conflict("s", a.id, b.id, "same\x00key")
    store.record_conflict("s", a.id, b.id, "same key")
    with pytest.raises(StoreError, match=NUL_REFUSED):
        store.settle_conflict("s", a.id, b.id, resolution="kept\x00", decided_by="arttu")
    assert [c.resolved_at for c in store.conflicts(scope="s", include_resolved=True)] == [None]


def test_a_lookup_by_text_with_nul_finds_nothing(store: Store) -> None:
    Memory(store, scope="s").remember("Ann lives in Oslo")
    assert store.get("f_\x00", scope="s") is None
    assert store.get_many(["\x00"], scope="s") == []
    assert store.all(scope="s", subject="ann\x00") == []
    assert store.by_key("ann\x00", "live_in", scope="s") == []
    assert store.by_subject("ann\x00", scope="s") == []
    assert store.known_subjects(["ann\x00"], scope="s") == set()
    assert store.lineage(scope="s", fact_id="\x00") == []
    assert store.conflicts_of("\x00", scope="s") == []
    assert store.events(scope="s", fact_ids=["\x00"]) == []
    assert not store.remove_alias("s", "\x00") and not store.remove_rule("s", "\x00")
    assert store.forget(scope="s", ids=["\x00"], subject="\x00", episode="\x00").facts == 0
    assert store.count(scope="s") == 1


def test_a_refusal_with_nul_is_recorded_with_a_replacement_character(store: Store) -> None:
    store.add_rejection(
        Rejection(
            "s",
            "my pin\x00 is 1234",
            "secret",
            "a secret",
            subject="ann\x00",
            derived_from=("t\x00",),
        )
    )
    (kept,) = store.rejections(scope="s")
    assert (kept.text, kept.subject, kept.derived_from) == (
        "my pin\ufffd is 1234",
        "ann\ufffd",
        ("t\ufffd",),
    )


def test_a_limit_past_any_count_means_all_everywhere(store: Store) -> None:
    store.put_many(_facts())
    huge = 2**70
    assert len(store.by_subject("ann", scope="s", limit=huge)) == 5
    assert len(store.by_subject("ann", scope="s", limit=-1)) == 5
    assert len(store.all(scope="s", limit=huge, offset=1)) == 4
    assert store.all(scope="s", offset=huge) == []
    store.add_rejection(Rejection("s", "x", "code", "why"))
    assert len(store.rejections(scope="s", limit=huge)) == 1
