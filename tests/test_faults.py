"""Fault injection (issue 24): each fault ends in the library's own error, which says what
to do, and nothing is lost or half-written.

- PostgreSQL restarted mid-use (`pg_ctl restart -m fast` of a private, throwaway server
  this module starts in a temporary directory: the shared test server is never touched):
  an open `Memory` keeps working, `credo mcp` answers recall and `credo ui` its pages
  after the restart; while the server is down, calls fail with `StoreUnavailable` (a
  `StoreError`), never a raw psycopg error. Skipped, saying why, where initdb is missing.
- A full disk (a small tmpfs mounted for the test where this user may mount one, else a
  database capped with SQLite's max_page_count): writes end in `DiskFull` saying the
  disk is full, nothing half-written and nothing stored before lost; opening and reading
  a database on the full disk never calls it "not a credo database"; writes work again
  once there is space.
- kill -9 mid-write: `tests/test_vector_index.py::test_index_after_a_writer_killed_mid_write_matches_the_table`
  and `tests/test_concurrency.py`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import credo
from credo.cli import main
from credo.embed import HashEmbedder
from credo.memory import Memory
from credo.store import open_store
from credo.store.base import DiskFull, StoreError, StoreUnavailable

SRC = str(Path(credo.__file__).resolve().parents[1])
PGBIN = Path(os.environ.get("CREDO_PG_BIN", "/usr/lib/postgresql/15/bin"))
TOKEN = "fault-token-" + "y" * 24


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- a private PostgreSQL ---------------------------------------------------------------------
@dataclass
class PrivateServer:
    """A throwaway PostgreSQL in a temporary directory, on a port of its own."""

    root: Path
    port: int
    user: list[str]  # the command prefix that runs a server binary as a non-root user

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            [*self.user, str(PGBIN / "pg_ctl"), "-D", str(self.root / "data"), "-w", "-t", "60"]
            + ["-l", str(self.root / "log"), "-o", options, *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def restart(self) -> None:
        self.ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self.ctl("-m", "fast", "stop")

    def start(self) -> None:
        self.ctl("start")


@pytest.fixture(scope="module")
def pg() -> Iterator[PrivateServer]:
    if not (PGBIN / "initdb").exists() or not (PGBIN / "pg_ctl").exists():
        pytest.skip(f"no initdb/pg_ctl in {PGBIN} to start a private PostgreSQL (set CREDO_PG_BIN)")
    user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the server as postgres
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL as postgres")
        user = [runuser, "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="credo-pg-"))
    if user:
        shutil.chown(root, "postgres")
    server = PrivateServer(root, free_port(), user)
    try:
        subprocess.run(
            [*user, str(PGBIN / "initdb"), "-D", str(root / "data"), "-A", "trust"]
            + ["-U", "postgres", "--no-sync", "-E", "UTF8"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        server.start()
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"could not start a private PostgreSQL: {exc.stderr or exc}")
    try:
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            server.ctl("-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


def _schema() -> str:
    return "f_" + os.urandom(6).hex()


@pytest.mark.slow
def test_an_open_memory_keeps_working_after_postgres_restarts(pg: PrivateServer) -> None:
    from credo.store.postgres import PostgresStore

    store = PostgresStore(pg.dsn, HashEmbedder(), schema=_schema())
    mem = Memory(store, scope="a")
    try:
        mem.remember("Arttu lives in Berlin")
        mem.remember("Mia uses Postgres")
        for round_ in range(3):
            pg.restart()
            hits = mem.recall("where does Arttu live")  # reads retry on a new connection
            assert hits and hits[0].fact.text == "Arttu lives in Berlin"
            assert len(mem.list()) == 2 + round_
            pg.restart()
            stored = mem.remember(f"Noor prefers tea number {round_}")  # a write, at once
            assert stored.accepted
        pg.restart()
        report = mem.forget(subject="Noor")
        assert report.facts == 3
        assert sorted(f.text for f in mem.list()) == ["Arttu lives in Berlin", "Mia uses Postgres"]
        # while the server is down: the library's error, saying what to do
        pg.stop()
        try:
            for call in (
                lambda: mem.recall("Arttu"),
                lambda: mem.remember("Arttu likes coffee"),
                lambda: mem.list(),
            ):
                with pytest.raises(StoreUnavailable, match="try again") as caught:
                    call()
                assert isinstance(caught.value, StoreError)
                assert "psycopg" not in str(caught.value)
        finally:
            pg.start()
        assert len(mem.list()) == 2  # nothing half-written while it was down
        assert mem.remember("Arttu likes coffee").accepted
    finally:
        with contextlib.suppress(Exception):
            store.drop_schema()
        store.close()


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC, **extra)
    return env


@pytest.mark.slow
def test_credo_mcp_and_credo_ui_answer_after_postgres_restarts(
    pg: PrivateServer, tmp_path: Path
) -> None:
    schema = _schema()
    dsn = f"{pg.dsn}?options=-csearch_path%3D{schema}"
    with psycopg_connect(pg.dsn) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    assert main(["--db", dsn, "--embedder", "hash", "remember", "Arttu lives in Berlin"]) == 0

    mcp = subprocess.Popen(
        [sys.executable, "-m", "credo.cli", "--db", dsn, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "mcp.log").open("wb"),
        env=_env(),
    )
    port = free_port()
    ui = subprocess.Popen(
        [sys.executable, "-m", "credo.cli", "--db", dsn, "ui", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "ui.log").open("wb"),
        env=_env(CREDO_MCP_TOKEN=TOKEN),
    )
    try:
        rpc = Rpc(mcp)
        rpc.call(
            "initialize",
            protocolVersion="2025-06-18",
            capabilities={},
            clientInfo={"name": "t", "version": "1"},
        )
        rpc.notify("notifications/initialized")

        def recall() -> dict[str, Any]:
            got = rpc.call(
                "tools/call", name="recall", arguments={"query": "where does Arttu live"}
            )
            assert not got.get("isError"), got
            return dict(got["structuredContent"])

        def page() -> tuple[int, str]:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/search?q=Berlin",
                headers={"Authorization": f"Bearer {TOKEN}"},
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as exc:
                return exc.code, exc.read().decode()

        wait_listening(port, ui, tmp_path / "ui.log")
        assert "Berlin" in recall()["rendered"]
        assert page()[0] == 200
        pg.restart()
        assert "Berlin" in recall()["rendered"]  # no traceback, no error: it reconnected
        status, body = page()
        assert status == 200 and "Arttu lives in Berlin" in body
        pg.stop()
        try:
            got = rpc.call("tools/call", name="recall", arguments={"query": "Arttu"})
            assert got["isError"] and "try again" in got["content"][0]["text"], got
            status, body = page()
            assert status == 503 and "try again" in body
        finally:
            pg.start()
        assert "Berlin" in recall()["rendered"]
        assert page()[0] == 200
    finally:
        for process in (mcp, ui):
            process.kill()
            process.wait()
    for log in ("mcp.log", "ui.log"):
        text = (tmp_path / log).read_text(errors="replace")
        assert "Traceback" not in text and "OperationalError" not in text, text[-3000:]


def psycopg_connect(dsn: str) -> Any:
    import psycopg

    return psycopg.connect(dsn, autocommit=True)


def wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited: {log.read_text(errors='replace')}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        time.sleep(0.05)
    pytest.fail("the server did not listen")


class Rpc:
    """JSON-RPC over a stdio server's pipes, with a deadline on every reply."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.next_id = 0

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def notify(self, method: str, **params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        import select

        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, f"no reply to {method}"
        reply = json.loads(self.process.stdout.readline())
        assert reply.get("id") == self.next_id and "result" in reply, reply
        return dict(reply["result"])


# -- a full disk --------------------------------------------------------------------------------
@contextlib.contextmanager
def small_disk(tmp_path: Path) -> Iterator[Path | None]:
    """A 4 MiB tmpfs at a fresh directory (None where this user may not mount one)."""
    where = tmp_path / "small"
    where.mkdir()
    mounted = (
        not os.environ.get("CREDO_TEST_NO_MOUNT")  # to try the fallback
        and shutil.which("mount") is not None
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(where)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ).returncode
        == 0
    )
    try:
        yield where if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(where)], check=False)


