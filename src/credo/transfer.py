"""Export and import: a scope as JSON Lines records, and those records written back.

`export_scope` gives every record of a scope (header, facts, lineage, conflicts, the
decision log, aliases, rules, rejections); `import_records` writes them into one scope,
checking every record as a write (types, sizes, control characters, secrets, scopes) and
writing nothing unless all are well formed; `import_all_scopes` restores a whole-database
export. `Memory.export` and `Memory.import_` call these; the CLI, the HTTP API and the UI
read and write the lines with `read_json_lines` and `dumps_jsonl`.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from .config import (
    MAX_FACT_CHARS,
    MAX_INPUT_BYTES,
    MAX_LABEL_CHARS,
    MAX_LINE_BYTES,
    MAX_REF_CHARS,
    MAX_REFS,
    MAX_TURN_CHARS,
    REJECTIONS_KEPT,
)
from .errors import InvalidInput
from .fact import SOURCE_CONFIDENCE, Fact, Status, base_key, new_id, validate_source
from .secrets import find_secrets_whole, mask_field, mask_secrets, masked_kind
from .store.base import Event, Rejection, Rule, Store, check_scope
from .textcheck import CONTROL, NOT_UTF8, rejection_excerpt
from .timeparse import EARLIEST, LATEST, TimeError
from .timeparse import parse_time as _parse_time

__all__ = [
    "EXPORT_VERSION",
    "ImportReport",
    "LongLine",
    "dumps_jsonl",
    "export_scope",
    "import_all_scopes",
    "import_records",
    "loads_json",
    "read_json_lines",
]

EXPORT_VERSION = 1


@dataclass
class ImportReport:
    """What an import wrote. `refused` says, one line per record, what was not imported
    and why (never the refused text itself); `renumbered` counts facts and rules whose id
    was already in use in the database and that were given a new one."""

    facts: int = 0
    skipped: int = 0  # already there (same id, same text): an import is idempotent
    lineage: int = 0
    conflicts: int = 0
    events: int = 0
    aliases: int = 0
    rules: int = 0
    rejections: int = 0
    renumbered: int = 0
    scopes: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["scopes"] = list(self.scopes)
        data["refused"] = list(self.refused)
        return data


def export_scope(store: Store, scope: str) -> Iterator[dict[str, Any]]:
    yield {
        "type": "header",
        "format": "credo-export",
        "version": EXPORT_VERSION,
        "scope": scope,
        "embedder": store.embedder.name,
        "exported_at": time.time(),
    }
    for fact in store.iter_all(scope=scope):
        yield {"type": "fact", **fact.to_dict()}
    for parent, child, kind in store.lineage(scope=scope):
        yield {"type": "lineage", "scope": scope, "parent": parent, "child": child, "kind": kind}
    for c in store.conflicts(scope=scope, include_resolved=True):
        yield {
            "type": "conflict",
            "scope": scope,
            "a": c.a.id,
            "b": c.b.id,
            "reason": c.reason,
            "created_at": c.created_at,
            "resolved_at": c.resolved_at,
            "resolution": c.resolution,
            "decided_by": c.decided_by,
        }
    for event in store.events(scope=scope):
        yield {"type": "event", "scope": scope, **event.to_dict()}
    for alias, canonical in store.aliases(scope=scope).items():
        yield {"type": "alias", "scope": scope, "alias": alias, "canonical": canonical}
    for rule in store.rules(scope=scope):
        yield {"type": "rule", **rule.to_dict()}
    for rej in reversed(store.rejections(scope=scope, limit=REJECTIONS_KEPT)):
        yield {"type": "rejection", **rej.to_dict()}


# -- import: every record is a write, checked like one ----------------------------------------
#: what each record type may hold (facts: the fields of `Fact`)
_RECORD_FIELDS: dict[str, frozenset[str]] = {
    "header": frozenset({"format", "version", "scope", "embedder", "exported_at"}),
    "fact": frozenset(Fact.__dataclass_fields__),
    "lineage": frozenset({"scope", "parent", "child", "kind"}),
    "conflict": frozenset(
        {"scope", "a", "b", "reason", "created_at", "resolved_at", "resolution", "decided_by"}
    ),
    "event": frozenset({"scope", "fact_id", "at", "kind", "other", "by", "confidence", "detail"}),
    "alias": frozenset({"scope", "alias", "canonical"}),
    "rule": frozenset({"id", "scope", "pattern", "subject", "created_at", "origin"}),
    "rejection": frozenset(
        {"id", "scope", "text", "code", "reason", "source", "subject", "derived_from", "created_at"}
    ),
}
#: fact and rule ids: what credo mints (f_<hex>, r_<hex>) and what a sane exporter writes
_ID = re.compile(r"[A-Za-z0-9_.:@-]{1,128}")
#: lineage kinds and rejection codes: lower-case words
_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


@dataclass(frozen=True)
class LongLine:
    """A line of an export too long to be a record, read past: refused, never parsed."""

    where: str
    limit: int


class _Malformed(Exception):
    """A record that is not a credo export record: the whole import stops."""


class _Refused(Exception):
    """A well-formed record credo will not store (a secret, over a limit): skipped."""


class _Fields:
    """Typed reads of one record's fields; errors name the record and the field."""

    def __init__(self, n: int, kind: str, data: dict[str, Any], now: float) -> None:
        self.n, self.kind, self.data, self.now = n, kind, data, now

    def where(self) -> str:
        return f"record {self.n} ({self.kind})"

    def text(
        self,
        key: str,
        *,
        limit: int,
        required: bool = False,
        cut: bool = False,
        empty: bool = False,
    ) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise _Malformed(f"needs {key!r}")
            return None
        if not isinstance(value, str):
            raise _Malformed(f"{key!r} must be text, not {type(value).__name__}")
        if not empty and not value.strip():
            raise _Malformed(f"{key!r} is empty")
        if CONTROL.search(value[: limit + 1]):
            raise _Malformed(f"{key!r} holds control characters (such as NUL)")
        if NOT_UTF8.search(value[: limit + 1]):
            raise _Malformed(f"{key!r} holds text that is not UTF-8 (a lone surrogate)")
        if len(value) > limit:
            if cut:
                return value[:limit]
            raise _Refused(f"{key!r} is {len(value)} characters; the limit is {limit}")
        return value

    def ident(self, key: str, *, required: bool = False) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise _Malformed(f"needs {key!r}")
            return None
        if not isinstance(value, str) or not _ID.fullmatch(value):
            raise _Malformed(
                f"{key!r} must be an id (1-128 letters, digits, '_', '.', ':', '@' or '-')"
            )
        if mask_field(value) != value:
            raise _Refused(f"{key!r} holds a secret")
        return value

    def code(self, key: str) -> str:
        value = self.data.get(key)
        if not isinstance(value, str) or not _CODE.fullmatch(value):
            raise _Malformed(f"{key!r} must be a lower-case word (a-z, 0-9, '_')")
        return value

    def source(self, key: str = "source") -> str:
        value = self.data.get(key, "user")
        if not isinstance(value, str) or len(value) > MAX_LABEL_CHARS or CONTROL.search(value):
            raise _Malformed(f"{key!r} must be a source of at most {MAX_LABEL_CHARS} characters")
        try:
            return mask_field(validate_source(value))
        except ValueError as exc:
            raise _Malformed(str(exc)) from exc

    def time(self, key: str, *, default: float | None = None) -> float | None:
        value = self.data.get(key)
        if isinstance(value, str) and len(value) > 100:
            raise _Malformed(f"{key!r} is not a time")
        try:
            stamp = _parse_time(value)
        except TimeError as exc:
            raise _Malformed(f"{key!r}: {exc}") from exc
        if stamp is None:
            return default
        if not EARLIEST <= stamp <= LATEST:
            raise _Malformed(f"{key!r} is not a date between the years 1 and 9999")
        return stamp

    def refs(self, key: str) -> list[str]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise _Malformed(f"{key!r} must be a list of ids")
        if len(value) > MAX_REFS:
            raise _Refused(f"{key!r} holds {len(value)} references; the limit is {MAX_REFS}")
        refs = []
        for item in value:
            if not isinstance(item, str) or CONTROL.search(item):
                raise _Malformed(f"{key!r} must hold ids (text without control characters)")
            if len(item) > MAX_REF_CHARS:
                raise _Refused(f"a reference in {key!r} is over {MAX_REF_CHARS} characters")
            refs.append(mask_field(item))  # a turn or document id may hold a secret
        return refs


