"""`import` is a write like any other: every record checked, secrets and oversized facts
refused, nothing written outside the importing scope, and ids that say nothing about what
other scopes hold. On both backends, through `Memory.import_` and through the CLI."""

from __future__ import annotations

import io
import json
import random
import string
import sys
from pathlib import Path
from typing import Any

import pytest

from credo.cli import main
from credo.config import MAX_FACT_CHARS, MAX_REJECTION_CHARS
from credo.embed import HashEmbedder
from credo.errors import InvalidInput
from credo.fact import Fact
from credo.memory import Memory
from credo.secrets import find_secrets
from credo.store.base import Rejection, Rule, Store
from credo.transfer import import_records, read_json_lines

A, B, C = "team-a", "team-b", "team-c"


def token(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """A random-looking value made at run time: no credential-shaped literal in the source."""
    return "".join(random.Random(seed).choices(alphabet, k=n))


#: facts that carry a credential; each is one `find_secrets` reports
SECRET_FACTS = [
    "The OpenAI key for the bot is " + "sk-proj-" + token(48, 1),
    "Arttu's AWS access key is " + "AKIA" + token(16, 2, string.ascii_uppercase + "234567"),
    "The GitHub token for CI is " + "ghp_" + token(36, 3),
    "The GitLab token is " + "glpat-" + token(20, 4),
    "The Stripe key is " + "sk_" + "live_" + token(24, 5),
    "The Google API key is " + "AIza" + token(35, 6),
    "The Hugging Face token is " + "hf_" + token(34, 7),
    "The prod database is postgres://app:" + token(14, 8) + "@db.internal:5432/app",
    "My password is " + token(6, 9, string.ascii_lowercase) + "42",
    "Arttu's card number is 4111 1111 1111 1111",
    "The Slack bot token is " + "xoxb-" + "1234567890-1234567890123-" + token(24, 10),
    "The API token is " + token(40, 11),
]


def fact_record(text: str, scope: str = A, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "fact", **Fact(text=text, scope=scope).to_dict()}
    record.update(extra)
    return record


def snapshot(store: Store, scope: str) -> dict[str, Any]:
    """Everything a scope holds, comparable."""
    return {
        "facts": sorted((f.to_dict() for f in store.all(scope=scope)), key=lambda d: d["id"]),
        "lineage": sorted(store.lineage(scope=scope)),
        "conflicts": sorted(
            json.dumps(c.to_dict(), sort_keys=True)
            for c in store.conflicts(scope=scope, include_resolved=True)
        ),
        "aliases": store.aliases(scope=scope),
        "rules": sorted(json.dumps(r.to_dict(), sort_keys=True) for r in store.rules(scope=scope)),
        "rejections": [r.to_dict() for r in store.rejections(scope=scope, limit=10_000)],
    }


def seed(store: Store, scope: str) -> Memory:
    """A scope with one of everything: facts, an update (lineage), a conflict (settled and
    open), an alias, a rule, a rejection."""
    mem = Memory(store, scope=scope)
    mem.alias_add("@arttuan", "arttu")
    mem.remember("Arttu lives in Helsinki", valid_from="2023-01-01", derived_from=["ep-1"])
    mem.remember("Arttu lives in Berlin", derived_from=["ep-2"])
    mem.remember("The deploy target is staging")
    mem.remember("The deploy target is prod")
    fly = mem.remember("The API's host is Fly").fact
    render = mem.remember("The API's host is Render").fact
    assert fly and render
    mem.resolve_conflict(keep=render.id, decided_by="arttu")
    mem.add_rule("home address")
    mem.remember("I might move to Paris")  # refused: a rejection row
    return mem


# -- secrets and sizes ---------------------------------------------------------------------
def test_no_secret_offered_in_an_import_is_stored(store: Store) -> None:
    for text in SECRET_FACTS:
        assert find_secrets(text), text  # the detector's own contract: each is a secret
    mem = Memory(store, scope=A)
    records = [fact_record(t) for t in SECRET_FACTS] + [fact_record("Arttu lives in Oslo")]
    report = mem.import_(records)
    assert report.facts == 1 and [f.text for f in mem.list()] == ["Arttu lives in Oslo"]
    assert len(report.refused) == len(SECRET_FACTS)
    assert all("holds a secret" in line for line in report.refused)
    shown = json.dumps(report.to_dict())
    for text in SECRET_FACTS:
        secret = text[find_secrets(text)[0].start : find_secrets(text)[0].end]
        assert secret not in shown  # the report names records, never what they held


def test_secrets_of_the_shared_fixture_set_are_refused_too(store: Store) -> None:
    data = pytest.importorskip("data_secrets")
    texts = [text for _, text, _ in data.SECRETS if find_secrets(text) and "\x00" not in text]
    mem = Memory(store, scope=A)
    report = mem.import_([fact_record(t) for t in texts])
    assert report.facts == 0 and mem.list() == []
    assert len(report.refused) == len(texts)


def test_a_secret_in_subject_or_object_is_refused(store: Store) -> None:
    key = "ghp_" + token(36, 20)
    mem = Memory(store, scope=A)
    report = mem.import_([fact_record("The CI token is known", subject="ci", object=key)])
    assert report.facts == 0 and mem.list() == [] and report.refused


def test_an_oversized_fact_is_refused_and_recall_never_prints_it(store: Store) -> None:
    mem = Memory(store, scope=A)
    huge = "Arttu likes tea " + "x" * 10_000_000
    report = mem.import_(
        [
            fact_record(huge),
            fact_record("a" * (MAX_FACT_CHARS + 1)),
            fact_record("Arttu likes coffee"),
        ]
    )
    assert report.facts == 1 and len(report.refused) == 2
    assert str(MAX_FACT_CHARS) in report.refused[0]
    assert len(mem.for_prompt("what does Arttu like")) < 2_000
    assert max(len(f.text) for f in mem.list()) <= MAX_FACT_CHARS


@pytest.mark.parametrize(
    "change, says",
    [
        ({"text": "Arttu lives in\x00 Berlin"}, "control characters"),
        ({"text": ""}, "empty"),
        ({"text": 42}, "must be text"),
        ({"subject": ["a"]}, "must be text"),
        ({"confidence": 1.5}, "confidence"),
        ({"confidence": -0.1}, "confidence"),
        ({"confidence": float("nan")}, "confidence"),
        ({"confidence": "0.9"}, "confidence"),
        ({"confidence": True}, "confidence"),
        ({"status": "bogus"}, "status"),
        ({"source": "rumour"}, "unknown source"),
        ({"source": "tool:" + "x" * 500}, "source"),
        ({"created_at": "someday"}, "cannot read the date"),
        ({"valid_from": 1e300}, "between the years"),
        ({"valid_to": True}, "true/false"),
        ({"derived_from": "ep-1"}, "list"),
        ({"derived_from": [1, 2]}, "ids"),
        ({"id": "f_x; DROP TABLE facts"}, "must be an id"),
        ({"superseded_by": {"a": 1}}, "must be an id"),
        ({"access_count": -1}, "access_count"),
        ({"scope": "bad scope"}, "invalid scope"),
        ({"colour": "blue"}, "unknown fields"),
    ],
)
def test_a_malformed_fact_stops_the_import_before_anything_is_written(
    store: Store, change: dict[str, Any], says: str
) -> None:
    mem = Memory(store, scope=A)
    good = fact_record("Arttu lives in Oslo")
    with pytest.raises(InvalidInput, match=says) as raised:
        mem.import_([good, {**fact_record("Arttu likes tea"), **change}])
    assert "record 2 (fact)" in str(raised.value) and "nothing imported" in str(raised.value)
    assert mem.list() == []


@pytest.mark.parametrize(
    "record, says",
    [
        ({"type": "lineage", "parent": "f_a", "child": "f_b", "kind": "Supersedes!"}, "kind"),
        ({"type": "lineage", "parent": "f_a", "child": "f_a", "kind": "derived"}, "own parent"),
        ({"type": "conflict", "a": "f_a", "b": "f_a"}, "two different facts"),
        ({"type": "conflict", "a": "f_a"}, "needs 'b'"),
        ({"type": "conflict", "a": "f_a", "b": "f_b", "resolved_at": "soon"}, "resolved_at"),
        ({"type": "alias", "alias": "!!!", "canonical": "arttu"}, "letters or digits"),
        ({"type": "alias", "alias": "Arttu", "canonical": "arttu"}, "itself"),
        ({"type": "rule", "pattern": "   "}, "empty"),
        ({"type": "rule", "pattern": "x", "origin": 5}, "must be text"),
        ({"type": "rejection", "text": "x", "code": "DROP TABLE"}, "code"),
        ({"type": "rejection", "text": None, "code": "hedged"}, "text"),
        ({"type": "header", "format": "credo-export", "version": 99}, "version"),
        ({"type": "mystery"}, "unknown record type"),
        ({"kind": "fact"}, "no 'type'"),
    ],
)
def test_every_record_type_is_checked(store: Store, record: dict[str, Any], says: str) -> None:
    mem = Memory(store, scope=A)
    with pytest.raises(InvalidInput, match=says):
        mem.import_([fact_record("Arttu lives in Oslo"), record])
    assert snapshot(store, A) == snapshot(store, "nobody")


def test_imported_rejections_are_masked_and_bounded(store: Store) -> None:
    key = "sk-proj-" + token(48, 30)
    mem = Memory(store, scope=A)
    report = mem.import_(
        [
            {
                "type": "rejection",
                "text": f"my key is {key}",
                "code": "secret",
                "reason": "secret",
                "created_at": 1_700_000_000.0,
            },
            {
                "type": "rejection",
                "text": "I might " + "x" * 10_000_000,
                "code": "hedged",
                "reason": "r" * 100_000,
                "created_at": 1_700_000_001.0,
            },
        ]
    )
    assert report.rejections == 2
    rows = mem.rejections()
    assert all(
        len(r.text) <= MAX_REJECTION_CHARS and len(r.reason) <= MAX_REJECTION_CHARS for r in rows
    )
    assert not any(key in r.text for r in rows)
    assert any("[secret:" in r.text for r in rows)
    assert mem.import_(mem.export()).rejections == 0  # the same rejections are not doubled


def test_rules_and_aliases_holding_secrets_are_refused(store: Store) -> None:
    key = "ghp_" + token(36, 31)
    mem = Memory(store, scope=A)
    report = mem.import_(
        [
            {"type": "rule", "pattern": f"token {key}"},
            {"type": "alias", "alias": key, "canonical": "ci"},
        ]
    )
    assert report.rules == 0 and report.aliases == 0 and len(report.refused) == 2
    assert mem.rules() == [] and mem.aliases() == {}


# -- the scope wall ------------------------------------------------------------------------
def planted(scope: str) -> list[dict[str, Any]]:
    """An export of `scope` that plants a rule refusing the scope's own facts."""
    return [
        {"type": "header", "format": "credo-export", "version": 1, "scope": scope},
        fact_record("Bea lives in Rome", scope=scope),
        {"type": "alias", "scope": scope, "alias": "bea", "canonical": "mallory"},
        {
            "type": "rule",
            "scope": scope,
            "id": "r_planted0001",
            "pattern": "lives",
            "subject": None,
            "created_at": 1_700_000_000.0,
            "origin": "import",
        },
        {"type": "rejection", "scope": scope, "text": "x", "code": "hedged", "reason": "x"},
    ]


def test_a_record_of_another_scope_is_refused_and_nothing_written(store: Store) -> None:
    seed(store, B)
    before_a, before_b = snapshot(store, A), snapshot(store, B)
    for records in (planted(B), [fact_record("Ann lives in Oslo", scope=A), *planted(B)[1:]]):
        with pytest.raises(InvalidInput) as raised:
            Memory(store, scope=A).import_(records)
        message = str(raised.value)
        assert f"of scope {B!r}" in message and f"writes scope {A!r}" in message
        assert "nothing imported" in message and "--into" in message
    assert snapshot(store, A) == before_a and snapshot(store, B) == before_b
    # B still accepts its own facts: no planted rule
    assert Memory(store, scope=B).remember("Bea lives in Rome").accepted


def test_into_copies_every_record_into_the_memory_scope_only(store: Store) -> None:
    seed(store, B)
    before_b = snapshot(store, B)
    mem = Memory(store, scope=A)
    report = mem.import_(planted(B), into=A)
    assert report.scopes == [A] and report.facts == 1 and report.rules == 1
    assert [f.text for f in mem.list()] == ["Bea lives in Rome"]
    assert mem.aliases() == {"bea": "mallory"} and len(mem.rules()) == 1
    assert snapshot(store, B) == before_b
    with pytest.raises(InvalidInput, match="only its memory's scope"):
        mem.import_(planted(B), into=C)
    assert snapshot(store, C) == snapshot(store, "nobody")


def test_import_records_needs_a_scope(store: Store) -> None:
    with pytest.raises(InvalidInput, match="which scope"):
        import_records(store, [fact_record("Ann lives in Oslo")])
    with pytest.raises(InvalidInput, match="disagree"):
        import_records(store, [], scope=A, into=B)


# -- ids: no oracle, and copies within one database -----------------------------------------
def test_an_id_of_another_scope_reveals_nothing_and_gets_a_new_one(store: Store) -> None:
    theirs = Memory(store, scope=B).remember("Bea lives in Rome").fact
    assert theirs is not None
    before_b = snapshot(store, B)
    mem = Memory(store, scope=A)
    unused = "f_" + "0" * 16
    outcomes = []
    for fid in (theirs.id, unused):
        record = fact_record("Ann lives in Oslo", id=fid)
        child = fact_record("Ann lives in Oslo with Bo", id="f_" + "1" * 16)
        report = mem.import_(
            [
                record,
                child,
                {"type": "lineage", "parent": fid, "child": child["id"], "kind": "derived"},
                {"type": "conflict", "a": fid, "b": "f_" + "9" * 16},
            ]
        )
        outcomes.append((report.facts, report.lineage, report.conflicts, report.refused))
        assert "another scope" not in json.dumps(report.to_dict())
        mem.forget(everything=True)
    # the same report whether or not another scope holds the id (the refused line is about
    # the conflict's other end, which no scope holds)
    assert outcomes[0] == outcomes[1] and outcomes[0][:2] == (2, 1)
    assert snapshot(store, B) == before_b


def test_a_fact_that_names_another_scopes_fact_links_nothing_there(store: Store) -> None:
    theirs = Memory(store, scope=B).remember("Bea lives in Rome").fact
    other = Memory(store, scope=B).remember("Bea speaks Italian").fact
    assert theirs is not None and other is not None
    before_b = snapshot(store, B)
    mem = Memory(store, scope=A)
    report = mem.import_(
        [
            fact_record("Ann lives in Oslo", derived_from=[theirs.id], superseded_by=theirs.id),
            {"type": "lineage", "parent": theirs.id, "child": other.id, "kind": "supersedes"},
        ]
    )
    assert report.facts == 1
    assert snapshot(store, B) == before_b
    assert mem.store.lineage(scope=A) == []


def test_copying_a_scope_within_one_database_keeps_everything(store: Store) -> None:
    src = seed(store, A)
    exported = [json.loads(json.dumps(r)) for r in src.export()]
    before_a = snapshot(store, A)
    copy = Memory(store, scope=C)
    report = copy.import_(exported, into=C)
    assert report.facts == 6 and report.renumbered == 6 + 1  # six facts, one rule
    assert report.conflicts == 2 and report.lineage == 1 and report.aliases == 1
    assert report.rules == 1 and report.rejections == 1 and not report.refused
    assert snapshot(store, A) == before_a
    # the same records, ids aside: statuses, lineage and conflicts point within the copy
    ids = {f.id for f in copy.list()}
    assert not ids & {f.id for f in src.list()}
    assert sorted((f.text, f.status.value) for f in copy.list()) == sorted(
        (f.text, f.status.value) for f in src.list()
    )
    for parent, child, _ in store.lineage(scope=C):
        assert {parent, child} <= ids
    for conflict in copy.conflicts(include_resolved=True):
        assert {conflict.a.id, conflict.b.id} <= ids
    for fact in copy.list():
        assert fact.superseded_by is None or fact.superseded_by in ids
        assert not set(fact.derived_from) & {f.id for f in src.list()}
    berlin = next(f for f in copy.list() if "Berlin" in f.text)
    assert copy.lineage(berlin.id)
    # idempotent: importing the copy again changes nothing
    again = copy.import_(exported, into=C)
    assert again.facts == 0 and again.skipped == 6
    assert len(copy.list()) == 6 and len(copy.rules()) == 1


def test_an_export_reimported_into_its_own_scope_is_a_no_op(store: Store) -> None:
    mem = seed(store, A)
    before = snapshot(store, A)
    report = mem.import_(list(mem.export()))
    assert report.facts == 0 and report.skipped == 6 and report.renumbered == 0
    assert snapshot(store, A) == before


def test_a_rule_id_of_another_scope_gets_a_new_one(store: Store) -> None:
    store.add_rule(Rule("r_shared000001", B, "home address", None, 1_700_000_000.0, "cli"))
    before_b = snapshot(store, B)
    mem = Memory(store, scope=A)
    report = mem.import_(
        [
            {
                "type": "rule",
                "id": "r_shared000001",
                "pattern": "phone number",
                "created_at": 1_700_000_000.0,
            }
        ]
    )
    assert report.rules == 1 and "another scope" not in json.dumps(report.to_dict())
    (rule,) = mem.rules()
    assert rule.pattern == "phone number" and rule.id != "r_shared000001"
    assert snapshot(store, B) == before_b
    assert (
        mem.import_(
            [
                {
                    "type": "rule",
                    "id": "r_shared000001",
                    "pattern": "phone number",
                    "created_at": 1_700_000_000.0,
                }
            ]
        ).rules
        == 1
    )
    assert len(mem.rules()) == 1  # the same new id again: idempotent


# -- the command line ------------------------------------------------------------------------
@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "cli.db"))
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.delenv("CREDO_SCOPE", raising=False)

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_cli_import_refuses_another_scope_and_writes_nothing(cli: Any) -> None:
    cli("--scope", B, "remember", "Bea lives in Rome")
    code, _, err = cli("--scope", A, "import", "-", stdin=jsonl(planted(B)))
    assert code == 1 and f"of scope {B!r}" in err and "Traceback" not in err
    assert len(json.loads(cli("--scope", B, "list", "--json")[1])) == 1
    assert json.loads(cli("--scope", B, "rules", "--json")[1]) == []
    assert json.loads(cli("--scope", A, "list", "--json")[1]) == []
    assert cli("--scope", B, "remember", "Bea lives in Milan")[0] == 0


