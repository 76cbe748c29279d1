"""Natural speech the write path reads since the tenth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

A word typed with two neighbouring letters swapped is read as the word it is ("i wrok at
the bank" is said of work; the stored words stay as typed); a first word English has only
as a noun is no request ("shellfish allergy here lol"); a request verb opens a request
even where the tagger found no verb ("book a table for two"); a verb of one's own life
that nobody asks an assistant to do opens a report with its "I" left out ("drive a
civic")."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store, pair

from credo.store.sqlite import SQLiteStore

store = module_store("round10")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i work at the post office", "i wrok at the post office"),
        ("i live in dundee", "i lvie in dundee"),
        ("i drive a ford focus", "i drvie a ford focus"),
    ],
)
def test_two_letters_swapped_are_the_word_typed(store: SQLiteStore, first: str, then: str) -> None:
    status, relation = pair(store, first, then, 10)
    assert (status, relation) == ("active", "duplicate")


@pytest.mark.parametrize(
    ("said", "key", "text"),
    [
        ("i wrok at the post office", ("user", "work_at"), "The user works at the post office"),
        ("i lvie in dundee", ("user", "live_in"), "The user lives in dundee"),
        # a word that is no verb keeps its letters: only the verb is said in the third person
        ("my favourite fruit is mnago", ("user", "has_favorite_fruit"), "mnago"),
    ],
)
def test_a_swapped_word_is_read_as_the_word(
    store: SQLiteStore, said: str, key: tuple[str, str], text: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None
    assert result.fact.key[:2] == key
    assert text in result.fact.text


@pytest.mark.parametrize(
    "said",
    [
        "i use neovim with tmux",  # names no swap makes a word of
        "we moved to lyon in may",
        "my corgi is called nora",
    ],
)
def test_names_are_not_read_as_typos(store: SQLiteStore, said: str) -> None:
    from credo.nlp import spelt

    assert [w.lower() for w in spelt(said).split()] == [w.lower() for w in said.split()]


@pytest.mark.parametrize(
    "said",
    ["shellfish allergy here lol", "gluten intolerance in the family", "peanut allergy here"],
)
def test_a_thing_named_first_is_no_request(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted, result.why


@pytest.mark.parametrize(
    "said", ["book a table for two", "book a flight to rome", "call my dentist tomorrow"]
)
def test_a_request_verb_opens_a_request(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert (result.accepted, result.code) == (False, "instruction")


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("drive a civic, 2019 plate", ("user", "drive")),
        ("ride an old vespa to work", ("user", "ride")),
        ("smoke about ten a day, trying to cut down", ("user", "smoke")),
    ],
)
def test_a_verb_of_ones_own_life_leaves_out_the_i(
    store: SQLiteStore, said: str, key: tuple[str, str]
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None
    assert result.fact.key[:2] == key


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i edit everything in sublime", "switched from sublime to zed last month"),
        ("our docs site is hosted on netlify", "we got the docs off netlify and onto cloudflare"),
        ("we keep the backups on dropbox", "moved all the backups off dropbox, its on a nas now"),
    ],
)
@pytest.mark.parametrize("gap_days", [0, 45])
def test_a_change_that_names_the_value_it_leaves_ends_it_off_the_key(
    store: SQLiteStore, first: str, then: str, gap_days: int
) -> None:
    status, relation = pair(store, first, then, gap_days)
    assert (status, relation) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i use google maps on my phone", "switched from google to duckduckgo for search"),
        ("my sister edits in sublime", "switched from sublime to zed last month"),
        ("i took a week off in june", "took a day off work today"),
    ],
)
def test_a_change_that_names_another_value_ends_nothing(
    store: SQLiteStore, first: str, then: str
) -> None:
    mem = memory(store)
    a = mem.remember(first, valid_from=T0)
    assert a.accepted and a.fact is not None
    mem.remember(then, valid_from=T0 + 45 * 86400)
    after = store.get(a.fact.id, scope=mem.scope)
    assert after is not None and after.status == "active"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i teach biology at a sixth form college", "im a sixth form biology teacher"),
        ("i have a membership at the climbing wall", "im a member at the climbing wall"),
        ("i coach the under 12s at the rugby club", "im the under 12s coach at the rugby club"),
    ],
)
def test_the_same_said_with_another_part_of_speech(
    store: SQLiteStore, first: str, then: str
) -> None:
    """What one is named by what one does ("a biology teacher" / "i teach biology"): no
    other person is named, and every word said is said in the stored fact."""
    status, relation = pair(store, first, then, 30)
    assert (status, relation) == ("active", "duplicate")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i teach biology at a sixth form college", "my sister is a biology teacher"),
        ("i teach biology at a sixth form college", "im a chemistry teacher at the college"),
        ("i have a membership at the climbing wall", "my partner is a member at the climbing wall"),
    ],
)
def test_another_person_or_value_is_no_duplicate(store: SQLiteStore, first: str, then: str) -> None:
    status, relation = pair(store, first, then, 30)
    assert relation != "duplicate"


@pytest.mark.parametrize(
    ("said", "text"),
    [
        (
            "diagnosed with asthma as a kid, any tips for running?",
            "The user was diagnosed with asthma",
        ),
        ("promoted to shift manager last month", "The user was promoted to shift manager"),
        ("laid off in october", "The user was laid off in october"),
        # with an object, the speaker did it
        ("injured my ankle playing netball", "The user injured"),
        ("hired a cleaner for the flat", "The user hired a cleaner"),
    ],
)
def test_what_was_done_to_the_speaker_is_said_with_was(
    store: SQLiteStore, said: str, text: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None, result.why
    assert result.fact.text.startswith(text)


@pytest.mark.parametrize(
    "then",
    ["laid off in october, job hunting now", "i was made redundant", "got fired on friday"],
)
def test_being_let_go_ends_the_work(store: SQLiteStore, then: str) -> None:
    status, relation = pair(store, "i work at a garden centre", then, 60)
    assert (status, relation) == ("superseded", "update")


@pytest.mark.parametrize(
    "then", ["my brother was laid off in october", "im a fire fighter as well", "i fired the kiln"]
)
def test_someone_else_let_go_or_a_fire_ends_nothing(store: SQLiteStore, then: str) -> None:
    status, _ = pair(store, "i work at a garden centre", then, 60)
    assert status == "active"


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("were using redis for the cache", ("we", "use")),
        ("were on python 3.12 everywhere", ("we", "be_on")),
    ],
)
def test_were_without_a_subject_is_we_are(
    store: SQLiteStore, said: str, key: tuple[str, str]
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None
    assert result.fact.key[:2] == key
    assert result.fact.text == said  # stored as typed


@pytest.mark.parametrize("said", ["were you using redis for the cache?", "were there any outages"])
def test_were_that_asks_is_a_question(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert (result.accepted, result.code) == (False, "question")


def test_a_value_said_for_the_slot_the_same_day_is_a_conflict(store: SQLiteStore) -> None:
    status, relation = pair(store, "our cache is memcached", "were using redis for the cache", 0)
    assert (status, relation) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have a dog", "my dog is a border collie"),
        ("i have a bike for commuting", "my commuting bike is a brompton"),
        ("i have a car", "my car is a 2016 skoda octavia"),
    ],
)
def test_which_one_the_speaker_has_refines_having_it(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 20)
    assert (status, relation) == ("superseded", "refinement")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have a cat", "my dog is a border collie"),  # another thing
        ("i have two dogs", "my dog is a border collie"),  # one of several
        ("i have a dog", "my dog is terrified of fireworks"),  # how it is, not which
        ("i have a dog", "my dog isnt a border collie"),
    ],
)
def test_what_is_said_of_another_or_how_it_is_refines_nothing(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 20)
    assert relation != "refinement" and status != "superseded"


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("i pay twelve hundred a month", "1200"),
        ("we keep two dozen hens", "24"),
        ("been married a decade", "10 years"),
        ("married for two decades", "20 years"),
        ("a thousand followers on there", "1000"),
    ],
)
def test_a_number_scaled_by_a_word_is_one_number(said: str, digits: str) -> None:
    from credo.values import in_digits

    assert digits in in_digits(said)


def test_a_number_said_in_words_is_the_same_value(store: SQLiteStore) -> None:
    status, relation = pair(store, "we keep 24 hens", "we keep two dozen hens", 30)
    assert (status, relation) == ("active", "duplicate")


def test_a_unit_spelt_otherwise_is_the_same_unit() -> None:
    from credo.values import quantities

    assert {q.unit for q in quantities("i weigh 92kg")} == {q.unit for q in quantities("85 kilos")}
    assert {q.unit for q in quantities("40 mins")} == {q.unit for q in quantities("25 minutes")}


@pytest.mark.parametrize(
    "said",
    [
        "got engaged today!",
        "graduated this morning, still buzzing",
        "my cast came off this week",
        "got promoted today",
        "we broke up this week",
    ],
)
def test_what_happened_to_the_speaker_today_is_dated_not_passing(
    store: SQLiteStore, said: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted, result.why


@pytest.mark.parametrize("said", ["i had pizza today", "the server crashed today", "im off today"])
def test_what_passes_today_is_still_passing(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert (result.accepted, result.code) == (False, "transient")


@pytest.mark.parametrize("said", ["my daughter just turned one", "our son turns one in may"])
def test_one_as_an_age_is_no_stand_in(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None, result.why
    assert result.fact.key[1].endswith("_old")


@pytest.mark.parametrize("said", ["i want one", "i bought one"])
def test_one_with_nothing_named_is_still_a_stand_in(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert (result.accepted, result.code) == (False, "ungrounded")
