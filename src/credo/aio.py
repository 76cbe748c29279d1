"""`AsyncMemory`: the async twin of `Memory`, with no second implementation.

Each method is `Memory`'s own, run on a worker thread with `asyncio.to_thread`, so an
event loop never waits on the database or the embedder. The twins are generated in one
place (`_twin`) from `Memory`'s methods, so their signatures and result types are
`Memory`'s: a change there is a change here.

Calls that share a store run one at a time. The stores keep one connection (SQLite) and
an embedding cache that are not safe for interleaved use by several threads; a lock per
store (taken on the worker thread, never on the event loop) serialises them, and the
loop stays free while they wait.
"""

from __future__ import annotations

import asyncio
import builtins
import functools
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from .ingest import ingest as _ingest
from .memory import Memory
from .store.base import Store

__all__ = ["AsyncMemory"]

P = ParamSpec("P")
R = TypeVar("R")

_store_locks: weakref.WeakKeyDictionary[Store, threading.Lock] = weakref.WeakKeyDictionary()
_store_locks_guard = threading.Lock()


def _lock_for(store: Store) -> threading.Lock:
    # one lock per store, not per AsyncMemory: two scopes over one store share a connection
    with _store_locks_guard:
        lock = _store_locks.get(store)
        if lock is None:
            lock = _store_locks[store] = threading.Lock()
        return lock


def _twin(
    method: Callable[Concatenate[Memory, P], R],
) -> Callable[Concatenate[AsyncMemory, P], Coroutine[Any, Any, R]]:
    """The async method that runs `method` on the wrapped Memory, off the event loop."""

    async def twin(self: AsyncMemory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self.run(method, *args, **kwargs)

    # help() and inspect.signature() then show the real arguments, not *args, **kwargs
    functools.update_wrapper(twin, method)
    twin.__module__ = __name__
    twin.__qualname__ = f"AsyncMemory.{method.__name__}"
    return twin


def _export_records(memory: Memory) -> builtins.list[dict[str, Any]]:
    """`Memory.export` is a lazy generator over the store: drain it on the worker thread."""
    return builtins.list(memory.export())


class AsyncMemory:
    """`Memory`, awaitable. `AsyncMemory(memory)` or `AsyncMemory.wrap(store, scope=...)`.

    Every public method of `Memory` is here with the same arguments, returning a coroutine
    of the same result, and so is `ingest` (`credo.ingest.ingest` bound to this memory).
    `run(fn, ...)` runs any function of a Memory the same way.
    """

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._lock = _lock_for(memory.store)

    @classmethod
    def wrap(cls, store: Store, **options: Any) -> AsyncMemory:
        """An AsyncMemory over a new `Memory(store, **options)`."""
        return cls(Memory(store, **options))

    @property
    def scope(self) -> str:
        return self.memory.scope

    @property
    def store(self) -> Store:
        return self.memory.store

    async def run(
        self, fn: Callable[Concatenate[Memory, P], R], /, *args: P.args, **kwargs: P.kwargs
    ) -> R:
        """`fn(memory, *args, **kwargs)` on a worker thread, one call per store at a time."""

        def call() -> R:
            with self._lock:
                return fn(self.memory, *args, **kwargs)

        return await asyncio.to_thread(call)

    # -- the twins: every public Memory method (tests/test_aio.py checks none is missing)
    aliases = _twin(Memory.aliases)
    canonical_subject = _twin(Memory.canonical_subject)
    entity = _twin(Memory.entity)
    alias_add = _twin(Memory.alias_add)
    alias_remove = _twin(Memory.alias_remove)
    remember = _twin(Memory.remember)
    remember_candidate = _twin(Memory.remember_candidate)
    remember_lines = _twin(Memory.remember_lines)
    remember_numbered = _twin(Memory.remember_numbered)
    recall = _twin(Memory.recall)
    render = _twin(Memory.render)
    for_prompt = _twin(Memory.for_prompt)
    get = _twin(Memory.get)
    list = _twin(Memory.list)
    lineage = _twin(Memory.lineage)
    rejections = _twin(Memory.rejections)
    stats = _twin(Memory.stats)
    conflicts = _twin(Memory.conflicts)
    resolve_conflict = _twin(Memory.resolve_conflict)
    view = _twin(Memory.view)
    retract = _twin(Memory.retract)
    why = _twin(Memory.why)
    history = _twin(Memory.history)
    forget = _twin(Memory.forget)
    suppressions = _twin(Memory.suppressions)
    honour = _twin(Memory.honour)
    add_rule = _twin(Memory.add_rule)
    rules = _twin(Memory.rules)
    remove_rule = _twin(Memory.remove_rule)
    import_ = _twin(Memory.import_)
    export = _twin(_export_records)
    #: `credo.ingest.ingest(memory, turns, ...)`, the one function here that is not a method
    ingest = _twin(_ingest)
