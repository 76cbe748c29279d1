"""What a thing is a kind of, for a value said more narrowly ("i have a dog" -> "i have a
husky", "i play an instrument" -> "i play the cello"): WordNet 3.0's noun hierarchy
(82,115 synsets, their hypernyms and the kinds they are instances of), shipped as data
(`data/kinds.txt.gz`, 1 MB gzipped, read once on first use, only when two values are
compared this way), built by `scripts/build_synonyms.py` from Debian's `wordnet-base`
(licence in `data/WORDNET-LICENSE`). A word is read in its first (most usual) sense only:
"a husky" is the dog, not a voice; the broader word may be in any sense of the kind.
"""

from __future__ import annotations

from functools import lru_cache

from . import data_lines
from .products import is_of_kind

__all__ = ["is_a_kind_of", "is_a_noun"]

#: how far up the hierarchy a kind is looked for: "husky" -> "sled dog" -> "working
#: dog" -> "dog" is three steps; the top of the tree ("entity", "object") is never reached
_DEPTH = 8


@lru_cache(maxsize=1)
def _hierarchy() -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    first: dict[str, str] = {}
    parents: dict[str, tuple[str, ...]] = {}
    words: dict[str, frozenset[str]] = {}
    for line in data_lines("kinds.txt.gz"):
        sid, ups, names = line.split(" ", 2)
        parents[sid] = () if ups == "-" else tuple(ups.split(","))
        plain = []
        for name in names.split("|"):
            if name.startswith("*"):
                name = name[1:]
                first[name] = sid
            plain.append(name)
        words[sid] = frozenset(plain)
    return first, parents, words


def is_a_noun(word: str) -> bool:
    """Is `word` (any case) a noun WordNet knows, in any of its senses?"""
    return " ".join(word.lower().split()) in _hierarchy()[0]


def is_a_kind_of(narrow: str, broad: str) -> bool:
    """Is `narrow` (a noun in its singular, any case) a kind of `broad`, in `narrow`'s most
    usual sense, or a product of the kind `broad` names (`language.products`)? ("husky",
    "dog": yes; "cello", "instrument": yes; "neovim", "editor": yes; "dog", "husky": no;
    "dog", "dog": no, the same word is no narrower.)"""
    narrow, broad = " ".join(narrow.lower().split()), " ".join(broad.lower().split())
    if not narrow or not broad or narrow == broad:
        return False
    if is_of_kind(narrow, broad):  # "postgres", "database": a product WordNet lacks
        return True
    first, parents, words = _hierarchy()
    start = first.get(narrow)
    if start is None or broad in words[start]:
        return False
    level, seen = [start], {start}
    for _ in range(_DEPTH):
        level = [p for sid in level for p in parents.get(sid, ()) if p not in seen]
        if not level:
            return False
        if any(broad in words[sid] for sid in level):
            return True
        seen.update(level)
    return False
