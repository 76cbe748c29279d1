"""Conversations in, facts out: readers for conversation files, and `ingest()`.

Readers turn a file into `Turn`s with their own times (JSON Lines, OpenAI-style message
arrays, LoCoMo); a file over `config.MAX_INPUT_BYTES`, a JSON Lines line over
`config.MAX_LINE_BYTES` or JSON nested too deeply is an `IngestError`, never a traceback.
`ingest()` checks every turn before it writes anything (a turn holds at most
`config.MAX_TURN_CHARS` characters), cuts the turns into episodes, honours "don't remember"
requests first, extracts per episode (not per message), and sends every candidate through
`Memory.remember_candidate`, the one path past the gate and the resolver. Facts carry the
time of the turn they came from, never the time of the ingest.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import gate
from .config import (
    EPISODE_SIZE,
    MAX_INPUT_BYTES,
    MAX_LABEL_CHARS,
    MAX_REF_CHARS,
    MAX_TURN_CHARS,
)
from .errors import IngestError, InvalidInput
from .extract.base import Extraction, Extractor, Turn
from .keys import display_name
from .memory import Memory
from .secrets import mask_field, mask_secrets
from .store.base import IngestOutcome
from .suppress import AppliedRequest, SuppressionRequest, detect, plan_request
from .suppress_request import split_requests
from .textcheck import CONTROL as _CONTROL
from .textcheck import rejection_excerpt
from .timeparse import EARLIEST, LATEST, parse_timestamp
from .transfer import read_json_lines

__all__ = [
    "FORMATS",
    "EXPORT_FORMATS",
    "EpisodeProgress",
    "IngestError",
    "check_turns",
    "IngestReport",
    "detect_format",
    "episode_key",
    "episodes",
    "extractor_id",
    "ingest",
    "masked_turns",
    "parse_timestamp",
    "read_jsonl",
    "read_locomo",
    "read_openai",
    "read_turns",
]

FORMATS = ("auto", "jsonl", "openai", "locomo", "chatgpt", "claude", "notes")
#: the formats of the histories people download (`credo.exports`): their episodes are
#: keyed by conversation, so a later, larger export resumes where an earlier one stopped
EXPORT_FORMATS = ("chatgpt", "claude", "notes")
#: what a turn's content may not hold: control characters (tab and line breaks aside) and
#: lone surrogates (what bytes that are not UTF-8 become when read leniently)
_NOT_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
DEFAULT_EPISODE_SIZE = EPISODE_SIZE
#: consecutive episodes whose extraction failed outright before ingest gives up
MAX_FAILED_EPISODES = 3
#: how many times an episode is cut in two after a timeout or a context overflow
MAX_SPLIT_DEPTH = 3
#: a failed episode's recorded reason is cut to this
MAX_REASON_CHARS = 500
_ROLE_ALIASES = {
    "human": "user",
    "ai": "assistant",
    "bot": "assistant",
    "model": "assistant",
    "function": "tool",
}


# -- readers ------------------------------------------------------------------------------
def _content(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # OpenAI content parts: keep the text ones
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in value]
        return "\n".join(p for p in parts if isinstance(p, str) and p)
    if value is None:
        return ""
    raise IngestError(f"{where}: 'content' must be text, not {type(value).__name__}")


def _message_turn(msg: Any, n: int, where: str, default_id: str) -> Turn | None:
    if not isinstance(msg, dict):
        raise IngestError(f"{where}: expected an object with 'role' and 'content'")
    role = str(msg.get("role", "")).strip().lower()
    role = _ROLE_ALIASES.get(role, role)
    if role in ("system", "developer"):
        return None  # instructions to the model, not something anyone said
    if role not in ("user", "assistant", "tool"):
        raise IngestError(f"{where}: role {msg.get('role')!r}: use user, assistant or tool")
    if "content" not in msg:
        raise IngestError(f"{where}: no 'content'")
    content = _content(msg.get("content"), where)
    stamp = next((msg[k] for k in ("timestamp", "time", "created_at", "date") if k in msg), None)
    speaker = msg.get("speaker") or msg.get("name")
    return Turn(
        id=str(msg["id"]) if msg.get("id") not in (None, "") else default_id,
        role=role,
        content=content,
        timestamp=parse_timestamp(stamp, where=where),
        speaker=str(speaker) if speaker else None,
    )


def read_jsonl(path: str | Path) -> list[Turn]:
    """One JSON object per line: {role, content, timestamp?, id?, speaker?}."""
    path = Path(path)
    _check_size(path)
    turns: list[Turn] = []
    with _open(path, "rb") as fh:
        for n, msg in read_json_lines(fh, name=str(path), error=IngestError, at="{name}:{n}"):
            turn = _message_turn(msg, n, f"{path}:{n}", f"{path.stem}:{n}")
            if turn is not None:
                turns.append(turn)
    return turns


def read_openai(path: str | Path) -> list[Turn]:
    """A JSON array of {role, content} messages, or {"messages": [...]}."""
    path = Path(path)
    data = _load_json(path)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list):
        raise IngestError(f'{path}: expected a JSON array of messages or {{"messages": [...]}}')
    turns = []
    for n, msg in enumerate(data, 1):
        turn = _message_turn(msg, n, f"{path}: message {n}", f"{path.stem}:{n}")
        if turn is not None:
            turns.append(turn)
    return turns


def read_locomo(path: str | Path, *, sample: str | None = None) -> list[Turn]:
    """LoCoMo: samples with `conversation` holding `session_N` turn lists and
    `session_N_date_time`. Each speaker is a subject, so every turn is a user turn of its
    speaker; turn ids are `<sample_id>:<dia_id>`, episodes are sessions."""
    path = Path(path)
    data = _load_json(path)
    samples = data if isinstance(data, list) else [data]
    chosen = [
        s
        for s in samples
        if isinstance(s, dict) and (sample is None or str(s.get("sample_id")) == sample)
    ]
    if sample is not None and not chosen:
        ids = ", ".join(str(s.get("sample_id")) for s in samples if isinstance(s, dict))
        raise IngestError(f"{path}: no sample {sample!r} (samples: {ids or 'none'})")
    turns: list[Turn] = []
    for k, s in enumerate(chosen):
        conv = s.get("conversation")
        if not isinstance(conv, dict):
            raise IngestError(f"{path}: sample {k} has no 'conversation' object")
        sid = str(s.get("sample_id") or f"sample-{k}")
        sessions = sorted(
            (int(m.group(1)), key)
            for key in conv
            if (m := re.fullmatch(r"session_(\d+)", key)) and isinstance(conv[key], list)
        )
        for number, key in sessions:
            where = f"{path}: {sid} {key}"
            stamp = parse_timestamp(conv.get(f"{key}_date_time"), where=where)
            for j, t in enumerate(conv[key], 1):
                if not isinstance(t, dict) or not isinstance(t.get("text"), str):
                    raise IngestError(f"{where} turn {j}: expected {{speaker, dia_id, text}}")
                text = t["text"]
                if t.get("blip_caption"):
                    # the photo is part of what was said ("look at this!")
                    text += f" [shares a photo: {t['blip_caption']}]"
                turns.append(
                    Turn(
                        id=f"{sid}:{t.get('dia_id') or f'D{number}:{j}'}",
                        role="user",
                        content=text,
                        timestamp=stamp,
                        speaker=str(t.get("speaker") or "") or None,
                        episode=f"{sid}:{key}",
                    )
                )
    return turns


def _open(path: Path, mode: str) -> Any:
    try:
        return path.open(mode)
    except OSError as exc:
        raise IngestError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _check_size(path: Path) -> None:
    """A conversation file is read whole (JSON) or line by line (JSON Lines); either way
    one larger than `MAX_INPUT_BYTES` is refused before it is read."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise IngestError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if size > MAX_INPUT_BYTES:
        raise IngestError(
            f"{path} is {size} bytes; credo ingests at most {MAX_INPUT_BYTES} "
            "bytes a file: split it"
        )


