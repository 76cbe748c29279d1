"""`credo eval statements`: single labelled messages through the real gate and parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo.cli import main
from credo.eval import statements
from credo.testing import HashEmbedder


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS = [
    {"id": "st-t1", "text": "i work as a plumber in derby", "label": "fact", "kind": "plain"},
    {
        "id": "st-t2",
        "text": "as a plumber in derby, what van should i buy?",
        "label": "fact",
        "kind": "as_phrase",
    },
    {"id": "st-t3", "text": "how do i unblock a sink?", "label": "not-a-fact", "kind": "q"},
    {"id": "st-t4", "text": "ugh so tired today", "label": "not-a-fact", "kind": "mood"},
    {"id": "st-t5", "text": "good morning!", "label": "fact", "kind": "wrongly labelled"},
]


def test_each_message_is_scored_by_what_is_kept(tmp_path: Path) -> None:
    items = statements.read([_write(tmp_path / "s.jsonl", ROWS)])
    report = statements.evaluate(items, HashEmbedder())
    results = {r.item.id: r for h in report.results.values() for r in h}
    assert results["st-t1"].right and results["st-t1"].stored == (
        "The user works as a plumber in derby",
    )
    assert results["st-t3"].right and not results["st-t3"].stored and results["st-t3"].why
    assert results["st-t4"].right
    assert not results["st-t5"].right  # nothing stored of a message labelled a fact
    figures = report.to_dict()
    assert sum(figures[h]["items"] for h in ("tune", "test")) == len(ROWS)
    text = statements.format_report(report, examples=True)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "facts stored" in text and "non-facts refused" in text
    # the misses are shown for the tune half only
    shown = {r.item.id for r in report.results["tune"] if not r.right}
    assert all((f"- {i} " in text) == (i in shown) for i in results)


def test_an_unread_set_is_scored_whole_and_never_shown(tmp_path: Path) -> None:
    rows = [
        {"id": "st2-0001", "text": "i keep bees in my garden", "label": "fact"},
        {"id": "st2-0002", "text": "good morning!", "label": "fact"},
        {"id": "st2-0003", "text": "how do i unblock a sink?", "label": "not-a-fact"},
        {"id": "st3-0001", "text": "my sister lives in leeds", "label": "fact"},
        {"id": "st4-0001", "text": "my brother plays the oboe", "label": "fact"},
    ]
    items = statements.read([_write(tmp_path / "s.jsonl", ROWS + rows)])
    assert {i.half for i in items if i.id.startswith("st2-")} == {"st2"}
    assert {i.half for i in items if i.id.startswith("st3-")} == {"st3"}
    assert {i.half for i in items if i.id.startswith("st4-")} == {"st4"}
    report = statements.evaluate(items, HashEmbedder())
    assert report.halves == ("tune", "test", "st2", "st3", "st4")
    assert report.to_dict()["st3"]["items"] == 1
    assert report.to_dict()["st4"]["items"] == 1
    figures = report.to_dict()["st2"]
    assert figures["items"] == 3 and figures["facts"] == 2 and figures["non_facts"] == 1
    assert figures["right"] == pytest.approx(2 / 3)  # the greeting labelled a fact is missed
    text = statements.format_report(report, examples=True)
    assert "st2" in text.splitlines()[2]
    assert max(len(line) for line in text.splitlines()) <= 80
    assert not any(f"- {r['id']} " in text for r in rows)  # scored, never shown


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"id": "x", "text": "i live in york", "label": "maybe"}, "label"),
        ({"id": "x", "text": "  ", "label": "fact"}, "text"),
        ({"text": "i live in york", "label": "fact"}, "no id"),
    ],
)
def test_a_bad_line_is_a_clear_error(tmp_path: Path, row: dict, message: str) -> None:
    with pytest.raises(statements.StatementsDataError, match=message):
        statements.read([_write(tmp_path / "s.jsonl", [row])])


def test_an_id_used_twice_is_refused(tmp_path: Path) -> None:
    row = {"id": "x", "text": "i live in york", "label": "fact"}
    with pytest.raises(statements.StatementsDataError, match="twice"):
        statements.read([_write(tmp_path / "s.jsonl", [row, row])])


def test_the_command_prints_both_halves_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "s.jsonl", ROWS)
    assert main(["eval", "statements", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"tune", "test"} and out["tune"]["items"] + out["test"]["items"] == 5
    bad = _write(tmp_path / "bad.jsonl", [{"id": "x", "text": "hi", "label": "nope"}])
    assert main(["eval", "statements", str(bad)]) == 2
    assert "label 'nope'" in capsys.readouterr().err


def test_an_unread_set_is_not_broken_down_by_construction(tmp_path: Path) -> None:
    rows = [{"id": "st2-0001", "text": "i keep bees", "label": "fact", "kind": "beekeeping"}]
    report = statements.evaluate(
        statements.read([_write(tmp_path / "s.jsonl", ROWS + rows)]), HashEmbedder()
    )
    assert report.to_dict()["st2"]["per_kind"] == {}
    assert report.to_dict()["tune"]["per_kind"] or report.to_dict()["test"]["per_kind"]
    assert "beekeeping" not in statements.format_report(report)
