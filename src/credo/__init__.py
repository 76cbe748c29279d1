"""credo: a semantic fact store for AI agents.

Facts, not transcripts: a gate decides what may become a fact, a resolver decides what a
new fact does to the stored ones, and recall renders what is known with dates, hedges and
contradictions in plain view.
"""

from __future__ import annotations

from .aio import AsyncMemory
from .embed import Embedder, HashEmbedder, get_embedder
from .fact import Fact, Status, normalize_entity
from .memory import Memory, MemoryError_, NotFound, RememberResult
from .recall import Hit
from .resolver import Relation
from .store import Store, StoreError, open_store

__version__ = "0.1.0"

__all__ = [
    "AsyncMemory",
    "Embedder",
    "Fact",
    "HashEmbedder",
    "Hit",
    "Memory",
    "MemoryError_",
    "NotFound",
    "Relation",
    "RememberResult",
    "Status",
    "Store",
    "StoreError",
    "__version__",
    "get_embedder",
    "normalize_entity",
    "open_store",
]
