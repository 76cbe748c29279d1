"""Chat clients against a real HTTP server on 127.0.0.1 with scripted replies.

The server runs in a thread of this process, so the clients' real httpx request and
response handling is exercised; nothing here reaches the internet.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from credo.llm import (
    AnthropicClient,
    ChatClient,
    LLMConfigError,
    LLMError,
    OllamaClient,
    OpenAICompatibleClient,
    get_chat_client,
)
from credo.llm import Reply as LLMReply

API_KEY = "test-" + "k3y" * 6
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": {"type": "string"}}},
    "required": ["facts"],
}
CHAT = [
    {"role": "system", "content": "Extract facts."},
    {"role": "user", "content": "Arttu lives in Berlin."},
]


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict/list -> JSON, str/bytes -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    json: Any


class ScriptedServer:
    """Answers each POST with the next scripted `Reply` and records what it was sent."""

    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with owner._lock:
                    owner.seen.append(
                        Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    reply = owner.script.pop(0) if owner.script else Reply(599, "script empty")
                if reply.delay:
                    time.sleep(reply.delay)
                if isinstance(reply.body, (dict, list)):
                    data = json.dumps(reply.body).encode()
                    content_type = "application/json"
                elif isinstance(reply.body, bytes):
                    data, content_type = reply.body, "application/octet-stream"
                else:
                    data, content_type = (reply.body or "").encode(), "text/plain"
                self.send_response(reply.status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class QuietServer(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # the timeout test hangs up on a handler that is still sleeping

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        # A short poll interval keeps shutdown (each test's teardown) from taking 0.5 s.
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer()
    yield s
    s.close()


def openai_reply(content: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


def anthropic_reply(text: str) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
    }


def openai_client(server: ScriptedServer, **kwargs: Any) -> OpenAICompatibleClient:
    options: dict[str, Any] = {"api_key": API_KEY, "backoff": 0.001, "timeout": 5.0}
    options.update(kwargs)
    return OpenAICompatibleClient("gpt-test", base_url=server.url, **options)


def anthropic_client(server: ScriptedServer, **kwargs: Any) -> AnthropicClient:
    options: dict[str, Any] = {"api_key": API_KEY, "backoff": 0.001, "timeout": 5.0}
    options.update(kwargs)
    return AnthropicClient("claude-test", base_url=server.url, **options)


# --- OpenAI-compatible ------------------------------------------------------------------


def test_openai_success_sends_the_expected_request(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply('{"facts": ["Arttu lives in Berlin"]}'))]
    with openai_client(server) as client:
        out = client.complete(CHAT, json_schema=SCHEMA)
    assert json.loads(out) == {"facts": ["Arttu lives in Berlin"]}
    [seen] = server.seen
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {API_KEY}"
    assert seen.headers["content-type"] == "application/json"
    assert seen.json["model"] == "gpt-test"
    assert seen.json["messages"] == CHAT
    assert seen.json["temperature"] == 0.0
    assert seen.json["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "facts", "schema": SCHEMA, "strict": False},
    }


def test_openai_without_schema_or_key(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply("plain text"))]
    client = OpenAICompatibleClient("llama3", base_url=server.url + "/", transport=None)
    assert client.complete([{"role": "user", "content": "hi"}]) == "plain text"
    [seen] = server.seen
    assert seen.path == "/v1/chat/completions"
    assert "authorization" not in seen.headers
    assert "response_format" not in seen.json


def test_429_then_success_is_retried(server: ScriptedServer) -> None:
    server.script = [
        Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}),
        Reply(body=openai_reply("ok")),
    ]
    assert openai_client(server).complete(CHAT) == "ok"
    assert len(server.seen) == 2


def test_retry_after_is_honoured_and_capped(server: ScriptedServer) -> None:
    server.script = [
        Reply(429, "busy", {"Retry-After": "0.3"}),
        Reply(body=openai_reply("ok")),
    ]
    started = time.monotonic()
    assert openai_client(server).complete(CHAT) == "ok"
    assert time.monotonic() - started >= 0.25

    server.script = [Reply(429, "busy", {"Retry-After": "3600"}), Reply(body=openai_reply("ok"))]
    client = openai_client(server)
    client.retry_after_cap = 0.01
    slept: list[float] = []
    client._sleep = slept.append
    assert client.complete(CHAT) == "ok"
    assert slept == [0.01]


def test_5xx_then_success_is_retried(server: ScriptedServer) -> None:
    server.script = [
        Reply(502, "bad gateway"),
        Reply(503, "unavailable"),
        Reply(body=openai_reply("ok")),
    ]
    assert openai_client(server).complete(CHAT) == "ok"
    assert len(server.seen) == 3


def test_persistent_500_raises_after_max_retries(server: ScriptedServer) -> None:
    server.script = [Reply(500, {"error": "model crashed"}) for _ in range(5)]
    with pytest.raises(LLMError) as info:
        openai_client(server, max_retries=2).complete(CHAT)
    assert len(server.seen) == 3
    message = str(info.value)
    assert "HTTP 500" in message and "model crashed" in message
    assert API_KEY not in message


def test_timeout_raises_llm_error(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply("late"), delay=0.6)]
    with pytest.raises(LLMError, match=r"timed out after 0\.2 s calling http://127\.0\.0\.1:\d+"):
        openai_client(server, timeout=0.2).complete(CHAT)
    assert len(server.seen) == 1  # a timeout is not retried


def test_timeout_error_names_the_option_and_invites_a_split(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply("late"), delay=0.6)]
    with pytest.raises(LLMError) as info:
        openai_client(server, timeout=0.2).complete(CHAT)
    assert "--llm-timeout" in str(info.value) and "CREDO_LLM_TIMEOUT" in str(info.value)
    assert info.value.smaller_may_work
    with pytest.raises(LLMConfigError, match="--llm-timeout"):
        openai_client(server, timeout=0)


@pytest.mark.parametrize(
    "message",
    [
        "This model's maximum context length is 4096 tokens. However, you requested 5000",
        "the request exceeds the available context size, try increasing it",
        "Requested tokens (5000) exceed context window of 2048",
    ],
)
def test_context_overflow_is_an_error_that_invites_a_split(
    server: ScriptedServer, message: str
) -> None:
    server.script = [Reply(400, {"error": {"message": message}})]
    with pytest.raises(LLMError, match="does not fit the model's context") as info:
        openai_client(server).complete(CHAT, json_schema=SCHEMA)
    assert info.value.smaller_may_work
    assert len(server.seen) == 1  # not mistaken for a refused response_format


def test_usage_and_finish_reason_come_with_the_reply(server: ScriptedServer) -> None:
    body = openai_reply('{"facts": [')
    body["choices"][0]["finish_reason"] = "length"
    body["usage"] = {"prompt_tokens": 812, "completion_tokens": 64, "total_tokens": 876}
    server.script = [Reply(body=body)]
    out = openai_client(server, max_tokens=64).complete(CHAT, json_schema=SCHEMA)
    assert isinstance(out, LLMReply)
    assert out == '{"facts": ['
    assert out.truncated and out.structured
    assert out.usage == {"prompt_tokens": 812, "completion_tokens": 64}
    assert server.seen[0].json["max_tokens"] == 64


@pytest.mark.parametrize(
    ("structured", "expected"),
    [
        (
            "json_object",
            {"response_format": {"type": "json_object", "schema": SCHEMA}},
        ),
        ("guided_json", {"guided_json": SCHEMA}),
    ],
)
def test_self_hosted_structured_modes(
    server: ScriptedServer, structured: str, expected: dict[str, Any]
) -> None:
    server.script = [Reply(body=openai_reply('{"facts": []}'))]
    client = openai_client(server, structured=structured)
    assert client.complete(CHAT, json_schema=SCHEMA) == '{"facts": []}'
    body = server.seen[0].json
    for key, value in expected.items():
        assert body[key] == value
    assert ("response_format" in body) == ("response_format" in expected)


@pytest.mark.parametrize(
    ("provider", "key", "value"),
    [
        ("llamacpp", "response_format", {"type": "json_object", "schema": SCHEMA}),
        ("vllm", "guided_json", SCHEMA),
        (
            "lmstudio",
            "response_format",
            {
                "type": "json_schema",
                "json_schema": {"name": "facts", "schema": SCHEMA, "strict": False},
            },
        ),
        (
            "openai-compatible",
            "response_format",
            {
                "type": "json_schema",
                "json_schema": {"name": "facts", "schema": SCHEMA, "strict": False},
            },
        ),
    ],
)
def test_the_provider_name_picks_the_structured_mode(
    server: ScriptedServer, provider: str, key: str, value: Any
) -> None:
    server.script = [Reply(body=openai_reply('{"facts": []}'))]
    client = get_chat_client(f"{provider}:m", base_url=server.url, timeout=5)
    client.complete(CHAT, json_schema=SCHEMA)
    assert server.seen[0].json[key] == value


def test_a_refused_structured_mode_is_dropped_for_later_calls(server: ScriptedServer) -> None:
    server.script = [
        Reply(400, {"error": {"message": "guided_json is not supported"}}),
        Reply(body=openai_reply('{"facts": []}')),
        Reply(body=openai_reply('{"facts": []}')),
    ]
    client = get_chat_client("vllm:m", base_url=server.url, timeout=5)
    client.complete(CHAT, json_schema=SCHEMA)
    client.complete(CHAT, json_schema=SCHEMA)
    assert ["guided_json" in seen.json for seen in server.seen] == [True, False, False]


def test_ollama_native_chat_with_a_format_schema(server: ScriptedServer) -> None:
    server.script = [
        Reply(
            body={
                "model": "qwen2.5:1.5b",
                "message": {"role": "assistant", "content": '{"facts": []}'},
                "done": True,
                "done_reason": "stop",
                "prompt_eval_count": 700,
                "eval_count": 8,
            }
        )
    ]
    base = server.url.removesuffix("/v1")
    client = get_chat_client("ollama:qwen2.5:1.5b", base_url=base, timeout=5, max_tokens=256)
    out = client.complete(CHAT, json_schema=SCHEMA)
    assert out == '{"facts": []}'
    assert isinstance(out, LLMReply) and out.usage == {"prompt_tokens": 700, "completion_tokens": 8}
    [seen] = server.seen
    assert seen.path == "/api/chat"
    assert seen.json == {
        "model": "qwen2.5:1.5b",
        "messages": CHAT,
        "stream": False,
        "options": {"temperature": 0.0, "num_predict": 256},
        "format": SCHEMA,
    }


def test_ollama_refusing_a_schema_falls_back_to_plain_json(server: ScriptedServer) -> None:
    server.script = [
        Reply(400, {"error": 'invalid format: expected "json" or a JSON schema'}),
        Reply(body={"message": {"role": "assistant", "content": "{}"}, "done": True}),
    ]
    client = OllamaClient("m", base_url=server.url.removesuffix("/v1"), timeout=5)
    assert client.complete(CHAT, json_schema=SCHEMA) == "{}"
    assert server.seen[0].json["format"] == SCHEMA
    assert server.seen[1].json["format"] == "json"


def test_400_about_response_format_is_retried_without_it(server: ScriptedServer) -> None:
    server.script = [
        Reply(400, {"error": {"message": "Unrecognized request argument: response_format"}}),
        Reply(body=openai_reply('{"facts": []}')),
    ]
    assert openai_client(server).complete(CHAT, json_schema=SCHEMA) == '{"facts": []}'
    first, second = server.seen
    assert "response_format" in first.json
    assert "response_format" not in second.json
    assert second.json["messages"] == CHAT


def test_other_4xx_fails_at_once_with_status_and_excerpt(server: ScriptedServer) -> None:
    server.script = [Reply(400, {"error": {"message": "model 'gpt-test' does not exist"}})]
    with pytest.raises(LLMError) as info:
        openai_client(server).complete(CHAT, json_schema=SCHEMA)
    assert len(server.seen) == 1
    assert "HTTP 400" in str(info.value)
    assert "does not exist" in str(info.value)


def test_long_error_bodies_are_cut_short(server: ScriptedServer) -> None:
    server.script = [Reply(404, "x" * 5000)]
    with pytest.raises(LLMError) as info:
        openai_client(server).complete(CHAT)
    assert len(str(info.value)) < 600
    assert "check the model name" in str(info.value)


def test_api_key_never_appears_in_errors(server: ScriptedServer) -> None:
    server.script = [Reply(401, {"error": f"invalid key {API_KEY}"})]
    with pytest.raises(LLMError) as info:
        openai_client(server).complete(CHAT)
    assert "HTTP 401" in str(info.value)
    assert API_KEY not in str(info.value)
    assert API_KEY not in repr(openai_client(server))


@pytest.mark.parametrize(
    "reply",
    [
        Reply(body={"choices": []}),
        Reply(body=openai_reply(None)),
        Reply(body=openai_reply("   ")),
        Reply(body="<html>gateway says hi</html>"),
        Reply(body=b""),
        Reply(body=[1, 2, 3]),
    ],
)
def test_unreadable_or_empty_reply_raises(server: ScriptedServer, reply: Reply) -> None:
    server.script = [reply]
    with pytest.raises(LLMError, match="empty or unreadable|unreadable reply"):
        openai_client(server).complete(CHAT)


def test_code_fences_are_stripped_from_json_replies(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply('```json\n{"facts": ["a"]}\n```'))]
    assert openai_client(server).complete(CHAT, json_schema=SCHEMA) == '{"facts": ["a"]}'


def test_connection_refused_is_retried_then_raises() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = OpenAICompatibleClient(
        "m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=2, backoff=0.001
    )
    with pytest.raises(LLMError, match=r"could not reach .* after 3 attempt"):
        client.complete(CHAT)


def test_bad_messages_are_rejected_before_sending(server: ScriptedServer) -> None:
    client = openai_client(server)
    with pytest.raises(ValueError, match="role"):
        client.complete([{"role": "tool", "content": "x"}])
    with pytest.raises(ValueError, match="at least one"):
        client.complete([])
    assert server.seen == []


# --- Anthropic --------------------------------------------------------------------------


def test_anthropic_success_sends_the_expected_request(server: ScriptedServer) -> None:
    server.script = [Reply(body=anthropic_reply("Berlin."))]
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Where does Arttu live?"},
        {"role": "assistant", "content": "Let me check."},
        {"role": "user", "content": "Well?"},
    ]
    assert anthropic_client(server).complete(messages) == "Berlin."
    [seen] = server.seen
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == API_KEY
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in seen.headers
    assert seen.json["model"] == "claude-test"
    assert seen.json["system"] == "Be brief."
    assert seen.json["messages"] == messages[1:]
    assert seen.json["max_tokens"] > 0


def test_anthropic_without_tools_asks_for_json_in_the_system_prompt(
    server: ScriptedServer,
) -> None:
    server.script = [Reply(body=anthropic_reply('```json\n{"facts": []}\n```'))]
    client = anthropic_client(server, structured="none")
    assert client.complete(CHAT, json_schema=SCHEMA) == '{"facts": []}'
    system = server.seen[0].json["system"]
    assert system.startswith("Extract facts.")
    assert "JSON only" in system
    assert json.dumps(SCHEMA, separators=(",", ":")) in system
    assert "response_format" not in server.seen[0].json
    assert "tools" not in server.seen[0].json


def test_anthropic_structured_output_is_a_forced_tool_call(server: ScriptedServer) -> None:
    server.script = [
        Reply(
            body={
                "content": [
                    {"type": "text", "text": "Recording."},
                    {"type": "tool_use", "name": "record_facts", "input": {"facts": ["a"]}},
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 120, "output_tokens": 9},
            }
        )
    ]
    out = anthropic_client(server).complete(CHAT, json_schema=SCHEMA)
    assert json.loads(out) == {"facts": ["a"]}
    assert isinstance(out, LLMReply) and out.usage == {
        "prompt_tokens": 120,
        "completion_tokens": 9,
    }
    [seen] = server.seen
    assert seen.json["tools"] == [
        {
            "name": "record_facts",
            "description": "Record the facts found, or an empty list.",
            "input_schema": SCHEMA,
        }
    ]
    assert seen.json["tool_choice"] == {"type": "tool", "name": "record_facts"}
    assert seen.json["system"] == "Extract facts."  # the schema travels in the tool


def test_anthropic_refusing_tools_falls_back_to_the_prompt(server: ScriptedServer) -> None:
    server.script = [
        Reply(400, {"error": {"message": "tools are not supported by this proxy"}}),
        Reply(body=anthropic_reply('{"facts": []}')),
    ]
    assert anthropic_client(server).complete(CHAT, json_schema=SCHEMA) == '{"facts": []}'
    first, second = server.seen
    assert "tools" in first.json and "tools" not in second.json
    assert "JSON only" in second.json["system"]


def test_anthropic_overloaded_is_retried(server: ScriptedServer) -> None:
    server.script = [
        Reply(529, {"type": "error", "error": {"type": "overloaded_error"}}),
        Reply(body=anthropic_reply("ok")),
    ]
    assert anthropic_client(server).complete(CHAT) == "ok"
    assert len(server.seen) == 2


def test_anthropic_errors(server: ScriptedServer) -> None:
    server.script = [Reply(body={"content": []})]
    with pytest.raises(LLMError, match="empty or unreadable"):
        anthropic_client(server).complete(CHAT)
    server.script = [Reply(403, {"error": {"message": "forbidden"}})]
    with pytest.raises(LLMError, match="ANTHROPIC_API_KEY") as info:
        anthropic_client(server).complete(CHAT)
    assert API_KEY not in str(info.value)
    with pytest.raises(ValueError, match="user message"):
        anthropic_client(server).complete([{"role": "system", "content": "only system"}])


# --- get_chat_client --------------------------------------------------------------------


def test_get_chat_client_openai() -> None:
    client = get_chat_client("openai:gpt-4o-mini", api_key=API_KEY)
    assert isinstance(client, OpenAICompatibleClient)
    assert isinstance(client, ChatClient)
    assert client.model == "gpt-4o-mini"
    assert client.base_url == "https://api.openai.com/v1"
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY"):
        get_chat_client("openai:gpt-4o-mini")


def test_get_chat_client_ollama_keeps_colons_in_the_model() -> None:
    client = get_chat_client("ollama:qwen2.5:7b")
    assert isinstance(client, OllamaClient)
    assert client.model == "qwen2.5:7b"
    assert client.base_url == "http://localhost:11434"
    assert client.structured == "format"
    compat = get_chat_client("ollama:qwen2.5:7b", base_url="http://box:11434/v1")
    assert isinstance(compat, OpenAICompatibleClient)
    assert compat.structured == "json_schema"


@pytest.mark.parametrize("provider", ["openai-compatible", "vllm", "lmstudio", "llamacpp"])
def test_get_chat_client_self_hosted_needs_a_url(provider: str) -> None:
    with pytest.raises(LLMConfigError, match="base_url"):
        get_chat_client(f"{provider}:some-model")
    client = get_chat_client(f"{provider}:org/some-model", base_url="http://gpu-box:8000/v1")
    assert isinstance(client, OpenAICompatibleClient)
    assert client.model == "org/some-model"
    assert client.base_url == "http://gpu-box:8000/v1"


def test_get_chat_client_anthropic() -> None:
    client = get_chat_client("anthropic:claude-3-5-haiku-latest", api_key=API_KEY, timeout=5)
    assert isinstance(client, AnthropicClient)
    assert client.base_url == "https://api.anthropic.com/v1"
    assert client.timeout == 5
    with pytest.raises(LLMConfigError, match="ANTHROPIC_API_KEY"):
        get_chat_client("anthropic:claude-3-5-haiku-latest")


@pytest.mark.parametrize("name", ["gpt-4o-mini", "openai:", ":gpt-4o", ""])
def test_get_chat_client_rejects_malformed_names(name: str) -> None:
    with pytest.raises(LLMConfigError, match="provider:model"):
        get_chat_client(name, api_key=API_KEY)


def test_get_chat_client_unknown_provider_lists_the_valid_ones() -> None:
    with pytest.raises(LLMConfigError) as info:
        get_chat_client("mistral:large", api_key=API_KEY)
    for provider in ("openai", "anthropic", "ollama", "vllm", "lmstudio", "llamacpp"):
        assert provider in str(info.value)
    assert isinstance(info.value, ValueError)
    assert issubclass(LLMError, Exception) and not issubclass(LLMError, ValueError)


def test_get_chat_client_end_to_end(server: ScriptedServer) -> None:
    server.script = [Reply(body=openai_reply("hello"))]
    client = get_chat_client("ollama:qwen2.5:7b", base_url=server.url, timeout=5)
    assert client.complete([{"role": "user", "content": "hi"}]) == "hello"
    assert server.seen[0].json["model"] == "qwen2.5:7b"
