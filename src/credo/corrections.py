"""Corrections said without their sentence: "make that 10 people", "sorry i meant thursday",
"correction: the 16th". The value is all the speaker says again; what it corrects is a fact
they told a moment before, the one that holds a value of the same kind (a number for a
number, a day for a day, the same thing counted when a noun follows the number). This
module reads the correction and finds the value it replaces; `Memory` looks for the fact.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass

__all__ = ["DAYS", "MONTHS", "Amendment", "amendment", "amends", "says_correction", "value_shape"]

#: what may come before the correction ("sorry", "oops, ", "no wait")
_LEAD = r"(?:(?:sorry|oops|whoops|wait|no|nope|actually|ah|argh|my bad|ugh)[\s,.!:;-]*)*"
#: the words that say the value after them replaces one said just before
_MARKER = (
    r"(?:make\s+(?:that|it)|i\s+meant|i\s+mean|meant|correction|scratch\s+that|"
    r"change\s+(?:that|it)\s+to|should\s+(?:be|have\s+been)|it'?s\s+actually)"
)
_AMENDMENT = re.compile(
    rf"^\s*{_LEAD}{_MARKER}[\s,.:;-]+(?:the\s+|on\s+|at\s+)?(?P<value>\S+)(?P<rest>.*)$",
    re.IGNORECASE,
)
#: a sentence that says it puts right what was said: "sorry, im 33", "i'm actually 33"
_CORRECTING = re.compile(rf"\b(?:sorry|oops|whoops|my\s+bad|actually|{_MARKER})\b", re.IGNORECASE)


def says_correction(text: str) -> bool:
    """`text` says it corrects what was said before ("sorry", "actually", "i meant",
    "correction"), whatever else it says."""
    return bool(_CORRECTING.search(text))


#: the days of the week and the months, as typed in lower case
DAYS = frozenset(d.lower() for d in calendar.day_name)
MONTHS = frozenset(m.lower() for m in calendar.month_name[1:])
_WORD = re.compile(r"[\w:/.+-]+")


def value_shape(word: str) -> str | None:
    """What kind of value a word is, where it is one a correction can swap for another
    of its kind: "number" (any word with a digit: a count, a time, a date), "day" (of the
    week, "tuesdays" too) or "month"; None for any other word."""
    low = word.lower().strip(".,!?")
    if re.search(r"\d", low):
        return "number"
    if low in DAYS or low.endswith("days") and low[:-1] in DAYS:
        return "day"
    if low in MONTHS:
        return "month"
    return None


@dataclass(frozen=True)
class Amendment:
    """The value a correction says ("10"), its kind ("number") and the word it counts, if
    one follows it ("people")."""

    value: str
    shape: str
    noun: str | None


def amendment(text: str) -> Amendment | None:
    """The correction `text` says without its sentence ("make that 10 people, my sister is
    coming" -> 10, number, people), or None: a text with its own sentence ("make that
    cake for my mum" names no value) is no such correction."""
    found = _AMENDMENT.match(text)
    if found is None:
        return None
    value = found["value"].strip(".,!?;:")
    shape = value_shape(value)
    if shape is None:
        return None
    rest = _WORD.findall(found["rest"])
    noun = rest[0].lower() if shape == "number" and rest and rest[0].isalpha() else None
    return Amendment(value, shape, noun)


def amends(amendment: Amendment, text: str) -> str | None:
    """The value of the stored sentence `text` that `amendment` replaces: its one word of
    the same kind (followed by the same noun, where the correction names one), or None
    where it has none, several, or the same value."""
    words = _WORD.findall(text)
    found = [
        (n, w)
        for n, w in enumerate(words)
        if value_shape(w) == amendment.shape
        and (
            amendment.noun is None
            or n + 1 < len(words)
            and _same_noun(words[n + 1], amendment.noun)
        )
    ]
    if len(found) != 1:
        return None
    old = found[0][1].strip(".,!?;:")
    return None if old.lower() == amendment.value.lower() else old


def _same_noun(a: str, b: str) -> bool:
    """ "people" / "people", "guest" / "guests": one noun, singular or plural."""
    a, b = a.lower(), b.lower()
    return a == b or a.rstrip("s") == b.rstrip("s")
