"""`credo eval gate` for any endpoint: the same retention and share of turns with the
offline extractor and with a chat model behind an OpenAI-compatible server on 127.0.0.1,
one conversation picked with --sample, and the cost (tokens, failures) reported."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_ingest_slow_server import SESSIONS, SlowModel, locomo

from credo import cli
from credo.eval.extraction import evaluate_locomo


@pytest.fixture
def model() -> Iterator[SlowModel]:
    m = SlowModel(delay=0.0)
    yield m
    m.httpd.shutdown()
    m.httpd.server_close()


def two_conversations(tmp_path: Path) -> Path:
    one = json.loads(locomo(tmp_path / "one.json").read_text("utf-8"))[0]
    other = json.loads(json.dumps(one).replace("conv-slow", "conv-other"))
    for s in range(1, SESSIONS + 1):
        del other["conversation"][f"session_{s}"][2:]
    one["qa"] = [
        {"question": "Ada's job?", "evidence": ["D1:1"], "category": 4},
        {"question": "Bo's mood?", "evidence": ["D1:2"], "category": 4},
    ]
    other["qa"] = [{"question": "Ada's job?", "evidence": ["D2:1"], "category": 1}]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([one, other]), "utf-8")
    return path


def test_eval_gate_with_a_chat_model_reports_retention_share_and_tokens(
    tmp_path: Path, model: SlowModel, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.delenv("CREDO_LLM", raising=False)
    data = two_conversations(tmp_path)
    argv = ["eval", "gate", "--data", str(data), "--sample", "conv-slow", "--llm",
            "llamacpp:stub", "--llm-url", model.url, "--episode-size", "4", "--json"]  # fmt: skip
    assert cli.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    [conv] = out["conversations"]
    assert conv["sample_id"] == "conv-slow"
    # the stub states the nurse, cello and bees turns; the mood is refused by the gate
    assert conv["turns"] == 4 * SESSIONS and conv["turns_with_fact"] == 3 * SESSIONS
    assert conv["retention"] == 0.5 and conv["turn_share"] == 0.75
    assert out["summary"]["tokens"] == {"prompt_tokens": 900 * SESSIONS,
                                        "completion_tokens": 160 * SESSIONS}  # fmt: skip
    assert out["summary"]["failed_episodes"] == 0
    assert out["extractor"] == "llm llamacpp:stub"

    assert cli.main(argv[:-1]) == 0  # the text report
    text = capsys.readouterr().out
    assert "conv-slow" in text and "conv-other" not in text
    assert "tokens 5400 in, 960 out" in text


def test_eval_gate_rules_and_a_missing_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CREDO_LLM", raising=False)
    data = two_conversations(tmp_path)
    scores = evaluate_locomo(data)
    assert [s.sample_id for s in scores] == ["conv-slow", "conv-other"]
    assert all(s.failed_episodes == 0 and s.tokens == {} for s in scores)
    assert cli.main(["eval", "gate", "--data", str(data), "--sample", "nope"]) == 2
    assert "no sample 'nope'" in capsys.readouterr().err


def test_eval_gate_counts_failed_episodes_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CREDO_LLM", raising=False)
    slow = SlowModel(delay=1.0)
    try:
        data = two_conversations(tmp_path)
        argv = ["eval", "gate", "--data", str(data), "--sample", "conv-other", "--llm",
                "llamacpp:stub", "--llm-url", slow.url, "--llm-timeout", "0.2",
                "--episode-size", "1", "--json"]  # fmt: skip
        assert cli.main(argv) == 1
    finally:
        slow.httpd.shutdown()
        slow.httpd.server_close()
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["failed_episodes"] >= 3