def _load_json(path: Path) -> Any:
    _check_size(path)
    with _open(path, "rb") as fh:
        data = fh.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise IngestError(f"{path}: over {MAX_INPUT_BYTES} bytes: split it")
    try:
        return json.loads(data)
    except RecursionError:
        raise IngestError(f"{path}: nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise IngestError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    except ValueError as exc:  # not UTF-8, or a number longer than Python reads
        raise IngestError(f"{path}: not JSON ({str(exc)[:100]})") from None


def detect_format(path: str | Path) -> str:
    """jsonl, openai, locomo, chatgpt, claude or notes, from the file's name and first
    bytes (a folder is notes; an export may be its .zip)."""
    from .exports import detect_export

    path = Path(path)
    export = detect_export(path)
    if export is not None:
        return export
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl"
    with _open(path, "rb") as fh:
        head = fh.read(4096).decode("utf-8", errors="replace").lstrip()
    if head.startswith("{") and '"conversation"' in head[:4096] or '"speaker_a"' in head:
        return "locomo"
    if head.startswith("["):
        return "locomo" if '"conversation"' in head or '"qa"' in head else "openai"
    if head.startswith("{"):
        first_line = head.split("\n", 1)[0].strip()
        try:
            obj = json.loads(first_line)
        except (ValueError, RecursionError):  # the reader says what is wrong with it
            return "openai"
        return "jsonl" if isinstance(obj, dict) and "role" in obj else "openai"
    raise IngestError(f"{path}: cannot tell the format; pass --format {'|'.join(FORMATS[1:])}")


def read_turns(path: str | Path, *, fmt: str = "auto", sample: str | None = None) -> list[Turn]:
    if fmt not in FORMATS:
        raise IngestError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    fmt = detect_format(path) if fmt == "auto" else fmt
    if fmt in EXPORT_FORMATS:
        from . import exports

        reader = {
            "chatgpt": exports.read_chatgpt,
            "claude": exports.read_claude,
            "notes": exports.read_notes,
        }[fmt]
        return reader(path)
    if fmt == "jsonl":
        return read_jsonl(path)
    if fmt == "openai":
        return read_openai(path)
    return read_locomo(path, sample=sample)


# -- episodes -----------------------------------------------------------------------------
def episodes(turns: Sequence[Turn], size: int = DEFAULT_EPISODE_SIZE) -> Iterator[list[Turn]]:
    """Consecutive turns of one session, at most `size` at a time."""
    if size < 1:
        raise InvalidInput("an episode holds at least one turn")
    batch: list[Turn] = []
    for turn in turns:
        if batch and (len(batch) >= size or turn.episode != batch[-1].episode):
            yield batch
            batch = []
        batch.append(turn)
    if batch:
        yield batch


# -- the report ---------------------------------------------------------------------------
@dataclass
class EpisodeProgress:
    """One episode's outcome, as `ingest` hands it to its `progress` callback."""

    index: int  # 1-based, in the order of the input
    total: int
    status: str  # "done", "failed" or "skipped" (done by an earlier run)
    turns: int
    accepted: int = 0
    rejected: int = 0
    seconds: float = 0.0  # extraction and judging
    usage: dict[str, int] = field(default_factory=dict)
    splits: int = 0  # times it was cut in two after a timeout or a context overflow
    reason: str = ""


@dataclass
class IngestReport:
    """What an ingest read, proposed, stored and refused."""

    dry_run: bool = False
    turns: int = 0
    user_turns: int = 0
    episodes: int = 0
    candidates: int = 0
    accepted: int = 0
    rejected: int = 0
    rejected_by_code: Counter[str] = field(default_factory=Counter)
    relations: Counter[str] = field(default_factory=Counter)
    unresolved_conflicts: int = 0
    fact_turns: set[str] = field(default_factory=set)  # turns that produced a stored fact
    accepted_facts: list[dict[str, Any]] = field(default_factory=list)
    rejected_candidates: list[dict[str, Any]] = field(default_factory=list)
    suppressions: list[AppliedRequest] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    skipped: int = 0  # episodes an earlier run of the same input had done
    failed: list[dict[str, Any]] = field(default_factory=list)  # {"episode", "reason"}
    splits: int = 0
    usage: Counter[str] = field(default_factory=Counter)  # prompt_tokens, completion_tokens
    seconds: float = 0.0

    @property
    def accepted_per_turn(self) -> float:
        """Share of turns that produced at least one stored fact (the seed's Tier 3 rate)."""
        return len(self.fact_turns) / self.turns if self.turns else 0.0

    @property
    def accepted_per_user_turn(self) -> float:
        return len(self.fact_turns) / self.user_turns if self.user_turns else 0.0

    @property
    def accept_ratio(self) -> float:
        """Share of the candidates the gate and the resolver kept."""
        return self.accepted / self.candidates if self.candidates else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "turns": self.turns,
            "user_turns": self.user_turns,
            "episodes": self.episodes,
            "episodes_skipped": self.skipped,
            "episodes_failed": self.failed,
            "episode_splits": self.splits,
            "candidates": self.candidates,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "accept_ratio": round(self.accept_ratio, 4),
            "rejected_by_code": dict(self.rejected_by_code.most_common()),
            "turns_with_fact": len(self.fact_turns),
            "accepted_per_turn": round(self.accepted_per_turn, 4),
            "accepted_per_user_turn": round(self.accepted_per_user_turn, 4),
            "relations": {
                r: self.relations.get(r, 0)
                for r in ("new", "duplicate", "refinement", "update", "conflict")
            },
            "unresolved_conflicts": self.unresolved_conflicts,
            "tokens": dict(self.usage),
            "seconds": round(self.seconds, 3),
            "suppressions": [s.to_dict() for s in self.suppressions],
            "accepted_facts": self.accepted_facts,
            "rejected_candidates": self.rejected_candidates,
            "notes": self.notes,
            "errors": self.errors,
        }