def test_cli_export_then_import_into_another_scope_of_the_same_database(cli: Any) -> None:
    cli("remember", "Arttu lives in Berlin")
    cli("remember", "The deploy target is staging")
    cli("remember", "The deploy target is prod")
    exported = cli("export")[1]
    code, _, err = cli("--scope", C, "import", "-", stdin=exported)
    assert code == 1 and "--into" in err  # a copy is asked for by name
    code, out, err = cli("import", "--into", C, "-", stdin=exported)
    assert code == 0, err
    assert "imported 3 fact(s)" in out and "replaced" in out
    assert len(json.loads(cli("--scope", C, "list", "--json")[1])) == 3
    assert len(json.loads(cli("--scope", C, "conflicts", "--json")[1])) == 1
    assert len(json.loads(cli("list", "--json")[1])) == 3
    assert cli("--scope", C, "import", "--into", C, "-", stdin=exported)[0] == 0
    assert len(json.loads(cli("--scope", C, "list", "--json")[1])) == 3
    assert cli("--scope", A, "import", "--into", C, "-", stdin=exported)[0] == 2


def test_cli_import_reports_refused_records_and_exits_1(cli: Any, tmp_path: Path) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text(
        jsonl(
            [
                fact_record(SECRET_FACTS[0], scope="default"),
                fact_record("x" * 10_000_000, scope="default"),
                fact_record("Arttu lives in Oslo", scope="default"),
            ]
        )
    )
    code, out, err = cli("import", str(dump))
    assert code == 1 and "imported 1 fact(s)" in out and "2 record(s) refused" in out
    assert err.count("not imported") == 2 and "sk-proj-" not in err
    rendered = cli("recall", "Arttu", "--render")[1]
    assert len(rendered) < 2_000


