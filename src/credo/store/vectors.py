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

From `IVF_FROM` rows even that scan is the largest part of a recall (48 MB of codes at 1M
rows, 8-14 ms on two busy cores), so an inverted file narrows it: the rows are split into
about one list per `LIST_ROWS` rows around centroids (spherical k-means on a sample), a
search ranks the centroids against the query, scans the codes of the nearest lists only
(one in `PROBE_SHARE` of them, their codes copied in list order so that each list is one
contiguous slice), plus the rows added since the lists were made, and keeps a shortlist
of `IVF_SHORTLIST` times the usual size for the same exact ranking. The lists are made on
a thread of their own from a snapshot of the rows (seconds at 1M: the searches meanwhile
scan every code, as below `IVF_FROM`) and made again when the rows added or changed since
reach one in `IVF_REBUILD_SHARE`. Like the codes, they live in this process only: nothing
of them is written anywhere, a removed row leaves every list at once (its row is dead for
every path), and a reload makes them again from the table.

It needs no extension in the database and works with any CPython's stdlib sqlite3. The
database stays the source of truth: this is a cache that the store keeps in sync (and
rebuilds from the table when in doubt).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass

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


#: from this many rows a scope's index makes an inverted file of its codes (see the module
#: docstring): below it the scan of every code is short (1.4 ms at 100k, load 1.9)
IVF_FROM = 200_000
#: ... with about one list per this many rows
LIST_ROWS = 4096
#: ... at least this many lists
LISTS_MIN = 8
#: a search scans the codes of one list in this many (the nearest to the query by
#: centroid), and at least PROBE_MIN lists. On bench_scale's 1M rows (244 lists, 150
#: queries, load 6.4): top-10 overlap with exact 0.966 at one in 16 (4.5 ms), 0.986 at
#: one in 8 (7.9 ms), 0.993 at one in 4 (11.1 ms), against 0.961 and 13.9 ms for the scan
#: of every code; 488 lists probed one in 16 gave 0.984 in 7.8 ms, for twice the making
PROBE_SHARE = 8
PROBE_MIN = 4
#: the inverted file's shortlist is this many times `shortlist(k, rows)`: its scan reads an
#: eighth of the codes, so it can afford to rank twice the rows exactly (bench_scale's 1M
#: rows, lists probed one in 8: top-10 overlap 0.957 at 2,000 rows, 0.986 at 4,000, 0.990
#: at 6,000 for +1 ms)
IVF_SHORTLIST = 2
#: k-means: this many sampled rows per list, this many rounds
KMEANS_SAMPLE = 40
KMEANS_ROUNDS = 6
#: the lists are made again when the rows added or changed since they were made reach one
#: in this many of the rows they hold
IVF_REBUILD_SHARE = 8
#: make the lists on a thread of their own (False: at once, in the call that asks; tests)
IVF_BACKGROUND = True


@dataclass
class InvertedFile:
    """The lists of an index's rows below `rows` (a snapshot of them): list l holds the rows
    `order[offsets[l]:offsets[l + 1]]`, whose sign codes are `codes[:, offsets[l]:...]`."""

    #: unit centroids of the rows minus `center` (the codes' center: the rows' common
    #: offset would otherwise pull every centroid towards it, and the lists apart in size)
    centroids: Vector
    center: Vector
    order: npt.NDArray[np.intp]
    offsets: npt.NDArray[np.intp]
    codes: npt.NDArray[np.uint64]
    rows: int
    epoch: int
    #: where each row below `rows` sits in `order` (-1: in no list), made when first asked
    _position: npt.NDArray[np.intp] | None = None

    @property
    def lists(self) -> int:
        return int(self.centroids.shape[0])

    def nearest_lists(self, query: Vector, probe: int) -> npt.NDArray[np.intp]:
        """The `probe` lists whose centroids are nearest the query (minus the center)."""
        if probe >= self.lists:
            return np.arange(self.lists)
        scores = _dot(self.centroids, np.asarray(query, dtype=np.float32) - self.center)
        return np.argpartition(-scores, probe - 1)[:probe]

    def forget_row(self, row: int) -> None:
        """Zero the code the lists hold for `row` (a removed row: dead for every search,
        and its code not kept either)."""
        if row >= self.rows:
            return
        if self._position is None:
            position = np.full(self.rows, -1, dtype=np.intp)
            position[self.order] = np.arange(self.order.size)
            self._position = position
        at = int(self._position[row])
        if at >= 0:
            self.codes[:, at] = 0


