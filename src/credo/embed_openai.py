"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama, vLLM, ...).

This module never reads environment variables: the caller (the CLI, a config file) passes
``base_url`` and ``api_key`` explicitly.

The vector dimension is learned from the first response unless ``dim`` is given; until the
first call, ``dim`` is 0. Giving ``dim`` also checks every response against it (and, for
OpenAI's ``text-embedding-3-*`` models, asks the endpoint to shorten vectors to that size).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from .embed_base import Embedder, EmbedderError, Kind, Vectors, l2_normalise

DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "ollama": "http://localhost:11434/v1",
}

#: statuses worth retrying: rate limits and server-side trouble
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


class OpenAIEmbedder(Embedder):
    """Sync client for ``POST {base_url}/embeddings``; vectors are L2-normalised float32."""

    duplicate_threshold = 0.9

    def __init__(
        self,
        *,
        provider: str,
        model: str,
        base_url: str,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30.0,
        batch_size: int = 128,
        max_retries: int = 3,
        backoff: float = 0.5,
        send_dimensions: bool = False,
        client: httpx.Client | None = None,
    ) -> None:
        if not model:
            raise EmbedderError(f"{provider}: no model given")
        if batch_size < 1:
            raise EmbedderError("batch_size must be at least 1")
        self.provider = provider
        self.model = model
        self.name = f"{provider}:{model}"
        self.base_url = base_url.rstrip("/")
        self.dim = int(dim) if dim else 0
        self._fixed_dim = bool(dim)
        self._send_dimensions = send_dimensions and bool(dim)
        self.batch_size = batch_size
        self.max_retries = max_retries
        self.backoff = backoff
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = client or httpx.Client(timeout=timeout, headers=headers)
        if client is not None:
            self._client.headers.update(headers)

    @classmethod
    def from_name(
        cls,
        provider: str,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        dim: int | str | None = None,
        timeout: float | str = 30.0,
        batch_size: int | str = 128,
        max_retries: int | str = 3,
        backoff: float | str = 0.5,
        **unknown: Any,
    ) -> OpenAIEmbedder:
        """Build from a provider ("openai" or "ollama") and a model name.

        "openai" needs ``api_key`` (the caller reads OPENAI_API_KEY, not this library);
        "ollama" needs none. ``base_url`` overrides the provider's default, for any
        OpenAI-compatible server. ``dim``: the vector size, learned from the first response
        when not given. Numbers may come as strings (from a config file or the command line).
        """
        label = f"{provider}:{model}"
        if unknown:
            raise EmbedderError(
                f"{label}: unknown option(s) {', '.join(sorted(unknown))}; known: base_url, "
                "api_key, dim, timeout, batch_size, max_retries, backoff"
            )
        if provider not in DEFAULT_BASE_URLS:
            raise EmbedderError(
                f"unknown provider {provider!r}: use {', '.join(sorted(DEFAULT_BASE_URLS))}"
            )
        if provider == "openai" and not api_key:
            raise EmbedderError(f"{label} needs an API key: set OPENAI_API_KEY or pass api_key")
        try:
            dim_value = int(dim) if dim not in (None, "") else None
            timeout_value = float(timeout)
            batch_value = int(batch_size)
            retries_value = int(max_retries)
            backoff_value = float(backoff)
        except (TypeError, ValueError) as exc:
            raise EmbedderError(f"{label}: bad option value: {exc}") from exc
        if dim_value is not None and dim_value < 1:
            raise EmbedderError(f"{label}: dim must be positive, got {dim_value}")
        if timeout_value <= 0 or retries_value < 0 or backoff_value < 0:
            raise EmbedderError(f"{label}: timeout must be positive, retries and backoff >= 0")
        return cls(
            provider=provider,
            model=model,
            base_url=base_url or DEFAULT_BASE_URLS[provider],
            api_key=api_key,
            dim=dim_value,
            timeout=timeout_value,
            batch_size=batch_value,
            max_retries=retries_value,
            backoff=backoff_value,
            # OpenAI's text-embedding-3 models can shorten vectors on request
            send_dimensions=provider == "openai" and model.startswith("text-embedding-3"),
        )

    def resolve_dim(self) -> int:
        """The vector size; embeds one probe text if no response has told it yet."""
        if self.dim == 0:
            self.embed_batch(["dimension probe"])
        return self.dim

    def close(self) -> None:
        self._client.close()

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        rows: list[Vectors] = []
        for start in range(0, len(texts), self.batch_size):
            rows.append(self._embed_chunk(list(texts[start : start + self.batch_size])))
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.concatenate(rows, axis=0) if len(rows) > 1 else rows[0]

    # -- internals ---------------------------------------------------------------------------

    def _embed_chunk(self, texts: list[str]) -> Vectors:
        # Some servers reject empty strings; embed them as one space (a near-neutral input).
        payload: dict[str, Any] = {
            "model": self.model,
            "input": [t if t.strip() else " " for t in texts],
            "encoding_format": "float",
        }
        if self._send_dimensions:
            payload["dimensions"] = self.dim
        body = self._post(payload)
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or len(data) != len(texts):
            got = len(data) if isinstance(data, list) else "no"
            raise EmbedderError(
                f"{self.name}: expected {len(texts)} embeddings in 'data', got {got}"
            )
        try:
            ordered = sorted(data, key=lambda item: int(item.get("index", 0)))
            matrix = np.asarray([item["embedding"] for item in ordered], dtype=np.float32)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EmbedderError(f"{self.name}: malformed embeddings response: {exc}") from exc
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise EmbedderError(f"{self.name}: malformed embeddings, shape {matrix.shape}")
        if self.dim == 0:
            self.dim = int(matrix.shape[1])
        elif matrix.shape[1] != self.dim:
            how = "configured" if self._fixed_dim else "earlier responses had"
            raise EmbedderError(
                f"{self.name}: endpoint returned {matrix.shape[1]}-dim vectors, {how} {self.dim}"
            )
        return l2_normalise(matrix)

    def _post(self, payload: dict[str, Any]) -> Any:
        url = f"{self.base_url}/embeddings"
        attempt = 0
        while True:
            try:
                response = self._client.post(url, json=payload)
            except httpx.HTTPError as exc:
                if attempt < self.max_retries:
                    self._sleep(attempt, None)
                    attempt += 1
                    continue
                raise EmbedderError(f"{self.name}: cannot reach {url}: {exc}") from exc
            if response.status_code in _RETRY_STATUSES and attempt < self.max_retries:
                self._sleep(attempt, response.headers.get("retry-after"))
                attempt += 1
                continue
            if response.status_code >= 400:
                raise EmbedderError(
                    f"{self.name}: HTTP {response.status_code} from {url}: "
                    f"{_error_message(response)}"
                )
            try:
                return response.json()
            except ValueError as exc:
                raise EmbedderError(f"{self.name}: response from {url} is not JSON") from exc

    def _sleep(self, attempt: int, retry_after: str | None) -> None:
        delay = self.backoff * (2**attempt)
        if retry_after:
            with contextlib.suppress(ValueError):
                delay = max(delay, min(float(retry_after), 30.0))
        time.sleep(delay)


def _error_message(response: httpx.Response) -> str:
    """The server's error message: OpenAI's {"error": {"message": ...}}, else the body text."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:500] or response.reason_phrase
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str):
            return error
        if body.get("message"):
            return str(body["message"])
    return str(body)[:500]
