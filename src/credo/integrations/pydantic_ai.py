"""remember / recall / forget / conflicts / why as pydantic-ai tools
(`pip install 'credo[pydantic-ai]'`), bound to one `Memory` and so to one scope:

    from pydantic_ai import Agent
    from credo.integrations.pydantic_ai import memory_tools

    agent = Agent("openai:gpt-4.1-mini", tools=memory_tools(memory))

What each tool does and returns: `credo.integrations.tools`. A gate refusal comes back as
`stored: false` with the reason (not `ModelRetry`, which would ask the model to rephrase
until it gets through).
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import Tool

from ..memory import Memory
from .tools import bound

__all__ = ["memory_tools"]


def memory_tools(memory: Memory) -> list[Tool[Any]]:
    """The five tools, each a `Tool` described by its docstring (no run context)."""
    return [Tool(fn, takes_ctx=False, docstring_format="google") for fn in bound(memory)]
