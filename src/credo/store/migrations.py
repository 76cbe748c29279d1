"""Schema migrations: named functions, applied once each, in order, each in its own
transaction together with the row that records it. Backends own their lists of steps."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from .base import StoreError

Conn = TypeVar("Conn")


class Migrations(Generic[Conn]):
    """An ordered registry: decorate a function to add a step named after it."""

    def __init__(self) -> None:
        self._steps: list[tuple[str, Callable[[Conn], None]]] = []

    def __call__(self, fn: Callable[[Conn], None]) -> Callable[[Conn], None]:
        if any(name == fn.__name__ for name, _ in self._steps):
            raise ValueError(f"migration {fn.__name__!r} is registered twice")
        self._steps.append((fn.__name__, fn))
        return fn

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self._steps]

    def pending(self, applied: set[str]) -> Iterator[tuple[str, Callable[[Conn], None]]]:
        unknown = applied - set(self.names)
        if unknown:
            raise StoreError(
                "the database was written by a newer credo (unknown migrations: "
                f"{', '.join(sorted(unknown))}); upgrade credo to open it"
            )
        for name, fn in self._steps:
            if name not in applied:
                yield name, fn
