"""Names of places, for a place typed in lower case: WordNet 3.0's instances of a location
(cities, states, countries, regions; ~3,300 names) and GeoNames' towns of 15,000 people or
more and countries (~38,000 names and their spellings without accents, ordinary English
words left out: `data/cities.txt.gz`, built by `scripts/build_cities.py`, CC BY 4.0,
`data/GEONAMES-LICENSE`), shipped as data (170 kB gzipped, read once on first use).

`data/places.txt.gz` is built by `scripts/build_synonyms.py` from Debian's `wordnet-base`
(licence in `data/WORDNET-LICENSE`). The tagger reads "i moved to leeds" with a common
noun "leeds"; written "Leeds" it is a name. A name the list does not hold (a small town)
is read as the tagger reads it: only a capitalised or proper noun is a place then.
"""

from __future__ import annotations

from functools import lru_cache

from . import data_lines

__all__ = ["is_place"]


@lru_cache(maxsize=1)
def _places() -> frozenset[str]:
    return frozenset(data_lines("places.txt.gz")) | frozenset(data_lines("cities.txt.gz"))


def is_place(name: str) -> bool:
    """Is `name` (any case, spaces squeezed) the name of a place WordNet knows?
    ("leeds", "North Dakota", "são paulo" as "sao paulo": yes; "kubernetes", "platform":
    no.)"""
    from ..values import _plain  # accents left out, as values compares words

    return _plain(" ".join(name.lower().split())) in _places()
