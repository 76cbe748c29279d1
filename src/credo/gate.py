"""The gate: what may become a fact. Durable, specific, sourced, asserted; nothing denied.

`check()` is a pure function of a candidate and a policy; it returns a `Verdict` whose
`code` is a stable category (`hedged`, `affect`, `secret`, ...) and whose `reason` says
what matched. Callers store every rejection: rejections are data, not debug output.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .config import MAX_FACT_CHARS
from .fact import SOURCE_CONFIDENCE

DENY_LIST = (
    "NEVER extract: emotions or mood, opinions the user attributes to others, speculation "
    "about the future, anything the user hedged, transient state (what is running, what is "
    "open, what is failing right now), restatements of your own previous answers, or "
    "anything the user asked you not to remember."
)

HEDGE_MARKERS = (
    "seems", "seem", "appears", "apparently", "might", "maybe", "perhaps", "probably",
    "possibly", "i think", "i guess", "i suppose", "i believe", "not sure", "kind of",
    "sort of", "could be", "may be", "likely", "unlikely", "i feel like", "supposedly",
    "guesses", "supposes", "unsure", "is not sure", "isn't sure", "feels like",
)
AFFECT_MARKERS = (
    "frustrated", "excited", "happy", "annoyed", "angry", "sad", "upset", "stressed",
    "anxious", "worried", "tired", "bored", "thrilled", "disappointed", "feeling",
    "feels", "bad mood", "good mood", "in a mood", "moody", "depressed", "nervous",
    "overwhelmed", "furious", "glad",
)
SPECULATION_MARKERS = (
    "will", "going to", "gonna", "plan to", "plans to", "planning to", "want to",
    "wants to", "wanna", "intend to", "intends to", "hope to", "hopes to", "someday",
    "eventually", "one day", "thinking about", "thinking of", "considering", "might switch",
    "next year", "in the future", "would like to", "wants to eventually",
)
TRANSIENT_MARKERS = (
    "right now", "currently running", "is running", "is failing", "are failing", "is open",
    "is down", "is broken", "at the moment", "today", "tonight", "this morning",
    "this afternoon", "this week", "just now", "is loading", "is compiling", "is crashing",
    "is failing right now", "failing", "is stuck", "is hanging",
)
ATTRIBUTION_MARKERS = (
    "thinks that", "thinks", "believes", "says that", "said that", "according to",
    "in his opinion", "in her opinion", "in their opinion", "claims", "reckons",
)
VAGUE_MARKERS = (
    "clean code", "good code", "best practices", "high quality", "good quality", "complex",
    "things", "stuff", "something", "somewhere", "somehow", "a lot",
)

KEEP_EXAMPLES = (
    "Arttu deploys arttuan.com on Vercel.",
    "Arttu lives in Berlin.",
    "The deploy target for the API is prod.",
    "Arttu's editor is Helix.",
    "Arttu is allergic to peanuts.",
    "The team's database is Postgres 16 on Neon.",
)
REFUSE_EXAMPLES = (
    "The user seems frustrated with the build. (mood)",
    "Arttu might switch to Postgres eventually. (hedged intention)",
    "The build is failing. (transient state)",
    "The user likes clean code. (not specific)",
    "Arttu's colleague thinks Rust is overrated. (opinion attributed to another)",
)


@dataclass(frozen=True)
class GatePolicy:
    """What counts as a fact, as configuration. Defaults are the seed's categories."""

    hedges: tuple[str, ...] = HEDGE_MARKERS
    affect: tuple[str, ...] = AFFECT_MARKERS
    speculation: tuple[str, ...] = SPECULATION_MARKERS
    transient: tuple[str, ...] = TRANSIENT_MARKERS
    attribution: tuple[str, ...] = ATTRIBUTION_MARKERS
    vague: tuple[str, ...] = VAGUE_MARKERS
    deny_list: str = DENY_LIST
    keep_examples: tuple[str, ...] = KEEP_EXAMPLES
    refuse_examples: tuple[str, ...] = REFUSE_EXAMPLES
    min_chars: int = 8
    max_words: int = 40


