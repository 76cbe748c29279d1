"""The write path as users meet it: real sentences through `Memory.remember`, the real
parser, the real default embedding model and a real SQLite file. No hand-built keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from credo.embed import get_embedder
from credo.errors import InvalidInput
from credo.fact import Fact, Status
from credo.memory import Memory
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

DAY = 86400.0
T0 = 1_704_067_200.0  # 2024-01-01
YEAR = 365 * DAY


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "w.db", get_embedder("local:minilm")) as s:
        yield s


@pytest.fixture
def clock() -> Clock:
    return Clock(T0 + 3 * YEAR)


@pytest.fixture
def mem(store: SQLiteStore, clock: Clock) -> Memory:
    return Memory(store, scope="w", clock=clock)


def live(mem: Memory) -> list[Fact]:
    return [f for f in mem.list() if f.is_live]


def texts(mem: Memory) -> set[str]:
    return {f.text for f in live(mem)}


def assert_invariants(mem: Memory) -> None:
    """What must hold after any sequence of remembers."""
    facts = {f.id: f for f in mem.list()}
    for fact in facts.values():
        if fact.status is Status.CONFLICTED:
            partners = mem.store.conflicts_of(fact.id, scope=mem.scope)
            assert partners and all(p.is_live for p in partners), fact.text
        if fact.status is Status.SUPERSEDED:
            assert fact.superseded_by in facts, fact.text
    for conflict in mem.conflicts():
        assert conflict.a.is_live and conflict.b.is_live, "an open conflict with a dead side"
    by_key: dict[tuple[str, str], list[Fact]] = {}
    for fact in facts.values():
        if fact.is_live and fact.key and mem.catalogue.one_valued(fact.predicate or ""):
            by_key.setdefault(fact.key, []).append(fact)
    for key, values in by_key.items():
        if len(values) > 1:
            assert all(f.status is Status.CONFLICTED for f in values), key


# -- the user's words are kept -----------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I never drink coffee", "The user never drinks coffee"),
        ("I never use tabs", "The user never uses tabs"),
        ("I don't eat meat", "The user doesn't eat meat"),
        ("I no longer live in Helsinki", "The user no longer lives in Helsinki"),
        ("I stopped using Vim", "The user stopped using Vim"),
        ("I used to live in Tampere", "The user used to live in Tampere"),
        ("I can't eat gluten", "The user can't eat gluten"),
        ("I speak Finnish, English and German", "The user speaks Finnish, English and German"),
        (
            "Our API lives at https://api.example.com/v1",
            "Our API lives at https://api.example.com/v1",
        ),
        ("My standup is at 9:30", "The user's standup is at 9:30"),
        (
            "I'm not a fan of meetings before 10:00",
            "The user is not a fan of meetings before 10:00",
        ),
        ("I moved to Turku, Finland in 2023", "The user moved to Turku, Finland in 2023"),
    ],
)
def test_the_stored_sentence_says_what_was_said(mem: Memory, said: str, stored: str) -> None:
    result = mem.remember(said)
    assert result.accepted, result.why
    assert result.fact is not None and result.fact.text == stored


@pytest.mark.parametrize(
    ("said", "stored", "key"),
    [
        (
            "My favourite colour isn't blue, it's green",
            "The user's favourite colour isn't blue, it's green",
            ("user", "has_favorite_color", "green"),
        ),
        (
            "My parents are retired, they live in Oulu",
            "The user's parents are retired, they live in Oulu",
            ("user", "parent_live_in", "Oulu"),
        ),
        (
            "The meeting was moved, it is on Friday now",
            "The meeting was moved, it is on Friday now",
            ("meeting", "be_on", "Friday"),
        ),
    ],
)
def test_a_pronoun_for_a_subject_named_before_it_is_grounded(
    mem: Memory, said: str, stored: str, key: tuple[str, str, str]
) -> None:
    result = mem.remember(said)
    assert result.accepted, result.why
    assert result.fact is not None and result.fact.text == stored
    assert (result.fact.subject, result.fact.predicate, result.fact.object) == key


@pytest.mark.parametrize("said", ["It is red", "They are great", "It's on Friday now"])
def test_a_pronoun_with_nothing_to_refer_to_is_refused(mem: Memory, said: str) -> None:
    result = mem.remember(said)
    assert not result.accepted and result.fact is None
    assert mem.list() == []


def test_negation_is_kept_in_the_key(mem: Memory) -> None:
    fact = mem.remember("I never drink coffee").fact
    assert fact is not None and fact.predicate == "not_drink" and fact.object == "coffee"


def test_two_lines_are_two_statements_not_one(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="one statement at a time"):
        mem.remember("I live in Berlin\nI work at Reaktor")
    assert mem.list() == []


# -- new values are never lost as duplicates -----------------------------------------------
def test_a_new_version_supersedes_a_year_later(mem: Memory, clock: Clock) -> None:
    old = mem.remember("I use Python 3.11", valid_from=T0).fact
    new = mem.remember("I use Python 3.12", valid_from=T0 + YEAR)
    assert new.relation is Relation.UPDATE
    assert old is not None and mem.get(old.id).status is Status.SUPERSEDED
    assert texts(mem) == {"The user uses Python 3.12"}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I use Python 3.12.1", "I use Python 3.12.2"),  # spaCy reads "3.12.1" as punctuation
        ("I use Node 20.11.0", "I use Node 22.1.0"),
        ("We run Postgres 16.2", "We run Postgres 16.4"),
    ],
)
def test_a_dotted_version_is_part_of_the_value(mem: Memory, before: str, after: str) -> None:
    old = mem.remember(before, valid_from=T0).fact
    new = mem.remember(after, valid_from=T0 + YEAR)
    assert old is not None and new.fact is not None
    assert old.object is not None and old.object.endswith(before.rsplit(" ", 1)[1])
    assert new.relation is Relation.UPDATE, new.why
    assert mem.get(old.id).status is Status.SUPERSEDED


def test_a_production_database_upgrade_supersedes(mem: Memory) -> None:
    mem.remember("Our production database is Postgres 15", valid_from=T0)
    result = mem.remember("Our production database is Postgres 16", valid_from=T0 + YEAR)
    assert result.relation is Relation.UPDATE
    assert texts(mem) == {"Our production database is Postgres 16"}


def test_the_same_claim_twice_is_a_duplicate(mem: Memory) -> None:
    first = mem.remember("I live in Berlin", valid_from=T0).fact
    again = mem.remember("I live in Berlin.", valid_from=T0 + 30 * DAY)
    assert again.relation is Relation.DUPLICATE
    assert first is not None and again.fact is not None and again.fact.id == first.id
    assert again.fact.confidence >= first.confidence


# -- no invented conflicts -----------------------------------------------------------------
@pytest.mark.parametrize(
    "pair",
    [
        ("I'm vegetarian", "I'm allergic to peanuts"),
        ("I like hiking", "I like cooking"),
        ("I like to cook healthy", "I like to watch movies"),
        ("I wear casual clothes", "I wear glasses"),
        ("I was born in India", "I was 14 when my family migrated"),
        ("I'm a nurse", "I'm a mother of two"),
        ("I have a hamster", "I have two cats"),
        ("I speak Finnish", "I speak English"),
        # a number after a name is part of the name: two rooms, two people, two servers
        ("Room 101 is on the first floor", "Room 205 is on the second floor"),
        ("Arttu 1916 works at Smartly", "Arttu 3276 works at Reaktor"),
        ("Server 2 runs Debian", "Server 3 runs Ubuntu"),
    ],
)
def test_statements_that_can_both_be_true_coexist(mem: Memory, pair: tuple[str, str]) -> None:
    mem.remember(pair[0], valid_from=T0)
    second = mem.remember(pair[1], valid_from=T0 + YEAR)
    assert second.accepted and second.relation is Relation.NEW, second.why
    assert len(live(mem)) == 2 and not mem.conflicts()
    assert all(f.status is Status.ACTIVE for f in live(mem))


def test_a_number_that_names_the_subject_stays_in_its_key(mem: Memory) -> None:
    facts = [
        mem.remember(t).fact
        for t in ("Room 101 is on the first floor", "Room 101's door is red", "I have 2 cats")
    ]
    assert [(f.subject, f.predicate) for f in facts if f is not None] == [
        ("room 101", "be_on"),
        ("room 101", "door_be"),
        ("user", "have"),
    ]
    # the same day, too: two people of one first name are not one person changing jobs
    mem.remember("Arttu 1916 works at Smartly")
    second = mem.remember("Arttu 3276 works at Reaktor")
    assert second.relation is Relation.NEW, second.why
    assert not mem.conflicts() and all(f.status is Status.ACTIVE for f in live(mem))


# -- contradictions: conflict the same day, update a year later ----------------------------
def test_eating_meat_and_not_the_same_day_conflict(mem: Memory) -> None:
    mem.remember("I eat meat", valid_from=T0)
    result = mem.remember("I don't eat meat", valid_from=T0 + 3600)
    assert result.relation is Relation.CONFLICT
    assert len(mem.conflicts()) == 1
    assert {f.status for f in live(mem)} == {Status.CONFLICTED}
    assert "contradict" in mem.for_prompt("does the user eat meat")
    assert_invariants(mem)


def test_eating_meat_and_not_a_year_apart_update(mem: Memory) -> None:
    old = mem.remember("I eat meat", valid_from=T0).fact
    result = mem.remember("I don't eat meat", valid_from=T0 + YEAR)
    assert result.relation is Relation.UPDATE
    assert old is not None and mem.get(old.id).status is Status.SUPERSEDED
    assert texts(mem) == {"The user doesn't eat meat"}


def test_moving_updates_where_the_user_lives(mem: Memory) -> None:
    mem.remember("I live in Helsinki", valid_from=T0)
    result = mem.remember("I live in Berlin", valid_from=T0 + YEAR)
    assert result.relation is Relation.UPDATE
    assert texts(mem) == {"The user lives in Berlin"}


def test_two_homes_said_the_same_day_conflict(mem: Memory) -> None:
    mem.remember("I live in Helsinki", valid_from=T0)
    assert mem.remember("I live in Berlin", valid_from=T0 + 60).relation is Relation.CONFLICT


def test_no_longer_living_somewhere_supersedes_living_there(mem: Memory) -> None:
    mem.remember("I live in Helsinki", valid_from=T0)
    result = mem.remember("I no longer live in Helsinki", valid_from=T0 + YEAR)
    assert result.relation is Relation.UPDATE
    assert texts(mem) == {"The user no longer lives in Helsinki"}


# -- a statement that says the value changed is grounds, the same day too -------------------
@pytest.mark.parametrize(
    ("before", "after", "now_stored"),
    [
        (
            "My favourite editor is Neovim",
            "Actually my favourite editor is Helix now",
            "Actually the user's favourite editor is Helix now",
        ),
        ("I live in Helsinki", "I live in Berlin now", "The user lives in Berlin now"),
        (
            "I drink coffee every morning",
            "I don't drink coffee anymore",
            "The user doesn't drink coffee anymore",
        ),
        (
            "The deploy target is staging",
            "The deploy target is prod now",
            "The deploy target is prod now",
        ),
        ("I live in Helsinki", "These days I live in Espoo", "These days the user lives in Espoo"),
        ("I work at Reaktor", "I no longer work at Reaktor", "The user no longer works at Reaktor"),
    ],
)
def test_a_change_said_in_words_supersedes_the_same_day(
    mem: Memory, before: str, after: str, now_stored: str
) -> None:
    old = mem.remember(before, valid_from=T0).fact
    result = mem.remember(after, valid_from=T0 + 60)
    assert result.relation is Relation.UPDATE, result.why
    assert old is not None and mem.get(old.id).status is Status.SUPERSEDED
    assert mem.get(old.id).valid_to == T0 + 60
    assert texts(mem) == {now_stored}
    assert not mem.conflicts()
    assert_invariants(mem)


def test_without_words_of_change_the_same_day_is_still_a_conflict(mem: Memory) -> None:
    mem.remember("The deploy target is staging", valid_from=T0)
    result = mem.remember("The deploy target is prod", valid_from=T0 + 60)
    assert result.relation is Relation.CONFLICT


def test_words_of_change_both_statements_say_are_not_grounds(mem: Memory) -> None:
    mem.remember("I am now working in the bakery", valid_from=T0)
    result = mem.remember("I am not now working in the bakery", valid_from=T0 + 60)
    assert result.relation is Relation.CONFLICT, result.why


def test_words_of_change_are_not_grounds_from_a_less_trusted_source(mem: Memory) -> None:
    mem.remember("My favourite editor is Neovim", valid_from=T0)
    result = mem.remember("My favourite editor is Helix now", source="inferred", valid_from=T0 + 60)
    assert result.relation is Relation.CONFLICT, result.why
    assert len(mem.conflicts()) == 1


def test_words_of_change_in_an_older_statement_do_not_supersede(mem: Memory) -> None:
    newer = mem.remember("I live in Berlin", valid_from=T0 + DAY).fact
    result = mem.remember("I live in Helsinki now", valid_from=T0)
    assert newer is not None and mem.get(newer.id).is_live
    assert result.relation is not Relation.UPDATE or mem.get(newer.id).status is Status.ACTIVE


def test_words_of_change_never_retire_a_value_that_coexists(mem: Memory) -> None:
    mem.remember("I speak Finnish", valid_from=T0)
    result = mem.remember("I speak German now", valid_from=T0 + 60)
    assert result.relation is Relation.NEW, result.why
    assert len(live(mem)) == 2 and all(f.status is Status.ACTIVE for f in live(mem))


# -- conflict bookkeeping ------------------------------------------------------------------
def test_a_refined_side_of_a_conflict_keeps_the_other_side_in_conflict(mem: Memory) -> None:
    mem.remember("The deploy target is staging", valid_from=T0)
    prod = mem.remember("The deploy target is prod", valid_from=T0 + 60).fact
    assert len(mem.conflicts()) == 1
    result = mem.remember("The deploy target is prod in eu-west", valid_from=T0 + 120)
    assert prod is not None and mem.get(prod.id).status is Status.SUPERSEDED
    assert result.relation is Relation.CONFLICT  # still no grounds against staging
    (open_conflict,) = mem.conflicts()
    assert {open_conflict.a.text, open_conflict.b.text} == {
        "The deploy target is staging",
        "The deploy target is prod in eu-west",
    }
    assert_invariants(mem)


def test_a_conflict_closes_when_both_sides_are_superseded(mem: Memory) -> None:
    mem.remember("The deploy target is staging", valid_from=T0)
    mem.remember("The deploy target is prod", valid_from=T0 + 60)
    result = mem.remember("The deploy target is dev", valid_from=T0 + YEAR)
    assert result.relation is Relation.UPDATE
    assert mem.conflicts() == []
    closed = mem.conflicts(include_resolved=True)
    assert len(closed) == 1 and "superseded" in (closed[0].resolution or "")
    assert texts(mem) == {"The deploy target is dev"}
    assert_invariants(mem)


def test_resolve_never_revives_a_superseded_fact(mem: Memory) -> None:
    staging = mem.remember("The deploy target is staging", valid_from=T0).fact
    mem.remember("The deploy target is prod", valid_from=T0 + 60)
    mem.remember("The deploy target is dev", valid_from=T0 + YEAR)
    assert staging is not None
    with pytest.raises(InvalidInput, match="superseded"):
        mem.resolve_conflict(keep=staging.id, decided_by="arttu")
    assert texts(mem) == {"The deploy target is dev"}


def test_forgetting_one_side_reopens_the_other(mem: Memory) -> None:
    mem.remember("The deploy target is staging", valid_from=T0)
    prod = mem.remember("The deploy target is prod", valid_from=T0 + 60).fact
    assert prod is not None
    mem.forget(id=prod.id)
    assert [f.status for f in live(mem)] == [Status.ACTIVE]
    assert mem.conflicts() == []


def test_reinforcement_never_lowers_confidence(mem: Memory) -> None:
    first = mem.remember("I own a bike", source="inferred", valid_from=T0).fact
    assert first is not None
    seen = [first.confidence]
    for source in ("user", "inferred", "inferred"):
        result = mem.remember("I own a bike", source=source, valid_from=T0 + DAY)
        assert result.relation is Relation.DUPLICATE
        seen.append(mem.get(first.id).confidence)
    assert seen == sorted(seen), seen


def test_an_old_inference_does_not_refine_away_a_user_fact(mem: Memory) -> None:
    user = mem.remember("I use Postgres", valid_from="2024-03-01").fact
    result = mem.remember(
        "I use Postgres 9 on my laptop", source="inferred", valid_from="2015-03-01"
    )
    assert user is not None and mem.get(user.id).status is Status.ACTIVE
    assert result.relation is not Relation.REFINEMENT


def test_a_later_refinement_replaces_and_keeps_lineage(mem: Memory) -> None:
    old = mem.remember("We use Postgres", valid_from=T0).fact
    new = mem.remember("We use Postgres 16 on Neon", valid_from=T0 + DAY)
    assert new.relation is Relation.REFINEMENT and old is not None and new.fact is not None
    assert mem.get(old.id).superseded_by == new.fact.id
    assert (old.id, new.fact.id, "refines") in mem.lineage(new.fact.id)


# -- requests, instructions and questions are not facts -------------------------------------
def test_a_request_not_to_remember_is_honoured_and_not_stored(mem: Memory) -> None:
    result = mem.remember("Don't remember my phone number, it's 040 123 4567")
    assert not result.accepted and result.code == "request"
    assert mem.list() == []
    assert not any("4567" in r.text for r in mem.rejections())
    assert mem.rules()
    later = mem.remember("My phone number is 040 123 4567")
    assert not later.accepted and later.code in ("suppressed", "secret")


def test_forget_that_forgets(mem: Memory) -> None:
    mem.remember("I live in Kyoto")
    result = mem.remember("Please forget that I live in Kyoto")
    assert result.code == "request" and result.request and result.request["forgotten"]
    assert mem.list() == []
    assert not mem.remember("I live in Kyoto").accepted


def test_a_topic_request_refuses_the_topic_in_other_words(mem: Memory) -> None:
    # the lexicon's "request_stop_words" leave "my" and "anything about" out of the rule,
    # so a statement of the topic without them is refused too
    assert mem.remember("Please don't store anything about my bowling league").code == "request"
    later = mem.remember("I'm in a bowling league on Thursdays")
    assert not later.accepted and later.code == "suppressed", later.why


def test_dont_remember_that_takes_back_the_last_statement(mem: Memory, clock: Clock) -> None:
    mem.remember("I work at Acme")
    clock.now += 5
    result = mem.remember("Actually, don't remember that")
    assert result.code == "request" and mem.list() == []


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("Write me a poem about cats", "instruction"),
        ("Can you book a table for two", "instruction"),
        ("Where do I live?", "question"),
        ("I am currently in a meeting", "transient"),
        ("Tomorrow is my day off", "speculative"),
        ("It runs on port 8080", "ungrounded"),
    ],
)
def test_what_is_not_a_fact_is_refused_with_a_reason(mem: Memory, said: str, code: str) -> None:
    result = mem.remember(said)
    assert not result.accepted and result.code == code, result.why
    assert mem.list() == []


@pytest.mark.parametrize(
    "said",
    [
        "My colleague Will lives in Oslo",
        "I work at Happy Cow",
        "I study complex analysis",
        "I handle insurance claims for a living",
        "I currently live in Berlin",
    ],
)
def test_names_and_nouns_are_not_markers(mem: Memory, said: str) -> None:
    result = mem.remember(said)
    assert result.accepted, result.why


# -- time ----------------------------------------------------------------------------------
def test_a_future_valid_from_is_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="future"):
        mem.remember("I live in Berlin", valid_from="3000-01-01")
    assert mem.list() == []


def test_epoch_milliseconds_read_as_seconds(mem: Memory) -> None:
    fact = mem.remember("I live in Berlin", valid_from=T0 * 1000).fact
    assert fact is not None and fact.valid_from == T0


def test_the_clock_skew_allowance_is_small(mem: Memory, clock: Clock) -> None:
    assert mem.remember("I live in Berlin", valid_from=clock.now + 60).accepted
    with pytest.raises(InvalidInput):
        mem.remember("I work at Acme", valid_from=clock.now + 7200)


# -- the statements of examples/write-path.yaml --------------------------------------------
def _cases() -> list[dict[str, object]]:
    import yaml

    path = Path(__file__).parent.parent / "examples" / "write-path.yaml"
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(cases, list) and len(cases) >= 60
    return cases


def _stamp(value: object) -> float | None:
    from credo.memory import parse_time

    if value is None:
        return None
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return parse_time(text)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["say"])[:50])
def test_write_path_example(store: SQLiteStore, clock: Clock, case: dict[str, object]) -> None:
    mem = Memory(store, scope="ex", clock=clock)
    for earlier in case.get("before") or []:  # type: ignore[attr-defined]
        assert mem.remember(earlier["say"], valid_from=_stamp(earlier.get("at"))).accepted
    result = mem.remember(str(case["say"]), valid_from=_stamp(case.get("at")))
    if case["outcome"] == "refused":
        assert not result.accepted and result.code == case["code"], result.why
    else:
        assert result.accepted, result.why
        assert result.relation is not None and result.relation.value == case["outcome"]
        assert result.fact is not None and result.fact.text == case["stored"]
        if "key" in case:
            got = [result.fact.subject, result.fact.predicate, result.fact.object]
            assert (got if result.fact.key else None) == case["key"]
    if "live" in case:
        assert sorted(f.text for f in live(mem)) == sorted(case["live"])  # type: ignore[arg-type]
    assert_invariants(mem)


def test_a_first_person_fact_with_no_key_is_still_the_users(mem: Memory) -> None:
    """A sentence the parser keys on nothing ("hardly" half-denies) is still about the
    speaker: it is the user's, and recall brings it with the user's other facts (it was
    found only by its words, and dropped from the block under the floor). A sentence whose
    second clause speaks of the first's thing ("he" refers back) is keyed on its first."""
    dog = mem.remember("I have a dog as well, he is pip!", valid_from=T0).fact
    lizard = mem.remember("I have a pet lizard.", valid_from=T0 + YEAR).fact
    drink = mem.remember("I hardly ever drink", valid_from=T0).fact
    third = mem.remember("The office dog hardly ever barks.", valid_from=T0).fact
    assert dog is not None and lizard is not None and drink is not None and third is not None
    assert dog.key == ("user", "have")
    assert drink.key is None and third.key is None
    assert dog.subject == drink.subject == lizard.subject == "user"
    assert third.subject is None  # no first person: whose, the sentence does not say
    block = mem.for_prompt("What pets do I have?", k=5)
    assert "pip!" in block and "lizard" in block


