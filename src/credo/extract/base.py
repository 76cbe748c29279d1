"""What every extractor takes and returns: turns in, candidates (never facts) out.

An extractor proposes; the gate and the resolver in `Memory.remember_candidate` decide.
So an extractor never stores anything and never needs a database: it maps an episode (a
batch of turns) to `gate.Candidate`s that remember where they came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..gate import Candidate

ROLES = ("user", "assistant", "tool")


@dataclass(frozen=True)
class Turn:
    """One message of a conversation.

    `speaker` names who said it when a conversation has several people (LoCoMo); without
    it, a user turn speaks for the scope's canonical subject ("the user").
    """

    id: str
    role: str  # "user" | "assistant" | "tool"
    content: str
    timestamp: float | None = None  # epoch seconds, when the turn was said
    speaker: str | None = None
    episode: str | None = None  # the session it belongs to; episodes never straddle two

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"turn {self.id!r} has role {self.role!r}: use {', '.join(ROLES)}")


@dataclass
class Extraction:
    """Candidates from one episode, and why anything was dropped on the way.

    `notes` records every item an extractor threw away itself (a malformed reply, an item
    that names no source turn), so a bad model reply is visible rather than silent.
    `errors` records failures that lost the whole episode (the model could not be reached).
    """

    candidates: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: the failure might not recur on fewer turns (a timeout, a context overflow)
    retry_smaller: bool = False
    #: tokens the model read and wrote (prompt_tokens, completion_tokens), when reported
    usage: dict[str, int] = field(default_factory=dict)

    def extend(self, other: Extraction) -> None:
        self.candidates.extend(other.candidates)
        self.notes.extend(other.notes)
        self.errors.extend(other.errors)
        for name, count in other.usage.items():
            self.usage[name] = self.usage.get(name, 0) + count


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns an episode into candidates."""

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user") -> Extraction:
        """Candidates from `turns`. `self_name` is how a first-person speaker with no
        `speaker` of their own reads in a stored sentence ("The user", "Arttu")."""
        ...


def latest_time(turns: Sequence[Turn]) -> float | None:
    """When the last of `turns` was said: a fact drawn from several turns became true then."""
    times = [t.timestamp for t in turns if t.timestamp is not None]
    return max(times) if times else None
