"""The extraction settings a user can reach: --llm-timeout, --llm-concurrency,
--episode-size (and --llm-structured, --llm-max-tokens) on the command line, CREDO_*
variables, and `Settings` / `get_chat_client` / `ingest` in Python; bad values are an
error that names the option."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from credo import cli
from credo.cli_ingest import build_extractor, llm_settings, register
from credo.config import Settings, SettingsError
from credo.extract.llm import LLMExtractor
from credo.extract.rules import RuleExtractor
from credo.llm import OpenAICompatibleClient

VARS = ("CREDO_LLM", "CREDO_LLM_URL", "CREDO_LLM_KEY", "CREDO_LLM_TIMEOUT",
        "CREDO_LLM_CONCURRENCY", "CREDO_EPISODE_SIZE")  # fmt: skip


def _args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**given)


def test_settings_from_the_environment() -> None:
    s = Settings.from_env(
        {
            "CREDO_LLM": "llamacpp:qwen",
            "CREDO_LLM_URL": "http://127.0.0.1:8080/v1",
            "CREDO_LLM_TIMEOUT": "600",
            "CREDO_LLM_CONCURRENCY": "4",
            "CREDO_EPISODE_SIZE": "8",
            "CREDO_LLM_KEY": "sk-local-secret",
        }
    )
    assert (s.llm, s.llm_url, s.llm_timeout, s.llm_concurrency, s.episode_size) == (
        "llamacpp:qwen", "http://127.0.0.1:8080/v1", 600.0, 4, 8,
    )  # fmt: skip
    assert "sk-local-secret" not in repr(s)
    d = Settings.from_env({})
    assert (d.llm, d.llm_timeout, d.llm_concurrency, d.episode_size) == ("", 60.0, 1, 20)


@pytest.mark.parametrize(
    ("var", "value", "option"),
    [
        ("CREDO_LLM_TIMEOUT", "soon", "--llm-timeout"),
        ("CREDO_LLM_TIMEOUT", "-5", "--llm-timeout"),
        ("CREDO_LLM_TIMEOUT", "nan", "--llm-timeout"),
        ("CREDO_LLM_CONCURRENCY", "0", "--llm-concurrency"),
        ("CREDO_LLM_CONCURRENCY", "2.5", "--llm-concurrency"),
        ("CREDO_EPISODE_SIZE", "100000", "--episode-size"),
    ],
)
def test_a_bad_variable_names_itself_and_its_option(var: str, value: str, option: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({var: value})
    assert var in str(info.value) and option in str(info.value)


def test_options_win_over_the_environment() -> None:
    env = {"CREDO_LLM_TIMEOUT": "600", "CREDO_EPISODE_SIZE": "8", "CREDO_LLM": "vllm:m"}
    s = llm_settings(_args(llm_timeout=5.0, episode_size=None, llm=None), env)
    assert (s.llm_timeout, s.episode_size, s.llm) == (5.0, 8, "vllm:m")
    with pytest.raises(SettingsError, match="--llm-timeout"):
        llm_settings(_args(llm_timeout=0.0), {})
    with pytest.raises(SettingsError, match="--llm-concurrency"):
        llm_settings(_args(llm_concurrency=0), {})
    with pytest.raises(SettingsError, match="--episode-size"):
        llm_settings(_args(episode_size=0), {})


def test_the_extractor_gets_the_timeout_the_mode_and_the_token_cap() -> None:
    args = _args(
        llm="llamacpp:qwen2.5-1.5b", llm_url="http://127.0.0.1:9/v1", llm_timeout=300.0,
        llm_structured=None, llm_max_tokens=512,
    )  # fmt: skip
    extractor = build_extractor(args, env={})
    assert isinstance(extractor, LLMExtractor)
    client = extractor.client
    assert isinstance(client, OpenAICompatibleClient)
    assert client.timeout == 300.0 and client.structured == "json_object"
    assert client.max_tokens == 512
    args.llm_structured = "none"
    plain = build_extractor(args, env={})
    assert isinstance(plain, LLMExtractor) and plain.client.structured == "none"
    env_made = build_extractor(_args(), env={"CREDO_LLM": "ollama:qwen", "CREDO_LLM_TIMEOUT": "90"})
    assert isinstance(env_made, LLMExtractor) and env_made.client.timeout == 90.0
    assert isinstance(build_extractor(_args(), env={}), RuleExtractor)


@pytest.fixture
def credo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[..., int]]:
    monkeypatch.setattr(cli, "_command_groups", lambda: [register])
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    for var in VARS:
        monkeypatch.delenv(var, raising=False)
    yield lambda *argv: cli.main(list(argv))


def test_cli_options_and_errors(
    credo: Callable[..., int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    chat = tmp_path / "c.jsonl"
    chat.write_text(
        "".join(json.dumps({"role": "user", "content": f"I live in Oulu {n}."}) + "\n"
                for n in range(5)), encoding="utf-8",
    )  # fmt: skip
    assert credo("ingest", str(chat), "--episode-size", "2", "--json") == 0
    assert json.loads(capsys.readouterr().out)["episodes"] == 3
    monkeypatch.setenv("CREDO_EPISODE_SIZE", "5")
    assert credo("ingest", str(chat), "--json", "--dry-run") == 0
    assert json.loads(capsys.readouterr().out)["episodes"] == 1
    assert credo("ingest", str(chat), "--llm-timeout", "0") == 1
    assert "--llm-timeout takes a positive number" in capsys.readouterr().err
    assert credo("ingest", str(chat), "--llm-concurrency", "1000") == 1
    assert "--llm-concurrency takes 1 to 64" in capsys.readouterr().err
    monkeypatch.setenv("CREDO_LLM_TIMEOUT", "forever")
    assert credo("ingest", str(chat)) == 1
    assert "CREDO_LLM_TIMEOUT='forever'" in capsys.readouterr().err
