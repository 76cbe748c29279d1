"""`credo stats` and every `credo eval` report fit an 80-column terminal: each command is
run for real (real files, the hash embedder) and no line of what it prints is wider."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_eval_locomo import TINY
from test_eval_resolver import MSC, PERSONAEXT

from credo.cli import main
from credo.eval.text import WIDTH, fit

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "w.db"))
    monkeypatch.delenv("CREDO_SCOPE", raising=False)

    def go(*argv: str) -> str:
        main(list(argv))
        return capsys.readouterr().out

    return go


def wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


@pytest.fixture
def data(tmp_path: Path) -> dict[str, Path]:
    # a deep directory, so the report's paths are long as real ones are
    deep = tmp_path / ("a-rather-long-directory-name-" * 3) / "data"
    deep.mkdir(parents=True)
    files = {
        "locomo": deep / "locomo.json",
        "msc": deep / "msc.json",
        "personaext": deep / "personaext.jsonl",
    }
    files["locomo"].write_text(json.dumps(TINY), encoding="utf-8")
    files["msc"].write_text(json.dumps(MSC), encoding="utf-8")
    files["personaext"].write_text(
        "\n".join(json.dumps(r) for r in PERSONAEXT) + "\n", encoding="utf-8"
    )
    return files


def test_fit_wraps_prose_and_keeps_short_lines() -> None:
    line = "  failing: " + " ".join(["word"] * 40)
    out = fit("short\n" + line + "\n" + "x" * 100).splitlines()
    assert out[0] == "short" and all(len(x) <= WIDTH for x in out)
    assert out[1].startswith("  failing: ") and out[2].startswith("      word")
    assert " ".join(" ".join(out[1:-2]).split()) == " ".join(line.split())  # nothing lost
    assert "".join(out[-2:]).replace(" ", "") == "x" * 100


def test_stats_fits(run) -> None:  # type: ignore[no-untyped-def]
    run("remember", "The deploy target is staging")
    run("remember", "The deploy target is prod")
    out = run("stats")
    assert "database:" in out and "conflicts: 1" in out
    assert wide(out) == []


def test_eval_probes_fits_verbose_too(run) -> None:  # type: ignore[no-untyped-def]
    out = run("eval", "probes", str(EXAMPLES / "probes.yaml"), "-v")
    assert "recall@k" in out and "via=" in out
    assert wide(out) == []


@pytest.mark.slow
def test_eval_resolver_fits(run, data: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    out = run("eval", "resolver", "--data", str(data["msc"]), "--data", str(data["personaext"]))
    assert "supersession precision" in out and "label" in out
    assert str(data["msc"])[:40] in out.replace("\n", "")
    assert wide(out) == []


def test_eval_locomo_fits(run, data: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    out = run("eval", "locomo", "--data", str(data["locomo"]), "--render-floor")
    assert "R@20" in out and "relevance floor" in out
    assert wide(out) == []


def test_eval_gate_and_personaext_fit(run, data: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    out = run("eval", "gate", "--data", str(data["locomo"]))
    assert "tiny-1" in out and "overall" in out and "ref share" in out
    assert wide(out) == []
    out = run("eval", "personaext", "--data", str(data["personaext"]))
    assert "by relation" in out
    assert wide(out) == []


def test_eval_updates_fits(run) -> None:  # type: ignore[no-untyped-def]
    out = run("eval", "updates", "--data", str(EXAMPLES / "updates.yaml"))
    assert "Knowledge updates" in out
    assert wide(out) == []
