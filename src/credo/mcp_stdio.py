"""`credo mcp` over stdio, answering every request, even one it cannot read.

The SDK's stdio transport hands a line it cannot parse to the session as an exception,
and the session drops it: a request whose JSON holds a lone surrogate escape ("\\ud800"),
or is nested deeper than the SDK's parser goes, got no reply at all, and the client
waited for ever. Here such a line is answered with a JSON-RPC error carrying the
request's id (found by a scan that needs neither the parser nor recursion), saying what
was wrong. Lines that parse go to the server untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

#: JSON-RPC's codes: the request could not be parsed / its parameters are not acceptable
PARSE_ERROR = -32700
INVALID_PARAMS = -32602
#: how much of a line the id scan reads: an id comes before any large value in practice
SCAN_CHARS = 1 << 20


def request_id(line: str) -> str | int | None:
    """The top-level "id" of a JSON-RPC line (a string or an integer), or None: a scan
    that tracks strings and nesting without parsing, so no depth or bad escape stops it."""
    depth = 0
    i, n = 0, min(len(line), SCAN_CHARS)
    key: str | None = None  # the last string read at depth 1, while it may be a key
    while i < n:
        ch = line[i]
        if ch == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            text = line[i + 1 : j]
            i = j + 1
            if depth == 1:
                rest = line[i:n].lstrip()
                key = text if rest.startswith(":") else None
            continue
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == ":" and depth == 1 and key == "id":
            value = line[i + 1 : i + 1 + 220].lstrip()
            if value.startswith('"'):
                end = value.find('"', 1)
                found = value[1:end] if end > 0 else ""
                return found if "\\" not in found else None
            digits = ""
            for c in value:
                if c.isdigit() or (c == "-" and not digits):
                    digits += c
                else:
                    break
            try:
                return int(digits)
            except ValueError:
                return None
        elif ch == "," and depth == 1:
            key = None
        i += 1
    return None


def unreadable(line: str, error: str) -> str:
    """Why a line could not be read, in words a client's user can act on."""
    if "recursion limit" in error:
        return (
            "the request is nested too deeply to read: tool arguments are flat values "
            "(text, numbers, lists of turns)"
        )
    if "surrogate" in error or "hex escape" in error:
        return (
            "the request holds a lone UTF-16 surrogate escape (such as \\ud800), which is "
            "not text: send the characters themselves, or whole surrogate pairs"
        )
    return f"the request is not valid JSON-RPC: {error[:200]}"


def error_reply(exc: Exception) -> Any | None:
    """The JSON-RPC error for a line the SDK's reader could not parse (None when the
    exception is not one of those: the session handles it as before)."""
    import mcp_types as types
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors(include_url=False)
    if not errors or errors[0].get("type") != "json_invalid":
        return None
    line = errors[0].get("input")
    if not isinstance(line, str):
        return None
    found = request_id(line)
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=found,
        error=types.ErrorData(
            code=INVALID_PARAMS if found is not None else PARSE_ERROR,
            message=unreadable(line, str(errors[0].get("msg", ""))),
        ),
    )


async def serve(server: MCPServer[Any]) -> None:
    """Run `server` over stdin and stdout, as `server.run("stdio")` does, answering lines
    that cannot be parsed (see the module's docstring)."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    lowlevel = server._lowlevel_server
    async with stdio_server() as (read_stream, write_stream):
        send, receive = create_context_streams[SessionMessage | Exception](0)

        async def sort() -> None:
            async with send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        reply = error_reply(item)
                        if reply is not None:
                            await write_stream.send(SessionMessage(reply))
                            continue
                    await send.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sort)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
            tasks.cancel_scope.cancel()


def run(server: MCPServer[Any]) -> None:
    import anyio

    anyio.run(serve, server)