def _check_keys(f: _Fields) -> None:
    unknown = set(f.data) - _RECORD_FIELDS[f.kind]
    if unknown:
        raise _Malformed(f"unknown fields: {', '.join(sorted(map(str, unknown)))}")


def _record_scope(f: _Fields, target: str, rescope: bool) -> None:
    """A record lands in `target`: one naming another scope is an error, unless the
    import was told to copy (`into`)."""
    named = f.data.get("scope")
    if named is None:
        return
    try:
        check_scope(named)
    except ValueError as exc:
        raise _Malformed(str(exc)) from exc
    if named != target and not rescope:
        raise InvalidInput(
            f"{f.where()} is of scope {named!r}, but this import writes scope {target!r}: "
            f"nothing imported. To copy the records into {target!r}, import with --into "
            f"{target} (into={target!r}); to restore them as {named!r}, import with --scope "
            f"{named}"
        )


def _parse_fact(f: _Fields, target: str) -> Fact:
    d = f.data
    confidence = d.get("confidence", SOURCE_CONFIDENCE["user"])
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0 <= confidence <= 1
    ):  # compared as given: a huge int is no float
        raise _Malformed("'confidence' must be a number between 0 and 1")
    status = d.get("status", "active")
    if not isinstance(status, str) or status not in {s.value for s in Status}:
        raise _Malformed(f"'status' must be one of {', '.join(s.value for s in Status)}")
    count = d.get("access_count", 0)
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count < 2**53:
        raise _Malformed("'access_count' must be a whole number, 0 or more")
    text = f.text("text", limit=MAX_FACT_CHARS, required=True)
    # a key part may be empty: the write path keeps what normalising a name left
    subject = f.text("subject", limit=MAX_FACT_CHARS, empty=True)
    predicate = f.text("predicate", limit=MAX_FACT_CHARS, empty=True)
    obj = f.text("object", limit=MAX_FACT_CHARS, empty=True)
    created = f.time("created_at", default=f.now)
    assert text is not None and created is not None
    fact = Fact(
        id=f.ident("id") or "",
        text=text,
        subject=subject,
        predicate=predicate,
        object=obj,
        scope=target,
        source=f.source(),
        confidence=float(confidence),
        status=Status(status),
        derived_from=f.refs("derived_from"),
        superseded_by=f.ident("superseded_by"),
        created_at=created,
        valid_from=f.time("valid_from"),
        valid_to=f.time("valid_to"),
        access_count=count,
        last_seen_at=f.time("last_seen_at"),
    )
    for part in (text, subject, predicate, obj):
        found = find_secrets_whole(part) if part else []
        if found:
            raise _Refused(f"holds a secret ({found[0].kind})")
        if part and masked_kind(part):
            raise _Refused(f"holds a secret ({masked_kind(part)})")
    return fact


