"""The eighteenth round of the write path on natural speech (issue 23) and the two write
paths read alike (issue 25, part 4): invented sentences, as people type them, through the
real parser, the real embedder and a real SQLite file."""

from __future__ import annotations

import pytest

from credo.embed import get_embedder
from credo.extract.base import Turn
from credo.extract.rules import RuleExtractor
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    return SQLiteStore(tmp_path_factory.mktemp("r18") / "r18.db", get_embedder())


def _kept(store: SQLiteStore, text: str) -> list[str]:
    scope = f"s{abs(hash(text))}"
    Memory(store, scope=scope).remember(text)
    return [f.text for f in store.all(scope=scope)]


# -- a kind of person "currently" is a role as of now, not a passing state -----------------
@pytest.mark.parametrize(
    "text",
    [
        "i'm currently a student",
        "im currently a nurse at the county hospital",
        "right now i am a barista",
        "I am currently a part-time librarian.",
    ],
)
def test_a_kind_of_person_said_as_of_now_is_kept(store: SQLiteStore, text: str) -> None:
    assert len(_kept(store, text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "i'm currently a mess lol",
        "im at the gym right now",
        "im currently a bit tired",
        "currently a zombie after the night shift",
    ],
)
def test_a_passing_state_said_as_of_now_is_still_refused(store: SQLiteStore, text: str) -> None:
    assert _kept(store, text) == []


# -- half sentences singled out by "even", "only" ------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "even when i burn the rice",
        "only if the weather holds",
        "just when i got comfy",
        "which i posted to the landlord on monday",
        "whose owner i met at the park",
    ],
)
def test_a_clause_singled_out_by_even_or_opened_by_which_is_half_a_sentence(text: str) -> None:
    candidate, why = RuleExtractor().judge(text, Turn("t", "user", text), "The user", set())
    assert candidate is None and why == "fragment"


def test_a_sentence_that_only_opens_on_even_is_still_read() -> None:
    text = "even my grandma uses a smartphone now"
    candidate, _ = RuleExtractor().judge(text, Turn("t", "user", text), "The user", set())
    assert candidate is not None


# -- in a conversation, a slot's value is kept whatever verb tells the event -----------------
def test_a_conversation_keeps_an_age_or_a_home_told_as_an_event() -> None:
    turns = [
        Turn("1", "user", "guess what, I turned 41 on friday", speaker="Mo"),
        Turn("2", "user", "happy birthday!! we moved to Galway in May btw", speaker="Lin"),
        Turn("3", "user", "I moved to Galway in May too, small world", speaker="Lin"),
    ]
    found = RuleExtractor().extract_episode(turns).candidates
    keys = {(c.subject, c.predicate, c.object) for c in found}
    assert ("Mo", "be_old", "41") in keys
    assert any(s == "Lin" and p in ("move_to", "live_in") and o == "Galway" for s, p, o in keys)
    assert not any(s == "we" for s, _, _ in keys)  # whose "we", among two, nobody can tell
