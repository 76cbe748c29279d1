"""Property tests over every way in: `Memory.remember`, `ingest`, `import_records` and each
MCP tool (called through the server `build_server` makes, in process).

For any input: no exception but the documented ones (`InvalidInput`, `IngestError`, the
MCP SDK's `ToolError` and never its `UnexpectedToolError`), nothing of another scope
touched (scope B is seeded and snapshotted; the fuzzing writes scope A), and nothing stored
lost except what a request said to forget. Bounded: a few dozen examples a test, so the
file runs in well under a minute on both backends (CREDO_FUZZ_EXAMPLES raises it).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from credo.config import MAX_FACT_CHARS, MAX_REJECTION_CHARS
from credo.errors import InvalidInput
from credo.extract.base import Turn
from credo.fact import Fact, Status
from credo.ingest import IngestError, ingest
from credo.memory import Memory
from credo.secrets import find_secrets
from credo.store.base import Store
from credo.transfer import import_records

A, B, C = "fuzz-a", "fuzz-b", "fuzz-c"

#: examples a test; CREDO_FUZZ_EXAMPLES=1000 for a longer hunt
EXAMPLES = int(os.environ.get("CREDO_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

# -- inputs ---------------------------------------------------------------------------------
NAMES = ["Arttu", "Mia", "I", "my editor", "the deploy target", "Noor", "it", "The user"]
VERBS = [
    "lives in",
    "uses",
    "likes",
    "is",
    "works at",
    "prefers",
    "has",
    "don't like",
    "moved to",
    "might switch to",
    "never drinks",
    "'s password is",
]
THINGS = [
    "Berlin",
    "Postgres 16",
    "tea",
    "Vercel",
    "hunter2",
    "staging",
    "prod",
    "2 kids",
    "coffee",
    "https://example.com/x?y=1",
    "ghp_" + "Aa1" * 12,
]

sentences = st.builds(
    lambda s, v, o, end: f"{s} {v} {o}{end}",
    st.sampled_from(NAMES),
    st.sampled_from(VERBS),
    st.sampled_from(THINGS),
    st.sampled_from(["", ".", "?", "!", " now", " since 2020"]),
)
requests = st.builds(
    lambda w, o: f"{w} {o}",
    st.sampled_from(
        [
            "Don't remember",
            "Please forget that I live in",
            "forget that",
            "Never remember my",
            "remember that",
        ]
    ),
    st.sampled_from(THINGS),
)
texts = st.one_of(
    sentences,
    requests,
    st.text(max_size=200),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
    st.text(alphabet="\x00\x01\x1b\x7f\n\r\t \u2028\u200b\ufeffaI.", max_size=30),
    st.builds(
        lambda n, c: c * n,
        st.integers(MAX_FACT_CHARS - 2, MAX_FACT_CHARS + 2),
        st.sampled_from(["a", "é", " "]),
    ),
)
good_times = st.one_of(
    st.none(),
    st.integers(0, 1_700_000_000),
    st.sampled_from(
        ["2024-01-01", "2024-05-01T12:00:00Z", "10:37 am on 23 March, 2021", "1970-01-01"]
    ),
)
#: times: half of them readable, the rest anything
times = st.one_of(
    good_times,
    good_times,
    good_times,
    st.floats(),
    st.text(max_size=30),
    st.integers(-(10**400), 10**400),
    st.booleans(),
    st.just("9999-12-31"),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
#: what hostile clients send: numbers no 64-bit column holds, lone surrogates (bytes that
#: were not UTF-8), NUL, and nesting
huge_ints = st.sampled_from([10**20, 2**63, -(2**63) - 1, 10**30, -(10**30)])
hostile_texts = st.sampled_from(["\ud800", "Arttu likes \udcff tea", "a\x00b", "\udfff\ud800"])
nested = st.integers(1, 60).map(lambda n: json.loads("[" * n + "]" * n))
json_values = st.one_of(json_values, huge_ints, hostile_texts, nested)
#: ids an input may reuse: the seeded facts' ids (of both scopes), filled in at run time
KNOWN_IDS: list[str] = ["f_" + "0" * 16]
RULE_IDS: list[str] = ["r_" + "0" * 12]
known_ids = st.integers(0, 10_000).map(lambda i: KNOWN_IDS[i % len(KNOWN_IDS)])
rule_ids = st.integers(0, 10_000).map(lambda i: RULE_IDS[i % len(RULE_IDS)])
good_sources = st.sampled_from(["user", "tool:github", "imported:doc", "inferred"])
sources = st.one_of(good_sources, good_sources, good_sources, st.text(max_size=20))


# -- the invariants ---------------------------------------------------------------------------
def snapshot(store: Store, scope: str) -> str:
    """Everything a scope holds, as one comparable string."""
    return json.dumps(
        {
            "facts": sorted((f.to_dict() for f in store.all(scope=scope)), key=lambda d: d["id"]),
            "lineage": sorted(store.lineage(scope=scope)),
            "conflicts": sorted(
                json.dumps(c.to_dict(), sort_keys=True)
                for c in store.conflicts(scope=scope, include_resolved=True)
            ),
            "aliases": store.aliases(scope=scope),
            "rules": sorted(
                json.dumps(r.to_dict(), sort_keys=True) for r in store.rules(scope=scope)
            ),
            "rejections": [r.to_dict() for r in store.rejections(scope=scope, limit=10_000)],
        },
        sort_keys=True,
        default=str,
    )


def seed(store: Store) -> tuple[Memory, str]:
    """Scope B with facts, a conflict, an alias and a rule (its snapshot), and scope A with
    a few facts to lose."""
    b = Memory(store, scope=B)
    b.alias_add("mimi", "mia")
    b.remember("Mia lives in Oslo", valid_from="2023-01-01")
    b.remember("Mia lives in Bergen")
    b.remember("The deploy target is staging")
    b.remember("The deploy target is prod")
    b.add_rule("home address")
    a = Memory(store, scope=A)
    for text in ("Arttu lives in Berlin", "Arttu uses Postgres", "Noor prefers oolong tea"):
        a.remember(text)
    return a, snapshot(store, B)


def ids(store: Store, scope: str) -> set[str]:
    return {f.id for f in store.all(scope=scope)}


def check(
    store: Store, before_b: str, before_a: set[str], forgotten: set[str] | None = None
) -> None:
    assert snapshot(store, B) == before_b, "a write to scope A changed scope B"
    lost = before_a - ids(store, A) - (forgotten or set())
    assert not lost, f"facts lost without a request to forget them: {lost}"
    for fact in store.all(scope=A):
        assert len(fact.text) <= MAX_FACT_CHARS + 200  # the parser may name the speaker
        assert not find_secrets(fact.text), fact.text
    for rejection in store.rejections(scope=A, limit=50):
        assert "\x00" not in rejection.text


def round_trip(store: Store) -> None:
    """Whatever scope A holds, an export gives back and an import takes again, whole."""
    exported = [json.loads(json.dumps(r)) for r in Memory(store, scope=A).export()]
    copy = Memory(store, scope=C)
    again = copy.import_(exported, into=C)
    # known, and not for import to fix: a request naming a secret stores it in a rule
    # (test_a_request_naming_a_secret_keeps_it_out_of_its_rule); import refuses such rules
    refused = [line for line in again.refused if "(rule)" not in line]
    assert not refused, refused
    assert held(store, C) == held(store, A)
    copy.forget(everything=True)


def held(store: Store, scope: str) -> list[str]:
    """What a scope's facts say, each fact as its words, key, status, dates and source:
    everything but its id and scope, which an import into another scope gives anew."""
    return sorted(
        json.dumps(
            [
                f.text,
                f.subject,
                f.predicate,
                f.object,
                f.status.value,
                f.valid_from,
                f.created_at,
                f.source,
                f.confidence,
            ]
        )
        for f in store.all(scope=scope)
    )


# -- remember -------------------------------------------------------------------------------
@pytest.mark.slow
def test_remember(store: Store) -> None:
    a, before_b = seed(store)

    @FUZZ
    @given(
        text=st.one_of(sentences, sentences, texts, texts, json_values),
        source=sources,
        valid_from=times,
        confidence=st.one_of(st.none(), st.none(), st.none(), st.floats(), st.integers(-2, 2)),
    )
    def run(text: Any, source: Any, valid_from: Any, confidence: Any) -> None:
        before = ids(store, A)
        forgotten: set[str] = set()
        try:
            result = a.remember(text, source=source, valid_from=valid_from, confidence=confidence)
        except InvalidInput:
            event("remember: refused as bad input")
        else:
            event(f"remember: {result.relation.value if result.relation else result.code}")
            if result.request:
                forgotten = set(result.request.get("forgotten") or ())
            if result.accepted:
                assert result.fact is not None and result.fact.scope == A
        check(store, before_b, before, forgotten)
        round_trip(store)

    run()


# -- ingest ---------------------------------------------------------------------------------
turns = st.builds(
    Turn,
    id=st.one_of(st.sampled_from(["t:1", "t:2", "ep:3"]), st.text(min_size=1, max_size=12)),
    role=st.sampled_from(["user", "user", "assistant", "tool"]),
    content=st.one_of(texts, sentences, st.lists(sentences, max_size=4).map(" ".join)),
    timestamp=st.one_of(
        st.none(), st.integers(0, 1_700_000_000), st.integers(0, 1_700_000_000), st.floats()
    ),
    speaker=st.one_of(st.none(), st.sampled_from(["Mia", "Arttu"]), st.text(max_size=10)),
    episode=st.one_of(st.none(), st.sampled_from(["ep-1", "ep-2"])),
)


@pytest.mark.slow
def test_ingest(store: Store) -> None:
    a, before_b = seed(store)

    @FUZZ
    @given(batch=st.lists(turns, max_size=5), dry_run=st.booleans(), episode_size=st.integers(1, 4))
    def run(batch: list[Turn], dry_run: bool, episode_size: int) -> None:
        before = ids(store, A)
        forgotten: set[str] = set()
        try:
            report = ingest(a, batch, dry_run=dry_run, episode_size=episode_size)
        except (IngestError, InvalidInput):
            event("ingest: refused as bad input")
        else:
            event(f"ingest: {min(report.accepted, 2)}+ accepted")
            for applied in report.suppressions:
                forgotten.update(applied.forgotten)
            if dry_run:
                assert ids(store, A) == before
        check(store, before_b, before, forgotten)
        round_trip(store)

    run()


# -- import ---------------------------------------------------------------------------------
FACT_FIELDS = list(Fact.__dataclass_fields__)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A record like an export's, often with some fields replaced by anything at all."""
    kind = draw(
        st.sampled_from(
            [
                "fact",
                "fact",
                "fact",
                "lineage",
                "conflict",
                "alias",
                "rule",
                "rejection",
                "header",
                "junk",
            ]
        )
    )
    scope = draw(st.sampled_from([A, A, A, B, C, None, "bad scope"]))
    if kind == "fact":
        record: dict[str, Any] = {
            "type": "fact",
            **Fact(
                text=draw(texts),
                scope=A,
                status=draw(st.sampled_from(list(Status))),
                subject=draw(st.one_of(st.none(), st.sampled_from(["arttu", "mia", "user"]))),
                predicate=draw(st.one_of(st.none(), st.just("live_in"))),
            ).to_dict(),
        }
        record["id"] = draw(st.one_of(st.just(record["id"]), known_ids))
    elif kind == "lineage":
        record = {
            "type": "lineage",
            "parent": draw(known_ids),
            "child": draw(known_ids),
            "kind": draw(st.sampled_from(["supersedes", "refines", "derived"])),
        }
    elif kind == "conflict":
        record = {
            "type": "conflict",
            "a": draw(known_ids),
            "b": draw(known_ids),
            "reason": draw(st.text(max_size=20)),
            "created_at": draw(times),
            "resolved_at": draw(times),
            "resolution": draw(st.one_of(st.none(), st.text(max_size=10))),
            "decided_by": draw(st.one_of(st.none(), st.text(max_size=10))),
        }
    elif kind == "alias":
        record = {
            "type": "alias",
            "alias": draw(st.text(max_size=12)),
            "canonical": draw(st.sampled_from(["arttu", "mia", "user"])),
        }
    elif kind == "rule":
        record = {
            "type": "rule",
            "id": draw(st.one_of(st.none(), rule_ids)),
            "pattern": draw(texts),
            "subject": None,
            "created_at": draw(times),
        }
    elif kind == "rejection":
        record = {
            "type": "rejection",
            "text": draw(texts),
            "code": draw(st.sampled_from(["hedged", "secret", "Bad Code"])),
            "reason": draw(st.text(max_size=20)),
            "created_at": draw(times),
        }
    elif kind == "header":
        record = {
            "type": "header",
            "format": "credo-export",
            "version": draw(st.sampled_from([1, 1, 2])),
        }
    else:
        return draw(st.dictionaries(st.text(max_size=6), json_values, max_size=4))
    if scope is not None:
        record["scope"] = scope
    for key in draw(st.lists(st.sampled_from([*FACT_FIELDS, "type", "x"]), max_size=2)):
        record[key] = draw(json_values)
    return record