# -- episode bookkeeping ------------------------------------------------------------------
def extractor_id(extractor: Extractor) -> str:
    """What tells two extractors' outcomes apart in the ingest records: the name, the
    model behind an LLM extractor, and the rule extractor's mode."""
    parts = [str(getattr(extractor, "name", type(extractor).__name__))]
    model = getattr(getattr(extractor, "client", None), "model", None)
    if model:
        parts.append(str(model))
    if getattr(extractor, "broad", False):
        parts.append("broad")
    return ":".join(parts)


def episode_key(turns: Sequence[Turn], index: int, extractor: str) -> str:
    """A stable id for an episode: a digest of its turns (ids, roles, text, times,
    speakers, sessions), its position in the input and the extractor. The same file read
    again gives the same keys; an edited turn, another --episode-size or another model
    gives new ones, so that episode is extracted afresh."""
    digest = hashlib.sha256()
    for t in turns:
        digest.update(
            json.dumps([t.id, t.role, t.content, t.timestamp, t.speaker, t.episode]).encode()
        )
        digest.update(b"\n")
    digest.update(f"{index}\x00{extractor}".encode())
    return digest.hexdigest()[:32]


@dataclass
class _Plan:
    """An episode before extraction: its turns, what goes to the extractor, and the
    "don't remember" requests to honour before its candidates are judged."""

    index: int
    turns: list[Turn]
    sources: list[Turn]
    requests: list[_Request]
    key: str
    prior: IngestOutcome | None = None


