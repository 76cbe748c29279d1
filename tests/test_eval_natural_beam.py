"""`credo eval natural` and `credo eval beam` on small files written here in the real
formats: the scoring follows the labels and the store, and bad input is a clear error."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from credo.eval import beam, natural
from credo.testing import HashEmbedder


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_half_is_fixed_by_the_id_alone() -> None:
    assert natural.half("wr-0001") == natural.half("wr-0001")
    halves = {natural.half(f"x-{n}") for n in range(40)}
    assert halves == {"tune", "test"}


def test_natural_scores_each_label_against_what_the_store_holds(tmp_path: Path) -> None:
    rows = [
        {
            "id": "t-1",
            "a": {"text": "I live in Oslo"},
            "b": {"text": "I live in Bergen"},
            "gap_days": 400,
            "label": "update",
        },
        {
            "id": "t-2",
            "a": {"text": "I live in Oslo"},
            "b": {"text": "I live in Bergen"},
            "gap_days": 0,
            "label": "conflict",
        },
        {
            "id": "t-3",
            "a": {"text": "I like jazz"},
            "b": {"text": "I like hiking"},
            "gap_days": 3,
            "label": "coexist",
        },
        {
            "id": "t-4",
            "a": {"text": "My son is seven."},
            "b": {"text": "My son is 7."},
            "gap_days": 0,
            "label": "duplicate",
        },
        {"id": "t-5", "b": {"text": "what should i cook tonight?"}, "label": "not-a-fact"},
        # labelled wrong on purpose: the score must say so
        {
            "id": "t-6",
            "a": {"text": "I like jazz"},
            "b": {"text": "I like hiking"},
            "gap_days": 3,
            "label": "update",
        },
    ]
    loaded = natural.read_items([_write(tmp_path / "n.jsonl", rows)])
    report = natural.evaluate(loaded, HashEmbedder())
    results = {r.item.id: r for h in report.halves.values() for r in h.results}
    assert [i for i, r in sorted(results.items()) if r.right] == ["t-1", "t-2", "t-3", "t-4", "t-5"]
    assert results["t-1"].superseded and results["t-2"].flagged
    figures = report.to_dict()
    assert sum(figures[h]["items"] for h in ("tune", "test")) == 6
    assert sum(figures[h]["per_source"].get("t", {}).get("n", 0) for h in ("tune", "test")) == 6
    text = natural.format_report(report, examples=5)
    assert "tune" in text and "test" in text


def test_natural_references_are_resolved_and_checked(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "msc_personas").mkdir(parents=True)
    (data / "msc_personas" / "msc_personas_dev.json").write_text(
        json.dumps({"train": [{"Speaker 1": ["I have a dog.", "I live in Oslo."]}]})
    )
    sha = hashlib.sha1(b"I live in Oslo.").hexdigest()[:10]
    ref = {"msc": ["train", 0, "Speaker 1", 1], "sha": sha}
    path = _write(
        tmp_path / "r.jsonl",
        [
            {
                "id": "r-1",
                "a": ref,
                "b": {"text": "i live in bergen now"},
                "gap_days": 30,
                "label": "update",
            },
        ],
    )
    loaded = natural.read_items([path], data=data)
    assert loaded.items[0].a == "I live in Oslo."
    # without the data folder the item is skipped and counted, never guessed
    assert natural.read_items([path]).skipped == 1
    bad = _write(
        tmp_path / "bad.jsonl",
        [
            {"id": "r-1", "a": {**ref, "sha": "0000000000"}, "b": {"text": "x"}, "label": "update"},
        ],
    )
    with pytest.raises(natural.NaturalDataError, match="changed"):
        natural.read_items([bad], data=data)


@pytest.mark.parametrize(
    "row, message",
    [
        ({"id": "x", "a": {"text": "a"}, "b": {"text": "b"}, "label": "maybe"}, "label"),
        ({"id": "x", "b": {"text": "b"}, "label": "update"}, "lack 'a'"),
        (
            {"id": "x", "a": {"text": "a"}, "b": {"text": "b"}, "label": "update", "gap_days": -1},
            "gap_days",
        ),
        ({"a": {"text": "a"}, "b": {"text": "b"}, "label": "update"}, "no id"),
        (
            {
                "id": "x",
                "a": {"text": "a"},
                "b": {"text": "i live here\nand work there"},
                "label": "update",
            },
            "2 lines",
        ),
    ],
)
def test_natural_bad_items_are_clear_errors(tmp_path: Path, row: dict, message: str) -> None:
    with pytest.raises(natural.NaturalDataError, match=message):
        natural.read_items([_write(tmp_path / "x.jsonl", [row])])


def _chat(folder: Path) -> Path:
    folder.mkdir(parents=True)
    turns = [
        {
            "role": "user",
            "id": 0,
            "time_anchor": "March-01-2024",
            "content": "I live in Oslo. ->-> 1,1",
        },
        {"role": "assistant", "id": 1, "content": "Noted."},
        {"role": "user", "id": 2, "content": "I have used Docker. ->-> 1,2"},
    ]
    later = [
        {
            "role": "user",
            "id": 3,
            "time_anchor": "June-01-2024",
            "content": "I live in Bergen now. ->-> 2,1",
        },
        {"role": "user", "id": 4, "content": "I have never used Docker. ->-> 2,2"},
    ]
    (folder / "chat.json").write_text(
        json.dumps([{"batch_number": 1, "turns": [turns]}, {"batch_number": 2, "turns": [later]}])
    )
    questions = {
        "knowledge_update": [
            {
                "question": "Where do I live?",
                "answer": "Bergen",
                "source_chat_ids": {"original_info": [0], "updated_info": [3]},
                "rubric": ["LLM response should state: Bergen"],
            }
        ],
        "contradiction_resolution": [
            {
                "question": "Have I used Docker?",
                "source_chat_ids": {"first_statement": [2], "second_statement": [4]},
            }
        ],
    }
    (folder / "probing_questions.json").write_text(json.dumps(questions))
    return folder


def test_beam_reads_user_turns_with_their_dates_and_scores_the_store(tmp_path: Path) -> None:
    chats = beam.read_beam(_chat(tmp_path / "beam" / "1").parent)
    assert [t.id for t in chats[0].turns] == ["1:0", "1:2", "1:3", "1:4"]
    assert chats[0].turns[0].content == "I live in Oslo."  # the index marker is not speech
    assert chats[0].turns[1].timestamp == chats[0].turns[0].timestamp  # the batch's date
    report = beam.evaluate(chats, HashEmbedder())
    update = report.updates[0]
    assert update.turn_holds_value and update.stored and update.superseded
    assert update.rendered and not update.stale_as_current
    contradiction = report.contradictions[0]
    assert contradiction.both_stored and contradiction.flagged
    assert contradiction.shown_with_warning
    assert report.to_dict()["contradiction"]["flagged"] == 1.0
    # every flagged pair is counted, and told apart from those a question names
    assert report.conflict_pairs == report.named_pairs == 1
    assert "1 pairs, 1 of them named by a question" in beam.format_report(report)


def test_beam_counts_conflicts_no_question_names(tmp_path: Path) -> None:
    folder = _chat(tmp_path / "beam" / "1")
    chat = json.loads((folder / "chat.json").read_text())
    chat[1]["turns"][0].append({"role": "user", "id": 5, "content": "I live in Tromso. ->-> 2,3"})
    (folder / "chat.json").write_text(json.dumps(chat))
    report = beam.evaluate(beam.read_beam(folder.parent), HashEmbedder())
    assert report.conflict_pairs == report.named_pairs + 1
    assert report.to_dict()["conflict_pairs"] == report.conflict_pairs


def test_beam_value_terms() -> None:
    assert beam.value_terms("1,200 calls per day") == frozenset({"1200"})
    assert beam.holds("we now allow 1200 calls a day", beam.value_terms("1,200 calls"))
    assert not beam.holds("we allow 1000 calls", beam.value_terms("1,200 calls"))


def test_beam_bad_folders_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(beam.BeamError, match="not a folder"):
        beam.read_beam(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(beam.BeamError, match="no chat.json"):
        beam.read_beam(tmp_path / "empty")
    with pytest.raises(beam.BeamError, match="no chat named"):
        beam.read_beam(_chat(tmp_path / "b" / "1").parent, chats=["7"])


def test_beam_counts_an_old_value_shown_as_current(tmp_path: Path) -> None:
    folder = tmp_path / "beam" / "2"
    folder.mkdir(parents=True)
    turns = [
        {
            "role": "user",
            "id": 0,
            "time_anchor": "March-01-2024",
            "content": "My nightly build takes 40 minutes. ->-> 1,1",
        },
    ]
    later = [
        {
            "role": "user",
            "id": 1,
            "time_anchor": "May-01-2024",
            # said of the build on another machine, and not as a change: nothing ties it
            # to the stored value
            "content": "can you help me cache the build on the arm runner, which takes 25 minutes? ->-> 2,1",
        },
    ]
    (folder / "chat.json").write_text(json.dumps([{"turns": [turns]}, {"turns": [later]}]))
    (folder / "probing_questions.json").write_text(
        json.dumps(
            {
                "knowledge_update": [
                    {
                        "question": "How long does the nightly build take?",
                        "conversation_references": ["Nightly build: 40 minutes."],
                        "source_chat_ids": {"original_info": [0], "updated_info": [1]},
                        "rubric": ["LLM response should state: 25 minutes"],
                    }
                ]
            }
        )
    )
    (chat,) = beam.read_beam(folder)
    assert chat.updates[0].old_numbers == frozenset({"40"})
    report = beam.evaluate([chat], HashEmbedder())
    update = report.updates[0]
    # the value said in passing is stored and shown; the old one is shown too, unflagged
    assert update.stored and update.rendered
    assert update.stale_as_current


def test_every_column_of_the_natural_report_fits_80_characters(tmp_path: Path) -> None:
    # one item in each half and each sealed set: thirteen columns, shown as tables of at
    # most `_COLUMNS_PER_TABLE`, each with every row
    ids = ["t-1", "t-2", *(f"{prefix}t-1" for prefix in natural._UNREAD)]
    ids += [i for i in (f"t-{n}" for n in range(3, 40)) if natural.half(i) != natural.half("t-1")][
        :1
    ]
    rows = [
        {"id": i, "a": {"text": "I live in Oslo"}, "b": {"text": "i live in bergen now"}}
        | {"gap_days": 30, "label": "update"}
        for i in ids
    ]
    report = natural.evaluate(
        natural.read_items([_write(tmp_path / "n.jsonl", rows)]), HashEmbedder()
    )
    text = natural.format_report(report)
    assert {
        h for h, f in report.to_dict().items() if isinstance(f, dict) and f.get("items")
    } >= set(natural._UNREAD.values())
    assert max(len(line) for line in text.splitlines()) <= 80
    headings = [line.split() for line in text.splitlines() if line.startswith(" " * 20)]
    assert [h for heading in headings for h in heading] == list(natural.HALVES)
    per_table = natural._COLUMNS_PER_TABLE
    assert len(headings) == -(-len(natural.HALVES) // per_table)
    assert all(len(h) <= per_table for h in headings)
    # every table still says what it counts, in whole row names
    for start in (i for i, line in enumerate(text.splitlines()) if line.startswith(" " * 20)):
        names = [
            re.sub(r"(\s+[\d.\-/]+)+\s*$", "", line).strip()
            for line in text.splitlines()[start + 1 : start + 12]
        ]
        assert names[2] == "supersession precision" and "duplicates caught" in names


def test_the_part_of_b_that_bears_on_a_tells_what_became_of_it(tmp_path: Path) -> None:
    # B says two things; its second updates A: an update, though the first part is new
    rows = [
        {
            "id": "t-parts",
            "a": {"text": "i live in paris"},
            "b": {"text": "grew up in cork, but these days i live in lyon"},
            "gap_days": 200,
            "label": "update",
        }
    ]
    report = natural.evaluate(
        natural.read_items([_write(tmp_path / "n.jsonl", rows)]), HashEmbedder()
    )
    (result,) = [r for h in report.halves.values() for r in h.results]
    assert result.got == "update, A superseded" and result.right
