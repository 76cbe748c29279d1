"""Natural speech the write path reads since the twenty-seventh round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- praise of a thing shown ("that quilt looks gorgeous", "Porto looks stunning!", "this
  view is breathtaking") or of a kind of thing in general ("road trips are the best",
  "good friends are precious", "patience is key"), in a sentence with no word of the
  speaker's, is a reaction or a view of the world (code "affect"), not a fact about the
  user; a doing praised ("living by the sea is so calming") is most often the speaker's
  own and is kept, as are the speaker's own things ("my allotment looks amazing"), what is good for the
  speaker ("swimming is good for me"), a thing named with "the" and described ("the app
  is fast"), a bare noun of the speaker's day ("work is remote", "rent is steep") and a
  sentence of the same text that tells a fact ("That quilt looks gorgeous! I made one
  for my niece last spring.") are kept;
- two members of one exclusive group (catalogue `exclusive`: a night owl and an early
  bird, ambidextrous and left handed, a carnivore and a vegan) said of the speaker as
  holding now, in two sentences whatever keys the parser gave them, clash: a conflict the
  same day, an update later; a member denied ("sadly not a morning person"), said in the
  past ("i was vegan at uni"), of another ("my brother is vegan") or of some days ("from
  home on fridays") is no rival;
- work begun ("landed a job at the depot", "I have a new job in sales", "started working
  from a shared office") against the speaker saying they do not work ("i dont have a job
  right now", "im a stay-at-home dad", "im retired") is an update a day or more later;
  another's new job ("my wife landed a job") or a new thing that is no work is no change
  of the speaker's;
- the death of a thing the speaker has, told in a clause beside the one the key is made
  of ("the house feels empty since my rabbit died", "i havent been sleeping since my old
  budgie passed"), ends having it (an update later); another's pet, or a pet ill, does not;
- the listener's contractions typed without their apostrophe ("youve", "youll") are the
  listener's words: "You've got a real eye for colour!" tells nothing of the user;
- a sentence opening with "got" and things counted or named, said of no time ("got 3
  kids", "got two ferrets", "got a whippet called moss"), is "I've got": what the speaker
  has (keyed "have", so "i have two ferrets" is the same claim); "got a job at the
  library", "got a bike last year", "just got a puppy" stay the past they are.
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome

from credo.keys import analyse
from credo.store.sqlite import SQLiteStore

store = module_store("round27")


@pytest.mark.parametrize(
    "said",
    [
        "that quilt looks gorgeous",
        "Porto looks stunning!",
        "this view is breathtaking",
        "road trips are the best",
        "good friends are so precious.",
        "patience is key",
        "Those puppies look like a lovely bunch.",
        "That beach is really relaxing.",
    ],
)
def test_praise_of_a_thing_a_doing_or_a_kind_is_a_reaction(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said)
    assert not result.accepted and result.code == "affect", result.why


@pytest.mark.parametrize(
    "said",
    [
        "my allotment looks amazing this year",
        "swimming is good for me",
        "the app is fast",
        "work is remote",
        "rent is steep",
        "my daughter is beautiful",
        "knitting is my passion",
        "living by the sea is so calming",
        "Winning the league felt incredible!",
        "we think the new flat looks great",
    ],
)
def test_the_speakers_own_or_a_named_thing_described_is_kept(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said)
    assert result.accepted, result.why


def test_a_fact_beside_praise_in_one_text_is_kept(store: SQLiteStore) -> None:
    result = memory(store).remember(
        "That quilt looks gorgeous! I made one for my niece last spring."
    )
    assert result.accepted, result.why
    assert result.fact is not None and "niece" in result.fact.text


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        (
            "total night owl here, rarely asleep before 1",
            "up at 5 most days, always been an early bird",
            0,
            ("conflicted", "conflict"),
        ),
        (
            "im ambidextrous",
            "as a very left handed person i smudge everything i write",
            0,
            ("conflicted", "conflict"),
        ),
        (
            "i love a steak, proper carnivore",
            "went vegan over the summer",
            200,
            ("superseded", "update"),
        ),
    ],
)
def test_two_members_of_one_exclusive_group_said_of_the_speaker_clash(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert outcome(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("total night owl here", "sadly not a morning person"),
        ("my brother is vegan", "im a vegetarian"),
        ("i was vegan at uni", "i follow a pescatarian diet"),
        ("i work from home on fridays", "in the office the rest of the week"),
    ],
)
def test_a_member_denied_past_anothers_or_of_some_days_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[1] != "conflict"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i dont have a job right now", "landed a job at the depot, start monday"),
        ("im a stay-at-home dad", "I have a new job in sales, part time"),
        ("im retired", "started working a few hours a week at the library"),
    ],
)
def test_work_begun_ends_not_working(store: SQLiteStore, first: str, then: str) -> None:
    assert outcome(store, first, then, 120) == ("superseded", "update")


@pytest.mark.parametrize(
    "then",
    ["my wife landed a job at the depot", "i have a new hobby"],
)
def test_anothers_job_or_a_new_thing_is_no_change(store: SQLiteStore, then: str) -> None:
    assert outcome(store, "i dont have a job right now", then, 120)[1] != "update"


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("i have a rabbit called pip", "the house feels so empty since my rabbit died", "update"),
        ("we have a budgie", "i havent been sleeping well since my old budgie passed", "update"),
        ("i have a rabbit called pip", "i visit my aunt every day since her rabbit died", "new"),
        ("i have a rabbit called pip", "i havent slept since my rabbit got ill", "new"),
    ],
)
def test_a_death_told_beside_another_clause_ends_having_it(
    store: SQLiteStore, first: str, then: str, expected: str
) -> None:
    assert outcome(store, first, then, 60)[1] == expected


@pytest.mark.parametrize(
    "said", ["You've got a real eye for colour!", "youve got such a knack for this"]
)
def test_the_listener_said_with_a_contraction_is_the_listener(
    store: SQLiteStore, said: str
) -> None:
    result = memory(store).remember(said)
    assert not result.accepted and result.code == "listener", result.why


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("got 3 kids, all under ten", ("I", "have", "3 kids")),
        ("got two ferrets", ("I", "have", "two ferrets")),
        ("got a whippet called moss", ("I", "have", "a whippet called moss")),
    ],
)
def test_got_with_things_counted_or_named_is_had(said: str, key: tuple[str, str, str]) -> None:
    statement = analyse(said)
    assert (statement.subject, statement.predicate, statement.object)[:2] == key[:2]
    assert key[2] in (statement.object or "")


@pytest.mark.parametrize(
    "said", ["got a job at the library", "got two bikes last year", "just got a puppy"]
)
def test_got_of_a_time_or_a_thing_alone_stays_the_past(said: str) -> None:
    assert analyse(said).predicate == "get"


def test_got_said_again_is_a_duplicate(store: SQLiteStore) -> None:
    assert outcome(store, "i have two ferrets", "got 2 ferrets", 30) == ("active", "duplicate")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my brother is a doctor", "my brother is a surgeon in leeds"),
        ("we have a pet", "we have a whippet called moss"),
    ],
)
def test_who_one_is_or_a_pet_said_more_narrowly_is_a_refinement(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 20) == ("superseded", "refinement")
