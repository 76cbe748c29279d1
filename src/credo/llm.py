"""Chat clients behind one small protocol, over plain sync `httpx` (no vendor SDKs).

Three wire formats cover the servers people run: OpenAI's ``/chat/completions`` (OpenAI,
vLLM, llama.cpp's server, LM Studio, Ollama's ``/v1``, most gateways), Ollama's own
``/api/chat`` and Anthropic's ``/messages``. `get_chat_client("provider:model")` picks one.

Structured output is asked for the way each server understands it, chosen by provider
name (`STRUCTURED`): OpenAI and LM Studio get ``response_format: json_schema``, llama.cpp
``response_format: json_object`` with the schema (its server turns that into a grammar),
vLLM ``guided_json``, Ollama its ``format`` schema, Anthropic a forced tool call whose
input is the schema. A server that refuses the structured mode (an HTTP 400 or 422 naming
it) is asked once more in plain JSON, and that client stays in plain JSON afterwards; the
prompt asks for JSON either way and the caller validates whatever comes back.

A reply is a `Reply`: the text, plus the server's token counts (`usage`) and whether it
stopped at the length limit (`truncated`). A timeout and a prompt over the model's context
are `LLMError`s with `smaller_may_work` set, so a caller can split its input and retry.

Like the rest of the library this module never reads environment variables, and its
`httpx` clients are built with ``trust_env=False`` so proxies and certificate paths are not
picked up from the environment behind the caller's back. Keys are passed in explicitly and
never appear in error messages.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

import httpx

from .errors import CredoError, InvalidInput

__all__ = [
    "AnthropicClient",
    "ChatClient",
    "DEFAULT_TIMEOUT",
    "LLMConfigError",
    "LLMError",
    "Message",
    "OllamaClient",
    "OpenAICompatibleClient",
    "Reply",
    "STRUCTURED",
    "get_chat_client",
]

Message = dict[str, str]
Structured = Literal["json_schema", "json_object", "guided_json", "format", "tool", "none"]

OPENAI_BASE_URL = "https://api.openai.com/v1"
OLLAMA_BASE_URL = "http://localhost:11434"
ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1"
ANTHROPIC_VERSION = "2023-06-01"
#: seconds a client waits for one reply unless told otherwise
DEFAULT_TIMEOUT = 60.0
#: what a timeout error tells the user to change
TIMEOUT_HINT = "raise it with --llm-timeout SECONDS (CREDO_LLM_TIMEOUT, or timeout= in Python)"

_ROLES = frozenset({"system", "user", "assistant"})
_EXCERPT_CHARS = 300
# Providers that speak the OpenAI wire format but run wherever the user put them, so there
# is no default URL to guess; the example shows each server's usual port.
_SELF_HOSTED_EXAMPLES = {
    "openai-compatible": "http://localhost:8000/v1",
    "vllm": "http://localhost:8000/v1",
    "lmstudio": "http://localhost:1234/v1",
    "llamacpp": "http://localhost:8080/v1",
}
PROVIDERS = ("openai", "anthropic", "ollama", *_SELF_HOSTED_EXAMPLES)
#: how each provider is asked for JSON matching a schema (see the module docstring)
STRUCTURED: dict[str, Structured] = {
    "openai": "json_schema",
    "openai-compatible": "json_schema",
    "lmstudio": "json_schema",
    "llamacpp": "json_object",
    "vllm": "guided_json",
    "ollama": "format",
    "anthropic": "tool",
}
# words in a 400/422 body that say the server refused the structured-output field itself
_STRUCTURED_WORDS = {
    "json_schema": ("response_format", "json_schema"),
    "json_object": ("response_format", "json_object", "schema", "grammar"),
    "guided_json": ("guided_json", "guided"),
    "format": ("format", "schema"),
    "tool": ("tool",),
}
# a 400 that says the prompt does not fit (OpenAI, vLLM, llama.cpp, LM Studio, Anthropic)
_CONTEXT_OVERFLOW = re.compile(
    r"context[_ ]length|context (size|window)|maximum context|exceeds? the (available )?"
    r"context|too many tokens|prompt is too long|input is too long|n_ctx",
    re.IGNORECASE,
)
_TOOL_NAME = "record_facts"


@runtime_checkable
class ChatClient(Protocol):
    """Anything that turns a chat into the assistant's reply text."""

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        """The reply to `messages`; with `json_schema`, the reply is asked to be JSON
        matching it (best effort: callers still validate). May return a `Reply`."""
        ...


