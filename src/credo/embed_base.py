"""The embedder protocol every backend implements (`Embedder`), its error, and the one
helper backends share. Backends (`embed_local`, `embed_openai`, the `HashEmbedder` in
`embed`) import this module; `credo.embed` picks one by name from its registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from .errors import CredoError

Kind = Literal["query", "document"]
Vectors = npt.NDArray[np.float32]


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
