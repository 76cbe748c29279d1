"""`credo serve`: one HTTP JSON API for many users, the scope named in each request.

    POST /v1/scopes/{scope}/remember      GET  /v1/scopes/{scope}/facts
    POST /v1/scopes/{scope}/recall        GET  /v1/scopes/{scope}/facts/{id}
    POST /v1/scopes/{scope}/forget        GET  /v1/scopes/{scope}/facts/{id}/why
    POST /v1/scopes/{scope}/ingest        POST /v1/scopes/{scope}/facts/{id}/retract
    GET  /v1/scopes/{scope}/conflicts     POST /v1/scopes/{scope}/resolve
    GET  /v1/scopes/{scope}/history       GET  /v1/scopes/{scope}/export
    GET  /v1/scopes  (admin)              GET  /v1/openapi.json  (no token needed)

Every operation is `Memory`'s own (run off the event loop as `AsyncMemory` runs it), and
every result has the shape the MCP tools give (`credo.mcp.fact_out` and its kin), so the
two servers never disagree on what a fact looks like.

Who may touch a scope is the token's grant (`credo.access`): a token bound to `alice`
gets 403 `forbidden_scope` for `bob`, whether or not `bob` exists; a read of a scope that
holds no fact yet is 404 `unknown_scope` (a write creates it). Bad input is a 4xx JSON
error that says what to fix, and nothing is written: bodies are read whole (at most
`MAX_BODY_BYTES`, within `BODY_TIMEOUT` seconds) and validated before any call.

Starlette and uvicorn (the `ui` extra, which the MCP SDK brings too) carry it: the
project already ships and tests them, and a JSON API needs nothing they lack.

Over PostgreSQL the server opens `--connections` stores (each a connection of its own)
and lends one to each request, so requests of different users run at once; SQLite gets
one (its writes take turns anyway).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .access import (
    TOKENS_ENV,
    Grant,
    TokenTable,
    allowed_hosts,
    host_allowed,
    load_tokens,
)
from .aio import AsyncMemory
from .config import MAX_FACT_CHARS, MAX_LABEL_CHARS, MAX_REF_CHARS, MAX_REJECTION_CHARS, Settings
from .embed import EmbedderError
from .errors import InvalidInput, NotFound
from .gate import GatePolicy
from .httpauth import TOKEN_ENV, given_token, http_token
from .httpserve import header_timeout_protocol, listen_url
from .isotime import export_times, iso_times
from .mcp import (
    _REFERENCE_NOTE,
    TurnIn,
    _conflict_out,
    _hit_out,
    _remember_out,
    episode_turns,
    fact_out,
)
from .memory import Memory
from .store.base import ScopeError, Store, StoreError, check_scope
from .transfer import dumps_jsonl, loads_json

if TYPE_CHECKING:
    from .cli_common import CommandAdder

__all__ = ["build_app", "openapi", "register"]

DEFAULT_PORT = 8767
#: the largest body: an ingest call (MAX_INGEST_CHARS characters, escaped, in JSON)
MAX_BODY_BYTES = 4 * 1024 * 1024
#: every other call's body (one fact, a query, a few ids)
MAX_SMALL_BODY_BYTES = 64 * 1024
#: seconds a client has to send its body (a slow sender ties up a connection)
BODY_TIMEOUT = 30.0
#: seconds a request waits for a free store before it is told the server is busy (503)
POOL_WAIT = 30.0
#: connections uvicorn serves at once; more are answered 503 at once
LIMIT_CONCURRENCY = 1000
MAX_RECALL = 50
MAX_PAGE = 200
MAX_ID_ARG = 200
MAX_TURNS = 500
DEFAULT_PG_CONNECTIONS = 8
DECIDED_BY_PREFIX = "api"
_KNOWN_SCOPES_KEPT = 100_000


# -- errors ----------------------------------------------------------------------------------
class ApiError(Exception):
    """An answer other than 200: a status, a code a program can test, and a message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.extra = extra
        self.headers: dict[str, str] = {}


def _error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


# -- inputs ----------------------------------------------------------------------------------
class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


_When = Annotated[str, Field(max_length=100)] | float | None
_Id = Annotated[str, Field(min_length=1, max_length=MAX_ID_ARG)]


class RememberIn(_In):
    text: str = Field(min_length=1, max_length=MAX_FACT_CHARS, description="one statement")
    source: str = Field(
        default="user",
        max_length=MAX_LABEL_CHARS,
        description="who says so: 'user', 'tool:<name>', 'imported:<document>' or 'inferred'",
    )
    valid_from: _When = Field(
        default=None, description="when it became true: YYYY-MM-DD, ISO 8601 or epoch seconds"
    )
    force: bool = Field(default=False, description="store it although it was retracted before")


