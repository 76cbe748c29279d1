"""Bulk embedding: many texts are spread over one session per worker; each vector is the
one the text gets alone, and a query still uses the query session."""

from __future__ import annotations

import numpy as np

from credo.embed_local import BULK_FROM, MiniLMEmbedder


def test_bulk_vectors_are_the_single_text_vectors() -> None:
    emb = MiniLMEmbedder(threads=2)
    texts = [
        f"Person {i} lives in {['Berlin', 'Oslo', 'Lisbon'][i % 3]} and uses Rust"
        for i in range(BULK_FROM * 3 + 5)
    ]
    texts[7] = "a much longer sentence " * 20  # mixed lengths: no padding shared
    bulk = emb.embed_documents(texts)
    assert emb._pool is not None and len(emb._bulk) == 2  # the bulk path ran
    assert bulk.shape == (len(texts), emb.dim)
    for i, text in enumerate(texts):
        np.testing.assert_allclose(bulk[i], emb.embed_query(text), atol=1e-5)
    # below the bulk size, and with one thread, the query session does the work
    single = MiniLMEmbedder(threads=1)
    np.testing.assert_allclose(single.embed_documents(texts), bulk, atol=1e-5)
    assert single._pool is None
