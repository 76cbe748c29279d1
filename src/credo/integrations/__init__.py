"""credo inside agent frameworks, each a thin layer over `Memory`.

- `credo.integrations.langgraph`: `CredoStore`, a LangGraph `BaseStore` (`credo[langgraph]`);
- `credo.integrations.openai_agents`: OpenAI Agents SDK function tools (`credo[openai-agents]`);
- `credo.integrations.pydantic_ai`: pydantic-ai tools (`credo[pydantic-ai]`).

Each module imports its framework, so importing `credo` never needs one; install the
extra of the one you use. docs/agents.md says how each behaves.
"""
