"""Thresholds and settings, written down in one place.

The library takes a `Settings` object; only the edges (CLI, MCP server) build one from the
environment, with `Settings.from_env()`. Nothing here is read at import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: facts below this are kept but not recalled by default
RECALL_FLOOR = 0.4
#: facts below this are rendered with an explicit "(uncertain)" hedge
HEDGE_BELOW = 0.65
#: reciprocal rank fusion constant: score = sum(1 / (RRF_K + rank)), rank from 1
RRF_K = 60
#: a later assertion supersedes an earlier one only when at least this much newer (seconds)
UPDATE_WINDOW = 24 * 3600.0
#: how much a duplicate raises confidence, and the ceiling it cannot pass
REINFORCE_STEP = 0.02
REINFORCE_CEILING = 0.99
#: how much a contradiction lowers each side's confidence
CONFLICT_PENALTY = 0.05
#: rejections kept per scope (oldest pruned first)
REJECTIONS_KEPT = 10_000
#: a fact text longer than this is a document, not a fact (remember, import, the MCP tools)
MAX_FACT_CHARS = 2_000
#: one conversation turn (ingest: files, the Python API, the MCP tool); longer is refused
MAX_TURN_CHARS = 10_000
#: all the turns of one MCP `ingest` call together
MAX_INGEST_CHARS = 200_000
#: a conversation file `credo ingest` reads, and an export `credo import` reads
MAX_INPUT_BYTES = 256 * 1024 * 1024
#: one line of an export (one record) or of a JSON Lines conversation
MAX_LINE_BYTES = 1024 * 1024
#: a rejection keeps at most this much of the refused text (masked first, then cut)
MAX_REJECTION_CHARS = 500
#: a provenance reference (a turn, episode or fact id), and how many one fact keeps
MAX_REF_CHARS = 500
MAX_REFS = 1_000
#: short labels: sources, lineage kinds, rejection codes, who decided
MAX_LABEL_CHARS = 200


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("credo", appauthor=False)) / "credo.db"


@dataclass(frozen=True)
class Settings:
    db: str = ""
    scope: str = "default"
    embedder: str = "local:minilm"
    embedder_options: Mapping[str, str] = field(default_factory=dict)
    recall_floor: float = RECALL_FLOOR
    hedge_below: float = HEDGE_BELOW

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from CREDO_* variables; called by the edges only."""
        env = os.environ if env is None else env
        options: dict[str, str] = {}
        if env.get("CREDO_EMBED_BASE_URL"):
            options["base_url"] = env["CREDO_EMBED_BASE_URL"]
        key = env.get("CREDO_EMBED_API_KEY") or env.get("OPENAI_API_KEY")
        if key:
            options["api_key"] = key
        return cls(
            db=env.get("CREDO_DB") or str(default_db_path()),
            scope=env.get("CREDO_SCOPE") or "default",
            embedder=env.get("CREDO_EMBEDDER") or "local:minilm",
            embedder_options=options,
        )