@dataclass(frozen=True)
class _Request:
    """A "don't remember" request of a user turn: the turn, the request, the speaker's
    previous turn (what a "don't remember that" names), and, when its "that" names what
    was said before it in the same turn, those sentences (not extracted: refused)."""

    turn: Turn
    request: SuppressionRequest
    before: Turn | None
    speaker: str
    names: tuple[str, ...] = ()


def _plan(
    batches: Sequence[list[Turn]], self_name: str, extractor: str, session_keys: bool = False
) -> tuple[list[_Plan], int]:
    """Each episode's sources and requests (no writes), and how many user turns. With
    `session_keys`, an episode's key counts its place in its session, not in the input.

    A turn holding a request and other sentences ("I moved to Porto. Don't store my
    salary.") gives the request, and the other sentences go to the extractor as the turn
    (`suppress_request.split_requests`): none is lost. A turn without a timestamp is read
    as said when the turn before it in its session was (the key is the turn as given)."""
    previous: dict[str, Turn] = {}  # each speaker's last user turn, for "don't remember that"
    plans: list[_Plan] = []
    in_session: Counter[str | None] = Counter()
    last_said: dict[str | None, float] = {}  # each session's latest timestamp so far
    user_turns = 0
    for index, batch in enumerate(batches):
        sources: list[Turn] = []
        requests: list[_Request] = []
        for turn in batch:
            if turn.timestamp is None and turn.episode in last_said:
                turn = replace(turn, timestamp=last_said[turn.episode])
            elif turn.timestamp is not None:
                last_said[turn.episode] = turn.timestamp
            if turn.role != "user":
                sources.append(turn)
                continue
            user_turns += 1
            speaker = turn.speaker or self_name
            request = detect(turn.content)
            if request is None:
                sources.append(turn)
                previous[speaker] = turn
                continue
            parts = split_requests(turn.content)
            if parts is None:
                requests.append(_Request(turn, request, previous.get(speaker), speaker))
                continue
            for _, each, names in parts.requests:
                before = None if names else previous.get(speaker)
                requests.append(_Request(turn, each, before, speaker, names))
            if parts.kept:
                kept = replace(turn, content=" ".join(parts.kept))
                sources.append(kept)
                previous[speaker] = kept
        place = index
        if session_keys:
            place = in_session[batch[0].episode]
            in_session[batch[0].episode] += 1
        plans.append(_Plan(index, batch, sources, requests, episode_key(batch, place, extractor)))
    return plans, user_turns