def _parse(f: _Fields, target: str, rescope: bool) -> dict[str, Any] | Fact | None:
    """The checked record: a Fact, the cleaned fields of another record, or None for a
    header. Raises _Malformed, _Refused or InvalidInput (a record of another scope)."""
    from .secrets import contains_secret

    _check_keys(f)
    _record_scope(f, target, rescope)
    kind, d = f.kind, f.data
    if kind == "header":
        if d.get("format") != "credo-export" or d.get("version") != EXPORT_VERSION:
            raise _Malformed("unsupported export format or version")
        return None
    if kind == "fact":
        return _parse_fact(f, target)
    if kind == "lineage":
        parent, child = f.ident("parent", required=True), f.ident("child", required=True)
        if parent == child:
            raise _Malformed("a fact is not its own parent")
        return {"parent": parent, "child": child, "kind": f.code("kind")}
    if kind == "conflict":
        note = MAX_FACT_CHARS
        a, b = f.ident("a", required=True), f.ident("b", required=True)
        if a == b:
            raise _Malformed("a conflict is between two different facts")
        return {
            "a": a,
            "b": b,
            "reason": mask_secrets(f.text("reason", limit=note, cut=True, empty=True) or ""),
            "created_at": f.time("created_at"),
            "resolved_at": f.time("resolved_at"),
            "resolution": mask_secrets(
                f.text("resolution", limit=note, cut=True, empty=True) or ""
            ),
            "decided_by": mask_secrets(
                f.text("decided_by", limit=MAX_LABEL_CHARS, cut=True, empty=True) or ""
            ),
        }
    if kind == "event":
        return _parse_event(f)
    if kind == "alias":
        names = []
        for key in ("alias", "canonical"):
            raw = f.text(key, limit=MAX_FACT_CHARS, required=True)
            assert raw is not None
            name = base_key(raw)
            if not name:
                raise _Malformed(f"{key!r} must have letters or digits")
            names.append(name)
        if names[0] == names[1]:
            raise _Malformed("an alias cannot name itself")
        if any(contains_secret(n) for n in names):
            raise _Refused("holds a secret")
        return {"alias": names[0], "canonical": names[1]}
    if kind == "rule":
        pattern = f.text("pattern", limit=MAX_FACT_CHARS, required=True)
        assert pattern is not None
        subject = f.text("subject", limit=MAX_FACT_CHARS)
        if contains_secret(pattern) or (subject and contains_secret(subject)):
            raise _Refused("holds a secret")
        return {
            "id": f.ident("id"),
            "pattern": " ".join(pattern.split()),
            "subject": subject,
            "created_at": f.time("created_at", default=f.now),
            "origin": mask_field(f.text("origin", limit=MAX_LABEL_CHARS, empty=True) or ""),
        }
    if kind == "rejection":
        if not isinstance(d.get("id"), (int, type(None))) or isinstance(d.get("id"), bool):
            raise _Malformed("'id' must be a number")
        text = d.get("text")
        if not isinstance(text, str):
            raise _Malformed("needs a 'text'")
        subject = f.text("subject", limit=MAX_FACT_CHARS, cut=True, empty=True)
        return {
            # the refused text may hold what was refused: masked, and only an excerpt (a
            # malformed candidate's control characters are dropped: never stored again)
            "text": rejection_excerpt(CONTROL.sub("", text[: MAX_TURN_CHARS + 1])),
            "code": f.code("code"),
            "reason": rejection_excerpt(
                f.text("reason", limit=MAX_TURN_CHARS, cut=True, empty=True) or ""
            ),
            "source": f.source(),
            "subject": mask_secrets(subject) if subject else None,
            "derived_from": f.refs("derived_from"),
            "created_at": f.time("created_at", default=f.now),
        }
    raise _Malformed(f"unknown record type {kind!r}")