class RecallIn(_In):
    query: str = Field(min_length=1, max_length=MAX_FACT_CHARS)
    k: int = Field(default=5, ge=1, le=MAX_RECALL, description="how many facts")
    subject: str | None = Field(default=None, max_length=MAX_FACT_CHARS)
    min_confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    as_of: str | None = Field(default=None, max_length=100, description="what was true then")
    known_at: str | None = Field(default=None, max_length=100, description="as known then")
    render: bool = Field(default=False, description="add `rendered`: the block for a prompt")
    changes: bool = Field(default=False, description="with render: say what changed recently")


class ForgetIn(_In):
    id: str | None = Field(default=None, max_length=MAX_ID_ARG)
    subject: str | None = Field(default=None, max_length=MAX_FACT_CHARS)
    episode: str | None = Field(default=None, max_length=MAX_REF_CHARS)

    @model_validator(mode="after")
    def _exactly_one(self) -> ForgetIn:
        named = [n for n in ("id", "subject", "episode") if getattr(self, n)]
        if len(named) != 1:
            raise ValueError(
                "give exactly one of id, subject or episode"
                + (f" (got {', '.join(named)})" if named else "")
            )
        return self


class RetractIn(_In):
    why: str | None = Field(default=None, max_length=MAX_REJECTION_CHARS)
    decided_by: str | None = Field(default=None, max_length=100)


class ResolveIn(_In):
    keep: _Id | None = Field(default=None, description="the fact that is right")
    retract: list[_Id] | None = Field(
        default=None, max_length=MAX_PAGE, description="facts that are wrong"
    )
    decided_by: str | None = Field(default=None, max_length=100)

    @model_validator(mode="after")
    def _keep_or_retract(self) -> ResolveIn:
        if (self.keep is None) == (not self.retract):
            raise ValueError(
                "give either keep (the fact that is right) or retract (the facts that are "
                "wrong), not both and not neither"
            )
        return self


class IngestIn(_In):
    turns: list[TurnIn] = Field(min_length=1, max_length=MAX_TURNS)
    episode: str | None = Field(default=None, max_length=200)


class ListQuery(_In):
    subject: str | None = Field(default=None, max_length=MAX_FACT_CHARS)
    status: Literal["active", "superseded", "conflicted", "retracted"] | None = None
    limit: int = Field(default=20, ge=1, le=MAX_PAGE)
    offset: int = Field(default=0, ge=0)
    as_of: str | None = Field(default=None, max_length=100)
    known_at: str | None = Field(default=None, max_length=100)


class ConflictsQuery(_In):
    include_resolved: bool = False


class HistoryQuery(_In):
    subject: str = Field(min_length=1, max_length=MAX_FACT_CHARS)
    predicate: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)


class NoInput(_In):
    pass


# -- operations: each runs on a worker thread with the request's Memory -----------------------
@dataclass
class Call:
    """What an operation gets: the validated input, path ids, and who is asking."""

    data: Any
    grant: Grant
    fact_id: str = ""

    def decider(self, given: str | None) -> str:
        caller = " ".join((given or "").split())
        base = f"{DECIDED_BY_PREFIX}:{self.grant.name}"
        return f"{base}:{caller}" if caller else base


def op_remember(m: Memory, c: Call) -> dict[str, Any]:
    d: RememberIn = c.data
    result = m.remember(d.text, source=d.source, valid_from=d.valid_from, force=d.force)
    if result.code == "request":
        return {"stored": False, "honoured": True, "why": result.why, "request": result.request}
    out: dict[str, Any] = _remember_out(result)
    return out


def op_recall(m: Memory, c: Call) -> dict[str, Any]:
    d: RecallIn = c.data
    hits = m.recall(
        d.query,
        k=d.k,
        subject=d.subject,
        min_confidence=d.min_confidence,
        as_of=d.as_of,
        known_at=d.known_at,
    )
    out: dict[str, Any] = {"query": d.query, "facts": [_hit_out(h) for h in hits]}
    if d.render:
        view = m.view(d.as_of, d.known_at)
        rendered = m.render(
            hits, query=d.query, as_of=view.as_of if view else None, changes=d.changes
        )
        out["rendered"] = rendered or "(nothing known)"
        out["note"] = _REFERENCE_NOTE
    return out


def op_list(m: Memory, c: Call) -> dict[str, Any]:
    d: ListQuery = c.data
    facts = m.list(
        subject=d.subject,
        status=d.status,
        limit=d.limit + 1,
        offset=d.offset,
        as_of=d.as_of,
        known_at=d.known_at,
    )
    more = len(facts) > d.limit
    return {
        "facts": [fact_out(f) for f in facts[: d.limit]],
        "offset": d.offset,
        "next_offset": d.offset + d.limit if more else None,
    }


