"""Extraction by a chat model, held to the gate's contract and checked item by item.

The prompt is the seed's: durable, specific, sourced, asserted; the NEVER list; keep and
refuse examples. All of it comes from the store's `GatePolicy`, so editing the policy edits
the prompt. Turns are shown with small integer indices ([0], [1], ...) instead of their
ids: models copy short numbers reliably and long ids badly. Each returned item names the
indices it came from, which are mapped back to turn ids (`derived_from`) and to the latest
of their times (`valid_from`).

The reply is validated with pydantic, one item at a time: a malformed reply costs the
episode its candidates, a malformed item costs only itself, and either way the reason is
recorded in `Extraction.notes`. Nothing the model says is stored here: every candidate
still goes through the gate.

Secrets are masked before the turns leave the process (a model API is a third party).
If the model echoes a masked value back, the original is put back into the candidate so
the gate refuses it with the reason `secret` and the stored rejection is masked again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..fact import SELF_REFERENCES, base_key
from ..gate import Candidate, GatePolicy
from ..llm import ChatClient, LLMError
from ..secrets import find_secrets
from .base import Extraction, Turn, latest_time

__all__ = ["EXTRACT_SCHEMA", "LLMExtractor", "ReplyItem", "build_prompt", "refused_reply"]

#: at most this many items are read from one reply; more is a summary, not extraction
MAX_ITEMS = 50
_EXCERPT = 200
#: a stretch of 8 to 200 characters said 6 times in a row, or a line said 4 times in a row
_REPEATS = re.compile(r"(.{8,200}?)\1{5,}|((?:^|\n)[^\n]{20,}\n)\2{3,}", re.DOTALL)

SYSTEM_PROMPT = """You extract durable facts from a conversation for a long-term memory.
Most conversations contain few or none: returning an empty list is the correct answer more
often than not. A wrong fact is worse than a missing one, because it will be asserted back
with confidence months from now.

A fact qualifies only if ALL of these hold:
- Durable: still true next month.
- Specific: names an entity and says something checkable about it.
- Sourced: stated in a user or tool turn, not inferred from tone or extrapolated.
- Asserted: not hedged, not an intention, not a maybe.

{deny_list}

Facts worth keeping look like:
{keep}

These are NOT facts; never return anything like them:
{refuse}

Rules for each item:
- "text": one self-contained sentence in the third person. Name people; never write "I",
  "me", "you" or "the speaker". When a user turn has no speaker name, that user is
  "{self_name}".
- Pin relative dates ("yesterday", "last year") to the turn's date.
- "turns": the [n] indices of the turns that state it. Only user or tool turns are sources;
  the assistant's turns are context, never sources.
- "source": "user" (or "tool" for a tool turn) when a turn states it directly; "inferred"
  only when it follows necessarily from what the turns state, and then list every turn it
  follows from.
- "subject", "predicate" (snake_case relation), "object": the best-effort triple.

Reply with JSON only: {{"facts": [...]}}, and {{"facts": []}} when nothing qualifies."""

EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "maxItems": MAX_ITEMS,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "subject": {"type": "string"},
                    "predicate": {"type": "string"},
                    "object": {"type": "string"},
                    "turns": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "source": {"type": "string", "enum": ["user", "tool", "inferred"]},
                },
                "required": ["text", "subject", "turns"],
            },
        }
    },
    "required": ["facts"],
}


class ReplyItem(BaseModel):
    """One fact as the model returns it; anything else is a malformed item."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    text: str = Field(min_length=1, max_length=2000)
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    turns: list[int] = Field(default_factory=list)
    source: Literal["user", "tool", "inferred"] = "user"

    @field_validator("subject", "predicate", "object", mode="before")
    @classmethod
    def _scalar_text(cls, value: Any) -> Any:
        # models often write a bare number or null where a string belongs
        if value is None or isinstance(value, str):
            return value or None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        raise ValueError("must be a string")

    @field_validator("turns", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, int) else value

    @field_validator("source", mode="before")
    @classmethod
    def _source_kind(cls, value: Any) -> Any:
        # "tool:github" -> "tool": the turn, not the model, says which tool
        return value.split(":", 1)[0].strip().lower() if isinstance(value, str) else value


