"""Reports that fit an 80-column terminal.

Tables are laid out to fit; `fit` wraps whatever prose line is still longer (a path, a
failing example, a list of refusals) at spaces, its continuation indented four past the
line's own indent, so no line of a report is wider than `WIDTH`.
"""

from __future__ import annotations

import textwrap

__all__ = ["WIDTH", "fit"]

WIDTH = 80


def fit(text: str, width: int = WIDTH) -> str:
    """`text` with every line at most `width` characters."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(
            line.strip(),
            width=width,
            initial_indent=indent,
            subsequent_indent=indent + "    ",
            break_long_words=True,
            break_on_hyphens=False,
        )
    return "\n".join(out)
