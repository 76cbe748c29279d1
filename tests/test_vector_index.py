"""The in-process vector index: binary-code shortlist against exact search, the change log
that lets another connection catch up with a delta, forget in every index, and rebuilds
after a crash. Behaviour, not timings (speed is measured in bench/bench_scale.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import credo.store.sqlite as sqlite_mod
import credo.store.vectors as vectors_mod
from credo.embed import HashEmbedder
from credo.fact import Fact
from credo.store.sqlite import SQLiteStore
from credo.store.vectors import VectorIndex, sign_codes

DIM = 64


def clustered(n: int, dim: int = DIM, seed: int = 0) -> np.ndarray:
    """Unit vectors in clusters with a shared offset, like sentence embeddings."""
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(max(4, n // 50), dim)) + 2.0
    vecs = centers[rng.integers(0, len(centers), n)] + rng.normal(scale=0.6, size=(n, dim))
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs.astype(np.float32)


def exact_top(matrix: np.ndarray, ids: list[str], q: np.ndarray, k: int) -> list[str]:
    scores = matrix @ q
    order = np.argsort(-scores, kind="stable")[:k]
    return [ids[int(i)] for i in order]


# -- the index on its own -------------------------------------------------------------------
def test_sign_codes_pack_one_bit_per_dimension() -> None:
    vecs = np.array([[1.0, -1.0] * 40, [-1.0, 1.0] * 40], dtype=np.float32)  # 80 dims
    codes = sign_codes(vecs, np.zeros(80, dtype=np.float32))
    assert codes.shape == (2, 2)  # two words of 64 bits, two rows
    assert [int(np.bitwise_count(codes[:, r]).sum()) for r in range(2)] == [40, 40]
    assert int(np.bitwise_count(codes[:, 0] ^ codes[:, 1]).sum()) == 80


def test_shortlist_search_agrees_with_exact_and_ranks_exactly() -> None:
    n, dim = 6000, 384  # the default model's size: 384-bit codes
    both = clustered(n + 40, dim)
    matrix, queries = both[:n], both[n:]  # queries from the same clusters, not indexed
    ids = [f"f{i}" for i in range(n)]
    coded = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0)
    assert coded.coded
    overlaps = []
    for q in queries:
        got = coded.search(q, 10)
        want = exact_top(matrix, ids, q, 10)
        overlaps.append(len({i for i, _ in got} & set(want)) / 10)
        scores = [s for _, s in got]
        assert scores == sorted(scores, reverse=True)  # exact cosine order
        for fid, score in got:  # the scores are the exact cosines
            assert score == pytest.approx(float(matrix[int(fid[1:])] @ q), abs=1e-5)
    assert np.mean(overlaps) >= 0.98


def test_a_scan_in_parts_keeps_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large index scans its codes in parts on worker threads: the shortlist and the
    answers are those of one pass."""
    n, dim = 5000, 384
    both = clustered(n + 20, dim, seed=3)
    matrix, queries = both[:n], both[n:]
    ids = [f"f{i}" for i in range(n)]
    index = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0)
    single = [(index.shortlist_rows(q, 600), index.search(q, 10)) for q in queries]
    monkeypatch.setattr(vectors_mod, "PARALLEL_FROM", 0)
    monkeypatch.setattr(vectors_mod, "PART_ROWS", 777)
    monkeypatch.setattr(vectors_mod, "CHUNK_ROWS", 333)  # chunks of uneven length
    for q, (rows, found) in zip(queries, single, strict=True):
        assert np.array_equal(index.shortlist_rows(q, 600), rows)
        assert index.search(q, 10) == found


