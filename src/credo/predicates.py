"""The predicate catalogue: canonical names, synonyms, opposites, and how many values each
relation holds.

The shipped catalogue is `data/predicates.toml`; a store's gate policy file extends it with
the same keys. `Catalogue.canonical("dislike")` is `("like", True)`: disliking is the
negation of liking, so "I like coffee" and "I dislike coffee" contradict each other, while
"I like coffee" and "I like tea" do not (like is many-valued). `one_valued()` answers the
one question the resolver asks before it lets a different value supersede or conflict.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

from .errors import CredoError

NEGATION = "not_"
_PAIR = re.compile(r"^\s*([a-z0-9_]+)\s*=\s*([a-z0-9_]+)\s*$")


class CatalogueError(CredoError, ValueError):
    """A catalogue entry cannot be read; the message names it."""


def split_polarity(predicate: str) -> tuple[str, bool]:
    """`not_live_in` -> (`live_in`, True); `live_in` -> (`live_in`, False)."""
    if predicate.startswith(NEGATION) and len(predicate) > len(NEGATION):
        return predicate[len(NEGATION) :], True
    return predicate, False


def with_polarity(base: str, negated: bool) -> str:
    return NEGATION + base if negated else base


def parse_pairs(entries: Iterable[str], what: str) -> dict[str, str]:
    """["reside_in = live_in", ...] -> {"reside_in": "live_in"}; a bad entry is an error."""
    out: dict[str, str] = {}
    for entry in entries:
        found = _PAIR.match(entry.lower())
        if not found:
            raise CatalogueError(f"{what}: {entry!r} is not 'name = canonical' in snake_case")
        out[found.group(1)] = found.group(2)
    return out


def _mentions(text: str, phrase: str) -> bool:
    """`phrase` said whole in `text`, a hyphen typed as a space or none ("left-handed":
    "left handed", "lefthanded")."""
    return next(_found(text, phrase), None) is not None


def _found(text: str, phrase: str) -> Iterator[int]:
    """Where `phrase` is said whole in `text` (as `_mentions` reads it)."""
    pattern = r"[-\s]?".join(re.escape(part) for part in phrase.split("-"))
    return (m.start() for m in re.finditer(rf"(?<![\w-]){pattern}(?![\w-])", text))


def _spellings(member: str) -> list[str]:
    """The ways a member of an exclusive group is said: "left-handed = lefty" -> both."""
    return [w.strip() for w in member.split("=") if w.strip()]


def _names_member(text: str, member: str) -> bool:
    """Does lower-cased `text` say `member` of an exclusive group in any of its ways?"""
    return any(_mentions(text, w) for w in _spellings(member))


def parse_groups(entries: Iterable[str]) -> tuple[frozenset[str], ...]:
    """["married | single", ...] -> ({"married", "single"}, ...); a member said in more
    than one way lists its ways with "=" ("left-handed = lefty | right-handed")."""
    groups = []
    for entry in entries:
        words = frozenset(
            " = ".join(_spellings(w.lower())) for w in entry.split("|") if _spellings(w)
        )
        if len(words) < 2:
            raise CatalogueError(f"exclusive: {entry!r} needs two values or more, split by |")
        groups.append(words)
    return tuple(groups)


def parse_kinds(entries: Iterable[str]) -> dict[str, frozenset[str]]:
    """["pet = cat | dog", ...] -> {"pet": {"cat", "dog"}}; a bad entry is an error."""
    out: dict[str, set[str]] = {}
    for entry in entries:
        kind, sep, members = entry.lower().partition("=")
        words = {w.strip() for w in members.split("|") if w.strip()}
        if not sep or not kind.strip() or not words:
            raise CatalogueError(f"kinds: {entry!r} is not 'kind = member | member'")
        out.setdefault(kind.strip(), set()).update(words)
    return {k: frozenset(v) for k, v in out.items()}


@dataclass(frozen=True)
class Catalogue:
    one: frozenset[str] = frozenset()
    many: frozenset[str] = frozenset()
    synonyms: dict[str, str] = field(default_factory=dict)
    opposites: dict[str, str] = field(default_factory=dict)
    exclusive: tuple[frozenset[str], ...] = ()
    #: a kind and the things of that kind: "I have no pets" denies "I have a cat"
    kinds: dict[str, frozenset[str]] = field(default_factory=dict)

    def extended(
        self,
        *,
        one_valued: Iterable[str] = (),
        many_valued: Iterable[str] = (),
        synonyms: Iterable[str] = (),
        opposites: Iterable[str] = (),
        exclusive: Iterable[str] = (),
        kinds: Iterable[str] = (),
    ) -> Catalogue:
        """This catalogue with a policy file's entries added (theirs win)."""
        many = frozenset(many_valued)
        one = frozenset(one_valued)
        return Catalogue(
            one=(self.one - many) | one,
            many=(self.many - one) | many,
            synonyms={**self.synonyms, **parse_pairs(synonyms, "synonyms")},
            opposites={**self.opposites, **parse_pairs(opposites, "opposites")},
            exclusive=(*self.exclusive, *parse_groups(exclusive)),
            kinds=_merged(self.kinds, parse_kinds(kinds)),
        )

    def of_kind(self, kind: str, thing: str) -> bool:
        """Does `kind` name a kind alone ("pets", "any pets", "kids") of which `thing`
        names one ("a cat named Miso", "two dogs", "a daughter")? Words are matched whole,
        plurals as their singular."""
        from .nlp import lemma_of

        def words(text: str) -> list[str]:
            return [lemma_of(w) for w in re.findall(r"[\w'-]+", text.lower())]

        named = [w for w in words(kind) if w not in _QUANTITY]
        if len(named) != 1 or named[0] not in self.kinds:
            return False
        members = self.kinds[named[0]]
        return any(w in members for w in words(thing))

    def excludes(self, a: str, b: str) -> bool:
        """Do two values name different members of one exclusive group ("married" /
        "single", "tabs" / "spaces")? Members are words or phrases, matched whole."""
        low_a, low_b = a.lower(), b.lower()
        for group in self.exclusive:
            in_a = {m for m in group if _names_member(low_a, m)}
            in_b = {m for m in group if _names_member(low_b, m)}
            if in_a and in_b and in_a != in_b:
                return True
        return False

    def members(self, value: str) -> frozenset[str]:
        """The members of exclusive groups `value` names, by their first way of saying:
        "a lefty" -> {"left-handed = lefty = ..."}."""
        low = value.lower()
        return frozenset(m for group in self.exclusive for m in group if _names_member(low, m))

    def member_mentions(self, text: str) -> Iterator[tuple[int, str, int]]:
        """Each member of an exclusive group said in `text`, in any of its ways: (the
        group's number, the member by its first way of saying, where in the lower-cased
        text it is said)."""
        low = text.lower()
        for n, group in enumerate(self.exclusive):
            for member in group:
                for way in _spellings(member):
                    for start in _found(low, way):
                        yield n, member, start

    def exclusive_state(self, value: str) -> bool:
        """Does `value` name a member of an exclusive group ("engaged", "left handed")?
        Such a state holds until it changes: "at the moment" beside it says "as of now"."""
        return bool(self.members(value))

    def canonical(self, predicate: str) -> tuple[str, bool]:
        """The canonical base predicate and whether the statement negates it. A relation
        said of something the subject has ("my brother moved to bergen":
        `brother_move_to`) is canonical in its verb's part (`brother_live_in`)."""
        base, negated = split_polarity(predicate)
        base = _base_form(base)
        owned, base = self.owned(base)
        for _ in range(3):  # synonym of an opposite, and so on; never loops
            if base in self.opposites:
                base, negated = self.opposites[base], not negated
            elif base in self.synonyms:
                base = self.synonyms[base]
            else:
                break
        return owned + base, negated

    @cached_property
    def named(self) -> frozenset[str]:
        """The relations the catalogue names: synonyms, opposites, one- and many-valued."""
        return frozenset(self.synonyms) | frozenset(self.opposites) | self.one | self.many

    def owned(self, base: str) -> tuple[str, str]:
        """("brother_", "move_to") for `brother_move_to`: the owned thing's words and the
        relation the catalogue names, when the whole is not itself a named relation;
        ("", base) otherwise."""
        if base in self.named or base.startswith("has_"):
            return "", base
        parts = base.split("_")
        for i in range(1, len(parts)):
            tail = "_".join(parts[i:])
            if tail in self.named:
                return "_".join(parts[:i]) + "_", tail
        return "", base

    def normalise(self, predicate: str) -> str:
        """`dislike` -> `not_like`, `reside_in` -> `live_in`, `not_hate` -> `like`."""
        return with_polarity(*self.canonical(predicate))

    def one_valued(self, predicate: str) -> bool:
        """Does a subject hold one value at a time on this relation?

        Listed predicates answer for themselves; `has_<noun>` ("my editor is ...") is
        one-valued when its noun is singular; everything else is many-valued."""
        base, _ = self.canonical(predicate)
        base = self.owned(base)[1]
        if base in self.one:
            return True
        if base in self.many:
            return False
        if base.startswith("has_") and len(base) > 4:
            from .nlp import lemma_of

            head = base.rsplit("_", 1)[-1]
            return lemma_of(head) == head or head.endswith("ss")
        return False


