"""credo: a semantic fact store for AI agents.

Facts, not transcripts: a gate decides what may become a fact, a resolver decides what a
new fact does to the stored ones, and recall renders what is known with dates, hedges and
contradictions in plain view.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .aio import AsyncMemory
    from .embed import Embedder, HashEmbedder, get_embedder
    from .fact import Fact, Status, normalize_entity
    from .memory import Memory, MemoryError_, NotFound, RememberResult
    from .recall import Hit
    from .resolver import Relation
    from .store import Store, StoreError, open_store

__version__ = "0.1.0"

#: each public name and the module it lives in: imported on first use, so that
#: `credo --version`, `credo --help` and `import credo.cli` do not pay for numpy, the
#: store and the write path (and AsyncMemory's asyncio and ingest path) before a command
#: needs them
_LAZY = {
    "AsyncMemory": ".aio",
    "Embedder": ".embed",
    "HashEmbedder": ".embed",
    "get_embedder": ".embed",
    "Fact": ".fact",
    "Status": ".fact",
    "normalize_entity": ".fact",
    "Memory": ".memory",
    "MemoryError_": ".memory",
    "NotFound": ".memory",
    "RememberResult": ".memory",
    "Hit": ".recall",
    "Relation": ".resolver",
    "Store": ".store",
    "StoreError": ".store",
    "open_store": ".store",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept here)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


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
