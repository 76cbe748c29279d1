"""Resumable ingest: outcomes recorded per episode, re-runs that skip what is done and
retry what failed, interruption, splitting on timeouts, --force, concurrency, and
`forget` taking the records along. On a real SQLite file (and PostgreSQL when available),
with the real rule extractor or a scripted chat model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from credo.extract.base import Extraction, Turn
from credo.extract.llm import LLMExtractor
from credo.extract.rules import RuleExtractor
from credo.ingest import EpisodeProgress, episode_key, extractor_id, ingest
from credo.llm import LLMError
from credo.memory import Memory

T0 = 1_709_283_600.0
SAYINGS = [
    "I live in Oulu.",
    "I'm so tired today.",
    "I work as a baker at the city hospital.",
    "I might move to Turku eventually.",
    "My sister Anna keeps bees.",
    "I'm so frustrated with CI.",
    "I play the cello in an orchestra.",
    "Ugh, what a day.",
]


def conversation(sessions: int = 4, per_session: int = 4) -> list[Turn]:
    turns = []
    for s in range(sessions):
        for j in range(per_session):
            n = s * per_session + j
            turns.append(
                Turn(
                    f"c:D{s + 1}:{j + 1}",
                    "user",
                    SAYINGS[n % len(SAYINGS)].replace("Oulu", f"Oulu{s}"),
                    T0 + n * 3600,
                    speaker="Ada" if j % 2 == 0 else "Bo",
                    episode=f"c:session_{s + 1}",
                )
            )
    return turns


def counts(memory: Memory) -> tuple[int, int]:
    return len(memory.list()), len(memory.rejections(limit=10_000))


class Flaky:
    """The real rule extractor, failing or interrupted on chosen episodes (by first
    turn id), the way a model server would: an error result, or a KeyboardInterrupt."""

    name = "rules"

    def __init__(self, fail: Sequence[str] = (), interrupt: str | None = None) -> None:
        self.inner = RuleExtractor()
        self.fail = set(fail)
        self.interrupt = interrupt
        self.calls: list[str] = []

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user") -> Extraction:
        first = turns[0].id
        self.calls.append(first)
        if first == self.interrupt:
            raise KeyboardInterrupt
        if first in self.fail:
            return Extraction(errors=[f"episode {first}: timed out"])
        return self.inner.extract_episode(turns, self_name=self_name)


def test_a_second_run_skips_every_episode_and_adds_nothing(memory: Memory) -> None:
    turns = conversation()
    first = ingest(memory, turns)
    assert first.episodes == 4 and first.skipped == 0 and first.accepted > 0
    before = counts(memory)
    assert before[1] > 0  # rejections were recorded too
    again = Flaky()
    second = ingest(memory, turns, extractor=again)
    assert second.skipped == 4 and again.calls == []
    assert second.candidates == 0
    assert counts(memory) == before


def test_failed_episodes_are_recorded_and_retried_alone(memory: Memory) -> None:
    turns = conversation()
    clean = Memory(memory.store, scope=memory.scope + "-clean", policy=memory.policy)
    ingest(clean, turns)
    flaky = Flaky(fail=["c:D2:1"])
    seen: list[EpisodeProgress] = []
    report = ingest(memory, turns, extractor=flaky, progress=seen.append)
    assert [e.status for e in seen] == ["done", "failed", "done", "done"]
    assert report.failed == [{"episode": "c:D2:1..c:D2:4", "reason": "episode c:D2:1: timed out"}]
    assert report.errors == ["episode c:D2:1: timed out"]
    key = episode_key(turns[4:8], 1, extractor_id(flaky))
    [stored] = memory.store.ingest_outcomes(scope=memory.scope, keys=[key]).values()
    assert stored.status == "failed" and "timed out" in stored.reason
    assert "c:session_2" in stored.refs and "c:D2:1" in stored.refs

    retry = Flaky()
    again = ingest(memory, turns, extractor=retry)
    assert retry.calls == ["c:D2:1"]  # only the failed one
    assert again.skipped == 3 and not again.errors
    assert counts(memory) == counts(clean)  # as if nothing had failed


def test_an_interrupted_ingest_loses_only_the_episode_in_flight(memory: Memory) -> None:
    turns = conversation()
    clean = Memory(memory.store, scope=memory.scope + "-clean", policy=memory.policy)
    ingest(clean, turns)
    with pytest.raises(KeyboardInterrupt):
        ingest(memory, turns, extractor=Flaky(interrupt="c:D3:1"))
    partial = counts(memory)
    assert 0 < partial[0] < counts(clean)[0]
    resumed = Flaky()
    report = ingest(memory, turns, extractor=resumed)
    assert resumed.calls == ["c:D3:1", "c:D4:1"]
    assert report.skipped == 2
    assert counts(memory) == counts(clean)


def test_force_redoes_done_episodes_without_keeping_a_rejection_twice(memory: Memory) -> None:
    turns = conversation()
    ingest(memory, turns)
    before = counts(memory)
    texts = sorted(r.text for r in memory.rejections(limit=10_000))
    report = ingest(memory, turns, force=True)
    assert report.skipped == 0 and report.candidates > 0
    assert report.relations["new"] == 0  # every fact was a duplicate of itself
    assert counts(memory) == before
    assert sorted(r.text for r in memory.rejections(limit=10_000)) == texts


def test_another_episode_size_or_extractor_is_a_new_episode(memory: Memory) -> None:
    turns = conversation()
    ingest(memory, turns)
    assert ingest(memory, turns, episode_size=2).skipped == 0
    assert ingest(memory, turns, extractor=RuleExtractor(broad=True)).skipped == 0
    assert ingest(memory, turns, episode_size=2).skipped == 8


def test_dry_runs_record_nothing_and_resume_can_be_switched_off(memory: Memory) -> None:
    turns = conversation(1)
    ingest(memory, turns, dry_run=True)
    keys = [episode_key(turns, 0, "rules")]
    assert memory.store.ingest_outcomes(scope=memory.scope, keys=keys) == {}
    ingest(memory, turns, resume=False)
    assert memory.store.ingest_outcomes(scope=memory.scope, keys=keys) == {}
    ingest(memory, turns)
    assert memory.store.ingest_outcomes(scope=memory.scope, keys=keys)[keys[0]].status == "done"


def test_forget_takes_the_ingest_records_along(memory: Memory) -> None:
    turns = conversation()
    ingest(memory, turns)
    keys = [episode_key(turns[i : i + 4], i // 4, "rules") for i in range(0, 16, 4)]
    assert len(memory.store.ingest_outcomes(scope=memory.scope, keys=keys)) == 4
    gone = memory.forget(episode="c:session_2")
    assert gone.ingest_episodes == 1 and gone.to_dict()["ingest_episodes"] == 1
    left = memory.store.ingest_outcomes(scope=memory.scope, keys=keys)
    assert keys[1] not in left and len(left) == 3
    # the forgotten session is extracted again on the next run, the others are not
    report = ingest(memory, turns)
    assert report.skipped == 3 and report.accepted > 0
    assert memory.forget(everything=True).ingest_episodes == 4
    assert memory.store.ingest_outcomes(scope=memory.scope, keys=keys) == {}


def test_concurrent_extraction_stores_what_one_at_a_time_does(memory: Memory) -> None:
    turns = conversation(6)
    one = Memory(memory.store, scope=memory.scope + "-one", policy=memory.policy)
    serial = ingest(one, turns, concurrency=1)
    parallel = ingest(memory, turns, concurrency=4)
    assert [f.text for f in memory.list()] == [f.text for f in one.list()]
    assert parallel.accepted == serial.accepted and parallel.rejected == serial.rejected
    with pytest.raises(ValueError, match="concurrency"):
        ingest(memory, turns, concurrency=0)


class SlowModel:
    """A chat model that times out on more than `fits` turns and else states each
    user turn of the prompt as a fact."""

    def __init__(self, fits: int) -> None:
        self.fits = fits
        self.sizes: list[int] = []

    def complete(self, messages: Sequence[dict[str, str]], *, json_schema: Any = None) -> str:
        lines = [ln for ln in messages[-1]["content"].splitlines() if ln.startswith("[")]
        self.sizes.append(len(lines))
        if len(lines) > self.fits:
            raise LLMError("timed out after 1 s calling the model", smaller_may_work=True)
        facts = []
        for line in lines:
            n = int(line[1 : line.index("]")])
            if "baker" in line:
                facts.append({"text": "Ada works as a baker.", "subject": "Ada", "turns": [n]})
        return json.dumps({"facts": facts})


def test_an_episode_that_times_out_is_split_and_retried(memory: Memory) -> None:
    turns = conversation(1, 8)
    model = SlowModel(fits=2)
    report = ingest(memory, turns, extractor=LLMExtractor(model), episode_size=8)
    assert model.sizes[:3] == [8, 4, 2]  # halves until it fits
    assert sorted(model.sizes) == sorted([8, 4, 2, 2, 4, 2, 2])
    assert not report.errors and report.splits == 3
    assert report.accepted >= 1
    assert any("split" in note for note in report.notes)


def test_a_split_that_still_fails_fails_the_episode(memory: Memory) -> None:
    turns = conversation(1, 8)
    model = SlowModel(fits=0)
    report = ingest(memory, turns, extractor=LLMExtractor(model), episode_size=8)
    assert report.failed and report.accepted == 0
    assert min(model.sizes) == 1  # split down to one turn, at most three times
    assert max(model.sizes) == 8 and len(model.sizes) <= 1 + 2 + 4 + 8
