"""`CredoStore`: credo as a LangGraph long-term memory store (`pip install 'credo[langgraph]'`).

A real `langgraph.store.base.BaseStore`: `batch` and `abatch` carry out `GetOp`, `PutOp`,
`SearchOp` and `ListNamespacesOp`; `get`, `put`, `search`, `delete`, `list_namespaces`
and their async twins come from the base class. What credo adds is what it does for every
write: a put goes through the gate and the resolver (`Memory.remember`), so small talk,
secrets and requests are refused, duplicates are merged and contradictions kept in view.

The rules (docs/agents.md says the same, with examples):

- **Namespace -> scope.** A namespace is one credo scope: its labels joined with "."
  (`("memories", "arttu")` is scope `memories.arttu`), after an optional `prefix` label
  (`CredoStore(store, prefix="lg")` makes it `lg.memories.arttu`). LangGraph forbids "."
  in a label, so the rule reverses exactly: a scope's namespace is its name split on ".".
  A label may hold letters, digits, "_", "-", ":" and "@" (what a credo scope may hold),
  and the joined name at most 128 characters; anything else is an
  `InvalidNamespaceError`. Scopes never see each other, so a search reads only the
  scopes under its namespace prefix.
- **A value** is `{"content": "<one sentence>"}` (LangMem's shape; `"text"` works too).
  What comes back is credo's view of the fact that now stands for it: `content` is the
  stored sentence ("I live in Berlin" comes back as "The user lives in Berlin"), beside
  `fact_id`, `status`, `confidence`, `source`, `subject`, `predicate`, `object` and
  `valid_from` (ISO 8601). Putting such a value back is fine (credo's own fields are
  ignored); any other field is refused, because credo stores sentences and would lose it.
- **A key** is the caller's name for an item, kept as the fact's provenance reference
  `langgraph:<key>` (so `credo list` shows `from=langgraph:<key>`). `get` returns the
  key's live fact (else its latest one, superseded or retracted, with that status).
  Putting a new value under a key retracts the key's earlier fact (decided by
  `langgraph`; lineage and history kept) unless the resolver already superseded it; the
  same sentence again only reinforces it. Two keys whose sentences are one claim share
  one fact. A fact stored another way (the CLI, MCP, ingest) has its fact id as key.
- **A refused put** raises `Refused` (a `ValueError`) naming each refused item and the
  gate's reason, after the batch's other operations are done; the refusal is also kept
  with the scope's rejections (`credo rejected`). In a LangGraph agent, let the model
  read it: `ToolNode(tools, handle_tool_errors=Refused)`. A "don't remember ..." request
  is honoured (rules stored) and is no error; nothing is stored under the key.
- **delete** is credo's `forget`: the key's facts, and what was derived from them, leave
  the database (a fact another key also holds only loses this key).
- **search** with a `query` is credo's recall (entity hits, vector and lexical rankings
  fused); `SearchItem.score` is its fused score (reciprocal rank fusion: higher is
  better, not a cosine). Without a query it lists the live facts, newest first, with no
  score. `filter` compares the returned value's fields (`{"status": "conflicted"}`; the
  operators `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`). Superseded and retracted facts
  are history and are never found.
- `PutOp.index` is ignored (credo indexes every fact's sentence) and TTLs are not
  supported (`supports_ttl = False`: LangGraph refuses a put with a `ttl`).
"""

from __future__ import annotations

import asyncio
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from ..aio import _lock_for
from ..errors import InvalidInput, NotFound
from ..fact import Fact
from ..gate import GatePolicy
from ..isotime import format_iso
from ..memory import Memory
from ..render import refusal
from ..store.base import ScopeError, Store, check_scope

__all__ = [
    "KEY_REF",
    "CredoStore",
    "Refusal",
    "Refused",
    "namespace_to_scope",
    "scope_to_namespace",
]

#: a key is kept on its fact as the provenance reference KEY_REF + key
KEY_REF = "langgraph:"
_LABEL = re.compile(r"^[\w:@-]+$")
#: credo's own fields of a returned value: accepted back on a put, and ignored
_VIEW_FIELDS = frozenset(
    {"fact_id", "status", "confidence", "source", "subject", "predicate", "object", "valid_from"}
)
_TEXT_FIELDS = ("content", "text")


@dataclass(frozen=True)
class Refusal:
    """One put the gate refused: where, the gate's category and its reason."""

    namespace: tuple[str, ...]
    key: str
    code: str
    reason: str


class Refused(InvalidInput):
    """Puts of a batch that the gate refused (the batch's other operations were done).
    `refusals` lists them; the message is written for the model that asked."""

    def __init__(self, refusals: Sequence[Refusal]) -> None:
        self.refusals = list(refusals)
        parts = [
            f"{refusal(r.code, r.reason)} [{'/'.join(r.namespace)} {r.key}]" for r in self.refusals
        ]
        super().__init__(
            "; ".join(parts) + ". The memory's gate refused it; this is a decision, "
            "not a failure to retry."
        )


