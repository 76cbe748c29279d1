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
def _sets() -> dict[str, frozenset[int]]:
    """Each word or phrase -> the numbers of the sets it is in: built once (~0.6 s on a
    loaded machine) and kept (`credo.cache`, where the command line enables it), so that a
    cold `credo remember` reads it back instead."""
    from .. import cache

    raw = resources.files("credo").joinpath(f"data/{_FILE}").read_bytes()
    digest = hashlib.sha256(raw).hexdigest()[:32]
    return cache.kept("synonyms", digest, _built)  # type: ignore[no-any-return]


def _built() -> dict[str, frozenset[int]]:
    index: dict[str, set[int]] = {}
    for n, line in enumerate(data_lines(_FILE)):
        for word in line.split("|"):
            index.setdefault(word, set()).add(n)
    return {word: frozenset(ns) for word, ns in index.items()}


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
    sets = _sets()
    return bool(sets.get(a, frozenset()) & sets.get(b, frozenset()))


def known(word: str) -> bool:
    """Is `word` (lower case) a word or phrase of WordNet's, in any of its senses?"""
    return _typed(word) in _sets()
