"""What the inspector's pages show, computed from `Memory`'s public reads: the subjects of
a scope, each key's timeline, a fact's neighbours, and what a forget would remove (worked
out without deleting anything)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..config import REJECTIONS_KEPT
from ..errors import InvalidInput, NotFound
from ..fact import Fact, Status
from ..memory import Memory
from ..store.base import Conflict, Rejection, mentions, names_a_subject

#: the most facts one subject page lists (the rest: `credo list --subject`)
SUBJECT_PAGE_FACTS = 500
NO_SUBJECT = ""


#: facts a subject page lists at a time (its facts table is paged: ?page=N)
FACTS_PER_PAGE = 25


def key_words(predicate: str) -> str:
    """A key's predicate as a heading reads it: "be_allergic_to" -> "Is allergic to",
    "not_drink" -> "Does not drink", "live_in" -> "Live in" (the key itself is shown
    beside it, for `credo history --predicate`)."""
    words = [w for w in predicate.split("_") if w]
    if not words:
        return predicate
    if words[0] == "not":
        words = ["is", "not", *words[2:]] if words[1:2] == ["be"] else ["does", "not", *words[1:]]
    elif words[0] == "be":
        words[0] = "is"
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def current_and_past(facts: Iterable[Fact]) -> tuple[list[Fact], list[Fact]]:
    """A subject's facts in two groups, each in the given order: what holds now (active or
    in conflict), and what no longer does (superseded or retracted)."""
    now: list[Fact] = []
    past: list[Fact] = []
    for fact in facts:
        (now if fact.status in (Status.ACTIVE, Status.CONFLICTED) else past).append(fact)
    return now, past


@dataclass
class SubjectRow:
    name: str  # NO_SUBJECT for facts the parser could not key
    counts: dict[str, int] = field(default_factory=dict)
    last_change: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def subjects(memory: Memory) -> list[SubjectRow]:
    """Every subject of the scope with its facts counted by status, most recently changed
    first (facts with no subject come last, as one row)."""
    rows: dict[str, SubjectRow] = {}
    for fact in memory.store.iter_all(scope=memory.scope):
        name = fact.subject or NO_SUBJECT
        row = rows.setdefault(name, SubjectRow(name))
        row.counts[fact.status.value] = row.counts.get(fact.status.value, 0) + 1
        row.last_change = max(row.last_change, fact.created_at, fact.valid_to or 0.0)
    ordered = sorted(rows.values(), key=lambda r: (r.name == NO_SUBJECT, -r.last_change))
    return ordered


def facts_of(memory: Memory, subject: str) -> list[Fact]:
    """Every fact about `subject` in every status (aliases apply), newest first; with
    NO_SUBJECT, the facts that have no subject."""
    if subject == NO_SUBJECT:
        found = [f for f in memory.store.iter_all(scope=memory.scope) if not f.subject]
    else:
        found = memory.list(subject=subject, limit=SUBJECT_PAGE_FACTS)
    return sorted(found, key=lambda f: (f.asserted_at, f.created_at), reverse=True)


@dataclass(frozen=True)
class Change:
    """One value a key held: from when, until when, how it came and what became of it."""

    fact_id: str
    value: str
    status: str
    since: float
    until: float | None
    how: str | None = None  # the resolver's decision that stored it (new, updated, ...)
    by: str | None = None  # who stored it, or who retracted it
    live: bool = False


def timelines(memory: Memory, subject: str, facts: Iterable[Fact]) -> dict[str, list[Change]]:
    """Each key's values in the order they were true: predicate -> changes, oldest first.
    `Memory.history` says how each came and went where this credo has it; else the facts'
    own dates do. Facts with no predicate have no timeline (they are listed, not keyed)."""
    history = getattr(memory, "history", None)
    if subject and callable(history):
        out: dict[str, list[Change]] = {}
        for key in history(subject):
            out[key.predicate] = [
                Change(
                    e["id"],
                    ("not " if e.get("negated") else "") + (e.get("value") or e["text"]),
                    e["status"],
                    e["valid_from"],
                    e.get("valid_to"),
                    e.get("how"),
                    e.get("retracted_by") or e.get("source"),
                    e["status"] in (Status.ACTIVE.value, Status.CONFLICTED.value),
                )
                for e in key.entries
            ]
        return out
    by_key: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        if fact.predicate:
            by_key[fact.predicate].append(fact)
    plain: dict[str, list[Change]] = {}
    for predicate in sorted(by_key):
        ordered = sorted(by_key[predicate], key=lambda f: (f.asserted_at, f.created_at))
        plain[predicate] = [
            Change(
                f.id, f.object or f.text, f.status.value, f.asserted_at, f.valid_to, live=f.is_live
            )
            for f in ordered
        ]
    return plain


#: how a lineage row reads from each end: (this fact is the child, this fact is the parent)
_RELATION_WORDS = {
    "supersedes": ("replaced", "replaced by"),
    "refines": ("refined", "refined by"),
    "derived": ("derived from", "source of"),
}


@dataclass(frozen=True)
class Neighbour:
    kind: str  # the lineage kind: derived, supersedes, refines
    direction: str  # "parent" (this fact came from it) or "child" (it came from this fact)
    fact_id: str
    fact: Fact | None  # None when it is not in the scope any more

    @property
    def relation(self) -> str:
        """The row in words, from this fact's side: 'replaced', 'refined by', ..."""
        as_child, as_parent = _RELATION_WORDS.get(self.kind, (self.kind, f"{self.kind} by"))
        return as_child if self.direction == "parent" else as_parent