def op_get(m: Memory, c: Call) -> dict[str, Any]:
    out: dict[str, Any] = fact_out(m.get(c.fact_id))
    return out


def op_why(m: Memory, c: Call) -> dict[str, Any]:
    out: dict[str, Any] = iso_times(m.why(c.fact_id).to_dict())
    return out


def op_retract(m: Memory, c: Call) -> dict[str, Any]:
    d: RetractIn = c.data
    who = c.decider(d.decided_by)
    fact = m.retract(c.fact_id, why=d.why, by=who)
    return {"retracted": fact_out(fact), "decided_by": who}


def op_forget(m: Memory, c: Call) -> dict[str, Any]:
    d: ForgetIn = c.data
    report = m.forget(id=d.id, subject=d.subject, episode=d.episode)
    out: dict[str, Any] = report.to_dict()
    return out


def op_conflicts(m: Memory, c: Call) -> dict[str, Any]:
    d: ConflictsQuery = c.data
    found = m.conflicts(include_resolved=d.include_resolved)
    return {"conflicts": [_conflict_out(x) for x in found], "count": len(found)}


def op_resolve(m: Memory, c: Call) -> dict[str, Any]:
    d: ResolveIn = c.data
    who = c.decider(d.decided_by)
    changed = m.resolve_conflict(keep=d.keep, retract=d.retract or (), decided_by=who)
    return {"changed": [fact_out(f) for f in changed], "decided_by": who}


def op_history(m: Memory, c: Call) -> dict[str, Any]:
    d: HistoryQuery = c.data
    keys = m.history(d.subject, d.predicate)
    return {"subject": d.subject, "keys": [iso_times(k.to_dict()) for k in keys]}


def op_ingest(m: Memory, c: Call) -> dict[str, Any]:
    from .ingest import ingest

    episode, turns = c.data
    report = ingest(m, turns)
    out: dict[str, Any] = report.to_dict()
    out["episode"] = episode
    out["turn_ids"] = [t.id for t in turns]
    return out


def op_export(m: Memory, c: Call) -> list[dict[str, Any]]:
    # times as `credo export` writes them (ISO 8601), so the file `credo import` reads
    return [export_times(r) for r in m.export()]


@dataclass(frozen=True)
class Op:
    """One operation of the API: its route, its input, and the Memory call it makes."""

    name: str
    method: Literal["GET", "POST"]
    path: str
    summary: str
    run: Callable[[Memory, Call], Any]
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    response: str = ""
    #: a write that makes the scope exist (the others answer 404 for a scope with no fact)
    creates: bool = False
    #: may leave the scope empty (so it may no longer exist)
    empties: bool = False
    max_body: int = MAX_SMALL_BODY_BYTES
    ndjson: bool = False


SCOPE_PATH = "/v1/scopes/{scope}"
OPS: tuple[Op, ...] = (
    Op(
        "remember",
        "POST",
        SCOPE_PATH + "/remember",
        "Store a statement: the gate judges it, the resolver relates it to what is known",
        op_remember,
        body=RememberIn,
        response="RememberResult",
        creates=True,
    ),
    Op(
        "recall",
        "POST",
        SCOPE_PATH + "/recall",
        "The facts that answer a question, best first; with render, the block for a prompt",
        op_recall,
        body=RecallIn,
        response="RecallResult",
    ),
    Op(
        "list",
        "GET",
        SCOPE_PATH + "/facts",
        "List what is stored, oldest first, a page at a time",
        op_list,
        query=ListQuery,
        response="FactPage",
    ),
    Op(
        "get",
        "GET",
        SCOPE_PATH + "/facts/{fact_id}",
        "One fact",
        op_get,
        response="Fact",
    ),
    Op(
        "why",
        "GET",
        SCOPE_PATH + "/facts/{fact_id}/why",
        "Why the memory holds a fact: its sources, confidence over time, every decision",
        op_why,
        response="Why",
    ),
    Op(
        "retract",
        "POST",
        SCOPE_PATH + "/facts/{fact_id}/retract",
        "Mark a fact wrong: it leaves recall and stays in the history, with who and why",
        op_retract,
        body=RetractIn,
        response="Retracted",
    ),
    Op(
        "forget",
        "POST",
        SCOPE_PATH + "/forget",
        "Delete facts for good (one of id, subject, episode), with everything derived",
        op_forget,
        body=ForgetIn,
        response="ForgetReport",
        empties=True,
    ),
    Op(
        "conflicts",
        "GET",
        SCOPE_PATH + "/conflicts",
        "The contradictions the memory holds",
        op_conflicts,
        query=ConflictsQuery,
        response="ConflictList",
    ),
    Op(
        "resolve",
        "POST",
        SCOPE_PATH + "/resolve",
        "Settle a contradiction: keep one fact, or retract facts",
        op_resolve,
        body=ResolveIn,
        response="Resolved",
    ),
    Op(
        "history",
        "GET",
        SCOPE_PATH + "/history",
        "The timeline of each of a subject's keys",
        op_history,
        query=HistoryQuery,
        response="History",
    ),
    Op(
        "ingest",
        "POST",
        SCOPE_PATH + "/ingest",
        "Extract and store the durable facts of a conversation",
        op_ingest,
        body=IngestIn,
        response="IngestReport",
        creates=True,
        max_body=MAX_BODY_BYTES,
    ),
    Op(
        "export",
        "GET",
        SCOPE_PATH + "/export",
        "The scope as JSON Lines (what `credo import` reads)",
        op_export,
        ndjson=True,
    ),
)


