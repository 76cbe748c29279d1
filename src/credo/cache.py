"""What a cold process would otherwise build again on every start, kept in files.

A `credo remember` from the command line is a new process each time. Before it can read
one sentence it used to rebuild, every time, two things that never change between runs:

- lemminflect's word tables (`lemma_lu.csv.gz`, `infl_lu.csv.gz`: some 40,000 lines each,
  parsed line by line in Python; about 0.5 s each on a loaded 2-core machine);
- the compiled programs of `credo.secrets`' patterns (141 patterns, some of 14,000
  characters; about 0.5 s of `re` parsing and compiling).

Here both are kept in a cache directory as `marshal` files and read back in milliseconds,
and so are the data tables the write path reads (the lexicon, the secret words, the
products table, WordNet's synonym sets) and the programs of the patterns spaCy and the
write path's modules compile when they are imported (`patterns_kept`).
A cached value is exactly what the slow path builds (the tables are what lemminflect's own
reader returns; a pattern is compiled from the same program `re` makes, and is checked
equal to `re.compile`'s when first cached), so nothing in a cache changes a result. A file
that is missing, unreadable, or made by another interpreter or from other source data is
ignored and written anew.

Off unless enabled: a library never writes files it was not asked to. The command line
enables it (`enable`) with `Settings.cache_dir` ($CREDO_CACHE_DIR, by default the user cache
directory; `off` turns it off).
"""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import re
import sys
import threading
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: the layout of the files written here; a change makes every older file ignored
FORMAT = 1

_folder: Path | None = None
_lock = threading.RLock()
#: `re.compile` as the interpreter has it (what `patterns_kept` puts back)
_re_compile = re.compile


def enable(folder: str | Path | None) -> None:
    """Keep the cache in `folder` (made when first written); None turns it off."""
    global _folder
    with _lock:
        _folder = Path(folder).expanduser() if folder else None
        _patterns.clear()
        _patterns_state.clear()
        _used.clear()


def folder() -> Path | None:
    """Where the cache is kept, or None when it is off."""
    return _folder


def _interpreter() -> str:
    """What a cached value depends on besides its source: this interpreter's build."""
    import _sre

    return f"{FORMAT}|{sys.version}|{sys.implementation.cache_tag}|{_sre.MAGIC}|{_sre.CODESIZE}"


def _path(name: str, source: str) -> Path | None:
    if _folder is None:
        return None
    digest = hashlib.sha256(f"{_interpreter()}|{source}".encode()).hexdigest()[:16]
    return _folder / f"{name}-{digest}.marshal"


def _read(path: Path) -> Any:
    """The value marshalled in `path`, or None when there is none to read."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    # the tables are some 100,000 small dicts and tuples: the cyclic collector, run again
    # and again while they are made, would triple the time (it finds no cycle in them)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError):  # a file cut short or not ours
        return None
    finally:
        if collecting:
            gc.enable()


def _write(path: Path, value: Any) -> None:
    """Write `value` to `path` whole (a reader sees the old file or the new, never half of
    one); a cache that cannot be written is no error, it is only slower next time."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(marshal.dumps(value))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except (OSError, ValueError):
        pass


def kept(name: str, source: str, build: Callable[[], Any]) -> Any:
    """`build()`, read from the cache when it was kept there for the same `source` (a
    string naming what the value is built from: a file's digest, a version). The value
    must be made of what `marshal` writes (dicts, tuples, strings, numbers)."""
    path = _path(name, source)
    if path is not None:
        value = _read(path)
        if value is not None:
            return value
    value = build()
    if path is not None:
        _write(path, value)
    return value


def file_digest(path: str | Path) -> str:
    """A short digest of a file's bytes (what a value built from it depends on)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:32]


# -- compiled patterns ---------------------------------------------------------------------
#: (pattern, flags) -> (flags, program, groups, groupindex, indexgroup), as read or made
_patterns: dict[tuple[str, int], tuple[Any, ...]] = {}
#: "read": the file was read; "dirty": a pattern was compiled that it did not hold
_patterns_state: set[str] = set()
#: the patterns this process compiled (what the file is written with)
_used: set[tuple[str, int]] = set()


def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, its program kept in the cache between processes. The
    Pattern is the same (`==` compares programs) as `re.compile` makes; with the cache off,
    or on an interpreter whose `re` is not laid out as expected, it is `re.compile`'s."""
    if _folder is None or not isinstance(pattern, str) or not isinstance(flags, int):
        return _re_compile(pattern, flags)
    import _sre

    flags = int(flags)  # a RegexFlag is kept as the number it is
    with _lock:
        if "read" not in _patterns_state:
            _patterns_state.add("read")
            path = _path("patterns", "")
            found = _read(path) if path is not None else None
            if isinstance(found, dict):
                _patterns.update(found)
        _used.add((pattern, flags))
        parts = _patterns.get((pattern, flags))
        if parts is not None:
            try:
                compiled: re.Pattern[str] = _sre.compile(pattern, *_unpacked(parts))
                return compiled
            except Exception:  # not what this interpreter makes: compile it anew
                pass
        fresh = _re_compile(pattern, flags)
        parts = _program(pattern, flags, fresh)
        if parts is not None:
            if "dirty" not in _patterns_state:
                _patterns_state.add("dirty")
                import atexit

                atexit.register(_save_patterns)
            _patterns[(pattern, flags)] = parts
        return fresh


@contextmanager
def patterns_kept() -> Iterator[None]:
    """While inside, `re.compile` is `compile_pattern` for every module that calls it (spaCy
    compiles its tokenizer's patterns, some of thousands of characters, on every import and
    load: about a tenth of a cold `credo remember`). What each call returns is equal to what
    `re.compile` makes, so nothing that compiles a pattern here sees a difference. With the
    cache off, or when `re.compile` is already not the interpreter's own, nothing changes."""
    if _folder is None or re.compile is not _re_compile:
        yield
        return
    re.compile = compile_pattern  # type: ignore[assignment]
    try:
        yield
    finally:
        re.compile = _re_compile


def _unpacked(parts: tuple[Any, ...]) -> tuple[Any, ...]:
    flags, program, groups, groupindex, indexgroup = parts
    return flags, array("I", program).tolist(), groups, groupindex, indexgroup


def _program(pattern: str, flags: int, fresh: re.Pattern[str]) -> tuple[Any, ...] | None:
    """What `_sre.compile` takes to make `fresh` again without parsing `pattern`: the steps
    of CPython's `re._compiler.compile` (3.11 to 3.13), kept only when they give a Pattern
    equal to `fresh` (else None: that pattern is not cached)."""
    try:
        import _sre
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        program = _compiler._code(parsed, flags)
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for key, index in state.groupdict.items():
            indexgroup[index] = key
        parts = (
            flags | state.flags,
            array("I", program).tobytes(),
            state.groups - 1,
            dict(state.groupdict),
            tuple(indexgroup),
        )
        if _sre.compile(pattern, *_unpacked(parts)) != fresh:
            return None
        return parts
    except Exception:
        return None


def _save_patterns() -> None:
    """At exit, when a pattern was compiled that the file did not hold: write the file
    with the patterns this process compiled (so one no longer used is dropped)."""
    with _lock:
        path = _path("patterns", "")
        if path is not None and "dirty" in _patterns_state:
            _write(path, {key: _patterns[key] for key in _used if key in _patterns})
            _patterns_state.discard("dirty")