@pytest.mark.slow
def test_import(store: Store) -> None:
    a, before_b = seed(store)
    KNOWN_IDS[:] = ["f_" + "0" * 16, *sorted(ids(store, A)), *sorted(ids(store, B))]
    RULE_IDS[:] = ["r_" + "0" * 12, *(r.id for r in store.rules(scope=B))]

    @FUZZ
    @given(batch=st.lists(records(), max_size=8), into=st.booleans())
    def run(batch: list[dict[str, Any]], into: bool) -> None:
        before = ids(store, A)
        texts_before = {f.id: f.text for f in store.all(scope=A)}
        try:
            report = import_records(store, batch, scope=A, into=A if into else None)
        except InvalidInput:
            event("import: refused")
            assert ids(store, A) == before  # a refused import writes nothing
        else:
            event(f"import: {min(report.facts, 2)}+ facts, {min(len(report.refused), 1)}+ refused")
            assert report.scopes == [A]
        check(store, before_b, before)
        for fact in store.all(scope=A):
            assert texts_before.get(fact.id, fact.text) == fact.text  # never overwritten
        for rejection in store.rejections(scope=A, limit=50):
            assert len(rejection.text) <= MAX_REJECTION_CHARS or rejection.code != "hedged"
        round_trip(store)  # whatever an import accepted, an import takes again

    run()


