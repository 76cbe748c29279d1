"""Chat clients behind one small protocol, over plain sync `httpx` (no vendor SDKs).

Two wire formats cover the providers people run: OpenAI's ``/chat/completions`` (OpenAI,
Ollama, vLLM, llama.cpp's server, LM Studio, most gateways) and Anthropic's ``/messages``.
`get_chat_client("provider:model")` picks one.

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
from typing import Any, Protocol, TypeVar, runtime_checkable

import httpx

__all__ = [
    "AnthropicClient",
    "ChatClient",
    "LLMConfigError",
    "LLMError",
    "Message",
    "OpenAICompatibleClient",
    "get_chat_client",
]

Message = dict[str, str]

OPENAI_BASE_URL = "https://api.openai.com/v1"
OLLAMA_BASE_URL = "http://localhost:11434/v1"
ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1"
ANTHROPIC_VERSION = "2023-06-01"

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


@runtime_checkable
class ChatClient(Protocol):
    """Anything that turns a chat into the assistant's reply text."""

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        """The reply to `messages`; with `json_schema`, the reply is asked to be JSON
        matching it (best effort: callers still validate)."""
        ...


class LLMError(RuntimeError):
    """The model could not be reached or gave no usable reply (timeout, HTTP error, bad body)."""


class LLMConfigError(ValueError):
    """The LLM is misconfigured (unknown provider, missing key or URL); the message says
    which setting to fix."""


_C = TypeVar("_C", bound="_HTTPChatClient")


class _HTTPChatClient:
    """Shared transport: one `httpx.Client`, retries with backoff, error translation."""

    #: longest wait a server's Retry-After may impose before the next attempt, in seconds
    retry_after_cap: float = 30.0
    #: where to look when the server answers 401/403
    _key_hint: str = "check the API key"
    #: the endpoint when none is given
    default_base_url: str = ""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        temperature: float = 0.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        base_url = self.default_base_url if base_url is None else base_url
        if not model:
            raise LLMConfigError("no model given: name one, e.g. openai:gpt-4o-mini")
        if not base_url:
            raise LLMConfigError("base_url is empty: give the server's URL, e.g. http://host/v1")
        if timeout <= 0:
            raise LLMConfigError(f"timeout must be positive, got {timeout}")
        if max_retries < 0:
            raise LLMConfigError(f"max_retries must be 0 or more, got {max_retries}")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.temperature = temperature
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
                    f"timed out after {self.timeout:g} s calling {shown}; raise the timeout "
                    "or use a smaller model"
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
            hint = ""
            if status in (401, 403):
                hint = f"; {self._key_hint}"
            elif status == 404:
                hint = "; check the model name and base_url"
            elif status == 429:
                hint = "; rate limited even after retries, try again later"
            raise LLMError(f"HTTP {status} from {shown}: {self._excerpt(response)}{hint}")
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
        try:
            text = response.text
        except (UnicodeDecodeError, httpx.HTTPError):
            return "<undecodable body>"
        text = " ".join(text.split())
        if self._api_key:
            text = text.replace(self._api_key, "[api key]")
        if not text:
            return "<empty body>"
        if len(text) > _EXCERPT_CHARS:
            text = text[:_EXCERPT_CHARS] + "..."
        return text


class OpenAICompatibleClient(_HTTPChatClient):
    """``POST {base_url}/chat/completions``: OpenAI, Ollama, vLLM, llama.cpp, LM Studio."""

    _key_hint = "check the API key (OPENAI_API_KEY or --llm-key)"
    default_base_url = OPENAI_BASE_URL

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        url = f"{self.base_url}/chat/completions"
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": _checked_messages(messages),
            "temperature": self.temperature,
        }
        if json_schema is not None:
            payload["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "facts", "schema": json_schema, "strict": False},
            }
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        response = self._post(url, payload, headers)
        if json_schema is not None and _rejects_response_format(response):
            # Many local servers lack structured output; the prompt still asks for JSON and
            # the caller validates, so one plain retry beats failing outright.
            del payload["response_format"]
            response = self._post(url, payload, headers)
        data = self._json_body(response, url)
        content = _openai_content(data)
        if content is None or not content.strip():
            raise LLMError(
                f"empty or unreadable reply from {_display_url(url)}: {_short_json(data)}"
            )
        return _strip_code_fence(content) if json_schema is not None else content


