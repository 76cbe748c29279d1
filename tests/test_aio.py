"""AsyncMemory: the async twin of Memory shares its implementation, keeps the event loop
free, and is safe under concurrent calls on one SQLite store."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from credo.aio import AsyncMemory
from credo.extract.base import Turn
from credo.memory import Memory, NotFound
from credo.testing import memory_for_tests

CLOCK = 1_700_000_000.0
PEOPLE = [
    "Aino",
    "Bea",
    "Cyril",
    "Dana",
    "Eero",
    "Fay",
    "Gus",
    "Hilla",
    "Ines",
    "Joel",
    "Kai",
    "Lumi",
]
CITIES = [
    "Berlin",
    "Oslo",
    "Turku",
    "Lisbon",
    "Quito",
    "Hanoi",
    "Lyon",
    "Perth",
    "Cork",
    "Bergen",
    "Tartu",
    "Porto",
]
FACTS = [f"{p} lives in {c}" for p, c in zip(PEOPLE, CITIES, strict=True)]
QUERIES = [f"where does {p} live" for p in PEOPLE]


def fixed_memory(path: Path, scope: str = "default") -> Memory:
    return memory_for_tests(path, scope=scope, clock=lambda: CLOCK)


def test_every_public_memory_method_has_an_async_twin() -> None:
    public = [
        name
        for name, value in inspect.getmembers(Memory, inspect.isfunction)
        if not name.startswith("_")
    ]
    assert "for_prompt" in public
    missing = [
        name for name in public if not inspect.iscoroutinefunction(getattr(AsyncMemory, name, None))
    ]
    assert missing == []


def test_twins_show_the_real_arguments() -> None:
    assert (
        inspect.signature(AsyncMemory.recall).parameters.keys()
        == inspect.signature(Memory.recall).parameters.keys()
    )
    assert AsyncMemory.for_prompt.__doc__ == Memory.for_prompt.__doc__


def test_concurrent_remembers_store_what_sync_remembers(tmp_path: Path) -> None:
    sync = fixed_memory(tmp_path / "sync.db")
    expected = [sync.remember(t) for t in FACTS]
    amem = AsyncMemory(fixed_memory(tmp_path / "async.db"))

    async def scenario() -> list[Any]:
        return await asyncio.gather(*(amem.remember(t) for t in FACTS))

    got = asyncio.run(scenario())
    assert [(r.accepted, r.relation, r.fact.text if r.fact else None) for r in got] == [
        (r.accepted, r.relation, r.fact.text if r.fact else None) for r in expected
    ]
    assert {f.text for f in amem.memory.list()} == {f.text for f in sync.list()}
    # the order of the writes differs, so only the entity hit is sure to match
    for query in QUERIES:
        assert amem.memory.recall(query, k=1)[0].fact.text == sync.recall(query, k=1)[0].fact.text


def test_concurrent_recalls_match_the_sync_results(tmp_path: Path) -> None:
    memory = fixed_memory(tmp_path / "r.db")
    for text in FACTS:
        memory.remember(text)
    expected = [[(h.fact.id, h.found_by) for h in memory.recall(q, k=3)] for q in QUERIES]
    blocks = [memory.for_prompt(q) for q in QUERIES]
    amem = AsyncMemory(memory)

    async def scenario() -> tuple[list[Any], list[str]]:
        hits = await asyncio.gather(*(amem.recall(q, k=3) for q in QUERIES))
        rendered = await asyncio.gather(*(amem.for_prompt(q) for q in QUERIES))
        return hits, list(rendered)

    hits, rendered = asyncio.run(scenario())
    assert [[(h.fact.id, h.found_by) for h in hs] for hs in hits] == expected
    assert rendered == blocks


def test_interleaved_writes_and_reads_lose_nothing(tmp_path: Path) -> None:
    amem = AsyncMemory(memory_for_tests(tmp_path / "c.db"))

    async def one(n: int) -> None:
        await amem.remember(f"Project{n} ships on Fridays number {n}")
        await amem.recall(f"when does Project{n} ship")
        await amem.list(limit=5)
        await amem.conflicts()

    async def scenario() -> None:
        await asyncio.gather(*(one(n) for n in range(40)))

    asyncio.run(scenario())
    assert len(amem.memory.list()) == 40


def test_calls_run_off_the_event_loop(tmp_path: Path) -> None:
    amem = AsyncMemory(memory_for_tests(tmp_path / "loop.db"))
    ticks: list[float] = []

    def slow(memory: Memory) -> str:
        time.sleep(0.3)
        return memory.scope

    async def ticker() -> None:
        for _ in range(5):
            ticks.append(time.monotonic())
            await asyncio.sleep(0.02)

    async def scenario() -> str:
        scope, _ = await asyncio.gather(amem.run(slow), ticker())
        return scope

    started = time.monotonic()
    assert asyncio.run(scenario()) == "default"
    # the ticker finished while the slow call was still sleeping on its worker thread
    assert ticks[-1] - started < 0.25


def test_calls_on_one_store_run_one_at_a_time(tmp_path: Path) -> None:
    a = AsyncMemory(memory_for_tests(tmp_path / "s.db", scope="a"))
    b = AsyncMemory(Memory(a.store, scope="b"))  # another scope, the same connection
    inside, peak = 0, 0
    guard = threading.Lock()

    def probe(memory: Memory) -> None:
        nonlocal inside, peak
        with guard:
            inside += 1
            peak = max(peak, inside)
        time.sleep(0.01)
        with guard:
            inside -= 1

    async def scenario() -> None:
        await asyncio.gather(*(m.run(probe) for m in [a, b] * 6))

    asyncio.run(scenario())
    assert peak == 1


def test_errors_come_back_as_the_sync_ones(tmp_path: Path) -> None:
    amem = AsyncMemory(memory_for_tests(tmp_path / "e.db"))
    with pytest.raises(NotFound, match="no fact 'f_nope'"):
        asyncio.run(amem.get("f_nope"))


def test_export_and_ingest_are_there_too(tmp_path: Path) -> None:
    amem = AsyncMemory.wrap(memory_for_tests(tmp_path / "x.db").store, scope="arttu")

    async def scenario() -> tuple[Any, list[dict[str, Any]], str]:
        report = await amem.ingest(
            [
                Turn("e:1", "user", "I deploy arttuan.com on Vercel.", CLOCK, episode="e"),
                Turn("e:2", "assistant", "Noted!", CLOCK, episode="e"),
            ]
        )
        records = await amem.export()
        return report, records, await amem.for_prompt("where do I deploy arttuan.com?")

    report, records, block = asyncio.run(scenario())
    assert report.accepted == 1
    assert isinstance(records, list) and records[0]["type"] == "header"
    assert any(r["type"] == "fact" and "Vercel" in r["text"] for r in records)
    assert "Vercel" in block