def namespace_to_scope(namespace: Sequence[str], prefix: str | None = None) -> str:
    """The credo scope of a namespace: the labels (after `prefix`) joined with "."."""
    labels = ((prefix,) if prefix else ()) + tuple(namespace)
    if not namespace:
        raise InvalidNamespaceError("a credo namespace needs at least one label")
    for label in labels:
        if not isinstance(label, str) or not _LABEL.match(label):
            raise InvalidNamespaceError(
                f"namespace label {label!r}: a credo scope takes letters, digits, '_', '-', "
                "':' and '@'"
            )
    try:
        return check_scope(".".join(labels))
    except ScopeError as exc:
        raise InvalidNamespaceError(f"namespace {tuple(namespace)!r}: {exc}") from exc


def scope_to_namespace(scope: str, prefix: str | None = None) -> tuple[str, ...] | None:
    """The namespace of a scope (its name split on "."), or None when the scope is not one
    this store's namespaces map to (another prefix, or an empty label)."""
    labels = tuple(scope.split("."))
    if prefix:
        if labels[0] != prefix:
            return None
        labels = labels[1:]
    if not labels or not all(_LABEL.match(label) for label in labels):
        return None
    return labels


def _key_of(fact: Fact) -> str:
    """The caller's key of a fact put through the store (the first), else its fact id."""
    for ref in fact.derived_from:
        if ref.startswith(KEY_REF):
            return ref[len(KEY_REF) :]
    return fact.id


def _moment(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


def _value(fact: Fact) -> dict[str, Any]:
    return {
        "content": fact.text,
        "fact_id": fact.id,
        "status": fact.status.value,
        "confidence": round(fact.confidence, 3),
        "source": fact.source,
        "subject": fact.subject,
        "predicate": fact.predicate,
        "object": fact.object,
        "valid_from": format_iso(fact.valid_from),
    }


def _text_of(value: Mapping[str, Any]) -> str:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"a value is a dict such as {{'content': '...'}}, not {type(value)}")
    unknown = set(value) - _VIEW_FIELDS - set(_TEXT_FIELDS)
    if unknown:
        raise InvalidInput(
            f"value fields {sorted(unknown)} would be lost: credo stores one sentence per "
            "item, as 'content' (or 'text')"
        )
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str):
            return text
        if text is not None:
            raise InvalidInput(
                f"value[{name!r}] is {type(text).__name__}: credo stores sentences, so give "
                "the memory as text"
            )
    raise InvalidInput("a value holds its sentence as 'content' (or 'text')")


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": operator.eq,
    "$ne": operator.ne,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _matches(value: dict[str, Any], filter_: dict[str, Any] | None) -> bool:
    for name, wanted in (filter_ or {}).items():
        have = value.get(name)
        conditions = wanted if isinstance(wanted, dict) else {"$eq": wanted}
        for op, operand in conditions.items():
            if op not in _OPS:
                raise InvalidInput(f"filter operator {op!r}: use {', '.join(_OPS)}")
            try:
                if not _OPS[op](have, operand):
                    return False
            except TypeError:  # comparing text with a number: no match, as in LangGraph
                return False
    return True


def _namespace_matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))


