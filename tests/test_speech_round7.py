"""Natural speech the write path reads since the seventh round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for:

- an "I" left out before a verb of one's own life ("live in leipzig now"): a report,
  never a request to the assistant;
- "going to" a place as a habit ("i stopped going to the pool"): no plan;
- a named thing at another version ("upgraded to galaxy tab 9"), and a value that
  "went up to" or "rose to" another, told with any verb of change;
- a word clipped in chat ("bf", "uni", "dev", "mum") compared as the word it stands for."""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, pair

from credo.fact import Status
from credo.keys import analyse, changed_value
from credo.resolver import Relation
from credo.store.sqlite import SQLiteStore

store = module_store("round7")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i live in dresden", "live in leipzig now, its much cheaper"),
        ("I work at Mintbank", "work at Larchfield Labs now"),
        ("i sing in a choir", "quit the choir, too much drama"),
    ],
)
def test_an_i_left_out_before_a_verb_of_ones_own_life_is_a_report(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 90)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    "said",
    [
        "live in a flat above a bakery",
        "own two bikes and a car",
        "rent a room in a shared house",
        "work as a night nurse",
        "commute by ferry",
        "volunteer at the food bank on sundays",
    ],
)
def test_without_its_i_the_key_is_the_one_with_it(said: str) -> None:
    bare, told = analyse(said), analyse("i " + said)
    assert bare.kind == "statement"
    assert (bare.predicate, bare.object) == (told.predicate, told.object)


def test_the_same_life_told_without_its_i_is_a_duplicate(store: SQLiteStore) -> None:
    status, relation = pair(store, "i work from home", "work from home these days", 30)
    assert relation is Relation.DUPLICATE and status is Status.ACTIVE


@pytest.mark.parametrize(
    "request_", ["work out a budget for me", "write me a cover letter", "plan a week of dinners"]
)
def test_a_verb_the_assistant_can_do_still_opens_a_request(
    store: SQLiteStore, request_: str
) -> None:
    result = memory(store).remember(request_)
    assert not result.accepted and result.code == "instruction"


@pytest.mark.parametrize(
    "habit",
    [
        "i stopped going to the pool",
        "I love going to gigs with my brother",
        "i quit going to pilates in the spring",
        "i keep going to the same barber",
    ],
)
def test_going_to_a_place_as_a_habit_is_no_plan(store: SQLiteStore, habit: str) -> None:
    result = memory(store).remember(habit)
    assert result.accepted, result.why


@pytest.mark.parametrize(
    "plan", ["im going to start running", "going to try pottery", "Im going to quit my job"]
)
def test_going_to_do_something_is_still_a_plan(store: SQLiteStore, plan: str) -> None:
    result = memory(store).remember(plan)
    assert not result.accepted and result.code == "speculative"


def test_stopping_a_habit_ends_it(store: SQLiteStore) -> None:
    status, relation = pair(
        store, "i go to the pool twice a week", "i stopped going to the pool", 60
    )
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my tablet is a galaxy tab 7", "upgraded to galaxy tab 9"),
        ("the docs site uses hugo 0.110", "moved the docs site to hugo 0.125"),
        ("we use node 18", "were on node 20 now"),
        ("the dashboard uses svelte 3", "upgraded the dashboard to svelte 5"),
    ],
)
@pytest.mark.parametrize("gap_days", [0, 90])
def test_a_named_thing_at_another_version_is_a_change(
    store: SQLiteStore, first: str, then: str, gap_days: float
) -> None:
    """A verb or word of change makes it the change the same day; later, it is one
    anyway."""
    status, relation = pair(store, first, then, gap_days)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_another_version_said_the_same_day_without_a_change_is_a_conflict(
    store: SQLiteStore,
) -> None:
    status, relation = pair(store, "our api runs on java 17", "our api runs on java 21", 0)
    assert relation is Relation.CONFLICT and status is Status.CONFLICTED


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i use ruby 2.7 at work", "im learning ruby 3.3"),
        ("i have 2 ferrets", "my sister has 3 ferrets"),
    ],
)
def test_another_version_of_another_doing_or_owner_is_kept_beside(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 30)
    assert relation is Relation.NEW and status is Status.ACTIVE


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my rent is 900 a month", "rent went up to 980"),
        ("my salary is 45k", "my salary rose to 52k"),
        ("our standup is 30 minutes", "standup went down to 15 minutes"),
    ],
)
@pytest.mark.parametrize("gap_days", [0, 90])
def test_a_value_that_went_up_or_rose_is_changed(
    store: SQLiteStore, first: str, then: str, gap_days: float
) -> None:
    status, relation = pair(store, first, then, gap_days)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("upgraded the app to react 18", ("upgrade", "app", "react 18")),
        ("we moved the service to go 1.22 last week", ("move", "service", "go 1.22")),
        ("rent went up to 980", ("go up", "rent", "980")),
    ],
)
def test_the_new_value_of_a_change_is_read_whole(said: str, value: tuple[str, str, str]) -> None:
    assert changed_value(said) == value


