"""How much the offline extractor and the gate keep, measured on real conversations.

`credo eval gate` ingests LoCoMo conversations (one fresh store per conversation) and
reports two figures per conversation: the share of turns that produced a stored fact (the
seed's accept rate: lower is more selective) and **evidence retention**, the share of QA
items (categories 1-4) whose evidence turns all produced at least one stored fact (higher
means fewer answers were thrown away by the gate). LoCoMo's own LLM-written observations
are measured the same way, as the reference.

`credo eval personaext` runs the rule extractor over single PersonaChat utterances with a
gold (head, relation, tail) triple each, and reports how many produce a stored fact and
how many of those carry the gold tail in the stored object.

Vectors come from the hash embedder: only extraction and the gate are measured here, and
the embedder only decides duplicate merging, which does not change either figure.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..embed import HashEmbedder
from ..extract.base import Extractor, Turn
from ..extract.rules import RuleExtractor
from ..ingest import DEFAULT_EPISODE_SIZE, EpisodeProgress, IngestError, ingest, read_locomo
from ..memory import Memory
from ..store.sqlite import SQLiteStore

__all__ = [
    "ConversationScore",
    "evaluate_locomo",
    "evaluate_personaext",
    "parse_evidence",
    "locomo_summary",
]

EMBEDDER_NOTE = (
    "vectors: hash embedder (only extraction and the gate are measured; the "
    "embedder decides duplicate merging, not whether a turn produced a fact)"
)
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_STRICT_EVIDENCE = re.compile(r"^D\d+:\d+$")


def parse_evidence(items: Iterable[Any]) -> tuple[list[str], int]:
    """Evidence ids as `D<session>:<turn>`, and how many entries were malformed.

    LoCoMo has a few ids like 'D8:6; D9:17' (two in one) or 'D:11:26'; both are read,
    and counted as malformed so the figure says how much leniency it needed.
    """
    ids: list[str] = []
    malformed = 0
    for item in items:
        text = str(item).strip()
        found = [f"D{a}:{b}" for a, b in _EVIDENCE.findall(text)]
        if not _STRICT_EVIDENCE.match(text):
            malformed += 1
        ids.extend(found)
    return list(dict.fromkeys(ids)), malformed


@dataclass
class ConversationScore:
    sample_id: str
    turns: int
    turns_with_fact: int
    questions: int  # categories 1-4 with at least one readable evidence id
    retained: int
    candidates: int = 0
    accepted: int = 0
    rejected_by_code: dict[str, int] = field(default_factory=dict)
    episodes: int = 0
    failed_episodes: int = 0  # extraction failed (timeout, server error): no candidates
    tokens: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    malformed_evidence: int = 0
    unknown_evidence: int = 0  # ids that name no turn of the conversation
    questions_without_evidence: int = 0
    observation_turn_share: float = 0.0
    observation_retention: float = 0.0

    @property
    def turn_share(self) -> float:
        return self.turns_with_fact / self.turns if self.turns else 0.0

    @property
    def retention(self) -> float:
        return self.retained / self.questions if self.questions else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["turn_share"] = round(self.turn_share, 4)
        data["retention"] = round(self.retention, 4)
        return data


def _questions(sample: dict[str, Any]) -> tuple[list[list[str]], int, int]:
    """Evidence id lists of the QA items of categories 1-4."""
    out: list[list[str]] = []
    malformed = empty = 0
    for qa in sample.get("qa") or []:
        if qa.get("category") not in (1, 2, 3, 4):
            continue
        ids, bad = parse_evidence(qa.get("evidence") or [])
        malformed += bad
        if ids:
            out.append(ids)
        else:
            empty += 1
    return out, malformed, empty


def _observed_turns(sample: dict[str, Any]) -> set[str]:
    """Turns that LoCoMo's own observations cite (the LLM-written reference)."""
    cited: set[str] = set()
    for session in (sample.get("observation") or {}).values():
        if not isinstance(session, dict):
            continue
        for items in session.values():
            for item in items or []:
                if isinstance(item, list) and len(item) > 1:
                    refs = item[1] if isinstance(item[1], list) else [item[1]]
                    cited.update(parse_evidence(refs)[0])
    return cited


