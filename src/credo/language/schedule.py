"""When a named thing happens or is due, as a sentence says it.

"the weekly sync is at 2", "our weekly syncs at 3pm", "the grant report is due april 4",
"the deadline for the report is march 10", "sprint review moved to wednesdays": each names
a thing (a sync, a report, a review), a role (when it happens, or when it
is due) and one time (a clock time, a weekday, a date). Two sentences that name the same
thing in the same role with two different times of one kind give it rival times: one
meeting is not at 9 and at 11, one report is not due on the 3rd and on the 10th.

Only what is plain is read: a time of one kind said once (a sentence with two clock times,
"sync at 2, retro at 4", names no one time), a thing that is a noun and no person, and
a verb of being, of scheduling or of moving in time ("is", "starts", "got pushed to").
Months, weekdays and clock words are closed classes of English, not words chosen for any
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from spacy.tokens import Token

__all__ = ["When", "clock_differs", "clocks_in", "rival_times", "when_of", "without_clocks"]

_MONTHS = {
    name: n
    for n, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
#: the days of the week, Monday first (`date.weekday()` indexes them)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
# "may" is a month only beside a day or after a word that sets a time ("end of may",
# "in may", "by may"): "may" alone is the verb
_MAY_ALONE = re.compile(r"(?i)(?<!\w)(?:of|in|by|until|till|from|early|mid|late)\s+may(?!\w)")
_DATES = (
    re.compile(rf"(?i)(?<![\w/.-]){_MONTH}\s+{_DAY}(?![\w:/.-]|\.\d)"),  # june 30, jun 30th
    re.compile(rf"(?i)(?<![\w/.-]){_DAY}\s+(?:of\s+)?{_MONTH}(?!\w)"),  # 30 june, 30th of june
)
_MONTH_ALONE = re.compile(rf"(?i)(?<![\w/.-]){_MONTH}(?![\w/-])")
_THE_DAY = re.compile(r"(?i)\bthe\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)(?!\w)")
_WEEKDAY = re.compile(r"(?i)(?<!\w)(?P<day>" + "|".join(WEEKDAYS) + r")s?(?!\w)")
# 11am, 9 pm, 10:30, 9.15am, at 9 ("at 9 people" is a count: no noun may follow)
_CLOCK = re.compile(
    r"(?i)(?<![\w:./$£€-])(?P<hour>[012]?\d)(?:[:.](?P<minute>[0-5]\d))?\s*"
    r"(?P<half>a\.?m\.?|p\.?m\.?)(?!\w)"
    r"|(?<![\w:./$£€-])(?P<hour2>[012]?\d):(?P<minute2>[0-5]\d)(?![\w:.]|\.\d)"
    r"|(?<!\w)(?:at|@|to)\s+(?P<hour3>[012]?\d)(?![\w:.%]|\.\d|\s+(?!(?:every|each|on|in|"
    r"now|today|tomorrow|daily|sharp|instead|and|or|but|so|then|from|for)\b)[a-z])"
)
_NOON = re.compile(r"(?i)(?<!\w)(?:noon|midday|midnight)(?!\w)")

#: words that say a thing is due (the role "due", not "when")
_DUE_WORDS = frozenset({"due", "deadline", "deadlines"})
#: the root verbs a sentence gives a thing its time by: being, scheduling, moving in time
_WHEN_VERBS = frozenset(
    {"be", "start", "begin", "kick", "happen", "schedule", "reschedule", "set", "book"}
    | {"plan", "move", "push", "shift", "bump", "change", "bring", "pull"}
)
#: nouns that name the time of a thing, not a thing ("the deadline for the report")
_TIME_NOUNS = frozenset({"deadline", "date", "time", "day", "slot"})


@dataclass(frozen=True)
class When:
    """A thing's time as one sentence says it: the thing's noun (lemma) and the nouns
    that narrow it ("grant" of "grant report"), its role ("when" or "due"), and the times
    found, one of each kind at most: "clock" (minutes past midnight, and whether am or pm
    was said), "weekday" (0-6), "date" (month or None, day or None)."""

    thing: str
    narrowed: frozenset[str]
    owner: str  # "" for the speaker's ("my", "our", none), else whose ("sister", "his")
    role: str
    clock: tuple[int, bool] | None
    weekday: int | None
    date: tuple[int | None, int | None] | None


_T = TypeVar("_T")


def _one(values: Sequence[_T]) -> _T | None:
    """The one value of a kind a sentence says, or None (none, or two different ones)."""
    return values[0] if len(set(values)) == 1 else None


def _clocks(text: str) -> list[tuple[int, bool]]:
    found: list[tuple[int, bool]] = []
    for m in _CLOCK.finditer(text):
        hour = int(m["hour"] or m["hour2"] or m["hour3"])
        minute = int(m["minute"] or m["minute2"] or 0)
        half = (m["half"] or "").replace(".", "").lower()
        if hour > 23 or half and not 1 <= hour <= 12:
            continue
        if half:
            hour = hour % 12 + (12 if half == "pm" else 0)
        found.append((hour * 60 + minute, bool(half) or hour > 12 or hour == 0))
    found += [(12 * 60 if m[0].lower() != "midnight" else 0, True) for m in _NOON.finditer(text)]
    return found


def _dates(text: str) -> list[tuple[int | None, int | None]]:
    found: list[tuple[int | None, int | None]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATES:
        for m in pattern.finditer(text):
            day = int(m["day"])
            if 1 <= day <= 31:
                found.append((_MONTHS[m["month"].lower()], day))
                taken.append(m.span())
    for m in _MONTH_ALONE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        if m["month"].lower() == "may" and not _MAY_ALONE.search(text, max(0, m.start() - 8)):
            continue
        found.append((_MONTHS[m["month"].lower()], None))
    if not found:
        found = [(None, int(m["day"])) for m in _THE_DAY.finditer(text) if int(m["day"]) <= 31]
    return found


@lru_cache(maxsize=4096)
def when_of(text: str) -> When | None:
    """The thing `text` gives a time to, its role and its times; None where the sentence
    names no such thing plainly (see the module's docstring)."""
    from ..nlp import parse

    clocks, dates = _clocks(text), _dates(text)
    weekdays = [WEEKDAYS.index(m["day"].lower()) for m in _WEEKDAY.finditer(text)]
    if not (clocks or dates or weekdays):
        return None
    doc = parse(text)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return None
    root = roots[0]
    if root.pos_ in ("VERB", "AUX"):
        if root.lemma_.lower() not in _WHEN_VERBS:
            return None
        subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
        objects = [c for c in root.children if c.dep_ == "dobj"]
        # "we moved the sync to 4": the thing is what was moved; "the sync is at 2": the
        # thing is what is
        nouns = [*objects, *subjects] if objects else subjects
        head = nouns[0] if nouns else None
    elif root.pos_ in ("NOUN", "PROPN"):
        head = root  # "our weekly syncs at 3pm"
    else:
        return None
    if head is None:
        return None
    words = {t.lower_ for t in doc}
    role = "due" if words & _DUE_WORDS else "when"
    if head.lemma_.lower() in _TIME_NOUNS:
        # "the deadline for the report is ...": the thing is what the time is of;
        # "the grant report deadline is ...": the nouns before it name it
        of = [g for c in head.children if c.lower_ in ("for", "of") for g in c.children]
        narrowing = [c for c in head.children if c.dep_ == "compound"]
        if of and of[0].pos_ in ("NOUN", "PROPN"):
            head = of[0]
        elif narrowing:
            # "the grant report deadline": "report" is the thing, "grant" narrows it
            head, narrowing = narrowing[-1], narrowing[:-1]
            own = [c for c in head.children if c.dep_ == "compound"]
            return _when(head, [*narrowing, *own], role, clocks, dates, weekdays)
        else:
            return None
    return _when(
        head, [c for c in head.children if c.dep_ == "compound"], role, clocks, dates, weekdays
    )


def _when(
    head: Token,
    narrowing: Sequence[Token],
    role: str,
    clocks: Sequence[tuple[int, bool]],
    dates: Sequence[tuple[int | None, int | None]],
    weekdays: Sequence[int],
) -> When | None:
    if head.pos_ not in ("NOUN", "PROPN") or head.lower_ in _TIME_NOUNS:
        return None
    if head.lemma_.lower() in _DUE_WORDS:
        return None
    return When(
        head.lemma_.lower(),
        frozenset(t.lemma_.lower() for t in narrowing if t.lower_ not in _DUE_WORDS),
        _owner(head),
        role,
        _one(clocks),
        _one(weekdays),
        _one(dates),
    )


def _owner(head: Token) -> str:
    """Whose the thing is: "" for the speaker's own ("my", "our", or no one named),
    else the possessor's word ("sister" of "my sister's birthday", "his")."""
    for child in head.children:
        if child.dep_ == "poss":
            word = child.lower_
            if word in ("my", "our", "me", "we"):
                return ""
            return child.lemma_.lower() if child.pos_ != "PRON" else word
    return ""


def clocks_in(text: str) -> list[tuple[int, bool]]:
    """The clock times `text` says, each once: (minutes past midnight, whether am, pm or
    a 24-hour time made it exact)."""
    return list(dict.fromkeys(_clocks(text)))


#: the word that puts a thing at a clock time, said before it ("around 6", "by 9am")
_AT_A_TIME = re.compile(r"(?i)\b(?:at|around|about|by|from|till|until|before|after)\s*$")


def without_clocks(text: str) -> str:
    """`text` without the clock times `clocks_in` reads, each with the word before it that
    puts a thing at it ("i go to bed around 1am now" -> "i go to bed   now")."""
    spans = sorted(m.span() for pattern in (_CLOCK, _NOON) for m in pattern.finditer(text))
    for start, end in reversed(spans):
        before = _AT_A_TIME.search(text, 0, start)
        text = text[: before.start() if before else start] + " " + text[end:]
    return text


def clock_differs(a: tuple[int, bool], b: tuple[int, bool]) -> bool:
    """Are two clock times two times ("9pm" / "at 9" are one, on a twelve-hour clock)?"""
    return _clock_differs(a, b)


def _clock_differs(a: tuple[int, bool], b: tuple[int, bool]) -> bool:
    if a[1] and b[1]:
        return a[0] != b[0]
    # "at 9" beside "9pm": the same hour on a twelve-hour clock is no rival
    return a[0] % 720 != b[0] % 720


def _date_differs(a: tuple[int | None, int | None], b: tuple[int | None, int | None]) -> bool:
    if a[0] is not None and b[0] is not None and a[0] != b[0]:
        return True
    if (a[0] == b[0] or a[0] is None and b[0] is None) and None not in (a[1], b[1]):
        return a[1] != b[1]
    return False


def rival_times(a: str, b: str) -> bool:
    """Do sentences `a` and `b` give one thing, in one role, two times of one kind?
    ("the weekly sync is at 2" / "our weekly syncs at 3pm": yes; "the sync is at 2" /
    "retro is at 11": no, two things; "the report is due march 3" / "the report is due in
    march": no, the same month said less exactly.)"""
    # the resolver asks this of every live fact against one incoming sentence: a stored
    # sentence is parsed once (kept), and not at all when the incoming one names no time
    y = when_of(b)
    x = when_of(a) if y is not None else None
    if x is None or y is None or (x.thing, x.owner, x.role) != (y.thing, y.owner, y.role):
        return False
    if not (x.narrowed <= y.narrowed or y.narrowed <= x.narrowed):
        return False  # "grant report" is not "tax report"
    said: list[bool] = []
    if x.clock is not None and y.clock is not None:
        said.append(_clock_differs(x.clock, y.clock))
    if x.date is not None and y.date is not None:
        said.append(_date_differs(x.date, y.date))
    if x.weekday is not None and y.weekday is not None:
        said.append(x.weekday != y.weekday)
    return bool(said) and all(said)
