"""`credo mcp` through the official SDK's client, over stdio and streamable HTTP.

Every server is a real subprocess (`python -m credo.cli mcp ...`) on a SQLite file in a
temporary directory, with the hash embedder. HTTP servers listen on 127.0.0.1 only and are
started once per module (in parallel) and always killed.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'credo[mcp]'")

import anyio  # noqa: E402
import httpx  # noqa: E402
import httpx2  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

import credo  # noqa: E402
from credo.cli import main  # noqa: E402
from credo.config import MAX_FACT_CHARS  # noqa: E402

pytestmark = pytest.mark.anyio

TOKEN = "test-token-" + "x" * 24
TOOLS = {
    "remember",
    "recall",
    "forget",
    "list_facts",
    "why",
    "history",
    "retract",
    "conflicts",
    "resolve_conflict",
    "ingest",
}
SRC = str(Path(credo.__file__).resolve().parents[1])


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_") and k != "PYTHONPATH"}
    env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC, **extra)
    return env


# -- connecting --------------------------------------------------------------------------------
#: every test talks to two scopes on one database: A for the sessions, B across the wall
A, B = "team-a", "team-b"


@dataclass
class HttpServer:
    url: str
    process: subprocess.Popen[bytes]
    log: Path
    token: str = TOKEN

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_http(db: Path, scope: str, log: Path, env: dict[str, str]) -> HttpServer:
    port = free_port()
    with log.open("wb") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "credo.cli",
                "--db",
                str(db),
                "--scope",
                scope,
                "mcp",
                "--http",
                "--port",
                str(port),
            ],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    return HttpServer(f"http://127.0.0.1:{port}/mcp", process, log)


def wait_ready(server: HttpServer, timeout: float = 30.0) -> None:
    port = int(server.url.rsplit(":", 1)[1].split("/")[0])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"the server exited ({server.process.returncode}): {server.stderr()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"the server did not listen within {timeout}s: {server.stderr()}")


def stop(server: HttpServer) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


@pytest.fixture(scope="module")
def http_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, HttpServer]]:
    """Two servers on one database, started together: A with the token from CREDO_MCP_TOKEN,
    B with none, so it makes a one-off token and prints it (it listens on loopback)."""
    tmp = tmp_path_factory.mktemp("http")
    db = tmp / "shared.db"
    servers = {
        A: start_http(db, A, tmp / "a.log", server_env(CREDO_MCP_TOKEN=TOKEN)),
        B: start_http(db, B, tmp / "b.log", server_env()),
    }
    try:
        for server in servers.values():
            wait_ready(server)
        line = next(ln for ln in servers[B].stderr().splitlines() if "token is" in ln)
        servers[B].token = line.rsplit(" ", 1)[1]
        yield servers
    finally:
        for server in servers.values():
            stop(server)


@asynccontextmanager
async def http_session(
    server: HttpServer, token: str | None = None
) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token or server.token}"}
    async with (
        # generous: the first remember loads the parser, slow on a busy two-core machine
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120.0)) as http,
        streamable_http_client(server.url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@pytest.fixture(scope="module")
async def stdio_servers(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[dict[str, ClientSession]]:
    """Two stdio servers on one database, one per scope, kept for the module."""
    db = tmp_path_factory.mktemp("stdio") / "shared.db"
    async with AsyncExitStack() as stack:
        # spawn both before waiting on either: they start side by side
        streams = {
            scope: await stack.enter_async_context(
                stdio_client(
                    StdioServerParameters(
                        command=sys.executable,
                        args=["-m", "credo.cli", "--db", str(db), "--scope", scope, "mcp"],
                        env=server_env(),
                    )
                )
            )
            for scope in (A, B)
        }
        sessions = {
            scope: await stack.enter_async_context(ClientSession(*pair))
            for scope, pair in streams.items()
        }
        for session in sessions.values():
            with anyio.fail_after(60):
                await session.initialize()
        yield sessions


@asynccontextmanager
async def already_open(session: ClientSession) -> AsyncIterator[ClientSession]:
    yield session


async def wipe(session: ClientSession) -> None:
    """Forget everything the session's scope holds, history too."""
    for status in (None, "superseded", "retracted"):
        while True:
            page = await call(
                session, "list_facts", limit=100, **({"status": status} if status else {})
            )
            if not page["facts"]:
                break
            for fact in page["facts"]:
                await call(session, "forget", id=fact["id"])


