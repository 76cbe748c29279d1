"""The two write paths agree (issue 25, part 4): every single statement of
`examples/write-path.yaml` (the cases without `before`) gets the same key through
`Memory.remember` and through `ingest` as one user turn, on the shipped model.

The statements the paths still key apart are listed (KNOWN_APART, measured when this
test was written; `scripts/compare_write_paths.py --all` prints both readings): the
test fails when a statement that agrees today comes apart, and names a listed one that
has come to agree, so the list only shrinks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from credo.embed import get_embedder
from credo.extract.base import Turn
from credo.ingest import ingest
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

Key = tuple[str | None, str | None, str | None]

#: read apart today, each for a reason. A turn of a conversation is read more narrowly
#: than a `remember` call: an agent calls `remember` to keep what it was told, while most
#: of a chat is talk, so the conversation extractor keeps only what it can tell is a fact
#: (about the speaker, a person of the conversation, or a named thing and its value, with
#: an object that names something; LoCoMo's accept rate per turn is held near 13%).
KNOWN_APART = frozenset(
    {
        # -- principled: about someone who is not in the conversation, or a thing said in
        # another shape than "the X is Y". Chat about others and their things is left out:
        # in a chat with an assistant it is mostly the problem being asked about ("the
        # api returns a 500 when ..."); keeping it was measured on BEAM (twelfth session:
        # 601 -> 817 facts, stale values shown as current 3 -> 6 of 19)
        "Arttu deploys arttuan.com on Vercel",
        "The repo is at git@github.com:arttu/credo.git",
        "the test suite currently takes 9 minutes",
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


#: invented sentences of the kinds the two paths used to read apart: a statement beside a
#: mood, who the speaker says they are before a question, a habit and its ending said
#: together, a statement beside a clause that needs what came before
TOLD_BESIDE = [
    "finally turned 30 last week, feeling ancient haha",
    "just got a new puppy - super excited",
    "sold my car last month, kinda sad tbh",
    "as a nurse, what shoes are best for long shifts?",
    "as a night-shift baker, when should i sleep?",
    "i used to run marathons but i stopped",
    "moved to leeds in june, loving it so far",
]
#: ... and sentences where neither path keeps anything
NOTHING_KEPT = [
    "as a result, what should i do next?",
    "so tired today ugh",
]


Paths = Callable[[str], tuple[list[Key], list[Key]]]


@pytest.fixture(scope="module")
def both_paths(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Paths]:
    """The keys a text gets through `remember` and through `ingest` (one user turn)."""
    store = SQLiteStore(tmp_path_factory.mktemp("paths") / "told.db", get_embedder())
    seen: dict[str, tuple[list[Key], list[Key]]] = {}

    def keys(text: str) -> tuple[list[Key], list[Key]]:
        if text not in seen:
            n = len(seen)
            Memory(store, scope=f"r{n}").remember(text)
            ingest(Memory(store, scope=f"i{n}"), [Turn(f"t{n}", "user", text)])
            by_remember, by_ingest = (
                [(f.subject, f.predicate, f.object) for f in store.all(scope=f"{p}{n}")]
                for p in "ri"
            )
            seen[text] = (by_remember, by_ingest)
        return seen[text]

    yield keys
    store.close()


@pytest.mark.parametrize("text", TOLD_BESIDE)
def test_a_statement_told_beside_a_mood_or_question_is_keyed_alike_on_both_paths(
    both_paths: Paths, text: str
) -> None:
    by_remember, by_ingest = both_paths(text)
    assert len(by_remember) == 1 and by_remember[0][0] == "user", by_remember
    assert by_remember[0] in by_ingest, (by_remember, by_ingest)
    # nothing of the mood or the question is in the key
    assert all("excited" not in str(k) and "?" not in str(k) for k in by_ingest)


@pytest.mark.parametrize("text", NOTHING_KEPT)
def test_nothing_is_kept_on_either_path_when_no_clause_states(both_paths: Paths, text: str) -> None:
    assert both_paths(text) == ([], [])


#: invented statements of a "we"
OF_OTHERS = [
    ("our staging database is postgres 15", "we"),
    ("we moved the standup to 9:30", "we"),
    ("our cat is a ragdoll", "we"),
]


@pytest.mark.parametrize(("text", "subject"), OF_OTHERS)
def test_a_chat_with_an_assistant_keeps_the_users_we(
    both_paths: Paths, text: str, subject: str
) -> None:
    by_remember, by_ingest = both_paths(text)
    assert [k[0] for k in by_remember] == [subject], by_remember
    assert by_remember[0] in by_ingest, (by_remember, by_ingest)


@pytest.mark.parametrize(("text", "subject"), OF_OTHERS)
def test_among_several_people_a_we_is_left_out(tmp_path: Path, text: str, subject: str) -> None:
    """Whose "we" it is, nobody can tell from the turn of a conversation among several
    people: nothing of it is stored."""
    store = SQLiteStore(tmp_path / "party.db", get_embedder())
    try:
        turns = [
            Turn("p1", "user", "hey ben, long time no see", speaker="Ana"),
            Turn("p2", "user", "hi ana! how have you been?", speaker="Ben"),
            Turn("p3", "user", text, speaker="Ana"),
        ]
        ingest(Memory(store, scope="party"), turns)
        assert [f.subject for f in store.all(scope="party")] == []
    finally:
        store.close()
