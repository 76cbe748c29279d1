"""The LLM extractor: the seed's prompt contract, and replies that are valid, malformed,
partial or fenced, scripted with FakeChat (no network)."""

from __future__ import annotations

import json
from typing import Any

from credo.extract.base import Turn
from credo.extract.llm import EXTRACT_SCHEMA, LLMExtractor
from credo.gate import DENY_LIST, GatePolicy
from credo.llm import LLMError
from credo.memory import Memory
from credo.testing import FakeChat

T0 = 1_700_000_000.0


def _turns() -> list[Turn]:
    return [
        Turn("m1", "user", "I live in Berlin.", T0),
        Turn("m2", "assistant", "Nice! Berlin is lovely.", T0 + 60),
        Turn("m3", "user", "I deploy arttuan.com on Vercel.", T0 + 120, speaker="Arttu"),
    ]


def _reply(*items: Any) -> str:
    return json.dumps({"facts": list(items)})


def test_valid_reply_maps_indices_to_turn_ids_and_times() -> None:
    chat = FakeChat(
        [
            _reply(
                {
                    "text": "Arttu lives in Berlin.",
                    "subject": "Arttu",
                    "predicate": "lives_in",
                    "object": "Berlin",
                    "turns": [0],
                },
                {
                    "text": "Arttu deploys arttuan.com on Vercel.",
                    "subject": "I",
                    "predicate": "deploys_on",
                    "object": "Vercel",
                    "turns": [0, 2],
                },
            )
        ]
    )
    out = LLMExtractor(chat).extract_episode(_turns(), self_name="Arttu")
    assert out.notes == [] and out.errors == []
    first, second = out.candidates
    assert first.derived_from == ("m1",) and first.valid_from == T0
    # the latest source turn dates the fact
    assert second.derived_from == ("m1", "m3") and second.valid_from == T0 + 120
    assert second.subject == "Arttu"  # "I" in a turn with a speaker is that speaker
    assert first.source == "user" and first.role == "user"
    assert chat.schemas[0] == EXTRACT_SCHEMA


def test_prompt_carries_the_contract_the_deny_list_and_the_examples() -> None:
    policy = GatePolicy(
        keep_examples=("Anna keeps bees.",), refuse_examples=("Anna seems tired. (mood)",)
    )
    chat = FakeChat(["[]"])
    LLMExtractor(chat, policy=policy).extract_episode(_turns())
    system, user = chat.calls[0]
    assert DENY_LIST in system["content"]
    for word in ("Durable", "Specific", "Sourced", "Asserted"):
        assert word in system["content"]
    assert "Anna keeps bees." in system["content"]
    assert "Anna seems tired. (mood)" in system["content"]
    assert "[0] user" in user["content"] and "[2] user Arttu" in user["content"]
    assert "m1" not in user["content"]  # ids never reach the model; indices do


def test_empty_reply_is_a_normal_outcome() -> None:
    out = LLMExtractor(FakeChat(["[]"])).extract("nice weather today")
    assert out.candidates == [] and out.notes == [] and out.errors == []


def test_malformed_json_yields_nothing_and_a_reason() -> None:
    out = LLMExtractor(FakeChat(['{"facts": [{"text": "Arttu lives'])).extract_episode(_turns())
    assert out.candidates == []
    assert len(out.notes) == 1 and "not JSON" in out.notes[0]


def test_prose_reply_yields_nothing_and_a_reason() -> None:
    out = LLMExtractor(FakeChat(["Sure! Here are the facts you asked for."])).extract("hi")
    assert out.candidates == [] and "not JSON" in out.notes[0]


def test_partial_reply_keeps_the_good_items_and_notes_the_bad_one() -> None:
    chat = FakeChat(
        [
            _reply(
                {"text": "Arttu lives in Berlin.", "subject": "Arttu", "turns": [0]},
                {"subject": "Arttu", "turns": [0]},  # no text
                {"text": "Arttu uses Vercel.", "subject": "Arttu", "turns": [7]},  # no such turn
                {"text": "Arttu uses Helix.", "subject": "Arttu", "turns": []},  # no source
                "not even an object",
            )
        ]
    )
    out = LLMExtractor(chat).extract_episode(_turns())
    assert [c.text for c in out.candidates] == ["Arttu lives in Berlin."]
    assert len(out.notes) == 4
    assert any("text" in n for n in out.notes)
    assert any("turn index 7" in n for n in out.notes)
    assert any("no source turn" in n for n in out.notes)


def test_code_fenced_reply_is_read() -> None:
    fenced = (
        "```json\n"
        + _reply({"text": "Arttu lives in Berlin.", "subject": "Arttu", "turns": [0]})
        + "\n```"
    )
    out = LLMExtractor(FakeChat([fenced])).extract_episode(_turns())
    assert [c.text for c in out.candidates] == ["Arttu lives in Berlin."]


