"""OpenAIEmbedder against a real local HTTP server serving scripted /v1/embeddings responses."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from credo.embed import EmbedderError, get_embedder
from credo.embed_openai import OpenAIEmbedder


@dataclass
class Script:
    """Responses to give, in order; once used up, successful embeddings."""

    queue: list[tuple[int, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    dim: int = 8


def _vector(text: str, dim: int) -> list[float]:
    rng = np.random.default_rng(abs(hash(text)) % (2**32))
    return [float(x) * 3.0 for x in rng.standard_normal(dim)]  # deliberately not unit length


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            script.requests.append({"path": self.path, **body})
            script.headers.append(dict(self.headers))
            if script.queue:
                status, payload = script.queue.pop(0)
            else:
                inputs = body["input"]
                data = [
                    {"object": "embedding", "index": i, "embedding": _vector(t, script.dim)}
                    for i, t in enumerate(inputs)
                ]
                data.reverse()  # servers may return any order; `index` decides
                status, payload = 200, {"object": "list", "data": data, "model": body["model"]}
            raw = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", script
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def make(base_url: str, **kw: Any) -> OpenAIEmbedder:
    options: dict[str, Any] = {"backoff": 0.01, "timeout": 5}
    options.update(kw)
    return OpenAIEmbedder.from_name(
        "openai", "text-embedding-3-small", base_url, "sk-test", **options
    )


def test_success(server: tuple[str, Script]) -> None:
    url, script = server
    emb = make(url)
    assert emb.name == "openai:text-embedding-3-small"
    assert emb.dim == 0  # learned from the first response
    vectors = emb.embed_documents(["alpha", "beta", "gamma"])
    assert vectors.shape == (3, 8)
    assert vectors.dtype == np.float32
    assert emb.dim == 8
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    expected = np.asarray(_vector("beta", 8), dtype=np.float32)
    np.testing.assert_allclose(vectors[1], expected / np.linalg.norm(expected), atol=1e-5)
    request = script.requests[0]
    assert request["path"] == "/v1/embeddings"
    assert request["model"] == "text-embedding-3-small"
    assert request["input"] == ["alpha", "beta", "gamma"]
    assert script.headers[0]["Authorization"] == "Bearer sk-test"
    assert emb.embed_query("alpha").shape == (8,)
    assert emb.duplicate_threshold == 0.9


def test_batches_and_empty(server: tuple[str, Script]) -> None:
    url, script = server
    emb = make(url, batch_size=2)
    vectors = emb.embed_documents(["a", "b", "c", "", "e"])
    assert vectors.shape == (5, 8)
    assert [len(r["input"]) for r in script.requests] == [2, 2, 1]
    assert script.requests[1]["input"][1] == " "  # empty strings are sent as one space
    assert emb.embed_documents([]).shape == (0, 8)


def test_429_then_success(server: tuple[str, Script]) -> None:
    url, script = server
    script.queue.append((429, {"error": {"message": "Rate limit reached", "type": "requests"}}))
    vectors = make(url).embed_documents(["x", "y"])
    assert vectors.shape == (2, 8)
    assert len(script.requests) == 2


def test_500_surfaces_as_embedder_error(server: tuple[str, Script]) -> None:
    url, script = server
    for _ in range(4):  # the first try and three retries
        script.queue.append((500, {"error": {"message": "the model is on fire"}}))
    with pytest.raises(EmbedderError, match=r"HTTP 500.*the model is on fire"):
        make(url).embed_documents(["x"])
    assert len(script.requests) == 4


def test_400_is_not_retried(server: tuple[str, Script]) -> None:
    url, script = server
    script.queue.append((400, {"error": {"message": "input too long"}}))
    with pytest.raises(EmbedderError, match=r"HTTP 400.*input too long"):
        make(url).embed_documents(["x"])
    assert len(script.requests) == 1


def test_dim_mismatch_and_malformed(server: tuple[str, Script]) -> None:
    url, script = server
    with pytest.raises(EmbedderError, match="16"):
        make(url, dim=16).embed_documents(["x"])
    assert script.requests[0]["dimensions"] == 16
    script.queue.append((200, {"data": []}))
    with pytest.raises(EmbedderError, match="expected 1 embeddings"):
        make(url).embed_documents(["x"])
    script.queue.append((200, "not json"))
    with pytest.raises(EmbedderError, match="not JSON"):
        make(url).embed_documents(["x"])


def test_missing_key() -> None:
    with pytest.raises(EmbedderError, match="OPENAI_API_KEY"):
        OpenAIEmbedder.from_name("openai", "text-embedding-3-small")
    with pytest.raises(EmbedderError, match="OPENAI_API_KEY"):
        get_embedder("openai:text-embedding-3-small")


def test_ollama_needs_no_key(server: tuple[str, Script]) -> None:
    url, script = server
    default = OpenAIEmbedder.from_name("ollama", "nomic-embed-text")
    assert default.base_url == "http://localhost:11434/v1"
    emb = get_embedder("ollama:nomic-embed-text", base_url=url, dim="8", backoff="0")
    assert emb.name == "ollama:nomic-embed-text"
    assert emb.dim == 8
    assert emb.embed_query("hello").shape == (8,)
    assert "Authorization" not in script.headers[0]
    assert "dimensions" not in script.requests[0]


def test_unreachable_endpoint() -> None:
    emb = OpenAIEmbedder.from_name(
        "ollama", "m", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout=2
    )
    with pytest.raises(EmbedderError, match="cannot reach"):
        emb.embed_documents(["x"])


def test_bad_options() -> None:
    with pytest.raises(EmbedderError, match="unknown option"):
        get_embedder("ollama:m", colour="blue")
    with pytest.raises(EmbedderError, match="bad option"):
        get_embedder("ollama:m", dim="many")