@dataclass(frozen=True)
class Candidate:
    """Something that may become a fact, from an extractor or an explicit `remember`."""

    text: str
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source: str = "user"
    role: str = "user"  # who produced the turn: user, tool, assistant
    derived_from: tuple[str, ...] = ()
    valid_from: float | None = None


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    code: str  # "ok" or a rejection category
    reason: str

    def __bool__(self) -> bool:
        return self.accepted


@dataclass(frozen=True)
class Suppression:
    """A stored "don't remember that": candidates matching it are refused, now and later."""

    id: str
    pattern: str  # words that must all appear (case-insensitive) for a match
    subject: str | None = None
    terms: tuple[str, ...] = field(default=())

    def matches(self, text: str, subject: str | None) -> bool:
        if self.subject and subject and self.subject != subject:
            return False
        words = set(re.findall(r"\w+", text.lower()))
        terms = self.terms or tuple(re.findall(r"\w+", self.pattern.lower()))
        return bool(terms) and all(t in words for t in terms)


@lru_cache(maxsize=64)
def _marker_regex(markers: tuple[str, ...]) -> re.Pattern[str] | None:
    if not markers:
        return None
    alternatives = sorted((re.escape(m.lower()) for m in markers), key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(alternatives) + r")(?!\w)")


def _first_marker(text: str, markers: tuple[str, ...]) -> str | None:
    rx = _marker_regex(markers)
    found = rx.search(text) if rx else None
    return found.group(1) if found else None


def check(
    candidate: Candidate,
    policy: GatePolicy | None = None,
    *,
    require_subject: bool = True,
    suppressions: Sequence[Suppression] | Iterable[Suppression] = (),
) -> Verdict:
    """Decide whether a candidate may become a fact. Pure: no I/O, no clock."""
    from .secrets import find_secrets

    policy = policy or GatePolicy()
    text = (candidate.text or "").strip()
    low = " ".join(text.lower().split())
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text):
        return Verdict(False, "malformed", "holds control characters")
    if len(text) < policy.min_chars:
        return Verdict(False, "too_short", "too short to be checkable")
    if len(text) > MAX_FACT_CHARS or len(text.split()) > policy.max_words:
        return Verdict(False, "too_long", "too long: probably a summary, not a fact")
    secrets = find_secrets(text)
    if secrets:
        return Verdict(False, "secret", f"carries a secret ({secrets[0].kind})")
    if candidate.role == "assistant":
        return Verdict(False, "not_sourced", "restates the assistant, not the user or a tool")
    if candidate.source.split(":", 1)[0].lower() not in SOURCE_CONFIDENCE:
        return Verdict(False, "not_sourced", f"unknown source {candidate.source!r}")
    if text.endswith("?"):
        return Verdict(False, "question", "a question asserts nothing")
    for rule in suppressions:
        if rule.matches(text, candidate.subject):
            return Verdict(False, "suppressed", f"the user asked not to remember {rule.pattern!r}")
    checks = (
        ("affect", policy.affect, "emotion or mood"),
        ("hedged", policy.hedges, "hedged"),
        ("speculative", policy.speculation, "intention or speculation about the future"),
        ("transient", policy.transient, "transient state"),
        ("attributed_opinion", policy.attribution, "opinion attributed to someone"),
        ("vague", policy.vague, "not specific"),
    )
    for code, markers, label in checks:
        marker = _first_marker(low, markers)
        if marker:
            return Verdict(False, code, f"{label}: {marker!r}")
    if require_subject and not (candidate.subject or "").strip():
        return Verdict(False, "no_subject", "no subject: cannot be keyed or contradicted")
    return Verdict(True, "ok", "ok")


def passes_gate(candidate: dict[str, str]) -> tuple[bool, str]:
    """The seed's dict-shaped gate: (accepted, reason)."""
    verdict = check(
        Candidate(
            text=candidate.get("text") or "",
            subject=candidate.get("subject"),
            source=candidate.get("source") or "user",
        )
    )
    return verdict.accepted, verdict.reason