# -- the pool of stores ----------------------------------------------------------------------
class StorePool:
    """Stores over one database, each lent to one request at a time."""

    def __init__(self, stores: Sequence[Store], *, wait: float = POOL_WAIT) -> None:
        if not stores:
            raise ValueError("a pool needs at least one store")
        self.stores = list(stores)
        self.wait = wait
        self._free: asyncio.Queue[Store] | None = None

    def _queue(self) -> asyncio.Queue[Store]:
        if self._free is None:
            self._free = asyncio.Queue()
            for store in self.stores:
                self._free.put_nowait(store)
        return self._free

    @contextlib.asynccontextmanager
    async def lend(self) -> AsyncIterator[Store]:
        free = self._queue()
        try:
            if free.empty():
                async with asyncio.timeout(self.wait):
                    store = await free.get()
            else:  # the common case, without a timer
                store = free.get_nowait()
        except TimeoutError:
            busy = ApiError(
                503, "busy", f"every store connection was busy for {self.wait:g} s: try again"
            )
            busy.headers["retry-after"] = "1"
            raise busy from None
        try:
            yield store
        finally:
            free.put_nowait(store)

    def close(self) -> None:
        for store in self.stores:
            store.close()


# -- the app ---------------------------------------------------------------------------------
_SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
}


