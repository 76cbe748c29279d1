"""remember / recall / forget / conflicts / why as OpenAI Agents SDK function tools
(`pip install 'credo[openai-agents]'`), bound to one `Memory` and so to one scope:

    from agents import Agent
    from credo.integrations.openai_agents import memory_tools

    agent = Agent(name="assistant", tools=memory_tools(memory))

What each tool does and returns: `credo.integrations.tools`. A gate refusal comes back as
`stored: false` with the reason (not as a tool error, which the SDK words "try again").
"""

from __future__ import annotations

from agents import FunctionTool, function_tool

from ..memory import Memory
from .tools import bound

__all__ = ["memory_tools"]


def memory_tools(memory: Memory) -> list[FunctionTool]:
    """The five tools, each a `FunctionTool` described by its docstring."""
    return [function_tool(fn, docstring_style="google") for fn in bound(memory)]