def test_cli_import_of_deeply_nested_json_is_a_clear_error(cli: Any, tmp_path: Path) -> None:
    nested = tmp_path / "nested.jsonl"
    nested.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    code, _, err = cli("import", str(nested))
    assert code == 1 and "nested too deeply" in err and "Traceback" not in err
    long_line = tmp_path / "long.jsonl"
    long_line.write_text('{"type": "fact", "text": "' + "x" * 2_000_000 + '"}\n')
    code, _, err = cli("import", str(long_line))
    assert code == 1 and "line 1" in err and "over" in err
    not_utf8 = tmp_path / "latin1.jsonl"
    not_utf8.write_bytes(b'{"type": "fact", "text": "caf\xe9"}\n')
    code, _, err = cli("import", str(not_utf8))
    assert code == 1 and "UTF-8" in err
    huge_number = tmp_path / "number.jsonl"
    huge_number.write_text('{"type": "fact", "text": "x", "access_count": ' + "9" * 5000 + "}\n")
    code, _, err = cli("import", str(huge_number))
    assert code == 1 and "not JSON" in err


def test_cli_all_scopes_round_trip(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for scope in (A, B):
        cli("--scope", scope, "remember", f"{scope} deploys on Fly")
        cli("--scope", scope, "rules", "add", "home address")
    exported = cli("export", "--all-scopes")[1]
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "restored.db"))
    assert cli("import", "-", stdin=exported)[0] == 1  # names two scopes: not one import
    code, out, err = cli("import", "--all-scopes", "-", stdin=exported)
    assert code == 0, err
    again = cli("export", "--all-scopes")[1]

    def body(text: str) -> list[str]:
        return sorted(line for line in text.splitlines() if '"header"' not in line)

    assert body(again) == body(exported)
    assert cli("import", "--all-scopes", "--into", A, "-", stdin=exported)[0] == 2


