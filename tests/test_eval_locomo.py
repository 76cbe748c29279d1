"""`credo eval locomo`: LoCoMo evidence recall on a tiny conversation the test writes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from credo.cli import main
from credo.embed import HashEmbedder
from credo.eval.locomo import (
    SCOPE,
    LocomoError,
    LocomoReport,
    build_turn_store,
    evaluate,
    parse_evidence,
    parse_session_date,
    provenance,
    read_locomo,
    score,
)
from credo.fact import Fact
from credo.store.sqlite import SQLiteStore

TINY = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "10:37 am on 23 March, 2021",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat named Miso."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice! I started learning the cello."},
            ],
            "session_2_date_time": "10:00 am on 20 June, 2023",
            "session_2": [
                {"speaker": "Ann", "dia_id": "D2:1", "text": "I ran a marathon in Lisbon."},
                {
                    "speaker": "Bob",
                    "dia_id": "D2:2",
                    "text": "I moved to Porto.",
                    "blip_caption": "a photo of a bridge",
                },
            ],
            "session_3_date_time": "9:00 am on 1 July, 2023",  # a date with no turns
        },
        "qa": [
            {
                "question": "What pet did Ann adopt?",
                "answer": "a cat",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "Where did Ann run, and what pet?",
                "evidence": ["D2:1; D1:1"],
                "category": 1,
            },
            {"question": "What instrument does Bob learn?", "evidence": ["D:1:2"], "category": 4},
            {"question": "When?", "evidence": ["D"], "category": 2},
            {
                "question": "What did Bob adopt?",
                "evidence": ["D1:1"],
                "category": 5,
                "adversarial_answer": "a cat",
            },
        ],
    }
]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_locomo.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_evidence_ids_are_read_leniently_and_counted() -> None:
    assert parse_evidence(["D1:3", "D2:7"]) == (frozenset({"D1:3", "D2:7"}), 0)
    assert parse_evidence(["D8:6; D9:17"]) == (frozenset({"D8:6", "D9:17"}), 1)
    assert parse_evidence(["D:11:26"]) == (frozenset({"D11:26"}), 1)
    assert parse_evidence(["D"]) == (frozenset(), 1)
    assert parse_evidence(None) == (frozenset(), 0)


def test_session_dates_are_read_as_utc() -> None:
    expected = datetime(2021, 3, 23, 10, 37, tzinfo=UTC).timestamp()
    assert parse_session_date("10:37 am on 23 March, 2021") == expected
    assert parse_session_date("not a date") is None


def test_turns_become_facts_with_speaker_dia_id_and_session_date(
    data: Path, tmp_path: Path
) -> None:
    (conv,) = read_locomo(data)
    assert [t.dia_id for t in conv.turns] == ["D1:1", "D1:2", "D2:1", "D2:2"]
    assert conv.turns[3].text.endswith("[shares a photo: a photo of a bridge]")
    store = SQLiteStore(tmp_path / "t.db", HashEmbedder())
    try:
        assert build_turn_store(conv, store) == 4
        facts = {f.derived_from[0]: f for f in store.all(scope=SCOPE)}
        first = facts["D1:1"]
        assert first.text == "Ann: I adopted a cat named Miso."
        assert first.subject == "ann" and first.derived_from == ["D1:1"]
        assert first.valid_from == datetime(2021, 3, 23, 10, 37, tzinfo=UTC).timestamp()
        assert facts["D2:2"].valid_from == datetime(2023, 6, 20, 10, 0, tzinfo=UTC).timestamp()
        assert provenance(first) == {"D1:1"}
    finally:
        store.close()


def test_provenance_reads_prefixed_turn_ids() -> None:
    fact = Fact(text="x", derived_from=["conv-26:D3:7", "f_abc", "D4:1"])
    assert provenance(fact) == {"D3:7", "D4:1"}


def test_recall_at_k_is_the_share_of_gold_evidence_in_the_top_k(data: Path) -> None:
    conversations = read_locomo(data)
    results = {
        "What pet did Ann adopt?": [{"D9:9"}, {"D1:1"}],
        "Where did Ann run, and what pet?": [{"D2:1"}, {"D9:9"}, {"D1:1"}],
    }

    def search(ci: int, question: str, k: int) -> list[set[str]]:
        return results.get(question, [])

    report = score(
        conversations, search, ks=(1, 2, 3), report=LocomoReport("turn", "fake", (1, 2, 3))
    )
    single, multi = report.by_category[4], report.by_category[1]
    # category 4: "pet" finds its evidence at rank 2; "instrument" finds nothing
    assert single.recall[1] == [0.0, 0.0] and single.recall[2] == [1.0, 0.0]
    assert multi.recall[1] == [0.5] and multi.recall[2] == [0.5] and multi.recall[3] == [1.0]
    assert multi.hits[1] == [1.0]
    overall = report.overall()
    assert overall.n == 3  # categories 1-4 with usable evidence
    assert overall.mean(3) == pytest.approx((1.0 + 0.0 + 1.0) / 3)
    assert 5 in report.by_category and report.by_category[5].n == 1
    assert report.malformed_evidence == 3 and report.no_evidence == 1
    assert report.questions == 5


def test_evaluate_end_to_end_with_the_hash_embedder(data: Path) -> None:
    report = evaluate(read_locomo(data), HashEmbedder(), ks=(1, 20))
    assert report.facts == 4 and report.questions == 5
    assert report.overall().mean(20) == 1.0  # four facts: k=20 returns them all
    assert report.queries_run == 4 * 2
    data_out = report.to_dict()
    assert set(data_out["categories"]) == {"1 multi-hop", "4 single-hop", "5 adversarial"}
    assert data_out["malformed_evidence"] == 3 and data_out["no_evidence"] == 1


def test_the_command_reports_per_category_and_time(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", "locomo", "--data", str(data), "--embedder", "hash", "--k", "1", "5"])
    out = capsys.readouterr().out
    assert code == 0
    assert "R@1" in out and "R@5" in out and "1 multi-hop" in out and "all 1-4" in out
    assert "5 adversarial" in out and "(apart)" in out
    assert "3 malformed id(s)" in out and "time:" in out
    assert main(["eval", "locomo", "--data", str(data), "--embedder", "hash", "--json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["ks"] == [1, 5, 10, 20] and parsed["unit"] == "turn"
    assert "R@10" in parsed["overall_1_4"]


def test_extracted_facts_carry_their_turns(data: Path) -> None:
    report = evaluate(read_locomo(data), HashEmbedder(), unit="extracted", ks=(20,))
    assert report.unit == "extracted" and report.questions == 5


def test_bad_input_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(LocomoError, match="not JSON"):
        read_locomo(bad)
    assert main(["eval", "locomo", "--data", str(bad), "--embedder", "hash"]) == 2
    assert "not JSON" in capsys.readouterr().err
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text(json.dumps([{"qa": []}]), encoding="utf-8")
    with pytest.raises(LocomoError, match="expected an object with 'conversation'"):
        read_locomo(shapeless)
    with pytest.raises(LocomoError, match="unknown unit"):
        evaluate([], HashEmbedder(), unit="sentence")
