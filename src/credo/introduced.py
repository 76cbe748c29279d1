"""Names the speaker gave their own: "my daughter lily", "a cat named luna", "anna, my
sister". A later sentence about the name alone ("lily just started year 6") is read, for
its key, as said of the speaker's daughter, so that it meets what is stored of her. The
stored words stay as typed; a name is only read so where a stored sentence gave it, by
the parse of that sentence, never by a likeness of meaning."""

from __future__ import annotations

import re

#: words that may stand between "my" and a name without being what the name is
_NOT_KINDS = frozenset(
    {
        "and",
        "or",
        "but",
        "is",
        "was",
        "has",
        "had",
        "will",
        "would",
        "can",
        "does",
        "did",
        "the",
        "a",
        "an",
        "own",
        "name",
    }
)

_OWNER = r"(?:my|our|the\s+user['’]s)"


def introduced_as(name: str, text: str) -> str | None:
    """The noun by which `text` gives `name` as the speaker's own ("my daughter lily" ->
    "daughter", "i have a cat named luna" -> "cat", "anna, my sister" -> "sister", "my
    partner is called alex" -> "partner"), or None where it does not."""
    from .language.kinds import is_a_noun

    said = re.escape(name).replace(r"\ ", r"\s+")
    patterns = (
        # "my daughter lily", "my older sister, hannah,"
        rf"\b{_OWNER}\s+(?:\w+\s+)??(?P<noun>[a-z]+)\s*,?\s+{said}\b",
        # "a cat named luna", "my dog is called rex"
        rf"\b(?:a|an|{_OWNER})\s+(?:\w+\s+)??(?P<noun>[a-z]+)\s+(?:is\s+|was\s+)?"
        rf"(?:named|called)\s+{said}\b",
        # "anna, my sister"
        rf"^\s*{said}\s*,\s*{_OWNER}\s+(?:\w+\s+)??(?P<noun>[a-z]+)\b",
        # "my mum's name is karen"
        rf"\b{_OWNER}\s+(?:\w+\s+)??(?P<noun>[a-z]+)['’]?s\s+name\s+is\s+{said}\b",
    )
    for pattern in patterns:
        found = re.search(pattern, text, re.IGNORECASE)
        if found is None:
            continue
        noun = found["noun"].lower()
        if noun not in _NOT_KINDS and noun != name.lower() and is_a_noun(noun):
            return noun
    return None


def as_own(text: str, name: str, noun: str) -> str | None:
    """`text` with its first mention of `name` said as "my <noun>" ("lily just started
    year 6" -> "my daughter just started year 6"); None where the name is not in it as a
    word of its own, or where the text already says whose it is ("my lily")."""
    said = re.escape(name).replace(r"\ ", r"\s+")
    found = re.search(rf"(?<![\w'’-]){said}(?![\w-])", text, re.IGNORECASE)
    if found is None:
        return None
    if re.search(rf"\b(?:my|our)\s+(?:\w+\s+)?{re.escape(noun)}s?\b", text, re.IGNORECASE):
        return None  # "alex is my partner": the sentence says whose it is itself
    before = text[: found.start()].rstrip().lower()
    if before.endswith(("my", "our", "his", "her", "their", "your", "'s", "’s")):
        return None
    return f"{text[: found.start()]}my {noun}{text[found.end() :]}"