def _refs(batch: Sequence[Turn]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*(t.episode for t in batch if t.episode), *(t.id for t in batch)]))


# -- ingest -------------------------------------------------------------------------------
def ingest(
    memory: Memory,
    turns: Iterable[Turn],
    *,
    extractor: Extractor | None = None,
    dry_run: bool = False,
    episode_size: int = DEFAULT_EPISODE_SIZE,
    concurrency: int = 1,
    resume: bool = True,
    force: bool = False,
    progress: Callable[[EpisodeProgress], None] | None = None,
    session_keys: bool = False,
) -> IngestReport:
    """Extract facts from `turns` into `memory`, episode by episode.

    Suppression requests are honoured before the episode's candidates are judged, so "don't
    remember that" also covers the turn just before it. With `dry_run`, the gate alone
    judges each candidate and nothing is written (not even the rejections).

    Each episode is judged and its outcome recorded in one transaction (`IngestOutcome`):
    with `resume` (the default) an episode an earlier run of the same input finished is
    skipped and one that failed is tried again, so a re-run neither loses nor duplicates
    anything, and an interrupted run loses only the episodes in flight. `force` redoes
    finished episodes too (their earlier rejections are replaced, not kept twice). An
    episode whose extraction timed out or overflowed the model's context is cut in
    halves and retried before it counts as failed. `concurrency` episodes are extracted
    at once (threads; judging stays in order, one episode at a time). `progress` is
    called after each episode.

    An episode's record is keyed by its turns and its place in the input; with
    `session_keys` (what the export formats use: their turn ids are the export's own,
    and each conversation a session) by its place in its session instead, so a later
    export holding more conversations, or more of one, skips every episode it shares
    with the one ingested before.
    """
    from .extract.rules import RuleExtractor

    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise InvalidInput(
            f"concurrency is how many episodes to extract at once: 1 or more, not {concurrency!r}"
        )
    started = time.monotonic()
    all_turns = list(turns)
    check_turns(all_turns)
    # secrets are masked in each whole turn before it is cut into sentences or shown to
    # an extractor (a model API is a third party): a candidate holding a masked secret is
    # refused by the gate, and a key block or a seed phrase never reaches one whole
    all_turns = masked_turns(all_turns)
    extractor = extractor or RuleExtractor(policy=memory.policy)
    report = IngestReport(dry_run=dry_run)
    self_name = display_name(memory.canonical_subject())
    plans, report.user_turns = _plan(
        list(episodes(all_turns, episode_size)), self_name, extractor_id(extractor), session_keys
    )
    report.episodes = len(plans)
    report.turns = len(all_turns)
    record = resume and not dry_run
    if record:
        known = memory.store.ingest_outcomes(scope=memory.scope, keys=[p.key for p in plans])
        for plan in plans:
            plan.prior = known.get(plan.key)
    todo: list[_Plan] = []
    for plan in plans:
        if plan.prior is not None and plan.prior.status == "done" and not force:
            report.skipped += 1
            if progress:
                progress(
                    EpisodeProgress(
                        plan.index + 1,
                        len(plans),
                        "skipped",
                        len(plan.turns),
                        plan.prior.accepted,
                        plan.prior.rejected,
                    )
                )
        else:
            todo.append(plan)
    suppressed: set[str] = set()
    pending_rules: list[gate.Suppression] = []  # dry-run rules, never saved
    failed_in_a_row = 0
    extracted = _extractions(extractor, todo, self_name, concurrency)
    try:
        for plan, extraction, seconds in extracted:
            t0 = time.monotonic()
            outcome = _episode(
                memory, plan, extraction, report, suppressed, pending_rules, record, force
            )
            outcome.seconds = seconds + time.monotonic() - t0
            outcome.total = len(plans)
            if progress:
                progress(outcome)
            failed_in_a_row = failed_in_a_row + 1 if outcome.status == "failed" else 0
            if failed_in_a_row >= MAX_FAILED_EPISODES and plan is not todo[-1]:
                report.errors.append(
                    f"stopped after {failed_in_a_row} episodes in a row failed"
                    + ("; run the same command again to retry them" if record else "")
                )
                break
    finally:
        extracted.close()
    if not dry_run:
        report.unresolved_conflicts = len(memory.conflicts())
    report.seconds = time.monotonic() - started
    return report


