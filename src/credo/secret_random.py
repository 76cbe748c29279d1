"""How random a value is, and the secret that measure finds: a made-up value in the clause
of a secret's label, in any language and any word order.

The other detectors read a label, its verb and a value in the order one language says
them; each new wording or language needs a rule. This one asks two questions that do
not depend on wording: is there a word for a secret in the clause (`[random_values]` of
`credo/data/secret_words.toml`, in 30 languages), and is a value in that
clause, before or after the word, one no person would write as a word, a name or a
number (`made_up`: letters and digits switching back and forth, cases mixed in no
word's way, symbols among letters and digits, or a long value of high entropy)? A
value that is a word, a name, a product's model, a version, a date, a digest, a path, a
link or an identifier in code is never read as made up, and a word saying the value is
public or not the secret (a hash, an example, an order) just before it voids it.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import (
    _CJK_RANGES,
    _MASK_TAG,
    _PUBLIC_WORD,
    _WORDS,
    SecretFinding,
    _bounded,
    _is_placeholder,
    _shannon_entropy,
)

__all__ = ["DETECTORS", "letter_digit_switches", "made_up", "odd_case_letters"]

_VALUE_SYMBOLS = "!@#$%^&*+=~?<>|\\/()[]{}"


def letter_digit_switches(value: str) -> int:
    """How many times `value` switches between letters and digits, reading only its
    letters and digits ("gsz81nrwcvg6": 2, "RTX4090": 1, "x86_64": 1)."""
    kinds = ["d" if c.isdigit() else "a" for c in value if c.isalnum()]
    return sum(1 for a, b in zip(kinds, kinds[1:], strict=False) if a != b)


#: the pieces a word, a name or an identifier is made of: a capital and small letters
#: ("Bank", "appen"), an acronym of capitals ("ID", "HTTP"), digits
_WORDLIKE = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]?[a-z]{2,}|[A-Z](?=[^A-Za-z]|$)")


def odd_case_letters(value: str) -> int:
    """How many of `value`'s letters fall outside the pieces words are written in (a
    capital then small letters, an acronym): 0 for "BankID", "iPhone", "camelCaseName";
    most of "KptDLOOoVWGsZKn"'s."""
    letters = sum(1 for c in value if c.isascii() and c.isalpha())
    covered = sum(len(m.group(0)) for m in _WORDLIKE.finditer(value))
    return max(0, letters - covered)


_DIGEST = re.compile(r"(?:0x)?[0-9a-fA-F]{7,}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_NOT_MADE_UP = re.compile(
    r"(?i)v?\d+(?:[.\-/:]\d+)+[a-z]{0,3}"  # a version, a date, a time
    r"|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?"  # an address
    r"|[a-z][\w\-]*(?:\.[a-z][\w\-]*)+\(?\)?"  # a dotted name in code, a host
    r"|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"  # an e-mail address
    r"|\$\{.*|\{\{.*|%\w+%|\$[A-Z_]+"  # a reference to a value set elsewhere
    r"|\$(?:2[aby]?|argon2\w*|\d)\$.*"  # a password's hash
    r"|\d{4}-\d\d-\d\d[T ]?[\d:.]*(?:Z|[+\-]\d\d:?\d\d)?"  # a timestamp
    r"|.*(?:\*{3}|•{3}|x{4}|X{4}).*"  # a value masked or a format
)


_LETTER_RUN = re.compile(r"[A-Za-z]{5,}")
_VOWELS = frozenset("aeiouy")


def _a_word(run: str) -> bool:
    """Whether a run of five letters or more reads as a word of a language written in
    Latin letters: vowels between a quarter and two thirds of it, never four consonants
    in a row ("vaccine", "player", "Windows"; not "nrwcvg", "Tundr")."""
    low = run.lower()
    vowels = sum(c in _VOWELS for c in low)
    if not 0.25 <= vowels / len(low) <= 0.67:
        return False
    return re.search(r"[^aeiouy]{4}", low) is None


