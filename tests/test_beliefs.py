"""Beliefs over time, through the real parser, the real default model and real stores:
as-of and known-at reads, why, history, retract, corroboration, and the decision log's
migration. Every statement goes through `Memory.remember` as a user would say it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import drop_store, make_store

from credo import AsyncMemory, Memory
from credo.embed import get_embedder
from credo.errors import InvalidInput, NotFound
from credo.fact import Status
from credo.resolver import Relation
from credo.store.base import Store
from credo.timeparse import parse_time


class Clock:
    def __init__(self, start: str) -> None:
        self.now = float(parse_time(start) or 0.0)

    def set(self, when: str) -> None:
        self.now = float(parse_time(when) or 0.0)

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def minilm() -> object:
    return get_embedder("local:minilm")


@pytest.fixture
def real_store(backend: str, tmp_path: Path, minilm: object) -> Iterator[Store]:
    s = make_store(backend, tmp_path, embedder=minilm)
    try:
        yield s
    finally:
        drop_store(s)


@pytest.fixture
def clock() -> Clock:
    return Clock("2024-01-10")


@pytest.fixture
def mem(real_store: Store, clock: Clock) -> Memory:
    return Memory(real_store, scope="arttu", clock=clock)


def texts(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.fact.text for h in hits]


def live_in_the_past(mem: Memory, clock: Clock) -> tuple[str, str]:
    """The issue's session: Helsinki (2024-01), then Berlin (2025-03)."""
    first = mem.remember("I live in Helsinki", valid_from="2024-01-10", derived_from=["t-1"])
    clock.set("2025-03-05")
    second = mem.remember("I live in Berlin", valid_from="2025-03-05", derived_from=["t-2"])
    assert first.fact is not None and second.fact is not None
    assert second.relation is Relation.UPDATE
    return first.fact.id, second.fact.id


