"""Chat the write path reads since the thirty-second round (issue 23): work said anew and
doings finished; replies that share what the other said.

A job is said anew with other verbs than "started a new job": "got a job at the docks",
"landed a position at a lab" (a job got in the past is new whether or not it says so),
"got hired at the zoo" (taken on at a workplace ends the stored workplace), "was promoted
to shift lead" (a new title ends the stored title, never the employer). A doing said to
be going on ("im reading dune", "i'm working on my dissertation") is ended when the
speaker says they finished or completed the same thing: an update at any gap, the verb
is the grounds; a thing had ("i have a masters") is not ended by "finished my masters".
Someone else's new job ("my husband got a new job") never ends the speaker's (it did:
a value lost).

A reply that shares what the other said ("i have a dog too", "i play the drums as well",
"i have two cats myself", "i dont drink either") says no more than the claim: its key
ends before the particle and it is the claim said again, a duplicate.

A message that opens with a greeting or a mood, then a fact with a moment glued to it
("happy monday!! im a dentist so this week is packed") is read apart down to the fact.

Every pair goes through `Memory.remember` (the real parser, the default embedding model
and a SQLite file); every sentence is invented for the class it stands for.
"""

from __future__ import annotations

import pytest
from speech_pairs import DAY, T0, memory, module_store, outcome

store = module_store("round32")


# -- work said anew ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("i work at a hardware store", "just got a job at the docks", 90),
        ("I'm a receptionist", "landed a position at a dental lab last week", 60),
        ("i work at the post office", "took a job as a courier in june", 120),
        ("im a barista at a cafe downtown", "i got hired at the zoo!", 45),
        ("i work as a line cook", "got promoted to sous chef", 200),
        ("I'm a junior accountant", "i was promoted to senior accountant last month", 30),
        ("i work as a cashier", "i just got promoted to shift lead", 3),
    ],
)
def test_work_said_anew_ends_the_old(store, first: str, then: str, gap: int) -> None:
    assert outcome(store, first, then, gap) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # someone else's new work is theirs
        ("i work at a bank", "my husband got a new job at a bakery"),
        ("i work at a bank", "my wife just landed a job at the hospital"),
        ("i'm a nurse", "my son got hired at the cinema"),
        # a promotion leaves the employer be
        ("i work at the town library", "i got promoted to head librarian"),
        # work only wanted
        ("i work at a call centre", "ive been trying to land a job at the airport"),
    ],
)
def test_work_not_said_anew_for_the_speaker_ends_nothing(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 120) == ("active", "new")


def test_his_new_job_ends_his_old_one(store) -> None:
    assert outcome(
        store, "my husband works at a garage", "my husband got a new job at a bakery", 100
    ) == ("superseded", "update")


# -- a doing finished -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("im reading dune", "i just finished dune", 20),
        ("i'm working on my dissertation", "FINALLY finished my dissertation!!", 150),
        ("im knitting a scarf for my mum", "finished the scarf for my mum", 0),
        ("i am training for a half marathon", "completed my first half marathon on sunday", 60),
        ("im taking an evening course in welding", "i completed the welding course", 90),
    ],
)
def test_a_doing_finished_ends_it(store, first: str, then: str, gap: int) -> None:
    assert outcome(store, first, then, gap) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have a masters in history", "i finished my masters in 2012"),
        ("im reading dune", "i finished the hobbit last week"),
        ("my sister is writing a cookbook", "i finished my cookbook"),
        ("i knit scarves", "finished a scarf last night"),
    ],
)
def test_a_finish_of_something_else_ends_nothing(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 30) == ("active", "new")


# -- a reply that shares what the other said ---------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have a border collie", "oh nice, i have a border collie too!"),
        ("I play the drums", "i play the drums as well lol"),
        ("i have three cats", "i have three cats myself. do you have pets?"),
        ("i dont drink coffee", "i dont drink coffee either"),
        ("i love gardening", "i also love gardening"),
    ],
)
def test_a_reply_sharing_the_claim_is_a_duplicate(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 10) == ("active", "duplicate")


def test_the_key_ends_before_the_particle(store) -> None:
    mem = memory(store)
    said = mem.remember("i have a border collie too!")
    assert said.fact is not None
    assert (said.fact.predicate, said.fact.object) == ("have", "a border collie")


