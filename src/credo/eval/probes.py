"""The seed's Tier 2: a probe suite of facts and queries, scored for recall, staleness and
leaks.

A probe file is YAML (or JSON, which YAML reads too)::

    facts:                      # remembered in this order, each through Memory.remember
      - text: Arttu's editor is Neovim.
        scope: arttu            # default: "default"
        source: user            # user (default), tool:<name>, imported:<doc>, inferred
        valid_from: 2025-01-10  # when it became true (date or ISO 8601); default: now
        id: editor-old          # optional label that queries may name instead of the text
    queries:
      - query: which editor does Arttu use
        scope: arttu            # default: "default"
        k: 5                    # default 5
        expect: [Arttu's editor is Helix.]     # fact texts or ids that must be returned
        forbid: [editor-old, Anna lives in Oslo.]  # texts or ids that must not be

Because every fact goes through `Memory.remember`, the gate, the key parser and the
resolver really run: a later `valid_from` from an equally trusted source supersedes
(update), the same time from another source conflicts. An entry in `expect`/`forbid`
names the stored fact that stands for that line of the file (a duplicate names the fact it
reinforced); it matches the text as written in the file or as stored, case and spacing
aside.

The figures, over the queries of the file:

- recall@k: expected facts returned / expected facts listed (micro-averaged);
- staleness: share of queries whose results hold a fact that is superseded or retracted
  when the query runs;
- leak rate: share of queries whose results hold a fact of another scope: a result whose
  scope is not the query's, or whose id is a fact remembered only under another scope, or
  whose text is a `forbid` entry that the file remembers only under other scopes. A `forbid`
  hit of the query's own scope is not a leak: it counts as stale when that fact is
  superseded or retracted, and as "forbidden" (a failed probe) otherwise.

Any leak fails the suite, whatever the other numbers.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from ..embed import Embedder
from ..errors import CredoError, InvalidInput
from ..fact import Status
from ..memory import Memory, parse_time
from ..store.base import ScopeError, Store, check_scope
from ..store.sqlite import SQLiteStore
from .text import fit

DEFAULT_K = 5
_FACT_KEYS = {"text", "scope", "source", "valid_from", "id"}
_QUERY_KEYS = {"query", "scope", "k", "expect", "forbid"}


class ProbeFileError(CredoError, ValueError):
    """The probe file cannot be used; the message names the file and the entry."""


@dataclass(frozen=True)
class ProbeFact:
    text: str
    scope: str = "default"
    source: str = "user"
    valid_from: float | None = None
    label: str | None = None


@dataclass(frozen=True)
class ProbeQuery:
    query: str
    scope: str = "default"
    k: int = DEFAULT_K
    expect: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProbeSuite:
    facts: tuple[ProbeFact, ...]
    queries: tuple[ProbeQuery, ...]
    path: str = ""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower()).rstrip(".")


# -- reading ---------------------------------------------------------------------------------
def load_probes(path: str | Path) -> ProbeSuite:
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProbeFileError(f"cannot read the probe file {path}: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise ProbeFileError(f"{path}{where}: not valid YAML or JSON ({exc})") from exc
    return parse_probes(data, where=str(path))


def parse_probes(data: Any, *, where: str = "probes") -> ProbeSuite:
    """Validate a loaded probe document; every problem names its entry."""
    if not isinstance(data, dict):
        raise ProbeFileError(f"{where}: expected a mapping with 'facts' and 'queries'")
    unknown = set(data) - {"facts", "queries", "version", "description"}
    if unknown:
        raise ProbeFileError(f"{where}: unknown top-level keys: {', '.join(sorted(unknown))}")
    facts_raw, queries_raw = data.get("facts"), data.get("queries")
    if not isinstance(facts_raw, list) or not facts_raw:
        raise ProbeFileError(f"{where}: 'facts' must be a non-empty list")
    if not isinstance(queries_raw, list) or not queries_raw:
        raise ProbeFileError(f"{where}: 'queries' must be a non-empty list")
    facts = tuple(_parse_fact(f, f"{where}: facts[{i}]") for i, f in enumerate(facts_raw))
    labels = [f.label for f in facts if f.label]
    dup = {x for x in labels if labels.count(x) > 1}
    if dup:
        raise ProbeFileError(f"{where}: fact ids used twice: {', '.join(sorted(dup))}")
    queries = tuple(_parse_query(q, f"{where}: queries[{i}]") for i, q in enumerate(queries_raw))
    suite = ProbeSuite(facts, queries, where)
    _check_references(suite)
    return suite


def _text_field(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ProbeFileError(f"{where}: '{key}' must be a non-empty string")
    return value.strip()


def _scope(entry: dict[str, Any], where: str) -> str:
    try:
        return check_scope(str(entry.get("scope", "default")))
    except ScopeError as exc:
        raise ProbeFileError(f"{where}: {exc}") from exc


def _parse_fact(entry: Any, where: str) -> ProbeFact:
    if isinstance(entry, str):
        entry = {"text": entry}
    if not isinstance(entry, dict):
        raise ProbeFileError(f"{where}: expected a mapping with 'text' (or a plain string)")
    unknown = set(entry) - _FACT_KEYS
    if unknown:
        raise ProbeFileError(
            f"{where}: unknown keys {', '.join(sorted(unknown))} "
            f"(a fact takes {', '.join(sorted(_FACT_KEYS))})"
        )
    text = _text_field(entry, "text", where)
    source = str(entry.get("source", "user"))
    raw_date = entry.get("valid_from")
    if isinstance(raw_date, (date, datetime)):  # YAML reads 2025-01-10 as a date
        raw_date = raw_date.isoformat()
    try:
        valid_from = parse_time(raw_date)
    except InvalidInput as exc:
        raise ProbeFileError(f"{where}: {exc}") from exc
    label = entry.get("id")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise ProbeFileError(f"{where}: 'id' must be a non-empty string")
    return ProbeFact(
        text,
        _scope(entry, where),
        source,
        valid_from,
        label.strip() if isinstance(label, str) else None,
    )


def _names(entry: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ProbeFileError(f"{where}: '{key}' must be a list of fact texts or ids")
    return tuple(v.strip() for v in value)


def _parse_query(entry: Any, where: str) -> ProbeQuery:
    if not isinstance(entry, dict):
        raise ProbeFileError(f"{where}: expected a mapping with 'query'")
    unknown = set(entry) - _QUERY_KEYS
    if unknown:
        raise ProbeFileError(
            f"{where}: unknown keys {', '.join(sorted(unknown))} "
            f"(a query takes {', '.join(sorted(_QUERY_KEYS))})"
        )
    k = entry.get("k", DEFAULT_K)
    if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
        raise ProbeFileError(f"{where}: 'k' must be a positive integer")
    return ProbeQuery(
        _text_field(entry, "query", where),
        _scope(entry, where),
        k,
        _names(entry, "expect", where),
        _names(entry, "forbid", where),
    )


def _lines_named(suite: ProbeSuite, name: str) -> list[int]:
    """Indexes of the facts an expect/forbid entry names (by id label, else by text)."""
    by_label = [i for i, f in enumerate(suite.facts) if f.label == name]
    if by_label:
        return by_label
    key = _norm(name)
    return [i for i, f in enumerate(suite.facts) if _norm(f.text) == key]


def _check_references(suite: ProbeSuite) -> None:
    for n, q in enumerate(suite.queries):
        where = f"{suite.path}: queries[{n}] ({q.query!r})"
        if not q.expect and not q.forbid:
            raise ProbeFileError(f"{where}: give 'expect', 'forbid' or both")
        for name in (*q.expect, *q.forbid):
            if not _lines_named(suite, name):
                raise ProbeFileError(
                    f"{where}: {name!r} names no fact of the file (use a fact's text or its 'id')"
                )
        for name in q.expect:
            scopes = {suite.facts[i].scope for i in _lines_named(suite, name)}
            if q.scope not in scopes:
                raise ProbeFileError(
                    f"{where}: expects {name!r}, a fact of scope {', '.join(sorted(scopes))}, "
                    f"from a query on scope {q.scope!r}: it can never be returned there"
                )


# -- running ---------------------------------------------------------------------------------
@dataclass
class QueryResult:
    query: str
    scope: str
    k: int
    expected: int
    found: list[str] = field(default_factory=list)  # expect entries returned
    missing: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)  # texts of results from another scope
    stale: list[str] = field(default_factory=list)  # superseded/retracted results
    forbidden: list[str] = field(default_factory=list)  # same-scope, live forbid hits
    results: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ProbeReport:
    path: str
    embedder: str
    facts: int = 0
    refused: list[dict[str, str]] = field(default_factory=list)
    relations: dict[str, int] = field(default_factory=dict)
    queries: list[QueryResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def expected(self) -> int:
        return sum(q.expected for q in self.queries)

    @property
    def found(self) -> int:
        return sum(len(q.found) for q in self.queries)

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    def _share(self, attr: str) -> float:
        if not self.queries:
            return 0.0
        return sum(1 for q in self.queries if getattr(q, attr)) / len(self.queries)

    @property
    def staleness(self) -> float:
        return self._share("stale")

    @property
    def leak_rate(self) -> float:
        return self._share("leaks")

    @property
    def leaked_queries(self) -> int:
        return sum(1 for q in self.queries if q.leaks)

    @property
    def forbidden_queries(self) -> int:
        return sum(1 for q in self.queries if q.forbidden)

    @property
    def ks(self) -> list[int]:
        return sorted({q.k for q in self.queries})

    @property
    def passed(self) -> bool:
        """A leak fails the suite, whatever the other numbers."""
        return self.leaked_queries == 0

    def to_dict(self, *, verbose: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "embedder": self.embedder,
            "facts": self.facts,
            "refused": self.refused,
            "relations": self.relations,
            "queries": len(self.queries),
            "ks": self.ks,
            "expected": self.expected,
            "found": self.found,
            "recall_at_k": round(self.recall, 4),
            "staleness": round(self.staleness, 4),
            "leak_rate": round(self.leak_rate, 4),
            "leaked_queries": self.leaked_queries,
            "forbidden_queries": self.forbidden_queries,
            "passed": self.passed,
            "seconds": round(self.seconds, 3),
        }
        if verbose:
            data["details"] = [q.to_dict() for q in self.queries]
        return data


def run_probes(
    suite: ProbeSuite, embedder: Embedder, *, store: Store | None = None, clock: Any = time.time
) -> ProbeReport:
    """Remember the suite's facts (each scope its own `Memory`), then run its queries.

    Without a `store`, a fresh SQLite file in a temporary folder holds the run."""
    if store is not None:
        return _run(suite, store, clock)
    with tempfile.TemporaryDirectory(prefix="credo-probes-") as tmp:
        own = SQLiteStore(Path(tmp) / "probes.db", embedder)
        try:
            return _run(suite, own, clock)
        finally:
            own.close()


def _run(suite: ProbeSuite, store: Store, clock: Any) -> ProbeReport:
    start = time.perf_counter()
    report = ProbeReport(suite.path, store.embedder.name)
    memories: dict[str, Memory] = {}

    def memory(scope: str) -> Memory:
        if scope not in memories:
            memories[scope] = Memory(store, scope=scope, clock=clock)
        return memories[scope]

    line_ids: list[str | None] = []  # the stored fact that stands for each line of the file
    relations: dict[str, int] = {}
    for n, pf in enumerate(suite.facts):
        try:
            result = memory(pf.scope).remember(pf.text, source=pf.source, valid_from=pf.valid_from)
        except InvalidInput as exc:
            raise ProbeFileError(f"{suite.path}: facts[{n}] ({pf.text!r}): {exc}") from exc
        if not result.accepted or result.fact is None:
            report.refused.append({"text": pf.text, "code": result.code, "why": result.why})
            line_ids.append(None)
            continue
        line_ids.append(result.fact.id)
        rel = result.relation.value if result.relation else "none"
        relations[rel] = relations.get(rel, 0) + 1
    report.facts = len(suite.facts)
    report.relations = relations

    scope_of: dict[str, set[str]] = {}  # fact id -> scopes the file remembered it under
    for pf, fid in zip(suite.facts, line_ids, strict=True):
        if fid is not None:
            scope_of.setdefault(fid, set()).add(pf.scope)

    def ids_named(name: str) -> list[tuple[str, str]]:
        """(fact id, scope) of the stored facts an entry names."""
        return [
            (fid, suite.facts[i].scope)
            for i in _lines_named(suite, name)
            if (fid := line_ids[i]) is not None
        ]

    for q in suite.queries:
        report.queries.append(_query(q, memory(q.scope), store, scope_of, ids_named))
    report.seconds = time.perf_counter() - start
    return report


def _query(
    q: ProbeQuery, mem: Memory, store: Store, scope_of: dict[str, set[str]], ids_named: Any
) -> QueryResult:
    res = QueryResult(q.query, q.scope, q.k, len(q.expect))
    hits = mem.recall(q.query, k=q.k)
    returned = {h.fact.id for h in hits}
    returned_text = {_norm(h.fact.text): h.fact.id for h in hits}
    for name in q.expect:
        ids = {fid for fid, scope in ids_named(name) if scope == q.scope}
        (res.found if ids & returned else res.missing).append(name)
    leaked: dict[str, str] = {}
    for hit in hits:
        fact = hit.fact
        current = store.get(fact.id, scope=fact.scope)  # status as stored now, not as cached
        status = current.status if current is not None else fact.status
        res.results.append(
            {
                "id": fact.id,
                "text": fact.text,
                "scope": fact.scope,
                "status": status.value,
                "found_by": list(hit.found_by),
            }
        )
        scopes = scope_of.get(fact.id, set())
        if fact.scope != q.scope or (scopes and q.scope not in scopes):
            leaked[fact.id] = fact.text
        if status in (Status.SUPERSEDED, Status.RETRACTED):
            res.stale.append(fact.text)
    for name in q.forbid:
        named = ids_named(name)
        for fid, scope in named:
            if fid not in returned:
                continue
            fact_text = next(h.fact.text for h in hits if h.fact.id == fid)
            if scope != q.scope and q.scope not in scope_of.get(fid, set()):
                leaked[fid] = fact_text
            elif fact_text not in res.stale:
                current = store.get(fid, scope=q.scope)
                if current is not None and not current.is_live:
                    res.stale.append(fact_text)
                else:
                    res.forbidden.append(name)
        # the same words stored only under another scope, returned here under any id
        other_only = {s for _, s in named} and q.scope not in {s for _, s in named}
        if other_only and _norm(name) in returned_text:
            fid = returned_text[_norm(name)]
            leaked.setdefault(fid, name)
    res.leaks = list(leaked.values())
    return res


# -- output ----------------------------------------------------------------------------------
def format_report(report: ProbeReport, *, verbose: bool = False) -> str:
    ks = report.ks
    label = f"recall@{ks[0]}" if len(ks) == 1 else "recall@k"
    rel = ", ".join(f"{n} {r}" for r, n in sorted(report.relations.items()))
    lines = [
        f"probes: {report.path} (embedder {report.embedder}, {report.seconds:.2f}s)",
        f"facts: {report.facts} in the file ({rel or 'none stored'}), "
        f"{len(report.refused)} refused by the gate",
        f"queries: {len(report.queries)}",
        f"{label}: {report.recall:.3f} ({report.found}/{report.expected} expected facts returned)",
        f"staleness: {report.staleness:.3f} "
        f"({sum(1 for q in report.queries if q.stale)}/{len(report.queries)} queries returned a "
        "superseded or retracted fact)",
        f"leak rate: {report.leak_rate:.3f} ({report.leaked_queries}/{len(report.queries)} "
        "queries returned a fact of another scope)",
        f"forbidden: {report.forbidden_queries}/{len(report.queries)} queries returned a "
        "'forbid' fact of their own scope",
    ]
    for r in report.refused:
        lines.append(f"  refused ({r['code']}): {r['text']}  ({r['why']})")
    if verbose:
        lines.append("")
        for n, q in enumerate(report.queries, 1):
            flags = [
                f
                for f, bad in (
                    ("LEAK", q.leaks),
                    ("STALE", q.stale),
                    ("FORBIDDEN", q.forbidden),
                    ("MISSING", q.missing),
                )
                if bad
            ]
            lines.append(
                f"{n}. [{q.scope}] {q.query!r} k={q.k}: {len(q.found)}/{q.expected} "
                f"expected{'  ' + ' '.join(flags) if flags else ''}"
            )
            for name in q.missing:
                lines.append(f"   missing: {name}")
            for text in q.leaks:
                lines.append(f"   leaked: {text}")
            for text in q.stale:
                lines.append(f"   stale: {text}")
            for name in q.forbidden:
                lines.append(f"   forbidden: {name}")
            for r in q.results:
                lines.append(
                    f"   - [{r['scope']}] {r['status']:<10} {r['text']}  "
                    f"via={'+'.join(r['found_by'])}"
                )
    lines.append("")
    lines.append(
        "PASS: no leak"
        if report.passed
        else f"FAIL: {report.leaked_queries} queries leaked facts of another scope"
    )
    return fit("\n".join(lines))


def dumps(report: ProbeReport, *, verbose: bool) -> str:
    return json.dumps(report.to_dict(verbose=verbose), ensure_ascii=False, indent=2)


__all__: Sequence[str] = (
    "DEFAULT_K",
    "ProbeFact",
    "ProbeFileError",
    "ProbeQuery",
    "ProbeReport",
    "ProbeSuite",
    "QueryResult",
    "dumps",
    "format_report",
    "load_probes",
    "parse_probes",
    "run_probes",
)
