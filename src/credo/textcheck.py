"""What a text may hold, and what is kept of a refused one: the checks that `Memory`,
import (`credo.transfer`) and ingest share.

- `CONTROL`: control characters (tab, line feed and carriage return aside), refused in a
  statement, an id, a label or a reason;
- `NOT_UTF8`: lone surrogates, what bytes that were not UTF-8 become when read leniently
  (not text);
- `rejection_excerpt`: what a rejection keeps of a refused text (secrets masked, bounded).
"""

from __future__ import annotations

import re

from .config import MAX_REJECTION_CHARS, MAX_TURN_CHARS
from .secrets import mask_secrets

__all__ = ["CONTROL", "NOT_UTF8", "rejection_excerpt"]

#: control characters, tab, line feed and carriage return aside
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: lone surrogates: what bytes that were not UTF-8 become when read leniently (not text)
NOT_UTF8 = re.compile(r"[\ud800-\udfff]")


def rejection_excerpt(text: str, limit: int = MAX_REJECTION_CHARS) -> str:
    """What a rejection keeps of a refused text: secrets masked, then at most `limit`
    characters (with a trailing ellipsis when cut). Masking looks at no more than
    `MAX_TURN_CHARS`, so a huge input costs a bounded time."""
    masked = mask_secrets(text[:MAX_TURN_CHARS])
    if len(masked) <= limit and len(text) <= MAX_TURN_CHARS:
        return masked
    return masked[: max(limit - 1, 0)] + "\u2026"
