"""One reading of time for every entry point: remember, ingest, import and MCP.

Epoch seconds, epoch milliseconds (chat exports use them; read as seconds they would be
the year 33658), ISO 8601 dates and datetimes, and LoCoMo's "4:05 pm on 19 June, 2024". A
time with no zone is UTC, so the same input gives the same facts anywhere.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from .errors import CredoError, IngestError

__all__ = [
    "EARLIEST",
    "LATEST",
    "MAX_CLOCK_SKEW",
    "TimeError",
    "parse_instant",
    "parse_time",
    "parse_timestamp",
]

#: a valid_from this far past the clock is a clock skew; further is refused
MAX_CLOCK_SKEW = 300.0
#: a number above this is milliseconds since the epoch (1e11 s is the year 5138)
_MILLIS_ABOVE = 1e11
#: the first and last second of the years 1 to 9999: what a date can be written as
EARLIEST, LATEST = -62_135_596_800.0, 253_402_300_799.0
_LOCOMO_TIME = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)


class TimeError(CredoError, ValueError):
    """A value that is not a time credo can read; the message says which forms work."""


def parse_time(value: Any, *, where: str = "") -> float | None:
    """`value` as epoch seconds, or None for None / "". Raises TimeError."""
    at = f"{where}: " if where else ""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise TimeError(f"{at}a time cannot be true/false")
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # an int with more digits than a float holds
            raise TimeError(f"{at}{str(value)[:40]}... is not a time") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise TimeError(f"{at}{value!r} is not a time")
        seconds = number / 1000.0 if abs(number) > _MILLIS_ABOVE else number
        if not EARLIEST <= seconds <= LATEST:  # no date to print, store or compare
            raise TimeError(f"{at}{value!r} is not a time between the years 1 and 9999")
        return seconds
    text = str(value).strip()
    try:
        return parse_time(float(text), where=where)
    except ValueError:
        pass
    found = _LOCOMO_TIME.match(text)
    if found:
        hour, minute, ampm, day, month, year = found.groups()
        try:
            parsed = datetime.strptime(
                f"{day} {month[:3]} {year} {hour}:{minute} {ampm}", "%d %b %Y %I:%M %p"
            )
        except ValueError as exc:
            raise TimeError(f"{at}cannot read the date {text!r}") from exc
        return parsed.replace(tzinfo=UTC).timestamp()
    try:
        iso = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise TimeError(
            f"{at}cannot read the date {text!r}: use YYYY-MM-DD, an ISO 8601 timestamp "
            "(2024-05-08T13:56:00Z) or epoch seconds"
        ) from exc
    if iso.tzinfo is None:
        iso = iso.replace(tzinfo=UTC)
    return iso.timestamp()


def parse_timestamp(value: Any, *, where: str = "") -> float | None:
    """A time read from a conversation file (`credo.ingest`, `credo.exports`): epoch
    seconds (or milliseconds), ISO 8601, or LoCoMo's "4:05 pm on 19 June, 2024":
    `parse_time`, with its errors as `IngestError`s (also importable from credo.ingest)."""
    try:
        return parse_time(value, where=where)
    except TimeError as exc:
        raise IngestError(str(exc)) from exc


_PERIOD = re.compile(r"^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?\s*$")


def parse_instant(value: Any, *, where: str = "") -> float | None:
    """A point to read the store at (`--as-of`, `--known-at`): what `parse_time` reads,
    and a year (`2024`) or a month (`2024-06`) too. A date written without a time of day
    (a year, a month or a day) means the end of that period: "as of 2024-06" holds what
    was true by the end of June 2024. Raises TimeError."""
    found = _PERIOD.match(value) if isinstance(value, str) else None
    if found is None:
        return parse_time(value, where=where)
    year, month, day = (int(g) if g else None for g in found.groups())
    assert year is not None
    try:
        if month is None:
            start, months = datetime(year, 1, 1, tzinfo=UTC), 12
        elif day is None:
            start, months = datetime(year, month, 1, tzinfo=UTC), 1
        else:
            day_start = datetime(year, month, day, tzinfo=UTC)
            return day_start.timestamp() + 86_399.0
    except ValueError as exc:
        at = f"{where}: " if where else ""
        raise TimeError(
            f"{at}cannot read the date {value!r}: use YYYY, YYYY-MM or YYYY-MM-DD"
        ) from exc
    total = start.year * 12 + start.month - 1 + months
    if total // 12 > 9999:
        return LATEST
    return datetime(total // 12, total % 12 + 1, 1, tzinfo=UTC).timestamp() - 1.0
