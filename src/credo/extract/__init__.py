"""Extractors: turn conversations into candidate facts for the gate.

`RuleExtractor` is the offline default; `LLMExtractor` prompts any chat model with the
gate's contract. Both return `Extraction`s of `gate.Candidate`s; neither stores anything.
"""

from __future__ import annotations

from .base import Extraction, Extractor, Turn
from .llm import LLMExtractor
from .rules import RuleExtractor

__all__ = ["Extraction", "Extractor", "LLMExtractor", "RuleExtractor", "Turn"]
