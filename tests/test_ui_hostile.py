"""`credo ui` against hostile clients, over real sockets to a real server (issue 24).

- a body larger than the cap is refused before it is read, on every route, with and
  without a token, whether its size is declared (Content-Length) or not (chunked): the
  server's memory does not grow with it;
- a client that sends its headers slowly is cut off;
- a Host header that does not name the server is refused (421), as the MCP server does;
- a session expires, and ends at sign-out for every copy of its cookie.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="needs the ui extra: pip install 'credo[ui]'")
pytest.importorskip("uvicorn", reason="needs the ui extra: pip install 'credo[ui]'")

import credo  # noqa: E402
from credo.httpserve import HEADER_SECONDS  # noqa: E402
from credo.ui.auth import MAX_BODY_BYTES, SESSION_SECONDS, TokenGate, host_of  # noqa: E402

SRC = str(Path(credo.__file__).resolve().parents[1])
TOKEN = "ui-hostile-token-" + "z" * 24


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """(port, pid) of `credo ui` on a fresh SQLite file."""
    tmp = tmp_path_factory.mktemp("ui")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC, CREDO_MCP_TOKEN=TOKEN)
    db = tmp / "ui.db"
    subprocess.run(
        [sys.executable, "-m", "credo.cli", "--db", str(db), "remember", "Arttu lives in Berlin"],
        env=env,
        check=True,
        capture_output=True,
    )
    port = free_port()
    log = (tmp / "ui.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "credo.cli", "--db", str(db), "ui", "--port", str(port)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"credo ui exited: {(tmp / 'ui.log').read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("credo ui did not listen")
            time.sleep(0.05)
    try:
        yield port, process.pid
    finally:
        process.kill()
        process.wait()
        assert "Traceback" not in (tmp / "ui.log").read_text(errors="replace")


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) if match else 0


def exchange(port: int, head: str, body: bytes = b"", timeout: float = 20.0) -> tuple[int, bytes]:
    """Send a raw request (headers, then body) and read the answer: (status, raw bytes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head.encode("latin-1") + b"\r\n" + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        length = re.search(rb"content-length: (\d+)", data, re.IGNORECASE)
        if length:  # the whole body
            want = data.index(b"\r\n\r\n") + 4 + int(length.group(1))
            while len(data) < want:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data


def headers(port: int, method: str, path: str, *extra: str, host: str | None = None) -> str:
    host = f"127.0.0.1:{port}" if host is None else host
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", *extra]
    return "\r\n".join(lines) + "\r\n"


ROUTES = ["/login", "/logout", "/conflicts/resolve", "/forget/confirm", "/", "/nowhere"]


@pytest.mark.parametrize("authorized", [False, True])
@pytest.mark.parametrize("path", ROUTES)
def test_a_declared_large_body_is_refused_unread(
    server: tuple[int, int], path: str, authorized: bool
) -> None:
    port, pid = server
    auth = [f"Authorization: Bearer {TOKEN}"] if authorized else []
    head = headers(
        port,
        "POST",
        path,
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {200 * 1024 * 1024}",
        *auth,
    )
    before = rss_kib(pid)
    started = time.monotonic()
    status, _ = exchange(port, head, b"token=" + b"a" * 65536)
    assert status == 413 and time.monotonic() - started < 5
    assert rss_kib(pid) - before < 20 * 1024


@pytest.mark.parametrize("authorized", [False, True])
def test_a_chunked_body_is_cut_off_at_the_cap(server: tuple[int, int], authorized: bool) -> None:
    """No Content-Length: the server reads at most the cap and answers; 200 MB offered."""
    port, pid = server
    auth = [f"Authorization: Bearer {TOKEN}"] if authorized else []
    path = "/conflicts/resolve" if authorized else "/login"
    head = headers(
        port,
        "POST",
        path,
        "Content-Type: application/x-www-form-urlencoded",
        "Transfer-Encoding: chunked",
        *auth,
    )
    before = rss_kib(pid)
    chunk = b"%x\r\n%s\r\n" % (65536, b"a" * 65536)
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head.encode() + b"\r\n")
        try:
            while sent < 200 * 1024 * 1024:
                sock.sendall(chunk)
                sent += 65536
                sock.setblocking(False)
                try:
                    answer += sock.recv(65536)
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
                if answer:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(20)
        try:
            while b"\r\n\r\n" not in answer:
                more = sock.recv(65536)
                if not more:
                    break
                answer += more
        except (ConnectionResetError, TimeoutError):
            pass
    assert sent < 50 * 1024 * 1024, "the server kept reading"
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert rss_kib(pid) - before < 30 * 1024


