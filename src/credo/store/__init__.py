"""Stores: the `Store` contract, the SQLite default and the PostgreSQL backend."""

from __future__ import annotations

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


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str, embedder: Embedder) -> Store:
    """A file path (or ':memory:') opens SQLite; a postgresql:// URL opens PostgreSQL."""
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

    return SQLiteStore(url, embedder)


__all__ = [
    "Conflict",
    "ForgetReport",
    "Rejection",
    "Rule",
    "ScopeError",
    "Store",
    "StoreError",
    "check_scope",
    "is_postgres_url",
    "open_store",
]