def test_bare_array_and_single_turn_default() -> None:
    reply = json.dumps([{"text": "The user lives in Berlin.", "subject": "the user"}])
    out = LLMExtractor(FakeChat([reply])).extract("I live in Berlin", self_name="The user")
    (cand,) = out.candidates
    assert cand.derived_from == ("t0",) and cand.subject == "The user"


def test_inferred_items_keep_their_sources_and_are_capped(memory: Memory) -> None:
    reply = _reply(
        {
            "text": "Arttu lives in Germany.",
            "subject": "Arttu",
            "turns": [0],
            "source": "inferred",
            "predicate": "lives_in_country",
            "object": "Germany",
        }
    )
    out = LLMExtractor(FakeChat([reply])).extract_episode(_turns())
    (cand,) = out.candidates
    assert cand.source == "inferred" and cand.derived_from == ("m1",)
    result = memory.remember_candidate(cand)
    assert result.accepted and result.fact is not None
    assert result.fact.confidence <= 0.6
    assert result.fact.derived_from == ["m1"]


def test_inferred_can_be_switched_off() -> None:
    reply = _reply(
        {"text": "Arttu lives in Germany.", "subject": "Arttu", "turns": [0], "source": "inferred"}
    )
    out = LLMExtractor(FakeChat([reply]), allow_inferred=False).extract_episode(_turns())
    assert out.candidates == [] and "inferred" in out.notes[0]


def test_assistant_only_items_keep_the_assistant_role_for_the_gate(memory: Memory) -> None:
    reply = _reply({"text": "Berlin is lovely.", "subject": "Berlin", "turns": [1]})
    (cand,) = LLMExtractor(FakeChat([reply])).extract_episode(_turns()).candidates
    assert cand.role == "assistant"
    result = memory.remember_candidate(cand)
    assert not result.accepted and result.code == "not_sourced"


def test_secrets_are_masked_before_the_model_and_refused_after() -> None:
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8J9k0L1m2N3p4Q5r6"
    turn = Turn("s1", "user", f"My OpenAI key is {key}", T0)
    reply = _reply(
        {
            "text": "The user's OpenAI key is [secret-1:openai_api_key].",
            "subject": "the user",
            "turns": [0],
        }
    )
    chat = FakeChat([reply])
    (cand,) = LLMExtractor(chat).extract_episode([turn]).candidates
    assert key not in chat.calls[0][1]["content"]
    assert key in cand.text  # put back, so the gate sees it and refuses it as a secret
    from credo.gate import check

    assert check(cand).code == "secret"


def test_a_failed_call_is_an_error_not_a_crash() -> None:
    class Down:
        def complete(self, messages: Any, *, json_schema: Any = None) -> str:
            raise LLMError("connection refused")

    out = LLMExtractor(Down()).extract_episode(_turns())
    assert out.candidates == [] and "connection refused" in out.errors[0]


def test_numbers_for_strings_are_tolerated() -> None:
    reply = _reply({"text": "Arttu is 41 years old.", "subject": "Arttu", "object": 41, "turns": 0})
    (cand,) = LLMExtractor(FakeChat([reply])).extract_episode(_turns()).candidates
    assert cand.object == "41" and cand.derived_from == ("m1",)


# -- replies refused before they are read -------------------------------------------------
def test_a_truncated_reply_is_refused_with_a_note_even_when_it_parses() -> None:
    from credo.llm import Reply

    cut = Reply(
        _reply({"text": "Arttu lives in Berlin.", "subject": "Arttu", "turns": [0]}),
        finish_reason="length",
        usage={"prompt_tokens": 500, "completion_tokens": 64},
    )
    out = LLMExtractor(FakeChat([cut])).extract_episode(_turns())
    assert out.candidates == [] and out.errors == []
    assert "cut off at the model's token limit" in out.notes[0]
    assert out.usage == {"prompt_tokens": 500, "completion_tokens": 64}


def test_a_reply_that_loops_is_refused() -> None:
    looping = '{"facts": [{"text": "Arttu ' + "is very very very " * 40 + '", "turns": [0]}]}'
    out = LLMExtractor(FakeChat([looping])).extract_episode(_turns())
    assert out.candidates == []
    assert "over and over" in out.notes[0]
    lines = "\n".join(["Arttu lives in Berlin and likes it."] * 6)
    out = LLMExtractor(FakeChat([lines])).extract_episode(_turns())
    assert out.candidates == [] and "over and over" in out.notes[0]


def test_repeated_keys_of_a_long_valid_reply_are_not_a_loop() -> None:
    items = [
        {"text": f"Arttu owns bicycle number {n}.", "subject": "Arttu", "turns": [0]}
        for n in range(30)
    ]
    out = LLMExtractor(FakeChat([_reply(*items)])).extract_episode(_turns())
    assert len(out.candidates) == 30 and out.notes == []


def test_a_timeout_asks_for_a_smaller_episode() -> None:
    class Slow:
        def complete(self, messages: Any, *, json_schema: Any = None) -> str:
            raise LLMError("timed out after 1 s", smaller_may_work=True)

    out = LLMExtractor(Slow()).extract_episode(_turns())
    assert out.errors and out.retry_smaller
