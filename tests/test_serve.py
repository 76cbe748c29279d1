"""`credo serve`, the JSON API for many users, through a real HTTP client (httpx) against a
real uvicorn server on a free loopback port, over SQLite and PostgreSQL.

The stores use the hash embedder; on PostgreSQL the server gets three store connections
(one schema), so requests of different users run at once. Nothing here depends on timing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from conftest import PG_DSN, drop_store, make_store  # noqa: E402

import credo  # noqa: E402
from credo.access import TokenTable, parse_tokens, token_digest  # noqa: E402
from credo.cli import main  # noqa: E402
from credo.embed import HashEmbedder  # noqa: E402
from credo.serve import OPS, build_app, openapi  # noqa: E402
from credo.store.base import Store  # noqa: E402
from credo.testing import memory_for_tests  # noqa: E402

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$")
ALICE = "alice-token-" + "a" * 24
BOB = "bob-token-" + "b" * 24
BACKEND = "backend-token-" + "c" * 24
ADMIN = "admin-token-" + "d" * 24
TABLE = f"""
tokens:
  - name: alice-app
    sha256: {token_digest(ALICE)}
    scopes: [alice]
  - name: bob-app
    token: {BOB}
    scopes: [bob]
  - name: backend
    sha256: {token_digest(BACKEND)}
    scopes: ["user-*"]
  - name: ops
    sha256: {token_digest(ADMIN)}
    admin: true
"""
SRC = str(Path(credo.__file__).resolve().parents[1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Any) -> Iterator[str]:
    """`app` served by uvicorn on a thread, at the URL yielded; stopped after."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


def _stores(backend: str, tmp_path: Path) -> list[Store]:
    first = make_store(backend, tmp_path)
    if backend == "sqlite":
        return [first]
    from credo.store.postgres import PostgresStore

    schema = first.schema  # type: ignore[attr-defined]
    return [first, *(PostgresStore(PG_DSN, HashEmbedder(), schema=schema) for _ in range(2))]


@pytest.fixture
def served(backend: str, tmp_path: Path) -> Iterator[str]:
    stores = _stores(backend, tmp_path)
    app = build_app(stores, parse_tokens(TABLE, where="test"), hosts=["127.0.0.1"])
    try:
        with running(app) as url:
            yield url
    finally:
        for store in stores[1:]:
            store.close()
        drop_store(stores[0])


