"""The render relevance floor (`credo.relevance`) on a small real store: a real SQLite file
and the bundled all-MiniLM-L6-v2 embedder the floor was measured with."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from credo.embed import get_embedder
from credo.fact import Fact, Status
from credo.memory import Memory
from credo.recall import Hit
from credo.relevance import LEXICAL_FLOOR, RENDER_FLOOR, keep_relevant
from credo.render import render
from credo.store.sqlite import SQLiteStore

NOW = 1_767_225_600.0  # 2026-01-01

USER_FACTS = (
    "I work at Reaktor.",
    "My editor is Helix.",
    "I live in Berlin.",
    "I have a dog named Rex.",
    "My favourite food is ramen.",
    "I play the cello on weekends.",
)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    store = SQLiteStore(tmp_path / "credo.db", get_embedder("local:minilm"))
    m = Memory(store, scope="me", clock=lambda: NOW)
    for n, text in enumerate(USER_FACTS):
        assert m.remember(text, valid_from=NOW - 86400 * (30 - n)).accepted
    try:
        yield m
    finally:
        store.close()


def _texts(hits: list[Hit]) -> list[str]:
    return [h.fact.text for h in hits]


def test_recall_fills_similarity_with_the_query_cosine(mem: Memory) -> None:
    hits = mem.recall("where do I live", k=3)
    assert hits and all(h.similarity is not None for h in hits)
    qvec = mem.store.embed(["where do I live"], kind="query")[0]
    vecs = mem.store.vectors_of([h.fact.id for h in hits], scope="me")
    for h in hits:
        assert h.similarity == pytest.approx(float(np.dot(vecs[h.fact.id], qvec)), abs=1e-5)


def test_unrelated_facts_are_dropped_for_deploy_target(mem: Memory) -> None:
    hits = mem.recall("deploy target", k=5)
    assert len(hits) == 5  # recall fills k with whatever is nearest
    assert keep_relevant(hits, query="deploy target") == []
    assert render(keep_relevant(hits, query="deploy target")) == ""


def test_a_fact_that_bears_on_the_query_is_kept(mem: Memory) -> None:
    assert mem.remember("The billing API deploy target is staging.", valid_from=NOW).accepted
    kept = keep_relevant(mem.recall("deploy target", k=5), query="deploy target")
    assert _texts(kept) == ["The billing API deploy target is staging."]
    where = keep_relevant(mem.recall("where do I live", k=5), query="where do I live")
    assert any("Berlin" in t for t in _texts(where))
    assert not any("Reaktor" in t or "Helix" in t for t in _texts(where))


def test_a_lone_quote_renders_nothing(mem: Memory) -> None:
    for query in ('"', "'", "?!", " ... "):
        hits = mem.recall(query, k=5)
        assert keep_relevant(hits, query=query) == []
        assert render(keep_relevant(hits, query=query)) == ""


def test_entity_hits_are_kept_whatever_their_similarity(mem: Memory) -> None:
    assert mem.remember("Arttu works at Reaktor.", valid_from=NOW).accepted
    # 0.36 to the query (0.40 is the floor); a fact near the floor would make this a coin toss
    assert mem.remember("Arttu is allergic to peanuts.", valid_from=NOW).accepted
    hits = mem.recall("Arttu deploy target", k=5)
    arttu = [h for h in hits if h.fact.subject == "arttu"]
    assert len(arttu) == 2 and all("entity" in h.ranks for h in arttu)
    assert any(h.similarity is not None and h.similarity < RENDER_FLOOR for h in arttu)
    kept = keep_relevant(hits, query="Arttu deploy target")
    assert {h.fact.id for h in arttu} <= {h.fact.id for h in kept}
    assert not any("Helix" in t or "cello" in t for t in _texts(kept))


def test_a_real_conflict_is_kept_whole(mem: Memory) -> None:
    a = mem.remember("I live in Stockholm.", valid_from=NOW)
    b = mem.remember("I live in Gothenburg.", valid_from=NOW)
    assert b.relation is not None and b.relation.value == "conflict", b.why
    kept = keep_relevant(mem.recall("where do I live", k=5), query="where do I live")
    texts = " ".join(_texts(kept))
    assert "Stockholm" in texts and "Gothenburg" in texts
    assert a.fact is not None


def _hit(text: str, sim: float | None, found_by: list[str], status: Status) -> Hit:
    fact = Fact(text=text, scope="x", status=status, confidence=0.9)
    return Hit(fact, 0.01, found_by, {name: 1 for name in found_by if name != "conflict"}, sim)


def test_conflict_partners_go_with_their_fact() -> None:
    c = Status.CONFLICTED
    low, high = RENDER_FLOOR - 0.2, RENDER_FLOOR + 0.1
    near = [_hit("A", high, ["vector"], c), _hit("B", low, ["conflict"], c)]
    assert _texts(keep_relevant(near)) == ["A", "B"]  # the partner rides along
    partner_near = [_hit("A", low, ["vector"], c), _hit("B", high, ["vector", "conflict"], c)]
    assert _texts(keep_relevant(partner_near)) == ["A", "B"]  # never cut in half
    far = [_hit("A", low, ["vector"], c), _hit("B", low, ["conflict"], c)]
    assert keep_relevant(far) == []
    unknown = [_hit("A", None, ["vector"], Status.ACTIVE)]
    assert keep_relevant(unknown) == []


def test_a_word_in_common_lowers_the_bar() -> None:
    between = (LEXICAL_FLOOR + RENDER_FLOOR) / 2
    a = Status.ACTIVE
    assert keep_relevant([_hit("A", between, ["vector"], a)]) == []
    assert _texts(keep_relevant([_hit("A", between, ["vector", "lexical"], a)])) == ["A"]
    assert keep_relevant([_hit("A", LEXICAL_FLOOR - 0.05, ["lexical"], a)]) == []


def test_the_locomo_evaluation_measures_the_floor(tmp_path: Path) -> None:
    from credo.eval.locomo import OFF_TOPIC, evaluate, format_report, read_locomo

    turns = [
        ("Ann", "I adopted a cat named Miso last week."),
        ("Bob", "I started learning the cello."),
        ("Ann", "Miso sleeps on my keyboard all day."),
        ("Bob", "My cello teacher lives in Porto."),
    ]
    sample = {
        "sample_id": "t-1",
        "conversation": {
            "session_1_date_time": "10:37 am on 23 March, 2021",
            "session_1": [
                {"speaker": s, "dia_id": f"D1:{n}", "text": t} for n, (s, t) in enumerate(turns, 1)
            ],
        },
        "qa": [
            {"question": "What is the cat called?", "evidence": ["D1:1"], "category": 4},
            {"question": "Which instrument is being learned?", "evidence": ["D1:2"], "category": 4},
        ],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    report = evaluate(read_locomo(path), get_embedder("local:minilm"), ks=[10], render_floor=True)
    rf = report.render_floor
    assert rf is not None and rf.questions == 2 and rf.off_topic_queries == len(OFF_TOPIC)
    without, with_floor = rf.figures(0), rf.figures(1)
    assert without["facts_per_question"] == 4.0  # all four turns fill the block
    assert with_floor["facts_per_question"] < 4.0
    assert with_floor["R@10"] == without["R@10"] == 1.0
    assert with_floor["evidence_share"] > without["evidence_share"]
    assert without["off_topic_facts_per_query"] == 4.0
    assert with_floor["off_topic_facts_per_query"] == 0.0
    assert "relevance floor" in format_report(report)
    assert report.to_dict()["render_floor"]["with"] == with_floor