def made_up(value: str) -> bool:
    """Whether `value` (one run of characters with no blank) is made up rather than a
    word, a name, a number or an identifier: the measure of randomness the clause reading
    decides by, whatever the language around it."""
    if not 8 <= len(value) <= 200 or _is_placeholder(value):
        return False
    if not value.isascii() or _NOT_MADE_UP.fullmatch(value) or _DIGEST.fullmatch(value):
        return False
    if "://" in value or value.count("/") >= 2 and len(value) < 24:
        return False  # a link, a path
    parts = [p for p in re.split(r"[./]", value) if p]
    if len(parts) > 1 and not any(len(p) >= 6 and made_up(p) for p in parts):
        return False  # a name of dotted or slashed parts none of which is made up
    letters = [c for c in value if c.isalpha()]
    digits = sum(c.isdigit() for c in value)
    if not letters:
        return False  # digits alone are numbers and codes: read by their own detectors
    if not any(c.islower() for c in letters) and len(value) < 16:
        return False  # capitals and digits: a model, a reference, a booking code
    switches = letter_digit_switches(value)
    symbols = sum(c in _VALUE_SYMBOLS for c in value.rstrip("?!.)"))
    if symbols and digits and switches and len(value) >= 8:
        return True  # "S3cr3t!pass", "8-Z39^Yl..."
    odd_case = odd_case_letters(value)
    if odd_case < 3 and len(value) < 20 and any(map(_a_word, _LETTER_RUN.findall(value))):
        return False  # words and numbers: "covid19vaccine", "Windows11Pro", "mp3player"
    if switches >= 3 or (switches == 2 and len(value) >= 11):
        return True
    if odd_case >= 3 and len(value) >= 10:
        return True
    return len(value) >= 20 and bool(digits) and _shannon_entropy(value) >= 4.0


def _labels() -> str:
    words: list[str] = []
    for key, listed in _WORDS["random_values"].items():
        if key != "public":
            words.extend(listed)
    latin = [w for w in words if not re.search(rf"[{_CJK_RANGES}\u0e00-\u0e7f]", w)]
    other = [w for w in words if w not in latin]
    return (
        rf"(?i:{_bounded(latin)}"
        + "|"
        + "|".join(re.escape(w) for w in sorted(other, key=len, reverse=True))
        + ")"
    )


_LABEL = re.compile(_labels())
#: a word saying what the value is (a hash, an id, a user's name), just before it or with
#: a short word between ("client ID is X", "hash: X")
_PUBLIC_BEFORE = re.compile(
    r"(?i)(?:"
    + _bounded(_WORDS["random_values"]["public"])
    + r")(?:[\W_]{0,3}|[ \t]+[^\W\d_]{1,5}[ \t:=]{1,3})$"
)
#: an HTTP scheme's credential: read by the header detectors, which know its encoding
_SCHEME_BEFORE = re.compile(r"(?i)(?:basic|bearer|digest|token)[ \t]+$")
#: a run that may be a value: no blank, no script but Latin (a value inside Chinese,
#: Japanese or Korean text is cut out of the words around it)
_RUN = re.compile(rf"[^\s\"'`“”‘’«»()\[\]{{}}<>,;{_CJK_RANGES}\u0e00-\u0e7f\u0600-\u06ff]+")
#: where a clause ends: a sentence's stop before a blank, a line break
_CLAUSE_END = re.compile(r"[.!?。！？](?=\s|$)|\n")
_REACH = 90
#: a setting's name and its "=" or ":" before its value, in one run ("ip=10.1.4.22")
_SETTING = re.compile(r"[A-Za-z_][\w.\-]*[=:](?=.)")


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    left = max(0, start - _REACH)
    for m in _CLAUSE_END.finditer(text, left, start):
        left = m.end()
    right = min(len(text), end + _REACH)
    stop = _CLAUSE_END.search(text, end, right)
    return left, (stop.start() if stop else right)


def _random_in_label_clause(text: str) -> Iterator[SecretFinding]:
    """A made-up value in the clause of a word for a secret, before or after it."""
    plain = _MASK_TAG.sub(lambda m: " " * len(m.group(0)), text)
    seen: set[int] = set()
    for label in _LABEL.finditer(plain):
        left, right = _clause(plain, label.start(), label.end())
        for run in _RUN.finditer(plain, left, right):
            if label.start() < run.end() and run.start() < label.end():
                continue  # the label itself ("Wi-Fi-Passwort")
            start, end = run.start(), run.end()
            if "://" in plain[start:end]:
                continue  # a link
            if (start == left and start and not plain[start - 1].isspace()) or (
                end == right and end < len(plain) and not plain[end].isspace()
            ):
                continue  # a run the clause's reach cuts: part of something longer
            setting = _SETTING.match(plain, start, end)
            if setting:
                start = setting.end()  # "ip=10.1.4.22": the value of a setting
            while end > start and plain[end - 1] in ".,:;?!)":
                end -= 1
            while start < end and plain[start] in ":=(":
                start += 1
            value = plain[start:end]
            if start in seen or not made_up(value):
                continue
            if _PUBLIC_BEFORE.search(plain, max(left, start - 40), start) or _SCHEME_BEFORE.search(
                plain, max(left, start - 12), start
            ):
                continue
            between = plain[min(label.end(), end) : max(label.start(), start)]
            if _PUBLIC_WORD.search(between) or _PUBLIC_WORD.search(plain, left, start):
                continue
            seen.add(start)
            yield SecretFinding("password", start, end)


DETECTORS = (_random_in_label_clause,)
