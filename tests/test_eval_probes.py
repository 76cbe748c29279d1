"""`credo eval probes`: the seed's Tier 2 suite, its figures, its leak gate and its errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import credo.eval.probes as probes_mod
import credo.memory
from credo.cli import main
from credo.embed import HashEmbedder
from credo.eval.probes import ProbeFileError, load_probes, parse_probes, run_probes
from credo.fact import Fact
from credo.recall import Hit
from credo.store.base import Store, Vector
from credo.store.sqlite import SQLiteStore

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "probes.yaml"

SMALL = """
facts:
  - {id: old-city, scope: a, valid_from: 2023-01-01, text: "Arttu lives in Helsinki."}
  - {id: new-city, scope: a, valid_from: 2024-06-01, text: "Arttu lives in Berlin."}
  - {scope: a, valid_from: 2024-06-01, text: "Arttu's editor is Helix."}
  - {id: anna, scope: b, valid_from: 2024-06-01, text: "Anna lives in Oslo."}
queries:
  - {scope: a, query: "where does Arttu live", expect: [new-city], forbid: [old-city]}
  - {scope: a, query: "Arttu editor", expect: ["Arttu's editor is Helix.", new-city]}
  - {scope: a, query: "editor Helix", k: 1, expect: [new-city]}
  - {scope: a, query: "Anna lives in Oslo", forbid: [anna]}
