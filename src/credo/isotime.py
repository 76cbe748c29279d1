"""Times as the JSON outputs write them: ISO 8601 in UTC, to the second, with a "Z".

One spelling for the CLI's `--json`, the MCP tools and the framework integrations, so
the same fact carries the same strings wherever it is read (`2025-03-01T00:00:00Z`).
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["format_iso"]


def format_iso(timestamp: float | None) -> str | None:
    """Epoch seconds -> "YYYY-MM-DDTHH:MM:SSZ"; None stays None."""
    if timestamp is None:
        return None
    moment = datetime.fromtimestamp(timestamp, UTC)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")
