"""The SQL both stores share, written once: a `Dialect` (what truly differs between SQLite
and PostgreSQL in the statements credo runs) and builders, functions that return a
statement and its parameters, ``(sql, params)``, for the common queries.

Nothing here touches a database: a builder can be read, and tested, on its own
(tests/test_store_sql.py); `SQLStore` (store/sqlstore.py) runs them. What a backend keeps
for itself (connections, locks, search, erase, schema and migrations) stays in its module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..fact import Fact, Status
from .base import IngestOutcome, Rejection, Rule, StoreError, sql_count

#: a statement and its parameters
Query = tuple[str, tuple[Any, ...]]

FACT_COLUMNS = (
    "id, scope, text, subject, predicate, object, source, confidence, status, derived_from, "
    "superseded_by, created_at, valid_from, valid_to, access_count, last_seen_at"
)
#: the statuses of a fact still held (as SQL)
LIVE = "('active', 'conflicted')"
REJECTION_COLUMNS = "id, scope, text, code, reason, source, subject, derived_from, created_at"
RULE_COLUMNS = "id, scope, pattern, subject, created_at, origin"
EVENT_COLUMNS = "scope, fact_id, at, kind, other_id, decided_by, confidence, detail, id"
CONFLICT_COLUMNS = "fact_a, fact_b, reason, created_at, resolved_at, resolution, decided_by"
INGEST_COLUMNS = "key, status, reason, refs, accepted, rejected, updated_at"


def _jsonb(value: dict[str, Any]) -> Any:
    from psycopg.types.json import Jsonb  # only a PostgreSQL store needs psycopg

    return Jsonb(value)


@dataclass(frozen=True)
class Dialect:
    """How one database spells what the two spell differently."""

    name: str
    #: a parameter's placeholder
    mark: str
    #: the column holding each row's order of insertion (facts, lineage, conflicts)
    order: str
    #: the LIMIT that means "no limit"
    no_limit: int | None
    #: how many values one `IN (...)` list holds at most; None: a list is one array
    #: parameter (`= ANY(...)`), whatever its length
    chunk: int | None
    #: whether a rule's id is unique across scopes (SQLite) or only within one
    rules_keyed_by_id: bool
    #: appended to a SELECT that reads a row it may then update
    for_update: str
    #: a list column (derived_from, refs): to and from its stored form
    dump_list: Callable[[Sequence[str]], Any]
    load_list: Callable[[Any], list[str]]
    #: a JSON object column (an event's detail): to and from its stored form
    dump_obj: Callable[[dict[str, Any]], Any]
    load_obj: Callable[[Any], dict[str, Any]]
    #: a list parameter read as rows: the FROM item (one placeholder) and its value
    each: tuple[str, str]
    #: whether an unary plus before a column keeps the planner off its index
    plus_hint: bool
    #: after ORDER BY a text column: byte order (SQLite's BINARY, PostgreSQL's "C")
    binary: str

    def marks(self, count: int) -> str:
        """`count` placeholders, comma-separated."""
        return ", ".join([self.mark] * count)

    def pin(self, column: str) -> str:
        """`column` in a filter that must not choose its index (SQLite: `+column`: a
        lookup by id would otherwise scan a scope's index)."""
        return f"+{column}" if self.plus_hint else column

    def pin_text(self, column: str) -> str:
        """A text column in a filter beside a lookup by primary key, kept off its index
        (SQLite: `+column`; PostgreSQL: `(column || '')`). On PostgreSQL a prepared
        statement's generic plan knows no scope, guesses an average one's few rows, and
        ANDs the scope's whole btree into the id lookup: 110,000 entries read for each
        `get_many` in a tenant of 105k facts, 22 against 0.3 ms (docs/benchmarks.md,
        "PostgreSQL at 1M and 10,000 tenants")."""
        return f"+{column}" if self.plus_hint else f"({column} || '')"

    def limit(self, count: int | None) -> int | None:
        """A LIMIT's parameter: None or negative is no limit, a huge one all."""
        return self.no_limit if count is None or count < 0 else sql_count(count)

    def one_of(self, column: str, values: Sequence[Any]) -> Query:
        """`column` is one of `values` (at most `chunk` of them where lists are spelled
        out: see `chunks`)."""
        if self.chunk is None:
            return f"{column} = ANY({self.mark})", (list(values),)
        return f"{column} IN ({self.marks(len(values))})", tuple(values)

    def chunks(self, values: Sequence[Any]) -> Iterator[list[Any]]:
        """`values` in pieces `one_of` takes (all at once where a list is one parameter;
        nothing for no values)."""
        items = list(values)
        size = self.chunk or max(len(items), 1)
        for start in range(0, len(items), size):
            yield items[start : start + size]

    def holds(self, column: str) -> str:
        """The list column holds the (one) parameter."""
        if self.chunk is None:
            return f"{self.mark} = ANY({column})"
        return f"EXISTS (SELECT 1 FROM json_each({column}) WHERE value = {self.mark})"

    def meets(self, column: str, values: Sequence[str]) -> Query:
        """The list column holds one of `values` (a chunk of them)."""
        if self.chunk is None:
            return f"{column} && {self.mark}::text[]", (list(values),)
        inside, params = self.one_of("value", values)
        return f"EXISTS (SELECT 1 FROM json_each({column}) WHERE {inside})", params

    def insert(self, table: str, columns: str, *, ignore: bool = False, select: str = "") -> str:
        """INSERT of one row: its values, or `select` (a SELECT giving them); with
        `ignore`, a row that would break a unique key is skipped."""
        source = select or f"VALUES ({self.marks(len(columns.split(',')))})"
        if not ignore:
            return f"INSERT INTO {table} ({columns}) {source}"
        if self.chunk is None:
            return f"INSERT INTO {table} ({columns}) {source} ON CONFLICT DO NOTHING"
        return f"INSERT OR IGNORE INTO {table} ({columns}) {source}"

    def upsert(self, table: str, columns: str, key: str, update: str | None = None) -> str:
        """INSERT of one row, or where a row with its `key` exists, an update of the
        `update` columns (by default all but the key) to the new values."""
        keys = {k.strip() for k in key.split(",")}
        names = [c.strip() for c in (update or columns).split(",")]
        sets = ", ".join(f"{c} = excluded.{c}" for c in names if c not in keys)
        return f"{self.insert(table, columns)} ON CONFLICT ({key}) DO UPDATE SET {sets}"


SQLITE = Dialect(
    name="sqlite",
    mark="?",
    order="rowid",
    no_limit=-1,
    chunk=500,
    rules_keyed_by_id=True,
    for_update="",
    dump_list=lambda values: json.dumps([str(v) for v in values]),
    load_list=lambda value: list(json.loads(value)),
    dump_obj=lambda value: json.dumps(value, ensure_ascii=False),
    load_obj=lambda value: dict(json.loads(value)),
    each=("json_each(?) n", "n.value"),
    plus_hint=True,
    binary="",
)

POSTGRES = Dialect(
    name="postgres",
    mark="%s",
    order="seq",
    no_limit=None,
    chunk=None,
    rules_keyed_by_id=False,
    for_update=" FOR UPDATE",
    dump_list=lambda values: [str(v) for v in values],
    load_list=lambda value: [str(v) for v in value or ()],
    dump_obj=_jsonb,
    load_obj=lambda value: dict(value),
    each=("unnest(%s::text[]) AS n", "n"),
    plus_hint=False,
    binary=' COLLATE "C"',
)


def each_param(d: Dialect, values: Sequence[str]) -> Any:
    """The parameter of `Dialect.each`: a list of values."""
    return json.dumps(list(values)) if d.chunk is not None else list(values)


# -- text ---------------------------------------------------------------------------------
# Neither store keeps a NUL character in text (PostgreSQL's text cannot hold one), so a
# lookup by a value with NUL finds nothing, and a write of one is refused, the same in both.
def nul(*values: str | None) -> bool:
    """Whether any of `values` holds a NUL character."""
    return any(value is not None and "\x00" in value for value in values)


def no_nul(what: str, *values: str | None) -> None:
    """Refuse a write of text holding NUL, with the one error both stores raise."""
    if nul(*values):
        raise StoreError(f"{what}: a NUL character cannot be stored in text")


def check_fact_text(fact: Fact) -> None:
    no_nul(
        f"fact {fact.id!r}",
        fact.id,
        fact.text,
        fact.subject,
        fact.predicate,
        fact.object,
        fact.source,
        fact.superseded_by,
        *fact.derived_from,
    )


def kept(value: str) -> str:
    """Refused user text as a rejection records it: any text may be refused, so a NUL
    becomes U+FFFD rather than losing the record."""
    return value.replace("\x00", "\ufffd")


# -- facts --------------------------------------------------------------------------------
def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def fact_values(d: Dialect, fact: Fact) -> tuple[Any, ...]:
    """A fact as the values of FACT_COLUMNS, in order (the mutable ones from index 6)."""
    return (
        fact.id,
        fact.scope,
        fact.text,
        fact.subject,
        fact.predicate,
        fact.object,
        fact.source,
        float(fact.confidence),
        Status(fact.status).value,
        d.dump_list(fact.derived_from),
        fact.superseded_by,
        float(fact.created_at),
        _opt_float(fact.valid_from),
        _opt_float(fact.valid_to),
        int(fact.access_count),
        _opt_float(fact.last_seen_at),
    )


def fact_from_row(d: Dialect, row: Sequence[Any]) -> Fact:
    """A fact from the values of FACT_COLUMNS."""
    return Fact(
        id=row[0],
        scope=row[1],
        text=row[2],
        subject=row[3],
        predicate=row[4],
        object=row[5],
        source=row[6],
        confidence=row[7],
        status=Status(row[8]),
        derived_from=d.load_list(row[9]),
        superseded_by=row[10],
        created_at=row[11],
        valid_from=row[12],
        valid_to=row[13],
        access_count=row[14],
        last_seen_at=row[15],
    )


def insert_fact(d: Dialect, fact: Fact) -> Query:
    return d.insert("facts", FACT_COLUMNS), fact_values(d, fact)


def fact_key_of(d: Dialect, fact_id: str) -> Query:
    """A stored fact's scope, text and key (to refuse overwriting them), locked where
    rows can be."""
    return (
        "SELECT scope, text, subject, predicate, object FROM facts "
        f"WHERE id = {d.mark}{d.for_update}",
        (fact_id,),
    )


def update_fact(d: Dialect, fact: Fact) -> Query:
    """The mutable fields of a stored fact (never its text or key)."""
    columns = FACT_COLUMNS.split(", ")[6:]
    sets = ", ".join(f"{c} = {d.mark}" for c in columns)
    return f"UPDATE facts SET {sets} WHERE id = {d.mark}", (*fact_values(d, fact)[6:], fact.id)


def delete_provenance(d: Dialect, fact_id: str) -> Query:
    return f"DELETE FROM provenance WHERE fact_id = {d.mark}", (fact_id,)


def provenance_rows(fact: Fact) -> list[tuple[str, str, str]]:
    """The provenance rows of a fact, for `insert_provenance`."""
    return [(fact.id, fact.scope, str(ref)) for ref in dict.fromkeys(fact.derived_from)]


def insert_provenance(d: Dialect) -> str:
    """One provenance row (run once per row of `provenance_rows`)."""
    return d.insert("provenance", "fact_id, scope, ref", ignore=True)


def facts_by_id(d: Dialect, columns: str, scope: str, ids: Sequence[str]) -> Query:
    """`columns` of the facts of `scope` with these ids (a chunk), in any order."""
    inside, params = d.one_of("id", ids)
    return f"SELECT {columns} FROM facts WHERE {d.pin_text('scope')} = {d.mark} AND {inside}", (
        scope,
        *params,
    )


def fact_ids_elsewhere(d: Dialect, scope: str, ids: Sequence[str]) -> Query:
    """The ids among `ids` (a chunk) that facts of other scopes than `scope` hold."""
    inside, params = d.one_of("id", ids)
    return f"SELECT id FROM facts WHERE {inside} AND scope <> {d.mark}", (*params, scope)


def all_facts(
    d: Dialect,
    scope: str,
    *,
    status: Status | None = None,
    subject: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> Query:
    """A scope's facts, oldest first (by `created_at`, then as stored): a negative
    limit is no limit, a negative offset none."""
    sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE scope = {d.mark}"
    params: list[Any] = [scope]
    if status is not None:
        sql += f" AND status = {d.mark}"
        params.append(Status(status).value)
    if subject is not None:
        sql += f" AND subject = {d.mark}"
        params.append(subject)
    sql += f" ORDER BY created_at, {d.order} LIMIT {d.mark} OFFSET {d.mark}"
    return sql, (*params, d.limit(limit), sql_count(offset))


def count_facts(d: Dialect, scope: str, status: Status | None = None) -> Query:
    if status is None:
        return f"SELECT count(*) FROM facts WHERE scope = {d.mark}", (scope,)
    return (
        f"SELECT count(*) FROM facts WHERE scope = {d.mark} AND status = {d.mark}",
        (scope, Status(status).value),
    )


def scopes(d: Dialect) -> Query:
    """Every scope that holds anything, in byte order (the same in both)."""
    return (
        "SELECT scope FROM (SELECT scope FROM facts UNION SELECT scope FROM aliases "
        "UNION SELECT scope FROM rules UNION SELECT scope FROM rejections) s "
        f"ORDER BY scope{d.binary}",
        (),
    )


def by_key(d: Dialect, scope: str, subject: str, predicate: str) -> Query:
    return (
        f"SELECT {FACT_COLUMNS} FROM facts WHERE scope = {d.mark} AND subject = {d.mark} "
        f"AND predicate = {d.mark} ORDER BY {d.pin('created_at')}, {d.order}",
        (scope, subject, predicate),
    )


def by_subject(d: Dialect, scope: str, subject: str, *, live_only: bool, limit: int) -> Query:
    """A subject's facts, the latest valid first."""
    sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE scope = {d.mark} AND subject = {d.mark}"
    if live_only:
        sql += f" AND {d.pin('status')} IN {LIVE}"
    sql += f" ORDER BY valid_from DESC NULLS LAST, {d.order} DESC LIMIT {d.mark}"
    return sql, (scope, subject, d.limit(limit))


def known_subjects(d: Dialect, scope: str, names: Sequence[str]) -> Query:
    """Which of `names` (a chunk) are subjects of live facts: one indexed probe per name
    that stops at its first live fact (a DISTINCT over the names' rows would read every
    fact of a subject with thousands)."""
    source, value = d.each
    return (
        f"SELECT {value} FROM {source} WHERE EXISTS (SELECT 1 FROM facts WHERE "
        f"scope = {d.mark} AND subject = {value} AND {d.pin('status')} IN {LIVE})",
        (each_param(d, names), scope),
    )


# -- the decision log ---------------------------------------------------------------------
def insert_event(d: Dialect) -> str:
    """One event, dropped unless its fact is in its scope (as lineage is): parameters
    from `event_values`."""
    return d.insert(
        "fact_events",
        "scope, fact_id, at, kind, other_id, decided_by, confidence, detail",
        select=f"SELECT {d.marks(8)} WHERE EXISTS "
        f"(SELECT 1 FROM facts WHERE id = {d.mark} AND {d.pin_text('scope')} = {d.mark})",
    )


def events(d: Dialect, scope: str, fact_ids: Sequence[str] | None = None) -> Query:
    """The log of a scope, or of some facts (a chunk) as subject or as `other`."""
    sql = f"SELECT {EVENT_COLUMNS} FROM fact_events WHERE scope = {d.mark}"
    if fact_ids is None:
        return sql + " ORDER BY id", (scope,)
    mine, ids = d.one_of("fact_id", fact_ids)
    other, _ = d.one_of("other_id", fact_ids)
    return f"{sql} AND ({mine} OR {other}) ORDER BY id", (scope, *ids, *ids)


# -- lineage and conflicts ----------------------------------------------------------------
def insert_lineage(
    d: Dialect, scope: str, parent: str, child: str, kind: str, created_at: float
) -> Query:
    """A link between two facts of the scope (none unless both are in it)."""
    sql = d.insert(
        "lineage",
        "scope, parent_id, child_id, kind, created_at",
        ignore=True,
        select=f"SELECT {d.marks(5)} WHERE (SELECT count(*) FROM facts WHERE "
        f"{d.pin_text('scope')} = {d.mark} AND id IN ({d.marks(2)})) = 2",
    )
    return sql, (scope, parent, child, kind, created_at, scope, parent, child)


def lineage(d: Dialect, scope: str, fact_id: str | None = None) -> Query:
    sql = f"SELECT parent_id, child_id, kind FROM lineage WHERE scope = {d.mark}"
    order = f" ORDER BY created_at, {d.order}"
    if fact_id is None:
        return sql + order, (scope,)
    return (
        f"{sql} AND (parent_id = {d.mark} OR child_id = {d.mark}){order}",
        (scope, fact_id, fact_id),
    )


def count_in_scope(d: Dialect, scope: str, a: str, b: str) -> Query:
    """How many of two facts are in the scope."""
    return (
        f"SELECT count(*) FROM facts WHERE {d.pin_text('scope')} = {d.mark} "
        f"AND id IN ({d.marks(2)})",
        (scope, a, b),
    )


def insert_conflict(d: Dialect, scope: str, a: str, b: str, reason: str, at: float) -> Query:
    sql = d.insert("conflicts", "scope, fact_a, fact_b, reason, created_at", ignore=True)
    return sql, (scope, a, b, reason, at)


def conflicts(d: Dialect, scope: str, *, include_resolved: bool) -> Query:
    sql = f"SELECT {CONFLICT_COLUMNS} FROM conflicts WHERE scope = {d.mark}"
    if not include_resolved:
        sql += " AND resolved_at IS NULL"
    return f"{sql} ORDER BY created_at, {d.order}", (scope,)


def conflict_partners(d: Dialect, scope: str, fact_id: str) -> Query:
    """The other ends of a fact's unresolved conflicts. Found by the fact's id (the
    primary key, `conflicts_b`), the scope kept off its index: SQLite otherwise reads
    every open conflict of the scope for each fact, 0.37 ms a call at 3,500 of them."""
    scope_is = f"{d.pin_text('scope')} = {d.mark}"
    return (
        f"SELECT fact_b FROM conflicts WHERE {scope_is} AND fact_a = {d.mark} "
        f"AND resolved_at IS NULL UNION SELECT fact_a FROM conflicts WHERE {scope_is} "
        f"AND fact_b = {d.mark} AND resolved_at IS NULL",
        (scope, fact_id, scope, fact_id),
    )


def settle_conflict(
    d: Dialect, scope: str, a: str, b: str, resolution: str, decided_by: str, at: float
) -> Query:
    """Settle the conflict between two facts, whichever way round it was recorded."""
    return (
        f"UPDATE conflicts SET resolved_at = {d.mark}, resolution = {d.mark}, "
        f"decided_by = {d.mark} WHERE scope = {d.mark} AND ((fact_a = {d.mark} AND "
        f"fact_b = {d.mark}) OR (fact_a = {d.mark} AND fact_b = {d.mark}))",
        (at, resolution, decided_by, scope, a, b, b, a),
    )


# -- aliases, rejections, rules -----------------------------------------------------------
def aliases(d: Dialect, scope: str) -> Query:
    return (
        f"SELECT alias, canonical FROM aliases WHERE scope = {d.mark} ORDER BY alias{d.binary}",
        (scope,),
    )


def set_alias(d: Dialect, scope: str, alias: str, canonical: str, at: float) -> Query:
    # an alias keeps the time it was first set
    sql = d.upsert("aliases", "scope, alias, canonical, created_at", "scope, alias", "canonical")
    return sql, (scope, alias, canonical, at)


def remove_alias(d: Dialect, scope: str, alias: str) -> Query:
    return f"DELETE FROM aliases WHERE scope = {d.mark} AND alias = {d.mark}", (scope, alias)


def insert_rejection(d: Dialect, rejection: Rejection, at: float) -> Query:
    """A refusal as recorded (NUL in its text kept as U+FFFD, see `kept`)."""
    sql = d.insert(
        "rejections", "scope, text, code, reason, source, subject, derived_from, created_at"
    )
    return sql, (
        rejection.scope,
        kept(rejection.text),
        kept(rejection.code),
        kept(rejection.reason),
        kept(rejection.source),
        None if rejection.subject is None else kept(rejection.subject),
        d.dump_list([kept(str(r)) for r in rejection.derived_from]),
        at,
    )


def rejections(d: Dialect, scope: str, limit: int) -> Query:
    return (
        f"SELECT {REJECTION_COLUMNS} FROM rejections WHERE scope = {d.mark} "
        f"ORDER BY id DESC LIMIT {d.mark}",
        (scope, d.limit(limit)),
    )


def prune_rejections(d: Dialect, scope: str, keep: int) -> Query:
    """Delete all but the newest `keep` rejections of a scope."""
    return (
        f"DELETE FROM rejections WHERE scope = {d.mark} AND id NOT IN (SELECT id FROM "
        f"rejections WHERE scope = {d.mark} ORDER BY id DESC LIMIT {d.mark})",
        (scope, scope, sql_count(keep)),
    )


def drop_rejections_from(d: Dialect, scope: str, refs: Sequence[str]) -> Query:
    """Delete the rejections derived from any of `refs` (a chunk)."""
    meets, params = d.meets("rejections.derived_from", refs)
    return f"DELETE FROM rejections WHERE scope = {d.mark} AND {meets}", (scope, *params)


def rule_owner(d: Dialect, rule_id: str) -> Query:
    return f"SELECT scope FROM rules WHERE id = {d.mark}", (rule_id,)


def upsert_rule(d: Dialect, rule: Rule) -> Query:
    key = "id" if d.rules_keyed_by_id else "scope, id"
    return d.upsert("rules", RULE_COLUMNS, key), (
        rule.id,
        rule.scope,
        rule.pattern,
        rule.subject,
        rule.created_at,
        rule.origin,
    )


def rules(d: Dialect, scope: str) -> Query:
    return (
        f"SELECT {RULE_COLUMNS} FROM rules WHERE scope = {d.mark} ORDER BY created_at, "
        f"id{d.binary}",
        (scope,),
    )


def remove_rule(d: Dialect, scope: str, rule_id: str) -> Query:
    return f"DELETE FROM rules WHERE scope = {d.mark} AND id = {d.mark}", (scope, rule_id)


# -- ingest bookkeeping -------------------------------------------------------------------
def ingest_outcomes(d: Dialect, scope: str, keys: Sequence[str]) -> Query:
    inside, params = d.one_of("key", keys)
    return (
        f"SELECT {INGEST_COLUMNS} FROM ingest_episodes WHERE scope = {d.mark} AND {inside}",
        (scope, *params),
    )


def upsert_ingest_outcome(d: Dialect, outcome: IngestOutcome, at: float) -> Query:
    sql = d.upsert("ingest_episodes", f"scope, {INGEST_COLUMNS}", "scope, key")
    return sql, (
        outcome.scope,
        outcome.key,
        outcome.status,
        outcome.reason,
        d.dump_list(outcome.refs),
        outcome.accepted,
        outcome.rejected,
        at,
    )


# -- forgetting ---------------------------------------------------------------------------
#: a token of a conflict's resolution text ("f_1 superseded by f_2", "retracted f_1, f_2")
_TOKEN = re.compile(r"[^\s,]+")


def scrub_ids(text: str, gone: set[str]) -> str:
    """`text` with every token that is one of the `gone` ids replaced."""
    return _TOKEN.sub(lambda m: "(forgotten)" if m.group(0) in gone else m.group(0), text)


def fact_ids_in(d: Dialect, scope: str, ids: Sequence[str]) -> Query:
    """Which of `ids` (a chunk) are facts of the scope, with their order of insertion."""
    inside, params = d.one_of("id", ids)
    return (
        f"SELECT id, {d.order} FROM facts WHERE {d.pin_text('scope')} = {d.mark} AND {inside}",
        (scope, *params),
    )


def alias_names(d: Dialect, scope: str, canonical: str) -> Query:
    """The aliases of a subject."""
    return (
        f"SELECT alias FROM aliases WHERE scope = {d.mark} AND canonical = {d.mark}",
        (scope, canonical),
    )


def facts_maybe_naming(d: Dialect, scope: str, names: Sequence[str]) -> Query:
    """Id, subject, text and object of the facts that may name one of `names`, in order
    of insertion: for PostgreSQL those with a name as subject or a name's longest word in
    their text or object (ILIKE); for SQLite (whose LIKE folds only ASCII) every fact of
    the scope. The caller decides by the pattern (`names_a_subject`)."""
    columns = f"SELECT id, subject, text, object FROM facts WHERE scope = {d.mark}"
    if d.chunk is not None:
        return f"{columns} ORDER BY {d.order}", (scope,)
    likes = [
        "%" + re.sub(r"([\\%_])", r"\\\1", max(n.split() or [n], key=len)) + "%" for n in names
    ]
    return (
        f"{columns} AND (subject = ANY({d.mark}) OR text ILIKE ANY({d.mark}) "
        f"OR object ILIKE ANY({d.mark})) ORDER BY {d.order}",
        (scope, list(names), likes, likes),
    )


def facts_of_episode(d: Dialect, scope: str, episode: str) -> Query:
    """The facts derived from an episode (or turn, or fact), in order of insertion."""
    return (
        "SELECT p.fact_id FROM provenance p JOIN facts f ON f.id = p.fact_id "
        f"WHERE p.scope = {d.mark} AND p.ref = {d.mark} ORDER BY f.{d.order}",
        (scope, episode),
    )


def facts_of_scope(d: Dialect, scope: str) -> Query:
    return f"SELECT id FROM facts WHERE scope = {d.mark} ORDER BY {d.order}", (scope,)


def derived_children(d: Dialect, scope: str, parents: Sequence[str]) -> Query:
    """Facts derived (lineage 'derived') from `parents` (a chunk)."""
    inside, params = d.one_of("parent_id", parents)
    return (
        f"SELECT DISTINCT child_id FROM lineage WHERE scope = {d.mark} AND kind = 'derived' "
        f"AND {inside}",
        (scope, *params),
    )


def texts_of(d: Dialect, ids: Sequence[str]) -> Query:
    inside, params = d.one_of("id", ids)
    return f"SELECT text FROM facts WHERE {inside}", params


def partners_of(d: Dialect, ids: Sequence[str]) -> Query:
    """The other ends of every conflict of `ids` (a chunk), settled or not."""
    a, params = d.one_of("fact_a", ids)
    b, _ = d.one_of("fact_b", ids)
    return (
        f"SELECT fact_b FROM conflicts WHERE {a} UNION SELECT fact_a FROM conflicts "
        f"WHERE {b} ORDER BY 1",
        (*params, *params),
    )


def delete_linked(d: Dialect, table: str, columns: Sequence[str], ids: Sequence[str]) -> Query:
    """Delete the rows of `table` whose `columns` (any of them) name one of `ids`."""
    tests = [d.one_of(column, ids) for column in columns]
    where = " OR ".join(test for test, _ in tests)
    return f"DELETE FROM {table} WHERE {where}", tuple(p for _, ps in tests for p in ps)


def reopen(d: Dialect, fact_id: str) -> Query:
    """A conflicted fact left with no open conflict, back to active."""
    return (
        f"UPDATE facts SET status = 'active' WHERE id = {d.mark} AND status = 'conflicted' "
        "AND NOT EXISTS (SELECT 1 FROM conflicts WHERE "
        f"(fact_a = {d.mark} OR fact_b = {d.mark}) AND resolved_at IS NULL)",
        (fact_id, fact_id, fact_id),
    )


def derived_from_refs(d: Dialect, scope: str, refs: Sequence[str]) -> Query:
    """The facts derived from any of `refs` (a chunk), with their derived_from."""
    inside, params = d.one_of("p.ref", refs)
    return (
        "SELECT DISTINCT f.id, f.derived_from FROM provenance p JOIN facts f "
        f"ON f.id = p.fact_id WHERE p.scope = {d.mark} AND {inside}",
        (scope, *params),
    )


def set_derived_from(d: Dialect, fact_id: str, refs: Sequence[str]) -> Query:
    return f"UPDATE facts SET derived_from = {d.mark} WHERE id = {d.mark}", (
        d.dump_list(refs),
        fact_id,
    )


def delete_refs(d: Dialect, scope: str, refs: Sequence[str]) -> Query:
    """Provenance rows pointing at any of `refs` (a chunk)."""
    inside, params = d.one_of("ref", refs)
    return f"DELETE FROM provenance WHERE scope = {d.mark} AND {inside}", (scope, *params)


def unsupersede(d: Dialect, scope: str, ids: Sequence[str]) -> Query:
    """Facts superseded by any of `ids` (a chunk) name no successor."""
    inside, params = d.one_of("superseded_by", ids)
    return (
        f"UPDATE facts SET superseded_by = NULL WHERE scope = {d.mark} AND {inside}",
        (scope, *params),
    )


def forget_other(d: Dialect, scope: str, ids: Sequence[str], note: dict[str, Any]) -> Query:
    """Events naming any of `ids` (a chunk) as their other fact name none, and say so."""
    inside, params = d.one_of("other_id", ids)
    return (
        f"UPDATE fact_events SET other_id = NULL, detail = {d.mark} WHERE scope = {d.mark} "
        f"AND {inside}",
        (d.dump_obj(note), scope, *params),
    )


def settled_resolutions(d: Dialect, scope: str) -> Query:
    """Each settled conflict's row (its order column) and resolution text."""
    return (
        f"SELECT {d.order}, resolution FROM conflicts WHERE scope = {d.mark} "
        "AND resolution IS NOT NULL",
        (scope,),
    )


def set_resolution(d: Dialect, row: int, text: str) -> Query:
    return f"UPDATE conflicts SET resolution = {d.mark} WHERE {d.order} = {d.mark}", (text, row)


def rejections_of_scope(d: Dialect, scope: str) -> Query:
    return f"SELECT id, subject, text FROM rejections WHERE scope = {d.mark}", (scope,)


def delete_where(d: Dialect, table: str, scope: str, test: str = "", *params: Any) -> Query:
    """Delete the rows of a scope in `table` (those passing `test`, when given)."""
    where = f" AND {test}" if test else ""
    return f"DELETE FROM {table} WHERE scope = {d.mark}{where}", (scope, *params)
