"""Chat the write path reads since the thirtieth round (issue 23): the body as it is right
now. "got a headache", "im so hungover", "my son has the flu" tell how someone is at the
moment; kept as facts, they would be recalled as true months later. The same words said as
a habit or a lasting condition are facts. Each class goes through `Memory.remember` (the
real parser, the default embedding model and a SQLite file) and through the conversation
extractor that `ingest` uses. Every sentence is invented for the class it stands for.

- one episode of an acute ailment ("a cold", "the flu", "a sore throat", "food poisoning"),
  had, got or caught, by the speaker or anyone: refused as a transient state (was stored);
- a bodily state the speaker is, feels or got ("im starving", "i'm jet lagged", "hungover
  af"): refused as a transient state (was stored);
- where the speaker is for a while ("im stuck in traffic", "i'm at the airport", "on the
  train home"): refused as a transient state (was stored); a place one studies or lives
  at, a time ("in bed by 10") or a club ("im in a car club") keeps it;
- a state said with its "I'm" left out ("engaged to my partner", "hooked on rock
  climbing"), which the tagger reads as the past tense, is stored with its "is" (was "The
  user engaged to ..."); "retired in 2019" stays the act it tells; "so hyped for the
  weekend" is a mood;
- kept: the plural, a habit, a lasting word or a stretch of time ("i get migraines", "i'm
  always cold", "i have a chronic cough", "i've had a cough for months"), someone else's
  state ("my mum is ill"), an ailment of no one's ("the flat has a temperature of 18"),
  and the facts said beside a passing state ("im a nurse and i have a headache").
"""

from __future__ import annotations

import pytest
import speech_pairs
from speech_pairs import memory, module_store, remembered

from credo.store.sqlite import SQLiteStore

store = module_store("round30")


def ingested(said: str) -> list[tuple[str, str | None, str | None]]:
    """What the conversation extractor keeps of Mia's turn, in a chat of two."""
    return speech_pairs.ingested(said, "Mia", after=("Joe", "How's your week going?"))


def refused_as(store: SQLiteStore, said: str, code: str) -> None:
    """`said` is refused with `code` and nothing of it is stored."""
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == code, result.why
    assert mem.list() == []


# -- an ailment of the moment ------------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "got a headache",
        "i have a splitting headache",
        "ive got a sore throat",
        "i have a cold",
        "my son has the flu",
        "im in bed with a fever",
        "got food poisoning from a dodgy kebab",
        "I've caught a cold off my nephew.",
    ],
)
def test_an_ailment_of_the_moment_is_no_fact(store: SQLiteStore, said: str) -> None:
    refused_as(store, said, "transient")
    assert ingested(said) == []


# -- the body as it is right now ---------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    ["im starving", "im so hungover", "hungover af", "i'm jet lagged", "I'm freezing!", "im ill"],
)
def test_a_bodily_state_of_the_moment_is_no_fact(store: SQLiteStore, said: str) -> None:
    refused_as(store, said, "transient")


# -- where the speaker is right now -----------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "im stuck in traffic",
        "i'm at the airport",
        "im on the train home",
        "We're at the beach!",
        "queuing for tickets",
        "im in bed lol",
    ],
)
def test_where_the_speaker_is_right_now_is_no_fact(store: SQLiteStore, said: str) -> None:
    refused_as(store, said, "transient")


@pytest.mark.parametrize(
    "said",
    [
        "im at uni in leeds",
        "im in a car club",
        "im in bed by 10 most nights",
        "my office is at the station",
        "i live on a boat",
    ],
)
def test_a_place_that_is_part_of_a_life_is_kept(store: SQLiteStore, said: str) -> None:
    assert len(remembered(store, said)) >= 1, said


# -- kept: conditions, habits, others, things --------------------------------------------------
@pytest.mark.parametrize(
    "said, obj",
    [
        ("i get migraines", "migraines"),
        ("i have a chronic cough", "a chronic cough"),
        ("i have asthma", "asthma"),
        ("i'm always cold", "cold"),
        ("i get dizzy when i stand up too fast", None),
        ("i've had a cough for months", None),
        ("i'm allergic to cats", "cats"),
    ],
)
def test_a_condition_that_lasts_or_returns_is_a_fact(
    store: SQLiteStore, said: str, obj: str | None
) -> None:
    found = remembered(store, said)
    assert len(found) == 1, found
    if obj is not None:
        assert found[0][2] == obj, found


@pytest.mark.parametrize(
    "said",
    [
        "my mum is ill",
        "the flat has a temperature of 18",
        "ive got a bug in my code",
        "ive got a full time post at the council",
        "my hangover cure is eggs",
        "i work in a cold store",
    ],
)
def test_what_only_shares_the_words_is_kept(store: SQLiteStore, said: str) -> None:
    assert len(remembered(store, said)) == 1, said


@pytest.mark.parametrize(
    "said, kept",
    [
        ("im a nurse and i have a headache", "a nurse"),
        ("got a headache, im a nurse btw", "a nurse"),
        ("anyway i have two kids, both have the flu right now", "two kids"),
    ],
)
def test_the_fact_beside_a_passing_state_is_kept(store: SQLiteStore, said: str, kept: str) -> None:
    assert [o for _, _, o in remembered(store, said)] == [kept]


# -- a state said with its "I'm" left out ------------------------------------------------------
@pytest.mark.parametrize(
    "said, stored",
    [
        ("engaged to my partner of 5 years", "The user is engaged to the user's partner"),
        ("hooked on rock climbing these days", "The user is hooked on rock climbing"),
        ("addicted to sudoku", "The user is addicted to sudoku"),
    ],
)
def test_a_state_participle_without_its_im_reads_as_a_state(
    store: SQLiteStore, said: str, stored: str
) -> None:
    """A participle that names a state, said with "I'm" left out and read by the tagger
    as the past tense or a bare participle, is stored with its "is" (was "The user
    engaged to ...", "The user hooked on ...", which is no English)."""
    found = remembered(store, said)
    assert len(found) == 1 and found[0][0].startswith(stored), found


@pytest.mark.parametrize("said, stored", [("retired in 2019", "The user retired in 2019")])
def test_the_act_a_participle_tells_stays_the_past(
    store: SQLiteStore, said: str, stored: str
) -> None:
    assert [t for t, _, _ in remembered(store, said)] == [stored]


def test_hype_is_a_mood(store: SQLiteStore) -> None:
    refused_as(store, "so hyped for the weekend", "affect")
