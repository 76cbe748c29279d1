"""Extractors: turn conversations into candidate facts for the gate.

`RuleExtractor` is the offline default; `LLMExtractor` prompts any chat model with the
gate's contract. Both return `Extraction`s of `gate.Candidate`s; neither stores anything.

The names are imported from their modules on first use: `remember` reads a statement
with `extract.rules` and must not pay for the LLM extractor's HTTP client (`httpx`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Extraction, Extractor, Turn
    from .llm import LLMExtractor
    from .rules import RuleExtractor

#: each public name and the module it lives in
_LAZY = {
    "Extraction": ".base",
    "Extractor": ".base",
    "Turn": ".base",
    "LLMExtractor": ".llm",
    "RuleExtractor": ".rules",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = ["Extraction", "Extractor", "LLMExtractor", "RuleExtractor", "Turn"]
