"""Times as the JSON outputs write them: ISO 8601 in UTC, to the second, with a "Z".

One spelling for the CLI's `--json`, the MCP tools and the framework integrations, so
the same fact carries the same strings wherever it is read (`2025-03-01T00:00:00Z`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

__all__ = ["TIME_FIELDS", "export_times", "format_iso", "iso_times"]


def format_iso(timestamp: float | None) -> str | None:
    """Epoch seconds -> "YYYY-MM-DDTHH:MM:SSZ"; None stays None."""
    if timestamp is None:
        return None
    moment = datetime.fromtimestamp(timestamp, UTC)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


#: the fields that hold a time in any JSON credo writes: facts, conflicts, rules, `why`
#: (its sources, decisions and confidence history: "at"), `history` (each value's
#: "learned_at" / "retired_at", a conflict's "opened" / "closed"), an export's header
TIME_FIELDS = frozenset(
    {
        "at",
        "created_at",
        "valid_from",
        "valid_to",
        "last_seen_at",
        "resolved_at",
        "exported_at",
        "learned_at",
        "retired_at",
        "opened",
        "closed",
    }
)


def _is_time(key: str, value: object) -> bool:
    return key in TIME_FIELDS and isinstance(value, int | float) and not isinstance(value, bool)


def iso_times(data: Any) -> Any:
    """`data` (dicts and lists, nested) with every time field's epoch seconds written as
    ISO 8601 (`format_iso`): what the CLI's --json, the MCP tools, `credo serve` and the
    agent tools give, so a time reads the same wherever it is read."""
    if isinstance(data, dict):
        return {
            key: format_iso(value) if _is_time(key, value) else iso_times(value)
            for key, value in data.items()
        }
    if isinstance(data, list | tuple):
        return [iso_times(item) for item in data]
    return data


def export_times(record: dict[str, Any]) -> dict[str, Any]:
    """An export record with its times as ISO 8601 in UTC: to the second as everywhere
    else, with microseconds where the time has a fraction (an import must put facts back
    in the order they were made). `credo export`, `credo serve`'s export and the
    inspector's download write these; `import` reads them and older exports' epoch
    seconds alike."""
    out = dict(record)
    for key, value in record.items():
        if _is_time(key, value):
            moment = datetime.fromtimestamp(value, UTC)
            spec = "seconds" if moment.microsecond == 0 else "microseconds"
            out[key] = moment.isoformat(timespec=spec).replace("+00:00", "Z")
    return out
