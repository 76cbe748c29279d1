"""credo's knowledge of English, as data: the lexicon (`lexicon.toml`), read once.

Each list of the lexicon says what its words do and carries example statements that
`tests/test_lexicon.py` runs through `Memory.remember`. The modules that read English
(`credo.nlp`, `credo.keys`, `credo.resolver`, `credo.gate`, `credo.extract.rules`,
`credo.suppress_request`) take their words from here; the lists `credo.keys` and `credo.resolver`
still hold themselves are moving here one at a time. `credo.language.synonyms` holds
WordNet's synonym sets (one value said in other words), shipped as data.
"""

from __future__ import annotations

import gzip
import hashlib
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["data_lines", "examples", "lexicon", "mapping", "word_list", "words"]


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Any]:
    """The whole lexicon: list name -> {what, words, examples}."""
    from .. import cache

    raw = resources.files("credo.language").joinpath("lexicon.toml").read_bytes()
    # parsed once and kept (`credo.cache`, where the command line enables it): a cold
    # process reads it back in milliseconds instead of parsing the TOML again
    digest = hashlib.sha256(raw).hexdigest()[:32]
    data: dict[str, Any] = cache.kept("lexicon", digest, lambda: tomllib.loads(raw.decode()))
    for name, entry in data.items():
        if not isinstance(entry, dict) or "words" not in entry or "what" not in entry:
            raise ValueError(f"lexicon list {name!r} needs 'what' and 'words'")
    return data


def words(name: str) -> frozenset[str]:
    """The words of list `name` (a KeyError names a list the lexicon does not have)."""
    found = lexicon()[name]["words"]
    if not isinstance(found, list):
        raise TypeError(f"lexicon list {name!r} is a mapping: use mapping()")
    return frozenset(found)


def word_list(name: str) -> tuple[str, ...]:
    """The words of list `name` in the lexicon's order (where the first match is named)."""
    return tuple(sorted(words(name), key=list(lexicon()[name]["words"]).index))


def mapping(name: str) -> dict[str, str]:
    """The entries of a list that maps words to words (typed -> spelt)."""
    found = lexicon()[name]["words"]
    if not isinstance(found, dict):
        raise TypeError(f"lexicon list {name!r} is a word list: use words()")
    return dict(found)


def examples(name: str) -> list[dict[str, Any]]:
    return list(lexicon()[name].get("examples", []))


def data_lines(name: str) -> list[str]:
    """The lines of a gzipped word file shipped in `credo/data/` (the WordNet tables)."""
    raw = resources.files("credo").joinpath(f"data/{name}").read_bytes()
    return gzip.decompress(raw).decode("utf-8").splitlines()
