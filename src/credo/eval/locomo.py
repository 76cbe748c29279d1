"""LoCoMo evidence recall: does recall return the turns that hold the answer?

One fresh store per conversation (a temporary SQLite file). Two units of memory:

- `turn`: every turn is a fact, its text prefixed with the speaker ("Caroline: ..."), its
  `dia_id` as provenance (`derived_from`), its session's date as `valid_from`, and the
  speaker as its subject (so a question that names a speaker is an entity query). Turns are
  written with the bulk path (`Store.put_many`): a conversation is a record of what was
  said, not a set of claims for the resolver to reconcile.
- `extracted`: the facts credo's own ingestion (`credo.ingest`, the offline rule
  extractor, gate and resolver) stores from the conversation; each carries the turn ids it
  came from.

Each QA item is a query (`Memory.recall` with k facts, one call per k, as an agent asking
for k facts would). A returned fact is a hit when its provenance names a gold evidence turn.

- R@k (evidence recall): gold evidence turns named by the top-k facts / gold evidence turns,
  averaged over questions;
- hit@k: share of questions with at least one hit in the top k.

Categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) make the headline
figure; category 5 (adversarial) is reported apart. Malformed evidence ids ("D8:6; D9:17",
"D:11:26") are read leniently and counted; items with no usable id are skipped and counted.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..embed import Embedder
from ..errors import CredoError
from ..fact import Fact, normalize_entity
from ..memory import Memory
from ..store.base import Store
from ..store.sqlite import SQLiteStore
from .text import fit

UNITS = ("turn", "extracted")
DEFAULT_KS = (1, 5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)
SCOPE = "locomo"

_DIA = re.compile(r"^D\d+:\d+$")
_DIA_LENIENT = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_TAIL = re.compile(r"(D\d+:\d+)$")
_SESSION = re.compile(r"^session_(\d+)$")
_DATE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.I
)


class LocomoError(CredoError, ValueError):
    """The file is not LoCoMo-shaped; the message says where."""


@dataclass(frozen=True)
class LocomoTurn:
    dia_id: str
    speaker: str
    text: str
    date: float | None
    session: int


@dataclass(frozen=True)
class LocomoQuestion:
    question: str
    category: int
    evidence: frozenset[str]
    malformed: int = 0  # evidence items that were not a plain "D<session>:<turn>"


@dataclass
class LocomoConversation:
    sample_id: str
    turns: list[LocomoTurn]
    questions: list[LocomoQuestion]
    path: str = ""


# -- reading ---------------------------------------------------------------------------------
def parse_evidence(items: Any) -> tuple[frozenset[str], int]:
    """Gold evidence ids and how many items were malformed (but perhaps still readable)."""
    if items is None:
        return frozenset(), 0
    if not isinstance(items, list):
        items = [items]
    ids: set[str] = set()
    malformed = 0
    for item in items:
        text = str(item).strip()
        if _DIA.match(text):
            ids.add(text)
            continue
        malformed += 1
        ids.update(f"D{a}:{b}" for a, b in _DIA_LENIENT.findall(text))
    return frozenset(ids), malformed


def parse_session_date(text: Any) -> float | None:
    """LoCoMo's "4:05 pm on 19 June, 2024" as UTC epoch seconds; None when absent or odd."""
    if not isinstance(text, str):
        return None
    m = _DATE.match(text)
    if not m:
        return None
    hour, minute, ampm, day, month, year = m.groups()
    try:
        parsed = datetime.strptime(
            f"{day} {month[:3]} {year} {hour}:{minute} {ampm}", "%d %b %Y %I:%M %p"
        )
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC).timestamp()


def read_locomo(path: str | Path, *, limit: int | None = None) -> list[LocomoConversation]:
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise LocomoError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise LocomoError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from exc
    samples = data if isinstance(data, list) else [data]
    out: list[LocomoConversation] = []
    for n, sample in enumerate(samples):
        if limit is not None and len(out) >= limit:
            break
        where = f"{path}: sample {n}"
        if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
            raise LocomoError(f"{where}: expected an object with 'conversation' and 'qa'")
        out.append(_read_sample(sample, where, str(path)))
    if not out:
        raise LocomoError(f"{path}: no conversations")
    return out


