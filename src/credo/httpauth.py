"""The bearer token that guards credo's HTTP servers (`credo mcp --http`, `credo ui`).

One rule for both: the token comes from `--token-file PATH` (a file only its owner can
read), `CREDO_MCP_TOKEN`, or `--token` (which still works but warns, since every user of
the machine can read a command line). On a loopback host with none, a one-off token is
made (the server prints it); on any other host the server refuses to start without one.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any

from .errors import InvalidInput

__all__ = [
    "MAX_TOKEN_FILE_BYTES",
    "MIN_TOKEN_CHARS",
    "TOKEN_ENV",
    "given_token",
    "http_token",
    "is_loopback",
    "read_token_file",
    "warn_if_shared",
]

#: tokens shorter than this are refused: the token is all that guards a network-facing server
MIN_TOKEN_CHARS = 16
TOKEN_ENV = "CREDO_MCP_TOKEN"
#: a token file larger than this is not a token file
MAX_TOKEN_FILE_BYTES = 4096


def is_loopback(host: str) -> bool:
    """Whether `host` only accepts connections from this machine. A name other than
    localhost is not trusted to be: it may resolve to anything."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def http_token(host: str, token: str | None) -> tuple[str, bool]:
    """The token an HTTP server on `host` requires, and whether it was made up here.

    Refuses (InvalidInput) a non-loopback host without a token, and a token too short to
    guard anything."""
    if token:
        if len(token) < MIN_TOKEN_CHARS:
            raise InvalidInput(
                f"the token is {len(token)} characters; use at least {MIN_TOKEN_CHARS}, e.g. "
                "python -c 'import secrets; print(secrets.token_urlsafe(32))'"
            )
        return token, False
    if not is_loopback(host):
        raise InvalidInput(
            f"refusing to serve on {host if len(host) <= 100 else host[:100] + '...'}, which "
            "other machines can reach, without a token: "
            f"pass --token-file PATH or set {TOKEN_ENV} (clients then send 'Authorization: "
            "Bearer <token>'), or serve on 127.0.0.1"
        )
    return secrets.token_urlsafe(32), True


def _warn(who: str, message: str) -> None:
    print(f"{who}: warning: {message}", file=sys.stderr)


def warn_if_shared(path: Path, info: os.stat_result, *, who: str = "credo") -> None:
    """A warning (on stderr, prefixed with `who`) when the secret file `path` (whose
    `os.fstat` is `info`) can be read by group or others, or belongs to another user."""
    if info.st_mode & 0o077:
        _warn(
            who,
            f"{path} can be read by group or others (mode {info.st_mode & 0o777:04o}): "
            f"run chmod 600 {shlex.quote(str(path))}",
        )
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        _warn(who, f"{path} belongs to another user (uid {info.st_uid})")


def read_token_file(path: str | Path, *, who: str = "credo") -> str:
    """The token in `path` (its first line, spaces trimmed). The file should be readable
    by its owner only: a warning (on stderr, prefixed with `who`) says so when group or
    others can read it, or when it belongs to another user."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            info = os.fstat(fh.fileno())
            data = fh.read(MAX_TOKEN_FILE_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(
            f"cannot read the token file {str(path)!r}: {exc.strerror or exc}"
        ) from exc
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise InvalidInput(
            f"{path} is over {MAX_TOKEN_FILE_BYTES} bytes: not a token file "
            "(it should hold the token alone)"
        )
    warn_if_shared(path, info, who=who)
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path} is not text: it should hold the token alone") from exc
    token = lines[0].strip() if lines else ""
    if not token:
        raise InvalidInput(f"the token file {path} is empty")
    return token


def given_token(args: argparse.Namespace, env: Any, *, who: str = "credo") -> str | None:
    """The token the user gave: --token-file, $CREDO_MCP_TOKEN, or --token (which still
    works, with a warning: a command line is visible to every user of the machine)."""
    if getattr(args, "token", None):
        _warn(
            who,
            "--token puts the token on the command line, where every user of this "
            "machine can read it (ps, /proc/<pid>/cmdline): set "
            f"{TOKEN_ENV} or use --token-file PATH instead",
        )
        return str(args.token)
    if getattr(args, "token_file", None):
        return read_token_file(args.token_file, who=who)
    value = env.get(TOKEN_ENV)
    return str(value) if value else None