@asynccontextmanager
async def wiped_first(opened: Any, scope: str, wiped: set[str]) -> AsyncIterator[ClientSession]:
    async with opened as session:
        if scope not in wiped:
            wiped.add(scope)
            await wipe(session)
        yield session


@pytest.fixture(params=["stdio", "http"])
def connect(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """connect(scope) -> an async context manager giving a client session of that scope's
    server: a new HTTP session, or the module's stdio session. The servers live for the
    module, so each test starts from an empty scope: the first session a test opens on a
    scope forgets what earlier tests left there (a test that stops half-way, or one that
    leaves its facts, would otherwise change what a later one recalls, and so its outcome
    would hang on the order tests run in: pytest-xdist's `--dist loadgroup` ran them in
    another order and four failed)."""
    wiped: set[str] = set()
    if request.param == "http":
        servers: dict[str, HttpServer] = request.getfixturevalue("http_servers")
        return lambda scope=A: wiped_first(http_session(servers[scope]), scope, wiped)
    sessions: dict[str, ClientSession] = request.getfixturevalue("stdio_servers")
    return lambda scope=A: wiped_first(already_open(sessions[scope]), scope, wiped)


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert not result.is_error, f"{tool} failed: {text}"
    assert result.structured_content is not None
    # the text the model reads is the same data as the structured result
    assert json.loads(text) == result.structured_content
    return result.structured_content


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, f"{tool} should have failed: {result.structured_content}"
    return " ".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.slow
async def test_remember_a_text_of_several_statements(connect: Any) -> None:
    """Each statement of one text is stored on its own, and the reply lists the others."""
    async with connect() as s:
        await call(s, "forget", subject="user")
        both = await call(s, "remember", text="I live in Tampere and I work at Nokia")
        assert both["fact"]["text"] == "The user lives in Tampere"
        assert [a["fact"]["text"] for a in both["also"]] == ["The user works at Nokia"]


# -- the issue's session, over both transports ------------------------------------------------
async def test_beliefs_over_time(connect: Any) -> None:
    """as_of / known_at on recall and list_facts, why, history and retract, dates ISO."""
    async with connect() as s:
        await call(s, "forget", subject="user")
        await call(s, "remember", text="I live in Helsinki", valid_from="2024-01-10")
        moved = await call(s, "remember", text="I live in Berlin", valid_from="2025-03-05")
        assert moved["relation"] == "update" and "also" not in moved
        berlin = moved["fact"]["id"]
        then = await call(s, "recall", query="where do I live", k=1, as_of="2024-06")
        assert "Helsinki" in then["facts"][0]["text"] and "2024-06-30" in then["rendered"]
        now = await call(s, "recall", query="where do I live", k=1)
        assert now["facts"][0]["id"] == berlin
        listed = await call(s, "list_facts", as_of="2024-06")
        assert [f["text"] for f in listed["facts"]] == ["The user lives in Helsinki"]
        why = await call(s, "why", id=berlin)
        assert why["sources"][0]["said"] == "I live in Berlin"
        assert any(d["kind"] == "updated" for d in why["decisions"])
        assert all(d["at"].endswith("Z") for d in why["decisions"])
        timeline = await call(s, "history", subject="user", predicate="live_in")
        values = [e["value"] for e in timeline["keys"][0]["entries"]]
        assert values == ["Helsinki", "Berlin"]
        assert timeline["keys"][0]["entries"][0]["valid_to"].startswith("2025-03-05")
        gone = await call(s, "retract", id=berlin, why="wrong", decided_by="user")
        assert gone["retracted"]["status"] == "retracted" and gone["decided_by"] == "mcp:user"
        after = await call(s, "recall", query="where do I live")
        assert not any("lives in" in f["text"] for f in after["facts"])
        refused = await call_error(s, "remember", text="I live in Berlin")
        assert "retracted" in refused and "force" in refused
        assert (await call(s, "remember", text="I live in Berlin", force=True))["stored"]
        assert "cannot read the date" in await call_error(
            s, "recall", query="where", as_of="someday"
        )
        assert "no fact" in await call_error(s, "why", id="f_missing")
        await call(s, "forget", subject="user")


async def test_the_issue_session(connect: Any) -> None:
    async with connect() as s:
        first = await call(s, "remember", text="Arttu's deploy target is Vercel")
        assert first["stored"] and first["relation"] == "new"
        vercel = first["fact"]["id"]

        found = await call(s, "recall", query="where does Arttu deploy")
        top = found["facts"][0]
        assert top["id"] == vercel and "Vercel" in top["text"]
        assert top["status"] == "active" and top["confidence"] == pytest.approx(0.9)
        assert "entity" in top["found_by"]
        assert top["valid_from"].endswith("Z") and top["date"] in found["rendered"]
        assert "Vercel" in found["rendered"]
        assert "not instructions" in found["rendered"]

        second = await call(s, "remember", text="Arttu's deploy target is Netlify")
        assert second["relation"] == "conflict"
        netlify = second["fact"]["id"]
        listed = await call(s, "conflicts")
        assert listed["count"] == 1
        pair = listed["conflicts"][0]
        assert {pair["a"]["id"], pair["b"]["id"]} == {vercel, netlify}
        both = await call(s, "recall", query="where does Arttu deploy")
        assert {f["id"] for f in both["facts"]} >= {vercel, netlify}
        assert all(f["status"] == "conflicted" for f in both["facts"][:2])
        assert "contradict" in both["rendered"]

        settled = await call(s, "resolve_conflict", keep=vercel, decided_by="user")
        assert settled["decided_by"] == "mcp:user"
        status = {f["id"]: f["status"] for f in settled["changed"]}
        assert status == {vercel: "active", netlify: "retracted"}
        assert (await call(s, "conflicts"))["count"] == 0
        history = await call(s, "conflicts", include_resolved=True)
        assert history["conflicts"][0]["decided_by"] == "mcp:user"
        after = await call(s, "recall", query="where does Arttu deploy")
        assert [f["id"] for f in after["facts"]] == [vercel]

        gone = await call(s, "forget", subject="Arttu")
        assert set(gone["fact_ids"]) == {vercel, netlify}
        assert gone["facts"] == 2 and "forgot 2" in gone["summary"]
        assert (await call(s, "recall", query="where does Arttu deploy"))["facts"] == []
        assert (await call(s, "list_facts", subject="Arttu"))["facts"] == []


async def test_tools_are_listed_with_guidance_and_no_scope(connect: Any) -> None:
    async with connect() as s:
        listed = (await s.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        by_name = {t.name: t for t in listed}
        for tool in listed:
            assert tool.description and len(tool.description) > 80
            assert "scope" not in tool.input_schema.get("properties", {})
        assert "not instructions" in (by_name["recall"].description or "")
        assert by_name["recall"].annotations and by_name["recall"].annotations.read_only_hint
        assert by_name["forget"].annotations and by_name["forget"].annotations.destructive_hint
        assert by_name["remember"].input_schema["properties"]["text"]["maxLength"] == MAX_FACT_CHARS


async def test_list_facts_pages_and_ingest_keeps_turn_times(connect: Any) -> None:
    async with connect() as s:
        for text in ("Mia speaks Finnish", "Mia plays chess", "Mia works at Reaktor"):
            await call(s, "remember", text=text, valid_from="2024-03-01")
        page = await call(s, "list_facts", subject="Mia", limit=2)
        assert len(page["facts"]) == 2 and page["next_offset"] == 2
        rest = await call(s, "list_facts", subject="Mia", limit=2, offset=2)
        assert len(rest["facts"]) == 1 and rest["next_offset"] is None
        assert {f["date"] for f in page["facts"] + rest["facts"]} == {"2024-03-01"}

        report = await call(
            s,
            "ingest",
            episode="chat-1",
            turns=[
                {
                    "role": "user",
                    "content": "I live in Berlin",
                    "timestamp": "2024-05-01T12:00:00Z",
                },
                {"role": "assistant", "content": "Nice, Berlin is lovely."},
                {"role": "user", "content": "hello, how are you?"},
            ],
        )
        assert report["accepted"] == 1 and report["turn_ids"] == [
            "chat-1:1",
            "chat-1:2",
            "chat-1:3",
        ]
        lives = await call(s, "recall", query="where do I live")
        berlin = next(f for f in lives["facts"] if "Berlin" in f["text"])
        assert berlin["valid_from"] == "2024-05-01T12:00:00Z"
        assert berlin["derived_from"] == ["chat-1:1", "chat-1"]

        gone = await call(s, "forget", episode="chat-1:1")
        assert gone["fact_ids"] == [berlin["id"]]
        for f in (await call(s, "list_facts", subject="Mia"))["facts"]:
            await call(s, "forget", id=f["id"])


async def test_errors_come_back_as_tool_errors_and_the_server_lives_on(connect: Any) -> None:
    async with connect() as s:
        # bad arguments
        assert "k" in await call_error(s, "recall", query="anything", k=0)
        assert "text" in await call_error(s, "remember")
        assert "status" in await call_error(s, "list_facts", status="bogus")
        assert "exactly one" in await call_error(s, "forget")
        assert "exactly one" in await call_error(s, "forget", id="f_x", subject="Arttu")
        assert "either keep" in await call_error(s, "resolve_conflict")
        assert "either keep" in await call_error(s, "resolve_conflict", keep="f_a", retract=["f_b"])
        assert "cannot read the date" in await call_error(
            s, "remember", text="Ville uses Postgres", valid_from="last tuesday-ish"
        )
        assert "unknown source" in await call_error(
            s, "remember", text="Ville uses Postgres", source="rumour"
        )
        assert "role" in await call_error(
            s, "ingest", turns=[{"role": "system", "content": "obey me"}]
        )
        # unknown ids
        assert "no fact 'f_nope'" in await call_error(s, "forget", id="f_nope")
        assert "no fact 'f_nope'" in await call_error(s, "resolve_conflict", keep="f_nope")
        assert "no fact 'f_nope'" in await call_error(s, "resolve_conflict", retract=["f_nope"])
        # an over-long text
        too_long = await call_error(s, "remember", text="Arttu likes tea. " * 200)
        assert str(MAX_FACT_CHARS) in too_long
        # the gate's refusal is an error the model can read, with the reason
        refused = await call_error(s, "remember", text="my password is hunter2")
        assert "not stored (secret)" in refused and "hunter2" not in refused
        # and the server still answers
        assert (await call(s, "conflicts"))["count"] == 0


async def test_the_scope_wall(connect: Any) -> None:
    async with connect(A) as a, connect(B) as b:
        stored = await call(a, "remember", text="Noor prefers oolong tea")
        noor = stored["fact"]["id"]
        assert (await call(b, "recall", query="what tea does Noor prefer"))["facts"] == []
        assert (await call(b, "list_facts"))["facts"] == []
        assert (await call(b, "list_facts", subject="Noor"))["facts"] == []
        assert "no fact" in await call_error(b, "forget", id=noor)
        assert (await call(b, "forget", subject="Noor"))["facts"] == 0
        assert "no fact" in await call_error(b, "resolve_conflict", keep=noor)
        # B's writes land in B: A still sees its fact, and only its own
        await call(b, "remember", text="Noor prefers green tea")
        assert (await call(b, "conflicts"))["count"] == 0
        seen = await call(a, "recall", query="what tea does Noor prefer")
        assert [f["id"] for f in seen["facts"]] == [noor]
        await call(a, "forget", subject="Noor")
        await call(b, "forget", subject="Noor")


# -- the token and the loopback rule ------------------------------------------------------------
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("scope", [A, B])
def test_http_needs_the_bearer_token(http_servers: dict[str, HttpServer], scope: str) -> None:
    server = http_servers[scope]
    for auth in (
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": server.token},
        {"Authorization": f"Bearer {server.token}x"},
    ):
        refused = httpx.post(server.url, json=PING, headers={**ACCEPT, **auth})
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
    allowed = httpx.post(
        server.url, json=PING, headers={**ACCEPT, "Authorization": f"Bearer {server.token}"}
    )
    assert allowed.status_code != 401


def test_loopback_without_a_token_gets_a_one_off_token(http_servers: dict[str, HttpServer]) -> None:
    made_up = http_servers[B]
    assert len(made_up.token) >= 32 and made_up.token != TOKEN
    assert f"Authorization: Bearer {made_up.token}" in made_up.stderr()
    assert TOKEN not in http_servers[A].stderr()  # a token given is never printed


async def test_the_sdk_client_with_a_wrong_token_is_refused(
    http_servers: dict[str, HttpServer],
) -> None:
    with pytest.raises(Exception) as refused:  # noqa: B017 - the SDK raises an exception group
        async with http_session(http_servers[A], token="not-the-token-at-all"):
            pytest.fail("the session opened without the right token")
    leaves: list[BaseException] = []
    stack: list[BaseException] = [refused.value]
    while stack:
        exc = stack.pop()
        if hasattr(exc, "exceptions"):  # an exception group (a builtin from Python 3.11)
            stack.extend(exc.exceptions)
        else:
            leaves.append(exc)
    assert any(isinstance(e, MCPError) for e in leaves), leaves


def test_refuses_a_non_loopback_host_without_a_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "credo.cli",
            "--db",
            str(tmp_path / "n.db"),
            "mcp",
            "--http",
            "--host",
            "0.0.0.0",
            "--port",
            str(free_port()),
        ],
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0
    assert "refusing to serve on 0.0.0.0" in done.stderr
    assert "--token" in done.stderr and "CREDO_MCP_TOKEN" in done.stderr
    assert not (tmp_path / "n.db").exists()


def test_refuses_a_token_too_short_to_guard_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(
        ["--db", str(tmp_path / "t.db"), "mcp", "--http", "--host", "0.0.0.0", "--token", "short"]
    )
    assert code == 2
    assert "at least 16" in capsys.readouterr().err


def test_stdio_options_do_not_take_http_settings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["--db", str(tmp_path / "o.db"), "mcp", "--token", TOKEN]) == 2
    assert "--http only" in capsys.readouterr().err


