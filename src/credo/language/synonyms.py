"""Words and phrases that name one thing: WordNet 3.0's synonym sets, shipped as data.

`data/synonyms.txt.gz` (built by `scripts/build_synonyms.py` from Debian's `wordnet-base`;
licence in `data/WORDNET-LICENSE`) holds one set a line: "husband|hubby|married man". A
word is in a set only for its two most frequent senses, so "dog" names the animal and not
the hot dog. WordNet never puts rival values in one set ("pear" and "plum", "red" and
"blue" are sisters under a hypernym, never synonyms): two values that share a set are one
value said in other words, which is all the write path asks of it.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

from . import data_lines

__all__ = ["known", "synonymous"]

#: phrases longer than this are not looked up ("moving-picture show" is three words)
LONGEST = 3


@lru_cache(maxsize=1)
def _sets() -> dict[str, int | tuple[int, ...]]:
    """Each word or phrase -> the number of the set it is in, or the numbers of the sets
    when it is in several (most words are in one; a number loads faster than a set):
    built once (~0.6 s on a loaded machine) and kept (`credo.cache`, where the command
    line enables it), so that a cold `credo remember` reads it back instead."""
    from .. import cache

    return cache.kept("synonym_sets", digest(), _built)  # type: ignore[no-any-return]


def _built() -> dict[str, int | tuple[int, ...]]:
    index: dict[str, list[int]] = {}
    for n, line in enumerate(data_lines(_FILE)):
        for word in line.split("|"):
            numbers = index.setdefault(word, [])
            if n not in numbers:
                numbers.append(n)
    return {word: ns[0] if len(ns) == 1 else tuple(ns) for word, ns in index.items()}


def _numbers(word: str) -> frozenset[int]:
    found = _sets().get(word, ())
    return frozenset((found,) if isinstance(found, int) else found)


@lru_cache(maxsize=1)
def digest() -> str:
    """A digest of the shipped sets (what a value built from them depends on)."""
    raw = resources.files("credo").joinpath(f"data/{_FILE}").read_bytes()
    return hashlib.sha256(raw).hexdigest()[:32]


_FILE = "synonyms.txt.gz"


def _typed(phrase: str) -> str:
    return " ".join(phrase.lower().replace("_", " ").split())


def synonymous(a: str, b: str) -> bool:
    """Do `a` and `b` (words or short phrases, any case) name one thing in one of their
    usual senses? ("movie" / "motion picture", "kid" / "child", "usa" / "united states":
    yes; "pear" / "plum", "cat" / "dog", a word and itself: no, the same word is not a
    synonym of itself.)"""
    a, b = _typed(a), _typed(b)
    if not a or not b or a == b:
        return False
    return bool(_numbers(a) & _numbers(b))


def known(word: str) -> bool:
    """Is `word` (lower case) a word or phrase of WordNet's, in any of its senses?"""
    return _typed(word) in _sets()
