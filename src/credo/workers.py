"""One small thread pool per process, for work that releases the GIL: the model's run,
SQLite and PostgreSQL calls, numpy's passes over arrays. recall embeds the query on it
while its SQL runs, and the vector index scans its codes on it in parts.

Made on first use; a forked child makes its own (it has none of its parent's threads, so
a pool made before the fork would leave its work queued forever). Work that a pool thread
itself starts runs inline, never queued behind it: nothing here can wait on itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_PREFIX = "credo-worker"
_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def _reset_in_child() -> None:
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_reset_in_child)


#: how many threads the pool has (os.cpu_count() costs 40 us a call: read it once)
SIZE = max(2, os.cpu_count() or 1)


def pool() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(SIZE, thread_name_prefix=_PREFIX)
        return _pool


def in_worker() -> bool:
    return threading.current_thread().name.startswith(_PREFIX)


def submit(fn: Callable[[], T]) -> Future[T]:
    """`fn()` on a pool thread (inline, already done, when called from one)."""
    if in_worker():
        done: Future[T] = Future()
        try:
            done.set_result(fn())
        except BaseException as exc:  # handed to the caller through the future
            done.set_exception(exc)
        return done
    return pool().submit(fn)


def run_parts(fn: Callable[..., T], parts: Sequence[tuple[Any, ...]]) -> list[T]:
    """`fn(*part)` for every part, in order: the first inline, the rest on the pool."""
    if len(parts) < 2 or in_worker():
        return [fn(*part) for part in parts]
    futures = [pool().submit(fn, *part) for part in parts[1:]]
    first = fn(*parts[0])
    return [first, *(f.result() for f in futures)]