#: what a decision's detail may hold, and how: texts (masked, cut), lists of ids, a flag
_DETAIL_TEXTS = ("said", "source", "why", "note", "relation")


def _parse_event(f: _Fields) -> dict[str, Any]:
    at = f.time("at")
    if at is None:
        raise _Malformed("needs 'at'")
    confidence = f.data.get("confidence")
    if confidence is not None and (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0.0 <= float(confidence) <= 1.0
    ):
        raise _Malformed("'confidence' must be a number between 0 and 1")
    raw = f.data.get("detail") or {}
    if not isinstance(raw, dict):
        raise _Malformed("'detail' must be an object")
    unknown = set(raw) - {*_DETAIL_TEXTS, "derived_from", "independent"}
    if unknown:
        raise _Malformed(f"'detail' holds unknown fields: {', '.join(sorted(unknown))}")
    inner = _Fields(f.n, f.kind, raw, f.now)
    detail: dict[str, Any] = {}
    for key in _DETAIL_TEXTS:
        text = inner.text(key, limit=MAX_FACT_CHARS, cut=True, empty=True)
        if text is not None:
            detail[key] = mask_secrets(text)
    if "derived_from" in raw:
        detail["derived_from"] = inner.refs("derived_from")
    if "independent" in raw:
        if not isinstance(raw["independent"], (bool, type(None))):
            raise _Malformed("'independent' must be true, false or null")
        detail["independent"] = raw["independent"]
    return {
        "fact_id": f.ident("fact_id", required=True),
        "at": at,
        "kind": f.code("kind"),
        "other": f.ident("other"),
        "by": mask_secrets(f.text("by", limit=MAX_LABEL_CHARS, cut=True, empty=True) or ""),
        "confidence": None if confidence is None else float(confidence),
        "detail": detail,
    }


