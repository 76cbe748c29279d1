"""`credo eval updates`: the hand-labelled sequences through the scorer (a real SQLite file,
the bundled all-MiniLM-L6-v2 embedder), memories broken on purpose that the scorer must
fail, the file format's errors, and mining from a small personas file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from credo.cli import main
from credo.embed import get_embedder
from credo.eval.resolver import read_dataset
from credo.eval.updates import (
    FIGURES,
    UpdatesDataError,
    evaluate,
    format_report,
    load,
    mine_personas,
    read_sequences,
)
from credo.memory import Memory
from credo.render import render

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "updates.yaml"


@pytest.fixture(scope="module")
def minilm() -> Any:
    return get_embedder("local:minilm")


@pytest.fixture(scope="module")
def example() -> list[Any]:
    sequences, counts = load([EXAMPLE])
    assert counts == {str(EXAMPLE): len(sequences)}
    return sequences


def test_the_example_file_covers_every_kind(example: list[Any]) -> None:
    assert len(example) >= 40
    kinds = {s.kind for s in example}
    assert {"update", "confirm", "coexist", "negation", "contradiction", "retract"} <= kinds
    assert sum(1 for s in example if s.as_of) >= 20
    assert sum(1 for s in example if s.conflict) >= 3
    assert all(s.ask.endswith("?") for s in example)


def test_the_example_file_scores(example: list[Any], minilm: Any) -> None:
    report = evaluate([], minilm, sequences=example)
    assert len(report.outcomes) == len(example) and not report.refused
    data = report.to_dict()
    assert set(data["figures"]) == set(FIGURES)
    assert data["figures"]["as_of"]["rate"] == 1.0
    assert data["figures"]["retraction"]["rate"] == 1.0
    assert data["figures"]["precedence"]["rate"] >= 0.9
    text = format_report(report)
    for o in report.failures:  # every failure is listed by id, with what went wrong
        assert o.sequence.id in text and o.problems


def _subset(example: list[Any], *ids: str) -> list[Any]:
    chosen = [s for s in example if s.id in ids]
    assert len(chosen) == len(ids)
    return chosen


class IgnoresAsOf(Memory):
    """Recall that answers every as-of question with what is true now."""

    def recall(self, query: str, **kw: Any) -> Any:
        kw.pop("as_of", None)
        kw.pop("known_at", None)
        return super().recall(query, **kw)


class RendersEverything(Memory):
    """A prompt block of every stored fact, superseded and retracted ones too."""

    def for_prompt(self, query: str, **kw: Any) -> str:
        return render(self.store.all(scope=self.scope))


class RetractDoesNothing(Memory):
    def retract(self, fact_id: str, **kw: Any) -> Any:
        return self.get(fact_id)


def test_the_scorer_fails_a_memory_that_ignores_as_of(example: list[Any], minilm: Any) -> None:
    chosen = _subset(example, "move-helsinki-berlin", "editor-neovim-helix", "age-birthday")
    assert evaluate([], minilm, sequences=chosen).figure("as_of") == (3, 3)
    broken = evaluate([], minilm, sequences=chosen, memory=IgnoresAsOf)
    assert broken.figure("as_of") == (0, 3)
    assert {o.sequence.id for o in broken.failures} == {s.id for s in chosen}
    assert all(any(p.startswith("as of") for p in o.problems) for o in broken.failures)


def test_the_scorer_catches_stale_leaks_and_retractions(example: list[Any], minilm: Any) -> None:
    chosen = _subset(example, "move-helsinki-berlin", "retract-wrong-employer")
    leaky = evaluate([], minilm, sequences=chosen, memory=RendersEverything)
    assert leaky.figure("stale_leak") == (2, 2)
    assert leaky.figure("retraction") == (0, 1)
    sticky = evaluate([], minilm, sequences=chosen, memory=RetractDoesNothing)
    assert sticky.figure("retraction") == (0, 1)
    assert [o.sequence.id for o in sticky.failures] == ["retract-wrong-employer"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("nope: 1", "list of 'sequences'"),
        (
            "sequences: [{id: a, ask: q, steps: [{at: 2024-01-01, say: x, value: v}], current: w}]",
            "no step says the value",
        ),
        (
            "sequences: [{id: a, ask: q, steps: [{at: 2024-02-01, say: x}, "
            "{at: 2024-01-01, say: y}]}]",
            "date order",
        ),
        ("sequences: [{id: a, ask: q, steps: [{at: someday, say: x}]}]", "not a date"),
        (
            "sequences: [{id: a, ask: q, steps: [{at: 2024-01-01, say: x, value: v}], "
            "as_of: 2023-01-01}]",
            "go together",
        ),
        ("sequences: [{id: a, ask: q, steps: [{at: 2024-01-01, retract: v}]}]", "no step says"),
        (
            "sequences: [{id: a, ask: q, colour: red, steps: [{at: 2024-01-01, say: x}]}]",
            "unknown key",
        ),
    ],
)
def test_bad_sequence_files_say_what_is_wrong(body: str, message: str) -> None:
    with pytest.raises(UpdatesDataError, match=message):
        read_sequences(Path("t.yaml"), body)


def test_mining_a_personas_file_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    personas = [
        {
            "Speaker 1": ["I live in Denver.", "I am 30 years old."],
            "Speaker 2": ["I am 41 years old."],
        },
        {"Speaker 1": ["I live in Austin.", "My favorite color is red."], "Speaker 2": []},
        {"Speaker 1": ["I live in Boston.", "My favorite color is blue."], "Speaker 2": []},
        {"Speaker 1": ["My favorite color is green."], "Speaker 2": ["I live in Seattle."]},
    ]
    path = tmp_path / "msc.json"
    path.write_text(json.dumps({"train": personas}), encoding="utf-8")
    mined = mine_personas(read_dataset(path), limit=3)
    by_kind = {s.kind for s in mined}
    assert {"update", "confirm", "chain"} <= by_kind
    cities = {"Denver", "Austin", "Boston", "Seattle"}
    lives = [s for s in mined if s.ask == "Where do I live?"]
    assert lives and all(set(s.current) | set(s.stale) <= cities for s in lives)
    assert all(s.as_of and s.then in s.stale for s in mined)
    assert main(["eval", "updates", "--data", str(path), "--limit", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sequences"] == sum(data["per_file"].values()) > 0
    assert set(data["figures"]) == set(FIGURES)
    assert main(["eval", "updates", "--data", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err
