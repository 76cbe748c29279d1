"""credo: a semantic fact store for AI agents.

Facts, not transcripts: a gate decides what may become a fact, a resolver decides what a
new fact does to the stored ones, and recall renders what is known with dates, hedges and
contradictions in plain view.
"""

from __future__ import annotations

import warnings
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .aio import AsyncMemory
    from .config import SettingsError
    from .embed import Embedder, EmbedderError, HashEmbedder, get_embedder
    from .errors import CredoError, IngestError, InvalidInput, NotFound
    from .extract.base import Turn
    from .fact import Fact, Status, normalize_entity
    from .llm import LLMConfigError, LLMError, get_chat_client
    from .memory import Memory, RememberResult
    from .memory import MemoryError_ as MemoryError_  # deprecated: InvalidInput
    from .nlp import NLPError
    from .policy import PolicyError
    from .predicates import CatalogueError
    from .recall import Hit
    from .resolver import Relation
    from .store import Store, open_store
    from .store.base import (
        Conflict,
        DiskFull,
        ForgetReport,
        ScopeError,
        StoreError,
        StoreUnavailable,
    )
    from .timeparse import TimeError

__version__ = "0.1.0"

#: each public name and the module it lives in: imported on first use, so that
#: `credo --version`, `credo --help` and `import credo.cli` do not pay for numpy, the
#: store and the write path (and AsyncMemory's asyncio and ingest path) before a command
#: needs them. `ingest` (the function) is not here: `credo.ingest` is its module, and
#: importing the module would replace a function of that name on the package; use
#: `from credo.ingest import ingest`
_LAZY = {
    "AsyncMemory": ".aio",
    "Embedder": ".embed",
    "HashEmbedder": ".embed",
    "get_embedder": ".embed",
    "Fact": ".fact",
    "Status": ".fact",
    "normalize_entity": ".fact",
    "Turn": ".extract.base",
    "get_chat_client": ".llm",
    "Memory": ".memory",
    "RememberResult": ".memory",
    "Hit": ".recall",
    "Relation": ".resolver",
    "Store": ".store",
    "open_store": ".store",
    "Conflict": ".store.base",
    "ForgetReport": ".store.base",
    # the errors: every one is a CredoError (credo.errors says which is which)
    "CredoError": ".errors",
    "InvalidInput": ".errors",
    "NotFound": ".errors",
    "ScopeError": ".store.base",
    "StoreError": ".store.base",
    "DiskFull": ".store.base",
    "StoreUnavailable": ".store.base",
    "EmbedderError": ".embed",
    "IngestError": ".errors",
    "LLMError": ".llm",
    "LLMConfigError": ".llm",
    "NLPError": ".nlp",
    "SettingsError": ".config",
    "PolicyError": ".policy",
    "CatalogueError": ".predicates",
    "TimeError": ".timeparse",
}

#: old names, still importable, each warning that it is deprecated: name -> (the module
#: and name it stands for, the name to use instead)
_DEPRECATED = {
    "MemoryError_": (".errors", "InvalidInput"),
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept here)."""
    if name in _DEPRECATED:
        home, instead = _DEPRECATED[name]
        warnings.warn(
            f"credo.{name} is deprecated: use credo.{instead}", DeprecationWarning, stacklevel=2
        )
        return getattr(import_module(home, __name__), instead)  # not kept: it warns each time
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
    "CatalogueError",
    "Conflict",
    "CredoError",
    "DiskFull",
    "Embedder",
    "EmbedderError",
    "Fact",
    "ForgetReport",
    "HashEmbedder",
    "Hit",
    "IngestError",
    "InvalidInput",
    "LLMConfigError",
    "LLMError",
    "Memory",
    "NLPError",
    "NotFound",
    "PolicyError",
    "Relation",
    "RememberResult",
    "ScopeError",
    "SettingsError",
    "Status",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TimeError",
    "Turn",
    "__version__",
    "get_chat_client",
    "get_embedder",
    "normalize_entity",
    "open_store",
]
