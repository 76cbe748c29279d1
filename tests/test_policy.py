"""The gate policy as a file: defaults, round trips, errors that name the line, and the
policy feeding both the rule gate and the LLM prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.extract.base import Turn
from credo.extract.llm import LLMExtractor
from credo.gate import Candidate, GatePolicy, check
from credo.ingest import ingest
from credo.policy import (
    PolicyError,
    load_policy,
    policy_path_for,
    render_policy,
    save_policy,
)
from credo.testing import FakeChat, memory_for_tests


def test_path_beside_sqlite_and_hashed_for_postgres() -> None:
    assert policy_path_for("/data/notes.db") == Path("/data/notes.db.gate.toml")
    url = "postgresql://app:s3cret@db.example:5432/credo"
    pg = policy_path_for(url)
    assert pg.name.startswith("postgres-") and pg.name.endswith(".gate.toml")
    assert "s3cret" not in str(pg) and "db.example" not in str(pg)
    assert pg == policy_path_for(url) != policy_path_for(url + "2")


def test_missing_file_means_defaults(tmp_path: Path) -> None:
    assert load_policy(tmp_path / "none.gate.toml") == GatePolicy()


def test_round_trip(tmp_path: Path) -> None:
    policy = GatePolicy(
        affect=("grumpy", 'say "ugh"'),
        max_words=25,
        deny_list="NEVER extract: moods.\nOr plans.",
        keep_examples=("Ada keeps bees.",),
    )
    path = save_policy(policy, tmp_path / "x.db.gate.toml")
    assert load_policy(path) == policy
    assert load_policy(tmp_path / "x.db.gate.toml").affect == ("grumpy", 'say "ugh"')


def test_partial_file_keeps_other_defaults(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('# mine\naffect = ["grumpy"]\n', encoding="utf-8")
    policy = load_policy(path)
    assert policy.affect == ("grumpy",) and policy.hedges == GatePolicy().hedges


@pytest.mark.parametrize(
    "text, message",
    [
        ('affect = ["a"\n', r"p.toml:1: not valid TOML"),  # an unterminated list
        ('hedges = ["a"]\naffect = ["b" "c"]\n', r"p.toml:2: not valid TOML"),
        ('afect = ["a"]\n', r"p.toml:1: unknown key 'afect'"),
        ('x = 1\naffect = "grumpy"\n', r"p.toml:1: unknown key"),
        ('affect = "grumpy"\n', r"p.toml:1: affect must be a list of strings"),
        ('\n\nmax_words = "ten"\n', r"p.toml:3: max_words must be a positive whole number"),
        ('deny_list = ""\n', r"p.toml:1: deny_list must be a non-empty string"),
        (
            'value_kinds = ["pet cat dog"]\n',
            r"p.toml:1: kinds: 'pet cat dog' is not 'kind = member",
        ),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError, match=message):
        load_policy(path)


def test_the_policy_feeds_the_gate(tmp_path: Path) -> None:
    policy = GatePolicy(affect=("wistful",))
    wistful = Candidate("Ada is wistful about Mondays.", subject="ada")
    assert check(wistful) and not check(wistful, policy)
    mem = memory_for_tests(tmp_path / "m.db", policy=policy)
    report = ingest(mem, [Turn("1", "user", "I am wistful about Mondays.", speaker="Ada")])
    assert report.rejected_by_code == {"affect": 1}


def test_the_policy_feeds_the_prompt() -> None:
    policy = GatePolicy(
        deny_list="NEVER extract: anything about football.", keep_examples=("Ada keeps bees.",)
    )
    chat = FakeChat(["[]"])
    LLMExtractor(chat, policy=policy).extract("I keep bees and love football")
    system = chat.calls[0][0]["content"]
    assert "NEVER extract: anything about football." in system and "Ada keeps bees." in system


def test_render_is_commented_toml() -> None:
    text = render_policy(GatePolicy())
    assert text.startswith("# credo gate policy")
    assert "keep_examples = [" in text and "max_words = 40" in text


def test_value_kinds_in_the_policy_extend_the_shipped_ones(tmp_path: Path) -> None:
    """A kind the policy names makes its denial deny its members, through the real parser;
    the shipped kinds stay."""
    path = tmp_path / "p.toml"
    path.write_text('value_kinds = ["instrument = cello | piano | violin"]\n', encoding="utf-8")
    policy = load_policy(path)
    assert policy.value_kinds == ("instrument = cello | piano | violin",)
    catalogue = policy.catalogue()
    assert catalogue.of_kind("any instruments", "the cello") and catalogue.of_kind("pets", "a dog")
    assert not catalogue.of_kind("a cello", "instruments")  # one member denied leaves the rest
    mem = memory_for_tests(tmp_path / "m.db", policy=policy)
    mem.remember("I don't play any instruments.")
    assert mem.remember("I play the cello.").relation.value == "conflict"  # type: ignore[union-attr]