def test_a_later_statement_of_an_earlier_time_is_no_update(mem: Memory, clock: Clock) -> None:
    """Said later, "in 2018" tells of an earlier time than "in 2022": no grounds to make
    it current; both kept and flagged where they clash."""
    mem.remember("we moved to ghent in 2022", valid_from=T0)
    later = mem.remember("we moved to ghent in 2018", valid_from=T0 + 90 * DAY)
    assert later.relation is Relation.CONFLICT, later.why
    assert all(f.status is Status.CONFLICTED for f in live(mem))


def test_a_later_move_dated_later_still_updates(mem: Memory, clock: Clock) -> None:
    first = mem.remember("I moved to Ghent in 2018", valid_from=T0)
    later = mem.remember("I moved to Leuven in 2022", valid_from=T0 + 90 * DAY)
    assert later.relation is Relation.UPDATE, later.why
    assert first.fact is not None
    assert mem.store.get(first.fact.id, scope=mem.scope).status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("said", "then", "relation"),
    [
        ("theres 5 engineers on my team", "my team has 8 engineers now", Relation.UPDATE),
        ("There are two bathrooms in our house.", "our house has 2 bathrooms", Relation.DUPLICATE),
    ],
)
def test_an_existential_there_is_said_of_the_speakers_thing(
    mem: Memory, said: str, then: str, relation: Relation
) -> None:
    """ "there are N X on my team" is a fact about the speaker's team, keyed as "my team
    has N X" would be; the stored sentence keeps the words as said."""
    first = mem.remember(said, valid_from=T0)
    assert first.accepted and first.fact is not None, first.why
    assert first.fact.text.lower().startswith("there")
    assert mem.remember(then, valid_from=T0 + 200 * DAY).relation is relation