# -- every MCP tool -------------------------------------------------------------------------
TOOL_ARGS: dict[str, Any] = {
    "remember": st.fixed_dictionaries(
        {"text": st.one_of(texts, json_values)},
        optional={"source": st.one_of(sources, json_values), "valid_from": times},
    ),
    "recall": st.fixed_dictionaries(
        {"query": st.one_of(texts, json_values)},
        optional={"k": st.one_of(st.integers(-3, 80), json_values)},
    ),
    "why": st.fixed_dictionaries({"id": st.one_of(known_ids, json_values)}),
    "history": st.fixed_dictionaries(
        {"subject": st.one_of(st.sampled_from(["Arttu", "Mia", "user"]), json_values)},
        optional={"predicate": st.one_of(st.sampled_from(["live_in", "use"]), json_values)},
    ),
    "retract": st.fixed_dictionaries(
        {"id": st.one_of(known_ids, json_values)},
        optional={"why": st.one_of(texts, json_values), "decided_by": json_values},
    ),
    "forget": st.fixed_dictionaries(
        {},
        optional={
            "id": st.one_of(known_ids, st.text(max_size=20), json_values),
            "subject": st.one_of(st.sampled_from(["Arttu", "Mia", "Noor", "me"]), json_values),
            "episode": st.one_of(st.sampled_from(["t:1", "ep-1"]), json_values),
        },
    ),
    "list_facts": st.fixed_dictionaries(
        {},
        optional={
            "subject": st.one_of(st.sampled_from(["Arttu", "Mia"]), json_values),
            "status": st.one_of(st.sampled_from([s.value for s in Status]), json_values),
            "limit": st.one_of(st.integers(-1, 300), json_values),
            "offset": st.one_of(st.integers(-1, 5), huge_ints, json_values),
        },
    ),
    "conflicts": st.fixed_dictionaries({}, optional={"include_resolved": json_values}),
    "resolve_conflict": st.fixed_dictionaries(
        {},
        optional={
            "keep": st.one_of(known_ids, json_values),
            "retract": st.one_of(st.lists(known_ids, max_size=3), json_values),
            "decided_by": st.one_of(st.text(max_size=30), json_values),
        },
    ),
    "ingest": st.fixed_dictionaries(
        {
            "turns": st.one_of(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "role": st.sampled_from(["user", "assistant", "tool", "system", "x"]),
                            "content": st.one_of(texts, json_values),
                        },
                        optional={
                            "timestamp": times,
                            "id": st.one_of(st.text(max_size=10), json_values),
                        },
                    ),
                    max_size=4,
                ),
                json_values,
            )
        },
        optional={"episode": st.one_of(st.text(max_size=10), json_values)},
    ),
}


