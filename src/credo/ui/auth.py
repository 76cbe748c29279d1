"""Who may use the inspector: the bearer token of `credo.httpauth`, carried by a browser as
a session cookie after it logs in once, and a CSRF token on every form that changes
anything.

Neither cookie nor form holds the token itself: the session is a random id the server
keeps (it expires after `SESSION_SECONDS` and ends at sign-out, for every copy of the
cookie), and the CSRF token an HMAC of the token, compared in constant time. The cookie
is HttpOnly and SameSite=Strict, so another site can neither read it nor make the browser
send it.

Before any of that, every request is checked by `Limits`: its Host header must name this
server (as the MCP server checks it: a DNS-rebinding page gets 421), and its body may be
no larger than `MAX_BODY_BYTES`, refused before it is read, with or without a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

COOKIE = "credo_ui_session"
#: a session lasts this long from sign-in (8 hours), and ends at sign-out
SESSION_SECONDS = 8 * 3600
#: sessions kept at once: a new one past this ends the oldest
MAX_SESSIONS = 256
#: the largest request body any route reads (its largest form holds one fact)
MAX_BODY_BYTES = 16 * 1024
#: pages anyone may open: the login form and the stylesheet it uses
PUBLIC_PATHS = frozenset({"/login", "/style.css"})

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: every response: no framing, no sniffing, no referrer (URLs may name subjects), and
#: nothing but this server's own stylesheet (the pages run no script at all)
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


class TokenGate:
    """Checks a request against one server token, and keeps the sessions signed in with it."""

    def __init__(self, token: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._token = token.encode()
        self.csrf = self._mac(b"credo-ui-csrf")
        self.clock = clock
        #: the digest of each live session's id, and when it ends
        self._sessions: dict[str, float] = {}

    def _mac(self, label: bytes) -> str:
        return hmac.new(self._token, label, hashlib.sha256).hexdigest()

    def token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self._token)

    def csrf_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())

    @staticmethod
    def _key(session: str) -> str:
        return hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()

    def start_session(self) -> str:
        """A new session's id (for the cookie), valid for SESSION_SECONDS."""
        now = self.clock()
        self._sessions = {k: end for k, end in self._sessions.items() if end > now}
        while len(self._sessions) >= MAX_SESSIONS:
            self._sessions.pop(min(self._sessions, key=self._sessions.__getitem__))
        session = secrets.token_urlsafe(32)
        self._sessions[self._key(session)] = now + SESSION_SECONDS
        return session

    def end_session(self, session: str | None) -> None:
        if session is not None:
            self._sessions.pop(self._key(session), None)

    def session_ok(self, session: str | None) -> bool:
        if session is None:
            return False
        key = self._key(session)  # a dict lookup by a digest: no timing to learn from
        end = self._sessions.get(key)
        if end is None:
            return False
        if end <= self.clock():
            self._sessions.pop(key, None)
            return False
        return True

    def allowed(self, conn: HTTPConnection) -> bool:
        """A live session from /login, or `Authorization: Bearer <token>` (for scripts)."""
        if self.session_ok(conn.cookies.get(COOKIE)):
            return True
        scheme, _, value = conn.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and self.token_ok(value.strip())


class BodyTooLarge(Exception):
    """A request body grew past MAX_BODY_BYTES while a route read it."""


def host_of(header: str) -> str:
    """The host a Host header names, lower-cased, without its port ('[::1]:80' -> '::1')."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allowed_hosts(host: str) -> frozenset[str] | None:
    """The Host header values a server listening on `host` answers, as the MCP server
    decides them: on loopback the names of loopback only (a page of another site whose
    name resolves to 127.0.0.1, DNS rebinding, is refused); None (any) on an address
    other machines reach, where the token guards every request and no cookie follows a
    rebinding name."""
    from ..httpauth import is_loopback

    if not is_loopback(host):
        return None
    return frozenset({host.strip("[]").lower(), "127.0.0.1", "localhost", "::1"})


class Limits:
    """ASGI middleware before anything else: the Host header must be one of `hosts` (None:
    any), and the body at most `max_body` bytes: a declared Content-Length over it is
    answered 413 unread, and a body that grows past it while read raises BodyTooLarge."""

    def __init__(
        self, app: ASGIApp, *, hosts: Iterable[str] | None, max_body: int = MAX_BODY_BYTES
    ) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts) if hosts is not None else None
        self.max_body = max_body

    @staticmethod
    async def _answer(send: Send, status: int, text: str) -> None:
        body = text.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        if self.hosts is not None:
            host = host_of(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.hosts:
                await self._answer(send, 421, "Invalid Host header: this server does not serve it")
                return
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size < 0 or size > self.max_body:
                await self._answer(
                    send, 413, f"the request body is over {self.max_body} bytes: refused unread"
                )
                return
        seen = 0
        limit = self.max_body

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(f"the request body is over {limit} bytes")
            return message

        await self.app(scope, capped, send)


class Guard:
    """ASGI middleware: a request without the session or the token gets `refuse`'s answer
    (the login page, status 401); every response gets SECURITY_HEADERS."""

    def __init__(self, app: ASGIApp, gate: TokenGate, refuse: ASGIApp) -> None:
        self.app = app
        self.gate = gate
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        if scope["path"] in PUBLIC_PATHS or self.gate.allowed(HTTPConnection(scope)):
            await self.app(scope, receive, send_with_headers)
        else:
            await self.refuse(scope, receive, send_with_headers)
