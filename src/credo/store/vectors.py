"""An exact in-process vector index: one float32 matrix per scope, searched with numpy.

Exact search over normalised vectors is a matrix-vector product and a partial sort; at
100k x 384 that is a few milliseconds, and it needs no extension in the database, so it
works with any CPython's stdlib sqlite3. The database stays the source of truth; this is
a cache that the store keeps in sync.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


class VectorIndex:
    def __init__(self, dim: int, generation: int = 0) -> None:
        self.dim = dim
        self.generation = generation
        self._matrix: Vector = np.zeros((0, dim), dtype=np.float32)
        self._ids: list[str | None] = []
        self._row: dict[str, int] = {}
        self._size = 0
        self._dead = 0

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self._row

    @classmethod
    def build(cls, dim: int, rows: Iterable[tuple[str, Vector]], generation: int) -> VectorIndex:
        index = cls(dim, generation)
        ids: list[str] = []
        vecs: list[Vector] = []
        for fact_id, vec in rows:
            ids.append(fact_id)
            vecs.append(vec)
        if ids:
            index._matrix = np.ascontiguousarray(np.vstack(vecs), dtype=np.float32)
            index._ids = list(ids)
            index._row = {fid: i for i, fid in enumerate(ids)}
            index._size = len(ids)
        return index

    def add(self, fact_id: str, vec: Vector) -> None:
        if fact_id in self._row:
            self._matrix[self._row[fact_id]] = vec
            return
        if self._size == self._matrix.shape[0]:
            grown = np.zeros((max(64, self._size * 2), self.dim), dtype=np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
        self._matrix[self._size] = vec
        self._ids.append(fact_id)
        self._row[fact_id] = self._size
        self._size += 1

    def remove(self, fact_id: str) -> None:
        row = self._row.pop(fact_id, None)
        if row is None:
            return
        self._matrix[row] = 0.0
        self._ids[row] = None
        self._dead += 1
        if self._dead > 1024 and self._dead > self._size // 4:
            self._compact()

    def _compact(self) -> None:
        keep = [i for i, fid in enumerate(self._ids[: self._size]) if fid is not None]
        self._matrix = np.ascontiguousarray(self._matrix[keep])
        self._ids = [self._ids[i] for i in keep]
        self._row = {fid: i for i, fid in enumerate(self._ids) if fid is not None}
        self._size = len(keep)
        self._dead = 0

    def search(self, query: Vector, k: int) -> list[tuple[str, float]]:
        if not self._row or k <= 0:
            return []
        scores = self._matrix[: self._size] @ np.asarray(query, dtype=np.float32)
        n = min(k + self._dead, self._size)  # dead rows score 0 and may take slots
        top = np.argpartition(-scores, n - 1)[:n] if n < self._size else np.arange(self._size)
        top = top[np.argsort(-scores[top], kind="stable")]
        out: list[tuple[str, float]] = []
        for i in top:
            fid = self._ids[int(i)]
            if fid is not None:
                out.append((fid, float(scores[int(i)])))
        return out[:k]
