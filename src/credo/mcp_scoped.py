"""`credo mcp --http --tokens PATH`: many scopes behind one MCP server, each client bound
to its scope by its token.

The token table is `credo serve`'s (`credo.access`), with one rule more: an MCP token
names exactly one scope (no pattern, no admin), since no tool takes a scope. Each token
gets the very server `credo mcp` builds for one scope (`credo.mcp.build_server`, over a
`Memory` of that scope), made on the token's first request and kept; a request is handed
to the server of the token it carries, so what a client can reach is what a one-scope
server would let it reach, and nothing else. Decisions its client makes are recorded as
`mcp:<token name>`.

All the servers share one store (calls on it take turns, as `AsyncMemory` runs them).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from .access import Grant, TokenTable
from .errors import InvalidInput
from .gate import GatePolicy
from .memory import Memory
from .store.base import Store

__all__ = ["build_scoped_app", "check_mcp_tokens"]

_UNAUTHORIZED = (
    b'{"error": "invalid_token", "error_description": "send Authorization: Bearer <token> '
    b'with a token this server knows"}'
)


def check_mcp_tokens(tokens: TokenTable) -> None:
    """Refuses (InvalidInput) a table with a token an MCP server cannot bind to one scope."""
    for grant in tokens.grants():
        if grant.single_scope is None:
            raise InvalidInput(
                f"token {grant.name!r}: an MCP client is bound to one scope by its token, so "
                "each token of `credo mcp --tokens` names exactly one scope (no '*', no admin)"
            )


class _Dispatch:
    """The ASGI endpoint at /mcp: the bearer token picks the scope's server."""

    def __init__(
        self, store: Store, tokens: TokenTable, policy: GatePolicy, host: str, path: str
    ) -> None:
        self.store = store
        self.tokens = tokens
        self.policy = policy
        self.host = host
        self.path = path
        self.apps: dict[str, Any] = {}
        self.task_group: Any = None
        self._lock: Any = None

    async def app_for(self, grant: Grant) -> Any:
        import anyio

        from .mcp import build_server

        if grant.name in self.apps:
            return self.apps[grant.name]
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            if grant.name not in self.apps:
                scope = grant.single_scope
                assert scope is not None  # check_mcp_tokens
                memory = Memory(self.store, scope=scope, policy=self.policy)
                server = build_server(memory, decided_by=f"mcp:{grant.name}")
                app = server.streamable_http_app(host=self.host, streamable_http_path=self.path)
                await self.task_group.start(_run_sessions, server.session_manager)
                self.apps[grant.name] = app
        return self.apps[grant.name]

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        from starlette.datastructures import Headers

        grant = self.tokens.grant(Headers(scope=scope).get("authorization"))
        if grant is None or grant.single_scope is None:
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"www-authenticate", b'Bearer error="invalid_token"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _UNAUTHORIZED})
            return
        app = await self.app_for(grant)
        await app(scope, receive, send)


async def _run_sessions(manager: Any, *, task_status: Any) -> None:
    import anyio

    async with manager.run():
        task_status.started()
        await anyio.sleep_forever()


def build_scoped_app(
    store: Store,
    tokens: TokenTable,
    *,
    policy: GatePolicy | None = None,
    host: str = "127.0.0.1",
    path: str = "/mcp",
) -> Any:
    """The streamable-HTTP MCP app at `path` for every token of `tokens`, each bound to
    the one scope its grant names."""
    import anyio
    from starlette.applications import Starlette
    from starlette.routing import Route

    check_mcp_tokens(tokens)
    dispatch = _Dispatch(store, tokens, policy or GatePolicy(), host, path)

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            dispatch.task_group = tg
            try:
                yield
            finally:
                tg.cancel_scope.cancel()

    return Starlette(routes=[Route(path, endpoint=dispatch)], lifespan=lifespan)
