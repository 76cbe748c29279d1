"""The two write paths agree (issue 25, part 4): every single statement of
`examples/write-path.yaml` (the cases without `before`) gets the same key through
`Memory.remember` and through `ingest` as one user turn, on the shipped model.

The statements the paths still key apart are listed (KNOWN_APART, measured when this
test was written; `scripts/compare_write_paths.py --all` prints both readings): the
test fails when a statement that agrees today comes apart, and names a listed one that
has come to agree, so the list only shrinks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from credo.embed import get_embedder
from credo.extract.base import Turn
from credo.ingest import ingest
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

Key = tuple[str | None, str | None, str | None]

#: read apart today: the rule extractor proposes nothing, or another key, for these
KNOWN_APART = frozenset(
    {
        # who the speaker says they are before a question: remember keeps it, the
        # conversation extractor does not read "as a ..." yet
        "as a vegetarian, what should i eat for protein?",
        "Our production database is Postgres 16",
        "Our API lives at https://api.example.com/v1",
        "Our docs live at https://docs.example.org/v2",
        "We deploy arttuan.com on Vercel",
        "Arttu deploys arttuan.com on Vercel",
        "My colleague Will lives in Oslo",
        "I taught myself Rust",
        "My favourite band is Radiohead",
        "I read a lot",
        "I don't like cilantro",
        "My wife Laura is a doctor",
        "We switched from Jenkins to GitHub Actions",
        "My editor is Vim, not Emacs",
        "The repo is at git@github.com:arttu/credo.git",
        "Our Slack channel is #team-backend",
        "I keep secrets in .env.local",
        "I work at Smartly",
        "Nobody on my team uses Java",
        "I smoke",
        "I snore",
        'My motto is "I never give up"',
        "I, too, love jazz",
        "I hardly ever drink",
        "Neither my wife nor I smoke",
        "My IP is 192.168.1.10",
        "I don t like music",
        "I can swim and dive",
        "I don't smoke or drink",
        "I can't swim but love the beach",
        "I'm no longer vegetarian",
        "I sleep 8 hours a night",
        "I work 9 to 5",
        "I'm scared of heights",
        "turned 40 on sunday, feeling old lol",
        "just adopted a greyhound - so excited!!",
        "the test suite currently takes 9 minutes",
        "I used to smoke but I quit",
        "the scheduler runs on gcp",
    }
)


def _cases() -> list[str]:
    path = Path(__file__).parent.parent / "examples" / "write-path.yaml"
    return [c["say"] for c in yaml.safe_load(path.read_text()) if "before" not in c]


def test_every_write_path_example_is_keyed_alike_by_remember_and_ingest(tmp_path: Path) -> None:
    said = _cases()
    assert len(said) > 100
    store = SQLiteStore(tmp_path / "paths.db", get_embedder())
    apart, came_together = [], []
    try:
        for n, text in enumerate(said):
            result = Memory(store, scope=f"r{n}").remember(text)
            by_remember: Key | None = (
                (result.fact.subject, result.fact.predicate, result.fact.object)
                if result.accepted and result.fact
                else None
            )
            ingest(Memory(store, scope=f"i{n}"), [Turn(f"t{n}", "user", text)])
            by_ingest = [(f.subject, f.predicate, f.object) for f in store.all(scope=f"i{n}")]
            alike = by_remember in by_ingest or (by_remember is None and not by_ingest)
            if not alike and text not in KNOWN_APART:
                apart.append((text, by_remember, by_ingest))
            if alike and text in KNOWN_APART:
                came_together.append(text)
    finally:
        store.close()
    assert apart == [], "keyed apart by remember and ingest (remember, ingest): " + repr(apart)
    if came_together:
        pytest.fail(f"now keyed alike: take these out of KNOWN_APART: {came_together!r}")