def _date(ts: float | None) -> str:
    if ts is None:
        return ""
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def build_prompt(
    turns: Sequence[Turn],
    policy: GatePolicy,
    *,
    self_name: str,
    masked: Sequence[str] | None = None,
) -> list[dict[str, str]]:
    """The chat messages for one episode: the contract, then the numbered turns."""
    system = SYSTEM_PROMPT.format(
        deny_list=policy.deny_list.strip(),
        keep="\n".join(f"- {e}" for e in policy.keep_examples) or "- (none given)",
        refuse="\n".join(f"- {e}" for e in policy.refuse_examples) or "- (none given)",
        self_name=self_name,
    )
    contents = masked if masked is not None else [t.content for t in turns]
    lines = []
    for n, (turn, content) in enumerate(zip(turns, contents, strict=True)):
        who = turn.role if not turn.speaker else f"{turn.role} {turn.speaker}"
        when = f" ({_date(turn.timestamp)})" if turn.timestamp is not None else ""
        lines.append(f"[{n}] {who}{when}: {content}")
    user = "Conversation:\n" + "\n".join(lines) + "\n\nReturn the facts as JSON."
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _strip_fence(text: str) -> str:
    fenced = re.search(r"```(?:json|JSON)?\s*\n?(.*?)```", text, re.DOTALL)
    return fenced.group(1).strip() if fenced else text.strip()


def _parse_reply(reply: str) -> tuple[list[Any] | None, str | None]:
    """The list of raw items in a reply, or (None, why) when there is none to read.

    Accepts {"facts": [...]}, a bare array, code fences, and prose around the JSON.
    """
    text = _strip_fence(reply)
    for candidate in (text, _outermost_json(text)):
        if not candidate:
            continue
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(data, list):
            return data, None
        if isinstance(data, dict):
            for key in ("facts", "items", "results"):
                if isinstance(data.get(key), list):
                    return data[key], None
            if "text" in data:
                return [data], None  # one fact, not wrapped
            return None, f"reply is a JSON object without a 'facts' list: {_excerpt(reply)}"
        return None, f"reply is JSON but not a list of facts: {_excerpt(reply)}"
    return None, f"reply is not JSON: {_excerpt(reply)}"


def refused_reply(reply: str) -> str | None:
    """Why a reply is refused before it is read, or None: it was cut off at the token
    limit (a truncated list may still parse, minus what was cut), or it degenerated into
    repeating itself (small models loop: the same words over and over inside a string)."""
    if getattr(reply, "truncated", False):
        return f"the reply was cut off at the model's token limit: {_excerpt(reply)}"
    if not reply.strip():
        return "the reply was empty"
    looped = _REPEATS.search(reply)
    if looped is not None:
        return f"the reply repeats {_excerpt(looped.group(1) or looped.group(2))} over and over"
    return None


def _outermost_json(text: str) -> str | None:
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return None
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    return text[start : end + 1] if end > start else None


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= _EXCERPT else flat[:_EXCERPT] + "...")