def _read_sample(sample: dict[str, Any], where: str, path: str) -> LocomoConversation:
    conv = sample["conversation"]
    sid = str(sample.get("sample_id") or where)
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conv
        if (m := _SESSION.match(key)) and isinstance(conv[key], list)
    )
    turns: list[LocomoTurn] = []
    for number, key in sessions:
        date = parse_session_date(conv.get(f"{key}_date_time"))
        for j, t in enumerate(conv[key], 1):
            if not isinstance(t, dict) or not isinstance(t.get("text"), str):
                raise LocomoError(f"{where} {key} turn {j}: expected {{speaker, dia_id, text}}")
            text = t["text"]
            if t.get("blip_caption"):
                # the photo is part of what was said; credo.ingest reads it the same way
                text += f" [shares a photo: {t['blip_caption']}]"
            turns.append(
                LocomoTurn(
                    str(t.get("dia_id") or f"D{number}:{j}"),
                    str(t.get("speaker") or "someone"),
                    text,
                    date,
                    number,
                )
            )
    qa = sample.get("qa", [])
    if not isinstance(qa, list):
        raise LocomoError(f"{where}: 'qa' must be a list")
    questions = []
    for j, q in enumerate(qa):
        if not isinstance(q, dict) or not isinstance(q.get("question"), str):
            raise LocomoError(f"{where}: qa[{j}] has no 'question'")
        try:
            category = int(q.get("category", 0))
        except (TypeError, ValueError) as exc:
            raise LocomoError(f"{where}: qa[{j}] has category {q.get('category')!r}") from exc
        evidence, malformed = parse_evidence(q.get("evidence"))
        questions.append(LocomoQuestion(q["question"], category, evidence, malformed))
    return LocomoConversation(sid, turns, questions, path)


# -- building stores -------------------------------------------------------------------------
def turn_facts(conv: LocomoConversation, scope: str = SCOPE) -> list[Fact]:
    facts = []
    for t in conv.turns:
        subject = normalize_entity(t.speaker) or None
        facts.append(
            Fact(
                text=f"{t.speaker}: {t.text}",
                subject=subject,
                scope=scope,
                source="imported:locomo",
                confidence=0.75,
                derived_from=[t.dia_id],
                created_at=t.date if t.date is not None else time.time(),
                valid_from=t.date,
            )
        )
    return facts


def build_turn_store(
    conv: LocomoConversation, store: Store, *, scope: str = SCOPE, batch: int = 256
) -> int:
    facts = turn_facts(conv, scope)
    for start in range(0, len(facts), batch):
        store.put_many(facts[start : start + batch])
    return len(facts)


def build_extracted_store(conv: LocomoConversation, store: Store, *, scope: str = SCOPE) -> int:
    """Ingest the conversation with credo's offline extraction; the facts it stores."""
    try:
        from ..ingest import ingest
        from ..ingest import read_locomo as read_turns
    except ImportError as exc:  # pragma: no cover - ingestion ships with credo
        raise LocomoError(f"--unit extracted needs credo.ingest ({exc})") from exc
    turns = read_turns(conv.path, sample=conv.sample_id)
    ingest(Memory(store, scope=scope), turns)
    return store.count(scope=scope)


def provenance(fact: Fact) -> set[str]:
    """The dia_ids a fact came from ("D3:7", also from "conv-26:D3:7")."""
    out = set()
    for ref in fact.derived_from:
        m = _TAIL.search(ref)
        if m:
            out.add(m.group(1))
    return out


# -- scoring ---------------------------------------------------------------------------------
#: a search: (conversation index, question, k) -> the provenance of each returned item
Search = Callable[[int, str, int], Sequence[set[str]]]
#: a retriever over one conversation's store: (store, question, k) -> facts, best first
Retriever = Callable[[Store, str, int], Sequence[Fact]]


def credo_recall(store: Store, question: str, k: int) -> list[Fact]:
    """What `Memory.recall` returns, the path an agent uses."""
    return [h.fact for h in Memory(store, scope=SCOPE).recall(question, k=k)]


@dataclass
class Scores:
    ks: tuple[int, ...]
    recall: dict[int, list[float]] = field(default_factory=dict)
    hits: dict[int, list[float]] = field(default_factory=dict)

    def add(self, k: int, found: set[str], gold: frozenset[str]) -> None:
        self.recall.setdefault(k, []).append(len(found & gold) / len(gold))
        self.hits.setdefault(k, []).append(1.0 if found & gold else 0.0)

    @property
    def n(self) -> int:
        return len(self.recall.get(self.ks[0], []))

    def mean(self, k: int, *, hits: bool = False) -> float:
        values = (self.hits if hits else self.recall).get(k, [])
        return sum(values) / len(values) if values else 0.0

    def merge(self, other: Scores) -> None:
        for k in self.ks:
            self.recall.setdefault(k, []).extend(other.recall.get(k, []))
            self.hits.setdefault(k, []).extend(other.hits.get(k, []))

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            **{f"R@{k}": round(self.mean(k), 4) for k in self.ks},
            **{f"hit@{k}": round(self.mean(k, hits=True), 4) for k in self.ks},
        }


