"""`credo mcp`: the command that serves a memory to MCP clients (`credo.mcp` builds the
server; `credo.mcp_scoped` serves many scopes behind one, each token bound to its scope).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from typing import TYPE_CHECKING, Any

from .config import Settings
from .errors import InvalidInput
from .httpauth import TOKEN_ENV, http_token
from .httpserve import header_timeout_protocol
from .mcp import DEFAULT_PORT, _require_sdk, build_server, client_config, given_token
from .memory import Memory

if TYPE_CHECKING:
    from .cli_common import CommandAdder

_WHERE = {
    "claude": "Paste it into Claude Desktop's claude_desktop_config.json (Settings > Developer "
    "> Edit Config), merging 'mcpServers', and restart Claude Desktop. For Claude "
    "Code, run:\n  claude mcp add {name} -- {command}",
    "cursor": "Paste it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this "
    "project), merging 'mcpServers'.",
}


def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    from .cli_common import UsageError, open_memory

    if args.print_config:
        if args.http:
            raise UsageError(
                "--print-config describes a server the client starts over stdio: drop --http"
            )
        embedder = args.embedder or (
            settings.embedder if settings.embedder != Settings.embedder else None
        )
        config = client_config(
            db=args.db or settings.db, scope=args.scope or settings.scope, embedder=embedder
        )
        print(json.dumps(config, indent=2))
        ((name, entry),) = config["mcpServers"].items()
        command = shlex.join([entry["command"], *entry["args"]])
        print(_WHERE[args.print_config].format(name=name, command=command), file=sys.stderr)
        return 0
    if not args.http and (args.host or args.port or args.token or args.token_file or args.tokens):
        raise UsageError("--host, --port, --token, --token-file and --tokens apply to --http only")
    _require_sdk()
    token: str | None = None
    tokens = None
    if args.http:
        from .access import load_tokens

        host = args.host or "127.0.0.1"
        try:
            tokens = load_tokens(args.tokens, os.environ, who="credo mcp")
            if tokens is not None and (args.token or args.token_file):
                raise UsageError("give --tokens (a table) or one token, not both")
            if tokens is None:
                token, made_up = http_token(host, given_token(args, os.environ))
        except InvalidInput as exc:
            raise UsageError(str(exc)) from exc
    memory = open_memory(args, settings)
    try:
        if tokens is not None:  # many scopes, each token bound to one (credo.mcp_scoped)
            return _serve_scoped(memory, tokens, host, args.port or DEFAULT_PORT)
        server = build_server(memory, token=token)
        if not args.http:
            from . import mcp_stdio

            mcp_stdio.run(server)  # server.run("stdio"), answering lines it cannot parse
            return 0
        import uvicorn

        port = args.port or DEFAULT_PORT
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/mcp"
        print(f"credo mcp: scope {memory.scope!r} at {url}", file=sys.stderr)
        if made_up:
            print(
                f"credo mcp: no --token or {TOKEN_ENV}; this run's token is {token}\n"
                f"  clients send: Authorization: Bearer {token}",
                file=sys.stderr,
            )
        app = server.streamable_http_app(host=host)
        uvicorn.Server(
            uvicorn.Config(
                app, host=host, port=port, log_level="warning", http=header_timeout_protocol()
            )
        ).run()
        return 0
    finally:
        memory.store.close()


def _serve_scoped(memory: Memory, tokens: Any, host: str, port: int) -> int:
    import uvicorn

    from .cli_common import UsageError
    from .mcp_scoped import build_scoped_app

    try:
        app = build_scoped_app(memory.store, tokens, policy=memory.policy, host=host)
    except InvalidInput as exc:
        raise UsageError(str(exc)) from exc
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/mcp"
    print(f"credo mcp: {len(tokens)} token(s), each bound to its scope, at {url}", file=sys.stderr)
    uvicorn.Server(
        uvicorn.Config(
            app, host=host, port=port, log_level="warning", http=header_timeout_protocol()
        )
    ).run()
    return 0


def register(command: CommandAdder) -> None:
    p = command.standalone(
        "mcp",
        cmd_mcp,
        "Serve the scope's memory to MCP clients (Claude Desktop, Claude Code, Cursor): over "
        "stdio, or over streamable HTTP with --http. The scope is fixed at start; with "
        "--http --tokens, many scopes are served, each client bound to its scope by its token.",
    )
    p.add_argument(
        "--http",
        action="store_true",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    p.add_argument(
        "--host",
        default=None,
        help="address to listen on (default 127.0.0.1); any non-loopback address needs a token",
    )
    p.add_argument("--port", type=int, default=None, help=f"port (default {DEFAULT_PORT})")
    tokens = p.add_mutually_exclusive_group()
    tokens.add_argument(
        "--token-file",
        metavar="PATH",
        default=None,
        help="read the bearer token HTTP clients must send from PATH (its "
        "first line; keep the file chmod 600)",
    )
    tokens.add_argument(
        "--token",
        default=None,
        help=f"the bearer token itself: visible to every user of the "
        f"machine, so it warns; prefer ${TOKEN_ENV} or --token-file "
        "(default: $CREDO_MCP_TOKEN; on loopback without any, a one-off "
        "token is made and printed)",
    )
    p.add_argument(
        "--tokens",
        metavar="PATH",
        default=None,
        help="with --http: serve many scopes, each client bound to its scope by its token: "
        "a token table (YAML or JSON; default $CREDO_SERVE_TOKENS) whose every token names "
        "one scope (see docs/api.md)",
    )
    p.add_argument(
        "--print-config",
        choices=["claude", "cursor"],
        default=None,
        help="print the JSON to paste into that client, and exit",
    )
