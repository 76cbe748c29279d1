"""The command line, as a user runs it: every command, --json, and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from credo.cli import build_parser, main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.delenv("CREDO_SCOPE", raising=False)

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def test_remember_update_and_conflict_as_in_the_issue(cli) -> None:  # type: ignore[no-untyped-def]
    long_ago = (date.today() - timedelta(days=400)).isoformat()
    assert cli("remember", "Arttu lives in Helsinki", "--valid-from", long_ago)[0] == 0
    code, out, _ = cli("remember", "Arttu lives in Berlin")
    assert code == 0 and out.startswith("update:") and "superseded" in out
    cli("remember", "The deploy target is staging")
    code, out, _ = cli("remember", "The deploy target is prod")
    assert out.startswith("conflict:")

    facts = json.loads(cli("list", "--json")[1])
    by_status = sorted(f["status"] for f in facts)
    assert by_status == ["active", "conflicted", "conflicted", "superseded"]
    required = {
        "id",
        "text",
        "subject",
        "predicate",
        "object",
        "scope",
        "status",
        "confidence",
        "source",
        "valid_from",
        "valid_to",
        "created_at",
        "derived_from",
    }
    assert all(required <= set(f) for f in facts)
    old = next(f for f in facts if f["status"] == "superseded")
    new = next(f for f in facts if f["object"] == "Berlin")
    assert old["superseded_by"] == new["id"] and old["valid_to"] is not None
    assert old["id"] in new["derived_from"]

    pairs = json.loads(cli("conflicts", "--json")[1])
    assert (
        len(pairs) == 1
        and {pairs[0]["a"]["object"], pairs[0]["b"]["object"]} == {"staging", "prod"}
        and pairs[0]["reason"]
    )

    recalled = json.loads(cli("recall", "deploy target", "--json")[1])
    assert {"staging", "prod"} <= {f["object"] for f in recalled}
    assert all("found_by" in f and "score" in f for f in recalled)
    rendered = cli("recall", "deploy target", "--render")[1]
    assert "staging" in rendered and "prod" in rendered and "contradict" in rendered
    assert "[20" in rendered  # dates on every fact


def test_gate_refusal_exits_non_zero_and_shows_in_rejected(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("remember", "I might switch to Postgres eventually")
    assert code == 1 and "not stored" in err
    rejected = json.loads(cli("rejected", "--json")[1])
    assert rejected[0]["code"] == "hedged"


def test_scopes_are_a_wall_in_the_cli(cli) -> None:  # type: ignore[no-untyped-def]
    cli("--scope", "alice", "remember", "Alice lives in Oslo")
    assert json.loads(cli("--scope", "bob", "list", "--json")[1]) == []
    assert json.loads(cli("--scope", "bob", "recall", "Oslo", "--json")[1]) == []
    assert json.loads(cli("--scope", "bob", "conflicts", "--json")[1]) == []
    fact_id = json.loads(cli("--scope", "alice", "list", "--json")[1])[0]["id"]
    code, _, err = cli("--scope", "bob", "forget", "--id", fact_id)
    assert code == 1 and "no fact" in err
    assert len(json.loads(cli("--scope", "alice", "list", "--json")[1])) == 1


def test_forget_subject_and_all(cli) -> None:  # type: ignore[no-untyped-def]
    cli("remember", "Arttu lives in Berlin")
    cli("remember", "Anna lives in Oslo")
    code, out, _ = cli("forget", "--subject", "Arttu")
    assert code == 0 and "forgot 1 fact" in out
    assert cli("forget", "--all")[0] == 2  # needs --yes
    assert cli("forget", "--all", "--yes")[0] == 0
    assert json.loads(cli("list", "--json")[1]) == []


def test_export_import_round_trip(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    cli("alias", "add", "@arttuan", "arttu")
    cli("remember", "Arttu lives in Berlin")
    cli("remember", "The deploy target is staging")
    cli("remember", "The deploy target is prod")
    dump = tmp_path / "dump.jsonl"
    assert cli("export", "-o", str(dump))[0] == 0
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "other.db"))
    code, out, _ = cli("import", str(dump))
    assert code == 0 and "imported 3 fact(s)" in out
    assert len(json.loads(cli("conflicts", "--json")[1])) == 1
    assert json.loads(cli("alias", "list", "--json")[1]) == {"arttuan": "arttu"}


def test_import_of_garbage_is_a_clear_error(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "fact", "text": "ok fact here"}\nnot json\n')
    code, _, err = cli("import", str(bad))
    assert code == 1 and "line 2" in err
    assert json.loads(cli("list", "--json")[1]) == []


def test_resolve_and_alias_commands(cli) -> None:  # type: ignore[no-untyped-def]
    cli("remember", "The deploy target is staging")
    cli("remember", "The deploy target is prod")
    pair = json.loads(cli("conflicts", "--json")[1])[0]
    keep = pair["b"]["id"]
    assert cli("resolve", "--keep", keep, "--by", "arttu")[0] == 0
    assert json.loads(cli("conflicts", "--json")[1]) == []
    assert cli("alias", "remove", "nobody")[0] == 1
    assert cli("resolve", "--keep", "f_missing")[0] == 1


def test_bad_inputs_get_clear_errors(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("remember", "Arttu lives in Berlin", "--valid-from", "someday")
    assert code == 1 and "YYYY-MM-DD" in err
    code, _, err = cli("remember", "Arttu lives in Berlin", "--source", "rumour")
    assert code == 1 and "unknown source" in err
    code, _, err = cli("--scope", "bad scope", "list")
    assert code == 1 and "invalid scope" in err
    code, _, err = cli("--embedder", "nope:x", "list")
    assert code == 1 and "unknown embedder" in err


def test_help_names_every_command() -> None:
    text = build_parser().format_help()
    for name in (
        "remember",
        "recall",
        "list",
        "forget",
        "export",
        "import",
        "conflicts",
        "alias",
        "rejected",
        "reindex",
    ):
        assert name in text


def test_console_script_runs(tmp_path: Path) -> None:
    env = {"CREDO_DB": str(tmp_path / "s.db"), "CREDO_EMBEDDER": "hash", "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-m", "credo.cli", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "semantic fact store" in out.stdout


def test_rejections_can_be_pruned(cli) -> None:  # type: ignore[no-untyped-def]
    for text in ("I might move", "I think I like tea", "The build is failing right now"):
        cli("remember", text)
    code, out, _ = cli("rejected", "--prune", "1")
    assert code == 0 and "pruned 2" in out
    assert len(json.loads(cli("rejected", "--json")[1])) == 1


@pytest.mark.slow
def test_tier0_with_the_real_default_model(tmp_path: Path) -> None:
    """The README's first command, in small: remember two facts, recall one, no network."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["CREDO_DB"] = str(tmp_path / "tier0.db")
    env["HF_HUB_OFFLINE"] = "1"
    run = [sys.executable, "-m", "credo.cli"]
    for text in ("Arttu deploys arttuan.com on Vercel", "Arttu lives in Berlin"):
        subprocess.run([*run, "remember", text], env=env, check=True, capture_output=True)
    out = subprocess.run(
        [*run, "recall", "where does Arttu deploy", "-k", "1", "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    (hit,) = json.loads(out)
    assert hit["text"] == "Arttu deploys arttuan.com on Vercel"
    stats = subprocess.run(
        [*run, "list", "--json"], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert len(json.loads(stats)) == 2


def test_remember_a_text_of_several_statements_stores_each(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("remember", "i live in oslo and i work at equinor")
    assert code == 0
    assert "new: " in out and "The user lives in oslo" in out and "The user works at equinor" in out
    texts = sorted(f["text"] for f in json.loads(cli("list", "--json")[1]))
    assert texts == ["The user lives in oslo", "The user works at equinor"]
    code, out, _ = cli("remember", "I'm a nurse and I love it", "--json")
    result = json.loads(out)  # a clause with nothing to refer to keeps the text whole
    assert result["fact"]["text"] == "The user is a nurse and the user loves it"
    assert result["also"] == []


@pytest.mark.parametrize(
    "error",
    [
        "CredoError",
        "NotFound",
        "IngestError",
        "TimeError",
        "LLMError",
        "LLMConfigError",
        "NLPError",
        "CatalogueError",
        "StoreUnavailable",
    ],
)
def test_any_credo_error_a_command_raises_is_a_message_not_a_traceback(
    cli, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:  # type: ignore[no-untyped-def]
    """cli.main catches every CredoError (issue 26): what the command raised is printed as
    `credo: error: ...` with exit status 1, as the errors it listed by name always were."""
    import credo
    from credo.memory import Memory

    cls = getattr(credo, error)
    assert issubclass(cls, credo.CredoError)

    def refuse(self: Memory, **kwargs: object) -> list[object]:
        raise cls(f"the {error} message: do this instead")

    monkeypatch.setattr(Memory, "list", refuse)
    code, out, err = cli("list")
    assert code == 1
    assert err == f"credo: error: the {error} message: do this instead\n"
    assert "Traceback" not in err and out == ""


def test_a_usage_error_still_exits_2_and_other_exceptions_are_not_swallowed(
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from credo.cli_common import UsageError
    from credo.memory import Memory

    def misuse(self: Memory, **kwargs: object) -> list[object]:
        raise UsageError("say which one")

    monkeypatch.setattr(Memory, "list", misuse)
    assert cli("list")[0::2] == (2, "credo: say which one\n")

    def bug(self: Memory, **kwargs: object) -> list[object]:
        raise KeyError("a bug")  # not credo's refusal: a bug, and its traceback is wanted

    monkeypatch.setattr(Memory, "list", bug)
    with pytest.raises(KeyError):
        cli("list")
