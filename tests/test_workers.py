"""credo.workers: the shared pool that recall and the vector index hand work to."""

from __future__ import annotations

import threading

import pytest

from credo import workers


def test_parts_come_back_in_order_and_run_on_the_pool() -> None:
    names: list[str] = []

    def part(i: int) -> int:
        names.append(threading.current_thread().name)
        return i * i

    assert workers.run_parts(part, [(i,) for i in range(6)]) == [0, 1, 4, 9, 16, 25]
    assert any(n.startswith("credo-worker") for n in names)  # the rest went to the pool
    assert workers.run_parts(part, []) == []
    assert workers.run_parts(part, [(3,)]) == [9]


def test_work_started_on_a_worker_runs_inline_and_never_waits_on_itself() -> None:
    """A pool thread that hands out work would deadlock once every thread waited: what a
    worker starts runs in that worker."""

    def nested() -> tuple[bool, list[int], int]:
        inner = workers.submit(lambda: 7)
        assert inner.done()  # already run, inline
        return workers.in_worker(), workers.run_parts(lambda x: x + 1, [(1,), (2,)]), inner.result()

    jobs = [workers.submit(nested) for _ in range(3 * workers.pool()._max_workers)]
    assert [j.result(timeout=30) for j in jobs] == [(True, [2, 3], 7)] * len(jobs)


def test_jobs_that_hand_out_parts_under_a_lock_never_wait_on_each_other() -> None:
    """A job that holds a lock and splits its work into parts, while the other job threads
    wait for that lock: the job's parts must not queue behind those threads (they run
    inline on a job's thread), or every thread would wait."""
    lock = threading.Lock()

    def job(i: int) -> list[int]:
        with lock:
            return workers.run_parts(lambda x: x * i, [(1,), (2,), (3,)])

    jobs = [workers.submit(lambda i=i: job(i)) for i in range(4 * workers.SIZE)]
    assert [j.result(timeout=30) for j in jobs] == [[i, 2 * i, 3 * i] for i in range(len(jobs))]


def test_an_error_in_a_part_reaches_the_caller() -> None:
    def part(i: int) -> int:
        if i == 2:
            raise ValueError("part two broke")
        return i

    with pytest.raises(ValueError, match="part two broke"):
        workers.run_parts(part, [(i,) for i in range(4)])
    inline = workers.submit(lambda: 1)
    assert inline.result(timeout=30) == 1