@pytest.mark.slow
def test_slow_headers_are_cut_off(server: tuple[int, int]) -> None:
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=HEADER_SECONDS + 20) as sock:
        started = time.monotonic()
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        try:
            while sock.recv(1024):
                pass
        except ConnectionResetError:
            pass
        waited = time.monotonic() - started
    assert HEADER_SECONDS - 1 <= waited < HEADER_SECONDS + 10


@pytest.mark.parametrize(
    "host, status",
    [
        ("evil.example", 421),
        ("evil.example:{port}", 421),
        ("127.0.0.1.evil.example", 421),
        ("", 421),
        ("127.0.0.1:{port}", 200),
        ("localhost:{port}", 200),
        ("[::1]:{port}", 200),
    ],
)
def test_the_host_header_must_name_this_server(
    server: tuple[int, int], host: str, status: int
) -> None:
    port, _ = server
    head = headers(port, "GET", "/", f"Authorization: Bearer {TOKEN}", host=host.format(port=port))
    assert exchange(port, head)[0] == status


def _cookie(raw: bytes) -> str:
    match = re.search(rb"set-cookie: (credo_ui_session=[^;]+)", raw, re.IGNORECASE)
    assert match, raw[:500]
    return match.group(1).decode()


def test_sign_out_ends_the_session_for_every_copy_of_the_cookie(server: tuple[int, int]) -> None:
    port, _ = server
    body = f"token={TOKEN}".encode()
    status, raw = exchange(
        port,
        headers(
            port,
            "POST",
            "/login",
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(body)}",
        ),
        body,
    )
    assert status == 303 and b"Max-Age=" in raw
    cookie = _cookie(raw)
    assert TOKEN not in cookie
    assert exchange(port, headers(port, "GET", "/", f"Cookie: {cookie}"))[0] == 200
    _, page = exchange(port, headers(port, "GET", "/conflicts", f"Cookie: {cookie}"))
    csrf = re.search(rb'name="csrf" value="([^"]+)"', page)
    assert csrf
    form = b"csrf=" + csrf.group(1)
    status, _ = exchange(
        port,
        headers(
            port,
            "POST",
            "/logout",
            f"Cookie: {cookie}",
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(form)}",
        ),
        form,
    )
    assert status == 303
    # a copy of the cookie kept from before the sign-out (another tab, a thief) is dead
    assert exchange(port, headers(port, "GET", "/", f"Cookie: {cookie}"))[0] == 401


def test_a_session_expires() -> None:
    now = [1000.0]
    gate = TokenGate(TOKEN, clock=lambda: now[0])
    session = gate.start_session()
    assert gate.session_ok(session) and not gate.session_ok(session + "x")
    now[0] += SESSION_SECONDS - 1
    assert gate.session_ok(session)
    now[0] += 2
    assert not gate.session_ok(session)
    many = [gate.start_session() for _ in range(1000)]  # bounded: the oldest go first
    assert gate.session_ok(many[-1]) and not gate.session_ok(many[0])


def test_host_of() -> None:
    assert host_of("[::1]:8766") == "::1"
    assert host_of("LOCALHOST:80") == "localhost"
    assert host_of("127.0.0.1") == "127.0.0.1"
    assert MAX_BODY_BYTES >= 12_096  # the largest form fits
