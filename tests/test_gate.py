"""The gate: four properties and the deny-list, with a reason for every refusal."""

from __future__ import annotations

import pytest

from credo.gate import Candidate, GatePolicy, Suppression, check


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The user seems frustrated with the build", "affect"),
        ("Arttu is excited about the launch", "affect"),
        ("I think Arttu uses Postgres", "hedged"),
        ("Arttu probably lives in Berlin", "hedged"),
        ("Arttu wants to learn Rust eventually", "speculative"),
        ("Arttu is going to move to Lisbon", "speculative"),
        ("The build is failing right now", "transient"),
        ("The staging server is down", "transient"),
        ("Arttu's manager thinks Rust is overrated", "attributed_opinion"),
        ("The user likes clean code", "vague"),
        ("Where does Arttu deploy his site?", "question"),
        ("ok", "too_short"),
    ],
)
def test_gate_refuses_with_a_category(text: str, code: str) -> None:
    verdict = check(Candidate(text=text, subject="arttu"))
    assert not verdict.accepted
    assert verdict.code == code
    assert verdict.reason


@pytest.mark.parametrize(
    "text",
    [
        "Arttu deploys arttuan.com on Vercel",
        "Arttu lives in Berlin",
        "The deploy target for the API is prod",
        "Arttu's editor is Helix",
        "Arttu is allergic to peanuts",
    ],
)
def test_gate_accepts_durable_specific_asserted_facts(text: str) -> None:
    assert check(Candidate(text=text, subject="arttu")).accepted


def test_markers_match_whole_words_only() -> None:
    # "sad" inside "Sadie", "will" inside "Williams" are names, not affect or intent
    assert check(Candidate(text="Sadie Williams works at Reaktor", subject="sadie")).accepted


def test_assistant_restatements_are_not_sourced() -> None:
    verdict = check(Candidate(text="Arttu lives in Berlin", subject="arttu", role="assistant"))
    assert verdict.code == "not_sourced"


def test_secrets_are_refused_even_inside_a_valid_fact() -> None:
    key = "sk-proj-" + "a1B2c3D4" * 6
    verdict = check(Candidate(text=f"Arttu's OpenAI key is {key}", subject="arttu"))
    assert verdict.code == "secret"
    assert key not in verdict.reason


def test_suppression_rule_refuses_matching_candidates() -> None:
    rule = Suppression("r1", "home address")
    verdict = check(
        Candidate(text="Arttu's home address is Mannerheimintie 1", subject="arttu"),
        suppressions=[rule],
    )
    assert verdict.code == "suppressed"
    assert check(
        Candidate(text="Arttu's office address is Kamppi 2", subject="arttu"), suppressions=[rule]
    ).accepted


def test_policy_is_configuration() -> None:
    strict = GatePolicy(vague=("guitar",))
    assert not check(Candidate(text="Arttu plays guitar", subject="arttu"), strict).accepted
    assert check(Candidate(text="Arttu plays guitar", subject="arttu")).accepted


def test_subject_is_required_for_extracted_candidates_only() -> None:
    assert (
        check(Candidate(text="Deploys happen on Fridays at noon"), require_subject=True).code
        == "no_subject"
    )
    assert check(
        Candidate(text="Deploys happen on Fridays at noon"), require_subject=False
    ).accepted


@pytest.mark.parametrize("subject", ["she", "they", "there"])
def test_a_subject_given_as_a_pronoun_is_ungrounded(subject: str) -> None:
    # the lexicon's "pronoun_subjects": a subject the caller gives that names nobody
    verdict = check(Candidate(text="Plays the cello in a quartet", subject=subject))
    assert (verdict.accepted, verdict.code) == (False, "ungrounded"), verdict.reason
    assert check(Candidate(text="Plays the cello in a quartet", subject="maija")).accepted


def test_the_word_mood_alone_is_not_affect() -> None:
    assert check(
        Candidate(text="Arttu writes commit messages in the imperative mood", subject="arttu")
    ).accepted
    assert check(Candidate(text="Arttu is in a bad mood", subject="arttu")).code == "affect"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("I am currently in a meeting", "transient"),
        ("Tomorrow is my day off", "speculative"),
        ("I'm meeting Anna next week", "speculative"),
        ("I can't wait to try the new editor", "speculative"),
        ("I'm keen to learn Rust", "speculative"),
        ("I'll move to Lisbon", "speculative"),
        ("Write me a poem about cats", "instruction"),
        ("Can you book me a table for two", "instruction"),
        ("It runs on port 8080", "ungrounded"),
        ("Arttu's sister believes Go is faster", "attributed_opinion"),
        ("I'm planning a trip to Rome", "speculative"),
        ("The build is running", "transient"),
    ],
)
def test_the_gate_reads_the_sentence(text: str, code: str) -> None:
    verdict = check(Candidate(text=text), require_subject=False)
    assert (verdict.accepted, verdict.code) == (False, code), verdict.reason


@pytest.mark.parametrize(
    "text",
    [
        "My colleague Will lives in Oslo",  # a name, not the modal
        "Will Smith lives in Oslo",
        "I work at Happy Cow",  # a name, not a mood
        "Arttu volunteers at Glad Tidings",
        "I study complex analysis",  # a kind of analysis, not vagueness
        "I handle insurance claims for a living",  # a noun, not an attribution
        "I currently live in Berlin",  # a state verb: "currently" is no transience here
        "My daughter Joy plays the violin",
        "I believe in God",  # a belief, not a hedge
        "My favorite kind of soup is a chowder",  # a noun, not "kind of"
        "I ski a lot",  # how often, not vagueness
        "I am running a bakery in Oulu",  # an undertaking, not a process
    ],
)
def test_names_nouns_and_modifiers_are_not_markers(text: str) -> None:
    verdict = check(Candidate(text=text), require_subject=False)
    assert verdict.accepted, verdict.reason


def test_a_secret_is_found_before_the_length_check() -> None:
    key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0" * 2
    words = " ".join(["word"] * 45)
    verdict = check(Candidate(text=f"{words} my key is {key}", subject="arttu"))
    assert verdict.code == "secret"
