"""What the SQL stores (SQLite and PostgreSQL) do alike, written once: the methods of the
`Store` contract whose statements differ only in their dialect (`store.sql` builds them).

A backend subclasses `SQLStore`, names its `dialect`, runs statements (`_rows`, `_run`,
`_run_many`), says how a read is guarded (`_reading`) and keeps for itself what truly
differs: connections, how its outermost transaction begins and ends (`_outermost`), locks,
inserting a fact (its vector and full-text rows: `_insert`), search, what a forget removes
beyond the rows (`_forget_indexed`, `_forget_lock`, `_forget_mark_erase`), erase, schema
and migrations.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar, TypeVar, cast

import numpy as np

from ..fact import Fact, Status
from . import sql
from .base import (
    FORGOTTEN_OTHER,
    Conflict,
    Event,
    ForgetReport,
    IngestOutcome,
    Rejection,
    Rule,
    Store,
    StoreError,
    Vector,
    check_scope,
    mentions,
    names_a_subject,
)
from .sql import Dialect, nul, scrub_ids

F = TypeVar("F", bound=Callable[..., Any])


def reading(method: F) -> F:
    """A read of several statements, guarded as the backend guards reads (`_reading`)."""

    @functools.wraps(method)
    def wrapper(self: SQLStore, *args: Any, **kwargs: Any) -> Any:
        with self._reading():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)


class SQLStore(Store):
    """The `Store` methods both SQL backends share."""

    dialect: ClassVar[Dialect]

    # -- what a backend supplies ---------------------------------------------------------
    @abstractmethod
    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run a statement; its rows."""

    @abstractmethod
    def _run(self, statement: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""

    @abstractmethod
    def _run_many(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once for each row of parameters."""

    def _reading(self) -> AbstractContextManager[None]:
        """What a read holds while it runs (SQLite: the connection's lock)."""
        return contextlib.nullcontext()

    @abstractmethod
    def _insert(self, fact: Fact, vector: Vector | None) -> None:
        """Store a new fact with its vector (and full-text row), in `put`'s transaction."""

    #: where the store is, for messages (a path, or a server and schema)
    where: str
    #: the lock every write (and, in SQLite, every read) holds
    _lock: threading.RLock
    #: how deep the open transaction is nested (0: none open)
    _depth: int
    #: the embedder that made the stored vectors (None: no vectors yet)
    _stored_model: str | None

    # -- transactions --------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:  # an inner block joins the open transaction
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            with self._outermost():
                yield

    @abstractmethod
    def _outermost(self) -> AbstractContextManager[None]:
        """Begin the outermost transaction; commit it, or roll it back."""

    # -- models --------------------------------------------------------------------------
    def _check_model(self) -> None:
        rows = self._rows("SELECT model FROM vectors LIMIT 1")
        self._stored_model = str(rows[0][0]) if rows else None

    def _require_model(self) -> None:
        if self._stored_model and self._stored_model != self.embedder.name:
            raise StoreError(
                f"the vectors in {self.where} were made by {self._stored_model!r}, but the "
                f"embedder is {self.embedder.name!r}: run `credo reindex` to re-embed with "
                f"{self.embedder.name!r}, or use CREDO_EMBEDDER={self._stored_model}"
            )

    # -- facts ---------------------------------------------------------------------------
    def put(self, fact: Fact, vector: Vector | None = None) -> None:
        check_scope(fact.scope)
        sql.check_fact_text(fact)
        d = self.dialect
        with self.transaction():
            found = self._rows(*sql.fact_key_of(d, fact.id))
            if not found:
                self._insert(fact, vector)
                return
            row = found[0]
            if row[0] != fact.scope:
                raise StoreError(f"fact {fact.id} belongs to another scope")
            if tuple(row[1:]) != (fact.text, fact.subject, fact.predicate, fact.object):
                raise StoreError(
                    f"fact {fact.id}: text and key are never overwritten; store a new fact"
                )
            self._run(*sql.update_fact(d, fact))
            self._run(*sql.delete_provenance(d, fact.id))
            self._write_provenance(fact)

    def _write_provenance(self, fact: Fact) -> None:
        rows = sql.provenance_rows(fact)
        if rows:
            self._run_many(sql.insert_provenance(self.dialect), rows)

    def _vector(self, fact: Fact, vector: Vector | None) -> Vector:
        """The vector a new fact is stored with: the one given, or its text embedded."""
        vec = vector if vector is not None else self.embed([fact.text])[0]
        vec = np.asarray(vec, dtype=np.float32)
        if vec.shape != (self.embedder.dim,):
            raise StoreError(f"vector of shape {vec.shape}, expected ({self.embedder.dim},)")
        return vec

    def get(self, fact_id: str, *, scope: str) -> Fact | None:
        found = self.get_many([fact_id], scope=scope)
        return found[0] if found else None

    def _fact_rows(self, columns: str, ids: Sequence[str], scope: str) -> list[Any]:
        """`columns` (the id first) of the facts of `scope` with these ids, any order."""
        rows: list[Any] = []
        for chunk in self.dialect.chunks([i for i in dict.fromkeys(ids) if not nul(i)]):
            rows += self._rows(*sql.facts_by_id(self.dialect, columns, scope, chunk))
        return rows

    @reading
    def get_many(self, ids: Sequence[str], *, scope: str) -> list[Fact]:
        check_scope(scope)
        d = self.dialect
        by_id = {
            r[0]: sql.fact_from_row(d, r) for r in self._fact_rows(sql.FACT_COLUMNS, ids, scope)
        }
        return [by_id[i] for i in dict.fromkeys(ids) if i in by_id]

    @reading
    def ids_held_elsewhere(self, ids: Sequence[str], *, scope: str) -> set[str]:
        check_scope(scope)
        held: set[str] = set()
        for chunk in self.dialect.chunks([i for i in dict.fromkeys(ids) if not nul(i)]):
            held |= {
                str(r[0]) for r in self._rows(*sql.fact_ids_elsewhere(self.dialect, scope, chunk))
            }
        return held

    @reading
    def subjects_of(self, ids: Sequence[str], *, scope: str) -> dict[str, str | None]:
        check_scope(scope)
        return {str(r[0]): r[1] for r in self._fact_rows("id, subject", ids, scope)}

    @reading
    def all(
        self,
        *,
        scope: str,
        status: Status | None = None,
        subject: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        check_scope(scope)
        if nul(subject):
            return []
        query = sql.all_facts(
            self.dialect, scope, status=status, subject=subject, limit=limit, offset=offset
        )
        return [sql.fact_from_row(self.dialect, r) for r in self._rows(*query)]

    @reading
    def count(self, *, scope: str, status: Status | None = None) -> int:
        check_scope(scope)
        rows = self._rows(*sql.count_facts(self.dialect, scope, status))
        return int(rows[0][0]) if rows else 0

    @reading
    def scopes(self) -> list[str]:
        return [str(r[0]) for r in self._rows(*sql.scopes(self.dialect))]

    @reading
    def by_key(self, subject: str, predicate: str, *, scope: str) -> list[Fact]:
        check_scope(scope)
        if nul(subject, predicate):
            return []
        rows = self._rows(*sql.by_key(self.dialect, scope, subject, predicate))
        return [sql.fact_from_row(self.dialect, r) for r in rows]

    @reading
    def by_subject(
        self, subject: str, *, scope: str, live_only: bool = True, limit: int = 500
    ) -> list[Fact]:
        check_scope(scope)
        if nul(subject):
            return []
        query = sql.by_subject(self.dialect, scope, subject, live_only=live_only, limit=limit)
        return [sql.fact_from_row(self.dialect, r) for r in self._rows(*query)]

    @reading
    def known_subjects(self, names: Sequence[str], *, scope: str) -> set[str]:
        check_scope(scope)
        found: set[str] = set()
        for chunk in self.dialect.chunks([n for n in dict.fromkeys(names) if not nul(n)]):
            rows = self._rows(*sql.known_subjects(self.dialect, scope, chunk))
            found.update(str(r[0]) for r in rows)
        return found

    # -- the decision log ----------------------------------------------------------------
    def add_events(self, events: Sequence[Event]) -> None:
        # no stored fact has an id with NUL: such an event names none, and is dropped
        events = [e for e in events if not nul(e.fact_id, e.kind, e.other, e.by)]
        if not events:
            return
        for e in events:
            check_scope(e.scope)
        d = self.dialect
        with self.transaction():
            self._run_many(
                sql.insert_event(d),
                [
                    (
                        e.scope,
                        e.fact_id,
                        e.at,
                        e.kind,
                        e.other,
                        e.by,
                        e.confidence,
                        d.dump_obj(e.detail),
                        e.fact_id,
                        e.scope,
                    )
                    for e in events
                ],
            )

    @reading
    def events(self, *, scope: str, fact_ids: Sequence[str] | None = None) -> list[Event]:
        check_scope(scope)
        d = self.dialect
        if fact_ids is None:
            rows = self._rows(*sql.events(d, scope))
        else:
            rows = []
            for chunk in d.chunks([i for i in dict.fromkeys(fact_ids) if not nul(i)]):
                rows += self._rows(*sql.events(d, scope, chunk))
            rows = sorted({r[8]: r for r in rows}.values(), key=lambda r: r[8])
        return [
            Event(
                str(r[0]),
                str(r[1]),
                float(r[2]),
                str(r[3]),
                r[4],
                str(r[5]),
                None if r[6] is None else float(r[6]),
                d.load_obj(r[7]),
            )
            for r in rows
        ]

    # -- lineage and conflicts -----------------------------------------------------------
    def add_lineage(self, scope: str, parent: str, child: str, kind: str) -> None:
        check_scope(scope)
        if nul(parent, child, kind):
            return  # no stored fact has such an id: nothing to link
        with self.transaction():
            self._run(*sql.insert_lineage(self.dialect, scope, parent, child, kind, time.time()))

    @reading
    def lineage(self, *, scope: str, fact_id: str | None = None) -> list[tuple[str, str, str]]:
        check_scope(scope)
        if nul(fact_id):
            return []
        rows = self._rows(*sql.lineage(self.dialect, scope, fact_id))
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    def record_conflict(
        self, scope: str, a: str, b: str, reason: str, *, created_at: float | None = None
    ) -> None:
        check_scope(scope)
        if nul(a, b):
            raise StoreError(f"cannot record a conflict: {a!r} and {b!r} are not both in {scope}")
        sql.no_nul("conflict reason", reason)
        d = self.dialect
        with self.transaction():
            rows = self._rows(*sql.count_in_scope(d, scope, a, b))
            if not rows or rows[0][0] != 2:
                raise StoreError(f"cannot record a conflict: {a} and {b} are not both in {scope}")
            self._run(*sql.insert_conflict(d, scope, a, b, reason, created_at or time.time()))

    @reading
    def conflicts(self, *, scope: str, include_resolved: bool = False) -> list[Conflict]:
        check_scope(scope)
        rows = self._rows(*sql.conflicts(self.dialect, scope, include_resolved=include_resolved))
        facts = {f.id: f for f in self.get_many([i for r in rows for i in r[:2]], scope=scope)}
        return [
            Conflict(scope, facts[r[0]], facts[r[1]], r[2], r[3], r[4], r[5], r[6])
            for r in rows
            if r[0] in facts and r[1] in facts
        ]

    @reading
    def conflicts_of(self, fact_id: str, *, scope: str) -> list[Fact]:
        check_scope(scope)
        if nul(fact_id):
            return []
        rows = self._rows(*sql.conflict_partners(self.dialect, scope, fact_id))
        return [f for f in self.get_many([r[0] for r in rows], scope=scope) if f.is_live]

    def settle_conflict(
        self,
        scope: str,
        a: str,
        b: str,
        *,
        resolution: str,
        decided_by: str,
        resolved_at: float | None = None,
    ) -> None:
        check_scope(scope)
        sql.no_nul("conflict settlement", resolution, decided_by)
        if nul(a, b):
            return  # no such conflict
        at = resolved_at or time.time()
        with self.transaction():
            self._run(*sql.settle_conflict(self.dialect, scope, a, b, resolution, decided_by, at))

    # -- aliases, rejections, rules ------------------------------------------------------
    @reading
    def aliases(self, *, scope: str) -> dict[str, str]:
        check_scope(scope)
        return {str(r[0]): str(r[1]) for r in self._rows(*sql.aliases(self.dialect, scope))}

    def set_alias(self, scope: str, alias: str, canonical: str) -> None:
        check_scope(scope)
        sql.no_nul("alias", alias, canonical)
        with self.transaction():
            self._run(*sql.set_alias(self.dialect, scope, alias, canonical, time.time()))

    def remove_alias(self, scope: str, alias: str) -> bool:
        check_scope(scope)
        if nul(alias):
            return False
        with self.transaction():
            return self._run(*sql.remove_alias(self.dialect, scope, alias)) > 0

    def add_rejection(self, rejection: Rejection, *, keep: int | None = None) -> None:
        check_scope(rejection.scope)
        at = rejection.created_at or time.time()
        with self.transaction():
            self._run(*sql.insert_rejection(self.dialect, rejection, at))
            if keep is not None:
                self.prune_rejections(scope=rejection.scope, keep=keep)

    @reading
    def rejections(self, *, scope: str, limit: int = 100) -> list[Rejection]:
        check_scope(scope)
        d = self.dialect
        return [
            Rejection(r[1], r[2], r[3], r[4], r[5], r[6], tuple(d.load_list(r[7])), r[8], r[0])
            for r in self._rows(*sql.rejections(d, scope, limit))
        ]

    def prune_rejections(self, *, scope: str, keep: int) -> int:
        check_scope(scope)
        with self.transaction():
            return self._run(*sql.prune_rejections(self.dialect, scope, keep))

    def drop_rejections_from(self, *, scope: str, refs: Sequence[str]) -> int:
        check_scope(scope)
        d = self.dialect
        dropped = 0
        with self.transaction():
            for chunk in d.chunks([r for r in refs if not nul(r)]):
                dropped += self._run(*sql.drop_rejections_from(d, scope, chunk))
        return dropped

    def add_rule(self, rule: Rule) -> None:
        check_scope(rule.scope)
        sql.no_nul("rule", rule.id, rule.pattern, rule.subject, rule.origin)
        d = self.dialect
        with self.transaction():
            if d.rules_keyed_by_id:  # one id, one rule: never another scope's
                owner = self._rows(*sql.rule_owner(d, rule.id))
                if owner and owner[0][0] != rule.scope:
                    raise StoreError(f"rule {rule.id} belongs to another scope")
            self._run(*sql.upsert_rule(d, rule))

    @reading
    def rules(self, *, scope: str) -> list[Rule]:
        check_scope(scope)
        return [Rule(*r) for r in self._rows(*sql.rules(self.dialect, scope))]

    def remove_rule(self, scope: str, rule_id: str) -> bool:
        check_scope(scope)
        if nul(rule_id):
            return False
        with self.transaction():
            return self._run(*sql.remove_rule(self.dialect, scope, rule_id)) > 0

    # -- ingest bookkeeping --------------------------------------------------------------
    @reading
    def ingest_outcomes(self, *, scope: str, keys: Sequence[str]) -> dict[str, IngestOutcome]:
        check_scope(scope)
        d = self.dialect
        out: dict[str, IngestOutcome] = {}
        for chunk in d.chunks([k for k in keys if not nul(k)]):
            for r in self._rows(*sql.ingest_outcomes(d, scope, chunk)):
                out[str(r[0])] = IngestOutcome(
                    scope,
                    str(r[0]),
                    str(r[1]),
                    str(r[2]),
                    tuple(d.load_list(r[3])),
                    int(r[4]),
                    int(r[5]),
                    r[6],
                )
        return out

    def record_ingest_outcome(self, outcome: IngestOutcome) -> None:
        check_scope(outcome.scope)
        sql.no_nul("an ingest record", outcome.key, outcome.reason, *outcome.refs)
        at = outcome.updated_at or time.time()
        with self.transaction():
            self._run(*sql.upsert_ingest_outcome(self.dialect, outcome, at))

    # -- forgetting ----------------------------------------------------------------------
    def _forget_targets(
        self,
        scope: str,
        *,
        ids: Sequence[str],
        subject: str | None,
        episode: str | None,
        everything: bool,
    ) -> list[str]:
        d = self.dialect
        # named by id: in the order they were stored, as every other way of naming them
        named: list[tuple[int, str]] = []
        for chunk in d.chunks([i for i in ids if not nul(i)]):
            named += [(int(r[1]), str(r[0])) for r in self._rows(*sql.fact_ids_in(d, scope, chunk))]
        found = [fid for _, fid in sorted(named)]
        # nothing stored can match a NUL: such a subject or episode names nothing
        if subject is not None and not nul(subject):
            # every fact that names the subject (or an alias of it), in any role
            names = self._names_of(scope, subject)
            names_it = names_a_subject(names)
            found += [
                str(r[0])
                for r in self._rows(*sql.facts_maybe_naming(d, scope, names))
                if names_it(r[1], r[2], r[3])
            ]
        if episode is not None and not nul(episode):
            found += [str(r[0]) for r in self._rows(*sql.facts_of_episode(d, scope, episode))]
        if everything:
            found += [str(r[0]) for r in self._rows(*sql.facts_of_scope(d, scope))]
        return found

    def _names_of(self, scope: str, subject: str) -> list[str]:
        """A subject's key and its aliases."""
        aliases = self._rows(*sql.alias_names(self.dialect, scope, subject))
        return [subject, *(str(r[0]) for r in aliases)]

    def _forget_children(self, scope: str, parents: Sequence[str]) -> list[str]:
        found: list[str] = []
        for chunk in self.dialect.chunks(parents):
            found += [
                str(r[0]) for r in self._rows(*sql.derived_children(self.dialect, scope, chunk))
            ]
        return found

    def _forget_rows(
        self, scope: str, doomed: Sequence[str], report: ForgetReport
    ) -> tuple[list[str], list[str]]:
        d = self.dialect
        texts: list[str] = []
        partners: list[str] = []
        for chunk in d.chunks(doomed):
            texts += [str(r[0]) for r in self._rows(*sql.texts_of(d, chunk))]
            partners += [str(r[0]) for r in self._rows(*sql.partners_of(d, chunk))]
            report.conflicts += self._run(
                *sql.delete_linked(d, "conflicts", ("fact_a", "fact_b"), chunk)
            )
            report.lineage += self._run(
                *sql.delete_linked(d, "lineage", ("parent_id", "child_id"), chunk)
            )
            self._forget_indexed(scope, chunk, report)
            report.vectors += self._run(*sql.delete_linked(d, "vectors", ("fact_id",), chunk))
            self._run(*sql.delete_linked(d, "provenance", ("fact_id",), chunk))
            self._run(*sql.delete_linked(d, "fact_events", ("fact_id",), chunk))
            removed = self._run(*sql.delete_linked(d, "facts", ("id",), chunk))
            if self.text_index_in_row:  # the full-text entry is a column of the row
                report.fts_rows += removed
        return texts, list(dict.fromkeys(partners))

    #: whether a fact's full-text entry is part of its row (deleted with it)
    text_index_in_row: ClassVar[bool] = False

    def _forget_indexed(self, scope: str, doomed: Sequence[str], report: ForgetReport) -> None:  # noqa: B027 - an optional hook
        """Before the facts `doomed` are deleted: remove what the backend indexes of them
        outside their rows (full-text rows, a vector change log), counting into `report`."""

    def _forget_reopen(self, partner: str) -> bool:
        return self._run(*sql.reopen(self.dialect, partner)) > 0

    def _forget_references(self, scope: str, doomed: Sequence[str]) -> None:
        d = self.dialect
        gone = set(doomed)
        for chunk in d.chunks(doomed):
            for fid, refs in self._rows(*sql.derived_from_refs(d, scope, chunk)):
                kept = [r for r in d.load_list(refs) if r not in gone]
                self._run(*sql.set_derived_from(d, str(fid), kept))
            self._run(*sql.delete_refs(d, scope, chunk))
            self._run(*sql.unsupersede(d, scope, chunk))
            self._run(*sql.forget_other(d, scope, chunk, {"note": FORGOTTEN_OTHER}))
        # a settled conflict that survives may name a forgotten fact in its resolution
        for row, text in self._rows(*sql.settled_resolutions(d, scope)):
            if text != (clean := scrub_ids(str(text), gone)):
                self._run(*sql.set_resolution(d, int(row), clean))

    def _forget_side_records(
        self,
        scope: str,
        *,
        subject: str | None,
        episode: str | None,
        everything: bool,
        report: ForgetReport,
    ) -> None:
        d = self.dialect
        if subject is not None and not nul(subject):
            # the subject goes by its aliases too; a rejection about it is one filed under
            # it, or one whose text names it as a word (it may have been filed under none)
            names = self._names_of(scope, subject)
            named = mentions(names)
            doomed = [
                int(r[0])
                for r in self._rows(*sql.rejections_of_scope(d, scope))
                if r[1] in names or named.search(str(r[2]))
            ]
            for chunk in d.chunks(doomed):
                report.rejections += self._run(*sql.delete_linked(d, "rejections", ("id",), chunk))
            for chunk in d.chunks(names):
                test, params = d.one_of("subject", chunk)
                report.rules += self._run(*sql.delete_where(d, "rules", scope, test, *params))
            report.aliases += self._run(
                *sql.delete_where(
                    d,
                    "aliases",
                    scope,
                    f"(canonical = {d.mark} OR alias = {d.mark})",
                    subject,
                    subject,
                )
            )
        if episode is not None and not nul(episode):
            report.rejections += self._run(
                *sql.delete_where(d, "rejections", scope, d.holds("derived_from"), episode)
            )
            report.ingest_episodes += self._run(
                *sql.delete_where(d, "ingest_episodes", scope, d.holds("refs"), episode)
            )
        if everything:
            report.rejections += self._run(*sql.delete_where(d, "rejections", scope))
            report.aliases += self._run(*sql.delete_where(d, "aliases", scope))
            report.rules += self._run(*sql.delete_where(d, "rules", scope))
            report.ingest_episodes += self._run(*sql.delete_where(d, "ingest_episodes", scope))
