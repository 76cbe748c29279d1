"""credo.cache: what a cold command-line process would build again (lemminflect's tables,
the compiled patterns of the secret detectors, credo.secret_*), kept in files,
changes no result."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from credo import (
    cache,
    secret_base,
    secret_blocks,
    secret_codes,
    secret_numbers,
    secret_passwords,
    secret_patterns,
    secret_shapes,
    secret_tokens,
)
from credo.config import Settings


@pytest.fixture
def cache_dir(tmp_path: Path) -> Iterator[Path]:
    before = cache.folder()
    cache.enable(tmp_path / "cache")
    yield tmp_path / "cache"
    cache.enable(before)


def _secret_patterns() -> list[re.Pattern[str]]:
    found = [
        v
        for module in (
            secret_base,
            secret_blocks,
            secret_numbers,
            secret_tokens,
            secret_codes,
            secret_passwords,
            secret_patterns,
            secret_shapes,
        )
        for v in vars(module).values()
        if isinstance(v, re.Pattern)
    ]
    assert len(found) > 20
    return found


def test_a_pattern_read_back_is_the_pattern_re_compiles(cache_dir: Path) -> None:
    patterns = _secret_patterns()
    for p in patterns:  # first: compiled, kept
        assert cache.compile_pattern(p.pattern, p.flags) == re.compile(p.pattern, p.flags)
    cache._save_patterns()
    assert [f.name.split("-")[0] for f in cache_dir.iterdir()] == ["patterns"]
    cache.enable(cache_dir)  # as a new process: nothing in memory, the file read back
    for p in patterns:
        again = cache.compile_pattern(p.pattern, p.flags)
        assert again == p  # `==` on patterns compares their compiled programs
        assert again.groupindex == p.groupindex and again.groups == p.groups
    assert "dirty" not in cache._patterns_state  # every one came from the file
    text = "my wifi password is Zx9kLm2Qp and the door code is 4821"
    assert [again.pattern for again in patterns if again.search(text)]


def test_a_damaged_or_foreign_cache_file_is_ignored(cache_dir: Path) -> None:
    pattern = r"(?P<word>\w+)\s+is\s+(?P<value>\d+)"
    cache.compile_pattern(pattern)
    cache._save_patterns()
    (path,) = cache_dir.iterdir()
    for junk in (b"", b"\x00garbage", path.read_bytes()[:100]):
        path.write_bytes(junk)
        cache.enable(cache_dir)
        compiled = cache.compile_pattern(pattern)
        assert compiled == re.compile(pattern)
        assert compiled.match("pin is 1234") is not None


def test_cache_off_is_re_compile() -> None:
    before = cache.folder()
    cache.enable(None)
    try:
        assert cache.compile_pattern(r"a+b", re.I) == re.compile(r"a+b", re.I)
        assert cache.kept("thing", "v1", lambda: {"a": (1, 2)}) == {"a": (1, 2)}
    finally:
        cache.enable(before)


def test_kept_values_are_rebuilt_when_their_source_changes(cache_dir: Path) -> None:
    calls: list[str] = []

    def build(tag: str) -> dict[str, tuple[str, ...]]:
        calls.append(tag)
        return {"word": (tag,)}

    assert cache.kept("table", "v1", lambda: build("one")) == {"word": ("one",)}
    assert cache.kept("table", "v1", lambda: build("two")) == {"word": ("one",)}  # read
    assert cache.kept("table", "v2", lambda: build("three")) == {"word": ("three",)}
    assert calls == ["one", "three"]


def test_cache_dir_setting() -> None:
    assert Settings.from_env({"CREDO_CACHE_DIR": "/tmp/x"}).cache_dir == "/tmp/x"
    assert Settings.from_env({"CREDO_CACHE_DIR": "off"}).cache_dir == ""
    assert Settings.from_env({}).cache_dir.endswith("credo")


_TABLES = """
import json, sys
from credo import cache
cache.enable(sys.argv[1])
from credo import nlp
nlp._lemminflect_table("lemmas")
nlp._lemminflect_table("inflections")
import lemminflect
from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec
lemmas, inflections = lemminflect.Lemmatizer(), lemminflect.Inflections()
print(json.dumps([
    lemmas.lemma_dict == LemmaLUCodec.load(lemmas.lemma_lu_fn),
    inflections.infl_dict == InflectionLUCodec.load(inflections.infl_lu_fn),
    lemminflect.getAllLemmas("lives"), lemminflect.getInflection("live", tag="VBZ"),
]))
"""


def test_lemminflect_tables_from_the_cache_are_lemminflects_own(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    runs = []
    for _ in range(2):  # the first run writes the tables, the second reads them
        out = subprocess.run(
            [sys.executable, "-c", _TABLES, str(folder)],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        assert {"inflections", "lemmas"} <= {f.name.split("-")[0] for f in folder.iterdir()}
    assert runs[0] == runs[1]
    assert runs[1][:2] == [True, True]
    assert runs[1][3] == ["lives"]


def test_remember_from_the_command_line_with_and_without_the_cache(tmp_path: Path) -> None:
    """The same statements give the same output whether the cache is off, being written,
    or read; `CREDO_CACHE_DIR=off` writes nothing."""
    folder = tmp_path / "cache"
    lines = "I live in Berlin\nmy door code is 4821\nSam drives a Volvo\n"
    outputs = []
    for n, where in enumerate(("off", str(folder), str(folder))):
        env = {
            **os.environ,
            "CREDO_CACHE_DIR": where,
            "CREDO_DB": str(tmp_path / f"m{n}.db"),
            "CREDO_EMBEDDER": "hash",
        }
        out = subprocess.run(
            [sys.executable, "-m", "credo.cli", "remember", "-", "--json"],
            input=lines,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 1, out.stderr  # the door code is refused: a secret
        results = json.loads(out.stdout)
        outputs.append([(r["code"], r.get("fact", {}) and r["fact"]["text"]) for r in results])
        if where == "off":
            assert not folder.exists()
    assert outputs[0] == outputs[1] == outputs[2]
    assert [code for code, _ in outputs[0]].count("secret") == 1, outputs[0]
    assert any("lives in Berlin" in str(text) for _, text in outputs[0]), outputs[0]
    # the products table and the synonym sets are read when a statement is weighed against
    # the stored ones
    assert sorted(f.name.split("-")[0] for f in folder.iterdir()) == [
        "inflections",
        "lemmas",
        "lexicon",
        "patterns",
        "product_table",
        "product_words",
        "secret_words",
        "synonym_sets",
    ]


def test_the_pipeline_reads_the_tokenizer_spacy_itself_would() -> None:
    """credo builds a blank tokenizer for spaCy to fill from the saved one, instead of
    English's default built and then thrown away: the same tokenizer, the same parses."""
    import spacy

    from credo import nlp

    ours = nlp.pipeline.__wrapped__()  # a fresh load, as the first call makes it
    theirs = spacy.load(nlp.PIPELINE, exclude=list(nlp.EXCLUDE))
    assert ours.tokenizer.to_bytes() == theirs.tokenizer.to_bytes()
    assert ours.pipe_names == theirs.pipe_names
    for name in ours.pipe_names:
        assert ours.get_pipe(name).to_bytes() == theirs.get_pipe(name).to_bytes()
    text = "I can't believe it's 5pm; mail a@b.com or see https://x.org/y?z. Dr. Lee's U.S. trip"
    parsed = [
        [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_) for t in nlp_(text)]
        for nlp_ in (ours, theirs)
    ]
    assert parsed[0] == parsed[1]


def test_patterns_compiled_inside_patterns_kept_are_what_re_compiles(cache_dir: Path) -> None:
    original = re.compile
    with cache.patterns_kept():
        assert re.compile is not original
        made = re.compile(r"(?P<word>[a-z]+)\s+\d{2,}", re.IGNORECASE)
        assert re.compile(made) is made  # a Pattern is given back as it is
    assert re.compile is original
    assert made == original(r"(?P<word>[a-z]+)\s+\d{2,}", re.IGNORECASE)
    cache.enable(None)
    with cache.patterns_kept():  # off: re.compile is left alone
        assert re.compile is original


_SLIPS = """
from credo.secret_base import one_slip
print(one_slip("password", "passcode", "passphrase"))
"""


def test_a_pattern_of_typed_slips_is_the_same_in_every_process() -> None:
    """Its alternatives come from a set: written in a fixed order, so that its compiled
    program is found in the cache by the next process (it was compiled anew every time)."""
    outs = {
        subprocess.run(
            [sys.executable, "-c", _SLIPS],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outs) == 1