@dataclass
class Api:
    pool: StorePool
    tokens: TokenTable
    policy: GatePolicy = field(default_factory=GatePolicy)
    hosts: list[str] | None = None
    body_timeout: float = BODY_TIMEOUT
    #: scopes seen to hold a fact (a read of one skips the check); forgets drop theirs
    known: set[str] = field(default_factory=set)

    # -- input ----------------------------------------------------------------------------
    def grant_of(self, request: Any) -> Grant:
        grant = self.tokens.grant(request.headers.get("authorization"))
        if grant is None:
            error = ApiError(
                401,
                "unauthorized",
                "send 'Authorization: Bearer <token>' with a token this server knows",
            )
            error.headers["www-authenticate"] = 'Bearer realm="credo"'
            raise error
        return grant

    @staticmethod
    def scope_of(request: Any, grant: Grant) -> str:
        scope = str(request.path_params["scope"])
        try:
            check_scope(scope)
        except ScopeError as exc:
            raise ApiError(400, "invalid_scope", str(exc)) from None
        if not grant.may(scope):
            raise ApiError(
                403,
                "forbidden_scope",
                f"the token {grant.name!r} may not touch scope {scope!r}",
                scope=scope,
            )
        return scope

    async def body(self, request: Any, limit: int) -> Any:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(
                415, "unsupported_media_type", "send the body as JSON (application/json)"
            )
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise ApiError(413, "too_large", f"the body is over {limit} bytes")
        raw = bytearray()

        async def read() -> None:
            async for chunk in request.stream():
                raw.extend(chunk)
                if len(raw) > limit:
                    raise ApiError(413, "too_large", f"the body is over {limit} bytes")

        try:
            async with asyncio.timeout(self.body_timeout):  # no task of its own, as wait_for
                await read()
        except TimeoutError:
            raise ApiError(
                408, "timeout", f"the body did not arrive within {self.body_timeout:g} s"
            ) from None
        try:
            return loads_json(bytes(raw), where="the body")
        except InvalidInput as exc:
            raise ApiError(400, "bad_json", str(exc)) from None

    @staticmethod
    def validate(model: type[BaseModel], data: Any) -> Any:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            problems = [
                {
                    "field": ".".join(str(p) for p in e["loc"]) or None,
                    "problem": e["msg"],
                }
                for e in exc.errors(include_url=False, include_input=False)
            ]
            first = problems[0]
            where = f"{first['field']}: " if first["field"] else ""
            raise ApiError(
                400, "invalid", f"{where}{first['problem']}", problems=problems
            ) from None

    async def input_of(self, op: Op, request: Any) -> Any:
        if op.body is not None:
            data = self.validate(op.body, await self.body(request, op.max_body))
            if isinstance(data, IngestIn):
                try:
                    return episode_turns(data.turns, data.episode, prefix="api")
                except InvalidInput as exc:
                    raise ApiError(413, "too_large", str(exc)) from None
            return data
        if op.query is not None:
            params: dict[str, Any] = {}
            for key, value in request.query_params.multi_items():
                if key in params:
                    raise ApiError(400, "invalid", f"{key}: given twice")
                params[key] = value
            return self.validate(op.query, params)
        if request.query_params:
            raise ApiError(400, "invalid", f"{op.path} takes no query parameters")
        return None

    # -- answering ------------------------------------------------------------------------
    def handler(self, op: Op) -> Callable[[Any], Awaitable[Any]]:
        async def handle(request: Any) -> Any:
            from starlette.responses import JSONResponse, StreamingResponse

            grant = self.grant_of(request)
            scope = self.scope_of(request, grant)
            data = await self.input_of(op, request)
            call = Call(data, grant, str(request.path_params.get("fact_id", "")))
            check = not op.creates and scope not in self.known

            def run(m: Memory) -> Any:
                if check and m.store.count(scope=m.scope) == 0:
                    raise ApiError(
                        404,
                        "unknown_scope",
                        f"scope {scope!r} holds no fact yet (remember or ingest creates it)",
                        scope=scope,
                    )
                return op.run(m, call)

            async with self.pool.lend() as store:
                amem = AsyncMemory(Memory(store, scope=scope, policy=self.policy))
                result = await amem.run(run)
            if op.empties:
                self.known.discard(scope)
            elif not op.creates and len(self.known) < _KNOWN_SCOPES_KEPT:
                # a read found the scope (a write may have stored nothing: not yet known)
                self.known.add(scope)
            if op.ndjson:

                async def lines() -> AsyncIterator[bytes]:
                    for line in dumps_jsonl(result):
                        yield (line + "\n").encode()

                return StreamingResponse(
                    lines(),
                    media_type="application/x-ndjson",
                    headers={"content-disposition": f'attachment; filename="credo-{scope}.jsonl"'},
                )
            return JSONResponse(result)

        return handle

    async def scopes(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        grant = self.grant_of(request)
        if not grant.admin:
            raise ApiError(403, "admin_only", "only an admin token may list the scopes")
        if request.query_params:
            raise ApiError(400, "invalid", "/v1/scopes takes no query parameters")
        async with self.pool.lend() as store:
            found = await asyncio.to_thread(store.scopes)
        return JSONResponse({"scopes": found, "count": len(found)})

    async def whoami(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        grant = self.grant_of(request)
        return JSONResponse(
            {"name": grant.name, "scopes": list(grant.scopes), "admin": grant.admin}
        )

    async def on_error(self, request: Any, exc: Exception) -> Any:
        from starlette.exceptions import HTTPException
        from starlette.responses import JSONResponse

        if isinstance(exc, ApiError):
            body = _error_body(exc.code, str(exc), **exc.extra)
            status, headers = exc.status, exc.headers
        elif isinstance(exc, NotFound):
            status, body, headers = 404, _error_body("not_found", str(exc)), {}
        elif isinstance(exc, InvalidInput | ValueError):
            status, body, headers = 400, _error_body("bad_request", str(exc)), {}
        elif isinstance(exc, StoreError | EmbedderError):
            status, body, headers = 503, _error_body("unavailable", str(exc)), {}
        elif isinstance(exc, HTTPException):
            status = exc.status_code
            code = {404: "no_route", 405: "method_not_allowed"}.get(status, "http_error")
            message = {
                404: f"there is no {request.url.path} (see /v1/openapi.json)",
                405: f"{request.method} is not how {request.url.path} is used",
            }.get(status, str(exc.detail))
            status, body, headers = status, _error_body(code, message), dict(exc.headers or {})
        else:
            print(f"credo serve: error on {request.url.path}: {exc!r}", file=sys.stderr)
            status, body, headers = (
                500,
                _error_body(
                    "internal",
                    "the server failed on this request; the step that failed changed nothing",
                ),
                {},
            )
        return JSONResponse(body, status_code=status, headers=headers)


class _Guard:
    """The Host check (421) and the headers every answer carries, around the routes."""

    def __init__(self, app: Any, api: Api) -> None:
        self.app = app
        self.api = api

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.datastructures import Headers
        from starlette.responses import JSONResponse

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]
                message["headers"] = headers
            await send(message)

        host = Headers(scope=scope).get("host")
        if not host_allowed(host, self.api.hosts):
            response = JSONResponse(
                _error_body(
                    "wrong_host",
                    f"this server does not answer to Host {host!r} (see --allowed-host)",
                ),
                status_code=421,
            )
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def build_app(
    stores: Sequence[Store] | StorePool,
    tokens: TokenTable,
    *,
    policy: GatePolicy | None = None,
    hosts: list[str] | None = None,
    body_timeout: float = BODY_TIMEOUT,
    threads: int | None = None,
) -> Any:
    """The API as an ASGI app over `stores` (one database; each request borrows one),
    answering the tokens of `tokens` and, when `hosts` is given, only those Host names."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    pool = stores if isinstance(stores, StorePool) else StorePool(stores)
    api = Api(pool, tokens, policy or GatePolicy(), hosts, body_timeout)
    document = openapi()

    async def describe(request: Any) -> Any:
        return JSONResponse(document)

    routes = [
        Route("/v1/openapi.json", describe, methods=["GET"]),
        Route("/v1/scopes", api.scopes, methods=["GET"]),
        Route("/v1/whoami", api.whoami, methods=["GET"]),
        *(Route(op.path, api.handler(op), methods=[op.method], name=op.name) for op in OPS),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        # one worker thread per store and a few to spare: asyncio's default (CPUs + 4)
        # would leave stores idle on a small machine
        workers = threads or len(pool.stores) + 4
        executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="credo-serve")
        asyncio.get_running_loop().set_default_executor(executor)
        yield

    handlers: dict[Any, Any] = {Exception: api.on_error, HTTPException: api.on_error}
    for kind in (ApiError, InvalidInput, ValueError, StoreError, EmbedderError):
        handlers[kind] = api.on_error
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    return _Guard(app, api)


# -- the OpenAPI description -----------------------------------------------------------------
def _fact_schema() -> dict[str, Any]:
    text = {"type": "string"}
    maybe_time = {"type": ["string", "null"], "description": "ISO 8601"}
    return {
        "type": "object",
        "required": ["id", "text", "status", "confidence", "subject", "predicate", "object"],
        "properties": {
            "id": text,
            "text": text,
            "status": {"enum": ["active", "superseded", "conflicted", "retracted"]},
            "confidence": {"type": "number"},
            "date": {"type": ["string", "null"]},
            "valid_from": maybe_time,
            "valid_to": maybe_time,
            "learned_at": maybe_time,
            "subject": {"type": ["string", "null"]},
            "predicate": {"type": ["string", "null"]},
            "object": {"type": ["string", "null"]},
            "source": text,
            "derived_from": {"type": "array", "items": text},
        },
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


def _results() -> dict[str, Any]:
    facts = {"type": "array", "items": _ref("Fact")}
    return {
        "Fact": _fact_schema(),
        "Hit": {
            "allOf": [
                _ref("Fact"),
                _obj(
                    ["found_by", "score"],
                    found_by={"type": "array", "items": {"type": "string"}},
                    score={"type": "number"},
                ),
            ]
        },
        "RememberResult": _obj(
            ["stored", "why"],
            stored={"type": "boolean"},
            relation={"enum": ["new", "duplicate", "refinement", "update", "conflict"]},
            why={"type": "string"},
            fact=_ref("Fact"),
            changed=facts,
            refused={"type": "string", "description": "the gate's category, when not stored"},
            honoured={"type": "boolean", "description": "a 'don't remember ...' request"},
            also={"type": "array", "items": _ref("RememberResult")},
        ),
        "RecallResult": _obj(
            ["query", "facts"],
            query={"type": "string"},
            facts={"type": "array", "items": _ref("Hit")},
            rendered={"type": "string", "description": "with render: the block for a prompt"},
            note={"type": "string"},
        ),
        "FactPage": _obj(
            ["facts", "offset", "next_offset"],
            facts=facts,
            offset={"type": "integer"},
            next_offset={"type": ["integer", "null"]},
        ),
        "Why": {"type": "object", "description": "sources, confidence over time, decisions"},
        "Retracted": _obj(
            ["retracted", "decided_by"], retracted=_ref("Fact"), decided_by={"type": "string"}
        ),
        "ForgetReport": _obj(
            ["facts", "fact_ids", "erased"],
            facts={"type": "integer"},
            fact_ids={"type": "array", "items": {"type": "string"}},
            erased={"type": "boolean"},
            pending_erase={"type": "integer", "description": "erases left for later"},
        ),
        "Conflict": _obj(
            ["a", "b", "reason"],
            a=_ref("Fact"),
            b=_ref("Fact"),
            reason={"type": "string"},
            created_at={"type": ["string", "null"]},
            resolved_at={"type": ["string", "null"]},
            resolution={"type": ["string", "null"]},
            decided_by={"type": ["string", "null"]},
        ),
        "ConflictList": _obj(
            ["conflicts", "count"],
            conflicts={"type": "array", "items": _ref("Conflict")},
            count={"type": "integer"},
        ),
        "Resolved": _obj(["changed", "decided_by"], changed=facts, decided_by={"type": "string"}),
        "History": _obj(
            ["subject", "keys"],
            subject={"type": "string"},
            keys={"type": "array", "items": {"type": "object"}},
        ),
        "IngestReport": _obj(
            ["episode", "turn_ids", "accepted", "rejected"],
            episode={"type": "string"},
            turn_ids={"type": "array", "items": {"type": "string"}},
            accepted={"type": "integer"},
            rejected={"type": "integer"},
            accepted_facts={"type": "array", "items": {"type": "object"}},
            rejected_candidates={"type": "array", "items": {"type": "object"}},
        ),
        "ScopeList": _obj(
            ["scopes", "count"],
            scopes={"type": "array", "items": {"type": "string"}},
            count={"type": "integer"},
        ),
        "Grant": _obj(
            ["name", "scopes", "admin"],
            name={"type": "string"},
            scopes={"type": "array", "items": {"type": "string"}},
            admin={"type": "boolean"},
        ),
        "Error": _obj(
            ["error"],
            error=_obj(
                ["code", "message"],
                code={
                    "type": "string",
                    "description": "unauthorized, forbidden_scope, unknown_scope, "
                    "invalid_scope, admin_only, invalid, bad_json, bad_request, not_found, "
                    "too_large, unsupported_media_type, timeout, wrong_host, no_route, "
                    "method_not_allowed, busy, unavailable, internal",
                },
                message={"type": "string"},
                problems={"type": "array", "items": {"type": "object"}},
            ),
        ),
    }


_ERRORS = {
    "400": "bad input (invalid, bad_json, invalid_scope, bad_request): nothing was written",
    "401": "no token, or one the server does not know (unauthorized)",
    "403": "the token may not touch this scope (forbidden_scope)",
    "404": "the scope holds no fact yet (unknown_scope), or no such fact (not_found)",
    "413": "the body is too large (too_large)",
    "415": "the body is not application/json",
    "503": "the store is busy or unavailable: try again",
}


def _schema_of(model: type[BaseModel], components: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, sub in schema.pop("$defs", {}).items():
        components[name] = sub
    return schema


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the API (served at /v1/openapi.json)."""
    from . import __version__

    components: dict[str, Any] = dict(_results())
    paths: dict[str, Any] = {}
    error = {"application/json": {"schema": _ref("Error")}}
    for op in OPS:
        params: list[dict[str, Any]] = [
            {"name": "scope", "in": "path", "required": True, "schema": {"type": "string"}}
        ]
        if "{fact_id}" in op.path:
            params.append(
                {"name": "fact_id", "in": "path", "required": True, "schema": {"type": "string"}}
            )
        if op.query is not None:
            schema = _schema_of(op.query, components)
            required = set(schema.get("required", []))
            for name, prop in schema.get("properties", {}).items():
                params.append(
                    {"name": name, "in": "query", "required": name in required, "schema": prop}
                )
        operation: dict[str, Any] = {
            "operationId": op.name,
            "summary": op.summary,
            "parameters": params,
            "responses": {
                "200": (
                    {
                        "description": "the scope's records, one JSON object a line",
                        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                    }
                    if op.ndjson
                    else {
                        "description": "done",
                        "content": {"application/json": {"schema": _ref(op.response)}},
                    }
                ),
                **{code: {"description": text, "content": error} for code, text in _ERRORS.items()},
            },
        }
        if op.body is not None:
            components[op.body.__name__] = _schema_of(op.body, components)
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": _ref(op.body.__name__)}},
            }
        paths.setdefault(op.path, {})[op.method.lower()] = operation
    paths["/v1/scopes"] = {
        "get": {
            "operationId": "scopes",
            "summary": "Every scope the database holds (admin tokens only)",
            "responses": {
                "200": {
                    "description": "the scopes",
                    "content": {"application/json": {"schema": _ref("ScopeList")}},
                },
                "401": {"description": _ERRORS["401"], "content": error},
                "403": {"description": "not an admin token (admin_only)", "content": error},
            },
        }
    }
    paths["/v1/whoami"] = {
        "get": {
            "operationId": "whoami",
            "summary": "The token's name and the scopes it may touch",
            "responses": {
                "200": {
                    "description": "the grant",
                    "content": {"application/json": {"schema": _ref("Grant")}},
                },
                "401": {"description": _ERRORS["401"], "content": error},
            },
        }
    }
    paths["/v1/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "This description (no token needed)",
            "security": [],
            "responses": {"200": {"description": "OpenAPI 3.1"}},
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "credo",
            "version": __version__,
            "description": "A semantic fact store for AI agents: one scope (user) per request. "
            "Every request but this description's needs 'Authorization: Bearer <token>'; a "
            "token may touch only the scopes its grant names.",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }


# -- the command -----------------------------------------------------------------------------
def _open_pool(args: argparse.Namespace, settings: Settings) -> tuple[StorePool, GatePolicy]:
    from .cli_common import check_db
    from .embed import get_embedder
    from .policy import load_policy, policy_path_for
    from .store import is_postgres_url, open_store

    db = args.db or settings.db
    check_db(db, create=getattr(args, "create", False))
    policy = load_policy(policy_path_for(db))
    embedder = get_embedder(args.embedder or settings.embedder, **settings.embedder_options)
    count = args.connections or (DEFAULT_PG_CONNECTIONS if is_postgres_url(db) else 1)
    stores: list[Store] = []
    try:
        for _ in range(count):
            stores.append(open_store(db, embedder))
    except BaseException:
        for store in stores:
            store.close()
        raise
    return StorePool(stores), policy


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from .cli_common import UsageError
    from .ui.server import require_packages

    require_packages()
    host = args.host or "127.0.0.1"
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {port}")
    if args.connections is not None and not 1 <= args.connections <= 256:
        raise UsageError("--connections must be between 1 and 256")
    made_up = False
    token = ""
    try:
        tokens = load_tokens(args.tokens, os.environ, who="credo serve")
        if tokens is None:
            token, made_up = http_token(host, given_token(args, os.environ, who="credo serve"))
            tokens = TokenTable.single(token)
        elif args.token_file:
            raise UsageError("give --tokens (a table) or --token-file (one token), not both")
    except InvalidInput as exc:
        raise UsageError(str(exc)) from exc
    hosts = allowed_hosts(host, args.allowed_host or ())
    pool, policy = _open_pool(args, settings)
    try:
        import uvicorn

        app = build_app(pool, tokens, policy=policy, hosts=hosts)
        print(
            f"credo serve: {len(pool.stores)} store connection(s), {len(tokens)} token(s), "
            f"at {listen_url(host, port, '/v1')} (description: /v1/openapi.json)",
            file=sys.stderr,
        )
        if made_up:
            print(
                f"credo serve: no --tokens, ${TOKENS_ENV}, --token-file or ${TOKEN_ENV}; this "
                f"run's admin token is {token}\n  clients send: Authorization: Bearer {token}",
                file=sys.stderr,
            )
        sys.stderr.flush()
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            limit_concurrency=LIMIT_CONCURRENCY,
            http=header_timeout_protocol(),  # a slow sender of headers is cut off
            timeout_keep_alive=5,
            timeout_graceful_shutdown=10,
        )
        uvicorn.Server(config).run()
        return 0
    finally:
        pool.close()


