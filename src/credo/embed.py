"""Embedders: one small protocol, a deterministic hash embedder, and selection by name.

A backend implements `embed_batch(texts, kind)` (the protocol is in `embed_base`, which
backends import; this module loads them only through its registry, `BACKENDS`); the base
class gives the single-item helpers. `kind` is "query" or "document": some models embed
the two differently, and the distinction is kept even where a model ignores it.

Names: `local:minilm` (the default: int8 ONNX all-MiniLM-L6-v2, shipped as package data),
`local:static` (a static distillation of it: faster, lossier), `hash` (tests),
`openai:<model>` and `ollama:<model>` (OpenAI-compatible endpoints).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence

import numpy as np

from .embed_base import Embedder, EmbedderError, Kind, Vectors, l2_normalise

__all__ = [
    "BACKENDS",
    "DEFAULT_EMBEDDER",
    "Embedder",
    "EmbedderError",
    "HashEmbedder",
    "Kind",
    "Vectors",
    "get_embedder",
    "l2_normalise",
    "register_backend",
]

DEFAULT_EMBEDDER = "local:minilm"


_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashEmbedder(Embedder):
    """Deterministic bag-of-words vectors (feature hashing). For tests and as a fallback.

    Two texts with the same words get the same vector; paraphrases with other words do not.
    That is exactly what a unit test wants and nothing a user should rely on for quality.
    """

    duplicate_threshold = 0.92

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ValueError("HashEmbedder needs at least 8 dimensions")
        self.dim = dim
        self.name = f"hash:{dim}"

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in _TOKEN.findall(text.lower()):
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dim
                sign = 1.0 if digest[4] & 1 else -1.0
                out[row, bucket] += sign
        return l2_normalise(out)


#: how a backend is built from its whole name, the rest of it after the provider
#: ("local:minilm" -> "minilm") and the options (an endpoint's URL, key): one builder per
#: provider. A new backend is a module of its own (a subclass of `embed_base.Embedder`)
#: and one entry here, its import kept inside the builder so that a backend not asked for
#: is never loaded
Builder = Callable[[str, str, dict[str, str]], Embedder]


def _hash(name: str, model: str, options: dict[str, str]) -> Embedder:
    return HashEmbedder(int(model) if model else 256)


def _local(name: str, model: str, options: dict[str, str]) -> Embedder:
    from .embed_local import load_local

    return load_local(model or "minilm")


def _openai(name: str, model: str, options: dict[str, str]) -> Embedder:
    from .embed_openai import OpenAIEmbedder

    if not model:
        raise EmbedderError(f"{name!r}: give a model, e.g. openai:text-embedding-3-small")
    return OpenAIEmbedder.from_name(name.partition(":")[0], model, **options)


BACKENDS: dict[str, Builder] = {
    "hash": _hash,
    "local": _local,
    "openai": _openai,
    "ollama": _openai,
}


def register_backend(provider: str, builder: Builder) -> None:
    """Make `provider:<model>` names build with `builder` (a plug-in's own backend)."""
    BACKENDS[provider] = builder


def get_embedder(name: str | None = None, **options: str) -> Embedder:
    """Build an embedder from its name, through `BACKENDS`."""
    name = (name or DEFAULT_EMBEDDER).strip()
    provider, _, model = name.partition(":")
    builder = BACKENDS.get(provider)
    if builder is None:
        raise EmbedderError(
            f"unknown embedder {name!r}: use local:minilm, local:static, hash, "
            "openai:<model> or ollama:<model>"
        )
    return builder(name, model, options)
