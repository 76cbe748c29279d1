"""A password's label mistyped: two letters swapped or one left out ("contrasñea",
"passwrod", "passowrt", "wachtwood"). The word is read as the label it was meant to be, and
the password detectors read the sentence so mended; what they find after the word is the
sentence's secret. The labels are the one-word ones of `[made_up_passwords]` in
`credo/data/secret_words.toml` (six letters or more: a shorter word mistyped is too often
another word)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from . import cached_re as re
from .secret_base import _WORDS, Detector, SecretFinding
from .secret_passwords import _contextual_passwords, _made_up_passwords, _stated_passwords

__all__ = ["DETECTORS", "meant_label"]

_SHORTEST = 6
#: the detectors that read the mended sentence
_READERS: tuple[Detector, ...] = (_stated_passwords, _made_up_passwords, _contextual_passwords)


@functools.cache
def _typos() -> dict[str, str]:
    """Each mistyping of a label (a swap of two letters side by side, or one letter left
    out) and the label it stands for; never a label itself."""
    labels = {
        w.lower()
        for lang, words in _WORDS["made_up_passwords"].items()
        if lang != "verbs"  # the table's copulas, not labels
        for w in words
        if " " not in w and len(w) >= _SHORTEST and w.isalpha()
    }
    typos: dict[str, str] = {}
    for label in sorted(labels):
        for i in range(len(label) - 1):
            if label[i] != label[i + 1]:
                typos.setdefault(label[:i] + label[i + 1] + label[i] + label[i + 2 :], label)
        for i in range(len(label)):
            dropped = label[:i] + label[i + 1 :]
            if len(dropped) >= _SHORTEST:
                typos.setdefault(dropped, label)
    return {t: label for t, label in typos.items() if t not in labels}


_WORD = re.compile(r"[^\W\d_]{5,}")


def meant_label(word: str) -> str | None:
    """The label `word` is a mistyping of, or None."""
    return _typos().get(word.lower())


def _mistyped_labels(text: str) -> Iterator[SecretFinding]:
    for m in _WORD.finditer(text):
        label = meant_label(m.group(0))
        if label is None:
            continue
        mended = text[: m.start()] + label + text[m.end() :]
        shift = len(label) - len(m.group(0))
        after = m.start() + len(label)
        for reader in _READERS:
            for f in reader(mended):
                if f.start >= after:
                    yield SecretFinding(f.kind, f.start - shift, f.end - shift)


DETECTORS: tuple[Detector, ...] = (_mistyped_labels,)