def test_an_existential_there_of_nothing_of_the_speakers_is_still_refused(mem: Memory) -> None:
    assert not mem.remember("there is a fox in the park").accepted


def test_who_the_speaker_is_said_before_a_question_is_kept(mem: Memory) -> None:
    """ "as a night-shift nurse, what ...?": the question is refused, who the speaker says
    they are is kept in their words, said as the statement it is ("The user is a
    night-shift nurse", as "I" is "The user"); an age said so is their age."""
    result = mem.remember("as a night-shift nurse, what should i eat before work?")
    assert result.accepted and result.fact is not None, result.why
    assert result.fact.text == "The user is a night-shift nurse"
    mem.remember("im 52", valid_from=T0)
    aged = mem.remember("as a 47 year old woman, is it too late to start rowing?", valid_from=T0)
    assert aged.fact is not None and aged.fact.predicate == "be_old", aged
    assert aged.relation is Relation.CONFLICT


@pytest.mark.parametrize(
    "said", ["as a result, should i move my savings?", "as a rule, what time do shops shut?"]
)
def test_an_as_a_that_names_no_one_is_no_fact(mem: Memory, said: str) -> None:
    assert not mem.remember(said).accepted


def test_a_move_told_of_an_earlier_time_relative_to_now_is_its_history(mem: Memory) -> None:
    """ "three years ago", said at the start of 2027, is 2024: earlier than the stored
    move of 2026, so the second statement is no later news: of two moves the later one
    says where the user lives, and the earlier is kept as its history (both true)."""
    porto = mem.remember("I moved to Porto in 2026", valid_from=T0)
    later = mem.remember("i moved to tampere three years ago", valid_from=T0 + 200 * DAY)
    assert later.relation is Relation.UPDATE, later.why
    assert later.fact is not None and porto.fact is not None
    assert later.fact.status is Status.SUPERSEDED
    assert later.fact.superseded_by == porto.fact.id
    assert [f.text for f in live(mem)] == ["The user moved to Porto in 2026"]


def test_a_time_told_relative_to_when_it_is_said() -> None:
    from credo.keys import told_year

    said_at = 1_796_083_200.0  # 2026-12-01
    assert told_year("moved to porto last spring", said_at=said_at) == 2026
    assert told_year("moved to porto last year", said_at=said_at) == 2025
    assert told_year("we married 3 years ago", said_at=said_at) == 2023
    assert told_year("moved to porto last spring") is None  # when it was said is unknown
    assert told_year("i ran 2019 steps today", said_at=said_at) is None