"""


def write(tmp_path: Path, text: str, name: str = "probes.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_metrics_are_computed_from_what_recall_returns(tmp_path: Path) -> None:
    report = run_probes(load_probes(write(tmp_path, SMALL)), HashEmbedder())
    assert report.relations == {"new": 3, "update": 1}
    q1, q2, q3, q4 = report.queries
    assert q1.found == ["new-city"] and not q1.stale and not q1.leaks
    assert sorted(q2.found) == sorted(["Arttu's editor is Helix.", "new-city"])
    assert q3.missing == ["new-city"]  # k=1: the editor fact wins "editor Helix"
    assert q4.expected == 0 and not q4.leaks
    assert report.expected == 4 and report.found == 3
    assert report.recall == pytest.approx(0.75)
    assert report.staleness == 0.0 and report.leak_rate == 0.0 and report.passed
    data = report.to_dict()
    assert data["recall_at_k"] == 0.75 and data["leak_rate"] == 0.0
    assert len(data["details"]) == 4


def test_a_superseded_result_counts_as_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def everything(store: Store, query: str, *, scope: str, k: int, **_: Any) -> list[Hit]:
        return [Hit(f) for f in store.all(scope=scope)]  # a recall that forgets to filter

    monkeypatch.setattr(credo.memory, "recall", everything)
    report = run_probes(load_probes(write(tmp_path, SMALL)), HashEmbedder())
    # every query of scope a sees the superseded Helsinki fact
    assert report.staleness == pytest.approx(1.0)
    assert report.queries[0].stale == ["Arttu lives in Helsinki."]
    assert not report.queries[0].forbidden  # a stale forbid hit is stale, not "forbidden"
    assert report.passed


class LeakyStore(SQLiteStore):
    """A broken store: vector searches and reads by id ignore the scope."""

    def vector_search(self, query: str | Vector, *, scope: str, k: int) -> list[tuple[str, float]]:
        hits = [
            h for s in self.scopes() for h in SQLiteStore.vector_search(self, query, scope=s, k=k)
        ]
        return sorted(hits, key=lambda h: -h[1])[:k]

    def nearest(self, query: Vector, *, scope: str, k: int) -> list[tuple[str, float, Vector]]:
        hits = [h for s in self.scopes() for h in SQLiteStore.nearest(self, query, scope=s, k=k)]
        return sorted(hits, key=lambda h: -h[1])[:k]

    def get_many(self, ids: Sequence[str], *, scope: str) -> list[Fact]:
        found = {f.id: f for s in self.scopes() for f in SQLiteStore.get_many(self, ids, scope=s)}
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def vectors_of(self, ids: Sequence[str], *, scope: str) -> dict[str, Vector]:
        return {
            i: v
            for s in self.scopes()
            for i, v in SQLiteStore.vectors_of(self, ids, scope=s).items()
        }


def test_a_leak_fails_the_suite_and_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SMALL)
    monkeypatch.setattr(probes_mod, "SQLiteStore", LeakyStore)
    report = run_probes(load_probes(path), HashEmbedder())
    assert report.leaked_queries >= 1 and not report.passed
    assert "Anna lives in Oslo." in report.queries[3].leaks
    assert report.leak_rate == pytest.approx(report.leaked_queries / 4)

    code = main(["--embedder", "hash", "eval", "probes", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL" in out and "leak rate" in out


def test_a_leak_fails_whatever_the_thresholds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(probes_mod, "SQLiteStore", LeakyStore)
    code = main(
        [
            "eval",
            "probes",
            str(write(tmp_path, SMALL)),
            "--embedder",
            "hash",
            "--min-recall",
            "0",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["passed"] is False and data["leak_rate"] > 0


def test_the_command_prints_json_and_details(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["eval", "probes", str(write(tmp_path, SMALL)), "--embedder", "hash", "--json", "--verbose"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["queries"] == 4 and data["passed"] is True
    assert data["details"][0]["results"][0]["scope"] == "a"
    code = main(["eval", "probes", str(write(tmp_path, SMALL)), "--embedder", "hash", "--verbose"])
    out = capsys.readouterr().out
    assert code == 0 and "recall@k: 0.750" in out and "MISSING" in out and "PASS" in out


def test_a_missed_threshold_exits_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["eval", "probes", str(write(tmp_path, SMALL)), "--embedder", "hash", "--min-recall", "0.9"]
    )
    assert code == 1 and "recall 0.750 < 0.9" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("facts: [unclosed", "not valid YAML or JSON"),
        ("- just a list", "expected a mapping with 'facts' and 'queries'"),
        ("facts: []\nqueries: [{query: x, expect: [y]}]", "'facts' must be a non-empty list"),
        ("facts: [{text: A is B.}]\nqueries: []", "'queries' must be a non-empty list"),
        ("facts: [{txt: A is B.}]\nqueries: [{query: x, forbid: [y]}]", "unknown keys txt"),
        ("facts: [{text: A is B.}]\nqueries: [{query: x, expect: [Nope]}]", "'Nope' names no fact"),
        (
            "facts: [{text: A is B., scope: s1}]\nqueries: [{query: x, scope: s2, expect: [A is B.]}]",
            "it can never be returned there",
        ),
        (
            "facts: [{text: A is B.}]\nqueries: [{query: x, k: 0, expect: [A is B.]}]",
            "'k' must be a positive integer",
        ),
        (
            "facts: [{text: A is B., valid_from: someday}]\nqueries: [{query: x, forbid: [A is B.]}]",
            "cannot read the date",
        ),
        (
            "facts: [{text: A is B., scope: 'no spaces'}]\nqueries: [{query: x, forbid: [y]}]",
            "invalid scope",
        ),
        ("facts: [{text: A is B.}]\nqueries: [{query: x}]", "give 'expect', 'forbid' or both"),
        (
            "facts: [{text: A is B., id: x}, {text: C is D., id: x}]\n"
            "queries: [{query: x, forbid: [x]}]",
            "fact ids used twice: x",
        ),
    ],
)
def test_bad_probe_files_get_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProbeFileError, match=None) as err:
        load_probes(path)
    assert message in str(err.value)
    assert main(["eval", "probes", str(path), "--embedder", "hash"]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "probes", str(tmp_path / "nope.yaml"), "--embedder", "hash"]) == 2
    assert "cannot read the probe file" in capsys.readouterr().err


def test_json_probe_files_are_read_too(tmp_path: Path) -> None:
    doc = {
        "facts": [{"text": "Arttu's shell is fish.", "scope": "a"}],
        "queries": [{"query": "shell", "scope": "a", "expect": ["Arttu's shell is fish."]}],
    }
    suite = load_probes(write(tmp_path, json.dumps(doc), "probes.json"))
    assert suite == parse_probes(doc, where=str(tmp_path / "probes.json"))
    assert run_probes(suite, HashEmbedder()).recall == 1.0


def test_the_example_suite_passes_with_the_hash_embedder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    suite = load_probes(EXAMPLE)
    assert len(suite.facts) >= 25
    leak_probes = [
        q
        for q in suite.queries
        if any(
            {
                suite.facts[i].scope
                for i, f in enumerate(suite.facts)
                if f.label == name or f.text == name
            }
            - {q.scope}
            for name in q.forbid
        )
    ]
    assert len(leak_probes) >= 2
    report = run_probes(suite, HashEmbedder())
    assert report.relations.get("update", 0) + report.relations.get("conflict", 0) >= 3
    assert report.relations.get("conflict", 0) >= 1 and report.relations.get("update", 0) >= 1
    assert not report.refused
    assert report.passed and report.leak_rate == 0.0 and report.staleness == 0.0
    assert report.recall >= 0.9
    assert main(["eval", "probes", str(EXAMPLE), "--embedder", "hash"]) == 0
    assert "PASS" in capsys.readouterr().out


def test_the_example_suite_passes_with_the_default_model() -> None:
    from credo.embed import get_embedder

    report = run_probes(load_probes(EXAMPLE), get_embedder("local:minilm"))
    assert report.passed and report.leak_rate == 0.0 and report.staleness == 0.0
    assert report.recall >= 0.9