def _dated_retirements(store: Store, scope: str, facts: Sequence[Fact]) -> list[Event]:
    """Retired facts an import brings without their decision log (an export made before
    credo kept one): one row each, dated as the schema migration dates them."""
    logged = {e.fact_id for e in store.events(scope=scope, fact_ids=[f.id for f in facts])}
    successors = {
        f.id: f
        for f in store.get_many([x.superseded_by for x in facts if x.superseded_by], scope=scope)
    }
    out = []
    for fact in facts:
        if fact.is_live or fact.id in logged:
            continue
        nxt = successors.get(fact.superseded_by or "")
        at = (
            nxt.created_at
            if nxt
            else fact.valid_to
            if fact.valid_to is not None
            else fact.created_at
        )
        kind = "retracted" if fact.status is Status.RETRACTED else "superseded"
        note = {"note": "imported without a decision log"}
        out.append(
            Event(scope, fact.id, at, kind, fact.superseded_by, "import", fact.confidence, note)
        )
    return out


def _derived_id(prefix: str, scope: str, old: str) -> str:
    """The id a record gets in `scope` when its own is in use elsewhere: the same every
    time (so importing twice is still idempotent), and telling nothing about that use."""
    import hashlib

    digest = hashlib.sha256(f"{scope}\x1f{old}".encode()).hexdigest()
    return prefix + digest[: 16 if prefix == "f_" else 12]


def _facts_in(store: Store, scope: str, ids: Sequence[str]) -> dict[str, Fact]:
    found: dict[str, Fact] = {}
    ids = list(dict.fromkeys(ids))
    for start in range(0, len(ids), 500):
        found.update((f.id, f) for f in store.get_many(ids[start : start + 500], scope=scope))
    return found


def _place_facts(
    store: Store, scope: str, facts: list[tuple[int, Fact]], report: ImportReport
) -> tuple[list[Fact], dict[str, str], set[str]]:
    """The facts to insert, the id each imported id now has (where it changed), and every
    id (old and new) the import's facts hold in the scope."""
    unique: dict[str, tuple[int, Fact]] = {}
    for n, fact in facts:
        seen = unique.get(fact.id)
        if seen is None:
            unique[fact.id] = (n, fact)
        elif seen[1].text != fact.text:
            raise InvalidInput(
                f"record {n} (fact): id {fact.id} is given twice with other text: nothing imported"
            )
        else:
            report.skipped += 1
    here = _facts_in(store, scope, list(unique))
    clashing = store.ids_held_elsewhere([i for i in unique if i not in here], scope=scope)
    mapping = {old: _derived_id("f_", scope, old) for old in clashing}
    here.update(_facts_in(store, scope, list(mapping.values())))
    for old, new in mapping.items():
        if new not in here and store.ids_held_elsewhere([new], scope=scope):
            mapping[old] = new_id()
    report.renumbered += len(mapping)
    fresh: list[Fact] = []
    present: set[str] = set()
    for old, (n, fact) in unique.items():
        fid = mapping.get(old, old)
        present.update((old, fid))
        have = here.get(fid)
        if have is None:
            fresh.append(fact.evolve(id=fid) if fid != old else fact)
        elif have.text == fact.text:
            report.skipped += 1
        else:
            raise InvalidInput(
                f"record {n} (fact): fact {old} is already in scope {scope!r} "
                "with other text: nothing imported (a fact's text is never "
                "overwritten)"
            )
    return fresh, mapping, present