def fill(directory: Path) -> Path:
    """Fill the file system holding `directory` to the last byte."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_says_so_and_loses_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_disk(tmp_path) as disk:
        db = (disk or tmp_path) / "credo.db"
        mem = Memory(open_store(db, HashEmbedder()), scope="a")
        for text in ("Arttu lives in Berlin", "Mia uses Postgres", "Noor prefers oolong tea"):
            assert mem.remember(text).accepted
        before = sorted(f.to_dict()["id"] for f in mem.list())
        if disk is not None:
            filler = fill(disk)
        else:  # no mount: the database may grow no further (SQLite's own limit)
            pages = mem.store._conn.execute("PRAGMA page_count").fetchone()[0]  # type: ignore[attr-defined]
            mem.store._conn.execute(f"PRAGMA max_page_count = {pages}")  # type: ignore[attr-defined]
        refused = 0
        for n in range(200):  # the WAL takes what it can before the disk refuses
            try:
                mem.remember(f"Person{n} lives in a town called Placename{n} " + "z" * 300)
            except DiskFull as exc:
                assert "disk holding it is full" in str(exc) and "try again" in str(exc)
                assert "cannot rollback" not in str(exc)
                refused += 1
                if refused >= 3:
                    break
        assert refused >= 3, "the disk never filled"
        kept = sorted(f.to_dict()["id"] for f in mem.list())
        assert set(before) <= set(kept)  # nothing stored before was lost
        for fact in mem.list():  # and nothing half-written: every fact is whole
            assert fact.text and mem.store.vectors_of([fact.id], scope="a")
        mem.store.close()
        if disk is not None:
            # a new process on the full disk: the error says the disk is full, never that
            # the file is not a credo database
            status = main(["--db", str(db), "--embedder", "hash", "--scope", "a", "list"])
            err = capsys.readouterr().err
            if status:
                assert "full" in err and "not a credo database" not in err, err
                assert "Traceback" not in err
            status = main(
                [
                    "--db",
                    str(db),
                    "--embedder",
                    "hash",
                    "--scope",
                    "a",
                    "remember",
                    "Ilse lives in Graz",
                ]
            )
            err = capsys.readouterr().err
            assert status == 1 and "full" in err and "not a credo database" not in err, err
            assert "cannot rollback" not in err
            filler.unlink()
        again = Memory(open_store(db, HashEmbedder()), scope="a")
        try:
            assert set(kept) == {f.id for f in again.list()}
            if disk is None:
                again.store._conn.execute("PRAGMA max_page_count = 1073741823")  # type: ignore[attr-defined]
            assert again.remember("Ilse lives in Graz").accepted  # space again: it works
            check = again.store._conn.execute("PRAGMA integrity_check").fetchone()[0]  # type: ignore[attr-defined]
            assert check == "ok"
        finally:
            again.store.close()


def test_a_disk_io_error_is_not_called_a_foreign_file(tmp_path: Path) -> None:
    """Only a file SQLite says is not a database is "not a credo database"."""
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(StoreError, match="not a credo database"):
        open_store(bogus, HashEmbedder())
    with pytest.raises(sqlite3.Error):  # sanity: SQLite itself says so
        sqlite3.connect(bogus).execute("SELECT 1 FROM sqlite_master")
