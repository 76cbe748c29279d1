"""The `Store` contract every backend keeps, and the parts all backends share.

A store holds facts, their vectors (the source of truth for vector search lives in the
database), full-text rows, aliases, lineage, conflicts, rejections and suppression rules.
Every read and every write names a scope; no method returns a record of another scope.
"""

from __future__ import annotations

import re
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..embed import Embedder, Kind
from ..errors import CredoError
from ..fact import Fact, Status


class StoreError(CredoError, RuntimeError):
    """The store cannot do what was asked (wrong model, missing server, bad database)."""


class DiskFull(StoreError):
    """The disk holding the database is full. The step that failed wrote nothing (its
    transaction rolled back whole) and what was stored before is intact: free space on
    the disk and try again."""


class StoreUnavailable(StoreError):
    """The database server cannot be reached (restarted, stopped, the network down). A
    read, or a write that had not committed, was retried on a new connection; this one
    still failed. Nothing half-done was kept: try again once the server is back."""

    #: whether the step that failed is known not to have committed (safe to run again)
    retry: bool = False


class ScopeError(CredoError, ValueError):
    """A scope name is empty or malformed."""


_SCOPE = re.compile(r"^[\w.:@-]{1,128}$")


#: what a survivor's decision says of the fact on its other end once that was forgotten
FORGOTTEN_OTHER = "the other fact was forgotten"
#: the events after which a fact is no longer held current
RETIRING_EVENTS = frozenset({"superseded", "retracted", "history"})


def check_scope(scope: str) -> str:
    if not isinstance(scope, str) or not _SCOPE.match(scope):
        raise ScopeError(
            f"invalid scope {scope!r}: use 1-128 letters, digits, '_', '-', '.', ':' or '@'"
        )
    return scope


@dataclass(frozen=True)
class Conflict:
    scope: str
    a: Fact
    b: Fact
    reason: str
    created_at: float
    resolved_at: float | None = None
    resolution: str | None = None
    decided_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "reason": self.reason,
            "created_at": self.created_at,
            "resolved_at": self.resolved_at,
            "resolution": self.resolution,
            "decided_by": self.decided_by,
        }


@dataclass(frozen=True)
class Event:
    """One decision about a fact, in record time: the log `credo why` reads.

    kind: new, reinforced, corroborated, refined, updated, superseded, history, conflict,
    resolved, retracted, reasserted, imported. `other` names the fact on the other end
    (the one that superseded it, the one it conflicts with); `by` who or what decided
    (the source of a statement, "resolver", or the person who settled or retracted);
    `confidence` the fact's confidence after the decision; `detail` what else was known
    (the statement as said, its episodes, the reason)."""

    scope: str
    fact_id: str
    at: float
    kind: str
    other: str | None = None
    by: str = ""
    confidence: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact_id": self.fact_id,
            "at": self.at,
            "kind": self.kind,
            "other": self.other,
            "by": self.by,
            "confidence": self.confidence,
            "detail": dict(self.detail),
        }


@dataclass(frozen=True)
class Rejection:
    scope: str
    text: str
    code: str
    reason: str
    source: str = "user"
    subject: str | None = None
    derived_from: tuple[str, ...] = ()
    created_at: float = 0.0
    id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "scope": self.scope,
            "text": self.text,
            "code": self.code,
            "reason": self.reason,
            "source": self.source,
            "subject": self.subject,
            "derived_from": list(self.derived_from),
            "created_at": self.created_at,
        }


@dataclass(frozen=True)
class Rule:
    """A stored suppression rule ("don't remember my address")."""

    id: str
    scope: str
    pattern: str
    subject: str | None
    created_at: float
    origin: str = ""  # the turn or command that created it

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "scope": self.scope,
            "pattern": self.pattern,
            "subject": self.subject,
            "created_at": self.created_at,
            "origin": self.origin,
        }


@dataclass(frozen=True)
class IngestOutcome:
    """What became of one episode of an ingest: ``done`` (its candidates were judged) or
    ``failed`` (with the reason), under a key stable across runs of the same input (see
    `credo.ingest.episode_key`). `refs` are the episode's session and turn ids, so that
    forgetting the episode forgets this record too. No conversation text is kept."""

    scope: str
    key: str
    status: str  # "done" | "failed"
    reason: str = ""
    refs: tuple[str, ...] = ()
    accepted: int = 0
    rejected: int = 0
    updated_at: float = 0.0