#: words before a kind that do not narrow it: "no pets", "any kids", "a pet"
_QUANTITY = frozenset({"a", "an", "any", "no", "some", "the", "more", "other"})


def _merged(
    a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    return {k: a.get(k, frozenset()) | b.get(k, frozenset()) for k in {*a, *b}}


#: first words that are part of the parser's conventions, not verbs to lemmatise
_KEEP_FIRST = frozenset({"has", "is", "are", "be", "was", "not"})


def _base_form(predicate: str) -> str:
    """`lives_in` -> `live_in`, `prefers` -> `prefer`: predicates given by an extractor or
    an API caller in an inflected form mean the same as the parser's base forms."""
    from .fact import normalize_predicate

    predicate = normalize_predicate(predicate) if predicate.isascii() else predicate
    first, sep, rest = predicate.partition("_")
    if first in _KEEP_FIRST or not first.isalpha() or not first.endswith(("s", "ed", "ing")):
        return predicate
    from .nlp import lemma_of

    return lemma_of(first) + sep + rest


def _load(text: str, where: str) -> Catalogue:
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"{where}: not valid TOML: {exc}") from exc
    unknown = set(data) - {
        "one_valued",
        "many_valued",
        "synonyms",
        "opposites",
        "exclusive",
        "kinds",
    }
    if unknown:
        raise CatalogueError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    return Catalogue().extended(
        one_valued=data.get("one_valued", ()),
        many_valued=data.get("many_valued", ()),
        synonyms=data.get("synonyms", ()),
        opposites=data.get("opposites", ()),
        exclusive=data.get("exclusive", ()),
        kinds=data.get("kinds", ()),
    )


@lru_cache(maxsize=1)
def shipped() -> Catalogue:
    """The catalogue that comes with credo (`credo/data/predicates.toml`)."""
    text = resources.files("credo").joinpath("data/predicates.toml").read_text("utf-8")
    return _load(text, "credo/data/predicates.toml")