def test_read_json_lines_bounds_and_errors() -> None:
    rows = list(read_json_lines(io.BytesIO(b'{"a": 1}\n\n[2]\n'), name="t"))
    assert rows == [(1, {"a": 1}), (3, [2])]
    with pytest.raises(InvalidInput, match="over 10 bytes"):
        list(read_json_lines(io.BytesIO(b'["' + b"x" * 20 + b'"]\n'), name="t", max_line=10))
    with pytest.raises(InvalidInput, match="over 15 bytes"):
        list(read_json_lines(io.BytesIO(b"[1]\n" * 5), name="t", max_total=15))
    with pytest.raises(InvalidInput, match="nested too deeply"):
        list(read_json_lines(io.StringIO('{"a":' * 100_000 + "1" + "}" * 100_000), name="t"))


def test_export_import_between_databases_keeps_ids(store: Store, tmp_path: Path) -> None:
    from conftest import drop_store, make_store

    src = seed(store, A)
    exported = [json.loads(json.dumps(r)) for r in src.export()]
    other = make_store("sqlite", tmp_path / "other", HashEmbedder())
    try:
        dst = Memory(other, scope=A)
        assert dst.import_(exported).renumbered == 0
        assert [r for r in dst.export() if r["type"] != "header"] == [
            r for r in exported if r["type"] != "header"
        ]
    finally:
        drop_store(other)


def test_rejection_rows_imported_are_bounded_even_from_a_store(store: Store) -> None:
    """A rejection stored whole before the limit (a row of any size) is exported as it is
    and bounded when imported."""
    store.add_rejection(
        Rejection(B, "I might " + "y" * 100_000, "hedged", "hedged", created_at=1_700_000_000.0)
    )
    exported = list(Memory(store, scope=B).export())
    mem = Memory(store, scope=A)
    assert mem.import_(exported, into=A).rejections == 1
    assert len(mem.rejections()[0].text) <= MAX_REJECTION_CHARS


def test_a_lone_surrogate_is_a_clear_error_and_nothing_is_written(store: Store) -> None:
    """Text no database can hold as UTF-8 (a lone surrogate, as a broken JSON decoder or a
    hostile file gives) stops the import before anything is written, on every backend
    (PostgreSQL failed with UnicodeEncodeError mid-import)."""
    mem = Memory(store, scope=A)
    records = [fact_record("Arttu lives in Oslo"), fact_record("Arttu likes \ud800 tea")]
    with pytest.raises(InvalidInput, match="not UTF-8"):
        mem.import_(records)
    assert mem.list() == []