def _place_rules(
    store: Store, scope: str, rules: list[tuple[int, dict[str, Any]]], report: ImportReport
) -> None:
    """Rule ids, like fact ids, may be unique across the database: one in use by another
    scope is replaced (the same way every time), never reported."""
    here = {r.id for r in store.rules(scope=scope)}
    asked = {r["id"] for _, r in rules if r["id"] and r["id"] not in here}
    elsewhere: set[str] = set()
    if asked:
        for other in store.scopes():
            if other != scope:
                elsewhere |= asked & {r.id for r in store.rules(scope=other)}
    for _, rule in rules:
        if rule["id"] is None:
            rule["id"] = "r_" + uuid.uuid4().hex[:12]
        elif rule["id"] in elsewhere:
            rule["id"] = _derived_id("r_", scope, rule["id"])
            report.renumbered += 1


def import_records(
    store: Store,
    records: Iterable[Any],
    *,
    scope: str | None = None,
    into: str | None = None,
    clock: Callable[[], float] = time.time,
) -> ImportReport:
    """Write exported records into one scope: `into` (every record copied into it) or
    `scope` (a record naming another scope is refused). See `Memory.import_`.

    Idempotent: a fact already there (same id, same text) is skipped; the same id with
    other text is an error, never an overwrite. Nothing is written unless every record is
    well formed; records refused for their content are listed in `report.refused`."""
    if scope is not None and into is not None and scope != into:
        raise InvalidInput(f"scope={scope!r} and into={into!r} disagree: name one scope")
    target = into if into is not None else scope
    if target is None:
        raise InvalidInput("say which scope to import into (scope= or into=)")
    try:
        target = check_scope(target)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from exc
    report = ImportReport(scopes=[target])
    now = clock()
    facts: list[tuple[int, Fact]] = []
    rest: list[tuple[int, str, dict[str, Any]]] = []
    dropped: set[str] = set()  # ids of facts refused: nothing may point at them
    for n, record in enumerate(records, start=1):
        if isinstance(record, LongLine):
            report.refused.append(
                f"record {n} ({record.where}): over {record.limit} bytes; not imported"
            )
            continue
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            raise InvalidInput(f"record {n}: not a credo export record (no 'type')")
        kind = record["type"]
        if kind not in _RECORD_FIELDS:
            raise InvalidInput(f"record {n}: unknown record type {kind[:40]!r}")
        fields = _Fields(n, kind, {k: v for k, v in record.items() if k != "type"}, now)
        try:
            parsed = _parse(fields, target, rescope=into is not None)
        except _Malformed as exc:
            raise InvalidInput(f"{fields.where()}: {exc}: nothing imported") from exc
        except _Refused as exc:
            named = record.get("id")
            an_id = isinstance(named, str) and _ID.fullmatch(named) is not None
            # the report names the record's id, unless the id is itself a secret
            shown = an_id and isinstance(named, str) and mask_field(named) == named
            which = f" {named}" if shown else ""
            report.refused.append(f"{fields.where()}{which}: {exc}; not imported")
            if kind == "fact" and isinstance(named, str) and an_id:
                dropped.add(named)
            continue
        if isinstance(parsed, Fact):
            facts.append((n, parsed))
        elif parsed is not None:
            rest.append((n, kind, parsed))
    with store.transaction():
        fresh, mapping, present = _place_facts(store, target, facts, report)

        def ref(old: str) -> str:
            return mapping.get(old, old)

        for i, fact in enumerate(fresh):
            fresh[i] = fact.evolve(
                derived_from=[ref(r) for r in fact.derived_from if r not in dropped],
                superseded_by=(
                    ref(fact.superseded_by)
                    if fact.superseded_by and fact.superseded_by not in dropped
                    else None
                ),
            )
        for start in range(0, len(fresh), 512):
            store.put_many(fresh[start : start + 512])
        report.facts = len(fresh)
        _place_rules(store, target, [(n, r) for n, k, r in rest if k == "rule"], report)
        known_rejections = {
            (r.text, r.code, r.created_at)
            for r in store.rejections(scope=target, limit=REJECTIONS_KEPT)
        }
        named = [ref(d["fact_id"]) for _, k, d in rest if k == "event"]
        logged = {
            (e.fact_id, e.at, e.kind, e.other)
            for e in (store.events(scope=target, fact_ids=named) if named else [])
        }
        for n, kind, data in rest:
            if kind == "event":
                if data["fact_id"] in dropped:
                    report.refused.append(
                        f"record {n} (event): names a fact that was not imported; not imported"
                    )
                    continue
                data["fact_id"] = ref(data["fact_id"])
                other = data["other"]
                data["other"] = ref(other) if other and other not in dropped else None
                seen = (data["fact_id"], data["at"], data["kind"], data["other"])
                if seen in logged or not _both_here(store, target, [data["fact_id"]], present):
                    continue  # already there (an import is idempotent), or not in scope
                logged.add(seen)
            if kind in ("lineage", "conflict"):
                ends = ("parent", "child") if kind == "lineage" else ("a", "b")
                if any(data[e] in dropped for e in ends):
                    report.refused.append(
                        f"record {n} ({kind}): names a fact that was not imported; not imported"
                    )
                    continue
                for e in ends:
                    data[e] = ref(data[e])
                if not _both_here(store, target, [data[e] for e in ends], present):
                    report.refused.append(
                        f"record {n} ({kind}): its facts are not both in "
                        f"scope {target!r}; not imported"
                    )
                    continue
            if kind == "rejection":
                key = (data["text"], data["code"], data["created_at"])
                if key in known_rejections:
                    continue
                known_rejections.add(key)
            _import_record(store, target, kind, data, report)
        store.add_events(_dated_retirements(store, target, fresh))
    return report


