"""Embedders: one small protocol, a deterministic hash embedder, and selection by name.

A backend implements `embed_batch(texts, kind)`; the base class gives the single-item
helpers. `kind` is "query" or "document": some models embed the two differently, and the
distinction is kept even where a model ignores it.

Names: `local:minilm` (the default: int8 ONNX all-MiniLM-L6-v2, shipped as package data),
`local:static` (a static distillation of it: faster, lossier), `hash` (tests),
`openai:<model>` and `ollama:<model>` (OpenAI-compatible endpoints).
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from .errors import CredoError

Kind = Literal["query", "document"]
Vectors = npt.NDArray[np.float32]

DEFAULT_EMBEDDER = "local:minilm"


class EmbedderError(CredoError, RuntimeError):
    """An embedder could not be built or could not embed (missing files, endpoint down)."""


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    #: the name vectors are recorded under; changing it means re-embedding (`credo reindex`)
    name: str
    dim: int
    #: cosine at or above which two facts on one key may be duplicates (calibrated per model)
    duplicate_threshold: float = 0.9

    @abstractmethod
    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        """Return an array of shape (len(texts), dim), each row of unit length (or zero)."""

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        vector: npt.NDArray[np.float32] = self.embed_batch([text], kind="query")[0]
        return vector

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.embed_batch(texts, kind="document")


def l2_normalise(matrix: npt.NDArray[np.floating]) -> Vectors:
    """Rows to unit length; all-zero rows stay zero instead of becoming NaN."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (m / norms).astype(np.float32, copy=False)
    return out


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


def get_embedder(name: str | None = None, **options: str) -> Embedder:
    """Build an embedder from its name. Imports of optional backends happen here, lazily."""
    name = (name or DEFAULT_EMBEDDER).strip()
    provider, _, model = name.partition(":")
    if provider == "hash":
        return HashEmbedder(int(model) if model else 256)
    if provider == "local":
        from .embed_local import load_local

        return load_local(model or "minilm")
    if provider in ("openai", "ollama"):
        from .embed_openai import OpenAIEmbedder

        if not model:
            raise EmbedderError(f"{name!r}: give a model, e.g. openai:text-embedding-3-small")
        return OpenAIEmbedder.from_name(provider, model, **options)
    raise EmbedderError(
        f"unknown embedder {name!r}: use local:minilm, local:static, hash, "
        "openai:<model> or ollama:<model>"
    )
