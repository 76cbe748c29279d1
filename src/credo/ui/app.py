"""The inspector's pages: a Starlette app over one `Memory` (through `AsyncMemory`, so a
page never blocks the event loop and calls on one store run one at a time).

Every page is rendered on the server (Jinja2, autoescaped: every text shown is data) and
reads with JavaScript off; every change is a POSTed form carrying the CSRF token; bad
input gets an error page that says what to fix, never a traceback.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from ..aio import AsyncMemory
from ..config import MAX_FACT_CHARS, REJECTIONS_KEPT
from ..embed import EmbedderError
from ..errors import InvalidInput, NotFound
from ..fact import Fact, Status
from ..isotime import export_times
from ..memory import Memory
from ..render import format_date
from ..secrets import mask_secrets
from ..store.base import StoreError
from ..transfer import dumps_jsonl
from . import queries
from .auth import (
    COOKIE,
    SESSION_SECONDS,
    BodyTooLarge,
    Guard,
    Limits,
    Receive,
    Scope,
    Send,
    TokenGate,
)

HERE = Path(__file__).parent
#: a form body larger than this is refused: the largest field is one fact
MAX_FORM_BYTES = 4 * MAX_FACT_CHARS + 4096
MAX_RECALL = 50
MAX_DECIDER_CHARS = 100
DECIDED_BY_PREFIX = "ui"


class BadInput(Exception):
    """A request the page cannot serve; `status` and a message saying what to fix."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _iso(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


def _when(timestamp: float | None) -> str:
    """A date, with the time of day when it is not midnight (UTC)."""
    if timestamp is None:
        return "undated"
    from datetime import UTC, datetime

    moment = datetime.fromtimestamp(timestamp, UTC)
    if (moment.hour, moment.minute) == (0, 0):
        return format_date(timestamp)
    return moment.strftime("%Y-%m-%d %H:%M")


def _templates() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["date"] = format_date
    env.filters["when"] = _when
    env.filters["iso"] = _iso
    env.filters["conf"] = lambda value: f"{value:.2f}"
    env.filters["query"] = lambda data: urlencode(data)
    env.filters["key_words"] = queries.key_words
    return env


