"""The write path on natural statement pairs, labelled by reading (docs/labelling.md).

Each item is a pair: the same user said A, then `gap_days` later B. It is remembered into a
fresh scope of one temporary SQLite store through the public API (`Memory.remember`, the
gate, the key parser and the resolver), and what the memory holds afterwards is scored
against the label a person gave it without looking at credo's answer:

| label | right when |
|---|---|
| duplicate | B is taken as a duplicate of A (one fact) |
| refinement | B refines A (A superseded by B, kept as history) |
| update | B updates A (A superseded by B, kept as history) |
| conflict | B is stored beside A and both are flagged |
| coexist, unrelated | B is stored beside A, both live and unflagged |
| not-a-fact | the gate refuses B |

Statements are text, or references into the evaluation data folder (which may not be
copied into the repository), each checked against the first 10 hex digits of the sha1 of
the text it takes. Items fall in the *tune* or the *test* half by their id alone
(`sha256(id)`'s first byte even: tune), fixed before anyone read a result; failing examples
are shown for the tune half only.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..embed import Embedder
from ..errors import CredoError
from ..memory import Memory
from ..store.sqlite import SQLiteStore
from .resolver import DAY, START, Outcome, Pair, run_pair
from .text import fit

__all__ = [
    "LABELS",
    "Item",
    "NaturalDataError",
    "NaturalReport",
    "evaluate",
    "format_report",
    "half",
    "read_items",
]

LABELS = (
    "update",
    "coexist",
    "duplicate",
    "refinement",
    "conflict",
    "unrelated",
    "not-a-fact",
)
#: the sealed sets, each labelled later by people who never saw the code and only ever
#: scored, never printed: examples/natural/sealed/ (after the test half's figures had steered
#: choices), examples/natural/fresh/ (after the sealed set's had), then
#: examples/natural/freshN/ for N = 2.. (each after fresh(N-1)'s had); ids start with the
#: set's name and "-"
SEALED_SETS = ("sealed", "fresh", *(f"fresh{n}" for n in range(2, 26)))
HALVES = ("tune", "test", *SEALED_SETS)
_UNREAD = {f"{name}-": name for name in SEALED_SETS}
_BEAM_MARKER = re.compile(r"\s*->->\s*\d+\s*,\s*\d+\s*$")
#: PersonaChat's tokenisation undone, case left as typed: "i 'm a nurse ." -> "i'm a nurse."
_SPACED_PUNCT = re.compile(r" ([.,!?;:])")
_SPACED_CLITIC = re.compile(r" (n't|'s|'m|'re|'ve|'ll|'d)\b", re.I)


class NaturalDataError(CredoError, ValueError):
    """A labelled file or a reference cannot be used; the message says where and why."""


def half(item_id: str) -> str:
    """'tune', 'test' or the name of a sealed set ('sealed', 'fresh', ...), from the id."""
    for prefix, name in _UNREAD.items():
        if item_id.startswith(prefix):
            return name
    return "tune" if hashlib.sha256(item_id.encode()).digest()[0] % 2 == 0 else "test"


@dataclass(frozen=True)
class Item:
    id: str
    label: str
    a: str | None  # None: a not-a-fact item with B alone
    b: str
    gap_days: float
    why: str = ""

    @property
    def half(self) -> str:
        return half(self.id)

    @property
    def source(self) -> str:
        for prefix in _UNREAD:
            if self.id.startswith(prefix):
                return self.id.removeprefix(prefix).split("-", 1)[0]
        return self.id.split("-", 1)[0]


class _Data:
    """The data folder, each file read once."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._cache: dict[str, Any] = {}

    def _json(self, rel: str) -> Any:
        if rel not in self._cache:
            if self.root is None:
                raise LookupError("no data folder given")
            path = self.root / rel
            try:
                if rel.endswith(".jsonl"):
                    with path.open(encoding="utf-8") as fh:
                        self._cache[rel] = [json.loads(line) for line in fh]
                else:
                    with path.open(encoding="utf-8") as fh:
                        self._cache[rel] = json.load(fh)
            except (OSError, ValueError) as exc:
                raise NaturalDataError(f"{path}: cannot be read ({exc})") from exc
        return self._cache[rel]

    def text(self, ref: dict[str, Any]) -> str:
        if "msc" in ref:
            split, item, speaker, n = ref["msc"]
            return str(self._json("msc_personas/msc_personas_dev.json")[split][item][speaker][n])
        if "personaext" in ref:
            rows = self._json("personaext/personaext_dev.jsonl")
            return str(rows[int(ref["personaext"]) - 1]["text"])
        if "locomo" in ref:
            sample, dia = ref["locomo"]
            for conv in self._json("locomo/locomo_dev.json"):
                if conv["sample_id"] != sample:
                    continue
                for key, turns in conv["conversation"].items():
                    if key.startswith("session_") and isinstance(turns, list):
                        for turn in turns:
                            if turn.get("dia_id") == dia:
                                return str(turn["text"])
            raise KeyError(f"no turn {dia} in {sample}")
        if "beam" in ref:
            chat, mid = ref["beam"]
            for batch in self._json(f"beam/100K/{chat}/chat.json"):
                for group in batch["turns"]:
                    for msg in group:
                        if msg.get("id") == mid:
                            return _BEAM_MARKER.sub("", str(msg["content"]))
            raise KeyError(f"no message {mid} in chat {chat}")
        raise KeyError(f"unknown reference {sorted(ref)}")