def _forgotten_by(tool: str, out: dict[str, Any]) -> set[str]:
    if tool == "forget":
        return set(out.get("fact_ids") or ())
    if tool == "remember" and out.get("honoured"):
        return set((out.get("request") or {}).get("forgotten") or ())
    if tool == "ingest":
        return {f for s in out.get("suppressions") or () for f in s.get("forgotten") or ()}
    return set()


def test_mcp_tools(store: Store) -> None:
    pytest.importorskip("mcp.server.mcpserver")
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

    from credo.mcp import build_server

    a, before_b = seed(store)
    KNOWN_IDS[:] = ["f_" + "0" * 16, *sorted(ids(store, A)), *sorted(ids(store, B))]
    server = build_server(a)

    @settings(FUZZ, max_examples=EXAMPLES * 2)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(sorted(TOOL_ARGS)))
        arguments = data.draw(TOOL_ARGS[tool])
        if data.draw(st.booleans()):  # and sometimes arguments no tool takes
            arguments.update(
                data.draw(st.dictionaries(st.text(max_size=6), json_values, max_size=2))
            )
        before = ids(store, A)
        forgotten: set[str] = set()
        try:
            result = asyncio.run(server.call_tool(tool, arguments))
        except UnexpectedToolError as exc:  # a bug: the SDK hides its text from the client
            raise AssertionError(f"{tool}({arguments!r}) crashed: {exc.__cause__!r}") from exc
        except ToolError:
            event(f"{tool}: tool error")
        else:
            event(f"{tool}: ok")
            out = json.loads(" ".join(getattr(c, "text", "") for c in result.content))
            forgotten = _forgotten_by(tool, out)
        check(store, before_b, before, forgotten)

    run()