class LLMExtractor:
    """Episode -> candidates, by a chat model prompted with the gate's contract."""

    name = "llm"

    def __init__(
        self,
        client: ChatClient,
        *,
        policy: GatePolicy | None = None,
        allow_inferred: bool = True,
        mask_secrets: bool = True,
    ) -> None:
        self.client = client
        self.policy = policy or GatePolicy()
        self.allow_inferred = allow_inferred
        self.mask_secrets = mask_secrets

    def extract(self, text: str, *, self_name: str = "The user") -> Extraction:
        """Candidates from one exchange given as plain text (one user turn)."""
        return self.extract_episode([Turn("t0", "user", text)], self_name=self_name)

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user") -> Extraction:
        out = Extraction()
        if not turns:
            return out
        masked, secrets = self._mask(turns)
        messages = build_prompt(turns, self.policy, self_name=self_name, masked=masked)
        where = f"episode {turns[0].id}..{turns[-1].id}"
        try:
            reply = self.client.complete(messages, json_schema=EXTRACT_SCHEMA)
        except LLMError as exc:
            out.errors.append(f"{where}: {exc}")
            out.retry_smaller = exc.smaller_may_work
            return out
        out.usage = dict(getattr(reply, "usage", None) or {})
        why = refused_reply(reply)
        if why is None:
            items, why = _parse_reply(reply)
        if why is not None or items is None:
            out.notes.append(f"{where}: no candidates: {why}")
            return out
        if len(items) > MAX_ITEMS:
            out.notes.append(f"reply had {len(items)} items; read the first {MAX_ITEMS}")
            items = items[:MAX_ITEMS]
        for n, raw in enumerate(items):
            cand, note = self._candidate(n, raw, turns, self_name, secrets)
            if cand is not None:
                out.candidates.append(cand)
            if note:
                out.notes.append(note)
        return out

    # -- helpers --------------------------------------------------------------------------
    def _mask(self, turns: Sequence[Turn]) -> tuple[list[str], dict[str, str]]:
        """Turn texts with each secret replaced by a numbered placeholder, and the map
        back. The placeholder says what was there, so the model can still say "a key"."""
        secrets: dict[str, str] = {}
        masked: list[str] = []
        for turn in turns:
            text = turn.content
            if self.mask_secrets:
                parts, cursor = [], 0
                for found in find_secrets(text):
                    tag = f"[secret-{len(secrets) + 1}:{found.kind}]"
                    secrets[tag] = text[found.start : found.end]
                    parts.append(text[cursor : found.start] + tag)
                    cursor = found.end
                text = "".join(parts) + text[cursor:]
            masked.append(text)
        return masked, secrets

    @staticmethod
    def _unmask(text: str, secrets: dict[str, str]) -> str:
        if not secrets or "secret" not in text:
            return text
        for tag, value in secrets.items():
            text = text.replace(tag, value)
        # a placeholder the model reworded still stands for a secret: put one back so the
        # gate refuses the candidate instead of storing a fact about a hidden value
        first = next(iter(secrets.values()))
        return re.sub(r"\[secret[^\]]*\]", lambda _: first, text)

    def _candidate(
        self, n: int, raw: Any, turns: Sequence[Turn], self_name: str, secrets: dict[str, str]
    ) -> tuple[Candidate | None, str | None]:
        try:
            item = ReplyItem.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "item"
            return None, f"item {n} dropped: {where}: {first.get('msg')} ({_excerpt(str(raw))})"
        bad = [i for i in item.turns if not 0 <= i < len(turns)]
        if bad:
            return None, f"item {n} dropped: turn index {bad[0]} is not in this episode"
        indices = sorted(set(item.turns))
        if not indices:
            if len(turns) != 1:
                return None, f"item {n} dropped: it names no source turn ({_excerpt(item.text)})"
            indices = [0]
        if item.source == "inferred" and not self.allow_inferred:
            return None, f"item {n} dropped: inferred facts are switched off"
        sources = [turns[i] for i in indices]
        roles = {t.role for t in sources}
        # sourced means a user or tool said it; an assistant-only item is the gate's to
        # refuse (it restates the assistant), so it keeps the assistant role
        role = "user" if "user" in roles else "tool" if "tool" in roles else "assistant"
        source = item.source
        if source != "inferred":
            source = "tool" if role == "tool" else "user"
        speakers = {t.speaker for t in sources if t.speaker and t.role == "user"}
        subject = item.subject
        if subject and base_key(subject) in SELF_REFERENCES | {"the speaker", "speaker"}:
            # "I" / "the user" in a turn means that turn's speaker
            subject = next(iter(speakers)) if len(speakers) == 1 else self_name
        return Candidate(
            text=self._unmask(item.text, secrets),
            subject=subject,
            predicate=item.predicate,
            object=self._unmask(item.object, secrets) if item.object else None,
            source=source,
            role=role,
            derived_from=tuple(t.id for t in sources),
            valid_from=latest_time(sources),
        ), None