def _both_here(store: Store, scope: str, ends: list[str], present: set[str]) -> bool:
    """Whether both facts are in `scope`: the import's own, or stored there already (never
    looked for anywhere else, so the answer is the same whatever other scopes hold)."""
    missing = [e for e in ends if e not in present]
    return not missing or len(_facts_in(store, scope, missing)) == len(set(missing))


def _import_record(
    store: Store, scope: str, kind: str, r: dict[str, Any], report: ImportReport
) -> None:
    """Write one checked record (not a fact) into `scope`."""
    if kind == "lineage":
        store.add_lineage(scope, r["parent"], r["child"], r["kind"])
        report.lineage += 1
    elif kind == "conflict":
        store.record_conflict(scope, r["a"], r["b"], r["reason"], created_at=r["created_at"])
        if r["resolved_at"]:
            store.settle_conflict(
                scope,
                r["a"],
                r["b"],
                resolution=r["resolution"],
                decided_by=r["decided_by"],
                resolved_at=r["resolved_at"],
            )
        report.conflicts += 1
    elif kind == "event":
        store.add_events([Event(scope=scope, **r)])
        report.events += 1
    elif kind == "alias":
        store.set_alias(scope, r["alias"], r["canonical"])
        report.aliases += 1
    elif kind == "rule":
        store.add_rule(
            Rule(r["id"], scope, r["pattern"], r["subject"], r["created_at"], r["origin"])
        )
        report.rules += 1
    elif kind == "rejection":
        store.add_rejection(
            Rejection(
                scope,
                r["text"],
                r["code"],
                r["reason"],
                r["source"],
                r["subject"],
                tuple(r["derived_from"]),
                r["created_at"],
            ),
            keep=REJECTIONS_KEPT,
        )
        report.rejections += 1