def _extractions(
    extractor: Extractor, plans: Sequence[_Plan], self_name: str, concurrency: int
) -> Generator[tuple[_Plan, Extraction, float], None, None]:
    """Each plan with its extraction and the seconds it took, in order; up to
    `concurrency` extractions run at once, ahead of the one being judged."""

    def run(plan: _Plan) -> tuple[Extraction, float]:
        t0 = time.monotonic()
        extraction = _extract_split(extractor, plan.sources, self_name)
        return extraction, time.monotonic() - t0

    if concurrency <= 1:
        for plan in plans:
            yield (plan, *run(plan))
        return
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="credo-extract")
    try:
        ahead: dict[int, Future[tuple[Extraction, float]]] = {}
        for n, plan in enumerate(plans):
            for m in range(n, min(n + concurrency, len(plans))):
                if m not in ahead:
                    ahead[m] = pool.submit(run, plans[m])
            yield (plan, *ahead.pop(n).result())
    finally:
        # an interrupted ingest waits for no extraction it will never judge
        pool.shutdown(wait=False, cancel_futures=True)


def _extract_split(
    extractor: Extractor, turns: Sequence[Turn], self_name: str, depth: int = 0
) -> Extraction:
    """Extract; when that fails in a way fewer turns may not (a timeout, a context
    overflow), extract each half instead, down to `MAX_SPLIT_DEPTH` levels."""
    extraction = _extract(extractor, turns, self_name)
    if not (extraction.errors and extraction.retry_smaller):
        return extraction
    if len(turns) < 2 or depth >= MAX_SPLIT_DEPTH:
        return extraction
    mid = len(turns) // 2
    out = Extraction(notes=list(extraction.notes))
    out.notes.append(
        f"split {turns[0].id}..{turns[-1].id} ({len(turns)} turns) in two after: "
        f"{extraction.errors[0]}"
    )
    out.extend(_extract_split(extractor, turns[:mid], self_name, depth + 1))
    out.extend(_extract_split(extractor, turns[mid:], self_name, depth + 1))
    return out