def client(url: str, token: str | None = ALICE) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # generous: the first remember loads the parser, slow on a busy two-core machine
    return httpx.Client(base_url=url + "/v1", headers=headers, timeout=120)


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def error(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def export_of(c: httpx.Client, scope: str) -> list[dict[str, Any]]:
    response = c.get(f"/scopes/{scope}/export")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    records = [json.loads(line) for line in response.text.splitlines()]
    return [r for r in records if r["type"] != "header"]


# -- the whole API, as a builder's session --------------------------------------------------
def test_the_issue_session(served: str, tmp_path: Path) -> None:
    with client(served) as c:
        first = ok(
            c.post("/scopes/alice/remember", json={"text": "Arttu's deploy target is Vercel"})
        )
        assert first["stored"] and first["relation"] == "new"
        vercel = first["fact"]["id"]

        found = ok(
            c.post(
                "/scopes/alice/recall", json={"query": "where does Arttu deploy", "render": True}
            )
        )
        assert found["facts"][0]["id"] == vercel and "entity" in found["facts"][0]["found_by"]
        assert "Vercel" in found["rendered"] and "not instructions" in found["rendered"]
        plain = ok(c.post("/scopes/alice/recall", json={"query": "where does Arttu deploy"}))
        assert "rendered" not in plain and plain["facts"][0]["id"] == vercel

        second = ok(
            c.post("/scopes/alice/remember", json={"text": "Arttu's deploy target is Netlify"})
        )
        assert second["relation"] == "conflict"
        netlify = second["fact"]["id"]
        listed = ok(c.get("/scopes/alice/conflicts"))
        assert listed["count"] == 1
        assert {listed["conflicts"][0]["a"]["id"], listed["conflicts"][0]["b"]["id"]} == {
            vercel,
            netlify,
        }

        settled = ok(c.post("/scopes/alice/resolve", json={"keep": vercel, "decided_by": "user"}))
        assert settled["decided_by"] == "api:alice-app:user"
        assert {f["id"]: f["status"] for f in settled["changed"]} == {
            vercel: "active",
            netlify: "retracted",
        }
        assert ok(c.get("/scopes/alice/conflicts"))["count"] == 0
        assert (
            ok(c.get("/scopes/alice/conflicts", params={"include_resolved": "true"}))["count"] == 1
        )

        assert (
            ok(c.get(f"/scopes/alice/facts/{vercel}"))["text"] == "Arttu's deploy target is Vercel"
        )
        why = ok(c.get(f"/scopes/alice/facts/{vercel}/why"))
        assert "Vercel" in json.dumps(why)
        history = ok(c.get("/scopes/alice/history", params={"subject": "Arttu"}))
        assert history["subject"] == "Arttu" and history["keys"]

        page = ok(c.get("/scopes/alice/facts", params={"limit": 1}))
        assert len(page["facts"]) == 1 and page["next_offset"] == 1
        retracted = ok(c.get("/scopes/alice/facts", params={"status": "retracted"}))
        assert [f["id"] for f in retracted["facts"]] == [netlify]

        lives = ok(c.post("/scopes/alice/remember", json={"text": "Arttu lives in Berlin"}))
        wrong = ok(
            c.post(f"/scopes/alice/facts/{lives['fact']['id']}/retract", json={"why": "never said"})
        )
        assert (
            wrong["retracted"]["status"] == "retracted" and wrong["decided_by"] == "api:alice-app"
        )

        told = ok(
            c.post(
                "/scopes/alice/ingest",
                json={
                    "episode": "chat-1",
                    "turns": [
                        {
                            "role": "user",
                            "content": "I work at Acme as a data engineer.",
                            "timestamp": "2024-05-01T12:00:00Z",
                        },
                        {"role": "assistant", "content": "Noted!"},
                    ],
                },
            )
        )
        assert told["episode"] == "chat-1" and told["turn_ids"] == ["chat-1:1", "chat-1:2"]
        assert told["accepted"] >= 1

        records = export_of(c, "alice")
        assert {r["id"] for r in records if r["type"] == "fact"} >= {vercel, netlify}
        assert all(r["scope"] == "alice" for r in records)
        # times as `credo export` writes them, and the file imports back whole
        times = [r[k] for r in records for k in ("created_at", "valid_from") if r.get(k)]
        assert times and all(ISO.match(t) for t in times), times
        copy = memory_for_tests(tmp_path / "copy.db", scope="alice")
        assert copy.import_(records).facts == sum(r["type"] == "fact" for r in records)
        made = {r["id"]: r["created_at"] for r in records if r["type"] == "fact"}
        assert {f.id: f.created_at for f in copy.list()} == {
            fid: pytest.approx(datetime.fromisoformat(at).timestamp(), abs=1e-6)
            for fid, at in made.items()
        }
        copy.store.close()

        gone = ok(c.post("/scopes/alice/forget", json={"subject": "Arttu"}))
        assert set(gone["fact_ids"]) >= {vercel, netlify}
        left = ok(c.post("/scopes/alice/recall", json={"query": "where does Arttu deploy"}))[
            "facts"
        ]
        assert all("Arttu" not in f["text"] for f in left)
        assert error(c.get(f"/scopes/alice/facts/{vercel}"), 404, "not_found")


def test_a_refusal_and_a_request_are_answers_not_errors(served: str) -> None:
    with client(served) as c:
        ok(c.post("/scopes/alice/remember", json={"text": "I live in Kyoto"}))
        refused = ok(c.post("/scopes/alice/remember", json={"text": "what time is it?"}))
        assert refused["stored"] is False and refused["refused"]
        honoured = ok(
            c.post("/scopes/alice/remember", json={"text": "forget that I live in Kyoto"})
        )
        assert honoured["stored"] is False and honoured["honoured"] is True


# -- the scope wall ---------------------------------------------------------------------------
def test_a_token_never_reaches_another_scope(served: str) -> None:
    with client(served, ALICE) as alice, client(served, BOB) as bob, client(served, ADMIN) as admin:
        mine = ok(alice.post("/scopes/alice/remember", json={"text": "Alice's cat is called Miso"}))
        ok(bob.post("/scopes/bob/remember", json={"text": "Bob's dog is called Rex"}))
        # forbidden whether the scope exists (bob) or not (carol): existence is not told
        for scope in ("bob", "carol"):
            for method, path, body in (
                ("POST", "remember", {"text": "x is y"}),
                ("POST", "recall", {"query": "dog"}),
                ("GET", "facts", None),
                ("GET", "export", None),
                ("POST", "forget", {"subject": "Bob"}),
                ("GET", "conflicts", None),
            ):
                response = alice.request(method, f"/scopes/{scope}/{path}", json=body)
                assert "scope" in error(response, 403, "forbidden_scope")
        # another scope's fact id is not found through one's own scope
        error(bob.get(f"/scopes/bob/facts/{mine['fact']['id']}"), 404, "not_found")
        error(
            bob.post(f"/scopes/bob/facts/{mine['fact']['id']}/retract", json={}), 404, "not_found"
        )
        assert "Rex" not in json.dumps(export_of(alice, "alice"))
        # a scope this token may touch but which holds nothing: unknown, and distinct
        with client(served, BACKEND) as backend:
            error(backend.get("/scopes/user-42/facts"), 404, "unknown_scope")
            error(
                backend.post("/scopes/user-42/recall", json={"query": "anything"}),
                404,
                "unknown_scope",
            )
            ok(backend.post("/scopes/user-42/remember", json={"text": "User 42 prefers tea"}))
            assert len(ok(backend.get("/scopes/user-42/facts"))["facts"]) == 1
            error(backend.get("/scopes/alice/facts"), 403, "forbidden_scope")
            error(backend.get("/scopes"), 403, "admin_only")
            assert ok(backend.get("/whoami")) == {
                "name": "backend",
                "scopes": ["user-*"],
                "admin": False,
            }
        assert ok(admin.get("/scopes"))["scopes"] == ["alice", "bob", "user-42"]
        assert ok(admin.get("/scopes/bob/facts"))["facts"][0]["text"] == "Bob's dog is called Rex"
        error(alice.get("/scopes/bad scope!/facts"), 400, "invalid_scope")


def test_tokens_and_hosts(served: str) -> None:
    for headers in ({}, {"Authorization": "Bearer nope-nope-nope-nope"}, {"Authorization": ALICE}):
        response = httpx.get(served + "/v1/scopes/alice/facts", headers=headers)
        error(response, 401, "unauthorized")
        assert response.headers["www-authenticate"].startswith("Bearer")
    rebound = httpx.get(
        served + "/v1/scopes/alice/facts",
        headers={"Authorization": f"Bearer {ALICE}", "Host": "evil.example:80"},
    )
    error(rebound, 421, "wrong_host")
    described = httpx.get(served + "/v1/openapi.json")  # no token needed
    assert described.status_code == 200 and described.headers["x-content-type-options"] == "nosniff"


# -- bad input: a clear 4xx, and nothing lost -------------------------------------------------
def test_bad_input_is_a_clear_error_and_loses_nothing(served: str) -> None:
    with client(served) as c:
        kept = ok(
            c.post("/scopes/alice/remember", json={"text": "Alice's favourite colour is teal"})
        )
        before = export_of(c, "alice")
        cases = [
            (
                c.post(
                    "/scopes/alice/remember",
                    content=b"{not json",
                    headers={"content-type": "application/json"},
                ),
                400,
                "bad_json",
            ),
            (
                c.post(
                    "/scopes/alice/remember",
                    content=b'{"text": "x"}',
                    headers={"content-type": "text/plain"},
                ),
                415,
                "unsupported_media_type",
            ),
            (c.post("/scopes/alice/remember", json={"txt": "typo"}), 400, "invalid"),
            (c.post("/scopes/alice/remember", json={"text": ""}), 400, "invalid"),
            (c.post("/scopes/alice/remember", json={"text": "x" * 5000}), 400, "invalid"),
            (c.post("/scopes/alice/remember", json=["a list"]), 400, "invalid"),
            (c.post("/scopes/alice/recall", json={"query": "q", "k": 0}), 400, "invalid"),
            (
                c.post("/scopes/alice/recall", json={"query": "q", "as_of": "not a date"}),
                400,
                "bad_request",
            ),
            (c.post("/scopes/alice/forget", json={}), 400, "invalid"),
            (
                c.post("/scopes/alice/forget", json={"id": "f_1", "subject": "Alice"}),
                400,
                "invalid",
            ),
            (c.post("/scopes/alice/forget", json={"id": "f_nope"}), 404, "not_found"),
            (c.post("/scopes/alice/resolve", json={}), 400, "invalid"),
            (
                c.post(
                    "/scopes/alice/ingest", json={"turns": [{"role": "robot", "content": "hi"}]}
                ),
                400,
                "invalid",
            ),
            (c.post("/scopes/alice/ingest", json={"turns": []}), 400, "invalid"),
            (
                c.post(
                    "/scopes/alice/remember",
                    content=b"[" * 100_000,
                    headers={"content-type": "application/json"},
                ),
                413,
                "too_large",
            ),
            (
                c.post(
                    "/scopes/alice/remember",
                    content=b'{"text": "' + b"x" * 70_000 + b'"}',
                    headers={"content-type": "application/json"},
                ),
                413,
                "too_large",
            ),
            (c.get("/scopes/alice/facts", params={"limit": "many"}), 400, "invalid"),
            (c.get("/scopes/alice/facts", params={"colour": "red"}), 400, "invalid"),
            (c.get("/scopes/alice/history"), 400, "invalid"),
            (c.get("/scopes/alice/nothing-here"), 404, "no_route"),
            (c.delete("/scopes/alice/facts"), 405, "method_not_allowed"),
        ]
        for response, status, code in cases:
            message = error(response, status, code)
            assert message and "Traceback" not in message
        assert (
            "limit" in cases[6][0].json()["error"]["message"]
            or "k" in cases[6][0].json()["error"]["message"]
        )
        assert export_of(c, "alice") == before
        assert ok(c.get(f"/scopes/alice/facts/{kept['fact']['id']}"))["status"] == "active"


# -- many users at once -------------------------------------------------------------------------
def test_many_users_at_once_each_in_their_own_scope(served: str) -> None:
    users = [f"user-{n}" for n in range(12)]

    async def one(http: httpx.AsyncClient, user: str) -> None:
        r = await http.post(
            f"/scopes/{user}/remember", json={"text": f"{user} keeps a pet named Pet{user[5:]}"}
        )
        assert r.status_code == 200, r.text
        r = await http.post(f"/scopes/{user}/recall", json={"query": "pet", "k": 5})
        assert r.status_code == 200, r.text
        texts = [f["text"] for f in r.json()["facts"]]
        assert texts == [f"{user} keeps a pet named Pet{user[5:]}"], texts

    async def main() -> None:
        headers = {"Authorization": f"Bearer {BACKEND}"}
        async with httpx.AsyncClient(base_url=served + "/v1", headers=headers, timeout=120) as http:
            await asyncio.gather(*(one(http, u) for u in users))

    asyncio.run(main())
    with client(served, ADMIN) as admin:
        assert ok(admin.get("/scopes"))["scopes"] == sorted(users)


# -- the OpenAPI description ------------------------------------------------------------------
def test_the_openapi_description_covers_every_route_and_every_answer(served: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    doc = httpx.get(served + "/v1/openapi.json").json()
    assert doc == json.loads(json.dumps(openapi()))
    assert doc["openapi"].startswith("3.1")
    for op in OPS:
        operation = doc["paths"][op.path][op.method.lower()]
        assert operation["operationId"] == op.name
        assert {"400", "401", "403", "404"} <= set(operation["responses"])
        if op.body is not None:
            assert operation["requestBody"]["content"]["application/json"]["schema"][
                "$ref"
            ].endswith(op.body.__name__)
    assert {p for p in doc["paths"]} == {op.path for op in OPS} | {
        "/v1/scopes",
        "/v1/whoami",
        "/v1/openapi.json",
    }

    def check(body: Any, ref: str) -> None:
        schema = {"$ref": ref, "components": doc["components"]}
        schema["$ref"] = ref.replace("#/components", "#/components")
        jsonschema.validate(body, schema)

    def answer(method: str, path: str, body: Any = None, **params: Any) -> Any:
        response = c.request(method, path, json=body, params=params or None)
        operation = doc["paths"]["/v1" + templated(path)][method.lower()]
        documented = operation["responses"][str(response.status_code)]
        content = documented.get("content", {}).get("application/json")
        if content is not None:
            check(response.json(), content["schema"]["$ref"])
        # a request body the description accepts is one the server accepts, and back
        if body is not None:
            check(body, operation["requestBody"]["content"]["application/json"]["schema"]["$ref"])
        return response.json()

    def templated(path: str) -> str:
        parts = path.split("/")
        parts[2] = "{scope}"
        if len(parts) > 4 and parts[3] == "facts":
            parts[4] = "{fact_id}"
        return "/".join(parts)

    with client(served) as c:
        fact = answer("POST", "/scopes/alice/remember", {"text": "Alice's editor is Helix"})["fact"]
        answer("POST", "/scopes/alice/remember", {"text": "Alice's editor is Vim"})
        answer("POST", "/scopes/alice/recall", {"query": "which editor", "render": True})
        answer("GET", "/scopes/alice/facts", limit=5)
        answer("GET", f"/scopes/alice/facts/{fact['id']}")
        answer("GET", f"/scopes/alice/facts/{fact['id']}/why")
        answer("GET", "/scopes/alice/conflicts", include_resolved="true")
        answer("GET", "/scopes/alice/history", subject="Alice")
        answer("POST", "/scopes/alice/resolve", {"keep": fact["id"]})
        answer(
            "POST",
            "/scopes/alice/ingest",
            {"turns": [{"role": "user", "content": "I play the cello."}]},
        )
        answer("POST", f"/scopes/alice/facts/{fact['id']}/retract", {"why": "test"})
        answer("POST", "/scopes/alice/forget", {"subject": "Alice"})
        answer("GET", "/scopes/nobody/facts")  # 404 unknown_scope: an Error
        answer("POST", "/scopes/bob/recall", {"query": "x"})  # 403: an Error
    check(
        ok(httpx.get(served + "/v1/scopes", headers={"Authorization": f"Bearer {ADMIN}"})),
        "#/components/schemas/ScopeList",
    )


# -- the command ------------------------------------------------------------------------------
def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_") and k != "PYTHONPATH"}
    env.update(CREDO_EMBEDDER="hash", PYTHONPATH=SRC, **extra)
    return env


@pytest.mark.slow
def test_the_command_serves_a_token_table(tmp_path: Path) -> None:
    table = tmp_path / "tokens.yaml"
    table.write_text(TABLE)
    table.chmod(0o644)  # holds bob's token itself: a warning says so
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "credo.cli",
                "--db",
                str(tmp_path / "s.db"),
                "serve",
                "--port",
                str(port),
                "--tokens",
                str(table),
            ],
            env=_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited: {log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not listen: {log.read_text()}")
                time.sleep(0.05)
        url = f"http://127.0.0.1:{port}"
        with client(url, BOB) as bob:
            ok(bob.post("/scopes/bob/remember", json={"text": "Bob drinks oat milk"}))
            error(bob.get("/scopes/alice/facts"), 403, "forbidden_scope")
        stderr = log.read_text()
        assert "chmod 600" in stderr and BOB not in stderr and ALICE not in stderr
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("tokens: []", "expected 'tokens:'"),
        ("tokens:\n  - name: a\n    token: short\n    scopes: [a]", "under 16 characters"),
        ("tokens:\n  - name: a\n    sha256: 12ab\n    scopes: [a]", "64 hex digits"),
        ("tokens:\n  - name: a\n    token: " + "x" * 20 + "\n", "may touch nothing"),
        (
            "tokens:\n  - name: a\n    token: " + "x" * 20 + "\n    scopes: ['bad scope']",
            "invalid scope",
        ),
        (
            "tokens:\n  - name: a\n    token: " + "x" * 20 + "\n    scopes: [a]\n    colour: red",
            "unknown key",
        ),
        (
            "tokens:\n  - {name: a, token: "
            + "x" * 20
            + ", scopes: [a]}\n  - {name: b, token: "
            + "x" * 20
            + ", scopes: [b]}",
            "are the same",
        ),
    ],
)
def test_a_bad_token_table_stops_the_command(
    tmp_path: Path, table: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens.yaml"
    path.write_text(table)
    code = main(["--db", str(tmp_path / "s.db"), "serve", "--port", "1", "--tokens", str(path)])
    assert code == 2
    assert message in capsys.readouterr().err


def test_the_command_refuses_a_public_host_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CREDO_MCP_TOKEN", raising=False)
    monkeypatch.delenv("CREDO_SERVE_TOKENS", raising=False)
    code = main(["--db", str(tmp_path / "s.db"), "serve", "--host", "0.0.0.0", "--port", "1"])
    assert code == 2 and "without a token" in capsys.readouterr().err


def test_a_token_table_from_the_environment_and_one_admin_token() -> None:
    from credo.access import load_tokens

    table = load_tokens(
        None,
        {
            "CREDO_SERVE_TOKENS": json.dumps(
                {"tokens": [{"name": "a", "sha256": token_digest(ALICE), "scopes": ["alice"]}]}
            )
        },
    )
    assert table is not None and table.grant(f"Bearer {ALICE}") is not None
    assert table.grant(f"Bearer {BOB}") is None and table.grant(f"Basic {ALICE}") is None
    single = TokenTable.single(ADMIN)
    grant = single.grant(f"bearer {ADMIN}")
    assert grant is not None and grant.admin and grant.may("anyone")
