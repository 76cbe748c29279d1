"""What the CLI's command modules share: the usage error, the subcommand adder, and how a
memory is opened from the global options (how --json writes times is `credo.isotime`).
`cli.py` builds the parser and runs a command; the modules that own a group of commands
(`cli_ingest`, `cli_eval`, `cli_time`, `mcp`, `serve`, `ui.server`) import from here, never
from `cli`.

Imports stay light: `credo --version` and `--help` load this module and nothing heavy."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .config import Settings

if TYPE_CHECKING:
    from .memory import Memory

Handler = Callable[[argparse.Namespace, "Memory"], int]
#: a command that opens no memory of its own choosing from the global options (eval, mcp)
StandaloneHandler = Callable[[argparse.Namespace, Settings], int]


class UsageError(Exception):
    """A command was called wrongly; printed as a message, exit status 2."""


class CommandAdder:
    """Adds a subcommand with its handler and the common --json flag. Modules that own a
    group of commands (ingestion, evaluation, the MCP server) get one and add theirs."""

    def __init__(self, sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        self.sub = sub

    def __call__(
        self, name: str, handler: Handler, help_: str, *, read: bool = True
    ) -> argparse.ArgumentParser:
        p = self.sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(handler=handler, standalone=None)
        p.add_argument(
            "--json", action="store_true", help="print JSON" if read else "print the result as JSON"
        )
        return p

    def standalone(
        self, name: str, handler: StandaloneHandler, help_: str
    ) -> argparse.ArgumentParser:
        """A command that gets the settings and opens what it needs itself."""
        p = self.sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(handler=None, standalone=handler)
        return p


def check_db(db: str, *, create: bool) -> None:
    """A database file named (by --db or $CREDO_DB) in a directory that does not exist is
    most likely a typo: an error, unless `create`. The default location is always made."""
    from pathlib import Path

    from .config import default_db_path

    if "://" in db or db == ":memory:" or create or db == str(default_db_path()):
        return
    folder = Path(db).expanduser().parent
    if not folder.exists():
        raise UsageError(
            f"--db {db}: the directory {folder} does not exist (a typo?). Add --create to "
            "make it and a new database in it"
        )


def open_memory(args: argparse.Namespace, settings: Settings) -> Memory:
    from . import cache
    from .embed import get_embedder

    # the write path's modules compile their patterns when imported, each time the same:
    # their programs are read from `credo.cache` where it is on (patterns made from what a
    # user says are compiled later, never here, so none of it is written to the cache)
    with cache.patterns_kept():
        from .memory import Memory
    from .policy import load_policy, policy_path_for
    from .store import open_store

    embedder = get_embedder(args.embedder or settings.embedder, **settings.embedder_options)
    db = args.db or settings.db
    check_db(db, create=getattr(args, "create", False))
    args.db_in_use = db
    policy = load_policy(policy_path_for(db))  # before opening: a bad file costs nothing
    store = open_store(db, embedder)
    return Memory(store, scope=args.scope or settings.scope, policy=policy)


def clipped(message: str, longest: int = 200) -> str:
    """An error message with any word longer than `longest` characters (a value the user
    gave, echoed back: a 20,000-character scope or path) shortened in its middle."""
    return re.sub(
        rf"\S{{{longest + 1},}}",
        lambda m: m.group(0)[: longest // 2] + "..." + m.group(0)[-longest // 4 :],
        message,
    )
