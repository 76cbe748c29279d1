"""Stores: the `Store` contract, the SQLite default and the PostgreSQL backend.

Files credo creates are private whatever the umask: a database file (and so the -wal and
-shm files SQLite makes beside it, which take the database file's mode) is 0600, and a
directory created to hold one is 0700. Files and directories that already exist keep
their mode.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TextIO

from ..embed import Embedder
from .base import (
    Conflict,
    ForgetReport,
    Rejection,
    Rule,
    ScopeError,
    Store,
    StoreError,
    check_scope,
)

#: the modes of what credo creates: readable and writable by its owner only
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
#: the files SQLite keeps beside a database in WAL mode
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def make_private_dirs(path: str | Path) -> list[Path]:
    """Create the directory `path` and its missing parents, each 0700 whatever the umask.
    Directories that exist are left as they are. Returns those it created."""
    path = Path(path)
    missing: list[Path] = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    created = []
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:  # made by someone else meanwhile: theirs, left alone
            continue
        os.chmod(directory, PRIVATE_DIR)  # mkdir's mode passes through the umask
        created.append(directory)
    return created


def _tighten(fd: int) -> None:
    """0600 for a regular file this user owns (never a device, a pipe or another's file)."""
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid():
        os.fchmod(fd, PRIVATE_FILE)


def create_private_file(path: str | Path) -> bool:
    """Create `path` empty and 0600 (whatever the umask) unless it exists; True if made."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    try:
        _tighten(fd)
    finally:
        os.close(fd)
    return True


def open_private(path: str | Path) -> TextIO:
    """`path` opened for writing text (created or truncated), 0600 before anything is
    written: for exports, which hold everything a scope knows. A missing parent directory
    is created 0700."""
    make_private_dirs(Path(path).parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    try:
        _tighten(fd)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def _sqlite_file(url: str) -> Path | None:
    """The file a SQLite url names, or None for an in-memory or temporary database."""
    if url in ("", ":memory:") or url.startswith("file:"):
        return None
    return Path(url)


def _private_sqlite(path: Path) -> bool:
    """Before SQLite opens `path`: its directory made (0700) and, if new, the database
    file created 0600, so that SQLite, which gives the -wal and -shm files the database
    file's mode, makes those 0600 too. True when the file was created here."""
    make_private_dirs(path.parent)
    created = create_private_file(path)
    if created:  # stale sidecars of a database deleted earlier: tightened too
        for suffix in SQLITE_SIDECARS:
            side = path.with_name(path.name + suffix)
            try:
                fd = os.open(side, os.O_RDONLY)
            except OSError:
                continue
            try:
                _tighten(fd)
            finally:
                os.close(fd)
    return created


def open_store(url: str | os.PathLike[str], embedder: Embedder) -> Store:
    """A file path (or ':memory:') opens SQLite; a postgresql:// URL opens PostgreSQL.

    A SQLite database created here is private: 0600, in directories created 0700."""
    if not isinstance(url, (str, os.PathLike)):
        raise StoreError(
            f"open_store needs a file path or a postgresql:// URL, not {type(url).__name__}"
        )
    url = os.fspath(url)
    if not isinstance(url, str):  # a bytes path
        raise StoreError("open_store needs the path as text, not bytes")
    if not url.strip():
        raise StoreError("open_store needs a file path or a postgresql:// URL, not ''")
    if is_postgres_url(url):
        try:
            from .postgres import PostgresStore
        except ImportError as exc:  # psycopg or pgvector missing
            raise StoreError(
                f"PostgreSQL support is not installed ({exc.name or exc}): "
                "pip install 'credo[postgres]'"
            ) from exc
        store: Store = PostgresStore(url, embedder)
        return store
    from .sqlite import SQLiteStore

    path = _sqlite_file(url)
    created = False
    if path is not None:
        try:
            created = _private_sqlite(path)
        except OSError as exc:
            raise StoreError(f"cannot create the database {url!r}: {exc}") from exc
    try:
        return SQLiteStore(url, embedder)
    except BaseException:
        if created and path is not None:  # an empty file made here and never used
            for leftover in (path, *(path.with_name(path.name + s) for s in SQLITE_SIDECARS)):
                leftover.unlink(missing_ok=True)
        raise


__all__ = [
    "Conflict",
    "ForgetReport",
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "Rejection",
    "Rule",
    "ScopeError",
    "Store",
    "StoreError",
    "check_scope",
    "create_private_file",
    "is_postgres_url",
    "make_private_dirs",
    "open_private",
    "open_store",
]