def _statement(value: Any, data: _Data, where: str) -> str:
    if not isinstance(value, dict):
        raise NaturalDataError(f"{where}: a statement is an object, not {type(value).__name__}")
    if "text" in value:
        text = value["text"]
        if not isinstance(text, str) or not text.strip():
            raise NaturalDataError(f"{where}: 'text' must be a non-empty string")
        return _one_line(text, where)
    try:
        whole = data.text(value)
    except LookupError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise NaturalDataError(f"{where}: the reference does not resolve ({exc})") from exc
    span = value.get("span")
    text = whole[span[0] : span[1]] if span else whole
    sha = hashlib.sha1(text.encode()).hexdigest()[:10]
    if value.get("sha") != sha:
        raise NaturalDataError(
            f"{where}: the referenced text changed (sha {sha}, the item says {value.get('sha')!r})"
        )
    if "personaext" in value:  # tokenised chat: rejoin punctuation, keep the case as typed
        text = _SPACED_CLITIC.sub(r"\1", _SPACED_PUNCT.sub(r"\1", " ".join(text.split())))
    return _one_line(text.strip(), where)


def _one_line(text: str, where: str) -> str:
    """`text`, where it is one line: `remember` takes one statement at a time."""
    if "\n" in text.strip():
        raise NaturalDataError(
            f"{where}: the statement holds {text.strip().count(chr(10)) + 1} lines, and one "
            "is remembered at a time: give a reference a 'span' of one line"
        )
    return text


@dataclass
class Loaded:
    items: list[Item]
    skipped: int = 0  # items that reference data when no data folder was given


