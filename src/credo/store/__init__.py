"""Stores: the `Store` contract, the SQLite default and the PostgreSQL backend.

Files credo creates are private whatever the umask: a database file (and so the -wal and
-shm files SQLite makes beside it, which take the database file's mode) is 0600, and a
directory created to hold one is 0700. Files and directories that already exist keep
their mode.
"""

from __future__ import annotations

import os
from pathlib import Path

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
from .files import (
    PRIVATE_DIR,
    PRIVATE_FILE,
    SQLITE_SIDECARS,
    create_private_file,
    make_private_dirs,
    open_private,
    private_sqlite,
)


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def _sqlite_file(url: str) -> Path | None:
    """The file a SQLite url names, or None for an in-memory or temporary database."""
    if url in ("", ":memory:") or url.startswith("file:"):
        return None
    return Path(url)


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
            created = private_sqlite(path)
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