def _episode(
    memory: Memory,
    plan: _Plan,
    extraction: Extraction,
    report: IngestReport,
    suppressed: set[str],
    pending_rules: list[gate.Suppression],
    record: bool,
    force: bool,
) -> EpisodeProgress:
    """Honour the episode's requests, judge its candidates and record its outcome, all in
    one transaction: an interrupted episode leaves nothing behind, a finished one all."""
    dry_run = report.dry_run
    splits = sum(1 for n in extraction.notes if n.startswith("split "))
    outcome = EpisodeProgress(plan.index + 1, 0, "done", len(plan.turns), splits=splits)
    outcome.usage = dict(extraction.usage)
    accepted, rejected = report.accepted, report.rejected
    refs = _refs(plan.turns)
    with nullcontext() if dry_run else memory.store.transaction():
        if force and plan.prior is not None and plan.prior.status == "done":
            memory.store.drop_rejections_from(scope=memory.scope, refs=[t.id for t in plan.turns])
        for asked in plan.requests:
            # requests of an episode tried before were honoured then: the rules are stored
            again = plan.prior is not None
            before = asked.before
            applied = memory.honour(
                plan_request(
                    asked.request,
                    turn_id=asked.turn.id,
                    subject=asked.speaker,
                    previous_id=before.id if before else None,
                    previous_text=" ".join(asked.names) or (before.content if before else None),
                ),
                dry_run=dry_run or again,
            )
            if not again:
                report.suppressions.append(applied)
            for _ in asked.names:  # said, then asked not to be kept: listed, never shown
                report.rejected += 1
                report.rejected_by_code["suppressed"] += 1
                report.rejected_candidates.append(
                    {
                        "text": "(not shown: the user asked not to remember it)",
                        "code": "suppressed",
                        "reason": "the same turn asks not to remember it",
                        "turns": [asked.turn.id],
                    }
                )
            suppressed.update(applied.suppressed_turns)
            if dry_run:
                pending_rules.extend(applied.rules)
        report.notes.extend(extraction.notes)
        if extraction.errors:
            outcome.status = "failed"
            outcome.reason = "; ".join(extraction.errors)[:MAX_REASON_CHARS]
            report.errors.extend(extraction.errors)
            span = f"{plan.turns[0].id}..{plan.turns[-1].id}"
            report.failed.append({"episode": span, "reason": outcome.reason})
        else:
            rules = [*memory.suppressions(), *pending_rules]
            episode_of = {t.id: t.episode for t in plan.turns if t.episode}
            for candidate in extraction.candidates:
                _judge(memory, candidate, rules, suppressed, report, episode_of)
        outcome.accepted = report.accepted - accepted
        outcome.rejected = report.rejected - rejected
        if record:
            memory.store.record_ingest_outcome(
                IngestOutcome(
                    memory.scope,
                    plan.key,
                    outcome.status,
                    outcome.reason,
                    refs,
                    outcome.accepted,
                    outcome.rejected,
                    memory.clock(),
                )
            )
    report.splits += splits
    report.usage.update(extraction.usage)
    return outcome


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_turns(turns: Sequence[Turn]) -> None:
    """Every turn is well formed and within the limits, or IngestError (naming the turn)
    before anything is extracted or written: content is text of at most `MAX_TURN_CHARS`
    characters, ids and episodes at most `MAX_REF_CHARS`, a speaker at most
    `MAX_LABEL_CHARS`, a timestamp a finite number of seconds."""
    for n, turn in enumerate(turns, 1):
        if not isinstance(turn, Turn):
            raise IngestError(
                f"turn {n}: expected a credo.extract.base.Turn, not {type(turn).__name__}"
            )
        where = f"turn {n}"
        if (
            not isinstance(turn.id, str)
            or not turn.id.strip()
            or len(turn.id) > MAX_REF_CHARS
            or _CONTROL.search(turn.id)
        ):
            raise IngestError(
                f"{where}: its id must be text of 1 to {MAX_REF_CHARS} "
                f"characters, without control characters, not {_shown(turn.id)}"
            )
        where = f"turn {n} ({_shown(turn.id)})"
        if turn.role not in ("user", "assistant", "tool"):
            raise IngestError(f"{where}: role {_shown(turn.role)}: use user, assistant or tool")
        if not isinstance(turn.content, str):
            raise IngestError(f"{where}: content must be text, not {type(turn.content).__name__}")
        if bad := _NOT_TEXT.search(turn.content):
            raise IngestError(
                f"{where}: its content holds {_shown(bad.group())} at character "
                f"{bad.start() + 1} (a control character such as NUL, or bytes that are not "
                "UTF-8): remove it (nothing was ingested)"
            )
        if len(turn.content) > MAX_TURN_CHARS:
            raise IngestError(
                f"{where} is {len(turn.content)} characters; a turn is at most "
                f"{MAX_TURN_CHARS}: split it (nothing was ingested)"
            )
        if turn.episode is not None and (
            not isinstance(turn.episode, str)
            or len(turn.episode) > MAX_REF_CHARS
            or _CONTROL.search(turn.episode)
        ):
            raise IngestError(
                f"{where}: its episode must be text of at most {MAX_REF_CHARS} "
                "characters, without control characters"
            )
        if turn.speaker is not None and (
            not isinstance(turn.speaker, str)
            or len(turn.speaker) > MAX_LABEL_CHARS
            or _CONTROL.search(turn.speaker)
        ):
            raise IngestError(
                f"{where}: its speaker must be text of at most "
                f"{MAX_LABEL_CHARS} characters, without control characters"
            )
        stamp = turn.timestamp
        if stamp is not None and (
            isinstance(stamp, bool)
            or not isinstance(stamp, (int, float))
            or not math.isfinite(stamp)
            or not EARLIEST <= stamp <= LATEST
        ):
            raise IngestError(
                f"{where}: timestamp must be epoch seconds (the years 1 to "
                f"9999), not {_shown(stamp)}"
            )