class Reply(str):
    """A reply's text, with what the server said about it.

    `usage` holds ``prompt_tokens`` and ``completion_tokens`` when the server reported
    them; `finish_reason` is the server's (normalised: ``length`` when it hit the token
    limit); `structured` says whether the structured mode was in force.
    """

    usage: dict[str, int]
    finish_reason: str | None
    structured: bool

    def __new__(
        cls,
        text: str,
        *,
        usage: Mapping[str, int] | None = None,
        finish_reason: str | None = None,
        structured: bool = False,
    ) -> Reply:
        self = super().__new__(cls, text)
        self.usage = dict(usage or {})
        self.finish_reason = finish_reason
        self.structured = structured
        return self

    @property
    def truncated(self) -> bool:
        """The server stopped at its token limit: the text is cut off."""
        return self.finish_reason in ("length", "max_tokens")


class LLMError(CredoError, RuntimeError):
    """The model could not be reached or gave no usable reply (timeout, HTTP error, bad body).

    `smaller_may_work` is set when the same request with less input might succeed: a
    timeout, or a prompt over the model's context."""

    smaller_may_work: bool = False

    def __init__(self, message: str, *, smaller_may_work: bool = False) -> None:
        super().__init__(message)
        self.smaller_may_work = smaller_may_work


class LLMConfigError(CredoError, ValueError):
    """The LLM is misconfigured (unknown provider, missing key or URL); the message says
    which setting to fix."""


_C = TypeVar("_C", bound="_HTTPChatClient")


