"""The in-process vector index: one float32 matrix per scope, with binary codes in front.

Below `EXACT_BELOW` rows a search is exact: a matrix-vector product and a partial sort.
From there on the float scan costs more than the rest of a recall (100k x 384 float32 is
150 MB, 3-7 ms on two cores), so a search first ranks every row by the Hamming distance
between sign codes (one bit per dimension, of the vector minus the scope's mean vector:
48 bytes a row at 384 dims, 1/32 of the floats), keeps a shortlist of `shortlist(k,
rows)` rows, and ranks that shortlist exactly with the float vectors. The order returned
is always by exact cosine; what the codes can cost is a true top-k row missing from the
shortlist. Measured on MiniLM vectors of bench_scale's facts: top-10 overlap with exact
search 0.998 at 100k (1,000 rows kept), 0.99 at 1M real sentences (2,000 kept)
(`bench/bench_scale.py` reports the overlap at every size).

The codes are held column by column (one uint64 array per 64 dimensions) so that the
distance is a handful of vectorised XOR + popcount passes; the shortlist is cut at a
distance threshold found by counting (distances are small integers), not by a sort. The
scan is bound by memory (48 MB at 1M rows); from `PARALLEL_FROM` rows it runs in parts on
`credo.workers`' threads.

It needs no extension in the database and works with any CPython's stdlib sqlite3. The
database stays the source of truth: this is a cache that the store keeps in sync (and
rebuilds from the table when in doubt).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from .. import workers

Vector = npt.NDArray[np.float32]

#: scopes with fewer live rows than this are searched exactly (it is as fast)
EXACT_BELOW = 20_000
#: the shortlist the codes keep for exact ranking: at least this many rows
SHORTLIST_MIN = 1_000
#: ... and at least this many times k
SHORTLIST_PER_K = 20
#: ... and at least one row in this many: more rows put more near-misses in the way.
#: Measured on 1M real vectors (60 queries): top-10 overlap 0.983 at a 1,000 shortlist,
#: 0.993 at 2,000 (+0.7 ms), 0.995 at 4,000
SHORTLIST_SHARE = 500
#: from this many rows on the code scan runs in parts on the worker threads (numpy's
#: passes release the GIL): at 1M rows 5.0 -> 3.0 ms on two cores
PARALLEL_FROM = 200_000
#: ... in as many parts as the pool has threads, none smaller than this
PART_ROWS = 100_000
#: a part computes its distances this many rows at a time (its temporaries stay in cache)
CHUNK_ROWS = 65_536
#: rows encoded at a time: their float temporaries (12 MB at 384 dims) stay in cache;
#: 1M rows 0.47 s in chunks of 65,536, 0.27 s in chunks of 8,192
ENCODE_ROWS = 8192
#: a part sums this many words' bit counts in uint8 (as many as cannot pass 255: 3 x 64)
#: before it adds them to the uint16 distances: one widening add per group, not per word
GROUP_WORDS = np.iinfo(np.uint8).max // 64


#: free rows an index keeps for new vectors: a share of its rows when loaded or compacted
#: (the first write after loading 1M rows copied the whole matrix into one twice its size:
#: 5.6 s and +1.5 GB), and as much again each time it fills up
HEADROOM_SHARE = 8
HEADROOM_MIN = 1024


def headroom(rows: int) -> int:
    """How many free rows an index of `rows` rows keeps for additions."""
    return max(HEADROOM_MIN, rows // HEADROOM_SHARE)


def matrix_for(rows: int, dim: int) -> Vector:
    """An uninitialised matrix for `rows` vectors and the room after them (rows not yet
    written cost no memory)."""
    return np.empty((rows + headroom(rows), dim), dtype=np.float32)


def shortlist(k: int, rows: int = 0) -> int:
    """How many rows the codes keep for exact ranking, for the top `k` of `rows`."""
    return max(SHORTLIST_MIN, SHORTLIST_PER_K * k, rows // SHORTLIST_SHARE)


def _dot(matrix: Vector, query: Vector) -> Vector:
    """`matrix @ query` without a threaded BLAS call: `matrix @ query` is a BLAS gemv,
    which wakes BLAS's sleeping threads for every product, and on a busy two-core machine
    that wake-up costs more than the product (measured: 14 ms against 0.25 ms for
    2,000 x 384 under load 6). `np.vecdot` runs one single-threaded dot per row: 0.06 ms
    for 2,000 x 384 against 0.17 ms for `np.einsum` and 5.2 against 8.4 ms for 100k rows
    (load 3.5, bench/bench_scale.py's vectors)."""
    out: Vector = np.vecdot(matrix, query)
    return out


def _words(dim: int) -> int:
    return (dim + 63) // 64


def sign_codes(vecs: Vector, center: Vector) -> npt.NDArray[np.uint64]:
    """Sign bits of `vecs - center`, packed: shape (words, rows), one uint64 per 64 dims."""
    vecs = np.atleast_2d(vecs)
    bits = np.packbits(vecs - center > 0, axis=1)
    pad = _words(vecs.shape[1]) * 8 - bits.shape[1]
    if pad:
        bits = np.pad(bits, ((0, 0), (0, pad)))
    return np.ascontiguousarray(np.ascontiguousarray(bits).view(np.uint64).T)


class VectorIndex:
    def __init__(self, dim: int, generation: int = 0, *, exact_below: int | None = None) -> None:
        self.dim = dim
        #: the scope's generation (scope_gen) this index reflects
        self.generation = generation
        #: the last change-log entry applied (see SQLiteStore): a delta starts after it
        self.seq = 0
        self.exact_below = EXACT_BELOW if exact_below is None else exact_below
        self._matrix: Vector = np.zeros((0, dim), dtype=np.float32)
        self._codes: npt.NDArray[np.uint64] | None = None  # (words, capacity), when used
        self._center: Vector = np.zeros(dim, dtype=np.float32)
        self._ids: list[str | None] = []
        self._alive: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self._row: dict[str, int] = {}
        self._size = 0
        self._dead = 0

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self._row

    @property
    def capacity(self) -> int:
        """Rows the matrix holds room for, used or not (rows are added in place up to it)."""
        return int(self._matrix.shape[0])

    @property
    def coded(self) -> bool:
        """Are the rows' sign codes computed (a search then ranks a shortlist of them)?"""
        return self._codes is not None

    @property
    def center(self) -> Vector:
        """The mean vector the sign codes are taken against."""
        return self._center

    def ids(self) -> set[str]:
        return set(self._row)

    @classmethod
    def build(
        cls,
        dim: int,
        rows: Iterable[tuple[str, Vector]],
        generation: int,
        *,
        exact_below: int | None = None,
    ) -> VectorIndex:
        index = cls(dim, generation, exact_below=exact_below)
        ids: list[str] = []
        vecs: list[Vector] = []
        for fact_id, vec in rows:
            ids.append(fact_id)
            vecs.append(vec)
        if ids:
            index._set(ids, np.vstack(vecs))
        return index

    @classmethod
    def from_matrix(
        cls,
        dim: int,
        ids: list[str],
        matrix: Vector,
        generation: int,
        *,
        exact_below: int | None = None,
    ) -> VectorIndex:
        """An index of `matrix`'s first rows (row i is `ids[i]`), without copying it; rows
        after the last id are room for `add` (see `headroom`)."""
        index = cls(dim, generation, exact_below=exact_below)
        if ids:
            index._set(ids, matrix.reshape(-1, dim))
        return index

    def _set(self, ids: list[str], matrix: Vector) -> None:
        """Hold exactly these rows (ids unique) in the first rows of `matrix` (the rest is
        room for additions), codes rebuilt around their mean."""
        if matrix.shape[0] < len(ids):
            raise ValueError("a vector index needs a row for each id")
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._ids = list(ids)
        self._row = {fid: i for i, fid in enumerate(ids)}
        if len(self._row) != len(ids):
            raise ValueError("duplicate ids in a vector index")
        self._size = len(ids)
        self._alive = np.zeros(self._matrix.shape[0], dtype=bool)
        self._alive[: self._size] = True
        self._dead = 0
        self._codes = None
        if self._size >= self.exact_below:
            self.encode()

    def encode(self) -> None:
        """Compute the sign codes of every row (against the rows' mean vector, `center`):
        done on its own from `exact_below` rows, and when asked."""
        live = self._matrix[: self._size]
        self._center = live.mean(axis=0).astype(np.float32) if self._size else self._center
        codes = np.zeros((_words(self.dim), self._matrix.shape[0]), dtype=np.uint64)
        for start in range(0, self._size, ENCODE_ROWS):
            end = min(self._size, start + ENCODE_ROWS)
            codes[:, start:end] = sign_codes(live[start:end], self._center)
        self._codes = codes

    def add(self, fact_id: str, vec: Vector) -> None:
        vec = np.asarray(vec, dtype=np.float32)
        if fact_id in self._row:
            row = self._row[fact_id]
            self._matrix[row] = vec
            if self._codes is not None:
                self._codes[:, row] = sign_codes(vec, self._center)[:, 0]
            return
        if self._size == self._matrix.shape[0]:
            grown = matrix_for(self._size, self.dim)
            capacity = grown.shape[0]
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
            alive = np.zeros(capacity, dtype=bool)
            alive[: self._size] = self._alive[: self._size]
            self._alive = alive
            if self._codes is not None:
                codes = np.zeros((self._codes.shape[0], capacity), dtype=np.uint64)
                codes[:, : self._size] = self._codes[:, : self._size]
                self._codes = codes
        self._matrix[self._size] = vec
        self._alive[self._size] = True
        if self._codes is not None:
            self._codes[:, self._size] = sign_codes(vec, self._center)[:, 0]
        self._ids.append(fact_id)
        self._row[fact_id] = self._size
        self._size += 1

    def remove(self, fact_id: str) -> None:
        row = self._row.pop(fact_id, None)
        if row is None:
            return
        self._matrix[row] = 0.0
        self._alive[row] = False
        self._ids[row] = None
        self._dead += 1
        if self._dead > 1024 and self._dead > self._size // 4:
            self._compact()

    def _compact(self) -> None:
        keep = [i for i, fid in enumerate(self._ids[: self._size]) if fid is not None]
        matrix = matrix_for(len(keep), self.dim)
        matrix[: len(keep)] = self._matrix[keep]
        self._set([self._ids[i] for i in keep], matrix)  # type: ignore[misc]

    def vectors(self, ids: Iterable[str]) -> dict[str, Vector]:
        """The stored vectors of those ids that the index holds (copies)."""
        out: dict[str, Vector] = {}
        for fid in ids:
            row = self._row.get(fid)
            if row is not None:
                out[fid] = self._matrix[row].copy()
        return out

    def search(self, query: Vector, k: int) -> list[tuple[str, float]]:
        return [(fid, score) for fid, score, _ in self.nearest(query, k)]

    def nearest(self, query: Vector, k: int) -> list[tuple[str, float, Vector]]:
        """The top k rows by exact cosine to `query`, with their vectors (copies: taken
        from the shortlist's rows, which the ranking read anyway)."""
        if not self._row or k <= 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        want = min(k, len(self._row))
        keep = shortlist(want, self._size)
        if len(self._row) < self.exact_below or keep * 4 >= self._size:
            rows = np.arange(self._size)
            block = self._matrix[: self._size]  # a view: the hits' rows are copied below
        else:
            if self._codes is None:
                self.encode()
            rows = self.shortlist_rows(query, keep + self._dead)
            block = self._matrix[rows]  # a copy
        scores = _dot(block, query)
        if self._dead:
            scores[~self._alive[rows]] = -np.inf  # removed rows never take a slot
        n = min(want, rows.size)
        top = np.argpartition(-scores, n - 1)[:n] if n < rows.size else np.arange(rows.size)
        top = top[np.argsort(-scores[top], kind="stable")]
        ids = self._ids
        hits = block[top]  # a copy of the hits' rows, whichever block they came from
        out = [
            (fid, score, hits[i])
            for i, (fid, score) in enumerate(
                zip([ids[r] for r in rows[top].tolist()], scores[top].tolist(), strict=True)
            )
            if fid is not None
        ]
        return out[:k]

    def shortlist_rows(self, query: Vector, size: int) -> npt.NDArray[np.intp]:
        """The rows whose codes are nearest the query's: at least `size` of them (all the
        rows at the cut-off distance are kept, so ties never depend on row order).

        Every row's distance goes into one array, in parts on the worker threads from
        PARALLEL_FROM rows (one part per thread, each computed in chunks of CHUNK_ROWS so
        its temporaries stay in cache); each part also counts its rows at each distance,
        and the cut-off is the size-th smallest distance, read from the summed counts.
        Measured against np.partition of the distances (docs/benchmarks.md, "Scale",
        fifth session): 0.96 -> 0.61 ms for the whole shortlist at 100k MiniLM vectors of
        bench_scale's facts, 10.9-11.6 -> 5.1-6.6 ms at 1M real sentences in two parts;
        the same rows."""
        assert self._codes is not None
        if size >= self._size:
            return np.arange(self._size)
        q = sign_codes(query, self._center)[:, 0]
        dist = np.empty(self._size, dtype=np.uint16)
        parts = (
            1 if self._size < PARALLEL_FROM else max(1, min(workers.SIZE, self._size // PART_ROWS))
        )
        step = -(-self._size // parts)
        counts = workers.run_parts(
            self._distances,
            [(q, lo, min(self._size, lo + step), dist) for lo in range(0, self._size, step)],
        )
        # the cut-off: the smallest distance that `size` rows reach, from the parts'
        # histograms (distances are small integers: 3x faster than a partial sort)
        reached = np.cumsum(np.sum(counts, axis=0))
        cut = int(np.searchsorted(reached, size))
        return np.flatnonzero(dist <= cut)

    def _distances(
        self, q: npt.NDArray[np.uint64], lo: int, hi: int, out: npt.NDArray[np.uint16]
    ) -> npt.NDArray[np.intp]:
        """Hamming distances of rows lo..hi to the query's code, into out[lo:hi]; their
        histogram (how many rows lie at each distance, 0 to the code's bits)."""
        assert self._codes is not None
        codes = self._codes
        words = codes.shape[0]
        for start in range(lo, hi, CHUNK_ROWS):
            end = min(hi, start + CHUNK_ROWS)
            dist = out[start:end]
            for first in range(0, words, GROUP_WORDS):
                group = np.bitwise_count(codes[first, start:end] ^ q[first])  # uint8
                for word in range(first + 1, min(words, first + GROUP_WORDS)):
                    group += np.bitwise_count(codes[word, start:end] ^ q[word])
                if first:
                    dist += group
                else:
                    np.copyto(dist, group)
        return np.bincount(out[lo:hi], minlength=64 * words + 1)
