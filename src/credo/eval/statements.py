"""The gate and the key parser on single messages, labelled by reading.

Each item is one message a user typed to an assistant, labelled `fact` (it tells a durable
fact about the user, their people, things or work, perhaps inside a question or a
request) or `not-a-fact` (a question or request with no such fact, a mood, a plan, a
hedge, ...), by a person who never looked at what credo does with it. It is remembered
into a fresh scope of one temporary SQLite store through the public API, and scored: a
fact is right when something of it is stored, a non-fact when nothing is.

Items fall in the *tune* or the *test* half by their id alone (`natural.half`); what is
stored or refused is shown for the tune half only. A set written after the halves had
steered choices is scored whole and never shown: its ids name it (`st2-`: the second set,
column "st2"; `st3-`: the third, column "st3"; `st4-`: the fourth, column "st4").

Format (JSON Lines): {"id": "st-0001", "text": "...", "label": "fact" | "not-a-fact",
"fact": "the fact in the labeller's words", "kind": "a tag for the construction"}.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..embed import Embedder
from ..errors import CredoError
from ..memory import Memory
from ..store.sqlite import SQLiteStore
from .natural import half, labelled_rows
from .text import fit

__all__ = ["LABELS", "Statement", "StatementsDataError", "evaluate", "format_report", "read"]

LABELS = ("fact", "not-a-fact")
_HALVES = ("tune", "test")
#: sets scored whole and never shown, by the prefix of their ids -> their column
_UNREAD = {"st2-": "st2", "st3-": "st3", "st4-": "st4"}


def statement_half(item_id: str) -> str:
    """'tune', 'test', or the column of an unread set ('st2', 'st3', 'st4'), from the id."""
    for prefix, name in _UNREAD.items():
        if item_id.startswith(prefix):
            return name
    return half(item_id)


class StatementsDataError(CredoError, ValueError):
    """A labelled file cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Statement:
    id: str
    text: str
    label: str
    fact: str = ""
    kind: str = ""

    @property
    def half(self) -> str:
        return statement_half(self.id)


def read(paths: Sequence[str | Path]) -> list[Statement]:
    """The labelled statements of `paths`, checked."""
    out: list[Statement] = []
    for where, sid, row in labelled_rows(paths, StatementsDataError):
        text, label = row.get("text"), row.get("label")
        if not isinstance(text, str) or not text.strip():
            raise StatementsDataError(f"{where}: 'text' must be a non-empty string")
        if label not in LABELS:
            raise StatementsDataError(f"{where}: label {label!r} is not one of {LABELS}")
        fact, kind = row.get("fact", ""), row.get("kind", "")
        out.append(Statement(sid, text, label, str(fact or ""), str(kind or "")))
    if not out:
        raise StatementsDataError("no labelled statements in " + ", ".join(map(str, paths)))
    return out


@dataclass(frozen=True)
class Result:
    item: Statement
    stored: tuple[str, ...]  # the sentences kept, as stored
    why: str = ""  # the refusal's reason, when nothing was kept

    @property
    def right(self) -> bool:
        return bool(self.stored) == (self.item.label == "fact")


@dataclass
class StatementsReport:
    embedder: str
    results: dict[str, list[Result]] = field(default_factory=lambda: {h: [] for h in _HALVES})

    @property
    def halves(self) -> tuple[str, ...]:
        """tune, test, and each unread set that had items."""
        return _HALVES + tuple(h for h in _UNREAD.values() if self.results.get(h))

    def figures(self, half_name: str) -> dict[str, Any]:
        rs = self.results[half_name]

        def share(group: list[Result]) -> float | None:
            return sum(r.right for r in group) / len(group) if group else None

        facts = [r for r in rs if r.item.label == "fact"]
        others = [r for r in rs if r.item.label != "fact"]
        # an unread set's figures by construction would say which of its items fail
        kinds = Counter(r.item.kind for r in rs) if half_name in _HALVES else Counter()
        return {
            "items": len(rs),
            "right": share(rs),
            "facts_stored": share(facts),
            "facts": len(facts),
            "non_facts_refused": share(others),
            "non_facts": len(others),
            "per_kind": {
                k: {"n": n, "right": share([r for r in rs if r.item.kind == k])}
                for k, n in sorted(kinds.items())
            },
        }

    def to_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, **{h: self.figures(h) for h in self.halves}}


def run_statement(store: SQLiteStore, item: Statement) -> Result:
    result = Memory(store, scope=item.id).remember(item.text)
    kept = tuple(r.fact.text for r in (result, *result.also) if r.accepted and r.fact is not None)
    return Result(item, kept, "" if kept else result.why)


def evaluate(
    items: Sequence[Statement],
    embedder: Embedder,
    *,
    progress: Callable[[str], None] | None = None,
) -> StatementsReport:
    report = StatementsReport(embedder.name)
    with tempfile.TemporaryDirectory(prefix="credo-statements-") as tmp:
        store = SQLiteStore(Path(tmp) / "statements.db", embedder)
        try:
            for n, item in enumerate(items, 1):
                report.results.setdefault(item.half, []).append(run_statement(store, item))
                if progress and (n % 100 == 0 or n == len(items)):
                    progress(f"{n}/{len(items)} statements")
        finally:
            store.close()
    return report


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def format_report(report: StatementsReport, *, examples: bool = False) -> str:
    halves = report.halves
    figs = {h: report.figures(h) for h in halves}
    lines = [
        f"single statements ({report.embedder})",
        "",
        f"{'':34}" + "".join(f"{h:>14}" for h in halves),
    ]

    def row(name: str, cell: Callable[[dict[str, Any]], str]) -> None:
        lines.append(f"{name[:34]:34}" + "".join(f"{cell(figs[h]):>14}" for h in halves))

    row("statements", lambda f: str(f["items"]))
    row("handled right", lambda f: _pct(f["right"]))
    row("facts stored", lambda f: f"{_pct(f['facts_stored'])}/{f['facts']}")
    row("non-facts refused", lambda f: f"{_pct(f['non_facts_refused'])}/{f['non_facts']}")
    kinds = sorted({k for f in figs.values() for k in f["per_kind"]})
    for kind in kinds:

        def cell(f: dict[str, Any], kind: str = kind) -> str:
            got = f["per_kind"].get(kind)
            return f"{_pct(got['right'])}/{got['n']}" if got else "-"

        row(f"  {kind or '(no kind)'}", cell)
    if examples:
        lines += ["", "tune items handled wrong:"]
        for r in report.results["tune"]:
            if r.right:
                continue
            lines.append(f"- {r.item.id} [{r.item.label}, {r.item.kind}] {r.item.text}")
            lines.append(
                "    stored: " + " | ".join(r.stored) if r.stored else f"    refused: {r.why}"
            )
    return "\n".join(fit(line) for line in lines)