class AnthropicClient(_HTTPChatClient):
    """``POST {base_url}/messages`` (Anthropic's Messages API)."""

    _key_hint = "check the API key (ANTHROPIC_API_KEY or --llm-key)"
    default_base_url = ANTHROPIC_BASE_URL

    def __init__(self, model: str, *, max_tokens: int = 4096, **options: Any) -> None:
        super().__init__(model, **options)
        if max_tokens < 1:
            raise LLMConfigError(f"max_tokens must be positive, got {max_tokens}")
        self.max_tokens = max_tokens

    def complete(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None
    ) -> str:
        url = f"{self.base_url}/messages"
        checked = _checked_messages(messages)
        system_parts = [m["content"] for m in checked if m["role"] == "system"]
        turns = [m for m in checked if m["role"] != "system"]
        if not turns:
            raise ValueError("Anthropic needs at least one user message besides the system ones")
        if json_schema is not None:
            # No structured-output switch on this API: ask for it in the system prompt.
            system_parts.append(
                "Reply with JSON only: a single JSON value, no prose and no code fences, "
                "matching this JSON Schema:\n" + json.dumps(json_schema, separators=(",", ":"))
            )
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "messages": turns,
        }
        if system_parts:
            payload["system"] = "\n\n".join(system_parts)
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        data = self._json_body(self._post(url, payload, headers), url)
        blocks = data.get("content")
        texts = (
            [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
            if isinstance(blocks, list)
            else []
        )
        content = "".join(texts)
        if not content.strip():
            raise LLMError(
                f"empty or unreadable reply from {_display_url(url)}: {_short_json(data)}"
            )
        return _strip_code_fence(content) if json_schema is not None else content


def get_chat_client(
    name: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
) -> ChatClient:
    """A client for ``provider:model``.

    ``openai:gpt-4o-mini`` and ``anthropic:claude-...`` need `api_key`; ``ollama:qwen2.5:7b``
    talks to a local Ollama (the model name may itself hold colons); ``vllm:``,
    ``lmstudio:``, ``llamacpp:`` and ``openai-compatible:`` need `base_url`. A `base_url`
    given for openai, anthropic or ollama overrides their default.
    """
    provider, sep, model = name.strip().partition(":")
    provider = provider.strip().lower()
    model = model.strip()
    if not sep or not provider or not model:
        raise LLMConfigError(
            f"LLM name {name!r} should be provider:model, e.g. openai:gpt-4o-mini, "
            "ollama:qwen2.5:7b or anthropic:claude-3-5-haiku-latest"
        )
    if provider == "openai":
        if not api_key:
            raise LLMConfigError(
                f"{provider}:{model} needs an API key: set OPENAI_API_KEY (or --llm-key), "
                "or use a local model such as ollama:qwen2.5:7b"
            )
        return OpenAICompatibleClient(
            model, base_url=base_url or OPENAI_BASE_URL, api_key=api_key, timeout=timeout
        )
    if provider == "anthropic":
        if not api_key:
            raise LLMConfigError(
                f"{provider}:{model} needs an API key: set ANTHROPIC_API_KEY (or --llm-key)"
            )
        return AnthropicClient(
            model, base_url=base_url or ANTHROPIC_BASE_URL, api_key=api_key, timeout=timeout
        )
    if provider == "ollama":
        return OpenAICompatibleClient(
            model, base_url=base_url or OLLAMA_BASE_URL, api_key=api_key, timeout=timeout
        )
    if provider in _SELF_HOSTED_EXAMPLES:
        if not base_url:
            raise LLMConfigError(
                f"{provider}:{model} needs the server's URL: pass base_url (--llm-url), "
                f"e.g. {_SELF_HOSTED_EXAMPLES[provider]}"
            )
        return OpenAICompatibleClient(model, base_url=base_url, api_key=api_key, timeout=timeout)
    raise LLMConfigError(
        f"unknown LLM provider {provider!r} in {name!r}: use one of {', '.join(PROVIDERS)}"
    )


def _checked_messages(messages: Sequence[Message]) -> list[Message]:
    if not messages:
        raise ValueError("no messages to send: give at least one user message")
    checked: list[Message] = []
    for i, message in enumerate(messages):
        role, content = message.get("role"), message.get("content")
        if role not in _ROLES:
            raise ValueError(f"message {i} has role {role!r}: use system, user or assistant")
        if not isinstance(content, str):
            raise ValueError(f"message {i} has no text content: set 'content' to a string")
        checked.append({"role": role, "content": content})
    return checked


def _rejects_response_format(response: httpx.Response) -> bool:
    if response.status_code not in (400, 422):
        return False
    try:
        body = response.text.lower()
    except (UnicodeDecodeError, httpx.HTTPError):
        return False
    return "response_format" in body or "json_schema" in body


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
