"""credo's errors: every exception credo raises to its caller is a `CredoError`.

Catch `CredoError` for "anything credo refused or could not do"; catch a subclass to tell
the cases apart. Each subclass keeps the builtin base it always had (`ValueError` for bad
input, `RuntimeError` for a part that failed), so an `except ValueError` written before
`CredoError` existed still catches what it caught. Every message says what to do.

The classes, where they live, and what they mean (all importable from `credo`):

- `InvalidInput` (ValueError, here): bad input or misuse of the `Memory` API (an empty
  text, a date in the future, a malformed import). `NotFound` (here) is the one a caller
  most often wants apart: no fact, conflict, alias or rule with that id in this scope.
  `MemoryError_` is its old name, kept as a deprecated alias.
- `ScopeError` (ValueError, credo.store.base): a scope name that is empty or malformed.
- `StoreError` (RuntimeError, credo.store.base): the store cannot do what was asked; its
  subclasses `DiskFull` and `StoreUnavailable` are worth catching apart (free space, or
  wait for the server, then try again: nothing half-done was kept).
- `EmbedderError` (RuntimeError, credo.embed), `LLMError` (RuntimeError, credo.llm),
  `NLPError` (RuntimeError, credo.nlp): a model or an endpoint could not be built or
  reached. `LLMConfigError` (ValueError, credo.llm): a chat model is misconfigured.
- `IngestError` (ValueError, here; also importable from credo.ingest): an input cannot be
  read as a conversation.
- `SettingsError` (ValueError, credo.config), `PolicyError` (ValueError, credo.policy),
  `CatalogueError` (ValueError, credo.predicates), `TimeError` (ValueError,
  credo.timeparse): a setting, a gate policy file, a predicate catalogue entry or a time
  that cannot be used.
- The evaluation harness's data errors (credo.eval.*: `ProbeFileError`, `LocomoError`,
  `UpdatesDataError`, `ResolverDataError`, `BeamError`, `NaturalDataError`).

This module imports nothing, so that any module may import it without a cost.
"""

from __future__ import annotations


class CredoError(Exception):
    """Anything credo refused or could not do; the message says what to do."""


class InvalidInput(CredoError, ValueError):
    """Bad input or misuse of the Memory API; the message says what to do."""


class NotFound(InvalidInput):
    """No fact (or conflict, alias, rule) with that id in this scope."""


class IngestError(CredoError, ValueError):
    """The input cannot be read as a conversation; the message names the file and place.

    Raised by the readers of `credo.ingest` and `credo.exports` (and importable from
    `credo.ingest`, as it always was)."""


__all__ = ["CredoError", "IngestError", "InvalidInput", "NotFound"]