class CredoStore(BaseStore):
    """A LangGraph store over a credo `Store`: each namespace a scope, each put a
    `remember`, each delete a `forget`, each search a `recall` (the rules: this module's
    docstring). `source` is the source recorded for what is put ("user" by default, as
    MCP's `remember`; "inferred" for an agent's own conclusions, stored with lower
    confidence)."""

    supports_ttl = False

    def __init__(
        self,
        store: Store,
        *,
        prefix: str | None = None,
        policy: GatePolicy | None = None,
        source: str = "user",
    ) -> None:
        if prefix is not None and not _LABEL.match(prefix):
            raise InvalidNamespaceError(f"prefix {prefix!r} must be one namespace label")
        self.store = store
        self.prefix = prefix
        self.policy = policy
        self.source = source
        self._memories: dict[str, Memory] = {}

    def memory(self, namespace: Sequence[str]) -> Memory:
        """The `Memory` of a namespace's scope (for anything the store API does not say)."""
        scope = namespace_to_scope(namespace, self.prefix)
        mem = self._memories.get(scope)
        if mem is None:
            mem = self._memories[scope] = Memory(self.store, scope=scope, policy=self.policy)
        return mem

    # -- the two methods LangGraph asks for ----------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Carry out the operations in order; raises `Refused` at the end when the gate
        refused any put (every other operation is done)."""
        results: list[Result] = []
        refusals: list[Refusal] = []
        with _lock_for(self.store):  # one call per store at a time, as AsyncMemory
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op))
                elif isinstance(op, PutOp):
                    refusal = self._put(op)
                    if refusal is not None:
                        refusals.append(refusal)
                    results.append(None)
                elif isinstance(op, SearchOp):
                    results.append(self._search(op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(op))
                else:
                    raise TypeError(f"unknown store operation {type(op).__name__}")
        if refusals:
            raise Refused(refusals)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` on a worker thread: the event loop never waits on the database."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- operations ----------------------------------------------------------------------
    def _held(self, mem: Memory, key: str) -> list[Fact]:
        """The facts a key names: those put under it (found through the provenance index,
        the one `forget --episode` uses), else the fact whose id it is."""
        ids = self.store._forget_targets(
            mem.scope, ids=(), subject=None, episode=KEY_REF + key, everything=False
        )
        facts = self.store.get_many(ids, scope=mem.scope) if ids else []
        if not facts:
            fact = self.store.get(key, scope=mem.scope)
            facts = [fact] if fact is not None else []
        return sorted(facts, key=lambda f: (f.is_live, f.created_at), reverse=True)

    def _get(self, op: GetOp) -> Item | None:
        mem = self.memory(op.namespace)
        held = self._held(mem, op.key)
        if not held:
            return None
        return self._item(held[0], tuple(op.namespace), op.key)

    def _put(self, op: PutOp) -> Refusal | None:
        mem = self.memory(op.namespace)
        ref = KEY_REF + op.key
        held = self._held(mem, op.key)
        if op.value is None:
            self._release(mem, ref, held, forget=True)
            return None
        result = mem.remember(_text_of(op.value), source=self.source, derived_from=[ref])
        if result.code == "request":  # "don't remember ...": honoured, nothing stored
            return None
        if not result.accepted or result.fact is None:
            return Refusal(tuple(op.namespace), op.key, result.code, result.why)
        replaced = [f for f in held if f.id != result.fact.id]
        live = {
            f.id
            for f in self.store.get_many([f.id for f in replaced], scope=mem.scope)
            if f.is_live
        }
        self._release(mem, ref, [f for f in replaced if f.id in live], forget=False)
        return None

    def _release(self, mem: Memory, ref: str, facts: Sequence[Fact], *, forget: bool) -> None:
        """A key lets go of its facts: one that another key holds too only loses this
        key; the rest are forgotten (delete) or retracted (a new value under the key)."""
        own: list[str] = []
        for fact in facts:
            others = [r for r in fact.derived_from if r.startswith(KEY_REF) and r != ref]
            if others:
                self.store.put(fact.evolve(derived_from=[r for r in fact.derived_from if r != ref]))
            else:
                own.append(fact.id)
        if forget:
            gone = set(mem.forget(episode=ref).fact_ids)  # with the key's rejections
            for fact_id in own:  # a fact id used as key holds no reference to the key
                if fact_id not in gone:
                    with suppress(NotFound):  # derived from one just forgotten: gone too
                        gone.update(mem.forget(id=fact_id).fact_ids)
        elif own:
            mem.resolve_conflict(retract=own, decided_by="langgraph")

    def _search(self, op: SearchOp) -> list[SearchItem]:
        found: list[tuple[float | None, tuple[str, ...], Fact]] = []
        want = op.offset + op.limit if not op.filter else max(4 * (op.offset + op.limit), 50)
        for scope, namespace in self._scopes_under(tuple(op.namespace_prefix)):
            mem = self.memory(namespace)
            if op.query:
                found += [(h.score, namespace, h.fact) for h in mem.recall(op.query, k=want)]
            else:
                live = [f for f in self.store.all(scope=scope) if f.is_live]
                found += [(None, namespace, f) for f in live]
        if op.query:
            found.sort(key=lambda t: -(t[0] or 0.0))
        else:
            found.sort(key=lambda t: -t[2].created_at)
        items = [
            self._item(fact, namespace, _key_of(fact), score=score, search=True)
            for score, namespace, fact in found
        ]
        items = [item for item in items if _matches(item.value, op.filter)]
        return items[op.offset : op.offset + op.limit]  # type: ignore[return-value]

    def _scopes_under(self, prefix: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
        out = []
        for scope in self.store.scopes():
            namespace = scope_to_namespace(scope, self.prefix)
            if namespace is not None and namespace[: len(prefix)] == prefix:
                out.append((scope, namespace))
        return out

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = [ns for _, ns in self._scopes_under(())]
        for condition in op.match_conditions or ():
            namespaces = [ns for ns in namespaces if _namespace_matches(ns, condition)]
        if op.max_depth is not None:
            namespaces = [ns[: op.max_depth] for ns in namespaces]
        unique = sorted(set(namespaces))
        return unique[op.offset : op.offset + op.limit]

    def _item(
        self,
        fact: Fact,
        namespace: tuple[str, ...],
        key: str,
        *,
        score: float | None = None,
        search: bool = False,
    ) -> Item:
        created = _moment(fact.created_at)
        updated = _moment(max(fact.created_at, fact.last_seen_at or 0.0))
        if score is not None or search:
            return SearchItem(namespace, key, _value(fact), created, updated, score=score)
        return Item(
            value=_value(fact), key=key, namespace=namespace, created_at=created, updated_at=updated
        )
