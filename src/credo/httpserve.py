"""What every credo HTTP server shares (`credo ui`, `credo serve`, `credo mcp --http`): a
deadline on request headers, the cap on connections served at once, and the address it
prints."""

from __future__ import annotations

from typing import Any

#: seconds a client has to send a request's headers (on a new connection, and between
#: requests on a kept-alive one): a slow sender is cut off, not waited for
HEADER_SECONDS = 10
#: connections served at once; more are answered 503
MAX_CONNECTIONS = 100


def header_timeout_protocol(seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's h11 protocol with a deadline on headers: a connection that has not sent a
    whole request's headers within `seconds` of opening (or of the last response, on a
    kept-alive one) is closed. uvicorn alone would wait for ever for a first request's
    headers sent a byte at a time (slowloris)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimeoutProtocol(H11Protocol):
        _timer: Any = None
        _waiting_after: Any = None  # the request cycle before the one awaited

        def _arm(self) -> None:
            self._disarm()
            self._waiting_after = self.cycle
            self._timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.cycle is self._waiting_after and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not self._waiting_after:  # a request's headers came in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol


def listen_url(host: str, port: int, path: str = "/") -> str:
    """The address a server on `host`:`port` answers at, an IPv6 host in brackets."""
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}{path}"
