"""Products, brands and services by kind: what WordNet does not know ("neovim" and "vscode"
are both code editors, "postgres" is "postgresql", a database).

`data/products.toml` holds one table per kind of thing people tell an assistant they use,
own, run or subscribe to (code editors, databases, app hosts, phones, car makes, banks,
streaming services, ... 93 kinds, about 3,000 products): the nouns people name the kind
by (`words`: "db", "editor") and its products, each with the other ways people type it
(`names`: ["postgresql", "postgres"]). It was written from general knowledge by a person
who never saw credo's code or its evaluation data, so that it says what is true of the
world rather than what some sentences needed. Read once, on first use, only when two
values are compared this way.

The write path asks two things of it: whether two values are two products of one kind
(rivals for one slot: "i code in vscode" / "switched to neovim"), and whether a word names
a product's kind ("my editor is vscode" says no more than "i code in vscode"; "we use a
database" -> "we use postgres" says it more narrowly). A spelling two products share
("spark": a mail app and a data engine) names neither.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["Product", "all_rivalled", "is_of_kind", "kind_words", "products_in", "rivals"]

#: the longest name looked for, in words ("google cloud platform")
LONGEST = 4


@dataclass(frozen=True)
class Product:
    name: str  # its usual name, lower case
    kinds: frozenset[str]


@dataclass(frozen=True)
class _Table:
    by_name: dict[str, Product]  # every spelling -> the product
    words: dict[str, frozenset[str]]  # kind -> the nouns it is named by
    kinds_named: dict[str, frozenset[str]]  # a noun of a kind -> the kinds it names


@lru_cache(maxsize=1)
def _table() -> _Table:
    from .. import cache

    raw = resources.files("credo").joinpath("data/products.toml").read_bytes()
    # worked out once and kept (`credo.cache`, where the command line enables it) as plain
    # data: a cold process reads it back in milliseconds instead of parsing the TOML and
    # typing its 6,000 spellings again
    by_name, words, named = cache.kept(
        "product_table", _digest(raw), lambda: _plain(tomllib.loads(raw.decode("utf-8")))
    )
    products: dict[str, Product] = {}
    for name, kinds in by_name.values():
        if name not in products:
            products[name] = Product(name, frozenset(kinds))
    return _Table(
        {spelling: products[name] for spelling, (name, _) in by_name.items()},
        {kind: frozenset(found) for kind, found in words.items()},
        {word: frozenset(kinds) for word, kinds in named.items()},
    )


def _plain(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The table as plain data (what `credo.cache` keeps): every spelling -> (the
    product's name, its kinds), kind -> the nouns it is named by, noun -> the kinds."""
    kinds_of: dict[str, set[str]] = {}
    spelt: dict[str, set[str]] = {}
    words: dict[str, list[str]] = {}
    named: dict[str, set[str]] = {}
    for kind, entry in data.items():
        words[kind] = sorted({_typed(w) for w in entry.get("words", [])})
        for word in words[kind]:
            named.setdefault(word, set()).add(kind)
        for spellings in entry.get("names", []):
            first = _typed(spellings[0])
            kinds_of.setdefault(first, set()).add(kind)  # one product in two tables
            for spelling in map(_typed, spellings):
                spelt.setdefault(spelling, set()).add(first)
    # a spelling of two products ("spark": a mail app and a data engine) names neither
    by_name = {
        spelling: (name, sorted(kinds_of[name]))
        for spelling, (name, *others) in ((s, sorted(n)) for s, n in spelt.items())
        if not others
    }
    return by_name, words, {word: sorted(kinds) for word, kinds in named.items()}


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:32]


def _typed(phrase: str) -> str:
    return " ".join(phrase.lower().split())


def products_in(words: list[str]) -> list[Product]:
    """The products named in a value's words (lower case, in order), the longest name
    first where names overlap: ["a", "visual", "studio", "code", "setup"] -> [visual
    studio code]; ["postgres", "15"] -> [postgresql]. A one-word name that is also an
    English word ("linear", "render", "red") names the product only when it is the whole
    value ("linear", "the linear"), never inside a phrase ("red wine", "code in vim")."""
    table = _table().by_name
    whole = [w for w in words if w not in _BARE and not w.replace(".", "").isdigit()]
    found: list[Product] = []
    i = 0
    while i < len(words):
        for n in range(min(LONGEST, len(words) - i), 0, -1):
            product = table.get(" ".join(words[i : i + n]))
            if product is not None and n == 1 and len(whole) > 1 and words[i] in _english():
                continue
            if product is not None:
                if product not in found:
                    found.append(product)
                i += n
                break
        else:
            i += 1
    return found


#: words a value may have beside a product's one-word name and still be that name alone
_BARE = frozenset({"a", "an", "the", "my", "our", "their", "his", "her", "its", "v", "version"})


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """The products' one-word names that are English words too (in WordNet's synonym
    sets, `language.synonyms`), as they are or as a form of one: "linear", "render",
    "red", "teams" (the plural of "team"). Worked out once and kept (`credo.cache`, keyed
    by both files), so that a cold process reads these few hundred words instead of all
    of WordNet's sets to ask about one word."""
    from lemminflect import getAllLemmas

    from .. import cache
    from .synonyms import digest, known

    def english(name: str) -> bool:
        return known(name) or any(known(w) for ws in getAllLemmas(name).values() for w in ws)

    raw = resources.files("credo").joinpath("data/products.toml").read_bytes()
    names = sorted(name for name in _table().by_name if " " not in name)
    found = cache.kept(
        "product_words", f"{_digest(raw)}|{digest()}|forms", lambda: list(filter(english, names))
    )
    return frozenset(found)


def rivals(one: Product, other: Product) -> bool:
    """Two products of one kind, not one product: two code editors, two banks."""
    return one != other and bool(one.kinds & other.kinds)


def all_rivalled(new: Sequence[Product], old: Sequence[Product]) -> bool:
    """Has each of the `old` products a rival among the `new` ones (each replaced by one
    of its kind)?"""
    return all(any(rivals(n, o) for n in new) for o in old)


def kind_words(product: Product) -> frozenset[str]:
    """The nouns the product's kinds are named by ("database", "db" for postgresql)."""
    table = _table().words
    return frozenset(w for kind in product.kinds for w in table.get(kind, ()))


def is_of_kind(name: str, noun: str) -> bool:
    """Is the product called `name` a thing of the kind `noun` names? ("postgres",
    "database": yes; "neovim", "editor": yes; "neovim", "database": no; a word that is
    no product: no.)"""
    product = _table().by_name.get(_typed(name))
    return product is not None and bool(
        product.kinds & _table().kinds_named.get(_typed(noun), frozenset())
    )
