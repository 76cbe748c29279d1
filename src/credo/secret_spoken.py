"""Codes read out rather than typed: a PIN or a code said one digit a word ("my card pin is
four seven one nine", "пин-код три восемь один ноль", in every language of
`[digit_words]` in `credo/data/secret_words.toml`), after a label of `[codes]` or
`[codes_in_clause]` in its clause; and a code said one digit at a time in any way (words,
digits with blanks between, a keypad's key said as a word: "drei-null-acht-acht", "1 9 4 4
7", "12 klucz 4409") wherever the same code keyed in as digits would be read as one."""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import _WORDS, Detector, SecretFinding, _without_mask_tags
from .secret_codes import (
    _CLAUSE_CODE_LABEL,
    _CODE_LABEL,
    _NOT_CODE,
    _bare_codes,
    _codes_in_clause,
    _codes_opening,
    _codes_stated_first,
    _keyed_codes,
    _starred_codes,
    _stated_pins,
)
from .secret_passwords import _cjk_passwords, _stated_passwords

__all__ = ["DETECTORS"]


def _digit_words(words: list[str]) -> str:
    listed = sorted({w.lower() for w in words}, key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace("'", "['’]") for w in listed)


#: four to eight digit words of one language in a row, blanks, commas or hyphens between
#: ("four seven one nine", "drei-null-acht-acht")
_SPOKEN = re.compile(
    "(?i)(?:"
    + "|".join(
        rf"(?<![^\W_])(?:{w})(?:(?:[ \t]*[,\-][ \t]*|[ \t]+)(?:{w})){{3,7}}(?![^\W_])"
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


_ANY_DIGIT_WORD = _digit_words([w for words in _WORDS["digit_words"].values() for w in words])
_KEY_WORDS = _digit_words(_WORDS["keypad_keys"]["all"])
#: one digit said: a digit word, or a digit alone; a keypad's key after it, in words
_ONE = rf"(?:(?<![^\W_])(?:{_ANY_DIGIT_WORD})(?![^\W_])|(?<![\w/])(?<!\d[.,])\d(?![\w/]|[.,]\d))"
_KEY = rf"(?<![^\W_])(?:{_KEY_WORDS})(?:[\uac00-\ud7a3]{{1,2}})?(?![^\W_])"
#: a code read out: four to ten digits said one at a time (or a group of digits, a key, a
#: group: "12 klucz 4409"), blanks, commas or hyphens between, a key said at its end
_READ_OUT = re.compile(
    rf"(?i)(?:{_ONE}(?:(?:[ \t]*[,\-][ \t]*|[ \t]+){_ONE}){{3,9}}"
    rf"|(?<![\w.,/])\d{{1,4}}[ \t]+{_KEY}[ \t]+\d{{2,8}}(?![\w.,/]))"
    rf"(?:[ \t]+{_KEY})?"
)
#: the detectors of codes keyed in as digits, which read the code once it is compact
_KEYED: tuple[Detector, ...] = (
    _codes_stated_first,
    _stated_pins,
    _bare_codes,
    _keyed_codes,
    _codes_opening,
    _codes_in_clause,
    _starred_codes,
    # a door lock's "password" said in digits ("도어락 비밀번호는 3 0 9 1")
    _stated_passwords,
    _cjk_passwords,
)
#: digits to stand for words read out (never a year's or a run's shape)
_STAND_IN = "4817263948"


def _compact(said: str) -> str:
    """The code `said` as it would be keyed in: its digits (a stand-in digit for each digit
    word), a "*" for each key said as a word."""
    out: list[str] = []
    for m in re.finditer(rf"(?i)\d+|{_KEY}|(?<![^\W_])(?:{_ANY_DIGIT_WORD})(?![^\W_])", said):
        token = m.group(0)
        if token.isdigit():
            out.append(token)
        elif re.fullmatch(f"(?i){_KEY}", token):
            out.append("*")
        else:
            out.append(_STAND_IN[len(out) % len(_STAND_IN)])
    return "".join(out)


def _codes_read_out(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _READ_OUT.finditer(text):
        said = m.group(0)
        if said.isdigit():
            continue  # typed, not read out: the other detectors read it
        code = _compact(said)
        if sum(c.isdigit() for c in code) < 4:
            continue
        keyed = text[: m.start()] + code + text[m.end() :]
        stop = m.start() + len(code)
        if _EXAMPLE.search(text[max(0, m.start() - _REACH) : m.end() + _REACH]):
            continue
        for detector in _KEYED:
            if any(f.start < stop and m.start() < f.end for f in detector(keyed)):
                yield SecretFinding("password", m.start(), m.end())
                break


DETECTORS: tuple[Detector, ...] = (_codes_said_in_words, _codes_read_out)
