"""`credo ui`: the inspector, served by uvicorn on loopback unless told otherwise.

The token rule is `credo mcp --http`'s (`credo.httpauth`): --token-file or
$CREDO_MCP_TOKEN; on loopback with neither, a one-off token is made and a sign-in link
printed; on any other host the command refuses to start without a token.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..config import Settings
from ..errors import InvalidInput
from ..httpauth import TOKEN_ENV, given_token, http_token
from ..httpserve import HEADER_SECONDS, MAX_CONNECTIONS, header_timeout_protocol, listen_url

if TYPE_CHECKING:
    from ..cli_common import CommandAdder

DEFAULT_PORT = 8766
EXTRA = "credo[ui]"


def require_packages() -> None:
    """Starlette, uvicorn and Jinja2, or an error naming the extra that brings them."""
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise InvalidInput(
            f"credo ui needs {exc.name or exc}, which the {EXTRA!r} extra installs: "
            f"pip install '{EXTRA}'"
        ) from exc


def cmd_ui(args: argparse.Namespace, settings: Settings) -> int:
    from ..cli_common import UsageError, open_memory

    require_packages()
    host = args.host or "127.0.0.1"
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {port}")
    try:
        token, made_up = http_token(host, given_token(args, os.environ, who="credo ui"))
    except InvalidInput as exc:
        raise UsageError(str(exc)) from exc
    memory = open_memory(args, settings)
    try:
        import uvicorn

        from .app import build_app
        from .auth import allowed_hosts

        app = build_app(memory, token=token, hosts=allowed_hosts(host))
        print(f"credo ui: scope {memory.scope!r} at {listen_url(host, port)}", file=sys.stderr)
        if made_up:
            print(
                f"credo ui: no --token-file or {TOKEN_ENV}; sign in with this run's "
                f"one-off token:\n  {listen_url(host, port, '/login?token=' + token)}",
                file=sys.stderr,
            )
        else:
            print(
                f"credo ui: sign in at {listen_url(host, port, '/login')} with the token",
                file=sys.stderr,
            )
        sys.stderr.flush()
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            http=header_timeout_protocol(),
            timeout_keep_alive=HEADER_SECONDS,
            limit_concurrency=MAX_CONNECTIONS,
        )
        uvicorn.Server(config).run()
        return 0
    finally:
        memory.store.close()


def register(command: CommandAdder) -> None:
    p = command.standalone(
        "ui",
        cmd_ui,
        "Serve the memory inspector: a local web page to browse, search, settle conflicts, "
        "review rejections, forget and export. Needs a sign-in token (see --token-file).",
    )
    p.add_argument(
        "--host",
        default=None,
        help="address to listen on (default 127.0.0.1); any non-loopback address needs a token",
    )
    p.add_argument("--port", type=int, default=None, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--token-file",
        metavar="PATH",
        default=None,
        help=f"read the sign-in token from PATH (its first line; keep the file chmod 600). "
        f"Default: ${TOKEN_ENV}; on loopback without either, a one-off token is made "
        "and a sign-in link printed",
    )
