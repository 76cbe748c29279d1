"""No phrase of the evaluation data lives in the source: a rule written for one sentence
of `../shared/data` fits the benchmark, not the language. Any run of six words that a
person said in the data (MSC personas, PersonaExt, LoCoMo turns, session dates and
observations, BEAM user turns) found in `src/` fails, with the file and the words."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RUN = 6
#: a fenced code block in a chat turn: code, not speech
_CODE = re.compile(r"```.*?(```|$)", re.S)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _runs(text: str) -> Iterator[tuple[str, ...]]:
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    for i in range(len(words) - RUN + 1):
        yield tuple(words[i : i + RUN])


def _data_texts() -> Iterator[str]:
    msc = json.loads((DATA / "msc_personas" / "msc_personas_dev.json").read_text())
    for split in msc.values():
        for item in split:
            for key, value in item.items():
                if key.startswith("Speaker") and isinstance(value, list):
                    yield from map(str, value)
    with (DATA / "personaext" / "personaext_dev.jsonl").open() as fh:
        for line in fh:
            yield json.loads(line)["text"]
    for conv in json.loads((DATA / "locomo" / "locomo_dev.json").read_text()):
        for key, turns in conv["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                yield from (str(t.get("text", "")) for t in turns)
            elif key.startswith("session_") and isinstance(turns, str):
                yield turns  # a session's date as LoCoMo writes it ("4:05 pm on ...")
        for session in (conv.get("observation") or {}).values():
            for facts in session.values():
                yield from (str(f[0]) for f in facts if f)
    for chat in sorted((DATA / "beam").glob("*/*/chat.json")):
        for batch in json.loads(chat.read_text()):
            for group in batch["turns"]:
                yield from (_CODE.sub(" ", m["content"]) for m in group if m.get("role") == "user")


@pytest.fixture(scope="module")
def data_runs() -> set[tuple[str, ...]]:
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is not here: nothing to compare the source with")
    return {run for text in _data_texts() for run in _runs(text)}


def _source_files() -> list[Path]:
    src = ROOT / "src" / "credo"
    return sorted(
        p for p in src.rglob("*") if p.suffix in {".py", ".toml", ".yaml", ".json", ".txt"}
    )


def test_the_data_is_read(data_runs: set[tuple[str, ...]]) -> None:
    # a reader that silently found nothing would make the next test pass vacuously
    assert len(data_runs) > 100_000
    assert ("i", "have", "a", "dog", "and", "a") in data_runs or len(data_runs) > 100_000


def test_no_run_of_six_words_from_the_data_in_src(data_runs: set[tuple[str, ...]]) -> None:
    found = []
    for path in _source_files():
        for run in _runs(path.read_text(encoding="utf-8")):
            if run in data_runs:
                found.append(f"{path.relative_to(ROOT)}: {' '.join(run)}")
    assert not found, "phrases of ../shared/data in src/:\n" + "\n".join(found)


def _other_files() -> list[Path]:
    """Tests, docs and benchmarks: a test written on a sentence of the data passes on the
    data, not on the language. (The written pairs of examples/natural are left out: they
    are common speech, labelled blind, and may meet a persona's words by chance.)"""
    found = [ROOT / "README.md"]
    for folder, suffixes in (("tests", {".py"}), ("docs", {".md"}), ("bench", {".py"})):
        found += [p for p in (ROOT / folder).rglob("*") if p.suffix in suffixes]
    return sorted(p for p in found if p.is_file() and p.name != Path(__file__).name)


def test_no_run_of_six_words_from_the_data_in_tests_or_docs(
    data_runs: set[tuple[str, ...]],
) -> None:
    found = []
    for path in _other_files():
        for run in _runs(path.read_text(encoding="utf-8")):
            if run in data_runs:
                found.append(f"{path.relative_to(ROOT)}: {' '.join(run)}")
    assert not found, "phrases of ../shared/data outside src/:\n" + "\n".join(found[:40])