def test_a_verb_counting_what_it_takes_is_no_version() -> None:
    assert changed_value("moved the team to help 3 people") is None


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my gf is a nurse", "my girlfriend is a nurse"),
        ("i went to uni in york", "i went to university in york"),
        ("im a web dev", "im a web developer"),
        ("my mum is a teacher", "my mom is a teacher"),
        ("my fave band is the cure", "my favourite band is the cure"),
    ],
)
def test_a_word_clipped_in_chat_is_the_word_it_stands_for(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 30)
    assert relation is Relation.DUPLICATE and status is Status.ACTIVE


def test_the_clipped_word_is_stored_as_typed(store: SQLiteStore) -> None:
    result = memory(store).remember("my bf is a chef")
    assert result.fact is not None and "bf" in result.fact.text.split()


def test_a_statement_the_question_after_it_misparses_is_still_kept(store: SQLiteStore) -> None:
    """The parse of the whole hangs "zeynep" on the question; read alone, the statement
    before the comma is a clause of its own."""
    status, relation = pair(
        store,
        "im engaged to zeynep",
        "zeynep and i got married last summer, how do i change my name on my passport?",
        90,
    )
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("first", "then", "relation"),
    [
        ("i swim once a week", "i swim twice a week", Relation.UPDATE),
        (
            "i go to the climbing gym 3 times a week",
            "cut the climbing gym to twice a week",
            Relation.UPDATE,
        ),
    ],
)
def test_how_often_said_in_one_word_is_a_number(
    store: SQLiteStore, first: str, then: str, relation: Relation
) -> None:
    assert pair(store, first, then, 90)[1] is relation


def test_once_as_formerly_is_no_count() -> None:
    from credo.values import quantities

    assert quantities("i once lived in rome") == ()
    assert [q.value for q in quantities("we meet once a month")] == ["1"]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have a cat called miso", "miso passed away last week, how do i tell my kids?"),
        ("I have a dog named Pepper", "Pepper died in her sleep"),
    ],
)
def test_the_death_of_a_pet_named_ends_having_it(store: SQLiteStore, first: str, then: str) -> None:
    status, relation = pair(store, first, then, 30)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_the_death_of_someone_a_thing_only_mentions_ends_nothing(store: SQLiteStore) -> None:
    status, relation = pair(
        store, "i have a photo of my grandpa joe", "joe died when i was ten", 30
    )
    assert status is Status.ACTIVE and relation is Relation.NEW


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i work at a small agency", "started a new job at a bank in leeds, any tips?"),
        ("i work for a startup", "i quit my job last month"),
    ],
)
def test_a_workplace_described_not_named_is_still_the_job(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 90)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_a_new_job_does_not_end_working_from_home(store: SQLiteStore) -> None:
    status, _ = pair(store, "i work from home", "started a new job at a bank", 90)
    assert status is Status.ACTIVE


@pytest.mark.parametrize(
    ("first", "then"),
    [("i smoke", "i smoke ten roll-ups a day"), ("I paint", "I paint landscapes in oils")],
)
def test_the_relation_alone_then_what_it_is_of_is_a_refinement(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 30)
    assert relation is Relation.REFINEMENT and status is Status.SUPERSEDED


def test_a_narrower_denial_is_no_refinement(store: SQLiteStore) -> None:
    status, relation = pair(store, "i dont drink", "i dont drink beer", 30)
    assert relation is Relation.NEW and status is Status.ACTIVE


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i am a teacher", "i quit teaching last year"),
        ("im a nurse", "stopped nursing after my back injury"),
        ("im a teacher", "i dont teach anymore"),
        ("my partner is a teacher", "my partner quit teaching"),
    ],
)
def test_giving_up_the_doing_an_occupation_is_named_for_ends_it(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 90)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("I am a teacher", "I stopped teaching yoga on weekends"),
        ("my partner is a teacher", "i quit teaching"),
    ],
)
def test_giving_up_one_thing_taught_or_someone_elses_work_ends_nothing(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, _ = pair(store, first, then, 90)
    assert status is Status.ACTIVE


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my gp is dr singh", "changed gp, im with dr morales now"),
        ("i work at a bakery", "i changed jobs in the spring"),
        ("my bank is barclays", "switched banks to monzo"),
    ],
)
def test_a_thing_swapped_without_naming_the_new_one_ends_the_old(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 90)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_changing_ones_mind_about_a_thing_swaps_nothing(store: SQLiteStore) -> None:
    status, _ = pair(store, "my phone is a pixel 6", "changed my mind about the pixel", 90)
    assert status is Status.ACTIVE


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my favourite colour is blue", "my favourite colour is green, not blue"),
        ("i started my job in 2019", "i started my job in 2018 not 2019"),
    ],
)
def test_a_value_said_instead_of_the_stored_one_corrects_it_the_same_day(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 0)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_a_plain_denial_is_still_a_conflict(store: SQLiteStore) -> None:
    status, relation = pair(store, "I am a vegetarian.", "I am not a vegetarian.", 0)
    assert relation is Relation.CONFLICT and status is Status.CONFLICTED


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("oops, my sister is called hanna", ("has_sister", "hanna")),
        ("wait no, the standup is at 9:45", ("be_at", "9:45")),
        ("my son is 8 sorry", ("has_son_old", "8")),
    ],
)
def test_the_words_of_a_correction_are_no_part_of_the_key(said: str, key: tuple[str, str]) -> None:
    statement = analyse(said)
    assert (statement.predicate, statement.object) == key


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i have 3 cats", "correction: i have 4 cats"),
        ("the deadline is friday", "wait no the deadline is thursday"),
        ("my locker is number 12", "oops, my locker is number 21"),
    ],
)
def test_the_words_of_a_correction_are_grounds_the_same_day(
    store: SQLiteStore, first: str, then: str
) -> None:
    """The stored sentence leaves "correction:" out; the resolver still reads it in what
    was typed."""
    status, relation = pair(store, first, then, 0)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i eat meat", "what should i cook for dinner, given that im vegan now?"),
        ("i live in leeds", "now that i live in york, what are good day trips?"),
    ],
)
def test_the_grounds_a_question_gives_are_a_statement(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 60)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        ("should i get a standing desk since i work from home now?", "i work from home now"),
        ("any tips for packing as i have two toddlers?", "i have two toddlers"),
        ("can you suggest a route because my knee is bad?", "my knee is bad"),
    ],
)
def test_a_question_keeps_the_grounds_it_gives(question: str, stated: str) -> None:
    from credo.extract.rules import presupposed

    assert stated in presupposed(question)


