"""`re` for a module that compiles many large patterns when it is imported
(`credo.secrets`): the same names, with `compile` keeping each compiled program in
`credo.cache` between processes when the cache is enabled (a Pattern equal to what
`re.compile` makes; `re.compile` itself when the cache is off)."""

from __future__ import annotations

from re import (
    IGNORECASE,
    MULTILINE,
    VERBOSE,
    I,
    Match,
    Pattern,
    escape,
    finditer,
    fullmatch,
    search,
    split,
    sub,
)

from .cache import compile_pattern as compile

__all__ = [
    "IGNORECASE",
    "MULTILINE",
    "VERBOSE",
    "I",
    "Match",
    "Pattern",
    "compile",
    "escape",
    "finditer",
    "fullmatch",
    "search",
    "split",
    "sub",
]
