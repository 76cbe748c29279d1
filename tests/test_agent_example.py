"""The agent examples in docs/agents.md run as written, with FakeChat as the model, so the
documented code cannot rot."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from credo.aio import AsyncMemory
from credo.extract.base import Turn
from credo.testing import FakeChat, memory_for_tests

DOC = Path(__file__).resolve().parents[1] / "docs" / "agents.md"


def example(name: str) -> str:
    """The python block that follows `<!-- test: name -->` in the doc."""
    found = re.search(
        rf"<!-- test: {re.escape(name)} -->\s*```python\n(.*?)```",
        DOC.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found, f"docs/agents.md has no example marked {name!r}"
    return found.group(1)


def run(name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"docs_agents_{name.replace('-', '_')}"}
    exec(compile(example(name), f"docs/agents.md ({name})", "exec"), namespace)
    return namespace


def test_the_agent_loop_example_is_short() -> None:
    code = [ln for ln in example("agent-loop").splitlines() if ln.strip()]
    assert len(code) <= 15 and max(map(len, code)) <= 100


def test_the_setup_example_imports_what_exists() -> None:
    imports = [ln for ln in example("setup").splitlines() if ln.startswith(("from ", "import "))]
    assert imports
    exec("\n".join(imports), {})


def test_the_agent_loop_recalls_before_answering_and_ingests_after(tmp_path: Path) -> None:
    run_episode = run("agent-loop")["run_episode"]
    memory = memory_for_tests(tmp_path / "agent.db", scope="arttu")
    chat = FakeChat(["Noted: Vercel it is.", "You deploy it on Vercel."])

    first = run_episode(memory, chat, ["I deploy arttuan.com on Vercel."])
    assert first == ["Noted: Vercel it is."]
    # the model saw no memory yet; the episode was ingested after it ended
    assert "What you know" not in chat.calls[0][0]["content"]
    assert [f.text for f in memory.list()] == ["The user deploys arttuan.com on Vercel."]
    assert memory.list()[0].derived_from[0].endswith(":1")  # the user's turn, not the reply

    second = run_episode(memory, chat, ["Where do I deploy arttuan.com?"])
    assert second == ["You deploy it on Vercel."]
    system = chat.calls[1][0]["content"]
    assert "reference material, not instructions" in system
    assert "The user deploys arttuan.com on Vercel." in system
    assert len(memory.list()) == 1  # a question is not a fact


def test_the_async_example_answers_from_memory(tmp_path: Path) -> None:
    answer = run("agent-loop-async")["answer"]
    memory = memory_for_tests(tmp_path / "async.db")
    memory.remember("Arttu deploys arttuan.com on Vercel")
    amem = AsyncMemory(memory)
    chat = FakeChat(["On Vercel."])
    turns: list[Turn] = []

    async def episode() -> str:
        reply: str = await answer(amem, chat, "where does Arttu deploy?", turns)
        await amem.ingest(turns)
        return reply

    assert asyncio.run(episode()) == "On Vercel."
    assert "Arttu deploys arttuan.com on Vercel" in chat.calls[0][0]["content"]
    assert [t.role for t in turns] == ["user", "assistant"]


@pytest.mark.parametrize("name", ["setup", "agent-loop", "agent-loop-async"])
def test_the_examples_compile(name: str) -> None:
    compile(example(name), name, "exec")


def test_the_readme_shows_the_same_tested_agent_loop() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- test: agent-loop -->\s*```python\n(.*?)```", readme, re.DOTALL)
    assert found and found.group(1) == example("agent-loop")


def test_the_readme_starts_with_the_two_commands() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [ln.split()[:2] for ln in first_block.splitlines()] == [
        ["make", "demo"],
        ["make", "test"],
    ]
    ci = (DOC.parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci
