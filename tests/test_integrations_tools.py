"""remember / recall / forget / conflicts / why tools on the real OpenAI Agents SDK and pydantic-ai, each run
by the framework's own agent loop with a scripted model (no network), over a real SQLite
file. The scripted models are the only fakes."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from credo.integrations import tools
from credo.testing import memory_for_tests


@pytest.fixture
def memory(tmp_path: Path) -> Any:
    return memory_for_tests(tmp_path / "tools.db", scope="arttu")


# -- the shared functions ----------------------------------------------------------------------
def test_remember_reports_each_statement_of_a_text(memory: Any) -> None:
    both = tools.remember(memory, "I live in Tampere and I work at Nokia")
    assert both["fact"]["text"] == "The user lives in Tampere"
    assert [a["fact"]["text"] for a in both["also"]] == ["The user works at Nokia"]


def test_the_tool_functions_over_memory(memory: Any) -> None:
    stored = tools.remember(memory, "I deploy arttuan.com on Vercel")
    assert stored["stored"] is True and stored["relation"] == "new"
    assert stored["fact"]["valid_from"].endswith("Z")
    refused = tools.remember(memory, "can you book me a table?")
    assert refused["stored"] is False and refused["refused"] and refused["why"]
    assert tools.remember(memory, "x" * 5000)["stored"] is False  # too long: said, not raised
    found = tools.recall(memory, "where does arttuan.com run", k=500)
    assert found["facts"][0]["text"] == "The user deploys arttuan.com on Vercel"
    assert "reference material" in found["rendered"]
    gone = tools.forget(memory, found["facts"][0]["id"])
    assert gone == {"forgotten": [found["facts"][0]["id"]]} and memory.list() == []
    assert "no fact" in tools.forget(memory, "f_nope")["error"]


def test_conflicts_and_why_tell_a_model_what_is_unsettled_and_where_a_fact_came_from(
    memory: Any,
) -> None:
    assert tools.conflicts(memory) == {"conflicts": [], "count": 0}
    staging = tools.remember(memory, "The deploy target is staging")["fact"]["id"]
    prod = tools.remember(memory, "The deploy target is prod")
    assert prod["relation"] == "conflict"
    found = tools.conflicts(memory)
    assert found["count"] == 1
    (pair,) = found["conflicts"]
    assert {pair["a"]["id"], pair["b"]["id"]} == {staging, prod["fact"]["id"]}
    assert pair["reason"] and pair["created_at"].endswith("Z")
    assert {pair["a"]["status"], pair["b"]["status"]} == {"conflicted"}

    said = tools.why(memory, staging)
    assert said["fact"]["id"] == staging and said["fact"]["text"] == "The deploy target is staging"
    assert [s["said"] for s in said["sources"]] == ["The deploy target is staging"]
    kinds = [d["kind"] for d in said["decisions"]]
    assert kinds[0] == "new" and "conflict" in kinds
    assert all(d["at"].endswith("Z") for d in said["decisions"])  # ISO, not epoch seconds
    assert "no fact" in tools.why(memory, "f_nope")["error"]  # an answer, not an exception


# -- OpenAI Agents SDK -------------------------------------------------------------------------
def test_openai_agents_function_tools_in_a_run(memory: Any) -> None:
    agents = pytest.importorskip("agents", reason="credo[openai-agents] is not installed")
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    from credo.integrations.openai_agents import memory_tools

    def tool_call(name: str, **args: Any) -> ResponseFunctionToolCall:
        call = uuid.uuid4().hex
        return ResponseFunctionToolCall(
            type="function_call",
            call_id=f"c_{call}",
            name=name,
            arguments=json.dumps(args),
            id=f"fc_{call}",
        )

    def say(text: str) -> ResponseOutputMessage:
        return ResponseOutputMessage(
            id="m1",
            type="message",
            role="assistant",
            status="completed",
            content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
        )

    class Scripted(Model):
        def __init__(self, *turns: Any) -> None:
            self.turns, self.inputs = list(turns), []

        async def get_response(
            self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
        ) -> ModelResponse:
            self.inputs.append(input)
            return ModelResponse(output=[self.turns.pop(0)], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            raise NotImplementedError

    toolset = memory_tools(memory)
    assert [t.name for t in toolset] == ["remember", "recall", "forget", "conflicts", "why"]
    assert "durable fact" in toolset[0].description
    assert toolset[1].params_json_schema["properties"]["query"]["description"]

    config = agents.RunConfig(tracing_disabled=True)
    model = Scripted(
        tool_call("remember", text="I live in Berlin"),
        tool_call("remember", text="what's the weather?"),
        say("Noted."),
    )
    agent = agents.Agent(name="assistant", model=model, tools=toolset)
    result = asyncio.run(agents.Runner.run(agent, "I live in Berlin", run_config=config))
    assert result.final_output == "Noted."
    outputs = [i for i in result.new_items if i.type == "tool_call_output_item"]
    assert outputs[0].output["stored"] is True
    assert outputs[1].output["stored"] is False and outputs[1].output["refused"] == "question"
    assert [f.text for f in memory.list()] == ["The user lives in Berlin"]

    fact_id = memory.list()[0].id
    model = Scripted(
        tool_call("recall", query="where does the user live"),
        tool_call("forget", fact_id=fact_id),
        say("Forgotten."),
    )
    agent = agents.Agent(name="assistant", model=model, tools=toolset)
    result = asyncio.run(agents.Runner.run(agent, "forget where I live", run_config=config))
    outputs = [i.output for i in result.new_items if i.type == "tool_call_output_item"]
    assert outputs[0]["facts"][0]["id"] == fact_id and outputs[1] == {"forgotten": [fact_id]}
    assert "The user lives in Berlin" in json.dumps(model.inputs[1], default=str)
    assert memory.list() == []

    memory.remember("The deploy target is staging")
    memory.remember("The deploy target is prod")
    staging = next(f.id for f in memory.list() if "staging" in f.text)
    model = Scripted(
        tool_call("conflicts"),
        tool_call("why", fact_id=staging),
        say("Staging or prod?"),
    )
    agent = agents.Agent(name="assistant", model=model, tools=toolset)
    result = asyncio.run(agents.Runner.run(agent, "where do we deploy?", run_config=config))
    outputs = [i.output for i in result.new_items if i.type == "tool_call_output_item"]
    assert outputs[0]["count"] == 1 and outputs[1]["fact"]["id"] == staging


# -- pydantic-ai -------------------------------------------------------------------------------
def test_pydantic_ai_tools_in_a_run(memory: Any) -> None:
    pydantic_ai = pytest.importorskip("pydantic_ai", reason="credo[pydantic-ai] is not installed")
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from credo.integrations.pydantic_ai import memory_tools

    script = [
        [ToolCallPart("remember", {"text": "I live in Berlin"})],
        [ToolCallPart("remember", {"text": "lol ok"})],
        [ToolCallPart("recall", {"query": "where does the user live"})],
        [TextPart("In Berlin.")],
    ]
    seen: list[Any] = []

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen.append((messages, info))
        return ModelResponse(parts=script.pop(0))

    agent = pydantic_ai.Agent(FunctionModel(model), tools=memory_tools(memory))
    result = agent.run_sync("I live in Berlin. Where do I live?")
    assert result.output == "In Berlin."
    info = seen[0][1]
    described = {t.name: t for t in info.function_tools}
    assert set(described) == {"remember", "recall", "forget", "conflicts", "why"}
    assert "contradictions" in (described["conflicts"].description or "")
    assert described["why"].parameters_json_schema["properties"]["fact_id"]["description"]
    assert "durable fact" in (described["remember"].description or "")
    assert described["recall"].parameters_json_schema["properties"]["query"]["description"]
    returns = [
        p.content for m in result.all_messages() for p in m.parts if isinstance(p, ToolReturnPart)
    ]
    assert returns[0]["stored"] is True and returns[1]["stored"] is False
    assert returns[2]["facts"][0]["text"] == "The user lives in Berlin"
    assert [f.text for f in memory.list()] == ["The user lives in Berlin"]

    fact_id = memory.list()[0].id
    script[:] = [[ToolCallPart("forget", {"fact_id": fact_id})], [TextPart("Gone.")]]
    assert agent.run_sync("forget it").output == "Gone."
    assert memory.list() == []

    memory.remember("The deploy target is staging")
    memory.remember("The deploy target is prod")
    staging = next(f.id for f in memory.list() if "staging" in f.text)
    script[:] = [
        [ToolCallPart("conflicts", {}), ToolCallPart("why", {"fact_id": staging})],
        [TextPart("Staging or prod?")],
    ]
    result = agent.run_sync("where do we deploy?")
    returns = [
        p.content for m in result.new_messages() for p in m.parts if isinstance(p, ToolReturnPart)
    ]
    assert returns[0]["count"] == 1 and returns[1]["fact"]["id"] == staging