@pytest.mark.parametrize(
    "question",
    ["what should i pack if i move to york?", "when i was a kid, was it colder?"],
)
def test_a_condition_or_a_time_is_no_grounds(question: str) -> None:
    from credo.extract.rules import presupposed

    assert presupposed(question) == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("stopped vaping last year", ("not_vape", None)),
        ("i stopped vaping", ("not_vape", None)),
        ("my daughter is 4", ("has_daughter_old", "4")),
        ("my son is 7 years old", ("has_son_old", "7")),
        ("im 34 years old", ("be_old", "34")),
    ],
)
def test_endings_and_ages_are_keyed(said: str, key: tuple[str, str | None]) -> None:
    statement = analyse(said)
    assert (statement.predicate, statement.object or None) == key


@pytest.mark.parametrize(
    ("first", "then", "relation"),
    [
        ("i vape", "stopped vaping last year", Relation.UPDATE),
        ("my daughter is 4", "my daughter just turned 5, any party ideas?", Relation.UPDATE),
        ("im 34", "im thirty-four years old", Relation.DUPLICATE),
        ("my son is 7", "my son is 7 years old", Relation.DUPLICATE),
    ],
)
def test_endings_and_ages_relate(
    store: SQLiteStore, first: str, then: str, relation: Relation
) -> None:
    assert pair(store, first, then, 90)[1] is relation


def test_a_number_said_of_a_thing_is_no_age() -> None:
    assert analyse("my team is 6").predicate != "has_team_old"


def test_an_address_with_a_path_is_one_thing_whatever_it_is_called(store: SQLiteStore) -> None:
    status, relation = pair(
        store,
        "the repo is github.com/ines-k/tallybook",
        "code lives at https://github.com/ines-k/tallybook",
        0,
    )
    assert relation is Relation.DUPLICATE and status is Status.ACTIVE


def test_one_bare_host_for_two_things_is_two_facts(store: SQLiteStore) -> None:
    _, relation = pair(store, "my blog is at example.org", "my shop is at example.org", 0)
    assert relation is Relation.NEW


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("whats your favourite season? mine is autumn", ("has_favorite_season", "autumn")),
        ("what is your favourite film? mine's alien", ("has_favorite_film", "alien")),
    ],
)
def test_mine_after_a_question_is_what_was_asked_of(
    store: SQLiteStore, said: str, key: tuple[str, str]
) -> None:
    result = memory(store).remember(said)
    assert result.accepted and result.fact is not None
    assert (result.fact.predicate, result.fact.object) == key
    assert "?" not in result.fact.text


def test_mine_with_nothing_asked_before_it_is_ungrounded(store: SQLiteStore) -> None:
    result = memory(store).remember("mine is boring")
    assert not result.accepted and result.code == "ungrounded"


@pytest.mark.parametrize(
    ("first", "then"),
    [("i use vim", "i use emacs, not vim"), ("i have a cat", "i have a dog, not a cat")],
)
def test_a_value_said_instead_corrects_a_relation_of_many_values_too(
    store: SQLiteStore, first: str, then: str
) -> None:
    status, relation = pair(store, first, then, 0)
    assert relation is Relation.UPDATE and status is Status.SUPERSEDED


def test_another_value_beside_the_stored_one_corrects_nothing(store: SQLiteStore) -> None:
    status, _ = pair(store, "i use vim", "i also use emacs", 0)
    assert status is Status.ACTIVE