class _HTTPChatClient:
    """Shared transport: one `httpx.Client`, retries with backoff, error translation,
    and the structured-output fallback."""

    #: longest wait a server's Retry-After may impose before the next attempt, in seconds
    retry_after_cap: float = 30.0
    #: where to look when the server answers 401/403
    _key_hint: str = "check the API key"
    #: the endpoint when none is given
    default_base_url: str = ""
    #: the structured mode when none is given
    default_structured: Structured = "none"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        backoff: float = 0.5,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        structured: Structured | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        base_url = self.default_base_url if base_url is None else base_url
        if not model:
            raise LLMConfigError("no model given: name one, e.g. openai:gpt-4o-mini")
        if not base_url:
            raise LLMConfigError("base_url is empty: give the server's URL, e.g. http://host/v1")
        if not timeout > 0:
            raise LLMConfigError(
                f"timeout must be a positive number of seconds (--llm-timeout), got {timeout}"
            )
        if max_retries < 0:
            raise LLMConfigError(f"max_retries must be 0 or more, got {max_retries}")
        if max_tokens is not None and max_tokens < 1:
            raise LLMConfigError(f"max_tokens must be positive, got {max_tokens}")
        structured = structured or self.default_structured
        if structured not in _STRUCTURED_WORDS and structured != "none":
            raise LLMConfigError(
                f"structured mode {structured!r}: use one of "
                f"{', '.join([*_STRUCTURED_WORDS, 'none'])}"
            )
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.structured: Structured = structured
        self._api_key = api_key or None
        self._sleep: Callable[[float], None] = time.sleep
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout), transport=transport, trust_env=False
        )

    def __repr__(self) -> str:
        # The default repr would be harmless, but spelling it out keeps the key out of it
        # even if someone adds a dataclass decorator later.
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- one request, with the structured mode and its fallback ----------------------------
    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> Reply:
        checked = _checked_messages(messages)
        mode: Structured = self.structured if json_schema is not None else "none"
        url, payload, headers = self._request(checked, json_schema, mode)
        response = self._post(url, payload, headers)
        if mode != "none" and self._refuses(response, mode):
            # The server lacks this structured mode; the prompt still asks for JSON and the
            # caller validates, so a plain retry beats failing outright, now and later.
            self.structured = mode = "none"
            url, payload, headers = self._request(checked, json_schema, mode)
            response = self._post(url, payload, headers)
        data = self._json_body(response, url)
        reply = self._reply(data, mode)
        if not reply.strip():
            if reply.truncated:
                raise LLMError(
                    f"the reply from {_display_url(url)} was cut off at the token limit "
                    "before it said anything"
                )
            raise LLMError(
                f"empty or unreadable reply from {_display_url(url)}: {_short_json(data)}"
            )
        if json_schema is not None:
            return Reply(
                _strip_code_fence(reply),
                usage=reply.usage,
                finish_reason=reply.finish_reason,
                structured=reply.structured,
            )
        return reply

    def _request(
        self, messages: list[Message], schema: dict[str, Any] | None, mode: Structured
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        raise NotImplementedError

    def _reply(self, data: dict[str, Any], mode: Structured) -> Reply:
        raise NotImplementedError

    def _refuses(self, response: httpx.Response, mode: Structured) -> bool:
        if response.status_code not in (400, 422):
            return False
        body = _body_text(response).lower()
        if _CONTEXT_OVERFLOW.search(body):
            return False
        return any(word in body for word in _STRUCTURED_WORDS.get(mode, ()))

    # -- transport -------------------------------------------------------------------------
    def _post(
        self, url: str, payload: Mapping[str, Any], headers: Mapping[str, str]
    ) -> httpx.Response:
        """POST with retries on 429, 5xx and connection failures; returns the last response
        (which may still be an error status) or raises `LLMError` for transport failures."""
        shown = _display_url(url)
        attempt = 0
        while True:
            try:
                response = self._http.post(url, json=payload, headers=dict(headers))
            except httpx.TimeoutException as exc:
                # Not retried: a model too slow for the timeout will be as slow again, and
                # retrying would multiply the caller's wait without saying so.
                raise LLMError(
                    f"timed out after {self.timeout:g} s calling {shown}; {TIMEOUT_HINT}, "
                    "or use a smaller model or a smaller --episode-size",
                    smaller_may_work=True,
                ) from exc
            except httpx.TransportError as exc:
                if attempt >= self.max_retries:
                    raise LLMError(
                        f"could not reach {shown} after {attempt + 1} attempt(s): "
                        f"{type(exc).__name__}; is the server running and the URL right?"
                    ) from exc
                self._sleep(self._backoff_delay(attempt))
                attempt += 1
                continue
            retryable = response.status_code == 429 or response.status_code >= 500
            if not retryable or attempt >= self.max_retries:
                return response
            self._sleep(self._retry_delay(response, attempt))
            attempt += 1

    def _backoff_delay(self, attempt: int) -> float:
        return float(self.backoff * (2**attempt))

    def _retry_delay(self, response: httpx.Response, attempt: int) -> float:
        header = response.headers.get("retry-after")
        if header is not None:
            try:
                seconds = float(header)
            except ValueError:
                seconds = -1.0  # an HTTP date: rare from APIs, fall back to backoff
            if seconds >= 0:
                return min(seconds, self.retry_after_cap)
        return self._backoff_delay(attempt)

    def _json_body(self, response: httpx.Response, url: str) -> dict[str, Any]:
        """The decoded JSON object of a 2xx response, or `LLMError` saying what went wrong."""
        shown = _display_url(url)
        status = response.status_code
        if not 200 <= status < 300:
            excerpt = self._excerpt(response)
            if status in (400, 413, 422) and _CONTEXT_OVERFLOW.search(excerpt):
                raise LLMError(
                    f"HTTP {status} from {shown}: the prompt does not fit the model's "
                    f"context: {excerpt}; use a smaller --episode-size",
                    smaller_may_work=True,
                )
            hint = ""
            if status in (401, 403):
                hint = f"; {self._key_hint}"
            elif status == 404:
                hint = "; check the model name and base_url"
            elif status == 429:
                hint = "; rate limited even after retries, try again later"
            raise LLMError(f"HTTP {status} from {shown}: {excerpt}{hint}")
        try:
            data = response.json()
        except ValueError as exc:
            raise LLMError(
                f"unreadable reply from {shown} (not JSON): {self._excerpt(response)}"
            ) from exc
        if not isinstance(data, dict):
            raise LLMError(f"unreadable reply from {shown}: expected a JSON object")
        return data

    def _excerpt(self, response: httpx.Response) -> str:
        text = " ".join(_body_text(response).split())
        if self._api_key:
            text = text.replace(self._api_key, "[api key]")
        if not text:
            return "<empty body>"
        if len(text) > _EXCERPT_CHARS:
            text = text[:_EXCERPT_CHARS] + "..."
        return text


class OpenAICompatibleClient(_HTTPChatClient):
    """``POST {base_url}/chat/completions``: OpenAI, vLLM, llama.cpp, LM Studio, Ollama's /v1.

    `structured` is ``json_schema`` (OpenAI, LM Studio, Ollama), ``json_object`` (the
    schema rides along in ``response_format.schema``: llama.cpp's server and
    llama-cpp-python), ``guided_json`` (vLLM) or ``none``."""

    _key_hint = "check the API key (OPENAI_API_KEY or --llm-key)"
    default_base_url = OPENAI_BASE_URL
    default_structured: Structured = "json_schema"

    def _request(
        self, messages: list[Message], schema: dict[str, Any] | None, mode: Structured
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
        }
        if self.max_tokens is not None:
            payload["max_tokens"] = self.max_tokens
        if schema is not None:
            if mode == "json_schema":
                payload["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": "facts", "schema": schema, "strict": False},
                }
            elif mode == "json_object":
                payload["response_format"] = {"type": "json_object", "schema": schema}
            elif mode == "guided_json":
                payload["guided_json"] = schema
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        return f"{self.base_url}/chat/completions", payload, headers

    def _reply(self, data: dict[str, Any], mode: Structured) -> Reply:
        choices = data.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        finish = first.get("finish_reason") if isinstance(first, dict) else None
        usage = data.get("usage")
        return Reply(
            _openai_content(data) or "",
            usage=_usage(usage, "prompt_tokens", "completion_tokens"),
            finish_reason=finish if isinstance(finish, str) else None,
            structured=mode != "none",
        )


