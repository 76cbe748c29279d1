"""Shared fixtures. Tests use real databases (a SQLite file in tmp_path, and PostgreSQL
when CREDO_TEST_PG_DSN names a server) and deterministic fakes for models. No test may
reach the network: connections to anything but loopback fail loudly."""

from __future__ import annotations

import ipaddress
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from credo.embed import HashEmbedder
from credo.memory import Memory
from credo.store.base import Store

PG_DSN = os.environ.get("CREDO_TEST_PG_DSN", "")
BACKENDS = ["sqlite", "postgres"]

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: Any) -> Any:
    host = address[0] if isinstance(address, tuple) else None
    if host is not None and self.family in (socket.AF_INET, socket.AF_INET6):
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = host == "localhost"
        if not loopback:
            raise RuntimeError(f"tests must not touch the network (tried {address!r})")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)


@pytest.fixture(autouse=True)
def _own_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No test reads or writes the user's own credo files: the user data directory (the
    default database) and the user config directory (a PostgreSQL database's gate policy)
    are fresh directories for each test, and the shell's `CREDO_DB` and `CREDO_SCOPE` are
    not read. So tests that run side by side (`pytest -n auto`) never share them either.
    The command line's cache (credo.cache) is one directory for the test session: what
    is in it never changes a result, and a fresh one per test would only be slower."""
    monkeypatch.setenv("CREDO_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "credo-cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
    monkeypatch.delenv("CREDO_DB", raising=False)
    monkeypatch.delenv("CREDO_SCOPE", raising=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`pg` on every test that runs on PostgreSQL: a [postgres] case of the `backend`
    fixture, tests/test_postgres_store.py, and each test named for PostgreSQL."""
    for item in items:
        if "postgres" in item.nodeid.lower():
            item.add_marker(pytest.mark.pg)


def make_store(backend: str, tmp_path: Path, embedder: Any = None) -> Store:
    embedder = embedder or HashEmbedder()
    if backend == "sqlite":
        from credo.store.sqlite import SQLiteStore

        return SQLiteStore(tmp_path / "credo.db", embedder)
    if not PG_DSN:
        pytest.skip(
            "PostgreSQL tests need CREDO_TEST_PG_DSN (bash scripts/ci-postgres.sh "
            "prints one; .ci/run sets it)"
        )
    from credo.store.postgres import PostgresStore

    return PostgresStore(PG_DSN, embedder, schema=f"t_{uuid.uuid4().hex[:12]}")


def drop_store(store: Store) -> None:
    drop = getattr(store, "drop_schema", None)
    if drop is not None:
        drop()
    store.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(backend: str, tmp_path: Path) -> Iterator[Store]:
    s = make_store(backend, tmp_path)
    try:
        yield s
    finally:
        drop_store(s)


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    s = make_store("sqlite", tmp_path)
    yield s
    s.close()


@pytest.fixture
def memory(store: Store) -> Memory:
    return Memory(store, scope="default")


def new_scope() -> str:
    return "s-" + uuid.uuid4().hex[:8]
