"""Who may use the inspector: the bearer token of `credo.httpauth`, carried by a browser as
a session cookie after it logs in once, and a CSRF token on every form that changes
anything.

Neither cookie nor form holds the token itself: the session value and the CSRF token are
HMACs of it, compared in constant time. The cookie is HttpOnly and SameSite=Strict, so
another site can neither read it nor make the browser send it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

COOKIE = "credo_ui_session"
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
    """Checks a request against one server token."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()
        self.session = self._mac(b"credo-ui-session")
        self.csrf = self._mac(b"credo-ui-csrf")

    def _mac(self, label: bytes) -> str:
        return hmac.new(self._token, label, hashlib.sha256).hexdigest()

    def token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self._token)

    def csrf_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())

    def allowed(self, conn: HTTPConnection) -> bool:
        """A session cookie from /login, or `Authorization: Bearer <token>` (for scripts)."""
        cookie = conn.cookies.get(COOKIE)
        if cookie is not None and hmac.compare_digest(cookie.encode(), self.session.encode()):
            return True
        scheme, _, value = conn.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and self.token_ok(value.strip())


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
