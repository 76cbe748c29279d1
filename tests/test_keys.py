"""Offline key parsing for explicit facts."""

from __future__ import annotations

import pytest

from credo.keys import lemma, parse_key, third_person


@pytest.mark.parametrize(
    ("text", "subject", "predicate", "obj"),
    [
        ("Arttu deploys arttuan.com on Vercel", "Arttu", "deploy", "arttuan.com on Vercel"),
        ("The deploy target is prod", "deploy target", "be", "prod"),
        ("my editor is Helix", "I", "editor", "Helix"),
        ("Arttu's editor is Helix", "Arttu", "editor", "Helix"),
        ("I live in Berlin", "I", "live_in", "Berlin"),
        ("Arttu lives in Helsinki", "Arttu", "live_in", "Helsinki"),
        ("Anna Antikainen works at Reaktor", "Anna Antikainen", "work_at", "Reaktor"),
        ("Arttu prefers dark mode", "Arttu", "like", "dark mode"),
        ("I don't eat meat", "I", "not_eat", "meat"),
        ("The team uses Postgres", "team", "use", "Postgres"),
    ],
)
def test_keys_for_the_shapes_people_use(text: str, subject: str, predicate: str,
                                        obj: str) -> None:
    parsed = parse_key(text)
    assert parsed is not None
    assert (parsed.subject, parsed.predicate, parsed.object) == (subject, predicate, obj)


def test_first_person_is_rewritten_in_the_third_person() -> None:
    parsed = parse_key("I live in Berlin", self_name="Arttu")
    assert parsed is not None and parsed.text == "Arttu lives in Berlin."
    parsed = parse_key("my editor is Helix", self_name="Arttu")
    assert parsed is not None and parsed.text == "Arttu's editor is Helix."
    parsed = parse_key("I'm a vegan")
    assert parsed is not None and parsed.text == "The user is a vegan."


@pytest.mark.parametrize("text", ["nice weather today", "Where does Arttu live?", "ok", ""])
def test_no_key_when_there_is_no_statement(text: str) -> None:
    assert parse_key(text) is None


def test_verb_forms_round_trip() -> None:
    for base in ("live", "watch", "study", "use", "deploy", "go", "have"):
        assert lemma(third_person(base)) == base


def test_being_a_kind_of_thing_is_many_valued() -> None:
    from credo.keys import MULTI_VALUED

    nurse, father = parse_key("Arttu is a nurse"), parse_key("Arttu is a father")
    assert nurse is not None and father is not None
    assert nurse.predicate == father.predicate == "be_a"
    assert "be_a" in MULTI_VALUED


def test_adverbs_and_later_first_person_words() -> None:
    parsed = parse_key("I also like snakes", self_name="Arttu")
    assert parsed is not None and (parsed.predicate, parsed.object) == ("like", "snakes")
    parsed = parse_key("I love my dog and I walk him daily", self_name="Arttu")
    assert parsed is not None
    assert parsed.text == "Arttu loves Arttu's dog and Arttu walks him daily."


def test_possessive_with_a_verb() -> None:
    parsed = parse_key("Arttu's commit messages follow the Conventional Commits format.")
    assert parsed is not None
    assert (parsed.subject, parsed.predicate) == ("Arttu", "commit_messages_follow")
    assert parsed.object == "the Conventional Commits format"
    parsed = parse_key("my kids love nature")
    assert parsed is not None and (parsed.subject, parsed.object) == ("I", "nature")
