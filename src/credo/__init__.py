"""credo: a semantic fact store for AI agents.

Facts, not transcripts: a gate decides what may become a fact, a resolver decides what a
new fact does to the stored ones, and recall renders what is known with dates, hedges and
contradictions in plain view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .embed import Embedder, HashEmbedder, get_embedder
from .fact import Fact, Status, normalize_entity
from .memory import Memory, MemoryError_, NotFound, RememberResult
from .recall import Hit
from .resolver import Relation
from .store import Store, StoreError, open_store

if TYPE_CHECKING:
    from .aio import AsyncMemory

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`AsyncMemory` is imported on first use: asyncio and the ingest path cost a CLI
    call that never needs them (a recall per prompt) a fifth of a second."""
    if name == "AsyncMemory":
        from .aio import AsyncMemory

        return AsyncMemory
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
