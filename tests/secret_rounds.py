"""What each round's secret tests (`test_secrets_round6.py`, `_round7`, `_round8`,
`_round11`) check of its classes: each secret found and masked, each look-alike kept,
the real gate refusing each secret as one, and `Memory` keeping no secret and refusing no
look-alike as one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from credo.gate import Candidate, check
from credo.secrets import contains_secret, find_secrets_whole, mask_secrets
from credo.testing import memory_for_tests


def found_and_masked(text: str, secret: str) -> None:
    """`text` holds a secret, masking takes `secret` out, and nothing is found after."""
    assert find_secrets_whole(text), text
    masked = mask_secrets(text)
    assert secret not in masked, masked
    assert find_secrets_whole(masked) == [], masked


def kept(text: str) -> None:
    """`text` holds no secret."""
    assert find_secrets_whole(text) == [], mask_secrets(text)
    assert not contains_secret(text)


def refused_by_the_gate(secrets: Sequence[tuple[str, str]], subject: str) -> None:
    """The gate refuses each text of `secrets` as a secret."""
    codes = {text: check(Candidate(text=text, subject=subject)).code for text, _ in secrets}
    assert {t: c for t, c in codes.items() if c != "secret"} == {}


def through_memory(
    db: Path,
    secrets: Sequence[tuple[str, str]],
    lookalikes: Sequence[str],
    *,
    scope: str,
    by_lines: bool = False,
) -> None:
    """`Memory` refuses each secret (by `remember`, or with `by_lines` as `credo remember`
    does: the whole text looked at, then a statement a line), keeps none of them in a fact
    or a rejection, and refuses no look-alike as a secret (a statement a line)."""
    memory = memory_for_tests(db, scope=scope)
    for text, _ in secrets:
        if by_lines:
            assert any(r.code == "secret" for r in memory.remember_lines(text)), text
        else:
            assert memory.remember(text).code == "secret", text
    facts = " ".join(f.text for f in memory.list(limit=1000))
    logged = " ".join(r.text for r in memory.rejections(limit=1000))
    for _, secret in secrets:
        assert secret not in facts and secret not in logged, secret
    for text in lookalikes:
        assert all(r.code != "secret" for r in memory.remember_lines(text)), text


def round_tests(
    secrets: Sequence[tuple[str, str]],
    lookalikes: Sequence[str],
    *,
    scope: str,
    db: str,
    by_lines: bool = False,
) -> tuple[Callable[..., None], ...]:
    """A round's four tests of its classes, for its module to name: each secret found and
    masked, each look-alike kept, the gate, `Memory` (see `through_memory`)."""

    @pytest.mark.parametrize(("text", "secret"), secrets)
    def test_each_class_is_found_and_masked(text: str, secret: str) -> None:
        found_and_masked(text, secret)

    @pytest.mark.parametrize("text", lookalikes)
    def test_each_look_alike_is_kept(text: str) -> None:
        kept(text)

    def test_the_gate_refuses_each_as_a_secret() -> None:
        refused_by_the_gate(secrets, scope)

    def test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one(tmp_path: Path) -> None:
        through_memory(tmp_path / db, secrets, lookalikes, scope=scope, by_lines=by_lines)

    return (
        test_each_class_is_found_and_masked,
        test_each_look_alike_is_kept,
        test_the_gate_refuses_each_as_a_secret,
        test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
    )


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """`credo` as a user runs it, on a fresh SQLite file: run(*argv) -> (exit code, what
    it printed on stdout and stderr). A module imports it to use it."""
    from credo.cli import main

    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.delenv("CREDO_SCOPE", raising=False)

    def run(*argv: str) -> tuple[int, str]:
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out + out.err

    return run


def command_line_tests(
    secrets: Sequence[tuple[str, str]], lookalikes: Sequence[str]
) -> tuple[Callable[..., None], ...]:
    """A round's two tests through the command line (the module imports `cli` too): a
    third of its secrets refused and never shown by `remember`, `list` or `rejected`, and
    half of its look-alikes kept."""

    @pytest.mark.parametrize(("text", "secret"), secrets[::3])
    def test_the_command_line_refuses_and_never_shows_the_classes(
        cli, text: str, secret: str
    ) -> None:  # type: ignore[no-untyped-def]
        _, said = cli("remember", text)
        assert secret not in said
        _, listed = cli("list", "--json")
        _, rejected = cli("rejected", "--json")
        assert secret not in listed and secret not in rejected

    @pytest.mark.parametrize("text", lookalikes[::2])
    def test_the_command_line_keeps_the_look_alikes(cli, text: str) -> None:  # type: ignore[no-untyped-def]
        _, said = cli("remember", text)
        assert "secret" not in said

    return (
        test_the_command_line_refuses_and_never_shows_the_classes,
        test_the_command_line_keeps_the_look_alikes,
    )