def register(command: CommandAdder) -> None:
    p = command.standalone(
        "serve",
        cmd_serve,
        "Serve an HTTP JSON API for many users: the scope is named in each request, and "
        "each token may touch only the scopes its grant names (see --tokens).",
    )
    p.add_argument(
        "--host",
        default=None,
        help="address to listen on (default 127.0.0.1); any non-loopback address needs a token",
    )
    p.add_argument("--port", type=int, default=None, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--tokens",
        metavar="PATH",
        default=None,
        help=f"the token table: YAML or JSON binding each token (by its SHA-256) to the "
        f"scopes it may touch (default: ${TOKENS_ENV}, the table itself; see docs/api.md)",
    )
    p.add_argument(
        "--token-file",
        metavar="PATH",
        default=None,
        help=f"instead of a table, one admin token read from PATH (default: ${TOKEN_ENV}; "
        "on loopback without either, a one-off token is made and printed)",
    )
    p.add_argument(
        "--connections",
        type=int,
        default=None,
        help=f"store connections requests share (default {DEFAULT_PG_CONNECTIONS} on "
        "PostgreSQL, 1 on SQLite)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        default=None,
        help="a Host header name to answer (repeatable; on loopback 127.0.0.1, localhost "
        "and [::1] always are; elsewhere without any, every name is)",
    )
