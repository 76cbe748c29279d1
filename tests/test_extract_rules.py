"""The offline rule extractor: what it takes, what it leaves, and how it rewrites."""

from __future__ import annotations

import pytest

from credo.extract.base import Turn
from credo.extract.rules import RuleExtractor, pin_dates, split_clauses, to_third_person
from credo.gate import Candidate, check
from credo.ingest import parse_timestamp


def texts(text: str, name: str = "The user") -> list[str]:
    return [c.text for c in RuleExtractor().extract(text, self_name=name).candidates]


def stored(text: str, name: str = "The user") -> list[Candidate]:
    """What would pass the gate too."""
    return [c for c in RuleExtractor().extract(text, self_name=name).candidates if check(c)]


@pytest.mark.parametrize("text, expected", [
    ("I live in Berlin.", "The user lives in Berlin."),
    ("I work at Reaktor on the payments team.", "The user works at Reaktor on the payments team."),
    ("I'm a nurse.", "The user is a nurse."),
    ("I have two kids and a dog.", "The user has two kids and a dog."),
    ("I love hiking!", "The user loves hiking."),
    ("I use Helix.", "The user uses Helix."),
    ("My editor is Helix.", "The user's editor is Helix."),
    ("I'm allergic to peanuts.", "The user is allergic to peanuts."),
    ("I don't eat meat.", "The user does not eat meat."),
    ("remember that the deploy target is prod", "The deploy target is prod."),
    ("I grew up in Tampere.", "The user grew up in Tampere."),
])
def test_plain_statements_are_taken(text: str, expected: str) -> None:
    assert expected in [c.text for c in stored(text)]


@pytest.mark.parametrize("text", [
    "How are you doing today?",
    "Hey! Good to see you.",
    "Thanks so much, that means a lot.",
    "I love that!",
    "I hope you feel better soon.",
    "I bet they loved it.",
    "That's so cool.",
    "Your painting looks amazing.",
    "I can't wait to see it.",
    "I agree, totally.",
    "It was awesome.",
    "lol ok",
    "I think so.",
    "I'm doing great, thanks.",
])
def test_small_talk_produces_nothing(text: str) -> None:
    assert stored(text) == []


@pytest.mark.parametrize("text, code", [
    ("I'm so frustrated with this build.", "affect"),
    ("I might switch to Postgres eventually.", "hedged"),
    ("I will rewrite it in Rust next year.", "speculative"),
    ("The build is failing right now.", "transient"),
])
def test_hedges_and_moods_reach_the_gate_and_are_refused_there(text: str, code: str) -> None:
    cands = RuleExtractor().extract(text).candidates
    assert cands, "handed to the gate so the refusal is on record"
    assert {check(c).code for c in cands} == {code}


def test_first_person_is_rewritten_with_the_speaker_name() -> None:
    (cand,) = RuleExtractor().extract("I've been into dancing since I was a kid.",
                                      self_name="Jon").candidates
    assert cand.text == "Jon has been into dancing since Jon was a kid."
    assert cand.subject == "Jon"
    assert to_third_person("I love my dog and my dog loves me", "Ana") == \
        "Ana loves Ana's dog and Ana's dog loves Ana."


def test_keys_for_durable_relations_and_none_for_events() -> None:
    ext = RuleExtractor()
    (home,) = ext.extract("I live in Berlin.").candidates
    assert (home.subject, home.predicate, home.object) == ("The user", "live_in", "Berlin")
    (trip,) = ext.extract("I went to Paris last year.").candidates
    # two trips are not a contradiction: an event keeps its object but no key
    assert trip.predicate is None and trip.object


def test_clauses_are_judged_separately() -> None:
    got = texts("Lost my job as a banker yesterday, so I'm gonna start my own business.",
                name="Jon")
    assert "Jon lost Jon's job as a banker yesterday." in got
    assert all(not check(c) for c in RuleExtractor().extract(
        "so I'm gonna start my own business").candidates)
    assert split_clauses("I live in Berlin and I work at Reaktor.") == [
        "I live in Berlin", "I work at Reaktor"]
    assert split_clauses("My wife and I went hiking.") == ["My wife and I went hiking"]


def test_relative_dates_are_pinned_to_the_turn() -> None:
    ts = parse_timestamp("1:56 pm on 8 May, 2023")
    turn = Turn("D1:3", "user", "I went to a support group yesterday.", ts, "Caroline")
    (cand,) = RuleExtractor().extract_episode([turn]).candidates
    assert cand.text == "Caroline went to a support group on 7 May 2023."
    assert cand.valid_from == ts and cand.derived_from == ("D1:3",)
    assert pin_dates("I ran a race last year", ts) == "I ran a race in 2022"
    assert pin_dates("we met two weeks ago", ts) == "we met around 24 April 2023"
    assert pin_dates("no date here", None) == "no date here"


def test_only_user_turns_are_sources() -> None:
    turns = [Turn("a1", "assistant", "I live in the cloud."),
             Turn("t1", "tool", "I am a tool output."),
             Turn("u1", "user", "I live in Oulu.")]
    cands = RuleExtractor().extract_episode(turns).candidates
    assert [c.derived_from for c in cands] == [("u1",)]


def test_speakers_and_vocatives() -> None:
    turns = [Turn("D1:1", "user", "Hey Mel! I adopted a cat named Luna.", speaker="Caroline"),
             Turn("D1:2", "user", "Caroline, that's great! I have two dogs.", speaker="Melanie")]
    cands = RuleExtractor().extract_episode(turns).candidates
    assert [(c.subject, c.text) for c in cands] == [
        ("Caroline", "Caroline adopted a cat named Luna."),
        ("Melanie", "Melanie has two dogs."),
    ]


def test_suppression_requests_are_never_facts() -> None:
    assert RuleExtractor().extract("Please don't store my address, I live at 12 Main St.")\
        .candidates == []


def test_listener_statements_are_not_the_speakers_facts() -> None:
    assert texts("You live in Berlin, right.") == []
    assert texts("I love your new haircut.") == []


def test_broad_mode_takes_more_first_person_statements() -> None:
    text = "I stay positive and find a way."
    assert stored(text) == []
    broad = [c for c in RuleExtractor(broad=True).extract(text).candidates if check(c)]
    assert broad


def test_extraction_is_deterministic() -> None:
    text = "I live in Berlin. I'm a nurse. I love hiking!"
    assert texts(text) == texts(text)
