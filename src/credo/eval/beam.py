"""BEAM: long chats of one user with an assistant; are changes and contradictions kept?

Each chat (`chat.json` and `probing_questions.json`, as BEAM ships them) is ingested into a
fresh scope of a temporary SQLite store by credo's own ingestion (`credo.ingest`: the
offline rule extractor, the gate and the resolver), the user's turns in order with the
dates of their batches. Only the user's turns are ingested: facts about the user come from
what the user said, and an assistant's answer (often a page of code) is not evidence.
Nothing here asks an LLM to judge; every figure is read from the store and the rendered
block.

Knowledge-update questions name the turn that stated a value (`original_info`) and the
turn that changed it (`updated_info`); the rubric's "should state: X" gives the new value.
For each question:

- *holds the value*: the update turn's text holds the new value (all its numbers, or its
  words when it has none); the headline figures count only these questions (BEAM notes
  that a few source ids point at a turn that does not say the value);
- *stored*: a live fact came from the update turn and holds the value;
- *superseded*: a fact from the original turn was superseded by a fact from the update
  turn;
- *rendered*: the block `Memory.for_prompt(question)` gives shows a fact that holds the
  new value;
- *stale as current*: the block shows, unflagged, a live fact from the original turn that
  does not hold the new value and names an old one (a number of BEAM's note of the
  original information that the new value does not have: "150" before "165 commits").

Contradiction questions name two turns (`first_statement`, `second_statement`) that
contradict each other; for each: *both stored* (a live fact from each turn), *flagged* (a
conflict pairs a fact of one with a fact of the other) and *shown with the warning* (the
block for the question shows both and the contradiction warning).
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..config import MAX_TURN_CHARS
from ..embed import Embedder
from ..errors import CredoError
from ..extract.base import Turn
from ..fact import Fact
from ..memory import Memory
from ..render import CONFLICT_WARNING, quote
from ..store.sqlite import SQLiteStore
from .text import fit

__all__ = [
    "BeamChat",
    "BeamError",
    "BeamReport",
    "Contradiction",
    "Update",
    "evaluate",
    "format_report",
    "read_beam",
    "value_terms",
]

#: the index marker BEAM appends to each user turn ("->-> 2,14"): not part of what was said
_MARKER = re.compile(r"\s*->->\s*\d+\s*,\s*\d+\s*$")
_STATE = re.compile(r"should\s+(?:state|mention|include)\s*:\s*(.+)", re.I)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[a-z][a-z0-9+#.-]*")
#: words that carry no value of their own in a rubric's "should state: X"
_FILLER = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "by",
        "with",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "from",
        "as",
        "than",
        "about",
        "around",
        "approximately",
        "roughly",
        "nearly",
        "over",
        "under",
        "per",
    ]
)


class BeamError(CredoError, ValueError):
    """A BEAM folder or file cannot be used; the message names it and the problem."""


@dataclass(frozen=True)
class Update:
    question: str
    value: str  # the new value, from the rubric
    original: tuple[str, ...]  # turn ids
    updated: tuple[str, ...]
    #: the numbers BEAM's note of the original information names that the new value does
    #: not: what a stale value looks like ("150 commits" before "165 commits")
    old_numbers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Contradiction:
    question: str
    first: tuple[str, ...]
    second: tuple[str, ...]


@dataclass
class BeamChat:
    name: str
    turns: list[Turn]
    updates: list[Update]
    contradictions: list[Contradiction]
    cut: int = 0  # user turns cut to MAX_TURN_CHARS

    def text_of(self, ids: Iterable[str]) -> str:
        wanted = set(ids)
        return "\n".join(t.content for t in self.turns if t.id in wanted)


def _load(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError as exc:
        raise BeamError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BeamError(f"{path}: not readable JSON ({exc})") from exc


def _anchor(value: Any, where: str) -> float:
    try:
        day = datetime.strptime(str(value).strip(), "%B-%d-%Y")
    except ValueError as exc:
        raise BeamError(f"{where}: time_anchor {value!r} is not like 'March-15-2024'") from exc
    return day.replace(hour=12, tzinfo=UTC).timestamp()


def _ids(chat: str, value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise BeamError(f"{where}: expected a list of message ids, got {value!r}")
    return tuple(f"{chat}:{v}" for v in value)


def read_chat(folder: str | Path) -> BeamChat:
    """One BEAM chat folder: its user turns, dated, and its update and contradiction
    questions."""
    folder = Path(folder)
    name = folder.name
    batches = _load(folder / "chat.json")
    if not isinstance(batches, list):
        raise BeamError(f"{folder / 'chat.json'}: expected a list of batches")
    turns: list[Turn] = []
    cut = 0
    when: float | None = None
    for b, batch in enumerate(batches):
        groups = batch.get("turns") if isinstance(batch, dict) else None
        if not isinstance(groups, list):
            raise BeamError(f"{folder / 'chat.json'}: batch {b} has no list of turns")
        for group in groups:
            for msg in group if isinstance(group, list) else [group]:
                where = f"{folder / 'chat.json'}: batch {b}"
                if not isinstance(msg, dict) or not isinstance(msg.get("content"), str):
                    raise BeamError(f"{where}: a turn without text content")
                if msg.get("time_anchor"):
                    when = _anchor(msg["time_anchor"], where)
                if msg.get("role") != "user":
                    continue
                text = _MARKER.sub("", msg["content"]).strip()
                if not text:
                    continue
                if len(text) > MAX_TURN_CHARS:
                    text, cut = text[:MAX_TURN_CHARS], cut + 1
                turns.append(Turn(f"{name}:{msg.get('id')}", "user", text, when))
    questions = _load(folder / "probing_questions.json")
    if not isinstance(questions, dict):
        raise BeamError(f"{folder / 'probing_questions.json'}: expected an object")
    updates = []
    for n, q in enumerate(questions.get("knowledge_update") or []):
        where = f"{folder / 'probing_questions.json'}: knowledge_update {n}"
        ids = q.get("source_chat_ids") or {}
        states = [m.group(1).strip() for r in q.get("rubric") or [] if (m := _STATE.search(r))]
        value = states[0] if states else str(q.get("answer", ""))
        refs = q.get("conversation_references") or []
        before = _numbers(str(refs[0])) if refs else set()
        updates.append(
            Update(
                str(q.get("question", "")),
                value,
                _ids(name, ids.get("original_info", []), where),
                _ids(name, ids.get("updated_info", []), where),
                frozenset(before - _numbers(value)),
            )
        )
    contradictions = []
    for n, q in enumerate(questions.get("contradiction_resolution") or []):
        where = f"{folder / 'probing_questions.json'}: contradiction_resolution {n}"
        ids = q.get("source_chat_ids") or {}
        contradictions.append(
            Contradiction(
                str(q.get("question", "")),
                _ids(name, ids.get("first_statement", []), where),
                _ids(name, ids.get("second_statement", []), where),
            )
        )
    return BeamChat(name, turns, updates, contradictions, cut)


def read_beam(path: str | Path, *, chats: Sequence[str] | None = None) -> list[BeamChat]:
    """A chat folder, or a folder of chat folders (BEAM's `100K/`), in numeric order;
    `chats` keeps only the named ones."""
    root = Path(path)
    if not root.is_dir():
        raise BeamError(f"{root}: not a folder (give a BEAM chat folder or a folder of them)")
    if (root / "chat.json").exists():
        folders = [root]
    else:
        folders = sorted(
            (p for p in root.iterdir() if (p / "chat.json").exists()),
            key=lambda p: (not p.name.isdigit(), int(p.name) if p.name.isdigit() else 0, p.name),
        )
    if chats is not None:
        unknown = set(chats) - {p.name for p in folders}
        if unknown:
            raise BeamError(f"{root}: no chat named {', '.join(sorted(unknown))}")
        folders = [p for p in folders if p.name in set(chats)]
    if not folders:
        raise BeamError(f"{root}: holds no chat.json")
    return [read_chat(p) for p in folders]


# -- values ------------------------------------------------------------------------------------
def _numbers(text: str) -> set[str]:
    return {m.group(0).replace(",", "").rstrip(".") for m in _NUMBER.finditer(text)}


def value_terms(value: str) -> frozenset[str]:
    """What a text must hold to state `value`: its numbers (commas dropped) when it has
    any, else its words less filler."""
    numbers = _numbers(value)
    if numbers:
        return frozenset(numbers)
    return frozenset(w for w in _WORD.findall(value.lower()) if w not in _FILLER)


def holds(text: str, terms: frozenset[str]) -> bool:
    if not terms:
        return False
    found = _numbers(text) | set(_WORD.findall(text.lower()))
    return terms <= found


# -- scoring -----------------------------------------------------------------------------------
@dataclass
class UpdateOutcome:
    chat: str
    question: str
    value: str
    turn_holds_value: bool
    stored: bool
    superseded: bool
    rendered: bool
    stale_as_current: bool

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ContradictionOutcome:
    chat: str
    question: str
    both_stored: bool
    flagged: bool
    shown_with_warning: bool

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _share(items: Sequence[Any], attr: str) -> float:
    """The share of `items` whose `attr` is true (0 when there are none)."""
    return sum(bool(getattr(i, attr)) for i in items) / len(items) if items else 0.0


@dataclass
class BeamReport:
    embedder: str
    chats: list[str]
    user_turns: int = 0
    facts: int = 0
    cut: int = 0
    seconds: float = 0.0
    #: every pair of live facts flagged as a conflict, over all the chats, and those of them
    #: that a contradiction question names (its first and second statement's turns): the
    #: rest are flagged where no question looks (some true, some false; nothing here
    #: says which)
    conflict_pairs: int = 0
    named_pairs: int = 0
    updates: list[UpdateOutcome] = field(default_factory=list)
    contradictions: list[ContradictionOutcome] = field(default_factory=list)

    def update_figures(self) -> dict[str, Any]:
        held = [u for u in self.updates if u.turn_holds_value]
        return {
            "questions": len(self.updates),
            "turn_holds_value": len(held),
            "new_value_stored": _share(held, "stored"),
            "old_value_superseded": _share(held, "superseded"),
            "new_value_rendered": _share(held, "rendered"),
            "stale_rendered_as_current": _share(held, "stale_as_current"),
        }

    def contradiction_figures(self) -> dict[str, Any]:
        items = self.contradictions
        return {
            "questions": len(items),
            "both_stored": _share(items, "both_stored"),
            "flagged": _share(items, "flagged"),
            "shown_with_warning": _share(items, "shown_with_warning"),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "chats": self.chats,
            "user_turns": self.user_turns,
            "facts": self.facts,
            "turns_cut": self.cut,
            "seconds": round(self.seconds, 1),
            "knowledge_update": self.update_figures(),
            "contradiction": self.contradiction_figures(),
            "conflict_pairs": self.conflict_pairs,
            "conflict_pairs_named": self.named_pairs,
            "update_items": [u.to_dict() for u in self.updates],
            "contradiction_items": [c.to_dict() for c in self.contradictions],
        }


def _named(chat: BeamChat, a: Fact, b: Fact) -> bool:
    """Is the flagged pair (a, b) one a contradiction question of the chat names?"""
    return any(
        _from(a, c.first) and _from(b, c.second) or _from(a, c.second) and _from(b, c.first)
        for c in chat.contradictions
    )


def _from(fact: Fact, ids: Iterable[str]) -> bool:
    return bool(set(fact.derived_from) & set(ids))


def _shown(block: str, fact: Fact) -> bool:
    return quote(fact.text) in block


def score_update(
    chat: BeamChat, memory: Memory, update: Update, facts: list[Fact]
) -> UpdateOutcome:
    terms = value_terms(update.value)
    new = [f for f in facts if _from(f, update.updated) and not _from(f, update.original)]
    old = [f for f in facts if _from(f, update.original) and not _from(f, update.updated)]
    new_ids = {f.id for f in new}
    superseded = False
    for f in old:
        if f.status.value != "superseded":
            continue
        children = memory.store.lineage(scope=memory.scope, fact_id=f.id)
        if any(p == f.id and c in new_ids for p, c, _ in children):
            superseded = True
    block = memory.for_prompt(update.question, k=10)
    flagged = {x.id for c in memory.conflicts() for x in (c.a, c.b)}
    return UpdateOutcome(
        chat.name,
        update.question,
        update.value,
        turn_holds_value=holds(chat.text_of(update.updated), terms),
        stored=any(f.is_live and holds(f.text, terms) for f in new),
        superseded=superseded,
        rendered=any(holds(line, terms) for line in block.splitlines()[1:]),
        stale_as_current=any(
            f.is_live
            and f.id not in flagged
            and not holds(f.text, terms)
            and bool(_numbers(f.text) & update.old_numbers)
            and _shown(block, f)
            for f in old
        ),
    )


def score_contradiction(
    chat: BeamChat, memory: Memory, item: Contradiction, facts: list[Fact]
) -> ContradictionOutcome:
    first = {f.id for f in facts if f.is_live and _from(f, item.first)}
    second = {f.id for f in facts if f.is_live and _from(f, item.second)}
    pairs = [
        (c.a.id, c.b.id)
        for c in memory.conflicts()
        if (c.a.id in first and c.b.id in second) or (c.a.id in second and c.b.id in first)
    ]
    block = memory.for_prompt(item.question, k=10)
    by_id = {f.id: f for f in facts}
    shown = (
        any(_shown(block, by_id[a]) and _shown(block, by_id[b]) for a, b in pairs)
        and CONFLICT_WARNING in block
    )
    return ContradictionOutcome(
        chat.name,
        item.question,
        both_stored=bool(first and second),
        flagged=bool(pairs),
        shown_with_warning=shown,
    )


def evaluate(
    chats: Sequence[BeamChat],
    embedder: Embedder,
    *,
    progress: Callable[[str], None] | None = None,
) -> BeamReport:
    """Ingest each chat into its own scope of one temporary store and score its update and
    contradiction questions."""
    from ..ingest import ingest

    report = BeamReport(embedder.name, [c.name for c in chats])
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="credo-beam-") as tmp:
        store = SQLiteStore(Path(tmp) / "beam.db", embedder)
        try:
            for chat in chats:
                memory = Memory(store, scope=f"beam-{chat.name}")
                ingest(memory, chat.turns)
                facts = memory.store.all(scope=memory.scope)
                report.user_turns += len(chat.turns)
                report.facts += sum(f.is_live for f in facts)
                report.cut += chat.cut
                for u in chat.updates:
                    report.updates.append(score_update(chat, memory, u, facts))
                for c in chat.contradictions:
                    report.contradictions.append(score_contradiction(chat, memory, c, facts))
                pairs = memory.conflicts()
                report.conflict_pairs += len(pairs)
                report.named_pairs += sum(_named(chat, p.a, p.b) for p in pairs)
                if progress:
                    progress(f"chat {chat.name}: {len(facts)} facts")
        finally:
            store.close()
    report.seconds = time.perf_counter() - started
    return report


def format_report(report: BeamReport, *, items: bool = False) -> str:
    u, c = report.update_figures(), report.contradiction_figures()
    lines = [
        f"BEAM, chats {', '.join(report.chats)} ({report.embedder}): {report.user_turns} "
        f"user turns, {report.facts} live facts, {report.seconds:.0f} s",
        "",
        f"knowledge update: {u['questions']} questions, {u['turn_holds_value']} whose "
        "update turn holds the value (the figures below count these)",
        f"  new value stored            {u['new_value_stored']:.3f}",
        f"  old value superseded        {u['old_value_superseded']:.3f}",
        f"  new value rendered          {u['new_value_rendered']:.3f}",
        f"  stale rendered as current   {u['stale_rendered_as_current']:.3f}",
        f"contradiction: {c['questions']} questions",
        f"  both claims stored          {c['both_stored']:.3f}",
        f"  flagged as a conflict       {c['flagged']:.3f}",
        f"  both shown with the warning {c['shown_with_warning']:.3f}",
        f"conflicts flagged in all: {report.conflict_pairs} pairs, {report.named_pairs} of "
        "them named by a question (the others may be true or false)",
    ]
    if report.cut:
        lines.append(f"({report.cut} user turns over {MAX_TURN_CHARS} characters were cut)")
    if items:
        lines.append("")
        for x in report.updates:
            marks = "".join(
                "x" if getattr(x, a) else "."
                for a in ("turn_holds_value", "stored", "superseded", "rendered")
            )
            stale = " STALE" if x.stale_as_current else ""
            lines.append(f"  U {x.chat} [{marks}]{stale} {x.value!r}: {x.question}")
        for y in report.contradictions:
            marks = "".join(
                "x" if getattr(y, a) else "."
                for a in ("both_stored", "flagged", "shown_with_warning")
            )
            lines.append(f"  C {y.chat} [{marks}] {y.question}")
    return "\n".join(fit(line) for line in lines)