class OllamaClient(_HTTPChatClient):
    """``POST {base_url}/api/chat`` (Ollama's own API), with its ``format`` schema."""

    _key_hint = "check the API key (--llm-key) of the proxy in front of Ollama"
    default_base_url = OLLAMA_BASE_URL
    default_structured: Structured = "format"

    def _request(
        self, messages: list[Message], schema: dict[str, Any] | None, mode: Structured
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        options: dict[str, Any] = {"temperature": self.temperature}
        if self.max_tokens is not None:
            options["num_predict"] = self.max_tokens
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "stream": False,
            "options": options,
        }
        if schema is not None:
            # without the schema, "json" still keeps the reply to valid JSON
            payload["format"] = schema if mode == "format" else "json"
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        return f"{self.base_url}/api/chat", payload, headers

    def _reply(self, data: dict[str, Any], mode: Structured) -> Reply:
        message = data.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        reason = data.get("done_reason")
        return Reply(
            content if isinstance(content, str) else "",
            usage=_usage(data, "prompt_eval_count", "eval_count"),
            finish_reason=reason if isinstance(reason, str) else None,
            structured=mode != "none",
        )


class AnthropicClient(_HTTPChatClient):
    """``POST {base_url}/messages`` (Anthropic's Messages API); structured output is a
    forced call of one tool whose input schema is the one asked for."""

    _key_hint = "check the API key (ANTHROPIC_API_KEY or --llm-key)"
    default_base_url = ANTHROPIC_BASE_URL
    default_structured: Structured = "tool"

    def __init__(self, model: str, *, max_tokens: int | None = 4096, **options: Any) -> None:
        super().__init__(model, max_tokens=max_tokens or 4096, **options)

    def _request(
        self, messages: list[Message], schema: dict[str, Any] | None, mode: Structured
    ) -> tuple[str, dict[str, Any], dict[str, str]]:
        system_parts = [m["content"] for m in messages if m["role"] == "system"]
        turns = [m for m in messages if m["role"] != "system"]
        if not turns:
            raise InvalidInput("Anthropic needs at least one user message besides the system ones")
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "messages": turns,
        }
        if schema is not None and mode == "tool":
            payload["tools"] = [
                {
                    "name": _TOOL_NAME,
                    "description": "Record the facts found, or an empty list.",
                    "input_schema": schema,
                }
            ]
            payload["tool_choice"] = {"type": "tool", "name": _TOOL_NAME}
        elif schema is not None:
            system_parts.append(
                "Reply with JSON only: a single JSON value, no prose and no code fences, "
                "matching this JSON Schema:\n" + json.dumps(schema, separators=(",", ":"))
            )
        if system_parts:
            payload["system"] = "\n\n".join(system_parts)
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return f"{self.base_url}/messages", payload, headers

    def _reply(self, data: dict[str, Any], mode: Structured) -> Reply:
        blocks = data.get("content")
        blocks = [b for b in blocks if isinstance(b, dict)] if isinstance(blocks, list) else []
        tool = next((b for b in blocks if b.get("type") == "tool_use"), None)
        if tool is not None and isinstance(tool.get("input"), dict):
            text = json.dumps(tool["input"], ensure_ascii=False)
        else:
            text = "".join(b["text"] for b in blocks if isinstance(b.get("text"), str))
        reason = data.get("stop_reason")
        return Reply(
            text,
            usage=_usage(data.get("usage"), "input_tokens", "output_tokens"),
            finish_reason=reason if isinstance(reason, str) else None,
            structured=tool is not None,
        )