@dataclass
class ForgetReport:
    """What a forget removed. Counts only: the report itself keeps no forgotten text.

    `erased` says whether the erase step ran once the delete had committed, so that no
    copy of what was removed is left in the store's files (SQLite: the database, its -wal
    and -shm; PostgreSQL: every table and index file, rewritten). When something held it
    up (a reader of an older snapshot, a lock), the erase is recorded as pending and
    `pending_erase` counts the forgets still waiting: `Store.erase()` completes them."""

    scope: str
    fact_ids: list[str] = field(default_factory=list)
    vectors: int = 0
    fts_rows: int = 0
    lineage: int = 0
    conflicts: int = 0
    rejections: int = 0
    aliases: int = 0
    rules: int = 0
    ingest_episodes: int = 0  # records of episodes ingested (credo ingest's resume)
    reopened: list[str] = field(default_factory=list)  # conflict partners back to active
    erased: bool = False
    pending_erase: int = 0

    @property
    def facts(self) -> int:
        return len(self.fact_ids)

    @property
    def removed(self) -> bool:
        """Whether anything was deleted (and so needs erasing from the files)."""
        return bool(
            self.fact_ids or self.rejections or self.aliases or self.rules or self.ingest_episodes
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "facts": self.facts,
            "fact_ids": self.fact_ids,
            "vectors": self.vectors,
            "fts_rows": self.fts_rows,
            "lineage": self.lineage,
            "conflicts": self.conflicts,
            "rejections": self.rejections,
            "aliases": self.aliases,
            "rules": self.rules,
            "ingest_episodes": self.ingest_episodes,
            "reopened": self.reopened,
            "erased": self.erased,
            "pending_erase": self.pending_erase,
        }


Vector = npt.NDArray[np.float32]


def mentions(names: Sequence[str]) -> re.Pattern[str]:
    """A pattern finding any of `names` (entity keys, as `normalize_entity` makes them) as
    a whole word in text, case-insensitively: 'arttu' finds "Arttu's cat", not "Arttuan";
    'anna smith' finds "Anna  Smith". For forgetting what a text says about a subject."""
    spelled = sorted({n for n in names if n and n.strip()}, key=len, reverse=True)
    if not spelled:
        return re.compile(r"(?!)")
    words = [r"\s+".join(re.escape(w) for w in name.split()) for name in spelled]
    return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


#: the largest LIMIT or OFFSET both backends take (a 64-bit integer)
SQL_MAX = 2**63 - 1


def sql_count(value: int) -> int:
    """A count for LIMIT or OFFSET: a larger one means "all" (or "past the end"), as it
    would if the database could hold it, never an overflow error."""
    return max(0, min(int(value), SQL_MAX))


def names_a_subject(names: Sequence[str]) -> Callable[[str | None, str, str | None], bool]:
    """Whether a fact (its subject, text and object) names one of `names` (a subject's
    key and its aliases) in any role: as its subject, or as a word of its text or object
    ("Sanna is married to Arttu" names 'arttu'). What forget by subject takes."""
    pattern = mentions(names)
    keys = set(names)

    def names_it(subject: str | None, text: str, obj: str | None) -> bool:
        return (
            subject in keys or bool(pattern.search(text or "")) or bool(pattern.search(obj or ""))
        )

    return names_it


