"""Chat the write path reads since the twenty-ninth round (issue 23): a stretch of time
counted from something the speaker did ("it's been two years since I moved to Bristol",
"been ages since i went climbing"). The "it" of such a sentence refers to nothing, and
"been" with that "it" left out is not the speaker's: the statement is its "since" clause.
Each class goes through `Memory.remember` (the real parser, the default embedding model
and a SQLite file), through the conversation extractor that `ingest` uses, and through
pairs the resolver decides. Every sentence is invented for the class it stands for.

- "it's been 2 years since I moved to Bristol", "It has been three years since I gave up
  sugar." are the speaker's statements, keyed on their "since" clause (was refused: "'it'
  has nothing to refer to"), stored in the words said; against an earlier value of the
  same slot they are updates ("I live in York", then the move; "i smoke", then quitting);
- a vague stretch ("ages", "a while", "a long time") says the doing stopped: keyed as
  its denial, as "i haven't been climbing in ages" is;
- with its "it" left out, the stretch is still time: "been 3 years since i sold my car" is
  never rewritten "X has been 3 years since ..." (was, in both paths);
- kept out: "been ages since we caught up" (the talk, no one's habit), "It's been a long
  week" (no since clause), and the speaker's own "been vegan since 2019".
"""

from __future__ import annotations

import time

import pytest
import speech_pairs
from speech_pairs import memory, module_store, remembered

from credo.store.sqlite import SQLiteStore

store = module_store("round29")

DAY = 86_400.0


def ingested(said: str) -> list[tuple[str, str | None, str | None]]:
    """What the conversation extractor keeps of Mia's turn, in a chat of two."""
    return speech_pairs.ingested(said, "Mia", after=("Joe", "How have you been?"))


# -- a stretch of time since a doing of the speaker's ------------------------------------------
@pytest.mark.parametrize(
    "said, predicate, obj",
    [
        ("it's been 2 years since I moved to Bristol", "live_in", "Bristol"),
        ("It has been three years since I gave up sugar.", "give_up", "sugar"),
        ("its been a year since i started at the bakery", "start_at", "the bakery"),
    ],
)
def test_a_stretch_since_a_doing_is_the_doings_statement(
    store: SQLiteStore, said: str, predicate: str, obj: str
) -> None:
    found = remembered(store, said)
    assert [(p, o) for _, p, o in found] == [(predicate, obj)], found
    (text, _, _) = found[0]
    assert text.lower().startswith(("it's been", "it has been", "its been")), text
    assert " the user " in text or " I " in text or " i " in text, text


@pytest.mark.parametrize(
    "said, obj",
    [
        ("It's been 2 years since I moved to Bristol!", "Bristol"),
        ("it's been a year since i started at the bakery", "the bakery"),
    ],
)
def test_in_a_conversation_the_stretch_is_the_speakers_statement(said: str, obj: str) -> None:
    found = ingested(said)
    assert [o for _, _, o in found] == [obj], found
    assert all(t.lower().startswith(("it's been", "its been")) and "Mia" in t for t, _, _ in found)


@pytest.mark.parametrize(
    "said, predicate",
    [
        ("been ages since i went climbing", "not_go"),
        ("it's been a long time since I played chess", "not_play"),
        ("been a while since i baked bread", "not_bake"),
    ],
)
def test_a_vague_stretch_says_the_doing_stopped(
    store: SQLiteStore, said: str, predicate: str
) -> None:
    found = remembered(store, said)
    assert [p for _, p, _ in found] == [predicate], found


@pytest.mark.parametrize(
    "said", ["been 3 years since i sold my car", "been 2 months since i changed jobs"]
)
def test_with_its_it_left_out_the_stretch_is_still_time(store: SQLiteStore, said: str) -> None:
    for text, _, obj in remembered(store, said) + ingested(said):
        assert "has been" not in text and "'ve been" not in text, text
        assert obj is None or "years" not in obj and "months" not in obj, obj


@pytest.mark.parametrize(
    "earlier, later",
    [
        ("I live in York", "it's been 2 years since I moved to Bristol"),
        ("i smoke", "It has been a year since I quit smoking."),
    ],
)
def test_a_stretch_since_a_change_updates_the_slot(
    store: SQLiteStore, earlier: str, later: str
) -> None:
    mem = memory(store)
    mem.remember(earlier, valid_from=time.time() - 900 * DAY)
    result = mem.remember(later)
    assert result.relation is not None and result.relation.value == "update", result.why
    assert [f.status.value for f in mem.list()] == ["superseded", "active"]


# -- kept out ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    ["been ages since we caught up!", "It's been a long week", "been a while since we spoke"],
)
def test_time_said_of_the_talk_or_the_week_is_no_fact(store: SQLiteStore, said: str) -> None:
    assert remembered(store, said) == []
    assert ingested(said) == []


def test_the_speakers_own_been_is_still_theirs(store: SQLiteStore) -> None:
    assert [o for _, _, o in remembered(store, "been vegan since 2019")] == ["vegan since 2019"]


# -- asking after a word of reply ------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "Cool, let me know when you're free!",
        "sure, send me the link",
        "Ok, book it for friday",
        "Great, keep me posted!",
    ],
)
def test_a_request_after_a_word_of_reply_is_one(store: SQLiteStore, said: str) -> None:
    """A base-form verb that asks, after a word of reply and its comma ("Cool, let me
    know ...", "Great, keep me posted!"), asks as it does alone: nothing is stored (was
    stored as "Cool, let the user know ...")."""
    assert remembered(store, said) == []
    assert remembered(store, said.lower()) == []


@pytest.mark.parametrize(
    "said, predicate",
    [
        ("Lost my wallet on the bus", "lose"),
        ("Sold my bike last month", "sell"),
        ("Moved to Cardiff in June", "live_in"),
        ("Sure, I work at the hospital", "work_at"),
    ],
)
def test_a_report_is_still_one(store: SQLiteStore, said: str, predicate: str) -> None:
    """A capitalised verb in the past tense with its "I" left out is the speaker's report,
    and a statement after a word of reply is kept. (A capitalised base form opening a
    sentence stays a statement, as before: read as a request, it refused four facts of
    the blind pair sets, counted without reading them, for one non-fact more refused.)"""
    assert [p for _, p, _ in remembered(store, said)] == [predicate]


# -- the listener, with the speaker only as whom they are something to ----------------------
@pytest.mark.parametrize(
    "said",
    [
        "You're a real role model to us!",
        "you've been such a good friend to me",
        "You always make me laugh",
        "you helped me so much with the garden",
    ],
)
def test_the_listener_described_to_the_speaker_is_not_the_user(
    store: SQLiteStore, said: str
) -> None:
    """A sentence whose subject is the one spoken to, with the speaker in it only as an
    object ("me", "us"), is about the listener (was stored, keyed as the user's: "you"
    became "user")."""
    assert remembered(store, said) == []


@pytest.mark.parametrize(
    "said, predicate",
    [
        ("you can call me Bea", "call"),
        ("you know i adore jazz clubs", "like"),
        ("you and me met at uni", "meet_at"),
    ],
)
def test_what_the_speaker_tells_the_listener_is_kept(
    store: SQLiteStore, said: str, predicate: str
) -> None:
    assert [p for _, p, _ in remembered(store, said)] == [predicate]