class Inspector:
    """The routes, bound to one memory and one token."""

    def __init__(self, memory: Memory, token: str) -> None:
        self.amem = AsyncMemory(memory)
        self.gate = TokenGate(token)
        self.env = _templates()
        self.css = (HERE / "templates" / "style.css").read_bytes()
        # optional Memory methods, used when this credo has them
        self.has_why = callable(getattr(memory, "why", None))
        self.has_retract = callable(getattr(memory, "retract", None))

    # -- rendering -----------------------------------------------------------------------
    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> Response:
        html = self.env.get_template(template).render(
            request=request,
            path=request.url.path,
            scope=self.amem.scope,
            csrf=self.gate.csrf,
            max_fact_chars=MAX_FACT_CHARS,
            signed_in=self.gate.allowed(request),
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def error(self, request: Request, message: str, status: int) -> Response:
        titles = {
            400: "Bad request",
            403: "Refused",
            404: "Not found",
            405: "Not allowed",
            409: "Changed meanwhile",
            413: "Too large",
            415: "Wrong form encoding",
            503: "The store could not answer",
        }
        return self.page(
            request, "error.html", status, title=titles.get(status, "Error"), message=message
        )

    # -- input ---------------------------------------------------------------------------
    async def form(self, request: Request) -> dict[str, str]:
        """The fields of a POSTed form (urlencoded; the last of a repeated field wins), after
        its CSRF token is checked."""
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/x-www-form-urlencoded":
            raise BadInput("send the form as application/x-www-form-urlencoded", 415)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM_BYTES:
                raise BadInput(f"the form is over {MAX_FORM_BYTES} bytes", 413)
        try:
            fields = dict(
                parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50)
            )
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadInput(f"the form could not be read: {exc}") from exc
        if not self.gate.csrf_ok(fields.get("csrf")):
            raise BadInput(
                "the form's CSRF token is missing or wrong: reload the page and submit it "
                "again (forms from other sites are refused)",
                403,
            )
        return fields

    @staticmethod
    def required(fields: dict[str, str], name: str, what: str) -> str:
        value = fields.get(name, "").strip()
        if not value:
            raise BadInput(f"the form needs {what} ({name})")
        return value

    # -- reading -------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        def read(m: Memory) -> tuple[list[queries.SubjectRow], dict[str, int]]:
            return queries.subjects(m), m.stats()

        rows, stats = await self.amem.run(read)
        return self.page(
            request, "index.html", rows=rows, stats=stats, no_subject=queries.NO_SUBJECT
        )

    async def subject(self, request: Request) -> Response:
        if "name" not in request.query_params:
            raise BadInput("say which subject: /subject?name=<subject>")
        name = request.query_params["name"].strip()

        def read(m: Memory) -> tuple[str, list[Fact], dict[str, list[queries.Change]]]:
            key = m.entity(name) if name else queries.NO_SUBJECT
            facts = queries.facts_of(m, key)
            return key, facts, queries.timelines(m, key, facts)

        key, facts, timelines = await self.amem.run(read)
        if not facts:
            raise BadInput(f"nothing is stored about {name!r} in scope {self.amem.scope!r}", 404)
        now, past = queries.current_and_past(facts)
        size = queries.FACTS_PER_PAGE
        pages = max(1, -(-max(len(now), len(past)) // size))
        page = _number(request.query_params.get("page", "1"), "page", int, 1, pages)
        window = slice((page - 1) * size, page * size)
        return self.page(
            request,
            "subject.html",
            name=key,
            facts=facts,
            now=now[window],
            past=past[window],
            counts=(len(now), len(past)),
            page=page,
            pages=pages,
            # a key whose values all still hold has no changes to tell: its facts are listed
            timelines={k: c for k, c in timelines.items() if any(x.status != "active" for x in c)},
            limit=queries.SUBJECT_PAGE_FACTS,
        )

    async def search(self, request: Request) -> Response:
        params = request.query_params
        query = params.get("q", "").strip()
        subject = params.get("subject", "").strip()
        k = _number(params.get("k", "10"), "k (how many facts)", int, 1, MAX_RECALL)
        floor_text = params.get("min_confidence", "").strip()
        floor = _number(floor_text, "min_confidence", float, 0.0, 1.0) if floor_text else None
        if len(query) > MAX_FACT_CHARS:
            raise BadInput(f"the query is over {MAX_FACT_CHARS} characters")
        hits = None
        if query:
            hits = await self.amem.recall(query, k=k, subject=subject or None, min_confidence=floor)
        return self.page(
            request,
            "search.html",
            q=query,
            k=k,
            subject=subject,
            min_confidence=floor_text,
            hits=hits,
        )

    async def fact(self, request: Request) -> Response:
        fact_id = request.path_params["fact_id"]

        def read(m: Memory) -> dict[str, Any]:
            fact = m.get(fact_id)
            parents, refs = queries.split_refs(m, fact)
            out: dict[str, Any] = {
                "fact": fact,
                "neighbours": queries.neighbours(m, fact.id),
                "parents": parents,
                "refs": refs,
                "conflicts": queries.conflicts_of(m, fact.id),
                "superseded_by": (
                    m.store.get(fact.superseded_by, scope=m.scope) if fact.superseded_by else None
                ),
                "why": None,
            }
            if self.has_why:
                out["why"] = m.why(fact.id).to_dict()
            return out

        return self.page(
            request, "fact.html", can_retract=self.has_retract, **(await self.amem.run(read))
        )

    async def retract(self, request: Request) -> Response:
        fact_id = request.path_params["fact_id"]
        fields = await self.form(request)
        if not self.has_retract:
            raise BadInput("this credo cannot retract a fact: settle a conflict or forget it", 404)
        who = _decider(fields.get("by", ""))
        why = fields.get("why", "").strip() or None
        fact = await self.amem.run(lambda m: m.retract(fact_id, why=why, by=who))
        return RedirectResponse(f"/fact/{fact.id}", status_code=303)

    async def conflicts(self, request: Request) -> Response:
        found = await self.amem.conflicts(include_resolved=True)
        open_ = [c for c in found if c.resolved_at is None]
        settled = sorted(
            (c for c in found if c.resolved_at is not None),
            key=lambda c: c.resolved_at or 0.0,
            reverse=True,
        )
        return self.page(request, "conflicts.html", open=open_, settled=settled)

    async def rejections(self, request: Request) -> Response:
        limit = _number(request.query_params.get("limit", "50"), "limit", int, 1, REJECTIONS_KEPT)
        found = await self.amem.rejections(limit=limit)
        return self.page(request, "rejections.html", rejections=found, limit=limit)

    async def export(self, request: Request) -> Response:
        records = await self.amem.export()

        async def lines() -> AsyncIterator[bytes]:
            for line in dumps_jsonl(export_times(r) for r in records):
                yield (line + "\n").encode()

        name = f"credo-{self.amem.scope}.jsonl".replace('"', "")
        return StreamingResponse(
            lines(),
            media_type="application/x-ndjson",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    async def style(self, request: Request) -> Response:
        return Response(self.css, media_type="text/css")

    # -- changing ------------------------------------------------------------------------
    async def resolve(self, request: Request) -> Response:
        fields = await self.form(request)
        action = fields.get("action", "")
        a = self.required(fields, "a", "the conflict's first fact")
        b = self.required(fields, "b", "the conflict's second fact")
        decided_by = _decider(fields.get("decided_by", ""))
        if action == "keep_a":
            changed = await self.amem.resolve_conflict(keep=a, decided_by=decided_by)
        elif action == "keep_b":
            changed = await self.amem.resolve_conflict(keep=b, decided_by=decided_by)
        elif action == "retract_both":
            changed = await self.amem.resolve_conflict(retract=[a, b], decided_by=decided_by)
        else:
            raise BadInput("choose keep_a, keep_b or retract_both (action)")
        return self.page(
            request, "resolved.html", changed=changed, decided_by=decided_by, action=action
        )

    async def remember(self, request: Request) -> Response:
        fields = await self.form(request)
        raw_id = self.required(fields, "rejection", "the rejection's id")
        rejection_id = _number(raw_id, "rejection", int, 0, 2**62)
        text = self.required(fields, "text", "the text to remember")

        def run(m: Memory) -> tuple[Any, Any]:
            rejected = queries.rejection(m, rejection_id)
            result = m.remember(text, source=rejected.source, derived_from=rejected.derived_from)
            return rejected, result

        rejected, result = await self.amem.run(run)
        shown = text if result.accepted else mask_secrets(text)  # never echo a secret back
        return self.page(request, "remembered.html", rejected=rejected, result=result, text=shown)

    async def add(self, request: Request) -> Response:
        """A fact typed into the inspector: the same write as `credo remember` (the gate,
        then the resolver), from the user."""
        fields = await self.form(request)
        text = self.required(fields, "text", "the fact to remember")
        result = await self.amem.run(lambda m: m.remember(text, source="user"))
        shown = text if result.accepted else mask_secrets(text)  # never echo a secret back
        return self.page(request, "remembered.html", rejected=None, result=result, text=shown)

    async def correct(self, request: Request) -> Response:
        """ "That's wrong, it is ...": the right statement is remembered as any other (the
        gate, then the resolver), and the wrong fact, when that leaves it in use, is
        retracted with who said so. A refused correction changes nothing."""
        fact_id = request.path_params["fact_id"]
        fields = await self.form(request)
        if not self.has_retract:
            raise BadInput("this credo cannot retract a fact: settle a conflict or forget it", 404)
        text = self.required(fields, "text", "what is true instead")
        who = _decider(fields.get("by", ""))

        def run(m: Memory) -> tuple[Fact, Any, Fact | None]:
            wrong = m.get(fact_id)
            result = m.remember(text, source="user")
            if not result.accepted or result.fact is None or result.fact.id == fact_id:
                return wrong, result, None
            now = m.get(fact_id)
            if now.status not in (Status.ACTIVE, Status.CONFLICTED):
                return wrong, result, None  # the resolver already put it out of use
            return wrong, result, m.retract(fact_id, why=f"corrected: {result.fact.text}", by=who)

        wrong, result, retracted = await self.amem.run(run)
        shown = text if result.accepted else mask_secrets(text)
        return self.page(
            request,
            "remembered.html",
            rejected=None,
            corrected=wrong,
            retracted=retracted,
            result=result,
            text=shown,
        )

    async def forget_confirm(self, request: Request) -> Response:
        target, value = _target(dict(request.query_params))
        preview = await self.amem.run(queries.forget_preview, target, value)
        return self.page(
            request,
            "forget.html",
            preview=preview,
            status=404 if preview.empty else 200,
            changed=False,
        )

    async def forget(self, request: Request) -> Response:
        fields = await self.form(request)
        target, value = _target(fields)
        expected = self.required(fields, "digest", "the confirmation's fingerprint")

        def run(m: Memory) -> tuple[queries.ForgetPreview, Any]:
            preview = queries.forget_preview(m, target, value)
            if preview.digest() != expected or preview.empty:
                return preview, None
            if target == "id":
                return preview, m.forget(id=preview.value)
            if target == "subject":
                return preview, m.forget(subject=preview.value)
            return preview, m.forget(episode=preview.value)

        preview, report = await self.amem.run(run)
        if report is None:  # what would go is not what was confirmed: confirm again
            return self.page(request, "forget.html", preview=preview, changed=True, status=409)
        return self.page(request, "forgotten.html", preview=preview, report=report)

    # -- signing in ----------------------------------------------------------------------
    async def login(self, request: Request) -> Response:
        given: str | None = None
        if request.method == "POST":
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            body = (await request.body())[:MAX_FORM_BYTES]
            if ctype == "application/x-www-form-urlencoded":
                given = dict(parse_qsl(body.decode("utf-8", "replace"))).get("token", "")
            else:
                given = ""
        elif "token" in request.query_params:
            given = request.query_params["token"]
        if given is None:
            return self.page(request, "login.html", status=200, failed=False)
        if not self.gate.token_ok(given.strip()):
            return self.page(request, "login.html", status=401, failed=True)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            COOKIE,
            self.gate.start_session(),
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="strict",
            path="/",
        )
        return response

    async def logout(self, request: Request) -> Response:
        await self.form(request)
        self.gate.end_session(request.cookies.get(COOKIE))  # every copy of it ends now
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = self.page(request, "login.html", status=401, failed=False)
        await response(scope, receive, send)

    # -- errors --------------------------------------------------------------------------
    async def on_error(self, request: Request, exc: Exception) -> Response:
        if isinstance(exc, BadInput):
            return self.error(request, str(exc), exc.status)
        if isinstance(exc, BodyTooLarge):
            return self.error(request, f"{exc}: refused", 413)
        if isinstance(exc, NotFound):
            return self.error(request, str(exc), 404)
        if isinstance(exc, InvalidInput | ValueError):
            return self.error(request, str(exc), 400)
        if isinstance(exc, StoreError | EmbedderError):
            return self.error(request, str(exc), 503)
        if isinstance(exc, HTTPException):
            messages = {
                404: f"there is no page at {request.url.path}",
                405: f"{request.method} is not how {request.url.path} is used",
            }
            return self.error(request, messages.get(exc.status_code, exc.detail), exc.status_code)
        return self.page(
            request,
            "error.html",
            500,
            title="Internal error",
            message="the inspector failed on this request; nothing was "
            "changed by the failed step. The server's log has the details.",
        )


def _number(text: str, name: str, kind: type[int] | type[float], low: float, high: float) -> Any:
    try:
        value = kind(text.strip())
    except ValueError:
        raise BadInput(f"{name} must be a number, not {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
        raise BadInput(f"{name} must be between {low:g} and {high:g}, not {text}")
    return value


def _decider(given: str) -> str:
    """Who decided, as recorded: `ui:<name>` (as the MCP server records `mcp:<name>`)."""
    who = " ".join(given.split())
    if not who:
        raise BadInput("say who decided (your name): it is recorded with the decision")
    if len(who) > MAX_DECIDER_CHARS:
        raise BadInput(f"who decided is at most {MAX_DECIDER_CHARS} characters")
    return f"{DECIDED_BY_PREFIX}:{who}"


def _target(fields: dict[str, str]) -> tuple[str, str]:
    given = [(t, fields[t].strip()) for t in ("id", "subject", "episode") if fields.get(t)]
    if len(given) != 1:
        raise BadInput("say what to forget: exactly one of id, subject or episode")
    return given[0]


def build_app(memory: Memory, *, token: str, hosts: Iterable[str] | None = None) -> Any:
    """The inspector for `memory`'s scope, as an ASGI app that requires `token` (a browser
    signs in once at /login; scripts send `Authorization: Bearer <token>`). With `hosts`,
    a request whose Host header names another host is refused (421): a page of another
    site cannot reach the server through a name it resolves to this machine."""
    ui = Inspector(memory, token)
    routes = [
        Route("/", ui.index),
        Route("/subject", ui.subject),
        Route("/search", ui.search),
        Route("/fact/{fact_id}", ui.fact),
        Route("/fact/{fact_id}/retract", ui.retract, methods=["POST"]),
        Route("/conflicts", ui.conflicts),
        Route("/conflicts/resolve", ui.resolve, methods=["POST"]),
        Route("/rejections", ui.rejections),
        Route("/rejections/remember", ui.remember, methods=["POST"]),
        Route("/remember", ui.add, methods=["POST"]),
        Route("/fact/{fact_id}/correct", ui.correct, methods=["POST"]),
        Route("/forget", ui.forget_confirm, methods=["GET"]),
        Route("/forget/confirm", ui.forget, methods=["POST"]),
        Route("/export", ui.export),
        Route("/style.css", ui.style),
        Route("/login", ui.login, methods=["GET", "POST"]),
        Route("/logout", ui.logout, methods=["POST"]),
    ]
    handlers: dict[Any, Any] = {Exception: ui.on_error, HTTPException: ui.on_error}
    for kind in (BadInput, BodyTooLarge, InvalidInput, ValueError, StoreError, EmbedderError):
        handlers[kind] = ui.on_error
    app = Starlette(routes=routes, exception_handlers=handlers)
    return Limits(Guard(app, ui.gate, ui.refuse), hosts=hosts)