# -- the session -------------------------------------------------------------------
def test_as_of_answers_what_was_true_then(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    clock.set("2026-01-01")
    assert texts(mem.recall("where do I live", k=1, as_of="2024-06")) == [
        "The user lives in Helsinki"
    ]
    assert texts(mem.recall("where do I live", k=1)) == ["The user lives in Berlin"]
    then = mem.for_prompt("where do I live", as_of="2024-06")
    assert "Helsinki" in then and "Berlin" not in then and "2024-06-30" in then
    now = mem.for_prompt("where do I live")
    assert "Berlin" in now and "Helsinki" not in now
    # the view says what status each fact had then
    past = {f.id: f.status for f in mem.list(as_of="2024-06")}
    assert past == {helsinki: Status.ACTIVE}


def test_history_shows_each_value_with_its_dates(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    [key] = mem.history("user", "live_in")
    assert key.predicate == "live_in"
    assert [(e["value"], e["status"], e["how"]) for e in key.entries] == [
        ("Helsinki", "superseded", "new"),
        ("Berlin", "active", "update"),
    ]
    assert key.entries[0]["valid_to"] == parse_time("2025-03-05")
    assert key.entries[1]["valid_from"] == parse_time("2025-03-05")
    # the arttu alias of the speaker reaches the same key
    assert [k.predicate for k in mem.history("user")] == ["live_in"]


def test_why_names_the_superseded_fact_and_the_turn(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    why = mem.why(berlin)
    assert why.fact.id == berlin
    [source] = why.sources
    assert source["said"] == "I live in Berlin" and source["episodes"] == ["t-2"]
    updated = [d for d in why.decisions if d["kind"] == "updated"]
    assert [d["other"] for d in updated] == [helsinki]
    assert "Helsinki" in updated[0]["what"] and "newer by" in updated[0]["why"]
    old = mem.why(helsinki)
    assert [d["kind"] for d in old.decisions] == ["new", "superseded"]
    assert old.decisions[1]["other"] == berlin
    data = json.loads(json.dumps(why.to_dict()))
    assert data["fact"]["id"] == berlin and data["related"][helsinki]["text"]


def test_retract_brings_nothing_back(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    clock.set("2025-04-01")
    retracted = mem.retract(berlin, why="I never moved", by="user")
    assert retracted.status is Status.RETRACTED
    assert mem.get(helsinki).status is Status.SUPERSEDED  # not revived silently
    hits = mem.recall("where do I live")
    assert not any("lives in" in t for t in texts(hits))
    block = mem.for_prompt("where do I live")
    assert "Helsinki" not in block and "Berlin" not in block
    # kept in lineage, with who and why
    [d] = [d for d in mem.why(berlin).decisions if d["kind"] == "retracted"]
    assert d["by"] == "user" and d["why"] == "I never moved"
    assert {"Helsinki", "Berlin"} <= {e["value"] for e in mem.history("user")[0].entries}
    with pytest.raises(InvalidInput, match="already retracted"):
        mem.retract(berlin)


def test_a_retracted_claim_is_refused_until_forced(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    clock.set("2025-04-01")
    mem.retract(berlin, why="wrong city")
    clock.set("2025-05-01")
    again = mem.remember("I live in Berlin")
    assert not again.accepted and again.code == "retracted"
    assert "wrong city" in again.why and "--force" in again.why and berlin in again.why
    assert mem.rejections()[0].code == "retracted"
    # a differently worded statement of the same claim is the same claim
    assert mem.remember("I live in Berlin.").code == "retracted"
    forced = mem.remember("I live in Berlin", force=True)
    assert forced.accepted and forced.fact is not None and forced.fact.id != berlin
    assert texts(mem.recall("where do I live", k=1)) == ["The user lives in Berlin"]
    kinds = [d["kind"] for d in mem.why(forced.fact.id).decisions]
    assert "reasserted" in kinds
    # another value on the key is not the retracted claim
    clock.set("2025-07-01")
    assert mem.remember("I live in Munich").relation is Relation.UPDATE


def test_known_at_reads_record_time(mem: Memory, clock: Clock) -> None:
    mem.remember("I live in Helsinki", valid_from="2024-01-10")
    clock.set("2025-04-20")  # the move to Berlin, on 2025-03-01, learned only in April
    berlin = mem.remember("I live in Berlin", valid_from="2025-03-01")
    assert berlin.relation is Relation.UPDATE
    clock.set("2026-01-01")
    # true on 2025-03-20, as known now: Berlin; as credo knew it on 2025-03-20: Helsinki
    assert texts(mem.recall("where do I live", k=1, as_of="2025-03-20")) == [
        "The user lives in Berlin"
    ]
    assert texts(mem.recall("where do I live", k=1, known_at="2025-03-20")) == [
        "The user lives in Helsinki"
    ]
    assert texts(mem.recall("where do I live", k=1, as_of="2025-03-20", known_at="2025-03-20")) == [
        "The user lives in Helsinki"
    ]
    # before credo knew anything
    assert mem.list(known_at="2023-12-31") == []


def test_a_conflict_is_open_in_the_view_of_its_time(mem: Memory, clock: Clock) -> None:
    a = mem.remember("My editor is Helix", valid_from="2024-01-10")
    b = mem.remember("My editor is Zed", valid_from="2024-01-10")
    assert b.relation is Relation.CONFLICT
    assert a.fact is not None and b.fact is not None
    clock.set("2024-03-01")
    mem.retract(a.fact.id, why="I switched long ago")
    assert mem.get(b.fact.id).status is Status.ACTIVE  # retracting one side closes it
    assert mem.conflicts() == []
    clock.set("2024-06-01")
    past = mem.for_prompt("what editor do I use", known_at="2024-02-01")
    assert "Helix" in past and "Zed" in past and "contradict" in past
    now = mem.for_prompt("what editor do I use")
    assert "Zed" in now and "Helix" not in now and "contradict" not in now
    closed = [d for d in mem.why(b.fact.id).decisions if d["kind"] == "resolved"]
    assert closed and closed[0]["by"] == "user"


def test_render_says_what_changed_when_asked(mem: Memory, clock: Clock) -> None:
    live_in_the_past(mem, clock)
    clock.set("2025-06-01")
    block = mem.for_prompt("where do I live", changes=True)
    assert '"The user lives in Berlin" (since 2025-03; before: "Helsinki")' in block
    assert "before" not in mem.for_prompt("where do I live")  # off by default
    clock.set("2027-06-01")  # more than a year after the change: no longer worth saying
    assert "before" not in mem.for_prompt("where do I live", changes=True)


# -- corroboration -------------------------------------------------------------------------
def test_corroboration_counts_independent_sources_only(mem: Memory, clock: Clock) -> None:
    first = mem.remember("I use Neovim for Python work", derived_from=["ep-1:t1"])
    assert first.fact is not None
    start = first.fact.confidence
    again = mem.remember("I use Neovim for Python work", derived_from=["ep-1:t1"])
    assert again.relation is Relation.DUPLICATE
    assert mem.get(first.fact.id).confidence == start  # the same episode: no change
    other = mem.remember("I use Neovim for Python work", derived_from=["ep-2:t7"])
    assert other.relation is Relation.DUPLICATE
    raised = mem.get(first.fact.id).confidence
    assert raised == pytest.approx(start + 0.5 * (0.98 - start), abs=1e-4)
    tool = mem.remember("I use Neovim for Python work", source="tool:editor-config")
    assert tool.relation is Relation.DUPLICATE
    after_tool = mem.get(first.fact.id).confidence
    assert raised < after_tool <= 0.98
    for n in range(3, 12):  # many episodes: never past the cap of the strongest class
        mem.remember("I use Neovim for Python work", derived_from=[f"ep-{n}:t1"])
    assert mem.get(first.fact.id).confidence <= 0.98
    kinds = [s["kind"] for s in mem.why(first.fact.id).sources]
    assert kinds[:3] == ["new", "reinforced", "corroborated"]
    steps = [c for _, c in mem.why(first.fact.id).confidence]
    assert steps == sorted(steps)  # never lowered


def test_inferred_corroboration_stays_under_its_cap(mem: Memory) -> None:
    first = mem.remember("Arttu deploys arttuan.com on Vercel", source="inferred")
    assert first.fact is not None and first.fact.confidence <= 0.6
    for n in range(5):
        mem.remember(
            "Arttu deploys arttuan.com on Vercel", source="inferred", derived_from=[f"e{n}"]
        )
    assert mem.get(first.fact.id).confidence <= 0.6


# -- the decision log and forget ------------------------------------------------------------
def test_forget_leaves_no_decision_naming_the_fact(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    mem.forget(id=berlin)
    store = mem.store
    rows = store.events(scope=mem.scope)
    assert all(e.fact_id != berlin and e.other != berlin for e in rows)
    assert not any("Berlin" in json.dumps(e.detail) for e in rows)
    # Helsinki's supersession is still dated, by a fact since forgotten
    [sup] = [d for d in mem.why(helsinki).decisions if d["kind"] == "superseded"]
    assert sup["other"] is None and "forgotten" in (sup["why"] or "")
    mem.forget(id=helsinki)
    assert store.events(scope=mem.scope) == []


def test_the_log_keeps_to_its_scope(real_store: Store, clock: Clock) -> None:
    a = Memory(real_store, scope="a", clock=clock)
    b = Memory(real_store, scope="b", clock=clock)
    fact = a.remember("I live in Helsinki").fact
    assert fact is not None
    with pytest.raises(NotFound):
        b.why(fact.id)
    with pytest.raises(NotFound):
        b.retract(fact.id)
    assert b.history("user") == []
    assert real_store.events(scope="b") == []


def test_the_migration_dates_what_an_older_database_retired(
    real_store: Store, clock: Clock
) -> None:
    """A database from before the log: facts superseded and retracted with no events.
    The migration gives each one row, dated when its successor was stored."""
    mem = Memory(real_store, scope="arttu", clock=clock)
    helsinki, berlin = live_in_the_past(mem, clock)
    clock.set("2025-06-01")
    editor = mem.remember("My editor is Helix").fact
    assert editor is not None
    mem.retract(editor.id)
    conn = real_store._conn  # type: ignore[attr-defined]
    mark = "?" if "sqlite" in type(real_store).__name__.lower() else "%s"
    name = next(n for n in real_store.applied_migrations() if n.endswith("_fact_events"))  # type: ignore[attr-defined]
    with real_store.transaction():
        conn.execute("DROP TABLE fact_events")
        conn.execute(f"DELETE FROM migrations WHERE name = {mark}", (name,))
    assert name in real_store.migrate()  # type: ignore[attr-defined]
    kinds = {e.fact_id: e.kind for e in real_store.events(scope="arttu")}
    assert kinds == {helsinki: "superseded", editor.id: "retracted"}
    clock.set("2026-01-01")
    assert texts(mem.recall("where do I live", k=1, known_at="2024-12-31")) == [
        "The user lives in Helsinki"
    ]
    assert mem.why(helsinki).decisions[0]["by"] == "migration"


# -- the same through the async API, the CLI and bad input ---------------------------------
def test_async_twins(mem: Memory, clock: Clock) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    amem = AsyncMemory(mem)

    async def go() -> None:
        assert texts(await amem.recall("where do I live", k=1, as_of="2024-06")) == [
            "The user lives in Helsinki"
        ]
        why = await amem.why(berlin)
        assert why.fact.id == berlin
        assert len((await amem.history("user"))[0].entries) == 2
        assert (await amem.retract(berlin)).status is Status.RETRACTED

    asyncio.run(go())


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.recall("x", as_of="last tuesday"),
        lambda m: m.list(known_at="2024-13"),
        lambda m: m.retract("f_nope"),
        lambda m: m.why("f_nope"),
        lambda m: m.retract("f_x", by=" "),
        lambda m: m.retract("f_x", why="a\x00b"),
        lambda m: m.history(""),
    ],
)
def test_bad_input_is_a_clear_error(mem: Memory, call: Callable[[Memory], object]) -> None:
    with pytest.raises(InvalidInput):
        call(mem)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[..., int]:
    from credo import cli

    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_SCOPE", "arttu")
    monkeypatch.delenv("CREDO_EMBEDDER", raising=False)

    def run(*argv: str) -> int:
        return cli.main(list(argv))

    return run


def test_the_session_through_the_cli(
    cli: Callable[..., int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli("remember", "I live in Helsinki", "--valid-from", "2024-01-10") == 0
    assert (
        cli(
            "remember",
            "I live in Berlin",
            "--valid-from",
            "2025-03-05",
            "--derived-from",
            "turn-42",
        )
        == 0
    )
    capsys.readouterr()
    assert cli("recall", "where do I live", "-k", "1", "--as-of", "2024-06") == 0
    assert "lives in Helsinki" in capsys.readouterr().out
    assert cli("recall", "where do I live", "-k", "1") == 0
    assert "lives in Berlin" in capsys.readouterr().out
    assert cli("history", "user") == 0
    out = capsys.readouterr().out
    assert "2024-01-10 to 2025-03-05" in out and "Helsinki" in out and "Berlin" in out
    assert "(update, user; active)" in out
    assert cli("list", "--json", "--status", "active") == 0
    [berlin] = json.loads(capsys.readouterr().out)
    assert cli("why", berlin["id"]) == 0
    out = capsys.readouterr().out
    assert 'said: "I live in Berlin"' in out and "turn-42" in out and "Helsinki" in out
    assert cli("why", berlin["id"], "--json") == 0
    assert json.loads(capsys.readouterr().out)["fact"]["id"] == berlin["id"]
    assert cli("retract", berlin["id"], "--why", "never moved") == 0
    assert "retracted" in capsys.readouterr().out
    assert cli("recall", "where do I live", "--render") == 0
    out = capsys.readouterr().out
    assert "Berlin" not in out and "Helsinki" not in out
    assert cli("remember", "I live in Berlin") == 1
    assert "retracted" in capsys.readouterr().err
    assert cli("remember", "I live in Berlin", "--force") == 0
    assert cli("recall", "x", "--as-of", "soon") == 1
    assert "cannot read the date" in capsys.readouterr().err
    assert cli("retract", "f_missing") == 1
    assert "no fact" in capsys.readouterr().err


def test_export_and_import_keep_the_decision_log(
    mem: Memory, clock: Clock, tmp_path: Path, minilm: object
) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    clock.set("2025-04-01")
    mem.retract(berlin, why="never moved")
    records = list(mem.export())
    assert {r["kind"] for r in records if r["type"] == "event"} >= {
        "new",
        "updated",
        "superseded",
        "retracted",
    }
    other = make_store("sqlite", tmp_path / "copy", embedder=minilm)
    try:
        copy = Memory(other, scope="arttu", clock=clock)
        report = copy.import_(records)
        assert report.events == len([r for r in records if r["type"] == "event"])
        assert copy.import_(records).events == 0  # idempotent
        assert [d["kind"] for d in copy.why(berlin).decisions] == [
            d["kind"] for d in mem.why(berlin).decisions
        ]
        clock.set("2026-01-01")
        assert texts(copy.recall("where do I live", k=1, known_at="2025-03-20")) == [
            "The user lives in Berlin"
        ]
        assert not any("lives in" in t for t in texts(copy.recall("where do I live")))
    finally:
        other.close()


def test_an_export_without_a_log_imports_dated(
    mem: Memory, clock: Clock, tmp_path: Path, minilm: object
) -> None:
    helsinki, berlin = live_in_the_past(mem, clock)
    records = [r for r in mem.export() if r["type"] != "event"]
    other = make_store("sqlite", tmp_path / "old", embedder=minilm)
    try:
        copy = Memory(other, scope="arttu", clock=clock)
        copy.import_(records)
        [e] = other.events(scope="arttu")
        assert (e.fact_id, e.kind, e.at) == (helsinki, "superseded", parse_time("2025-03-05"))
        clock.set("2026-01-01")
        assert texts(copy.recall("where do I live", k=1, known_at="2024-12-31")) == [
            "The user lives in Helsinki"
        ]
    finally:
        other.close()


@pytest.mark.parametrize(
    "bad",
    [
        {"detail": {"said": "x", "password": "hunter2"}},
        {"confidence": 7},
        {"at": "yesterday-ish"},
        {"kind": "Not A Code"},
        {"detail": "said it"},
    ],
)
def test_a_malformed_event_record_stops_the_import(
    mem: Memory,
    clock: Clock,
    bad: dict,  # type: ignore[type-arg]
) -> None:
    live_in_the_past(mem, clock)
    records = list(mem.export())
    event = next(r for r in records if r["type"] == "event")
    event.update(bad)
    mem.forget(everything=True)
    with pytest.raises(InvalidInput):
        mem.import_(records)
    assert mem.list() == []  # nothing written


def test_a_repetition_without_episodes_is_the_seeds_small_step(mem: Memory) -> None:
    first = mem.remember("Arttu prefers dark mode")
    assert first.fact is not None
    mem.remember("Arttu prefers dark mode")
    assert mem.get(first.fact.id).confidence == pytest.approx(first.fact.confidence + 0.02)
    assert [s["kind"] for s in mem.why(first.fact.id).sources] == ["new", "reinforced"]