def masked_turns(turns: Sequence[Turn]) -> list[Turn]:
    """The turns with the secrets in their text, ids, episode and speaker masked (each
    text looked at whole, before anything splits it)."""
    out = []
    for turn in turns:
        masked = replace(
            turn,
            id=mask_field(turn.id),
            content=mask_secrets(turn.content),
            episode=mask_field(turn.episode) if turn.episode else turn.episode,
            speaker=mask_field(turn.speaker) if turn.speaker else turn.speaker,
        )
        out.append(masked if masked != turn else turn)
    return out


def _extract(extractor: Extractor, turns: Sequence[Turn], self_name: str) -> Extraction:
    if not turns:
        return Extraction()
    return extractor.extract_episode(turns, self_name=self_name)


def _judge(
    memory: Memory,
    candidate: gate.Candidate,
    rules: Sequence[gate.Suppression],
    suppressed: set[str],
    report: IngestReport,
    episode_of: dict[str, str] | None = None,
) -> None:
    report.candidates += 1
    source_turns = list(candidate.derived_from)
    episodes_of = [episode_of[t] for t in source_turns if episode_of and t in episode_of]
    if episodes_of:
        # provenance names the episode too, so `forget --episode` takes a whole session
        candidate = replace(
            candidate, derived_from=tuple(dict.fromkeys([*candidate.derived_from, *episodes_of]))
        )
    if candidate.subject:
        # rules name normalised subjects; compare like with like
        try:
            candidate = replace(candidate, subject=memory.entity(candidate.subject))
        except InvalidInput:
            candidate = replace(candidate, subject=None)
    these = list(rules)
    hit = next((t for t in candidate.derived_from if t in suppressed), None)
    if hit is not None:
        # the user asked not to remember this very turn: refuse whatever words it used
        words = tuple(dict.fromkeys(re.findall(r"\w+", candidate.text.lower())))[:8]
        these.insert(0, gate.Suppression(f"turn:{hit}", f"what was said in {hit}", None, words))
    if report.dry_run:
        verdict = gate.check(candidate, memory.policy, suppressions=these)
        accepted, code, why = verdict.accepted, verdict.code, verdict.reason
        relation, fact_id, text = None, None, candidate.text
    else:
        result = memory.remember_candidate(candidate, rules=these)
        accepted, code, why = result.accepted, result.code, result.why
        relation = result.relation.value if result.relation else None
        fact_id = result.fact.id if result.fact else None
        text = result.fact.text if result.fact else candidate.text
    turns = source_turns
    if accepted:
        report.accepted += 1
        if relation:
            report.relations[relation] += 1
        report.fact_turns.update(turns)
        report.accepted_facts.append(
            {
                "id": fact_id,
                "text": text,
                "relation": relation,
                "subject": candidate.subject,
                "source": candidate.source,
                "turns": turns,
                "valid_from": candidate.valid_from,
            }
        )
    else:
        report.rejected += 1
        report.rejected_by_code[code] += 1
        shown = rejection_excerpt(candidate.text)  # as the stored rejection: masked, bounded
        report.rejected_candidates.append(
            {"text": shown, "code": code, "reason": why, "turns": turns}
        )
