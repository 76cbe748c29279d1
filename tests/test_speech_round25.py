"""Natural speech the write path reads since the twenty-fifth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- one age of the same one said two ways ("my son is 3" / "a lively four year old son",
  "i'm 29" / "im a 31 year old teacher"), whatever keys the two sentences got, with the
  numbers apart, is a clash: a later one an update, one said the same day a conflict; the
  same age said again is no rival; an age of one of two ("a 3 year old son and a 6 year old
  son"), of another's child ("my sister's son") or in another unit ("an 8 month old") is
  none of the stored one's;
- a yes-no question typed without its "?" asks whatever tag the thing asked of got: a verb
  put first before two things compared ("is solid actually quicker than vue", "are
  heat pumps cheaper to run"), or before "anyone", "everyone" ("does anyone still use
  jquery"); it is refused as a question and ends nothing stored; the same comparison
  told ("svelte is faster than react for us") is no question;
- a vague word for what the speaker has ("all our stuff", "my things"), said to run on or
  be in a product ("runs on azure", "is hosted on vercel"), is made specific by it and
  stored; "some stuff happened at work" and "all my stuff is in boxes" stay vague;
- all of what the speaker has said to be on rival products of one kind ("we host
  everything on aws" / "all our stuff sits on azure", "we run everything on gcp"),
  whatever keys the two got, is a clash: all of it cannot be on both; a part of it ("our
  api runs on azure") or one more ("we also run everything on azure") is no rival;
- one thing of the speaker's named by the same make or model ("my car is a blue mazda 2"
  / "my red mazda failed its mot again") or declared as their one ("my bike is black" / "my
  white bike got a puncture"), given another colour, is a clash (lexicon "colours"); two
  cats told apart by colour, the same colour again, or a sentence of two colours are
  not;
- the same one at another school level of one kind ("ava is in year 3" / "ava just
  started year 4", "my son is in 2nd grade" / "started third grade", "i teach year 2" /
  "moved me onto year 5"; lexicon "school_levels"), whatever keys the two got, is a
  move (an update some months on); another's level ("my daughter" / "my son"), or what
  one teaches beside a child's year, is not;
- a move home said with which way it went ("we relocated up to aberdeen", "moved down
  to brighton") or with another verb of moving ("relocated", "emigrated to canada") is a
  move: it says where one lives now, and ends where one lived; "i moved out" and "moved in
  with my girlfriend" keep their particle;
- a birth told ("the baby arrived on the 9th", "our daughter was born last week", "gave
  birth to a little boy"; lexicon "newborns") ends the pregnancy a stored fact of the
  speaker or their partner holds; another's pregnancy ("my sister is pregnant"), and what
  else arrives ("my baby brother arrived from canada", "my son arrived home"), do not;
- a parting said with when it happened ("tomas and i separated in the autumn", "we
  split in march") ends the partnership: when is not whom one parted from, as "broke up
  with my band" names a whom that is no partner;
- the lexicon's occupations are a fuller list of common ones ("teller", "solicitor",
  "plasterer", "carer"): being one is work, which losing one's job or being made
  redundant ends; losing one's keys does not;
- what "my grandad is in a care home" says (keyed `has_grandfather_in`) is said of the
  grandad, as "my grandad lives in leeds" is: his death ends it; what was said of him in
  the past ("my grandad was a miner") stays;
- having a job at a place ("i have a job at monzo", "a part-time job with the nhs") and
  one's job being there ("my job is at google") say where one works, as "i work at"
  does: another employer said the same day is a conflict; "a new job at tesco" (a change,
  read as such) and "a job interview at google" are not read so;
- an early bird, an early riser and a morning person are one state, a night owl and a
  night person another (predicates.toml's exclusive groups): "im an early bird" / "im a
  morning person" is the same state said again, not the conflict it was, and "a real
  night owl" / "an early riser" the same day is one;
- what the speaker's group does ("our team swapped jira for linear", "our company
  dropped slack"; lexicon "speakers_groups") is what "we" do, for what it ends; what the
  group is ("our company is 50 people") stays the group's;
- leaving a role by its name ("stepped down as treasurer", "resigned as a governor",
  "handed the treasurer role over to priya") ends being it; leaving another role
  ("resigned as secretary") does not;
- how life, work or a stretch of time has gone of late, in an adjective ("life's been
  pretty rough lately", "work has been crazy lately", "my week has been so hectic"; lexicon
  "goings") is a verdict on the stretch, refused whole, and no piece of it is kept ("so"
  in "so hectic" says how much: a piece ending on "has been" is no statement); "work is
  remote" is a fact;
- dating someone ("im dating someone", "been seeing someone for a few weeks", "seeing a
  guy from work") is the state "dating", which "single" excludes; seeing one's therapist
  is no dating;
- where one met one's partner ("i met my wife at college" / "met my wife on bumble in
  2019") is a meeting the past holds once: two places that neither names the other are a
  conflict at any gap, neither side picked; the same place said more fully is not, nor
  where one met one's boss;
- when a state of the speaker's began, told twice with two years ("we moved into this
  flat in 2021" / "weve been in this flat since 2017", "we got married in 2009" / "weve
  been married since 2011"), is a conflict at any gap; two things, or one year told twice,
  are not;"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome

from credo.keys import analyse
from credo.predicates import shipped
from credo.store.sqlite import SQLiteStore

store = module_store("round25")


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        ("my son is 3", "I have a lively four year old son.", 400, ("superseded", "update")),
        (
            "i have a 6 year old daughter",
            "my daughter is 8 and mad about horses",
            500,
            ("superseded", "update"),
        ),
        ("i have a 6 year old daughter", "my daughter is 9", 0, ("conflicted", "conflict")),
        ("i have a giddy 4 year old son", "my son is 7", 0, ("conflicted", "conflict")),
        ("i'm 29", "im a 31 year old teacher", 0, ("conflicted", "conflict")),
        ("im a 34 yr old nurse", "I'm 36", 700, ("superseded", "update")),
    ],
)
def test_an_age_said_two_ways_is_one_age(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("two boys here, a 3 year old son and a 6 year old son", "my son is 4"),
        ("my sisters son is 4", "i have a chatty 6 year old son"),
        ("i have a fluffy 8 month old puppy", "my puppy is 1"),
        ("my son is 4", "i have a giddy 4 year old son"),
    ],
)
def test_an_age_of_one_of_two_or_of_another_or_the_same_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 200)[0] == "active"


@pytest.mark.parametrize(
    "said",
    [
        "is solid actually quicker than vue or is that marketing",
        "are heat pumps cheaper to run",
        "does anyone still use jquery",
        "is everyone on the team remote",
    ],
)
def test_a_yes_no_question_typed_without_its_mark_is_a_question(
    store: SQLiteStore, said: str
) -> None:
    assert analyse(said).kind == "question"
    result = memory(store).remember(said)
    assert not result.accepted and result.code == "question"


def test_a_question_without_its_mark_ends_nothing(store: SQLiteStore) -> None:
    mem = memory(store)
    first = mem.remember("we use react")
    assert first.fact is not None
    mem.remember("is svelte faster than react or is it all hype")
    after = store.get(first.fact.id, scope=mem.scope)
    assert after is not None and after.status.value == "active"


@pytest.mark.parametrize(
    "said", ["svelte is faster than react for us", "is what it is, im a nurse on nights"]
)
def test_a_comparison_told_is_no_question(said: str) -> None:
    assert analyse(said).kind != "question"


@pytest.mark.parametrize(
    "said", ["all our stuff sits on azure", "all my stuff is hosted on vercel"]
)
def test_a_vague_word_said_to_be_on_a_product_is_specific(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said)
    assert result.accepted, result.why


@pytest.mark.parametrize("said", ["some stuff happened at work", "all my stuff is in boxes"])
def test_a_vague_word_with_no_product_stays_vague(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said)
    assert not result.accepted and result.code == "vague"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("we run everything on aws", "all our stuff sits on azure"),
        ("all our stuff runs on aws", "we run everything on gcp"),
    ],
)
def test_all_of_it_on_rival_products_is_a_clash(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 0) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("all our stuff runs on aws", "our api runs on azure"),
        ("we run everything on aws", "we also run everything on azure"),
    ],
)
def test_a_part_or_one_more_is_no_rival_of_all_of_it(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my car is a blue mazda 2", "my red mazda failed its mot again"),
        ("my bike is black", "my white bike got a puncture"),
        ("my car is silver", "i drive a black car"),
    ],
)
def test_one_thing_given_another_colour_is_a_clash(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my black cat is called salem", "my white cat sleeps all day"),
        ("my car is a blue mazda", "my mazda has red and white stripes"),
        ("my sister's car is red", "my car is blue"),
    ],
)
def test_things_told_apart_by_colour_are_no_rivals(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[0] == "active"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("ava is in year 3", "ava just started year 4, loads more homework"),
        ("i teach year 2", "they moved me onto year 5 from january"),
        ("my son is in 2nd grade", "my son started third grade this week"),
    ],
)
def test_another_school_level_is_a_move(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 300) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my son is in year 2", "my daughter just started year 4"),
        ("i teach year 2", "my son is in year 5"),
    ],
)
def test_another_ones_school_level_is_no_move(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 300) == ("active", "new")


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("we relocated up to aberdeen in the spring", ("live_in", "aberdeen")),
        ("moved down to brighton last year", ("live_in", "brighton")),
        ("i moved out last week", ("move_out", None)),
        ("i moved in with my girlfriend", ("move_in_with", "my girlfriend")),
    ],
)
def test_which_way_a_move_went_is_no_part_of_it(said: str, key: tuple[str, str | None]) -> None:
    read = analyse(said)
    assert (shipped().canonical(read.predicate or "")[0] or None, read.object) == key


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("we live in dundee", "we relocated up to aberdeen in the spring"),
        ("we live in dundee", "we relocated to perth"),
        ("i live in leeds", "emigrated to canada last spring"),
    ],
)
def test_a_move_said_with_another_verb_ends_the_old_home(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 200) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("im 7 months pregnant", "baby arrived on the 9th, a boy, 3.2kg"),
        ("my wife is pregnant with our first", "our daughter was born last week"),
        ("im expecting in may", "gave birth to a little boy on the 2nd"),
    ],
)
def test_a_birth_ends_the_pregnancy(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 100) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my sister is pregnant", "our daughter was born last week"),
        ("im 30 weeks pregnant", "my baby brother arrived from canada"),
        ("im pregnant", "my son arrived home from uni"),
    ],
)
def test_another_pregnancy_or_an_arrival_is_no_birth(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 100) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("been married to tomas for about six years", "tomas and i separated in the autumn"),
        ("im married to sol", "sol and i divorced last year"),
    ],
)
def test_a_parting_said_with_when_ends_the_partnership(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 300) == ("superseded", "update")


def test_a_parting_from_another_ends_no_partnership(store: SQLiteStore) -> None:
    assert outcome(store, "im dating jonas", "i broke up with my band", 40) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("im a cashier at a building society", "lost my building society job in may"),
        ("im a plasterer", "got made redundant last week"),
        ("i'm a solicitor in leeds", "i quit my job in march"),
    ],
)
def test_losing_the_job_ends_an_occupation(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 30) == ("superseded", "update")


def test_losing_another_thing_ends_no_occupation(store: SQLiteStore) -> None:
    assert outcome(store, "im a locksmith", "i lost my keys again", 30) == ("active", "new")


@pytest.mark.parametrize(
    "first", ["my grandad is in a care home in ripon", "my nan is in hospital in york"]
)
def test_a_death_ends_where_they_were(store: SQLiteStore, first: str) -> None:
    then = "grandad passed away on sunday" if "grandad" in first else "my nan passed last week"
    assert outcome(store, first, then, 30) == ("superseded", "update")


def test_a_death_leaves_their_past(store: SQLiteStore) -> None:
    said = ("my grandad was a miner", "grandad passed away on friday")
    assert outcome(store, *said, 30)[0] == "active"


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i have a job at monzo", ("work_at", "monzo")),
        ("i have a steady part-time job with the nhs", ("work_at", "the nhs")),
        ("my job is with the nhs", ("work_at", "the nhs")),
        ("i have a job interview at google", ("have", "a job interview at google")),
    ],
)
def test_a_job_at_a_place_is_where_one_works(said: str, key: tuple[str, str]) -> None:
    read = analyse(said)
    assert (shipped().canonical(read.predicate or "")[0], read.object) == key


def test_another_employer_the_same_day_is_a_conflict(store: SQLiteStore) -> None:
    said = ("i have a job at monzo", "i work for ibm on the data team")
    assert outcome(store, *said, 0) == ("conflicted", "conflict")


def test_one_chronotype_said_two_ways_is_one_state(store: SQLiteStore) -> None:
    assert outcome(store, "im an early bird", "im a morning person", 0) == ("active", "duplicate")


def test_rival_chronotypes_the_same_day_conflict(store: SQLiteStore) -> None:
    said = ("im a real night owl", "im definitely an early riser")
    assert outcome(store, *said, 0) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("we use jira for tickets", "our team swapped jira for linear"),
        ("we use slack", "our company dropped slack for teams"),
    ],
)
def test_what_our_group_ends_we_end(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 180) == ("superseded", "update")


def test_what_our_group_is_stays_its_own(store: SQLiteStore) -> None:
    assert outcome(store, "we use slack", "our company is 50 people", 90) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("im treasurer of the running club", "stepped down as treasurer last month"),
        ("im treasurer of the running club", "handed the treasurer role over to priya"),
        ("im a school governor", "i resigned as a governor in june"),
    ],
)
def test_leaving_a_role_by_its_name_ends_it(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 180) == ("superseded", "update")


def test_leaving_another_role_ends_nothing(store: SQLiteStore) -> None:
    said = ("im treasurer of the running club", "resigned as secretary of the book club")
    assert outcome(store, *said, 180) == ("active", "new")


@pytest.mark.parametrize(
    "said",
    [
        "life's been pretty rough lately, honestly",
        "work has been crazy lately",
        "my week has been so hectic",
    ],
)
def test_how_things_have_gone_is_no_fact(store: SQLiteStore, said: str) -> None:
    mem = memory(store)
    result = mem.remember(said)
    assert not result.accepted and result.code == "affect"
    assert mem.list() == []


def test_how_work_is_done_is_a_fact(store: SQLiteStore) -> None:
    assert memory(store).remember("work is remote").accepted


@pytest.mark.parametrize(
    "then",
    [
        "im dating someone",
        "been seeing someone for a few weeks now",
        "im seeing a guy from work",
    ],
)
def test_dating_someone_ends_being_single(store: SQLiteStore, then: str) -> None:
    assert outcome(store, "im single", then, 100) == ("superseded", "update")


def test_seeing_a_therapist_is_no_dating(store: SQLiteStore) -> None:
    said = ("im single", "i see my therapist every week")
    assert outcome(store, *said, 100) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("i met my wife at college", "met my wife on bumble in 2019", 20),
        ("met my husband at the gym", "met my husband through friends back in 2015", 400),
    ],
)
def test_where_one_met_a_partner_told_twice_conflicts(
    store: SQLiteStore, first: str, then: str, gap: int
) -> None:
    assert outcome(store, first, then, gap) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i met my wife at college", "i met my wife at college in bath"),
        ("i met my boss at a conference", "met my boss at the pub"),
    ],
)
def test_the_same_meeting_or_another_person_is_no_conflict(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 20)[1] != "conflict"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("we moved into this flat in 2021", "weve been in this flat since 2017"),
        ("we got married in 2009", "weve been married since 2011"),
        ("i moved to york in 2013", "ive lived in york since 2016"),
    ],
)
def test_a_start_told_with_two_years_conflicts(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 30) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i moved to york in 2013", "ive been vegan since 2016"),
        ("i moved to york in 2013", "ive lived in york since 2013"),
    ],
)
def test_another_start_or_the_same_year_is_no_conflict(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 30)[1] != "conflict"