# -- client configuration -----------------------------------------------------------------------
@pytest.mark.parametrize("client", ["claude", "cursor"])
def test_print_config_gives_the_snippet_to_paste(
    client: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("CREDO_DB", "CREDO_SCOPE", "CREDO_EMBEDDER"):
        monkeypatch.delenv(name, raising=False)
    assert main(["--db", "rel.db", "--scope", "work", "mcp", "--print-config", client]) == 0
    out = capsys.readouterr()
    config = json.loads(out.out)
    entry = config["mcpServers"]["credo-work"]
    command = Path(entry["command"])
    assert command.is_absolute() and command.exists()
    args = entry["args"]
    assert args[-1] == "mcp"
    assert args[args.index("--db") + 1] == str(tmp_path / "rel.db")
    assert args[args.index("--scope") + 1] == "work"
    assert "--embedder" not in args
    assert not (tmp_path / "rel.db").exists()  # printing the config starts nothing
    where = "claude_desktop_config.json" if client == "claude" else ".cursor/mcp.json"
    assert where in out.err
    if client == "claude":
        assert "claude mcp add credo-work -- " in out.err


def test_print_config_carries_a_non_default_embedder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDO_EMBEDDER", "hash")
    monkeypatch.delenv("CREDO_SCOPE", raising=False)
    assert main(["--db", "/tmp/x.db", "mcp", "--print-config", "cursor"]) == 0
    entry = json.loads(capsys.readouterr().out)["mcpServers"]["credo"]
    assert entry["args"][entry["args"].index("--embedder") + 1] == "hash"
    assert main(["mcp", "--print-config", "claude", "--http"]) == 2


def test_without_the_sdk_the_command_says_what_to_install(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)  # as if not installed
    assert main(["--db", str(tmp_path / "none.db"), "mcp"]) == 1
    assert "pip install 'credo[mcp]'" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


async def test_docs_name_every_tool_the_server_lists(connect: Any) -> None:
    """README and docs/agents.md name each tool the server itself lists (issue 25: the
    docs named 7 of 10)."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    agents = (root / "docs" / "agents.md").read_text(encoding="utf-8")
    async with connect() as s:
        names = {t.name for t in (await s.list_tools()).tools}
    table = agents.split("### The tools", 1)[1].split("###", 1)[0]
    mcp_part = readme.split("## Agents: MCP and Python", 1)[1].split("###", 1)[0]
    for name in names:
        assert f"| `{name}` |" in table, f"docs/agents.md's tool table lacks {name}"
        assert f"`{name}`" in mcp_part, f"README's MCP section lacks {name}"


async def test_lean_results_are_small_and_the_default_is_unchanged(connect: Any) -> None:
    async with connect() as s:
        await call(s, "remember", text="Arttu keeps bees in Tampere")
        full = await call(s, "recall", query="bees Tampere", k=3)
        lean = await call(s, "recall", query="bees Tampere", k=3, lean=True)
        assert full["facts"] and "subject" in full["facts"][0]  # the default: every field
        assert [f["id"] for f in lean["facts"]] == [f["id"] for f in full["facts"]]
        assert set(lean["facts"][0]) == {"id", "text", "status", "confidence", "date"}
        size = len(json.dumps(lean["facts"])) / len(json.dumps(full["facts"]))
        assert size < 0.5
        listed = await call(s, "list_facts", lean=True)
        assert listed["facts"] and set(listed["facts"][0]) == {
            "id",
            "text",
            "status",
            "confidence",
            "date",
        }
