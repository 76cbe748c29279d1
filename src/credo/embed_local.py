"""Local embedders shipped as package data: no network, no torch.

- `local:minilm` (default): all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime; mean-pooled over
  the attention mask and L2-normalised, as sentence-transformers does. 384 dims.
- `local:static`: a static (model2vec) distillation of it: the mean of per-token vectors. 256 dims,
  much faster, lossier.

The files live in `credo/models/<name>/` (built by `scripts/build_models.py`; see the README.md
there). Loaded models are cached per process, so repeated `get_embedder()` calls are cheap.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .embed_base import Embedder, EmbedderError, Kind, Vectors, l2_normalise

MODELS_DIR = Path(__file__).resolve().parent / "models"
LOCAL_MODELS = ("minilm", "static")

#: texts are cut to this many characters before tokenising (only to bound the work on huge
#: inputs; far more than the token limits below can use)
_MAX_CHARS = 100_000

#: from this many texts on, embed_batch spreads them over one session per core
BULK_FROM = 16

_cache: dict[str, Embedder] = {}
_cache_lock = threading.Lock()


def load_local(name: str) -> Embedder:
    """The shipped model `name` ("minilm" or "static"), loaded once per process."""
    name = (name or "minilm").strip().lower()
    if name not in LOCAL_MODELS:
        valid = ", ".join(f"local:{n}" for n in LOCAL_MODELS)
        raise EmbedderError(f"unknown local embedder 'local:{name}': use one of {valid}")
    with _cache_lock:
        cached = _cache.get(name)
        if cached is None:
            cached = MiniLMEmbedder() if name == "minilm" else StaticEmbedder()
            _cache[name] = cached
        return cached


def _require_files(model_dir: Path, names: Sequence[str], label: str) -> None:
    missing = [n for n in names if not (model_dir / n).is_file()]
    if missing:
        raise EmbedderError(
            f"{label}: model files missing from {model_dir} ({', '.join(missing)}); "
            "the credo installation is incomplete: reinstall credo "
            "(pip install --force-reinstall credo)"
        )


def _load_tokenizer(path: Path, label: str) -> Any:
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise EmbedderError(f"{label} needs the 'tokenizers' package: {exc}") from exc
    try:
        return Tokenizer.from_file(str(path))
    except Exception as exc:
        raise EmbedderError(f"{label}: cannot read {path}: {exc}; reinstall credo") from exc


def _clip(texts: Sequence[str]) -> list[str]:
    return [t[:_MAX_CHARS] if isinstance(t, str) else str(t)[:_MAX_CHARS] for t in texts]


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, int8 ONNX. Queries and documents are embedded the same way."""

    name = "local:minilm"
    dim = 384
    #: measured: paraphrases 0.81-0.98 (lives/resides in Berlin 0.95), changed values 0.63-0.94
    #: (dark/light mode 0.89, two/three children 0.93), other facts < 0.45: a candidate filter,
    #: not a contradiction detector. See credo/models/minilm/README.md
    duplicate_threshold = 0.9
    max_tokens = 256

    def __init__(
        self,
        model_dir: Path | str | None = None,
        *,
        threads: int | None = None,
        batch_size: int = 1,
    ) -> None:
        if batch_size < 1:
            raise EmbedderError("batch_size must be at least 1")
        #: texts per onnxruntime call. 1 (the default) makes a text's vector independent of the
        #: texts embedded with it: int8 activations are quantized with one scale per call, so
        #: batch-mates (and their padding) shift a vector (worst cosine 0.95 against the same
        #: text alone). One at a time computes no padding: faster on texts of mixed length,
        #: somewhat slower on many short ones (see credo/models/minilm/README.md).
        self.batch_size = batch_size
        model_dir = Path(model_dir) if model_dir is not None else MODELS_DIR / "minilm"
        _require_files(model_dir, ("model.onnx", "tokenizer.json"), self.name)
        try:
            import onnxruntime  # noqa: F401  (here for the clear error)
        except ImportError as exc:  # pragma: no cover - a declared dependency
            raise EmbedderError(f"{self.name} needs the 'onnxruntime' package: {exc}") from exc

        tokenizer = _load_tokenizer(model_dir / "tokenizer.json", self.name)
        # enforce what the model was measured with, whatever the file says
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
        self._tokenizer = tokenizer

        self.threads = threads or min(4, os.cpu_count() or 1)
        self._model_path = model_dir / "model.onnx"
        # the query session, made on the first embedding (a `credo remember` the gate
        # refuses never pays for it): idle threads must not spin after a query, the
        # vector search that follows needs the cores (recall p95 16 -> 6 ms at 10k facts
        # in bench/bench_scale.py)
        self._query_session: Any = None
        self._inputs: set[str] = set()
        self._session_lock = threading.Lock()
        #: bulk embedding (see embed_batch): one single-threaded session per worker,
        #: made on the first bulk call
        self._bulk: list[Any] = []
        self._pool: ThreadPoolExecutor | None = None
        self._bulk_lock = threading.Lock()

    @property
    def _session(self) -> Any:
        session = self._query_session
        if session is None:
            with self._session_lock:
                session = self._query_session
                if session is None:
                    session = self._new_session(self.threads)
                    self._query_session = session
        return session

    def _new_session(self, threads: int) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(
                str(self._model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise EmbedderError(
                f"{self.name}: cannot load {self._model_path}: {exc}; reinstall credo"
            ) from exc
        if not self._inputs:  # the model's inputs, the same for every session of it
            self._inputs = {i.name for i in session.get_inputs()}
        return session

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        """Texts one onnxruntime call at a time (see batch_size). From BULK_FROM texts on
        (an import, an ingest, a reindex) the texts are split across `threads` workers,
        each with a single-threaded session of its own: a call on one short text leaves
        a multi-threaded session's second core mostly idle, so bulk embedding runs at
        the model's full speed on every core, while a query keeps its own session. The
        vectors are the same either way (each text is still embedded alone)."""
        clipped = _clip(texts)
        out = np.empty((len(clipped), self.dim), dtype=np.float32)
        if len(clipped) < BULK_FROM or self.threads < 2:
            self._embed_into(self._session, clipped, out)
            return out
        sessions, pool = self._bulk_sessions()
        step = -(-len(clipped) // len(sessions))
        jobs = [
            pool.submit(self._embed_into, session, clipped[i : i + step], out[i : i + step])
            for session, i in zip(sessions, range(0, len(clipped), step), strict=False)
        ]
        for job in jobs:
            job.result()
        return out

    def _bulk_sessions(self) -> tuple[list[Any], ThreadPoolExecutor]:
        with self._bulk_lock:
            if self._pool is None:
                self._bulk = [self._new_session(1) for _ in range(self.threads)]
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="credo-embed")
            return self._bulk, self._pool

    def _embed_into(self, session: Any, texts: list[str], out: Vectors) -> None:
        for start in range(0, len(texts), self.batch_size):
            chunk = texts[start : start + self.batch_size]
            out[start : start + len(chunk)] = self._embed_chunk(chunk, session)

    def _embed_chunk(self, texts: list[str], session: Any = None) -> Vectors:
        session = session or self._session
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, npt.NDArray[np.int64]] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        counts = np.maximum(weights.sum(axis=1), 1e-9)
        return l2_normalise(summed / counts)


class StaticEmbedder(Embedder):
    """Static distillation: mean of per-token vectors, L2-normalised (model2vec's encode)."""

    name = "local:static"
    dim = 256
    #: its own scale: paraphrases 0.66-1.0 (lives/resides 0.83), changed values up to 0.96
    #: (dark/light mode 0.95), unrelated ~0.2. See credo/models/static/README.md
    duplicate_threshold = 0.85
    max_tokens = 512

    def __init__(self, model_dir: Path | str | None = None) -> None:
        model_dir = Path(model_dir) if model_dir is not None else MODELS_DIR / "static"
        if not model_dir.is_dir():
            raise EmbedderError(
                f"{self.name}: no static model in {model_dir}; the credo installation is "
                "incomplete: reinstall credo, or use local:minilm"
            )
        _require_files(model_dir, ("embeddings.npy", "tokenizer.json"), self.name)
        try:
            vectors = np.load(model_dir / "embeddings.npy", allow_pickle=False)
        except Exception as exc:
            raise EmbedderError(
                f"{self.name}: cannot read {model_dir / 'embeddings.npy'}: {exc}; reinstall credo"
            ) from exc
        if vectors.ndim != 2:
            raise EmbedderError(f"{self.name}: embeddings.npy has shape {vectors.shape}")
        self._vectors: npt.NDArray[Any] = vectors
        self.dim = int(vectors.shape[1])
        tokenizer = _load_tokenizer(model_dir / "tokenizer.json", self.name)
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_tokens)
        self._tokenizer = tokenizer
        unk = getattr(tokenizer.model, "unk_token", None)
        self._unk_id: int | None = tokenizer.token_to_id(unk) if unk else None

    def embed_batch(self, texts: Sequence[str], *, kind: Kind = "document") -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(_clip(texts), add_special_tokens=False)
        id_lists = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        if self._unk_id is not None:
            id_lists = [ids[ids != self._unk_id] for ids in id_lists]
        rows = [i for i, ids in enumerate(id_lists) if ids.size]
        if not rows:
            return out  # only empty texts: zero vectors
        lengths = np.asarray([id_lists[i].size for i in rows])
        gathered = self._vectors[np.concatenate([id_lists[i] for i in rows])].astype(np.float32)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        out[rows] = np.add.reduceat(gathered, starts, axis=0) / lengths[:, None]
        return l2_normalise(out)
