"""Progress lines for long commands (ingest, import, reindex, eval): on a terminal only.

A `Progress` writes to standard error, and only when that stream is a terminal: a command
whose output is piped or redirected (a script, CI, ``--json``) prints exactly what it
printed before. Each step is one line (never a carriage-return spinner, so a terminal's
scroll-back keeps the history), with the count done, the time per step and an estimate of
the time left; `min_interval` keeps a command of many quick steps from flooding the
screen. The stream, the clock and the terminal test can be injected, for tests.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "format_seconds", "is_terminal"]


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is an interactive terminal (False for pipes, files, closed streams)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def format_seconds(seconds: float) -> str:
    """12.3s, 4m05s, 2h07m: short enough for a progress line."""
    if seconds < 0 or seconds != seconds:  # negative or NaN: nothing sensible to say
        return "?"
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """Count steps of a long command and say where it stands, on a terminal only.

    ``Progress(total, label="ingest")`` then ``step(detail)`` after each unit of work and
    ``note(text)`` for anything else worth a line; `enabled` is False when the stream is
    not a terminal or `quiet` is set, and then nothing is written at all.
    """

    def __init__(
        self,
        total: int | None,
        *,
        label: str,
        stream: TextIO | None = None,
        quiet: bool = False,
        enabled: bool | None = None,
        min_interval: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = is_terminal(self.stream)
        self.enabled = enabled and not quiet
        self.min_interval = min_interval
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._timed = 0  # steps that count toward the time per step
        self._timed_seconds = 0.0
        self._last_shown = float("-inf")
        self._mark = self.started  # when the last step ended

    @property
    def elapsed(self) -> float:
        return self.clock() - self.started

    def per_step(self) -> float | None:
        """Seconds per timed step so far, or None before the first."""
        return self._timed_seconds / self._timed if self._timed else None

    def eta(self) -> float | None:
        """Estimated seconds left, or None when the total or the pace is unknown."""
        pace = self.per_step()
        if pace is None or self.total is None:
            return None
        return max(0, self.total - self.done) * pace

    def step(self, detail: str = "", *, seconds: float | None = None, timed: bool = True) -> None:
        """One unit done. `seconds` is what it took (default: the time since the last
        step); `timed=False` (a skipped unit) counts it without changing the pace."""
        now = self.clock()
        self.done += 1
        if timed:
            took = seconds if seconds is not None else now - self._mark
            self._timed += 1
            self._timed_seconds += max(0.0, took)
        self._mark = now
        last = self.total is not None and self.done >= self.total
        if not self.enabled or (now - self._last_shown < self.min_interval and not last):
            return
        self._last_shown = now
        self._write(self.line(detail))

    def line(self, detail: str = "") -> str:
        """The progress line as `step` writes it."""
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        parts = [f"{self.label} {count}"]
        if detail:
            parts.append(detail)
        pace = self.per_step()
        if pace is not None:
            parts.append(f"{format_seconds(pace)} each")
        left = self.eta()
        if left is not None and self.total is not None and self.done < self.total:
            parts.append(f"ETA {format_seconds(left)}")
        return " | ".join(parts)

    def note(self, text: str) -> None:
        """A line of its own (a start message, a warning), on a terminal only."""
        if self.enabled:
            self._write(f"{self.label}: {text}")

    def _write(self, text: str) -> None:
        try:
            print(text, file=self.stream, flush=True)
        except (OSError, ValueError):  # the terminal went away: the work goes on
            self.enabled = False
