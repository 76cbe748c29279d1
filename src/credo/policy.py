"""What counts as a fact, as a file: a `GatePolicy` kept in TOML beside the database.

The seed's workflow starts by asking what counts as a fact; the answer belongs to the
store, not to the code. A SQLite store at `notes.db` keeps its policy in
`notes.db.gate.toml`; a PostgreSQL store (no file to sit beside) keeps it in the user
config directory, under a name derived from a hash of the URL, so that no password in the
URL ends up in a file name. A missing file means the documented defaults.

The file is a flat table of string lists and a few numbers, so it is written by hand here
(no TOML writer dependency) and read with the standard library's `tomllib`.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from .errors import CredoError
from .gate import GatePolicy

__all__ = [
    "PolicyError",
    "default_policy_text",
    "load_policy",
    "policy_path_for",
    "render_policy",
    "save_policy",
]

_LIST_FIELDS = (
    "hedges",
    "affect",
    "speculation",
    "transient",
    "attribution",
    "vague",
    "keep_examples",
    "refuse_examples",
    "one_valued",
    "many_valued",
    "predicate_synonyms",
    "predicate_opposites",
    "exclusive_values",
    "value_kinds",
)
_INT_FIELDS = ("min_chars", "max_words")
_STR_FIELDS = ("deny_list",)
_KNOWN = frozenset(_LIST_FIELDS + _INT_FIELDS + _STR_FIELDS)

_COMMENTS = {
    "deny_list": "The NEVER list, given to the LLM extractor word for word.",
    "keep_examples": "5-10 facts that should be remembered forever (shown to the LLM).",
    "refuse_examples": "3-5 things that must never become facts (shown to the LLM).",
    "hedges": "A candidate containing any of these words or phrases is 'hedged'.",
    "affect": "... 'affect' (emotion or mood).",
    "speculation": "... 'speculative' (intentions, plans, the future).",
    "transient": "... 'transient' (state that is true only now).",
    "attribution": "... 'attributed_opinion' (what someone else thinks).",
    "vague": "... 'vague' (not specific enough to check).",
    "min_chars": "Shorter candidates are refused as too short to check.",
    "max_words": "Longer candidates are refused as summaries, not facts.",
    "one_valued": "Predicates that hold one value at a time (added to credo's catalogue), "
    'e.g. "work_at".',
    "many_valued": "Predicates that hold many values (a catalogue entry made many-valued).",
    "predicate_synonyms": '"alias = canonical" pairs, e.g. "be_located_in = live_in".',
    "exclusive_values": 'Groups of values that exclude each other, e.g. "remote | hybrid | '
    'on-site".',
    "value_kinds": '"kind = member | member" entries: denying the kind denies each member, '
    'e.g. "pet = cat | dog".',
    "predicate_opposites": '"predicate = opposite" pairs: saying one is not the other, '
    'e.g. "avoid = use".',
}


class PolicyError(CredoError, ValueError):
    """A policy file cannot be read; the message names the file and the line."""


def policy_path_for(db: str) -> Path:
    """Where the policy of the store at `db` lives (it need not exist yet)."""
    if re.match(r"^postgres(?:ql)?(?:\+\w+)?://", db.strip(), re.IGNORECASE):
        from platformdirs import user_config_dir

        digest = hashlib.sha256(db.strip().encode()).hexdigest()[:16]
        return Path(user_config_dir("credo", appauthor=False)) / f"postgres-{digest}.gate.toml"
    path = Path(db).expanduser()
    return path.with_name(path.name + ".gate.toml")


# -- writing ------------------------------------------------------------------------------
def _quote(value: str) -> str:
    # a JSON string is a valid TOML basic string for everything JSON escapes
    return json.dumps(value, ensure_ascii=False)


def render_policy(policy: GatePolicy) -> str:
    """The policy as TOML: what `credo gate show` prints and `save_policy` writes."""
    lines = [
        "# credo gate policy: what may become a fact in this store.",
        "# Edit, save, and the next remember or ingest uses it. Delete a key to get its",
        "# default back; delete the file to get every default back.",
        "",
    ]
    for f in fields(GatePolicy):
        value = getattr(policy, f.name)
        if f.name in _COMMENTS:
            lines.append(f"# {_COMMENTS[f.name]}")
        if isinstance(value, tuple):
            lines.append(f"{f.name} = [")
            lines.extend(f"  {_quote(v)}," for v in value)
            lines.append("]")
        elif isinstance(value, int):
            lines.append(f"{f.name} = {value}")
        else:
            lines.append(f"{f.name} = {_quote(value)}")
        lines.append("")
    return "\n".join(lines)


def default_policy_text() -> str:
    return render_policy(GatePolicy())


def save_policy(policy: GatePolicy, path: str | Path) -> Path:
    """Write `policy` to `path` atomically (a half-written policy would refuse nothing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(render_policy(policy), encoding="utf-8")
    tmp.replace(path)
    return path


# -- reading ------------------------------------------------------------------------------
def load_policy(path: str | Path) -> GatePolicy:
    """The policy in `path`; the defaults when there is no such file.

    Keys left out keep their defaults. Unknown keys and wrong types are errors that name
    the file and line, so a typo cannot silently switch a category off.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return GatePolicy()
    except OSError as exc:
        shown = str(path) if len(str(path)) <= 200 else str(path)[:100] + "..." + str(path)[-60:]
        raise PolicyError(f"{shown}: cannot read the gate policy: {exc.strerror}") from exc
    data = _parse_toml(text, path)
    return _policy_from(data, text, path)


def _parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = tomllib.loads(text)
        return data
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\(at line (\d+), column \d+\)", message)
        line = int(at.group(1)) if at else max(1, len(text.splitlines()))
        message = re.sub(r"\s*\(at (?:line \d+, column \d+|end of document)\)", "", message)
        raise PolicyError(f"{path}:{line}: not valid TOML: {message}") from exc


def _line_of(text: str, key: str) -> int | None:
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return n
    return None


def _policy_from(data: dict[str, Any], text: str, path: Path) -> GatePolicy:
    changes: dict[str, Any] = {}
    for key, value in data.items():
        line = _line_of(text, key)
        where = f"{path}:{line}" if line else str(path)
        if key not in _KNOWN:
            raise PolicyError(
                f"{where}: unknown key {key!r}; known keys: {', '.join(sorted(_KNOWN))}"
            )
        if key in _LIST_FIELDS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise PolicyError(f"{where}: {key} must be a list of strings")
            changes[key] = tuple(v.strip() for v in value if v.strip())
            if key in (
                "predicate_synonyms",
                "predicate_opposites",
                "exclusive_values",
                "value_kinds",
            ):
                from .predicates import CatalogueError, parse_groups, parse_kinds, parse_pairs

                try:
                    if key == "exclusive_values":
                        parse_groups(changes[key])
                    elif key == "value_kinds":
                        parse_kinds(changes[key])
                    else:
                        parse_pairs(changes[key], key)
                except CatalogueError as exc:
                    raise PolicyError(f"{where}: {exc}") from exc
        elif key in _INT_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise PolicyError(f"{where}: {key} must be a positive whole number")
            changes[key] = value
        else:
            if not isinstance(value, str) or not value.strip():
                raise PolicyError(f"{where}: {key} must be a non-empty string")
            changes[key] = value.strip()
    return replace(GatePolicy(), **changes)
