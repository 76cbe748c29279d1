"""The shipped local embedders, loaded for real (no mocks): `local:minilm` and `local:static`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from credo.embed import EmbedderError, get_embedder
from credo.embed_local import MODELS_DIR, MiniLMEmbedder, StaticEmbedder, load_local

HAS_STATIC = (MODELS_DIR / "static" / "embeddings.npy").is_file()

TEXTS = [
    "Arttu lives in Berlin",
    "Arttu resides in Berlin",
    "Arttu prefers dark mode",
    "Arttu prefers light mode",
    "The invoice total was 1,249 euros",
    "ok",
    "",
    "A much longer text about the committee meeting, the budget, the hiring plan and the "
    "data centre migration that was postponed until spring. " * 12,
]


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    emb = get_embedder("local:minilm")
    assert isinstance(emb, MiniLMEmbedder)
    return emb


def test_minilm_is_the_default(minilm: MiniLMEmbedder) -> None:
    assert get_embedder() is minilm  # cached per process
    assert get_embedder("local:minilm") is minilm
    assert minilm.name == "local:minilm"
    assert minilm.dim == 384


def test_minilm_shape_dtype_norm(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_documents(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = minilm.embed_query("where does Arttu live?")
    assert query.shape == (384,)
    assert query.dtype == np.float32


def test_minilm_empty_inputs(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed_documents([]).shape == (0, 384)
    vec = minilm.embed_query("")
    assert vec.shape == (384,)
    assert np.all(np.isfinite(vec))
    assert minilm.embed_query("   ").shape == (384,)


def test_minilm_paraphrase_beats_contrast(minilm: MiniLMEmbedder) -> None:
    v = dict(zip(TEXTS, minilm.embed_documents(TEXTS), strict=True))
    para = cos(v["Arttu lives in Berlin"], v["Arttu resides in Berlin"])
    contrast = cos(v["Arttu prefers dark mode"], v["Arttu prefers light mode"])
    unrelated = cos(v["Arttu lives in Berlin"], v["The invoice total was 1,249 euros"])
    other_fact = cos(v["Arttu lives in Berlin"], v["Arttu prefers dark mode"])
    threshold = minilm.duplicate_threshold
    assert para >= threshold > contrast > other_fact > unrelated
    assert para > 0.93
    assert unrelated < 0.4


def test_minilm_batch_matches_single(minilm: MiniLMEmbedder) -> None:
    batch = minilm.embed_documents(TEXTS)
    for text, row in zip(TEXTS, batch, strict=True):
        single = minilm.embed_query(text)
        assert cos(row, single) > 0.95
    # the default embeds one text per call, so the vectors are identical
    np.testing.assert_allclose(batch[0], minilm.embed_query(TEXTS[0]), atol=1e-6)


def test_minilm_batched_mode_stays_close(minilm: MiniLMEmbedder) -> None:
    batched = MiniLMEmbedder(batch_size=64)
    a = batched.embed_documents(TEXTS)
    b = minilm.embed_documents(TEXTS)
    assert a.shape == b.shape
    assert min(cos(x, y) for x, y in zip(a, b, strict=True)) > 0.95


#: cosines measured with the shipped model (onnxruntime 1.32.0). Before its weights were
#: stored as uint8 (credo/models/minilm/README.md, "Same vectors on every CPU"), an AVX2-only
#: CPU gave 0.654 / 0.664 for the last two (int16 saturation in onnxruntime's uint8 x int8
#: kernel) and a VNNI CPU these: enough to reorder "does arttu have pets"
SAME_ON_EVERY_CPU = (
    ("does arttu have pets", "Arttu grew up with a dog.", 0.7906),
    (
        "does arttu have pets",
        "Arttu has two cats called Muru and Nappi that he adopted from a shelter.",
        0.6729,
    ),
    ("does arttu have pets", "Arttu is vegetarian.", 0.6574),
)


def test_minilm_gives_the_same_vectors_on_every_cpu(minilm: MiniLMEmbedder) -> None:
    for query, text, expected in SAME_ON_EVERY_CPU:
        got = cos(minilm.embed_query(query), minilm.embed_documents([text])[0])
        assert abs(got - expected) < 1e-3, (query, text, got, expected)


def test_minilm_truncates_long_text(minilm: MiniLMEmbedder) -> None:
    long = "word " * 5000
    vec = minilm.embed_query(long)
    assert np.isclose(np.linalg.norm(vec), 1.0, atol=1e-5)


def test_minilm_loads_from_the_package_with_no_network() -> None:
    # load time is measured in bench/, not asserted here: tests must not fail on a slow box
    emb = MiniLMEmbedder()
    assert emb.name == "local:minilm" and emb.dim == 384


def test_missing_files_say_reinstall(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="reinstall credo"):
        MiniLMEmbedder(tmp_path)
    with pytest.raises(EmbedderError, match="reinstall credo"):
        StaticEmbedder(tmp_path / "nothing-here")


def test_unknown_local_name_lists_valid_ones() -> None:
    with pytest.raises(EmbedderError, match="local:minilm.*local:static"):
        load_local("bert-large")
    with pytest.raises(EmbedderError):
        get_embedder("local:nope")


@pytest.mark.skipif(not HAS_STATIC, reason="static model not shipped")
def test_static() -> None:
    emb = get_embedder("local:static")
    assert isinstance(emb, StaticEmbedder)
    assert get_embedder("local:static") is emb
    assert emb.name == "local:static"
    assert emb.dim == 256
    vectors = emb.embed_documents(TEXTS)
    assert vectors.shape == (len(TEXTS), 256)
    assert vectors.dtype == np.float32
    norms = np.linalg.norm(vectors, axis=1)
    empty = TEXTS.index("")
    assert norms[empty] == 0.0  # nothing to average: a zero vector, not NaN
    np.testing.assert_allclose(np.delete(norms, empty), 1.0, atol=1e-5)
    v = dict(zip(TEXTS, vectors, strict=True))
    para = cos(v["Arttu lives in Berlin"], v["Arttu resides in Berlin"])
    unrelated = cos(v["Arttu lives in Berlin"], v["The invoice total was 1,249 euros"])
    assert para > 0.8 > 0.4 > unrelated
    np.testing.assert_allclose(vectors[0], emb.embed_query(TEXTS[0]), atol=1e-6)
    assert emb.embed_documents([]).shape == (0, 256)


def test_the_model_session_is_made_on_the_first_embedding(tmp_path: Path) -> None:
    """A statement the gate refuses never loads the model (a cold `credo remember` of a
    question pays no onnxruntime session); the first embedding does, with the same
    vectors as ever."""
    from credo.memory import Memory
    from credo.store.sqlite import SQLiteStore

    emb = MiniLMEmbedder()
    assert emb._query_session is None
    mem = Memory(SQLiteStore(tmp_path / "m.db", emb), scope="s")
    assert mem.remember("what time is it?").code == "question"
    assert emb._query_session is None
    assert mem.remember("I live in Oslo").accepted
    assert emb._query_session is not None
    again = MiniLMEmbedder().embed_batch(["I live in Oslo"])
    assert np.allclose(emb.embed_batch(["I live in Oslo"]), again)
