"""`credo mcp --http --tokens`: many scopes behind one MCP server, each client bound to
its scope by its token, through the official SDK's client.

On SQLite the server is the real command in a subprocess; on PostgreSQL the same app
(`credo.mcp_scoped.build_scoped_app`) is served by uvicorn on a thread, over a schema of
its own. Both listen on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'credo[mcp]'")

import httpx  # noqa: E402
import httpx2  # noqa: E402
import uvicorn  # noqa: E402
from conftest import drop_store, make_store  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

import credo  # noqa: E402
from credo.access import parse_tokens, token_digest  # noqa: E402
from credo.cli import main  # noqa: E402
from credo.mcp_scoped import build_scoped_app  # noqa: E402

pytestmark = pytest.mark.anyio

ANNA = "anna-token-" + "a" * 24
BEN = "ben-token-" + "b" * 24
BEN_PHONE = "ben-phone-" + "p" * 24
TABLE = f"""
tokens:
  - {{name: anna, sha256: {token_digest(ANNA)}, scopes: [anna]}}
  - {{name: ben-laptop, sha256: {token_digest(BEN)}, scopes: [ben]}}
  - {{name: ben-phone, sha256: {token_digest(BEN_PHONE)}, scopes: [ben]}}
"""
SRC = str(Path(credo.__file__).resolve().parents[1])
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, alive: Any, log: Any) -> None:
    deadline = time.monotonic() + 60
    while True:
        if not alive():
            pytest.fail(f"the server exited: {log()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not listen: {log()}")
            time.sleep(0.05)


@pytest.fixture(params=["sqlite", "postgres"])
def server_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    if request.param == "sqlite":
        table = tmp_path / "tokens.yaml"
        table.write_text(TABLE)
        env = {
            k: v for k, v in os.environ.items() if not k.startswith("CREDO_") and k != "PYTHONPATH"
        }
        env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC)
        log = tmp_path / "mcp.log"
        with log.open("wb") as err:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "credo.cli",
                    "--db",
                    str(tmp_path / "m.db"),
                    "mcp",
                    "--http",
                    "--port",
                    str(port),
                    "--tokens",
                    str(table),
                ],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        try:
            wait_listening(port, lambda: process.poll() is None, log.read_text)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            process.wait(timeout=10)
        return
    store = make_store("postgres", tmp_path)
    app = build_scoped_app(store, parse_tokens(TABLE, where="test"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_listening(port, thread.is_alive, lambda: "")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(15)
        drop_store(store)


@asynccontextmanager
async def session(url: str, token: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120.0)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as s,
    ):
        result = await s.initialize()
        yield s, result  # type: ignore[misc]


async def call(s: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await s.call_tool(tool, arguments)
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert not result.is_error, f"{tool} failed: {text}"
    assert result.structured_content is not None
    return result.structured_content


async def test_each_client_is_bound_to_its_scope_by_its_token(server_url: str) -> None:
    async with (
        session(server_url, ANNA) as (anna, hello_anna),
        session(server_url, BEN) as (ben, hello_ben),
    ):
        # each client's server names its own scope, and no tool takes one
        assert "(anna)" in (hello_anna.instructions or "")
        assert "(ben)" in (hello_ben.instructions or "")
        for tool in (await anna.list_tools()).tools:
            assert "scope" not in tool.input_schema.get("properties", {})
        stored = await call(anna, "remember", text="Noor prefers oolong tea")
        noor = stored["fact"]["id"]
        assert (await call(ben, "recall", query="what tea does Noor prefer"))["facts"] == []
        assert (await call(ben, "list_facts"))["facts"] == []
        failed = await ben.call_tool("forget", {"id": noor})
        assert failed.is_error
        await call(ben, "remember", text="Noor prefers green tea")
        seen = await call(anna, "recall", query="what tea does Noor prefer")
        assert [f["text"] for f in seen["facts"]] == ["Noor prefers oolong tea"]
    # two tokens for one scope (a laptop and a phone) share it; decisions name the token
    async with session(server_url, BEN_PHONE) as (phone, _):
        facts = (await call(phone, "list_facts"))["facts"]
        assert [f["text"] for f in facts] == ["Noor prefers green tea"]
        done = await call(phone, "retract", id=facts[0]["id"], decided_by="ben")
        assert done["decided_by"] == "mcp:ben-phone:ben"


def test_an_unknown_token_is_refused(server_url: str) -> None:
    for auth in (
        {},
        {"Authorization": "Bearer not-a-token-of-this-server"},
        {"Authorization": ANNA},
    ):
        refused = httpx.post(server_url, json=PING, headers={**ACCEPT, **auth})
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert json.loads(refused.text)["error"] == "invalid_token"
    allowed = httpx.post(
        server_url, json=PING, headers={**ACCEPT, "Authorization": f"Bearer {ANNA}"}
    )
    assert allowed.status_code != 401


def test_an_mcp_token_must_name_one_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "tokens.yaml"
    table.write_text(
        f"tokens:\n  - {{name: backend, sha256: {token_digest(ANNA)}, scopes: ['user-*']}}\n"
    )
    code = main(
        ["--db", str(tmp_path / "m.db"), "mcp", "--http", "--port", "1", "--tokens", str(table)]
    )
    assert code == 2
    assert "exactly one scope" in capsys.readouterr().err
    code = main(["--db", str(tmp_path / "m.db"), "mcp", "--tokens", str(table)])
    assert code == 2
    assert "apply to --http only" in capsys.readouterr().err
