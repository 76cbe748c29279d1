"""Kinds of person, for what a speaker says they are ("as a wheelchair user, ...", "being
a lefty, ..."): every noun whose most usual sense in WordNet 3.0 is a kind of person (~9,500
nouns: "nurse", "vegetarian", "user", "night owl"; not "dog" or "python", whose first
senses are animals), shipped as data (`data/persons.txt.gz`, 37 kB gzipped, read once on
first use), built by `scripts/build_synonyms.py` from Debian's `wordnet-base` (licence in
`data/WORDNET-LICENSE`). The lexicon's `person_nouns` and `occupations` keep the words
WordNet lacks ("mum")."""

from __future__ import annotations

from functools import lru_cache

from . import data_lines

__all__ = ["is_kind_of_person"]


@lru_cache(maxsize=1)
def _persons() -> frozenset[str]:
    return frozenset(data_lines("persons.txt.gz"))


def is_kind_of_person(noun: str) -> bool:
    """Is `noun` (any case, spaces squeezed; a plural read as its singular only by the
    caller) a kind of person WordNet knows? ("Nurse", "wheelchair user": yes; "dog": no.)
    A word spelt with "-ie" for WordNet's "-y" is the same word ("leftie", "lefty"), when
    the "-ie" word is no noun of its own ("cookie" is not "cooky")."""
    from .kinds import is_a_noun

    said = " ".join(noun.lower().split())
    if said in _persons():
        return True
    return said.endswith("ie") and said[:-2] + "y" in _persons() and not is_a_noun(said)
