"""Natural speech the write path reads since the fourteenth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

Two changes of one slot, each dated by the year it tells, said the same day: the later
change says what holds now, whichever was said first ("i moved to lisbon last spring"
after "I moved to Turku in 2019" is an update; "I moved to Turku in 2019" after it is
its history). A sentence that tells a later time but no change is no grounds, and two
changes of one year stay a conflict.

A thing a change verb gives a value, said twice with two values ("switched our backend to
java", "... to rust"), is one slot: the later says what holds, and neither is a duplicate
of the other (a name the tagger reads as a verb, "to rust", is still the value). A past
value beside a present one of a one-valued slot ("i lived in braga", "i live in porto")
is two true facts. Graduating, dropping out, or finishing one's studies ends being a
student or doing a degree. A statement and the question it leads to, joined by "so" or a
pictograph ("im vegan so what can i cook?", "we adopted a greyhound 🐕 what food is
best?"), keep the statement. An occupation said to be what one is now ("im a plumber now")
puts the stored one out, and so does "i dont work anymore"; a stricter diet ("vegan" after
"vegetarian") says more of the same value. An end said ("we broke up", "i was laid off")
is a change said, the same day too. Not taking a thing in ("i dont drink coffee") and
loving it ("i love coffee") clash. Giving one's notice leaves one's work; a move ends
where one said one is ("im in leeds"); being in school is studying. An opening about the conversation ("my question is
...", "my god ...") states nothing of the speaker."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, pair, stored

from credo.fact import Status
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

store = module_store("round14")

# T0 (when the first sentence is said) is 2024-01-01: "last spring" is 2023
DATED_CHANGES = [
    (
        "I moved to Turku, Finland in 2019",
        "i moved to lisbon last spring",
        0,
        ("superseded", "update"),
    ),
    (
        "i moved to lisbon last spring",
        "I moved to Turku, Finland in 2019",
        0,
        ("active", "update"),  # kept as the later move's history
    ),
    (
        "we switched our backend to go in 2018",
        "we switched the backend to rust two years ago",
        0,
        ("superseded", "update"),
    ),
    # a later time told without a change is no grounds
    ("i live in porto", "i lived in braga in 2022", 0, ("active", "new")),
    # two moves of one year: nothing says which came last
    ("i moved to oslo in 2021", "i moved to bergen in 2021", 0, ("conflicted", "conflict")),
]


@pytest.mark.parametrize(("first", "then", "gap", "expected"), DATED_CHANGES)
def test_dated_changes(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    status, relation = pair(store, first, then, gap)
    assert (Status(status).value, Relation(relation).value) == expected


def test_an_earlier_change_told_later_is_history_with_its_reason(store: SQLiteStore) -> None:
    from speech_pairs import memory

    mem = memory(store)
    later = mem.remember("i moved to lisbon last spring", valid_from=1_704_067_200.0)
    earlier = mem.remember("I moved to Turku, Finland in 2019", valid_from=1_704_067_200.0)
    assert earlier.fact is not None and later.fact is not None
    assert earlier.fact.status is Status.SUPERSEDED
    assert earlier.fact.superseded_by == later.fact.id
    assert "later change" in earlier.why
    live = [f.text for f in mem.list(status="active")]
    assert live == ["The user moved to lisbon last spring"]


OTHER_PAIRS = [
    (
        "we switched our backend to java",
        "we switched our backend to rust",
        30,
        ("superseded", "update"),
    ),
    (
        "we moved the api to go last year",
        "we moved the api to elixir",
        90,
        ("superseded", "update"),
    ),
    ("i live in porto", "i lived in braga for two years", 0, ("active", "new")),
    ("i worked at a bakery", "i work at a bank", 0, ("active", "new")),
    ("I'm 40", "i turned forty-one on sunday", 300, ("superseded", "update")),
    ("i'm a student at a college in leeds", "graduated in july!", 200, ("superseded", "update")),
    ("im a first year undergrad", "i dropped out of uni last month", 120, ("superseded", "update")),
    ("im doing a masters in geology", "finished my masters in may", 300, ("superseded", "update")),
    ("im a student at york", "i graduated from leeds in 2019", 10, ("active", "new")),
    ("im a student at york", "my brother graduated last month", 60, ("active", "new")),
    # an occupation said to be what one is now puts the stored one out; one more does not
    ("i am a bus driver", "im a plumber now", 200, ("superseded", "update")),
    ("i am a bus driver", "im also a plumber now, weekends", 200, ("active", "new")),
    ("im a cashier in a garden centre", "i dont work anymore", 300, ("superseded", "update")),
    # a stricter diet says more of the same; a looser one is another value
    ("im vegetarian", "im fully vegan now", 120, ("superseded", "refinement")),
    ("im vegan", "im vegetarian now", 120, ("superseded", "update")),
    # giving one's notice leaves the work held, at the employer named when one is
    (
        "im a junior dev at nordwind",
        "handed in my notice at nordwind",
        60,
        ("superseded", "update"),
    ),
    ("i work at a garden centre", "i handed in my notice", 30, ("superseded", "update")),
    ("im a junior dev at nordwind", "gave notice on my flat", 30, ("active", "new")),
    # a move of one's home ends where one said one is, when that is a place
    ("im in leeds", "moved to york in may", 150, ("superseded", "update")),
    ("i am in a band", "i just moved to sweden", 150, ("active", "new")),
    (
        "we rent a flat in dundee",
        "we moved into our own house last month",
        300,
        ("superseded", "update"),
    ),
    ("we rent a car every summer", "we moved into a new house", 300, ("active", "new")),
    # being in school is studying, which graduating ends
    (
        "i am 17 and in high school",
        "i graduated high school in june",
        200,
        ("superseded", "update"),
    ),
    # not taking a thing in, and loving it, the same day: a conflict either way round
    ("i dont drink coffee", "i love coffee", 0, ("conflicted", "conflict")),
    ("i love red wine", "i dont drink red wine", 0, ("conflicted", "conflict")),
    ("i dont drink coffee", "i love coffee ice cream", 0, ("active", "new")),
    # an end said is a change said, the same day too
    ("i have a girlfriend", "we broke up last month", 0, ("superseded", "update")),
    ("i work at a garden centre", "i was laid off in the spring", 0, ("superseded", "update")),
]


@pytest.mark.parametrize(("first", "then", "gap", "expected"), OTHER_PAIRS)
def test_pairs(
    store: SQLiteStore, first: str, then: str, gap: float, expected: tuple[str, str]
) -> None:
    status, relation = pair(store, first, then, gap)
    assert (Status(status).value, Relation(relation).value) == expected


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("im vegan so what can i cook for my parents?", "The user is vegan"),
        ("i have two kids so which car should we get?", "The user has two kids"),
        ("we adopted a greyhound 🐕 what food is best?", "we adopted a greyhound"),
        ("i am 34 so is it too late to learn piano?", "The user is 34"),
    ],
)
def test_a_statement_before_a_question_is_kept(store: SQLiteStore, said: str, kept: str) -> None:
    assert stored(store, said) == [kept]


@pytest.mark.parametrize(
    "said", ["so what do you think?", "any tips 🙏 what should i pack for a week in rome?"]
)
def test_a_question_alone_stores_nothing(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


@pytest.mark.parametrize(
    "said",
    [
        "my question is whether i should refinance",
        "my point was that it costs too much",
        "oh my god the queue at the post office",
    ],
)
def test_an_opening_about_the_conversation_stores_nothing(store: SQLiteStore, said: str) -> None:
    assert stored(store, said) == []


def test_a_fact_beside_such_an_opening_is_kept(store: SQLiteStore) -> None:
    assert stored(store, "i teach year 6. my question is how to set homework") == [
        "The user teaches year 6."
    ]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a noun with its "'s" ("is") opening a text is no verb whose "I" was left out:
        # never "The user rents's ..."; read as the speaker's thing with its "is" (the
        # "my" chat leaves out put back, as for "mum lives in cork")
        ("rent's 1350 a month", "The user's rent's 1350 a month"),
        ("work at a bakery now", "The user works at a bakery now"),
    ],
)
def test_an_opening_noun_with_its_is_keeps_the_words(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert stored(store, said) == [kept]