def labelled_rows(
    paths: Sequence[str | Path], error: type[CredoError]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, id, row) for each JSON object of the JSON Lines files `paths` ("file:line"
    for messages), blank lines skipped; a file that cannot be read, a line that is not an
    object, an id missing or used twice raise `error` saying where."""
    seen: set[str] = set()
    for path in map(Path, paths):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise error(f"{path}: cannot be read ({exc})") from exc
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise error(f"{where}: not JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise error(f"{where}: expected an object")
            item_id = row.get("id")
            if not isinstance(item_id, str) or not item_id:
                raise error(f"{where}: no id")
            if item_id in seen:
                raise error(f"{where}: id {item_id!r} is used twice")
            seen.add(item_id)
            yield where, item_id, row


def read_items(paths: Sequence[str | Path], *, data: str | Path | None = None) -> Loaded:
    """The labelled items of `paths`, their references resolved in `data`."""
    root = Path(data) if data is not None else None
    if root is not None and not root.is_dir():
        raise NaturalDataError(f"{root}: not a folder")
    store = _Data(root)
    out = Loaded([])
    for where, item_id, row in labelled_rows(paths, NaturalDataError):
        label = row.get("label")
        if label not in LABELS:
            raise NaturalDataError(f"{where}: label {label!r} is not one of {LABELS}")
        gap = row.get("gap_days", 0)
        if isinstance(gap, bool) or not isinstance(gap, int | float) or gap < 0:
            raise NaturalDataError(f"{where}: gap_days must be a number >= 0")
        if "a" not in row and label != "not-a-fact":
            raise NaturalDataError(f"{where}: only a not-a-fact item may lack 'a'")
        try:
            a = _statement(row["a"], store, f"{where} a") if "a" in row else None
            b = _statement(row.get("b"), store, f"{where} b")
        except LookupError:
            out.skipped += 1
            continue
        out.items.append(Item(item_id, label, a, b, float(gap), str(row.get("why", ""))))
    if not out.items and not out.skipped:
        raise NaturalDataError("no labelled items in " + ", ".join(map(str, paths)))
    return out


# -- running and scoring -----------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    item: Item
    outcome: Outcome

    @property
    def got(self) -> str:
        o = self.outcome
        if o.a_relation is None and self.item.a is not None:
            return "A refused"
        if o.b_relation is None:
            return "B refused"
        return f"{o.b_relation}, A {o.a_status}" if self.item.a is not None else o.b_relation

    @property
    def a_refused(self) -> bool:
        return self.item.a is not None and self.outcome.a_relation is None

    @property
    def b_refused(self) -> bool:
        return not self.a_refused and self.outcome.b_relation is None

    @property
    def superseded(self) -> bool:
        return self.outcome.a_status == "superseded"

    @property
    def flagged(self) -> bool:
        return self.outcome.b_relation == "conflict"

    @property
    def right(self) -> bool:
        label, rel, a = self.item.label, self.outcome.b_relation, self.outcome.a_status
        if label == "not-a-fact":
            return self.b_refused
        if self.a_refused or self.b_refused:
            return False
        if label == "duplicate":
            return rel == "duplicate"
        if label in ("update", "refinement"):
            return rel == label and a == "superseded"
        if label == "conflict":
            return rel == "conflict"
        return rel == "new" and a == "active"  # coexist, unrelated


def run_item(store: SQLiteStore, item: Item) -> Result:
    if item.a is not None:
        pair = Pair(
            item.id, item.label, "natural", item.source, item.a, item.b, item.gap_days * DAY
        )
        # A as far back as B needs to be no later than now (a gap of years: a persona
        # told 2,900 days later)
        start = min(START, time.time() - item.gap_days * DAY - DAY)
        return Result(item, run_pair(store, pair, start=start))
    rb = Memory(store, scope=item.id).remember(item.b, valid_from=START)
    rel = rb.relation.value if rb.accepted and rb.relation else None
    pair = Pair(item.id, item.label, "natural", item.source, "", item.b, 0.0)
    return Result(item, Outcome(pair, "new", rel, None, why=rb.why, code=rb.code))


def _share(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass
class HalfFigures:
    results: list[Result] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        rs = self.results
        by = Counter(r.item.label for r in rs)
        right = Counter(r.item.label for r in rs if r.right)
        superseded = [r for r in rs if r.superseded]
        facts = [r for r in rs if r.item.label != "not-a-fact"]
        not_conflict = [r for r in facts if r.item.label != "conflict"]
        sources = Counter(r.item.source for r in rs)
        right_by_source = Counter(r.item.source for r in rs if r.right)
        return {
            "items": len(rs),
            "right": _share(sum(r.right for r in rs), len(rs)),
            "per_source": {
                source: {"n": n, "right": _share(right_by_source[source], n)}
                for source, n in sorted(sources.items())
            },
            "per_label": {
                label: {"n": by[label], "right": _share(right[label], by[label])}
                for label in LABELS
                if by[label]
            },
            "supersession_precision": _share(
                sum(r.item.label in ("update", "refinement") for r in superseded),
                len(superseded),
            ),
            "supersessions": len(superseded),
            "updates_found": _share(right["update"], by["update"]),
            "false_conflicts": _share(sum(r.flagged for r in not_conflict), len(not_conflict)),
            "conflicts_flagged": _share(right["conflict"], by["conflict"]),
            "duplicates_caught": _share(right["duplicate"], by["duplicate"]),
            "values_lost": sum(
                r.outcome.b_relation == "duplicate" and r.item.label != "duplicate" for r in rs
            ),
            "facts_refused": sum(r.a_refused or r.b_refused for r in facts),
            # the gate's reasons for the facts it refused (counts, never the items)
            "facts_refused_by": dict(
                Counter(r.outcome.code or "?" for r in facts if r.a_refused or r.b_refused)
            ),
            "non_facts_refused": _share(right["not-a-fact"], by["not-a-fact"]),
        }


@dataclass
class NaturalReport:
    embedder: str
    skipped: int
    halves: dict[str, HalfFigures]

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "skipped_without_data": self.skipped,
            **{name: h.figures() for name, h in self.halves.items()},
        }


def evaluate(
    loaded: Loaded,
    embedder: Embedder,
    *,
    progress: Callable[[str], None] | None = None,
) -> NaturalReport:
    report = NaturalReport(embedder.name, loaded.skipped, {h: HalfFigures() for h in HALVES})
    with tempfile.TemporaryDirectory(prefix="credo-natural-") as tmp:
        store = SQLiteStore(Path(tmp) / "natural.db", embedder)
        try:
            for n, item in enumerate(loaded.items, 1):
                report.halves[item.half].results.append(run_item(store, item))
                if progress and (n % 100 == 0 or n == len(loaded.items)):
                    progress(f"{n}/{len(loaded.items)} items")
        finally:
            store.close()
    return report


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def _table(cols: list[dict[str, Any]], halves: list[str]) -> list[str]:
    """One table of the report's rows for the columns `halves` (their figures `cols`),
    80 characters wide: four columns of 13, five of 10 (a cell is at most "0.252/107"),
    six of 8, the per-label and per-source cells then without the count."""
    width = {1: 16, 2: 16, 3: 16, 4: 13, 5: 10}.get(len(halves), 8)
    label = 26 if len(halves) <= 5 else 80 - width * len(halves)
    counted = width >= 10

    def row(name: str, value: Callable[[dict[str, Any]], str]) -> tuple[str, ...]:
        if len(name) > label:
            name = name.replace("from ", "")[:label]
        return (name, *(value(f) for f in cols))

    def share_of(group: str, key: str) -> Callable[[dict[str, Any]], str]:
        def cell(f: dict[str, Any]) -> str:
            got = f[group].get(key)
            if not got:
                return "-"
            return f"{_pct(got['right'])}/{got['n']}" if counted else _pct(got["right"])

        return cell

    rows = [
        row("items", lambda f: str(f["items"])),
        row("handled right", lambda f: _pct(f["right"])),
        row("supersession precision", lambda f: _pct(f["supersession_precision"])),
        row("  (supersessions)", lambda f: str(f["supersessions"])),
        row("updates found", lambda f: _pct(f["updates_found"])),
        row("false conflicts", lambda f: _pct(f["false_conflicts"])),
        row("conflicts flagged", lambda f: _pct(f["conflicts_flagged"])),
        row("duplicates caught", lambda f: _pct(f["duplicates_caught"])),
        row("values lost", lambda f: str(f["values_lost"])),
        row("facts refused (gate)", lambda f: str(f["facts_refused"])),
        row("non-facts refused", lambda f: _pct(f["non_facts_refused"])),
    ]
    rows += [row(f"  {label}", share_of("per_label", label)) for label in LABELS]
    sources = sorted({s for f in cols for s in f["per_source"]})
    rows += [row(f"  from {source}", share_of("per_source", source)) for source in sources]
    lines = [f"{'':{label}}" + "".join(f"{h:>{width}}" for h in halves)]
    lines += [f"{r[0]:{label}}" + "".join(f"{c:>{width}}" for c in r[1:]) for r in rows]
    return lines


#: the most columns one table shows; more are shown as further tables of the same rows
_COLUMNS_PER_TABLE = 6


def format_report(report: NaturalReport, *, examples: int = 0) -> str:
    figs = {name: h.figures() for name, h in report.halves.items()}
    shown_halves = [h for h in HALVES if h not in _UNREAD.values() or figs[h]["items"]]
    tables = -(-len(shown_halves) // _COLUMNS_PER_TABLE)
    per_table = -(-len(shown_halves) // tables)
    lines = [f"natural pairs ({report.embedder})"]
    counted = True
    for start in range(0, len(shown_halves), per_table):
        group = shown_halves[start : start + per_table]
        lines += ["", *_table([figs[h] for h in group], group)]
        counted = counted and len(group) <= 5
    if not counted:
        lines.append("(per label and source: the share handled right; --json has the counts)")
    if report.skipped:
        lines.append(f"({report.skipped} items reference data and no --data was given)")
    if examples:
        lines += ["", "failing tune items:"]
        shown: Counter[str] = Counter()
        for r in report.halves["tune"].results:
            if r.right or shown[r.item.label] >= examples:
                continue
            shown[r.item.label] += 1
            lines.append(f"- {r.item.id} [{r.item.label}, {r.item.gap_days:g} d] got {r.got}")
            if r.item.a is not None:
                lines.append(f"    A: {r.item.a}")
            lines.append(f"    B: {r.item.b}")
    return "\n".join(fit(line) for line in lines)
