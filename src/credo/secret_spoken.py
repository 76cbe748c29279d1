"""Codes read out rather than typed: a PIN or a code said one digit a word ("my card pin is
four seven one nine", "пин-код три восемь один ноль", in every language of
`[digit_words]` in `credo/data/secret_words.toml`), after a label of `[codes]` or
`[codes_in_clause]` in its clause."""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import _WORDS, Detector, SecretFinding, _without_mask_tags
from .secret_codes import _CLAUSE_CODE_LABEL, _CODE_LABEL, _NOT_CODE

__all__ = ["DETECTORS"]


def _digit_words(words: list[str]) -> str:
    listed = sorted({w.lower() for w in words}, key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace("'", "['’]") for w in listed)


#: four to eight digit words of one language in a row, blanks, commas or hyphens between
_SPOKEN = re.compile(
    "(?i)(?:"
    + "|".join(
        rf"(?<![^\W_])(?:{w})(?:[ \t]*[,\-]?[ \t]+(?:{w})){{3,7}}(?![^\W_])"
        for w in (_digit_words(words) for words in _WORDS["digit_words"].values())
    )
    + ")"
)
_LABEL = re.compile(rf"(?i:{_CODE_LABEL}|{_CLAUSE_CODE_LABEL.pattern.removeprefix('(?i)')})")
#: what ends a label's reach: a sentence's stop, a line break
_STOP = re.compile(r"[.!?。！？](?:\s|$)|\n")
_REACH = 80
#: a word saying the digits are an example ("the pin has one two three four as an
#: example"), in the languages of `[public_values] tests`
_EXAMPLE = re.compile(
    r"(?i)(?<![^\W_])(?:"
    + "|".join(re.escape(w) for w in _WORDS["public_values"]["tests"])
    + r"|e\.g\.|for instance|say)(?![^\W_])"
)


def _codes_said_in_words(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    if not _SPOKEN.search(text):
        return
    for label in _LABEL.finditer(text):
        stop = _STOP.search(text, label.end())
        end = min(stop.start() if stop else len(text), label.end() + _REACH)
        spoken = _SPOKEN.search(text, label.end(), end)
        if spoken is None or _NOT_CODE.search(text, label.end(), spoken.start()):
            continue
        if _EXAMPLE.search(text[max(0, label.start() - _REACH) : end]):
            continue  # "a pin like one two three four, for example": no one's code
        yield SecretFinding("password", spoken.start(), spoken.end())


DETECTORS: tuple[Detector, ...] = (_codes_said_in_words,)