class Store(ABC):
    """The contract. Backends implement the abstract methods; the rest is shared."""

    embedder: Embedder
    #: whether `nearest` may run on a worker thread while the caller's thread reads from
    #: the store, without the two waiting on each other (a backend with a connection of
    #: its own for it): recall then runs the vector search beside the full-text one
    concurrent_nearest = False

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._embed_cache: OrderedDict[tuple[str, str], Vector] = OrderedDict()
        self._embed_lock = threading.Lock()

    # -- embeddings (shared) -------------------------------------------------------------
    def embed(self, texts: Sequence[str], *, kind: Kind = "document") -> list[Vector]:
        """Embed with a small cache, so a fact embedded to resolve it is not embedded again
        to store it."""
        with self._embed_lock:
            found = {t: self._embed_cache.get((kind, t)) for t in dict.fromkeys(texts)}
        missing = [t for t, v in found.items() if v is None]
        if missing:  # embed outside the lock: other threads need not wait for the model
            vectors = self.embedder.embed_batch(missing, kind=kind)
            for text, vec in zip(missing, vectors, strict=True):
                found[text] = np.asarray(vec, dtype=np.float32)
        with self._embed_lock:
            for text, vec in found.items():
                self._embed_cache[(kind, text)] = vec  # type: ignore[assignment]
                self._embed_cache.move_to_end((kind, text))
            while len(self._embed_cache) > 4096:
                self._embed_cache.popitem(last=False)
        return [found[t] for t in texts]  # type: ignore[misc]

    def forget_cached_text(self, texts: Sequence[str]) -> None:
        with self._embed_lock:
            for text in texts:
                for kind in ("query", "document"):
                    self._embed_cache.pop((kind, text), None)

    # -- transactions --------------------------------------------------------------------
    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction (nestable: inner blocks join the outer one). Writers that
        read-then-write on a key hold the lock for the whole block."""

    @abstractmethod
    def lock_key(self, scope: str, subject: str | None, predicate: str | None) -> None:
        """Within a transaction, serialise writers on one key (no-op where the whole
        database is locked for writing, as in SQLite)."""

    # -- facts ---------------------------------------------------------------------------
    @abstractmethod
    def put(self, fact: Fact, vector: Vector | None = None) -> None:
        """Insert a fact, or update the mutable fields (status, confidence, lineage, time)
        of a stored one. Text and key never change: that would overwrite a fact."""

    def put_many(self, facts: Sequence[Fact]) -> None:
        vectors = self.embed([f.text for f in facts])
        with self.transaction():
            for fact, vec in zip(facts, vectors, strict=True):
                self.put(fact, vec)

    @abstractmethod
    def get(self, fact_id: str, *, scope: str) -> Fact | None: ...

    @abstractmethod
    def get_many(self, ids: Sequence[str], *, scope: str) -> list[Fact]:
        """Facts for ids, in the order given; ids of other scopes or unknown are skipped."""

    def subjects_of(self, ids: Sequence[str], *, scope: str) -> dict[str, str | None]:
        """Each fact's subject key (None for a fact without a key), for the ids of this
        scope: what recall asks of the facts a search found when the entity a query names
        has more facts than the answer holds, without reading whole rows."""
        return {f.id: f.subject for f in self.get_many(ids, scope=scope)}

    @abstractmethod
    def all(
        self,
        *,
        scope: str,
        status: Status | None = None,
        subject: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]: ...

    @abstractmethod
    def count(self, *, scope: str, status: Status | None = None) -> int: ...

    @abstractmethod
    def scopes(self) -> list[str]: ...

    def ids_held_elsewhere(self, ids: Sequence[str], *, scope: str) -> set[str]:
        """Which of `ids` a fact of another scope than `scope` holds (a fact's id is unique
        in a database). What an import asks to give a record a free id; the answer never
        reaches a caller of another scope. This default asks scope by scope; a store that
        can ask once does."""
        left = set(ids)
        used: set[str] = set()
        for other in self.scopes():
            if not left:
                break
            if other != scope:
                hits = {f.id for f in self.get_many(sorted(left), scope=other)}
                used |= hits
                left -= hits
        return used

    @abstractmethod
    def by_key(self, subject: str, predicate: str, *, scope: str) -> list[Fact]: ...

    @abstractmethod
    def by_subject(
        self, subject: str, *, scope: str, live_only: bool = True, limit: int = 500
    ) -> list[Fact]: ...

    @abstractmethod
    def known_subjects(self, names: Sequence[str], *, scope: str) -> set[str]:
        """Which of `names` are subjects of live facts in the scope (an indexed lookup, so
        recall can spot entities in a query without scanning the scope)."""

    # -- search --------------------------------------------------------------------------
    @abstractmethod
    def vector_search(self, query: str | Vector, *, scope: str, k: int) -> list[tuple[str, float]]:
        """(fact id, cosine) best first, over every fact of the scope with a vector."""

    @abstractmethod
    def lexical_search(self, query: str, *, scope: str, k: int) -> list[tuple[str, float]]:
        """(fact id, score) best first. Any user text is safe: it is quoted, never parsed."""

    @abstractmethod
    def vectors_of(self, ids: Sequence[str], *, scope: str) -> dict[str, Vector]: ...

    def nearest(self, query: Vector, *, scope: str, k: int) -> list[tuple[str, float, Vector]]:
        """`vector_search` with each hit's stored vector (recall's feedback round re-scores
        them): one round trip where the backend can make it one."""
        found = self.vector_search(query, scope=scope, k=k)
        vecs = self.vectors_of([fid for fid, _ in found], scope=scope)
        return [(fid, score, vecs[fid]) for fid, score in found if fid in vecs]

    def lexical_nearest(
        self, query: str, *, scope: str, k: int
    ) -> list[tuple[str, float, Vector | None]]:
        """`lexical_search` with each hit's stored vector (None for a fact without one),
        for recall's feedback round: one round trip where the backend can make it one."""
        found = self.lexical_search(query, scope=scope, k=k)
        vecs = self.vectors_of([fid for fid, _ in found], scope=scope)
        return [(fid, score, vecs.get(fid)) for fid, score in found]

    # -- lineage and conflicts -----------------------------------------------------------
    @abstractmethod
    def add_lineage(self, scope: str, parent: str, child: str, kind: str) -> None: ...

    @abstractmethod
    def lineage(self, *, scope: str, fact_id: str | None = None) -> list[tuple[str, str, str]]:
        """(parent, child, kind) rows of the scope, or only those touching one fact."""

    @abstractmethod
    def record_conflict(
        self, scope: str, a: str, b: str, reason: str, *, created_at: float | None = None
    ) -> None: ...

    @abstractmethod
    def conflicts(self, *, scope: str, include_resolved: bool = False) -> list[Conflict]: ...

    @abstractmethod
    def conflicts_of(self, fact_id: str, *, scope: str) -> list[Fact]:
        """The live facts an unresolved conflict ties to this one."""

    @abstractmethod
    def settle_conflict(
        self,
        scope: str,
        a: str,
        b: str,
        *,
        resolution: str,
        decided_by: str,
        resolved_at: float | None = None,
    ) -> None: ...

    # -- the decision log ----------------------------------------------------------------
    @abstractmethod
    def add_events(self, events: Sequence[Event]) -> None:
        """Append decisions to the log (in the caller's transaction when one is open)."""

    @abstractmethod
    def events(self, *, scope: str, fact_ids: Sequence[str] | None = None) -> list[Event]:
        """The log of the scope, or of some facts (as subject or as `other`), oldest first."""

    def retired_at(self, ids: Sequence[str], *, scope: str) -> dict[str, float]:
        """When each fact stopped being held current (superseded, retracted, or stored
        as history), in record time; facts still live are absent."""
        out: dict[str, float] = {}
        for event in self.events(scope=scope, fact_ids=ids):
            if event.kind in RETIRING_EVENTS and event.fact_id in ids:
                out.setdefault(event.fact_id, event.at)
        return out

    # -- aliases, rejections, rules ------------------------------------------------------
    @abstractmethod
    def aliases(self, *, scope: str) -> dict[str, str]: ...

    @abstractmethod
    def set_alias(self, scope: str, alias: str, canonical: str) -> None: ...

    @abstractmethod
    def remove_alias(self, scope: str, alias: str) -> bool: ...

    @abstractmethod
    def add_rejection(self, rejection: Rejection, *, keep: int | None = None) -> None: ...

    @abstractmethod
    def rejections(self, *, scope: str, limit: int = 100) -> list[Rejection]: ...

    @abstractmethod
    def prune_rejections(self, *, scope: str, keep: int) -> int: ...

    @abstractmethod
    def add_rule(self, rule: Rule) -> None: ...

    @abstractmethod
    def rules(self, *, scope: str) -> list[Rule]: ...

    @abstractmethod
    def remove_rule(self, scope: str, rule_id: str) -> bool: ...

    # -- ingest bookkeeping (resumable `credo ingest`) ------------------------------------
    @abstractmethod
    def ingest_outcomes(self, *, scope: str, keys: Sequence[str]) -> dict[str, IngestOutcome]:
        """The recorded outcome of each of these episode keys that has one."""

    @abstractmethod
    def record_ingest_outcome(self, outcome: IngestOutcome) -> None:
        """Record (or replace) an episode's outcome, in the caller's transaction if open."""

    @abstractmethod
    def drop_rejections_from(self, *, scope: str, refs: Sequence[str]) -> int:
        """Delete the rejections derived from any of `refs` (turn ids); how many. An
        ingest redoing an episode (``--force``) calls it so no refusal is kept twice."""

    # -- forgetting ----------------------------------------------------------------------
    def forget(
        self,
        *,
        scope: str,
        ids: Sequence[str] = (),
        subject: str | None = None,
        episode: str | None = None,
        everything: bool = False,
    ) -> ForgetReport:
        """Delete facts and everything derived from them: vectors, FTS rows, lineage,
        conflicts, rejections from the same subject or episode; cascade to facts derived
        from what is removed. The only delete in credo. One algorithm for every backend;
        the backends supply the statements (`_forget_*`)."""
        check_scope(scope)
        report = ForgetReport(scope)
        texts: list[str] = []
        with self.transaction():
            self._forget_lock(scope)
            targets = dict.fromkeys(
                self._forget_targets(
                    scope, ids=ids, subject=subject, episode=episode, everything=everything
                )
            )
            frontier = list(targets)
            while frontier:  # facts derived (inferred) from a forgotten fact go with it
                frontier = [
                    f
                    for f in dict.fromkeys(self._forget_children(scope, frontier))
                    if f not in targets
                ]
                targets.update(dict.fromkeys(frontier))
            report.fact_ids = list(targets)
            if report.fact_ids:
                texts, partners = self._forget_rows(scope, report.fact_ids, report)
                for partner in partners:  # a survivor with no open conflict is back to active
                    if partner not in targets and self._forget_reopen(partner):
                        report.reopened.append(partner)
                self._forget_references(scope, report.fact_ids)
            self._forget_side_records(
                scope, subject=subject, episode=episode, everything=everything, report=report
            )
            if report.removed:
                self._forget_mark_erase(scope, report)
        self.forget_cached_text(texts)
        # after the commit: erase what the delete left in the files (or say it is pending)
        report.erased = self._forget_scrub() or not report.removed
        report.pending_erase = self.pending_erase()
        return report

    # -- erasing -------------------------------------------------------------------------
    def erase(self, *, wait: float | None = None) -> bool:
        """Complete every pending erase: rewrite or fold whatever still holds a copy of
        forgotten records, waiting at most `wait` seconds (the store's default when None)
        for readers of older snapshots and for locks. True when nothing is left pending."""
        return True

    def pending_erase(self) -> int:
        """How many forgets still wait for their erase step (0 once `erase` has run)."""
        return 0

    def _forget_lock(self, scope: str) -> None:  # noqa: B027 - an optional hook
        """Keep writers of the scope from deciding about facts being forgotten (a no-op
        where a write transaction locks the whole database)."""

    @abstractmethod
    def _forget_targets(
        self,
        scope: str,
        *,
        ids: Sequence[str],
        subject: str | None,
        episode: str | None,
        everything: bool,
    ) -> list[str]:
        """Ids of the scope's facts named by id, subject, source episode, or all of them."""

    @abstractmethod
    def _forget_children(self, scope: str, parents: Sequence[str]) -> list[str]:
        """Facts linked to `parents` by 'derived' lineage."""

    @abstractmethod
    def _forget_rows(
        self, scope: str, doomed: Sequence[str], report: ForgetReport
    ) -> tuple[list[str], list[str]]:
        """Delete the facts with their conflicts, lineage, vectors, full-text rows and
        provenance, counting into `report`; return their texts and conflict partners."""

    @abstractmethod
    def _forget_reopen(self, partner: str) -> bool:
        """Set a conflicted fact left with no open conflict back to active; say if it was."""

    @abstractmethod
    def _forget_references(self, scope: str, doomed: Sequence[str]) -> None:
        """Surviving facts keep no reference (derived_from, superseded_by) to `doomed`."""

    @abstractmethod
    def _forget_side_records(
        self,
        scope: str,
        *,
        subject: str | None,
        episode: str | None,
        everything: bool,
        report: ForgetReport,
    ) -> None:
        """Rejections and aliases of a forgotten subject or episode, and the ingest records
        of a forgotten episode; with `everything`, also the scope's rules and ingest
        records."""

    def _forget_mark_erase(self, scope: str, report: ForgetReport) -> None:  # noqa: B027
        """Within the forget's transaction: record that its erase step is due, so that a
        crash between the commit and the erase leaves it pending, never forgotten."""

    def _forget_scrub(self) -> bool:
        """After the commit: whatever the backend does so deleted bytes do not linger.
        True when it is done; False when it is left pending (see `erase`)."""
        return self.erase()

    # -- models --------------------------------------------------------------------------
    @abstractmethod
    def reindex(self) -> int:
        """Re-embed every fact with the current embedder; returns how many."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def iter_all(self, *, scope: str, batch: int = 1000) -> Iterator[Fact]:
        offset = 0
        while True:
            page = self.all(scope=scope, limit=batch, offset=offset)
            if not page:
                return
            yield from page
            offset += len(page)