def kmeans(sample: Vector, lists: int, rounds: int, seed: int = 0) -> Vector:
    """Spherical k-means: `lists` unit centroids of the (unit) sample rows, by dot product.
    A list left empty takes a sampled row at random."""
    rng = np.random.default_rng(seed)
    centroids = sample[rng.choice(sample.shape[0], lists, replace=False)].copy()
    for _ in range(rounds):
        nearest = np.argmax(sample @ centroids.T, axis=1)
        order = np.argsort(nearest, kind="stable")
        starts = np.searchsorted(nearest[order], np.arange(lists))
        counts = np.bincount(nearest, minlength=lists)
        sums = np.add.reduceat(sample[order], np.minimum(starts, sample.shape[0] - 1), axis=0)
        for empty in np.flatnonzero(counts == 0):
            sums[empty] = sample[rng.integers(sample.shape[0])]
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = (sums / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return centroids


def make_inverted_file(
    matrix: Vector,
    center: Vector,
    codes: npt.NDArray[np.uint64],
    alive: npt.NDArray[np.bool_],
    rows: int,
    epoch: int,
    seed: int = 0,
) -> InvertedFile:
    """The lists of the live rows among `matrix[:rows]` (pure: reads its arguments only)."""
    live = np.flatnonzero(alive[:rows])
    lists = max(LISTS_MIN, live.size // LIST_ROWS)
    lists = min(lists, max(1, live.size))
    rng = np.random.default_rng(seed)
    take = min(live.size, KMEANS_SAMPLE * lists)
    sample = matrix[np.sort(rng.choice(live, take, replace=False))] - center
    sample /= np.maximum(np.linalg.norm(sample, axis=1, keepdims=True), 1e-12)
    centroids = kmeans(sample, lists, KMEANS_ROUNDS, seed)
    shift = centroids @ center  # (x - center) . c = x . c - center . c
    assigned = np.empty(live.size, dtype=np.int32)
    for start in range(0, live.size, 16_384):
        block = matrix[live[start : start + 16_384]]
        assigned[start : start + block.shape[0]] = np.argmax(block @ centroids.T - shift, axis=1)
    by_list = np.argsort(assigned, kind="stable")
    order = live[by_list]
    offsets = np.searchsorted(assigned[by_list], np.arange(lists + 1)).astype(np.intp)
    # C order: each word's codes of a list one contiguous run (numpy's gather along the
    # second axis returns the transposed layout, 10x slower to scan: 11.6 against ~1 ms
    # for the 107k rows of 31 lists at 1M)
    listed = np.ascontiguousarray(codes[:, order])
    return InvertedFile(centroids, center, order, offsets, listed, rows, epoch)


class _Job:
    """The making of an inverted file on a thread of its own."""

    def __init__(self, epoch: int, loose: int, args: tuple[object, ...]) -> None:
        self.epoch = epoch
        self.loose = loose  # the index's loose rows before this one were changed before it
        self.result: InvertedFile | None = None
        self.error: BaseException | None = None
        self._args = args
        self.thread = threading.Thread(target=self._run, name="credo-ivf", daemon=True)

    def _run(self) -> None:
        try:
            self.result = make_inverted_file(*self._args)  # type: ignore[arg-type]
        except BaseException as exc:  # reported where the index next looks
            self.error = exc
        finally:
            self._args = ()

    def start(self, background: bool) -> None:
        if background:
            self.thread.start()
        else:
            self._run()

    def done(self) -> bool:
        return not self.thread.is_alive()


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
    def __init__(
        self,
        dim: int,
        generation: int = 0,
        *,
        exact_below: int | None = None,
        ivf_from: int | None = None,
    ) -> None:
        self.dim = dim
        #: the scope's generation (scope_gen) this index reflects
        self.generation = generation
        #: the last change-log entry applied (see SQLiteStore): a delta starts after it
        self.seq = 0
        self.exact_below = EXACT_BELOW if exact_below is None else exact_below
        #: from this many live rows a search goes through the inverted file, once made
        self.ivf_from = IVF_FROM if ivf_from is None else ivf_from
        self._ivf: InvertedFile | None = None
        self._job: _Job | None = None
        #: bumped whenever every row's code or position may change (a reload, a
        #: compaction, codes made anew): an inverted file of an older epoch is dropped
        self._epoch = 0
        #: rows whose vector changed in place since the inverted file's snapshot: searched
        #: by their current codes beside the lists (which may hold them under an old one)
        self._loose: list[int] = []
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
        ivf_from: int | None = None,
    ) -> VectorIndex:
        index = cls(dim, generation, exact_below=exact_below, ivf_from=ivf_from)
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
        ivf_from: int | None = None,
    ) -> VectorIndex:
        """An index of `matrix`'s first rows (row i is `ids[i]`), without copying it; rows
        after the last id are room for `add` (see `headroom`)."""
        index = cls(dim, generation, exact_below=exact_below, ivf_from=ivf_from)
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
        self._drop_inverted_file()
        if self._size >= self.exact_below:
            self.encode()
            self._inverted_file()  # from ivf_from rows: starts making one

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
        self._drop_inverted_file()  # its codes were taken against the old center

    # -- the inverted file -------------------------------------------------------------------
    @property
    def inverted_file(self) -> InvertedFile | None:
        """The inverted file searches use now (None: below `ivf_from`, or not made yet)."""
        return self._inverted_file(start=False)

    def _drop_inverted_file(self) -> None:
        self._epoch += 1
        self._ivf = None
        self._job = None  # a running one finishes into nothing (its epoch is old)
        self._loose = []

    def _inverted_file(self, *, start: bool = True) -> InvertedFile | None:
        """The inverted file to search with: a finished one installed first; and (with
        `start`) a new one started when there is none or it has fallen behind."""
        job = self._job
        if job is not None and job.done():
            self._job = None
            if job.result is not None and job.epoch == self._epoch:
                made = job.result
                # rows removed while it was made: their codes are not kept either
                made.codes[:, ~self._alive[made.order]] = 0
                self._ivf = made
                self._loose = self._loose[job.loose :]
        if len(self._row) < self.ivf_from or self._codes is None:
            return None
        ivf = self._ivf
        if start and self._job is None:
            behind = self._size - (ivf.rows if ivf is not None else 0) + len(self._loose)
            if ivf is None or behind * IVF_REBUILD_SHARE > ivf.rows:
                self._start_job()
        return self._ivf if self._ivf is not None and self._ivf.epoch == self._epoch else None

    def _start_job(self) -> None:
        assert self._codes is not None
        # the arrays by reference: rows below _size are only ever changed in place later
        # (and then listed in _loose) or removed (then dead for every search); a reload or
        # compaction replaces the arrays and bumps the epoch, and the result is dropped
        args = (
            self._matrix,
            self._center.copy(),
            self._codes,
            self._alive.copy(),
            self._size,
            self._epoch,
        )
        job = _Job(self._epoch, len(self._loose), args)
        self._job = job
        job.start(IVF_BACKGROUND)
        if not IVF_BACKGROUND:
            self._inverted_file(start=False)

    def wait_inverted_file(self, timeout: float | None = None) -> bool:
        """Wait for an inverted file being made (benchmarks, tests); True when searches
        now use one."""
        job = self._job
        if job is not None and job.thread.ident is not None:
            job.thread.join(timeout)
        if job is not None and job.error is not None:
            raise job.error
        return self._inverted_file() is not None

    def add(self, fact_id: str, vec: Vector) -> None:
        vec = np.asarray(vec, dtype=np.float32)
        if fact_id in self._row:
            row = self._row[fact_id]
            self._matrix[row] = vec
            if self._codes is not None:
                self._codes[:, row] = sign_codes(vec, self._center)[:, 0]
            if self._ivf is not None or self._job is not None:
                self._loose.append(row)  # its list may now be another one
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
        if self._codes is not None:
            self._codes[:, row] = 0
        if self._ivf is not None:
            self._ivf.forget_row(row)
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
            ivf = self._inverted_file()
            if ivf is not None:
                rows = self.inverted_rows(ivf, query, keep * IVF_SHORTLIST)
            else:
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

    def exact(self, query: Vector, k: int) -> list[tuple[str, float]]:
        """The top k live rows by exact cosine, every row ranked (what `search` answers
        for; benchmarks and tests compare the two)."""
        if not self._row or k <= 0:
            return []
        scores = _dot(self._matrix[: self._size], np.asarray(query, dtype=np.float32))
        scores[~self._alive[: self._size]] = -np.inf
        n = min(k, len(self._row))
        top = np.argpartition(-scores, n - 1)[:n] if n < self._size else np.arange(self._size)
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(str(self._ids[r]), float(scores[r])) for r in top.tolist()]

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

    def inverted_rows(self, ivf: InvertedFile, query: Vector, size: int) -> npt.NDArray[np.intp]:
        """The live rows whose codes are nearest the query's among the rows of the lists
        nearest it (one in PROBE_SHARE, by centroid), the rows added after the lists were
        made and the rows changed in place since: at least `size` of them where there are
        as many (every row at the cut-off distance is kept), each once."""
        assert self._codes is not None
        q = sign_codes(query, self._center)[:, 0]
        lists = ivf.lists
        probe = min(lists, max(PROBE_MIN, math.ceil(lists / PROBE_SHARE)))
        near = ivf.nearest_lists(query, probe)
        spans: list[list[int]] = []
        starts, ends = ivf.offsets[near].tolist(), ivf.offsets[near + 1].tolist()
        for lo, hi in sorted(zip(starts, ends, strict=True)):
            if spans and spans[-1][1] == lo:
                spans[-1][1] = hi  # neighbouring lists: one slice
            elif hi > lo:
                spans.append([lo, hi])
        rows = [ivf.order[lo:hi] for lo, hi in spans]
        dist = [_hamming(ivf.codes[:, lo:hi], q) for lo, hi in spans]
        if self._size > ivf.rows:
            rows.append(np.arange(ivf.rows, self._size))
            dist.append(_hamming(self._codes[:, ivf.rows : self._size], q))
        if self._loose:
            loose = np.unique(np.asarray(self._loose, dtype=np.intp))
            rows.append(loose)
            dist.append(_hamming(self._codes[:, loose], q))
        if not rows:
            return np.zeros(0, dtype=np.intp)
        found = np.concatenate(rows)
        distance = np.concatenate(dist)
        if self._dead:
            alive = self._alive[found]
            found, distance = found[alive], distance[alive]
        if found.size > size:
            reached = np.cumsum(np.bincount(distance, minlength=64 * q.size + 1))
            cut = int(np.searchsorted(reached, size))
            found = found[distance <= cut]
        if self._loose:
            found = np.unique(found)  # a changed row may also sit in its old list
        return found

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


def _hamming(codes: npt.NDArray[np.uint64], q: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint16]:
    """Hamming distances of the code columns `codes` (words, rows) to the code `q`."""
    # one XOR and one count over the whole block, summed down the words: 0.79 against
    # 1.11 ms for a word at a time over 27 lists of 4,600 rows (6 words, load 6.4)
    dist: npt.NDArray[np.uint16] = np.bitwise_count(codes ^ q[:, None]).sum(axis=0, dtype=np.uint16)
    return dist