def get_chat_client(
    name: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_tokens: int | None = None,
    structured: Structured | None = None,
) -> ChatClient:
    """A client for ``provider:model``.

    ``openai:gpt-4o-mini`` and ``anthropic:claude-...`` need `api_key`; ``ollama:qwen2.5:7b``
    talks to a local Ollama (the model name may itself hold colons; a `base_url` ending in
    ``/v1`` uses Ollama's OpenAI-compatible endpoint instead of ``/api/chat``);
    ``vllm:``, ``lmstudio:``, ``llamacpp:`` and ``openai-compatible:`` need `base_url`.
    A `base_url` given for openai, anthropic or ollama overrides their default.
    `structured` overrides the provider's structured-output mode (`STRUCTURED`);
    ``"none"`` asks for JSON in the prompt only.
    """
    provider, sep, model = name.strip().partition(":")
    provider = provider.strip().lower()
    model = model.strip()
    if not sep or not provider or not model:
        raise LLMConfigError(
            f"LLM name {name!r} should be provider:model, e.g. openai:gpt-4o-mini, "
            "ollama:qwen2.5:7b or anthropic:claude-3-5-haiku-latest"
        )
    if provider not in PROVIDERS:
        raise LLMConfigError(
            f"unknown LLM provider {provider!r} in {name!r}: use one of {', '.join(PROVIDERS)}"
        )
    options: dict[str, Any] = {
        "api_key": api_key,
        "timeout": timeout,
        "max_tokens": max_tokens,
        "structured": structured or STRUCTURED[provider],
    }
    if provider == "openai":
        if not api_key:
            raise LLMConfigError(
                f"{provider}:{model} needs an API key: set OPENAI_API_KEY (or --llm-key), "
                "or use a local model such as ollama:qwen2.5:7b"
            )
        return OpenAICompatibleClient(model, base_url=base_url or OPENAI_BASE_URL, **options)
    if provider == "anthropic":
        if not api_key:
            raise LLMConfigError(
                f"{provider}:{model} needs an API key: set ANTHROPIC_API_KEY (or --llm-key)"
            )
        return AnthropicClient(model, base_url=base_url or ANTHROPIC_BASE_URL, **options)
    if provider == "ollama":
        if base_url and base_url.rstrip("/").endswith("/v1"):
            if options["structured"] == "format":
                options["structured"] = "json_schema"
            return OpenAICompatibleClient(model, base_url=base_url, **options)
        return OllamaClient(model, base_url=base_url or OLLAMA_BASE_URL, **options)
    if not base_url:
        raise LLMConfigError(
            f"{provider}:{model} needs the server's URL: pass base_url (--llm-url), "
            f"e.g. {_SELF_HOSTED_EXAMPLES[provider]}"
        )
    return OpenAICompatibleClient(model, base_url=base_url, **options)


def _usage(data: Any, tokens_in: str, tokens_out: str) -> dict[str, int]:
    """Token counts under the common names, when the server gave them."""
    if not isinstance(data, dict):
        return {}
    out = {}
    for name, key in (("prompt_tokens", tokens_in), ("completion_tokens", tokens_out)):
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            out[name] = value
    return out


def _body_text(response: httpx.Response) -> str:
    try:
        return response.text
    except (UnicodeDecodeError, httpx.HTTPError):
        return "<undecodable body>"


def _checked_messages(messages: Sequence[Message]) -> list[Message]:
    if not messages:
        raise InvalidInput("no messages to send: give at least one user message")
    checked: list[Message] = []
    for i, message in enumerate(messages):
        role, content = message.get("role"), message.get("content")
        if role not in _ROLES:
            raise InvalidInput(f"message {i} has role {role!r}: use system, user or assistant")
        if not isinstance(content, str):
            raise InvalidInput(f"message {i} has no text content: set 'content' to a string")
        checked.append({"role": role, "content": content})
    return checked


def _openai_content(data: dict[str, Any]) -> str | None:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # some gateways return content parts
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return None


_FENCE = re.compile(r"\A\s*```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*?)\n?```\s*\Z", re.DOTALL)


def _strip_code_fence(text: str) -> str:
    """Models asked for bare JSON still wrap it in ```json fences often enough to matter."""
    m = _FENCE.match(text)
    return m.group("body") if m else text


def _display_url(url: str) -> str:
    """`url` without credentials or query, for error messages."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<invalid url>"
    return str(parsed.copy_with(userinfo=b"", query=None, fragment=None))


def _short_json(data: Mapping[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= _EXCERPT_CHARS else text[:_EXCERPT_CHARS] + "..."