#: queries no LoCoMo conversation bears on: what the relevance floor should leave out
OFF_TOPIC = (
    "deploy target",
    "kubernetes cluster config",
    "what is the capital of Peru",
    "my tax return deadline",
    '"',
)


@dataclass
class RenderFloorStats:
    """What a rendered block of `k` recalled facts carries without and with the relevance
    floor (`credo.relevance.keep_relevant`), over the questions of categories 1-4: facts
    rendered, the share of them that are evidence, evidence R@k, and facts rendered for
    the `OFF_TOPIC` queries."""

    k: int = 10
    questions: int = 0
    rendered: list[int] = field(default_factory=lambda: [0, 0])
    evidence: list[int] = field(default_factory=lambda: [0, 0])
    recall: list[float] = field(default_factory=lambda: [0.0, 0.0])
    off_topic_queries: int = 0
    off_topic: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, blocks: tuple[Sequence[Fact], Sequence[Fact]], gold: frozenset[str]) -> None:
        self.questions += 1
        for i, facts in enumerate(blocks):
            found: set[str] = set()
            for f in facts:
                prov = provenance(f)
                found |= prov
                self.rendered[i] += 1
                self.evidence[i] += bool(prov & gold)
            self.recall[i] += len(found & gold) / len(gold)

    def figures(self, i: int) -> dict[str, float]:
        n = max(1, self.questions)
        return {
            "facts_per_question": round(self.rendered[i] / n, 3),
            "evidence_share": round(self.evidence[i] / max(1, self.rendered[i]), 4),
            f"R@{self.k}": round(self.recall[i] / n, 4),
            "off_topic_facts_per_query": round(
                self.off_topic[i] / max(1, self.off_topic_queries), 3
            ),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "questions": self.questions,
            "without": self.figures(0),
            "with": self.figures(1),
        }


def measure_render_floor(
    conversations: Sequence[LocomoConversation], stores: Sequence[Store], *, k: int = 10
) -> RenderFloorStats:
    """Recall k facts per question (`Memory.recall`) and compare the block with and
    without the relevance floor."""
    from ..relevance import keep_relevant

    stats = RenderFloorStats(k)
    for conv, store in zip(conversations, stores, strict=True):
        mem = Memory(store, scope=SCOPE)
        for q in conv.questions:
            if q.category in HEADLINE and q.evidence:
                hits = mem.recall(q.question, k=k)
                kept = keep_relevant(hits, query=q.question)
                stats.add(([h.fact for h in hits], [h.fact for h in kept]), q.evidence)
        for query in OFF_TOPIC:
            hits = mem.recall(query, k=k)
            stats.off_topic_queries += 1
            stats.off_topic[0] += len(hits)
            stats.off_topic[1] += len(keep_relevant(hits, query=query))
    return stats


@dataclass
class LocomoReport:
    unit: str
    embedder: str
    ks: tuple[int, ...]
    conversations: list[str] = field(default_factory=list)
    facts: int = 0
    questions: int = 0
    no_evidence: int = 0  # questions skipped: no usable evidence id
    malformed_evidence: int = 0  # evidence items that were not plain ids
    unknown_evidence: int = 0  # evidence ids naming no turn of the conversation
    by_category: dict[int, Scores] = field(default_factory=dict)
    build_seconds: float = 0.0
    query_seconds: float = 0.0
    queries_run: int = 0
    render_floor: RenderFloorStats | None = None

    def overall(self) -> Scores:
        total = Scores(self.ks)
        for c in HEADLINE:
            if c in self.by_category:
                total.merge(self.by_category[c])
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "embedder": self.embedder,
            "ks": list(self.ks),
            "conversations": self.conversations,
            "facts": self.facts,
            "questions": self.questions,
            "no_evidence": self.no_evidence,
            "malformed_evidence": self.malformed_evidence,
            "unknown_evidence": self.unknown_evidence,
            "overall_1_4": self.overall().to_dict(),
            "categories": {
                f"{c} {CATEGORIES.get(c, '?')}": s.to_dict()
                for c, s in sorted(self.by_category.items())
            },
            "build_seconds": round(self.build_seconds, 2),
            "query_seconds": round(self.query_seconds, 2),
            "recall_ms_mean": round(1000 * self.query_seconds / self.queries_run, 3)
            if self.queries_run
            else 0.0,
            **({"render_floor": self.render_floor.to_dict()} if self.render_floor else {}),
        }