def neighbours(memory: Memory, fact_id: str) -> list[Neighbour]:
    """The facts linked to `fact_id` by lineage, each with its record when still stored."""
    rows = memory.lineage(fact_id)
    ids = [child if parent == fact_id else parent for parent, child, _ in rows]
    known = {f.id: f for f in memory.store.get_many(ids, scope=memory.scope)}
    out = []
    for parent, child, kind in rows:
        if parent == fact_id:
            out.append(Neighbour(kind, "child", child, known.get(child)))
        else:
            out.append(Neighbour(kind, "parent", parent, known.get(parent)))
    return out


def conflicts_of(memory: Memory, fact_id: str) -> list[Conflict]:
    return [c for c in memory.conflicts(include_resolved=True) if fact_id in (c.a.id, c.b.id)]


def split_refs(memory: Memory, fact: Fact) -> tuple[list[Fact], list[str]]:
    """A fact's `derived_from`: the stored facts it was inferred from, and the other refs
    (source turns and episodes). A fact it replaced or refined is lineage, not a source."""
    facts = memory.store.get_many(fact.derived_from, scope=memory.scope)
    known = {f.id for f in facts}
    replaced = {
        parent
        for parent, child, kind in memory.store.lineage(scope=memory.scope, fact_id=fact.id)
        if child == fact.id and kind != "derived"
    }
    return (
        [f for f in facts if f.id not in replaced],
        [ref for ref in fact.derived_from if ref not in known],
    )


def rejection(memory: Memory, rejection_id: int) -> Rejection:
    for r in memory.rejections(limit=REJECTIONS_KEPT):
        if r.id == rejection_id:
            return r
    raise NotFound(f"no rejection {rejection_id} in scope {memory.scope!r}")


# -- what a forget would remove --------------------------------------------------------
@dataclass
class ForgetPreview:
    """Exactly what `Memory.forget` with the same target deletes, listed before it does."""

    target: str  # "id", "subject" or "episode"
    value: str
    named: list[Fact] = field(default_factory=list)  # the facts the target names
    derived: list[Fact] = field(default_factory=list)  # facts inferred from those, cascaded
    rejections: list[Rejection] = field(default_factory=list)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    rules: int = 0
    reopened: list[Fact] = field(default_factory=list)  # conflict partners back to active

    @property
    def fact_ids(self) -> list[str]:
        return [f.id for f in (*self.named, *self.derived)]

    @property
    def empty(self) -> bool:
        return not (self.named or self.derived or self.rejections or self.aliases or self.rules)

    def digest(self) -> str:
        """A short fingerprint of the listing: the confirmation carries it, and a forget
        whose listing changed in between is shown again instead of run."""
        parts = sorted(self.fact_ids) + sorted(f"r{r.id}" for r in self.rejections)
        parts += sorted(f"a{a}>{c}" for a, c in self.aliases) + [f"rules{self.rules}"]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def forget_preview(memory: Memory, target: str, value: str) -> ForgetPreview:
    """What forgetting by `target` ("id", "subject" or "episode") = `value` would remove:
    the facts named, the facts derived from them (transitively, as forget cascades), and
    the side records (rejections, aliases and rules of a subject; rejections of an
    episode). Reads only."""
    value = value.strip()
    if not value:
        raise InvalidInput(f"say which {target} to forget")
    scope = memory.scope
    preview = ForgetPreview(target, value)
    everything = list(memory.store.iter_all(scope=scope))
    rejections = memory.rejections(limit=REJECTIONS_KEPT)
    if target == "id":
        preview.named = [memory.get(value)]
    elif target == "subject":
        key = memory.entity(value)
        preview.value = key
        names = [key, *(a for a, c in memory.aliases().items() if c == key)]
        names_it = names_a_subject(names)  # in any role, as forget takes them
        preview.named = [f for f in everything if names_it(f.subject, f.text, f.object)]
        named = mentions(names)
        preview.rejections = [r for r in rejections if r.subject in names or named.search(r.text)]
        preview.aliases = [(a, c) for a, c in memory.aliases().items() if key in (a, c)]
        preview.rules = sum(1 for r in memory.rules() if r.subject in names)
    elif target == "episode":
        preview.named = [f for f in everything if value in f.derived_from]
        preview.rejections = [r for r in rejections if value in r.derived_from]
    else:
        raise InvalidInput(f"forget takes an id, a subject or an episode, not {target!r}")
    doomed = {f.id for f in preview.named}
    children: dict[str, list[str]] = defaultdict(list)
    for parent, child, kind in memory.store.lineage(scope=scope):
        if kind == "derived":
            children[parent].append(child)
    by_id = {f.id: f for f in everything}
    frontier = list(doomed)
    while frontier:
        frontier = [c for p in frontier for c in children.get(p, ()) if c not in doomed]
        frontier = list(dict.fromkeys(frontier))
        doomed.update(frontier)
        preview.derived += [by_id[c] for c in frontier if c in by_id]
    # a conflicted survivor whose every open conflict goes is back to active
    survivors: dict[str, Fact] = {}
    still_open: set[str] = set()
    for c in memory.conflicts():
        for mine, other in ((c.a, c.b), (c.b, c.a)):
            if other.id in doomed and mine.id not in doomed:
                survivors[mine.id] = mine
            elif other.id not in doomed and mine.id not in doomed:
                still_open.add(mine.id)
    preview.reopened = [
        f for fid, f in survivors.items() if fid not in still_open and f.status is Status.CONFLICTED
    ]
    return preview