def test_the_invariants_catch_what_they_should(store: Store) -> None:
    """The checker itself: a write to B, or a lost fact, is caught."""
    a, before_b = seed(store)
    before = ids(store, A)
    Memory(store, scope=B).remember("Mia speaks Finnish")
    with pytest.raises(AssertionError, match="changed scope B"):
        check(store, before_b, before)
    a.forget(subject="Arttu")
    with pytest.raises(AssertionError, match="lost"):
        check(store, snapshot(store, B), before)


def test_a_confidence_no_float_can_hold_is_bad_input(sqlite_store: Store) -> None:
    with pytest.raises(InvalidInput, match="confidence"):
        Memory(sqlite_store).remember("Arttu lives in Berlin", confidence=10**400)


def test_what_remember_stores_an_import_takes_back(sqlite_store: Store) -> None:
    mem = Memory(sqlite_store, scope=A)
    result = mem.remember("I live in " + "B" * (MAX_FACT_CHARS - 11) + ".")
    assert result.accepted
    report = Memory(sqlite_store, scope=C).import_(list(mem.export()), into=C)
    assert report.facts == 1 and not report.refused
    assert held(sqlite_store, C) == held(sqlite_store, A)
    assert result.fact is not None and json.loads(held(sqlite_store, C)[0])[0] == result.fact.text


def test_a_request_naming_a_secret_keeps_it_out_of_its_rule(sqlite_store: Store) -> None:
    mem = Memory(sqlite_store, scope=A)
    assert mem.remember("Don't remember my password hunter2").code == "request"
    assert not any("hunter2" in rule.pattern for rule in mem.rules())
