"""Natural speech the write path reads since the twenty-fourth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a move onto a product ("we moved to fly.io", "moved from jira to linear") is a switch
  onto it, keyed as one (`migrate_to`, which the catalogue reads as `use`), so it ends
  the rival it left; a move to a place stays a home ("we moved to york"), and a move to
  anything else is stored as said, with no key ("moved to a new team");
- another putting the speaker on a thing ("the doctor put me on metformin", "my
  consultant switched me onto insulin"), up or down to an amount ("my gp took me up to
  30mg of it"), or off it ("they took me off the statins") says what the speaker is now
  on (keyed as "i am on ..." is, or its denial), stored as said; up or down to anything
  but an amount ("moved me up to team lead") and what one does to another ("i put my
  son on the bus") are not read so;
- a product named where a value named its kind ("i have a honda car" / "i have a honda
  civic", "i use a linux distro" / "i use fedora"), with nothing else said of it, is
  the value said more narrowly (a refinement); another make's ("a toyota car"), or one
  more ("also"), is not;
- working in an office however it is told ("in an office downtown", "at our office in
  leeds") is working in the office: one state of the exclusive group of where one works
  ("from home", "remote"); said of some days only it is still no rival;
- an amount of money one makes, is on, takes home or is paid ("i make 60k a year", "im
  on 45 grand") is what one earns (`earn`, one value at a time): a second amount said the
  same day is a conflict, one said later with a change word an update; one amount said
  two ways ("40k" / "40,000" / "40 grand") is no rival; a second income told apart by
  what it is from ("5k a year from tutoring") keeps both;
- a claim said the plain way in other words ("mum of 4 here": having 4 kids) names what
  its key names, not the words it was said in: said after a fuller sentence of the same
  claim ("four kids in this house, all under ten") it is said already (a duplicate);
- an event a clause of "when", "after", "while" ... tells in passing ("when i had chicken
  pox at uni i missed my exams", "back when i was at uni i lived off noodles") happened:
  it contradicts a denial of the past ("i've never had chickenpox", "i didnt go to uni")
  either way round, at any gap, as the event said alone does; another person's event ("when
  my sister went to spain") is not the speaker's;
- the person a one-valued role of the speaker's names ("my manager is sarah", "my boss is
  anna") said by name to have left it ("sarah left so now i report to tom", "anna retired
  in june", "sarah quit her job") holds it no more: an update; what else they left ("left
  her laptop here") says nothing of the role;
- what one is paid ("my salary is 72k", "my income is ...") is what one earns, and one
  amount said two ways on it ("72k" / "72,000" / "seventy two thousand") is said already
  (a duplicate); paying an amount for a payment of the lexicon's ("i pay 1200 rent", "i
  pay twelve hundred quid rent", "1450 in rent") says what it is ("my rent is 1200"); what
  one pays for a thing that is no payment of its own ("£40 for my phone") is not;
- a product used ("i use arch") and the same product named as the slot of its kind ("my os
  is arch linux"), by its full name or a short one, either way round, with nothing more
  said, are one claim (a duplicate); a rival of its kind is not, nor one said with more
  ("on a thinkpad");
- a bare noun naming the kind of the product its "is" names ("db is mysql", "frontend is
  react") is the speaker's slot of that kind, as "my db is mysql" is (chat leaves out the
  "my"); a product named after "my <slot> is" names it whatever tag the tagger gave an
  unknown lower-case word ("my frontend is react" is no description); "coffee is life"
  and "the db is ..." are not read so;
- a state the tagger split in two ("im type 1 diabetic": "type" and "1 diabetic") is one
  value, all of it ("type 1 diabetic"), so "im a type one diabetic" is the same claim;
- a thing made again in a rival product ("rebuilt the blog in hugo", "we rewrote the api
  in fastapi": lexicon "remaking") gives it its new product, as "moved the api to render"
  gives it a new place, and ends the fact that held a rival of it ("the blog runs on
  wordpress", "the api is written in flask"); made again in a time ("rewrote my cv in an
  evening") it is given no value;
- a height in feet and inches as people type it ("5'9", "5’9", "5'9\"") is the amount
  "5 foot 9" says: the same height in centimetres is said already, another height the
  same day a conflict;
- where one works said with another verb ("i work from home" / "im remote", "im fully
  remote") is the same state said again (a duplicate), as two ways of one state said with
  "be" already were; said of some days only it says more."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, outcome

from credo import resolver
from credo.fact import Fact
from credo.keys import analyse
from credo.store.sqlite import SQLiteStore
from credo.values import money, same_money

store = module_store("round24")


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we moved to fly.io", "fly.io"),
        ("moved from jira to linear last sprint", "linear"),
        ("i moved to postgres for the side project", "postgres"),
        ("i moved to kubernetes last month", "kubernetes"),
    ],
)
def test_a_move_onto_a_product_is_a_switch(said: str, value: str) -> None:
    key = analyse(said)
    assert (key.predicate, key.object) == ("migrate_to", value)


@pytest.mark.parametrize(
    ("said", "predicate"),
    [("we moved to york", "move_to"), ("moved to a new team", None), ("i moved to sales", None)],
)
def test_a_move_to_a_place_or_a_team_is_no_switch(said: str, predicate: str | None) -> None:
    assert analyse(said).predicate == predicate


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("we deploy on heroku", "we moved from heroku to fly.io"),
        ("we track bugs in jira", "we moved to linear"),
    ],
)
def test_a_move_onto_a_rival_ends_the_old_one(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 90) == ("superseded", "update")


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("the doctor put me on metformin", ("be_on", "metformin")),
        ("my consultant switched me onto insulin", ("be_on", "insulin")),
        ("my gp took me up to 30mg of citalopram", ("be_on", "30mg of citalopram")),
        ("they bumped me down to 10mg", ("be_on", "10mg")),
        ("the cardiologist took me off the statins", ("not_be_on", "the statins")),
    ],
)
def test_put_on_a_thing_by_another_the_speaker_is_on_it(said: str, key: tuple[str, str]) -> None:
    read = analyse(said)
    assert (read.subject, read.predicate, read.object) == ("I", *key)
    assert "the user" in stored_text(said).lower()  # stored as said, the speaker named


def stored_text(said: str) -> str:
    return analyse(said).text


@pytest.mark.parametrize(
    "said", ["my boss moved me up to team lead", "i put my son on the bus", "she took me out"]
)
def test_what_is_no_amount_or_done_to_another_is_not_put_on(said: str) -> None:
    assert analyse(said).predicate != "be_on"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("im on 25mg of sertraline", "my gp took me up to 50mg of sertraline, is that a lot?"),
        ("im on 20mg of citalopram", "the psychiatrist put me on 40mg of citalopram"),
        ("im on statins", "they took me off statins"),
    ],
)
def test_put_on_by_another_meets_what_the_speaker_was_on(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 60) == ("superseded", "update")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i drive a honda car", "i drive a honda civic"),
        ("i use a linux distro", "i use ubuntu"),
        ("we use a database", "we use postgres"),
    ],
)
def test_a_product_where_its_kind_was_named_says_it_more_narrowly(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 20) == ("superseded", "refinement")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i drive a toyota car", "i drive a honda civic"),
        ("i drive a blue honda car", "i drive a honda civic"),
    ],
)
def test_another_make_or_more_said_of_the_kind_is_no_refinement(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 20)[1] != "refinement"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i work five days a week in an office downtown", "i work from home now"),
        ("i work at our office in leeds", "im fully remote these days"),
    ],
)
def test_an_office_however_told_is_the_office(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 90) == ("superseded", "update")


def test_an_office_on_some_days_is_no_rival(store: SQLiteStore) -> None:
    said = ("i work from home", "i work at our office in leeds on mondays")
    assert outcome(store, *said, 90) == ("active", "new")


@pytest.mark.parametrize(
    "said", ["i make 60k a year", "im on 45 grand", "i get paid 15 quid an hour", "im on £32,000"]
)
def test_an_amount_of_money_made_is_earned(said: str) -> None:
    assert analyse(said).predicate == "earn"


@pytest.mark.parametrize("said", ["i make furniture", "i make 5k runs look easy", "im on 50mg"])
def test_what_is_no_amount_of_money_is_not_earned(said: str) -> None:
    assert analyse(said).predicate != "earn"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("40k", "£40,000", True),
        ("45 grand", "45k", True),
        ("60k", "60k a year", True),
        ("40k", "40,000", True),
        ("5k a month", "60k a year", False),
        ("40k", "45k", False),
        ("5k", "5,000 runs", False),
    ],
)
def test_one_amount_of_money_said_two_ways(a: str, b: str, same: bool) -> None:
    assert same_money(a, b) is same


def test_money_reads_the_span_it_is_per() -> None:
    assert money("60k a year") == (60000.0, "year")
    assert money("15 quid an hour") == (15.0, "hour")
    assert money("1200") is None  # a bare number says nothing of money


@pytest.mark.parametrize(
    ("first", "then", "expected", "gap"),
    [
        ("i earn 40k", "i make 60k a year", ("conflicted", "conflict"), 0),
        ("i earn 40k a year", "im on 52k now", ("superseded", "update"), 120),
    ],
)
def test_two_amounts_earned_are_rivals(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str], gap: int
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i earn 40k", "i earn 40,000"),
        ("i earn 40k", "im on 40 grand"),
        ("i earn 40k at my day job", "i make 5k a year from tutoring"),
    ],
)
def test_one_amount_said_two_ways_or_another_income_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[1] != "conflict"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("four kids in this house, all under ten", "mum of 4 here"),
        ("we have three kids at home, all boys", "dad of three here"),
    ],
)
def test_a_claim_said_the_plain_way_after_a_fuller_one_is_said_already(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 15) == ("active", "duplicate")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i didnt go to uni", "back when i was at uni in leeds i lived on toast"),
        ("back when i was at uni in leeds i lived on toast", "i didnt go to uni"),
        ("ive never had chickenpox", "when i had chicken pox in sixth form i missed all my mocks"),
    ],
)
def test_an_event_told_in_passing_meets_a_denial_of_the_past(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 40) == ("conflicted", "conflict")


def test_another_persons_event_told_in_passing_is_no_report(store: SQLiteStore) -> None:
    said = ("ive never been to spain", "when my sister went to spain she loved it")
    assert outcome(store, *said, 40)[1] != "conflict"


def test_the_events_a_sentence_tells_in_passing_are_the_speakers_in_the_past() -> None:
    fact = Fact(
        "after the user moved to leeds the user took up climbing", "user", "take_up", "climbing"
    )
    told = resolver._events_told_in(fact, "user")
    assert [(f.text, f.predicate) for f in told] == [("the user moved to leeds", "move_to")]
    now = Fact("when the user lives in leeds the user climbs", "user", "climb", None)
    assert resolver._events_told_in(now, "user") == []  # not told in the past


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my team lead is ravi", "ravi left last month so now i report straight to the cto"),
        ("my landlord is dev", "dev retired and his son runs the lettings now"),
        ("my manager is nadia", "nadia quit her job in march"),
    ],
)
def test_the_holder_of_a_role_who_left_holds_it_no_more(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 90) == ("superseded", "update")


def test_what_else_the_holder_left_says_nothing_of_the_role(store: SQLiteStore) -> None:
    said = ("my manager is nadia", "nadia left her umbrella in my car")
    assert outcome(store, *said, 90) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then", "expected", "gap"),
    [
        ("my salary is 48k", "im on 52k a year before tax", ("conflicted", "conflict"), 0),
        ("i earn 48k a year", "my salary is forty eight thousand", ("active", "duplicate"), 10),
        ("my salary is 48k", "my salary is 48,000", ("active", "duplicate"), 10),
    ],
)
def test_a_salary_is_what_one_earns(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str], gap: int
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("i pay 950 rent", ("has_rent", "950")),
        ("i pay twelve hundred quid rent", ("has_rent", "twelve hundred quid")),
        ("we pay 1400 on our mortgage", ("has_mortgage", "1400")),
    ],
)
def test_paying_an_amount_for_a_payment_says_what_it_is(said: str, key: tuple[str, str]) -> None:
    read = analyse(said)
    assert (read.predicate, read.object) == key


def test_paying_for_a_thing_that_is_no_payment_says_nothing_of_it() -> None:
    assert analyse("i pay £40 a month for my phone").predicate != "has_phone"


def test_paying_rent_meets_the_rent_said(store: SQLiteStore) -> None:
    assert outcome(store, "my rent is 950 a month", "i pay 1100 in rent now", 200) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i use mint", "my os is linux mint"),
        ("my editor is nvim", "i use neovim"),
        ("my browser is firefox", "i use firefox"),
    ],
)
def test_a_product_used_and_named_as_its_slot_is_one_claim(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 10) == ("active", "duplicate")


def test_a_product_said_with_more_is_no_duplicate(store: SQLiteStore) -> None:
    said = ("i use mint", "my os is linux mint on an old thinkpad")
    assert outcome(store, *said, 10)[1] != "duplicate"


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("db is postgres", ("I", "has_db", "postgres")),
        ("frontend is svelte", ("I", "has_frontend", "svelte")),
        ("my frontend is react", ("I", "has_frontend", "react")),
    ],
)
def test_a_slot_named_by_its_products_kind_is_the_speakers(
    said: str, key: tuple[str, str, str]
) -> None:
    read = analyse(said)
    assert (read.subject, read.predicate, read.object) == key


@pytest.mark.parametrize(
    "said", ["coffee is life", "the db is postgres", "Python 3 is the default"]
)
def test_what_names_no_slot_of_a_products_kind_stays_as_it_is(said: str) -> None:
    assert analyse(said).subject != "I"


def test_a_bare_slot_meets_the_slot_said_in_full(store: SQLiteStore) -> None:
    assert outcome(store, "our database is mysql", "db is postgres now", 60) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("said", "value"),
    [("im type 1 diabetic", "type 1 diabetic"), ("im a type 2 diabetic", "a type 2 diabetic")],
)
def test_a_state_the_tagger_split_is_one_value(said: str, value: str) -> None:
    assert analyse(said).object == value


def test_a_state_said_whole_meets_itself_said_otherwise(store: SQLiteStore) -> None:
    said = ("im type 2 diabetic", "im a type two diabetic")
    assert outcome(store, *said, 20) == ("active", "duplicate")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("the shop runs on woocommerce", "we rebuilt the shop on shopify over the summer"),
        ("the backend is written in django", "rewrote the backend in rails last year"),
    ],
)
def test_a_thing_made_again_in_a_rival_product_ends_the_old_one(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 150) == ("superseded", "update")


def test_a_thing_made_again_in_a_time_is_given_no_value(store: SQLiteStore) -> None:
    said = ("my cv is two pages", "i rewrote my cv in an afternoon")
    assert outcome(store, *said, 30) == ("active", "new")


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("im 5'9", "im 175cm", ("active", "duplicate")),
        ("im 5’9", "im 175 cm", ("active", "duplicate")),
        ("im 5'9", "im 6ft 2", ("conflicted", "conflict")),
    ],
)
def test_a_height_in_feet_and_inches_as_typed_is_one_amount(
    store: SQLiteStore, first: str, then: str, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, 0) == expected


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i work from home", "im remote"),
        ("im fully remote", "i work from home"),
        ("i work in the office", "im on-site"),
    ],
)
def test_where_one_works_said_with_another_verb_is_said_again(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 20) == ("active", "duplicate")


def test_where_one_works_on_some_days_is_no_duplicate(store: SQLiteStore) -> None:
    assert outcome(store, "im remote", "i work from home on fridays", 20)[1] != "duplicate"
