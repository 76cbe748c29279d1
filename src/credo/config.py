"""Thresholds and settings, written down in one place.

The library takes a `Settings` object; only the edges (CLI, MCP server) build one from the
environment, with `Settings.from_env()`. Nothing here is read at import time.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .errors import CredoError

_N = TypeVar("_N", int, float)

#: facts below this are kept but not recalled by default
RECALL_FLOOR = 0.4
#: facts below this are rendered with an explicit "(uncertain)" hedge
HEDGE_BELOW = 0.65
#: reciprocal rank fusion constant: score = sum(1 / (RRF_K + rank)), rank from 1
RRF_K = 60
#: a later assertion supersedes an earlier one only when at least this much newer (seconds)
UPDATE_WINDOW = 24 * 3600.0
#: a repetition that names no episode (the same claim said again, the same day) bumps
#: confidence by this much (the seed's reinforcement), never past the class's cap
REINFORCE_STEP = 0.02
#: corroboration: the same claim from an independent source (another source kind, another
#: episode, or, for statements that name no episode, a day or more after the claim was
#: last seen) closes this share of the gap between the fact's confidence and the cap of
#: the strongest source class that asserted it (fact.SOURCE_CAP); repetition inside one
#: episode changes nothing
CORROBORATION_SHARE = 0.5
CORROBORATION_GAP = 24 * 3600.0
#: a rendered fact says what it replaced (with `changes`) when it changed this recently
CHANGES_WITHIN = 365 * 24 * 3600.0
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
#: the most facts one recall returns (k)
MAX_RECALL_K = 1_000_000
#: extraction defaults: seconds per model reply, turns per episode, and the ceilings
LLM_TIMEOUT = 60.0
EPISODE_SIZE = 20
MAX_LLM_CONCURRENCY = 64
MAX_EPISODE_SIZE = 500


class SettingsError(CredoError, ValueError):
    """A setting (an environment variable or an option) is out of range; the message
    names it."""


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("credo", appauthor=False)) / "credo.db"


def default_cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("credo", appauthor=False))


@dataclass(frozen=True)
class Settings:
    db: str = ""
    scope: str = "default"
    embedder: str = "local:minilm"
    embedder_options: Mapping[str, str] = field(default_factory=dict)
    recall_floor: float = RECALL_FLOOR
    hedge_below: float = HEDGE_BELOW
    #: extraction model as provider:model (empty: the offline rule extractor)
    llm: str = ""
    llm_url: str = ""
    llm_key: str = field(default="", repr=False)
    #: seconds to wait for one extraction reply; a local model on a laptop needs minutes
    llm_timeout: float = LLM_TIMEOUT
    #: episodes extracted at once (remote APIs take several; a local server wants 1)
    llm_concurrency: int = 1
    #: turns per extraction call
    episode_size: int = EPISODE_SIZE
    #: where the command line keeps what a cold start would build again (credo.cache);
    #: empty: no cache
    cache_dir: str = ""

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
            llm=env.get("CREDO_LLM") or "",
            llm_url=env.get("CREDO_LLM_URL") or "",
            llm_key=env.get("CREDO_LLM_KEY") or "",
            llm_timeout=_number(env, "CREDO_LLM_TIMEOUT", LLM_TIMEOUT, float, "--llm-timeout"),
            llm_concurrency=_number(
                env, "CREDO_LLM_CONCURRENCY", 1, int, "--llm-concurrency", MAX_LLM_CONCURRENCY
            ),
            episode_size=_number(
                env, "CREDO_EPISODE_SIZE", EPISODE_SIZE, int, "--episode-size", MAX_EPISODE_SIZE
            ),
            cache_dir=_cache_dir(env),
        )


def _cache_dir(env: Mapping[str, str]) -> str:
    """$CREDO_CACHE_DIR: a directory, `off` (no cache), or unset (the user cache
    directory)."""
    raw = (env.get("CREDO_CACHE_DIR") or "").strip()
    if raw.lower() in ("off", "0", "no", "false", "none"):
        return ""
    return raw or str(default_cache_dir())


def check_llm_settings(
    *, timeout: float, concurrency: int, episode_size: int, where: str = "--llm-timeout"
) -> None:
    """SettingsError naming the option when an extraction setting is out of range."""
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
        raise SettingsError(f"{where} takes a positive number of seconds, not {timeout!r}")
    if not 1 <= concurrency <= MAX_LLM_CONCURRENCY:
        raise SettingsError(
            f"--llm-concurrency takes 1 to {MAX_LLM_CONCURRENCY} episodes at once, "
            f"not {concurrency!r}"
        )
    if not 1 <= episode_size <= MAX_EPISODE_SIZE:
        raise SettingsError(
            f"--episode-size takes 1 to {MAX_EPISODE_SIZE} turns, not {episode_size!r}"
        )


def _number(
    env: Mapping[str, str],
    name: str,
    default: _N,
    kind: Callable[[str], _N],
    option: str,
    ceiling: float | None = None,
) -> _N:
    """A positive number from the environment, or SettingsError naming the variable."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if (
        value is None
        or not math.isfinite(value)
        or value <= 0
        or (ceiling is not None and value > ceiling)
    ):
        limit = f" up to {ceiling:g}" if ceiling is not None else ""
        raise SettingsError(f"{name}={raw!r}: give a positive number{limit} (as for {option})")
    return value