def import_all_scopes(
    store: Store, records: Iterable[Any], *, clock: Callable[[], float] = time.time
) -> list[ImportReport]:
    """Restore an `export --all-scopes` file: each record into the scope it names (a
    record naming none goes with the header before it). An explicit, whole-database
    operation (`credo import --all-scopes`); every part is checked as `import_records`
    checks it, and all of it is one transaction."""
    groups: dict[str, list[Any]] = {}
    current: str | None = None
    for n, record in enumerate(records, start=1):
        named = record.get("scope") if isinstance(record, dict) else None
        if isinstance(record, dict) and record.get("type") == "header":
            current = named if isinstance(named, str) else None
        where = named if named is not None else current
        if isinstance(record, LongLine) and where is None:
            where = "default"  # refused wherever it goes: only its report line matters
        if not isinstance(where, str):
            raise InvalidInput(f"record {n}: names no scope, and no header before it does")
        groups.setdefault(where, []).append(record)
    reports = []
    with store.transaction():
        for name, part in groups.items():
            try:
                reports.append(import_records(store, part, scope=name, clock=clock))
            except InvalidInput as exc:
                raise InvalidInput(f"scope {name!r}: {exc}") from exc
    return reports


# -- JSON in ---------------------------------------------------------------------------------
def loads_json(text: str | bytes, *, where: str, error: type[Exception] = InvalidInput) -> Any:
    """json.loads with its failures as `error`, naming `where`: a syntax error, a number
    too long to read, or nesting too deep for the parser (json raises RecursionError)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{where}: nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not JSON ({exc.msg})") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python reads
        raise error(f"{where}: not JSON ({str(exc)[:100]})") from None


def read_json_lines(
    stream: IO[bytes] | IO[str],
    *,
    name: str,
    error: type[Exception] = InvalidInput,
    at: str = "{name}: line {n}",
    max_line: int = MAX_LINE_BYTES,
    max_total: int = MAX_INPUT_BYTES,
    skip_long: bool = False,
) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of JSON Lines, reading at most
    `max_line` bytes (characters, from a text stream) of a line and `max_total` in all.

    A longer line is an `error` naming where (`at`), or, with `skip_long`, read past
    (never held whole) and given as a `LongLine` (which `import_records` reports as a
    refused record). A longer input, a line that is not UTF-8 or not JSON, and JSON
    nested too deeply are errors."""
    total = 0
    n = 0
    while True:
        n += 1
        where = at.format(name=name, n=n)
        raw: bytes | str = stream.readline(max_line + 1)
        if not raw:
            return
        total += len(raw)
        newline = b"\n" if isinstance(raw, bytes) else "\n"
        if len(raw) > max_line and not raw.endswith(newline):  # type: ignore[arg-type]
            if not skip_long:
                raise error(f"{where}: the line is over {max_line} bytes: split it")
            while raw and not raw.endswith(newline):  # type: ignore[arg-type]
                raw = stream.readline(max_line + 1)
                total += len(raw)
                if total > max_total:
                    raise error(f"{name}: over {max_total} bytes: split the input")
            yield n, LongLine(where, max_line)
            continue
        if total > max_total:
            raise error(f"{name}: over {max_total} bytes: split the input")
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise error(f"{where}: not UTF-8 text") from None
        else:
            line = raw
        if line.strip():
            yield n, loads_json(line, where=where, error=error)


def dumps_jsonl(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    for record in records:
        yield json.dumps(record, ensure_ascii=False, sort_keys=True)