# -- a fact between a greeting and a moment ----------------------------------------------------
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("happy monday!! im a dentist so this week is packed", "The user is a dentist"),
        ("merry xmas! i work as a paramedic so today is a shift", "The user works as a paramedic"),
    ],
)
def test_a_fact_inside_a_greeting_and_a_moment_is_kept(store, said: str, kept: str) -> None:
    mem = memory(store)
    mem.remember(said)
    assert [f.text for f in mem.list()] == [kept]


# -- questions typed without a "?" ------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "who painted the sistine chapel",
        "who invented the bicycle",
        "what happened to the old pier",
        "how many moons does jupiter have",
        "how many grams in an ounce",
        "how much sugar in a can of cola",
        # a condition before the question is part of it
        "if i won the lottery what should i buy first",
        "when the baby naps what can i cook",
        "if we sold the van, where would we keep the bikes",
    ],
)
def test_a_question_without_its_mark_is_refused(store, said: str) -> None:
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "question"
    assert mem.list() == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "my mum is diabetic what desserts can she eat",
            "The user's mum is diabetic",
        ),
        (
            "i spilled tea on my laptop what do i do",
            "The user spilled tea on the user's laptop",
        ),
        (
            "im a wedding photographer how much should i charge per hour",
            "The user is a wedding photographer",
        ),
        ("i work nights where can i buy blackout blinds", "The user works nights"),
    ],
)
def test_a_question_run_on_after_a_fact_is_cut_off(store, said: str, kept: str) -> None:
    mem = memory(store)
    mem.remember(said)
    assert [f.text for f in mem.list()] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        # a question word that opens a clause the sentence says, not a question
        "what matters most to me is my family",
        "i know what i want for my birthday",
        "we live where the two rivers meet",
    ],
)
def test_a_clause_opened_by_a_question_word_is_no_question(store, said: str) -> None:
    result = memory(store).remember(said)
    assert result.code != "question"


# -- a unit typed on its number -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        # the tagger reads some of these units as an address ("95kg", "116kg")
        ("i weigh 95kg", "down to 90 kilos!"),
        ("I weigh 116kg", "im down to 108 kilos now"),
    ],
)
def test_a_measure_said_anew_with_its_unit_glued_on(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 120) == ("superseded", "update")


def test_a_unit_glued_on_is_read_as_the_unit() -> None:
    from credo.values import quantities

    assert [(q.value, q.unit) for q in quantities("The user weighs 116kg")] == [("116", "kg")]
    assert [(q.value, q.unit) for q in quantities("i cycle 12km to work")] == [("12", "km")]


# -- what would be ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "if i won the lottery, i would buy a boat",
        "if we had a garden we'd get chickens",
        "i would have become a vet",
    ],
)
def test_what_would_be_is_refused(store, said: str) -> None:
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "speculative"
    assert mem.list() == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i wouldnt eat pork", ("not_eat", "pork")),
        ("my boss said she would give me a raise", ("boss_say", "she would give me a raise")),
    ],
)
def test_would_denied_or_reported_is_kept(store, said: str, key: tuple[str, str]) -> None:
    result = memory(store).remember(said)
    assert result.accepted and result.fact is not None
    assert (result.fact.predicate, result.fact.object) == key


# -- a thing of its kind bought anew --------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i drive a honda civic", "just bought a new car!"),
        ("i drive a toyota corolla", "we bought a subaru outback last month"),
    ],
)
def test_a_thing_of_its_kind_bought_anew_takes_its_place(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 120) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i drive a honda civic", "i bought a second car, a mazda 3"),  # one more
        ("i drive a honda civic", "my wife just bought a new car"),  # hers
        ("i drive a honda civic", "i just got a new bike"),  # another kind
        ("i have a cat", "we picked up a new van on monday"),
    ],
)
def test_a_thing_bought_beside_ends_nothing(store, first: str, then: str) -> None:
    assert outcome(store, first, then, 120) == ("active", "new")


def test_why_names_the_word_said(store) -> None:
    """The reason names what the user said: the verb that got the job, not a "new"
    nobody typed."""
    mem = memory(store)
    mem.remember("i work at a garden centre", valid_from=T0)
    result = mem.remember("just got a job at the aquarium", valid_from=T0 + DAY / 24)
    assert result.relation == "update"
    assert "'got'" in result.why and "'new'" not in result.why