def score(
    conversations: Sequence[LocomoConversation],
    search: Search,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    report: LocomoReport,
) -> LocomoReport:
    """Run every question of every conversation through `search` once per k."""
    ks = tuple(sorted(set(ks)))
    for ci, conv in enumerate(conversations):
        known = {t.dia_id for t in conv.turns}
        for q in conv.questions:
            report.questions += 1
            report.malformed_evidence += q.malformed
            report.unknown_evidence += len(q.evidence - known)
            if not q.evidence:
                report.no_evidence += 1
                continue
            scores = report.by_category.setdefault(q.category, Scores(ks))
            for k in ks:
                start = time.perf_counter()
                returned = search(ci, q.question, k)
                report.query_seconds += time.perf_counter() - start
                report.queries_run += 1
                found: set[str] = set()
                for prov in list(returned)[:k]:
                    found |= prov
                scores.add(k, found, q.evidence)
    return report


def evaluate(
    conversations: Sequence[LocomoConversation],
    embedder: Embedder,
    *,
    unit: str = "turn",
    ks: Sequence[int] = DEFAULT_KS,
    progress: Callable[[str], None] | None = None,
    retriever: Retriever = credo_recall,
    render_floor: bool = False,
) -> LocomoReport:
    """Build one store per conversation in a temporary folder and score `retriever`
    (credo's recall unless told otherwise) on its questions."""
    if unit not in UNITS:
        raise LocomoError(f"unknown unit {unit!r}: use {' or '.join(UNITS)}")
    if not ks or any(k <= 0 for k in ks):
        raise LocomoError("each k must be a positive number")
    report = LocomoReport(
        unit, embedder.name, tuple(sorted(set(ks))), [c.sample_id for c in conversations]
    )
    with tempfile.TemporaryDirectory(prefix="credo-locomo-") as tmp:
        stores: list[Store] = []
        try:
            for n, conv in enumerate(conversations):
                store = SQLiteStore(Path(tmp) / f"conv-{n}.db", embedder)
                stores.append(store)
                start = time.perf_counter()
                if unit == "turn":
                    report.facts += build_turn_store(conv, store)
                else:
                    report.facts += build_extracted_store(conv, store)
                report.build_seconds += time.perf_counter() - start
                if progress:
                    progress(f"{conv.sample_id}: {store.count(scope=SCOPE)} facts")

            def search(ci: int, question: str, k: int) -> list[set[str]]:
                return [provenance(f) for f in retriever(stores[ci], question, k)]

            score(conversations, search, ks=report.ks, report=report)
            if render_floor:
                report.render_floor = measure_render_floor(conversations, stores)
        finally:
            for s in stores:
                s.close()
    return report


def format_report(report: LocomoReport) -> str:
    ks = report.ks
    head = "category".ljust(18) + "n".rjust(5) + "".join(f"R@{k}".rjust(8) for k in ks)
    lines = [
        f"LoCoMo evidence recall: unit={report.unit}, embedder={report.embedder}, "
        f"{len(report.conversations)} conversation(s), {report.facts} facts, "
        f"{report.questions} questions",
        "",
        head,
        "-" * len(head),
    ]

    def row(name: str, s: Scores) -> str:
        return name.ljust(18) + str(s.n).rjust(5) + "".join(f"{s.mean(k):8.3f}" for k in ks)

    for c in HEADLINE:
        if c in report.by_category:
            lines.append(row(f"{c} {CATEGORIES[c]}", report.by_category[c]))
    total = report.overall()
    lines.append(row("all 1-4", total))
    lines.append("hit@k 1-4".ljust(23) + "".join(f"{total.mean(k, hits=True):8.3f}" for k in ks))
    for c, s in sorted(report.by_category.items()):
        if c not in HEADLINE:
            lines.append(row(f"{c} {CATEGORIES.get(c, '?')}", s) + "  (apart)")
    lines += [
        "",
        f"evidence: {report.malformed_evidence} malformed id(s) read leniently, "
        f"{report.unknown_evidence} naming no turn, {report.no_evidence} question(s) "
        "without a usable id skipped",
        f"time: build {report.build_seconds:.1f}s, {report.queries_run} recalls "
        f"{report.query_seconds:.1f}s "
        f"({1000 * report.query_seconds / max(1, report.queries_run):.1f} ms each)",
    ]
    if report.render_floor:
        rf = report.render_floor
        lines += [
            "",
            f"relevance floor: k={rf.k}, {rf.questions} questions 1-4, "
            f"{rf.off_topic_queries} off-topic queries",
            "block     facts/question  evidence share  R@k    off-topic facts/query",
        ]
        for name, i in (("without", 0), ("with", 1)):
            f = rf.figures(i)
            lines.append(
                f"{name:8}{f['facts_per_question']:16.2f}{f['evidence_share']:16.3f}"
                f"{f[f'R@{rf.k}']:7.3f}{f['off_topic_facts_per_query']:24.2f}"
            )
    return fit("\n".join(lines))