@pytest.mark.parametrize("dim", [100, 256, 384, 1536])  # 2, 4, 6 and 24 words of code
def test_the_shortlist_is_every_row_within_the_cut_off_distance(
    dim: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shortlist against a reference computed another way: each row's Hamming
    distance from unpacked bits, the cut-off from a full sort. Also in parts, so the
    parts' histograms add up to the whole's."""
    n = 3000
    both = clustered(n + 5, dim, seed=11)
    matrix, queries = both[:n], both[n:]
    index = VectorIndex.from_matrix(dim, [f"f{i}" for i in range(n)], matrix.copy(), 1)
    index.encode()
    row_bits = matrix - index.center > 0
    for parts_from in (10**9, 0):
        monkeypatch.setattr(vectors_mod, "PARALLEL_FROM", parts_from)
        monkeypatch.setattr(vectors_mod, "PART_ROWS", 700)
        monkeypatch.setattr(vectors_mod, "CHUNK_ROWS", 450)
        for q, size in zip(queries, (1, 37, 600, 2999, 1500), strict=True):
            dist = (row_bits != (q - index.center > 0)).sum(axis=1)
            cut = np.sort(dist)[size - 1]
            want = np.flatnonzero(dist <= cut)
            assert np.array_equal(index.shortlist_rows(q, size), want)


def test_the_shortlist_grows_with_the_rows() -> None:
    assert vectors_mod.shortlist(10) == vectors_mod.SHORTLIST_MIN
    assert vectors_mod.shortlist(100) == 100 * vectors_mod.SHORTLIST_PER_K
    assert vectors_mod.shortlist(10, 1_000_000) == 1_000_000 // vectors_mod.SHORTLIST_SHARE


def test_small_index_and_large_k_are_exact() -> None:
    matrix = clustered(500)
    ids = [f"f{i}" for i in range(500)]
    index = VectorIndex.from_matrix(DIM, ids, matrix.copy(), 1)  # below EXACT_BELOW
    q = clustered(1, seed=3)[0]
    assert [i for i, _ in index.search(q, 50)] == exact_top(matrix, ids, q, 50)


def test_removed_rows_never_come_back_and_added_rows_are_coded() -> None:
    n = 5000
    matrix = clustered(n)
    ids = [f"f{i}" for i in range(n)]
    index = VectorIndex.from_matrix(DIM, ids, matrix.copy(), 1, exact_below=0)
    q = matrix[7]
    assert index.search(q, 1)[0][0] == "f7"
    index.remove("f7")
    assert "f7" not in {i for i, _ in index.search(q, 100)}
    index.add("new", q)  # grows past capacity: codes grow with the matrix
    assert index.search(q, 1)[0][0] == "new"
    for i in range(3000):  # enough removals to compact
        index.remove(f"f{i}")
    assert len(index) == n - 3000 + 1  # f7 was among them; "new" was added
    live = {i for i in ids if i in index} | {"new"}
    got = [i for i, _ in index.search(q, 50)]
    assert len(got) == 50 and set(got) <= live


# -- the store: scopes, change log, forget, crashes -----------------------------------------
@pytest.fixture
def coded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every index uses the binary-code path, however small."""
    monkeypatch.setattr(vectors_mod, "EXACT_BELOW", 0)


def _facts(scope: str, n: int, start: int = 0) -> list[Fact]:
    words = ["berlin", "oslo", "rust", "postgres", "cats", "padel", "helix", "vercel"]
    return [
        Fact(
            text=f"item {start + i} {words[(start + i) % 8]} {words[(start + i) // 8 % 8]}",
            scope=scope,
        )
        for i in range(n)
    ]


def _table(store: SQLiteStore, scope: str) -> tuple[list[str], np.ndarray]:
    """The scope's facts and vectors as the database holds them, read through a store of
    its own: one that has loaded no index reads `vectors_of` from the table."""
    other = SQLiteStore(store.path, HashEmbedder(DIM))
    try:
        ids = [f.id for f in other.all(scope=scope)]
        vectors = other.vectors_of(ids, scope=scope)
    finally:
        other.close()
    assert set(vectors) == set(ids)  # every fact has its vector
    return ids, np.stack([vectors[i] for i in ids])


def _log(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Run `sql` on the database file through a connection of its own (the change log is
    the file's, shared by every process), committed."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def _indexed(store: SQLiteStore, scope: str) -> set[str]:
    """Every id the store's index for the scope answers with (a k over the scope's size
    is an exact search of every row)."""
    return {i for i, _ in store.vector_search("x", scope=scope, k=1_000_000)}


def _same_as_table(store: SQLiteStore, scope: str, queries: list[str], k: int = 10) -> None:
    ids, matrix = _table(store, scope)
    for text in queries:
        q = store.embed([text], kind="query")[0]
        got = [i for i, _ in store.vector_search(q, scope=scope, k=k)]
        want = exact_top(matrix, ids, q, k)
        # ties in cosine may order differently; the set and the scores must agree
        assert set(got) <= set(ids)
        got_scores = sorted((float(matrix[ids.index(i)] @ q) for i in got), reverse=True)
        want_scores = sorted((float(matrix[ids.index(i)] @ q) for i in want), reverse=True)
        assert got_scores == pytest.approx(want_scores, abs=1e-6)


def assert_same_hits(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """The same scores in order, and the same ids above the last score (rows that tie
    with it may differ by row order)."""
    assert [sc for _, sc in got] == pytest.approx([sc for _, sc in want], abs=1e-6)
    last = want[-1][1] if want else 0.0
    assert {i for i, sc in got if sc > last + 1e-6} == {i for i, sc in want if sc > last + 1e-6}


QUERIES = ["berlin rust", "oslo cats", "padel vercel item 3", "helix postgres"]


def test_scope_filtering_is_the_same_as_exact_search(tmp_path: Path, coded: None) -> None:
    store = SQLiteStore(tmp_path / "m.db", HashEmbedder(DIM))
    store.put_many(_facts("a", 300))
    store.put_many(_facts("b", 300, start=1000))
    a_ids = set(_table(store, "a")[0])
    for q in QUERIES:
        hits = store.vector_search(q, scope="a", k=50)
        assert {i for i, _ in hits} <= a_ids
    _same_as_table(store, "a", QUERIES)
    _same_as_table(store, "b", QUERIES)
    store.close()


def test_a_second_connection_catches_up_with_a_delta(tmp_path: Path, coded: None) -> None:
    path = tmp_path / "m.db"
    writer = SQLiteStore(path, HashEmbedder(DIM))
    reader = SQLiteStore(path, HashEmbedder(DIM))
    writer.put_many(_facts("a", 200))
    reader.vector_search("berlin", scope="a", k=5)
    loaded = reader.loaded_index("a")
    writer.put_many(_facts("a", 150, start=200))
    writer.put_many(_facts("b", 50, start=5000))  # another scope's entries interleave
    writer.forget(scope="a", ids=[_table(writer, "a")[0][3]])
    writer.put_many(_facts("a", 20, start=400))
    _same_as_table(reader, "a", QUERIES)
    assert reader.loaded_index("a") is loaded  # a delta, not a reload
    fresh = SQLiteStore(path, HashEmbedder(DIM))
    fresh.vector_search("x", scope="a", k=1)
    assert _indexed(reader, "a") == _indexed(fresh, "a") == set(_table(fresh, "a")[0])
    for q in QUERIES:
        assert_same_hits(
            reader.vector_search(q, scope="a", k=10), fresh.vector_search(q, scope="a", k=10)
        )
    for s in (writer, reader, fresh):
        s.close()


def test_forget_removes_vectors_from_every_index(tmp_path: Path, coded: None) -> None:
    path = tmp_path / "m.db"
    one = SQLiteStore(path, HashEmbedder(DIM))
    two = SQLiteStore(path, HashEmbedder(DIM))
    one.put_many(_facts("a", 100))
    target = next(f for f in one.all(scope="a") if f.text.startswith("item 9 "))
    for s in (one, two):
        assert target.id in {i for i, _ in s.vector_search(target.text, scope="a", k=3)}
        assert target.id in s.vectors_of([target.id], scope="a")
    one.forget(scope="a", ids=[target.id])
    for s in (one, two):  # the forgetting connection and the other one
        assert target.id not in {i for i, _ in s.vector_search(target.text, scope="a", k=100)}
        assert target.id not in _indexed(s, "a")
        assert s.vectors_of([target.id], scope="a") == {}
    # no forgotten id stays in the change log
    assert _log(path, "SELECT count(*) FROM vector_log WHERE fact_id = ?", target.id) == [(0,)]
    one.close()
    two.close()


def test_a_reader_behind_a_pruned_log_reloads(
    tmp_path: Path, coded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_mod, "LOG_KEEP", 10)
    monkeypatch.setattr(sqlite_mod, "LOG_PRUNE_EVERY", 8)
    path = tmp_path / "m.db"
    writer = SQLiteStore(path, HashEmbedder(DIM))
    reader = SQLiteStore(path, HashEmbedder(DIM))
    writer.put_many(_facts("a", 20))
    reader.vector_search("x", scope="a", k=1)
    loaded = reader.loaded_index("a")
    for start in range(20, 120, 10):
        writer.put_many(_facts("a", 10, start=start))
    assert _log(path, "SELECT count(*) FROM vector_log")[0][0] < 40
    _same_as_table(reader, "a", QUERIES)
    assert reader.loaded_index("a") is not loaded  # rebuilt from the table
    assert _indexed(reader, "a") == set(_table(reader, "a")[0])
    writer.close()
    reader.close()


def test_a_rolled_back_transaction_leaves_no_rows_in_the_index(tmp_path: Path, coded: None) -> None:
    store = SQLiteStore(tmp_path / "m.db", HashEmbedder(DIM))
    store.put_many(_facts("a", 30))
    with pytest.raises(RuntimeError), store.transaction():
        store.put(Fact(text="rolled back berlin", scope="a"))
        store.vector_search("rolled back berlin", scope="a", k=1)  # loads inside it
        raise RuntimeError("abort")
    assert store.vector_search("rolled back berlin", scope="a", k=50)
    assert _indexed(store, "a") == set(_table(store, "a")[0])
    store.close()


_KILLED_WRITER = """
import os, signal, sys
from credo.embed import HashEmbedder
from credo.fact import Fact
from credo.store.sqlite import SQLiteStore
store = SQLiteStore(sys.argv[1], HashEmbedder({dim}))
store.put(Fact(text="committed before the crash oslo", scope="a"))
with store.transaction():
    for i in range(50):
        store.put(Fact(text=f"never committed {{i}} berlin", scope="a"))
    print("mid-write", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _after_a_killed_writer(path: Path, reader: SQLiteStore) -> set[str]:
    """Kill a writer of scope "a" of `path` mid-write (one row committed, 50 not); the
    ids of "a" in the table as `reader` then sees them."""
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER.format(dim=DIM), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL and "mid-write" in proc.stdout
    return set(_table(reader, "a")[0])


def test_index_after_a_writer_killed_mid_write_matches_the_table(
    tmp_path: Path, coded: None
) -> None:
    path = tmp_path / "m.db"
    reader = SQLiteStore(path, HashEmbedder(DIM))
    reader.put_many(_facts("a", 40))
    reader.vector_search("x", scope="a", k=1)
    ids = _after_a_killed_writer(path, reader)
    assert len(ids) == 41  # the committed one is there, none of the 50
    _same_as_table(reader, "a", QUERIES + ["never committed berlin", "committed oslo"])
    assert _indexed(reader, "a") == ids
    reopened = SQLiteStore(path, HashEmbedder(DIM))
    reopened.vector_search("x", scope="a", k=1)
    assert _indexed(reopened, "a") == ids
    reader.close()
    reopened.close()


_WRITER = """
import sys
from credo.embed import HashEmbedder
from credo.fact import Fact
from credo.store.sqlite import SQLiteStore
store = SQLiteStore(sys.argv[1], HashEmbedder({dim}))
for i in range(60):
    store.put(Fact(text=f"process {{sys.argv[2]}} fact {{i}} padel", scope="a"))
store.close()
"""


def test_delta_from_other_processes_matches_a_full_reload(tmp_path: Path, coded: None) -> None:
    path = tmp_path / "m.db"
    reader = SQLiteStore(path, HashEmbedder(DIM))
    reader.put_many(_facts("a", 30))
    reader.vector_search("x", scope="a", k=1)
    loaded = reader.loaded_index("a")
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER.format(dim=DIM), str(path), str(p)], env=env
        )
        for p in range(3)
    ]
    deadline = time.monotonic() + 120
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        reader.vector_search("padel", scope="a", k=5)  # catch up while they write
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    _same_as_table(reader, "a", QUERIES + ["process 1 fact 7 padel"])
    assert reader.loaded_index("a") is loaded
    fresh = SQLiteStore(path, HashEmbedder(DIM))
    fresh.vector_search("x", scope="a", k=1)
    assert _indexed(reader, "a") == _indexed(fresh, "a")
    assert len(_indexed(fresh, "a")) == 30 + 3 * 60
    reader.close()
    fresh.close()


def test_a_write_that_logs_nothing_still_reaches_the_reader(tmp_path: Path, coded: None) -> None:
    """An older credo on the same file bumps the generation but writes no change log: the
    reader's row count check sees the difference and rebuilds."""
    path = tmp_path / "m.db"
    writer = SQLiteStore(path, HashEmbedder(DIM))
    reader = SQLiteStore(path, HashEmbedder(DIM))
    writer.put_many(_facts("a", 30))
    reader.vector_search("x", scope="a", k=1)
    last = _log(path, "SELECT max(seq) FROM vector_log")[0][0]
    writer.put_many(_facts("a", 5, start=100))
    _log(path, "DELETE FROM vector_log WHERE seq > ?", last)  # as an older credo writes
    _same_as_table(reader, "a", QUERIES + ["item 102"])
    assert _indexed(reader, "a") == set(_table(reader, "a")[0])
    assert len(_indexed(reader, "a")) == 35
    writer.close()
    reader.close()


def test_threads_searching_and_writing_one_store_agree_with_the_table(
    tmp_path: Path, coded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads of one process write, forget and recall (whose embedding runs on a worker
    thread, and whose scans run in parts) through the same store: nothing waits forever,
    no recall returns another scope's fact, and the index ends as the table is."""
    import threading

    from credo.recall import recall

    monkeypatch.setattr(vectors_mod, "PARALLEL_FROM", 0)  # scans in parts, on the pool
    monkeypatch.setattr(vectors_mod, "PART_ROWS", 64)
    store = SQLiteStore(tmp_path / "m.db", HashEmbedder(DIM))
    store.put_many(_facts("a", 400))
    store.put_many(_facts("b", 100, start=9000))
    b_ids = set(_table(store, "b")[0])
    errors: list[BaseException] = []

    def guarded(fn: object) -> threading.Thread:
        def run() -> None:
            try:
                fn()  # type: ignore[operator]
            except BaseException as exc:  # handed to the test below
                errors.append(exc)

        return threading.Thread(target=run)

    def writer(start: int) -> None:
        for i in range(0, 300, 30):
            store.put_many(_facts("a", 30, start=start + i))

    def forgetter() -> None:
        for _ in range(12):
            ids = _table(store, "a")[0][:60]
            store.forget(scope="a", ids=ids)

    def reader() -> None:
        for i in range(40):
            hits = recall(store, QUERIES[i % len(QUERIES)], scope="a", k=10)
            assert not {h.fact.id for h in hits} & b_ids

    threads = [
        guarded(lambda: writer(1000)),
        guarded(lambda: writer(5000)),
        guarded(forgetter),
        *(guarded(reader) for _ in range(3)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    assert not errors, errors
    ids, _ = _table(store, "a")
    assert _indexed(store, "a") == set(ids)
    _same_as_table(store, "a", QUERIES)
    store.close()


def test_a_loaded_index_takes_new_rows_without_copying_its_matrix(
    tmp_path: Path, coded: None
) -> None:
    """The first write after a process loads a large scope used to copy the whole matrix
    into one twice its size (1M facts: 5.6 s and +1.5 GB): a loaded index has room for
    new rows, and a full one grows by a share, not by doubling."""
    store = SQLiteStore(tmp_path / "m.db", HashEmbedder(DIM))
    store.put_many(_facts("a", 3000))
    store.vector_search("berlin", scope="a", k=5)  # loads the index
    index = store.loaded_index("a")
    assert index is not None
    capacity = index.capacity
    assert capacity - len(index) >= vectors_mod.headroom(3000)
    store.put_many(_facts("a", 500, start=3000))  # applied to the loaded index in place
    assert store.loaded_index("a") is index and index.capacity == capacity
    assert len(index) == 3500
    _same_as_table(store, "a", QUERIES)
    store.close()


def test_a_full_index_grows_by_a_share_and_keeps_every_row() -> None:
    matrix = clustered(2000)
    ids = [f"f{i}" for i in range(2000)]
    index = VectorIndex.from_matrix(DIM, ids, matrix.copy(), 1, exact_below=0)
    assert index.capacity == 2000  # exactly the rows given: no room yet
    extra = clustered(3000, seed=5)[2000:]
    for i, vec in enumerate(extra):
        index.add(f"g{i}", vec)
    capacity = index.capacity
    assert 3000 <= capacity < 3500  # doubling would make it 4000
    both = np.vstack([matrix, extra])
    everyone = ids + [f"g{i}" for i in range(len(extra))]
    for q in clustered(5, seed=9):
        got = {i for i, _ in index.search(q, 10)}
        assert len(got & set(exact_top(both, everyone, q, 10))) >= 9


# -- the inverted file (large scopes) ---------------------------------------------------------
@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Indexes make their inverted file at once (no thread), from 0 rows, in small lists."""
    monkeypatch.setattr(vectors_mod, "IVF_BACKGROUND", False)
    monkeypatch.setattr(vectors_mod, "IVF_FROM", 0)
    monkeypatch.setattr(vectors_mod, "LIST_ROWS", 500)


def _overlap(index: VectorIndex, matrix: np.ndarray, ids: list[str], q: np.ndarray) -> float:
    got = index.search(q, 10)
    scores = [s for _, s in got]
    assert scores == sorted(scores, reverse=True)  # exact cosine order
    for fid, score in got:  # the scores are the exact cosines
        assert score == pytest.approx(float(matrix[ids.index(fid)] @ q), abs=1e-5)
    return len({i for i, _ in got} & set(exact_top(matrix, ids, q, 10))) / 10


def test_the_inverted_file_finds_what_exact_search_finds(listed: None) -> None:
    """At a size where it is used, searching the nearest lists' codes answers as exact
    search does (ranked by exact cosine), while it scans a small share of the rows."""
    n, dim = 30_000, 384
    both = clustered(n + 60, dim, seed=5)
    matrix, queries = both[:n], both[n:]
    ids = [f"f{i}" for i in range(n)]
    index = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0)
    ivf = index.inverted_file
    assert ivf is not None and ivf.lists == n // 500 and ivf.rows == n
    assert sorted(ivf.order.tolist()) == list(range(n))  # every row in exactly one list
    scanned = []
    probe = max(vectors_mod.PROBE_MIN, -(-ivf.lists // vectors_mod.PROBE_SHARE))
    for q in queries:
        probed = ivf.nearest_lists(q, probe)
        scanned.append(sum(int(ivf.offsets[p + 1] - ivf.offsets[p]) for p in probed))
    assert max(scanned) < n // 3  # it does not read every code
    overlaps = [_overlap(index, matrix, ids, q) for q in queries]
    assert np.mean(overlaps) >= 0.95
    # the same answers as the scan of every code, where that one is exact enough
    everything = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0, ivf_from=n + 1)
    assert everything.inverted_file is None
    same = [index.search(q, 1)[0][0] == everything.search(q, 1)[0][0] for q in queries]
    assert np.mean(same) >= 0.95


def test_rows_added_changed_and_removed_after_the_lists_were_made(listed: None) -> None:
    n, dim = 8000, 128
    both = clustered(n + 1200, dim, seed=9)
    matrix, extra = both[:n], both[n:]
    ids = [f"f{i}" for i in range(n)]
    index = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0)
    first = index.inverted_file
    assert first is not None
    index.add("new", extra[0])  # after the lists: searched beside them
    assert index.search(extra[0], 1)[0][0] == "new"
    index.add("f3", extra[1])  # changed in place: found under its new vector, once
    got = index.search(extra[1], 10)
    assert got[0][0] == "f3" and [i for i, _ in got].count("f3") == 1
    index.remove("f7")  # never comes back, and its codes are not kept
    assert "f7" not in {i for i, _ in index.search(matrix[7], 100)}
    assert not index._codes[:, 7].any()  # type: ignore[index]
    pos = int(np.flatnonzero(first.order == 7)[0])
    assert not first.codes[:, pos].any()
    for i in range(2, 1200):  # an eighth more rows: the next search makes the lists again
        index.add(f"x{i}", extra[i])
    assert index.inverted_file is first
    index.search(extra[2], 1)
    again = index.inverted_file
    assert again is not None and again is not first and again.rows == index._size
    for i in (2, 400, 1199):
        assert index.search(extra[i], 1)[0][0] == f"x{i}"
    assert index.search(extra[1], 1)[0][0] == "f3"
    assert "f7" not in {i for i, _ in index.search(matrix[7], 100)}


def test_an_inverted_file_is_made_on_a_thread_and_dropped_if_the_rows_moved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the lists are made, searches scan every code (the same answers as an index
    without lists); lists made from rows a compaction has since renumbered are dropped."""
    monkeypatch.setattr(vectors_mod, "IVF_FROM", 0)
    monkeypatch.setattr(vectors_mod, "LIST_ROWS", 200)
    n, dim = 6000, 128
    both = clustered(n + 20, dim, seed=4)
    matrix, queries = both[:n], both[n:]
    ids = [f"f{i}" for i in range(n)]
    index = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0)
    plain = VectorIndex.from_matrix(dim, ids, matrix.copy(), 1, exact_below=0, ivf_from=n + 1)
    job = index._job
    assert job is not None
    for q in queries[:5]:  # still being made: the scan of every code answers
        before = index._ivf is None
        got = index.search(q, 10)
        if before and index._ivf is None:  # the lists may land mid-search on a busy machine
            assert got == plain.search(q, 10)
    for i in range(0, 4000):  # compacts: rows renumbered, the lists being made are old
        index.remove(f"f{i}")
    job.thread.join()
    assert index.wait_inverted_file()
    ivf = index.inverted_file
    assert ivf is not None and len(index) == n - 4000
    live = set(ids[4000:])
    listed = {index._ids[r] for r in ivf.order.tolist() if index._alive[r]}
    assert listed | {index._ids[r] for r in range(ivf.rows, index._size)} == live
    for q in queries:
        got = {i for i, _ in index.search(q, 20)}
        assert got <= live


@pytest.fixture
def store_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small store's indexes take the inverted-file path: coded from 0 rows, lists from
    0 rows (made at once), a short shortlist so that a search is not all the rows."""
    monkeypatch.setattr(vectors_mod, "EXACT_BELOW", 0)
    monkeypatch.setattr(vectors_mod, "IVF_FROM", 0)
    monkeypatch.setattr(vectors_mod, "IVF_BACKGROUND", False)
    monkeypatch.setattr(vectors_mod, "LIST_ROWS", 20)
    monkeypatch.setattr(vectors_mod, "SHORTLIST_MIN", 20)
    monkeypatch.setattr(vectors_mod, "SHORTLIST_PER_K", 2)


def _own_text_first(store: SQLiteStore, scope: str, sample: int = 25) -> None:
    """Every sampled fact's own text finds that fact first (or tied first: the hashing
    embedder gives a few texts one vector), through the lists."""
    facts = store.all(scope=scope)
    for fact in facts[:: max(1, len(facts) // sample)]:
        got = store.vector_search(fact.text, scope=scope, k=3)
        assert fact.id in {i for i, score in got if score >= got[0][1] - 1e-6}


def test_a_store_on_the_inverted_file_keeps_scopes_and_forgets(
    tmp_path: Path, store_listed: None
) -> None:
    path = tmp_path / "m.db"
    one = SQLiteStore(path, HashEmbedder(DIM))
    two = SQLiteStore(path, HashEmbedder(DIM))
    one.put_many(_facts("a", 600))
    one.put_many(_facts("b", 600, start=1000))
    a_ids, b_ids = set(_table(one, "a")[0]), set(_table(one, "b")[0])
    for s in (one, two):
        for q in QUERIES:
            assert {i for i, _ in s.vector_search(q, scope="a", k=10)} <= a_ids
            assert {i for i, _ in s.vector_search(q, scope="b", k=10)} <= b_ids
        index = s.loaded_index("a")
        assert index is not None and index.inverted_file is not None
        _own_text_first(s, "a")
    target = next(f for f in one.all(scope="a") if f.text.startswith("item 9 "))
    for s in (one, two):
        assert s.vector_search(target.text, scope="a", k=1)[0][0] == target.id
    one.forget(scope="a", ids=[target.id])
    one.put_many(_facts("a", 30, start=5000))  # rows after the lists, in both processes
    for s in (one, two):
        assert target.id not in {i for i, _ in s.vector_search(target.text, scope="a", k=50)}
        assert target.id not in _indexed(s, "a")
        assert _indexed(s, "a") == set(_table(s, "a")[0])
        _own_text_first(s, "a")
    one.close()
    two.close()


def test_a_store_on_the_inverted_file_after_a_killed_writer_and_a_reopen(
    tmp_path: Path, store_listed: None
) -> None:
    path = tmp_path / "m.db"
    reader = SQLiteStore(path, HashEmbedder(DIM))
    reader.put_many(_facts("a", 400))
    reader.vector_search("x", scope="a", k=1)
    assert reader.loaded_index("a").inverted_file is not None  # type: ignore[union-attr]
    ids = _after_a_killed_writer(path, reader)
    assert len(ids) == 401  # the committed one is there, none of the 50
    assert _indexed(reader, "a") == ids
    _own_text_first(reader, "a")
    reopened = SQLiteStore(path, HashEmbedder(DIM))
    assert _indexed(reopened, "a") == ids
    _own_text_first(reopened, "a")
    assert reopened.loaded_index("a").inverted_file is not None  # type: ignore[union-attr]
    reader.close()
    reopened.close()
