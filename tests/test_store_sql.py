"""The SQL the stores share (credo.store.sql), read without a database: each builder's
statement in both dialects, and its parameters."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from credo.fact import Fact, Status
from credo.store import sql
from credo.store.base import IngestOutcome, Rejection, Rule, StoreError
from credo.store.sql import POSTGRES, SQLITE, Dialect

DIALECTS = [SQLITE, POSTGRES]
FACT = Fact(
    id="f_1",
    text="Ann lives in Oslo",
    subject="ann",
    predicate="live_in",
    object="Oslo",
    scope="s",
    derived_from=["ep1", "t2"],
    created_at=10.0,
    valid_from=9.0,
    access_count=2,
)

#: every builder, with arguments (a list of two ids where it takes a chunk)
BUILDERS: dict[str, Callable[[Dialect], sql.Query]] = {
    "insert_fact": lambda d: sql.insert_fact(d, FACT),
    "fact_key_of": lambda d: sql.fact_key_of(d, "f_1"),
    "update_fact": lambda d: sql.update_fact(d, FACT),
    "delete_provenance": lambda d: sql.delete_provenance(d, "f_1"),
    "facts_by_id": lambda d: sql.facts_by_id(d, "id, subject", "s", ["a", "b"]),
    "fact_ids_elsewhere": lambda d: sql.fact_ids_elsewhere(d, "s", ["a", "b"]),
    "all_facts": lambda d: sql.all_facts(d, "s", status=Status.ACTIVE, subject="ann", limit=5),
    "count_facts": lambda d: sql.count_facts(d, "s", Status.ACTIVE),
    "scopes": lambda d: sql.scopes(d),
    "by_key": lambda d: sql.by_key(d, "s", "ann", "live_in"),
    "by_subject": lambda d: sql.by_subject(d, "s", "ann", live_only=True, limit=3),
    "known_subjects": lambda d: sql.known_subjects(d, "s", ["ann", "bob"]),
    "events": lambda d: sql.events(d, "s", ["a", "b"]),
    "insert_lineage": lambda d: sql.insert_lineage(d, "s", "a", "b", "derived", 1.0),
    "lineage": lambda d: sql.lineage(d, "s", "a"),
    "count_in_scope": lambda d: sql.count_in_scope(d, "s", "a", "b"),
    "insert_conflict": lambda d: sql.insert_conflict(d, "s", "a", "b", "why", 1.0),
    "conflicts": lambda d: sql.conflicts(d, "s", include_resolved=False),
    "conflict_partners": lambda d: sql.conflict_partners(d, "s", "a"),
    "settle_conflict": lambda d: sql.settle_conflict(d, "s", "a", "b", "kept a", "me", 2.0),
    "aliases": lambda d: sql.aliases(d, "s"),
    "set_alias": lambda d: sql.set_alias(d, "s", "al", "ann", 1.0),
    "remove_alias": lambda d: sql.remove_alias(d, "s", "al"),
    "insert_rejection": lambda d: sql.insert_rejection(d, Rejection("s", "t", "c", "r"), 1.0),
    "rejections": lambda d: sql.rejections(d, "s", 10),
    "prune_rejections": lambda d: sql.prune_rejections(d, "s", 10),
    "drop_rejections_from": lambda d: sql.drop_rejections_from(d, "s", ["t1", "t2"]),
    "rule_owner": lambda d: sql.rule_owner(d, "r_1"),
    "upsert_rule": lambda d: sql.upsert_rule(d, Rule("r_1", "s", "address", None, 1.0)),
    "rules": lambda d: sql.rules(d, "s"),
    "remove_rule": lambda d: sql.remove_rule(d, "s", "r_1"),
    "ingest_outcomes": lambda d: sql.ingest_outcomes(d, "s", ["k1", "k2"]),
    "upsert_ingest_outcome": lambda d: sql.upsert_ingest_outcome(
        d, IngestOutcome("s", "k", "done", refs=("t1",)), 1.0
    ),
    "fact_ids_in": lambda d: sql.fact_ids_in(d, "s", ["a", "b"]),
    "alias_names": lambda d: sql.alias_names(d, "s", "ann"),
    "facts_maybe_naming": lambda d: sql.facts_maybe_naming(d, "s", ["ann", "anna smith"]),
    "facts_of_episode": lambda d: sql.facts_of_episode(d, "s", "ep1"),
    "facts_of_scope": lambda d: sql.facts_of_scope(d, "s"),
    "derived_children": lambda d: sql.derived_children(d, "s", ["a", "b"]),
    "texts_of": lambda d: sql.texts_of(d, ["a", "b"]),
    "partners_of": lambda d: sql.partners_of(d, ["a", "b"]),
    "delete_linked": lambda d: sql.delete_linked(
        d, "lineage", ("parent_id", "child_id"), ["a", "b"]
    ),
    "reopen": lambda d: sql.reopen(d, "a"),
    "derived_from_refs": lambda d: sql.derived_from_refs(d, "s", ["a", "b"]),
    "set_derived_from": lambda d: sql.set_derived_from(d, "a", ["ep1"]),
    "delete_refs": lambda d: sql.delete_refs(d, "s", ["a", "b"]),
    "unsupersede": lambda d: sql.unsupersede(d, "s", ["a", "b"]),
    "forget_other": lambda d: sql.forget_other(d, "s", ["a", "b"], {"note": "gone"}),
    "settled_resolutions": lambda d: sql.settled_resolutions(d, "s"),
    "set_resolution": lambda d: sql.set_resolution(d, 3, "kept a"),
    "rejections_of_scope": lambda d: sql.rejections_of_scope(d, "s"),
    "delete_where": lambda d: sql.delete_where(
        d, "rejections", "s", d.holds("derived_from"), "ep1"
    ),
}


def _placeholders(d: Dialect, statement: str) -> int:
    return statement.count(d.mark) - (statement.count("%%") if d is POSTGRES else 0)


@pytest.mark.parametrize("d", DIALECTS, ids=lambda d: d.name)
@pytest.mark.parametrize("name", BUILDERS)
def test_every_builder_has_one_parameter_for_each_placeholder(d: Dialect, name: str) -> None:
    statement, params = BUILDERS[name](d)
    assert isinstance(params, tuple)
    assert _placeholders(d, statement) == len(params)
    other = POSTGRES if d is SQLITE else SQLITE
    assert other.mark not in statement  # never the other dialect's placeholder


@pytest.mark.parametrize("name", BUILDERS)
def test_both_dialects_build_the_same_statement_but_for_what_differs(name: str) -> None:
    """Set aside the placeholders, the row-order column, the index hints and the list
    and array spellings, and the two statements are one."""
    lite, _ = BUILDERS[name](SQLITE)
    pg, _ = BUILDERS[name](POSTGRES)
    assert lite.split()[0] == pg.split()[0]  # SELECT, INSERT, UPDATE or DELETE alike
    for table in ("facts", "lineage", "conflicts", "rejections", "rules", "aliases"):
        assert (f" {table} " in f" {lite} ") == (f" {table} " in f" {pg} "), table


def test_the_dialects_spell_placeholders_order_and_limits() -> None:
    assert SQLITE.marks(3) == "?, ?, ?" and POSTGRES.marks(2) == "%s, %s"
    assert SQLITE.pin("scope") == "+scope" and POSTGRES.pin("scope") == "scope"
    assert SQLITE.pin_text("scope") == "+scope"
    assert POSTGRES.pin_text("scope") == "(scope || '')"
    assert SQLITE.limit(None) == -1 and POSTGRES.limit(None) is None
    assert SQLITE.limit(-5) == -1 and POSTGRES.limit(-5) is None
    assert SQLITE.limit(2**70) == POSTGRES.limit(2**70) == 2**63 - 1


def test_a_list_is_spelled_out_in_sqlite_and_one_array_in_postgres() -> None:
    assert SQLITE.one_of("id", ["a", "b"]) == ("id IN (?, ?)", ("a", "b"))
    assert POSTGRES.one_of("id", ["a", "b"]) == ("id = ANY(%s)", (["a", "b"],))
    ids = [f"f_{i}" for i in range(1201)]
    assert [len(c) for c in SQLITE.chunks(ids)] == [500, 500, 201]
    assert [len(c) for c in POSTGRES.chunks(ids)] == [1201]
    assert list(SQLITE.chunks([])) == list(POSTGRES.chunks([])) == []


def test_insert_or_ignore_and_upsert() -> None:
    assert SQLITE.insert("t", "a, b", ignore=True) == "INSERT OR IGNORE INTO t (a, b) VALUES (?, ?)"
    assert POSTGRES.insert("t", "a, b", ignore=True) == (
        "INSERT INTO t (a, b) VALUES (%s, %s) ON CONFLICT DO NOTHING"
    )
    assert SQLITE.upsert("t", "k, a, b", "k") == (
        "INSERT INTO t (k, a, b) VALUES (?, ?, ?) "
        "ON CONFLICT (k) DO UPDATE SET a = excluded.a, b = excluded.b"
    )
    statement, _ = sql.set_alias(POSTGRES, "s", "al", "ann", 1.0)
    assert statement.endswith(
        "ON CONFLICT (scope, alias) DO UPDATE SET canonical = excluded.canonical"
    )  # an alias keeps when it was first set
    assert "ON CONFLICT (id)" in sql.upsert_rule(SQLITE, Rule("r", "s", "p", None, 1.0))[0]
    assert "ON CONFLICT (scope, id)" in sql.upsert_rule(POSTGRES, Rule("r", "s", "p", None, 1.0))[0]


def test_list_columns_are_json_in_sqlite_and_arrays_in_postgres() -> None:
    assert SQLITE.holds("refs") == "EXISTS (SELECT 1 FROM json_each(refs) WHERE value = ?)"
    assert POSTGRES.holds("refs") == "%s = ANY(refs)"
    assert POSTGRES.meets("refs", ["a"]) == ("refs && %s::text[]", (["a"],))
    assert SQLITE.meets("refs", ["a"]) == (
        "EXISTS (SELECT 1 FROM json_each(refs) WHERE value IN (?))",
        ("a",),
    )
    _, lite = sql.known_subjects(SQLITE, "s", ["ann", "bob"])
    _, pg = sql.known_subjects(POSTGRES, "s", ["ann", "bob"])
    assert lite == ('["ann", "bob"]', "s") and pg == (["ann", "bob"], "s")


@pytest.mark.parametrize("d", DIALECTS, ids=lambda d: d.name)
def test_a_fact_round_trips_through_its_row(d: Dialect) -> None:
    values = sql.fact_values(d, FACT)
    assert len(values) == len(sql.FACT_COLUMNS.split(", "))
    if d is SQLITE:
        assert json.loads(values[9]) == ["ep1", "t2"]
    else:
        assert values[9] == ["ep1", "t2"]
    assert sql.fact_from_row(d, values) == FACT
    statement, params = sql.update_fact(d, FACT)
    assert statement.startswith("UPDATE facts SET source = ")
    assert "text" not in statement.split("WHERE")[0]  # text and key are never updated
    assert params[-1] == "f_1" and params[:-1] == values[6:]


@pytest.mark.parametrize("d", DIALECTS, ids=lambda d: d.name)
def test_all_orders_by_time_then_as_stored_in_both(d: Dialect) -> None:
    statement, params = sql.all_facts(d, "s", limit=None, offset=-3)
    assert statement.endswith(f"ORDER BY created_at, {d.order} LIMIT {d.mark} OFFSET {d.mark}")
    assert params == ("s", d.no_limit, 0)
    statement, params = sql.all_facts(d, "s", status=Status.SUPERSEDED, subject="ann", limit=2)
    assert params == ("s", "superseded", "ann", 2, 0)


def test_the_latest_valid_first_and_live_only() -> None:
    lite, _ = sql.by_subject(SQLITE, "s", "ann", live_only=True, limit=5)
    pg, _ = sql.by_subject(POSTGRES, "s", "ann", live_only=False, limit=5)
    assert "+status IN ('active', 'conflicted')" in lite
    assert "status" not in pg.split("WHERE")[1]
    assert lite.endswith("ORDER BY valid_from DESC NULLS LAST, rowid DESC LIMIT ?")
    assert pg.endswith("ORDER BY valid_from DESC NULLS LAST, seq DESC LIMIT %s")


def test_byte_order_for_text_in_both() -> None:
    assert sql.aliases(SQLITE, "s")[0].endswith("ORDER BY alias")
    assert sql.aliases(POSTGRES, "s")[0].endswith('ORDER BY alias COLLATE "C"')
    assert sql.scopes(POSTGRES)[0].endswith('ORDER BY scope COLLATE "C"')


def test_facts_naming_a_subject_are_prefiltered_only_where_case_folding_is_unicode() -> None:
    lite, params = sql.facts_maybe_naming(SQLITE, "s", ["ann"])
    assert params == ("s",) and "LIKE" not in lite
    pg, params = sql.facts_maybe_naming(POSTGRES, "s", ["ann", "100%_a\\b smith"])
    assert "ILIKE ANY" in pg
    assert params[2] == ["%ann%", "%100\\%\\_a\\\\b%"]  # the longest word, escaped


def test_events_and_lineage_keep_to_their_facts_scope() -> None:
    statement, params = sql.insert_lineage(SQLITE, "s", "a", "b", "derived", 1.0)
    assert statement.startswith("INSERT OR IGNORE INTO lineage")
    assert params == ("s", "a", "b", "derived", 1.0, "s", "a", "b")
    assert sql.insert_lineage(POSTGRES, "s", "a", "b", "derived", 1.0)[0].endswith(
        "ON CONFLICT DO NOTHING"
    )
    assert "AND +scope = ?" in sql.insert_event(SQLITE)
    assert "AND (scope || '') = %s" in sql.insert_event(POSTGRES)


def test_nul_is_refused_with_one_error_and_kept_in_refusals() -> None:
    sql.no_nul("alias", "ann", None)
    with pytest.raises(StoreError, match="^alias: a NUL character cannot be stored in text$"):
        sql.no_nul("alias", "an\x00n")
    with pytest.raises(StoreError, match="fact 'f_1'"):
        sql.check_fact_text(FACT.evolve(derived_from=["t\x00"]))
    assert sql.nul(None, "a", "b\x00") and not sql.nul(None, "a")
    _, params = sql.insert_rejection(
        POSTGRES, Rejection("s", "pin\x00", "c", "r", derived_from=("t\x00",)), 1.0
    )
    assert params[1] == "pin\ufffd" and params[6] == ["t\ufffd"]


def test_forgotten_ids_are_scrubbed_from_resolution_text() -> None:
    assert sql.scrub_ids("f_1 superseded by f_2, f_3", {"f_2"}) == (
        "f_1 superseded by (forgotten), f_3"
    )


def test_a_forget_deletes_by_every_linking_column() -> None:
    statement, params = sql.delete_linked(SQLITE, "conflicts", ("fact_a", "fact_b"), ["x"])
    assert statement == "DELETE FROM conflicts WHERE fact_a IN (?) OR fact_b IN (?)"
    assert params == ("x", "x")
    statement, params = sql.delete_linked(POSTGRES, "conflicts", ("fact_a", "fact_b"), ["x"])
    assert statement == "DELETE FROM conflicts WHERE fact_a = ANY(%s) OR fact_b = ANY(%s)"
    assert params == (["x"], ["x"])