def evaluate_locomo(
    path: str | Path,
    *,
    conversations: int | None = None,
    extractor: Extractor | None = None,
    workdir: str | Path | None = None,
    sample: str | None = None,
    episode_size: int = DEFAULT_EPISODE_SIZE,
    concurrency: int = 1,
    progress: Callable[[EpisodeProgress], None] | None = None,
) -> list[ConversationScore]:
    """Ingest each conversation into a fresh store and score it. `workdir` keeps the
    stores (for inspection); by default they live in a temporary directory. `sample`
    picks one conversation by its sample_id; `progress` is called after each episode."""
    path = Path(path)
    samples = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(samples, list):
        samples = [samples]
    if sample is not None:
        chosen = [s for s in samples if str(s.get("sample_id")) == sample]
        if not chosen:
            ids = ", ".join(str(s.get("sample_id")) for s in samples[:20])
            raise IngestError(f"{path}: no sample {sample!r} (samples: {ids})")
        samples = chosen
    if conversations is not None:
        samples = samples[:conversations]
    scores: list[ConversationScore] = []
    with tempfile.TemporaryDirectory(prefix="credo-eval-") as tmp:
        base = Path(workdir) if workdir else Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        for sample_data in samples:
            sid = str(sample_data.get("sample_id"))
            turns = read_locomo(path, sample=sid)
            dia = {t.id.split(":", 1)[1] for t in turns}
            store = SQLiteStore(base / f"{sid}.db", HashEmbedder())
            try:
                mem = Memory(store, scope="locomo")
                report = ingest(
                    mem,
                    turns,
                    extractor=extractor or RuleExtractor(),
                    episode_size=episode_size,
                    concurrency=concurrency,
                    resume=False,
                    progress=progress,
                )
            finally:
                store.close()
            produced = {t.split(":", 1)[1] for t in report.fact_turns}
            questions, malformed, empty = _questions(sample_data)
            unknown = sum(1 for ids in questions for i in ids if i not in dia)
            observed = _observed_turns(sample_data) & dia
            scores.append(
                ConversationScore(
                    sample_id=sid,
                    turns=len(turns),
                    turns_with_fact=len(produced),
                    questions=len(questions),
                    retained=sum(1 for ids in questions if all(i in produced for i in ids)),
                    candidates=report.candidates,
                    accepted=report.accepted,
                    rejected_by_code=dict(report.rejected_by_code.most_common()),
                    episodes=report.episodes,
                    failed_episodes=len(report.failed),
                    tokens=dict(report.usage),
                    seconds=round(report.seconds, 3),
                    malformed_evidence=malformed,
                    unknown_evidence=unknown,
                    questions_without_evidence=empty,
                    observation_turn_share=len(observed) / len(turns) if turns else 0.0,
                    observation_retention=(
                        sum(1 for ids in questions if all(i in observed for i in ids))
                        / len(questions)
                        if questions
                        else 0.0
                    ),
                )
            )
    return scores


def locomo_summary(scores: list[ConversationScore]) -> dict[str, Any]:
    turns = sum(s.turns for s in scores)
    questions = sum(s.questions for s in scores)
    obs_turns = sum(s.observation_turn_share * s.turns for s in scores)
    obs_kept = sum(s.observation_retention * s.questions for s in scores)
    return {
        "conversations": len(scores),
        "turns": turns,
        "turns_with_fact": sum(s.turns_with_fact for s in scores),
        "turn_share": round(sum(s.turns_with_fact for s in scores) / turns, 4) if turns else 0,
        "questions": questions,
        "retained": sum(s.retained for s in scores),
        "retention": round(sum(s.retained for s in scores) / questions, 4) if questions else 0,
        "candidates": sum(s.candidates for s in scores),
        "accepted": sum(s.accepted for s in scores),
        "episodes": sum(s.episodes for s in scores),
        "failed_episodes": sum(s.failed_episodes for s in scores),
        "tokens": {
            k: sum(s.tokens.get(k, 0) for s in scores)
            for k in ("prompt_tokens", "completion_tokens")
            if any(k in s.tokens for s in scores)
        },
        "seconds": round(sum(s.seconds for s in scores), 3),
        "malformed_evidence": sum(s.malformed_evidence for s in scores),
        "unknown_evidence": sum(s.unknown_evidence for s in scores),
        "observation_turn_share": round(obs_turns / turns, 4) if turns else 0,
        "observation_retention": round(obs_kept / questions, 4) if questions else 0,
        "targets": {"turn_share_at_most": 1 / 3, "retention_at_least": 0.6},
    }


# -- PersonaExt ---------------------------------------------------------------------------
def evaluate_personaext(
    path: str | Path, *, limit: int | None = None, extractor: Extractor | None = None
) -> dict[str, Any]:
    """Each utterance alone, as one user turn, into its own scope of one store."""
    extractor = extractor or RuleExtractor()
    rows: list[dict[str, Any]] = []
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit is not None and len(rows) >= limit:
                break
    stored = with_tail_object = with_tail_text = 0
    by_relation: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="credo-eval-") as tmp:
        store = SQLiteStore(Path(tmp) / "personaext.db", HashEmbedder())
        try:
            for n, row in enumerate(rows):
                mem = Memory(store, scope=f"u{n}")
                turn = Turn(f"u{n}", "user", str(row.get("text", "")))
                report = ingest(mem, [turn], extractor=extractor)
                facts = [f for f in mem.list() if f.is_live]
                tail = str(row.get("tail", "")).lower().strip()
                got = bool(report.accepted)
                obj_hit = (
                    got and bool(tail) and any(tail in (f.object or "").lower() for f in facts)
                )
                text_hit = got and bool(tail) and any(tail in f.text.lower() for f in facts)
                stored += got
                with_tail_object += obj_hit
                with_tail_text += text_hit
                counts = by_relation.setdefault(str(row.get("relation")), [0, 0, 0])
                counts[0] += 1
                counts[1] += got
                counts[2] += obj_hit
        finally:
            store.close()
    total = len(rows)
    top = sorted(by_relation.items(), key=lambda kv: -kv[1][0])[:15]
    return {
        "utterances": total,
        "stored": stored,
        "stored_share": round(stored / total, 4) if total else 0,
        "object_has_tail": with_tail_object,
        "object_has_tail_share": round(with_tail_object / total, 4) if total else 0,
        "text_has_tail": with_tail_text,
        "text_has_tail_share": round(with_tail_text / total, 4) if total else 0,
        "by_relation": {
            k: {"utterances": v[0], "stored": v[1], "object_has_tail": v[2]} for k, v in top
        },
    }
