"""The fact record: a sentence, a best-effort key, confidence, provenance and time."""

from __future__ import annotations

import functools
import re
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from typing import Any


class Status(str, Enum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    CONFLICTED = "conflicted"  # coexists with a contradicting live fact
    RETRACTED = "retracted"  # the user (or a settled conflict) said this was wrong


#: statuses that recall may return; superseded and retracted facts are history
LIVE_STATUSES = (Status.ACTIVE, Status.CONFLICTED)

SOURCE_CONFIDENCE = {
    "user": 0.90,
    "tool": 0.85,
    "imported": 0.75,
    "inferred": 0.50,
}
#: an inferred fact is never born above this; inference compounds
INFERRED_CAP = 0.6
#: the most confidence corroboration can lend a claim whose strongest source is this class
SOURCE_CAP = {"user": 0.98, "tool": 0.95, "imported": 0.9, "inferred": INFERRED_CAP}
#: how far a source is trusted to supersede another (user > tool > imported > inferred)
SOURCE_RANK = {"user": 3, "tool": 2, "imported": 1, "inferred": 0}

SELF_REFERENCES = frozenset({"the user", "user", "you", "me", "i", "myself", "yourself"})
DEFAULT_SUBJECT = "user"


def source_kind(source: str) -> str:
    """`tool:github` -> `tool`; unknown kinds count as inferred (the least trusted)."""
    kind = source.split(":", 1)[0].strip().lower()
    return kind if kind in SOURCE_CONFIDENCE else "inferred"


def validate_source(source: str) -> str:
    source = source.strip()
    kind = source.split(":", 1)[0].lower()
    if kind not in SOURCE_CONFIDENCE:
        shown = source if len(source) <= 80 else source[:60] + "..." + source[-10:]
        raise ValueError(
            f"unknown source {shown!r}: use user, tool:<name>, imported:<doc> or inferred"
        )
    return source


def seed_confidence(source: str, requested: float | None = None) -> float:
    """Confidence at birth: by source, never above the inferred cap for inferences."""
    try:
        value = SOURCE_CONFIDENCE[source_kind(source)] if requested is None else float(requested)
    except (OverflowError, TypeError, ValueError) as exc:
        raise ValueError(f"confidence must be a number between 0 and 1, not {requested!r}") from exc
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {value}")
    if source_kind(source) == "inferred":
        value = min(value, INFERRED_CAP)
    return value


def normalize_entity(
    name: str,
    *,
    canonical_subject: str | None = None,
    aliases: dict[str, str] | None = None,
) -> str:
    """Case-fold, strip punctuation, map self-references, then apply the alias table.

    Never merges on similarity: two spellings are one entity only when an alias says so.
    """
    key = base_key(name)
    if key in SELF_REFERENCES:
        key = canonical_subject or DEFAULT_SUBJECT
    table = aliases or {}
    # one hop, then one more for "me" -> "user" -> "arttu"; never a loop
    key = table.get(key, key)
    return table.get(key, key)


def base_key(name: str) -> str:
    """The safe part of normalisation: case-fold, drop punctuation, squeeze spaces."""
    key = re.sub(r"[^\w\s.-]", "", name.strip().lower())
    return re.sub(r"\s+", " ", key).strip(" .-")


def normalize_predicate(predicate: str) -> str:
    """`Favourite colour` -> `favorite_color`: lower case, words joined by "_", each word
    in one spelling (British spellings in the American one), so that a slot said either
    way is one key."""
    key = re.sub(r"[^\w\s]", " ", predicate.strip().lower())
    return "_".join(one_spelling(w) for w in key.replace("_", " ").split())


def one_spelling(word: str) -> str:
    """`colour` -> `color`, `organise` -> `organize`: a word with a British and an American
    spelling, in the American one (breame's word lists: Apache-2.0, no dependencies, under
    1 MB, loaded in milliseconds); a word clipped in chat as the word it stands for
    (`bf` -> `boyfriend`, `mum` -> `mother`: lexicon "clippings"); any other word as it is."""
    from breame.spelling import get_american_spelling

    word = _clippings().get(word, word)
    return str(get_american_spelling(word)) if word.isalpha() else word


@functools.lru_cache(maxsize=1)
def _clippings() -> dict[str, str]:
    from .language import mapping

    return mapping("clippings")


def new_id() -> str:
    return "f_" + uuid.uuid4().hex[:16]


@dataclass
class Fact:
    text: str  # what the model reads
    subject: str | None = None  # normalised entity key
    predicate: str | None = None  # normalised relation key
    object: str | None = None
    scope: str = "default"
    source: str = "user"
    confidence: float = 0.9
    status: Status = Status.ACTIVE
    derived_from: list[str] = field(default_factory=list)  # episode, turn or fact ids
    superseded_by: str | None = None
    created_at: float = field(default_factory=time.time)  # when we learned it
    valid_from: float | None = None  # when it became true (the source turn's time)
    valid_to: float | None = None  # set when superseded
    access_count: int = 0
    last_seen_at: float | None = None
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            self.id = new_id()
        if self.valid_from is None:
            self.valid_from = self.created_at
        if isinstance(self.status, str) and not isinstance(self.status, Status):
            self.status = Status(self.status)

    @property
    def key(self) -> tuple[str, str] | None:
        return (self.subject, self.predicate) if self.subject and self.predicate else None

    @property
    def asserted_at(self) -> float:
        """When the fact was asserted: `valid_from`, falling back to `created_at`."""
        return self.valid_from if self.valid_from is not None else self.created_at

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES

    def evolve(self, **changes: Any) -> Fact:
        """A copy with changes: decisions return new records instead of mutating inputs."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fact:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown fact fields: {', '.join(sorted(unknown))}")
        if not isinstance(data.get("text"), str) or not data["text"].strip():
            raise ValueError("a fact needs a non-empty 'text'")
        values = dict(data)
        values["status"] = Status(values.get("status", "active"))
        values["derived_from"] = list(values.get("derived_from") or [])
        return cls(**values)
