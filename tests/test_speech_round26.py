"""Natural speech the write path reads since the twenty-sixth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- not drinking, said as a state ("im teetotal", "ive been sober for years") or as the verb
  alone ("i dont drink": alcohol, lexicon "bare_senses"), is gainsaid by a drink of
  alcohol, drunk or had ("had a couple of beers at the match", "drank a bottle of rum"),
  as a vegan is by a meat eaten or had: one time it was done, told in the past, is a
  conflict at any gap (one lapse ends no state, and the state does not undo it), and so
  is any drinking against "i dont drink" with no word of change (as "i dont smoke" / "i
  smoke 5 a day" is); "started
  having the odd beer again" says it changed (an update at a gap); a drink of another
  thing ("a flat white"), another's drinking or a drink one keeps ("i have a bottle of
  rum at home") is no rival, nor is a drink told before
  a state said begun since ("had a few beers at the wedding" / "i dont drink anymore":
  what was done stays done);
- a state toward things denied of all of them ("i dont have any allergies", "i have no
  allergies": allergic to anything) or of a kind ("no drug allergies", "not allergic to
  any drugs"), against the same state toward one of them ("allergic to penicillin", of
  the kind by WordNet), either way round, is a conflict at any gap with no word of
  change; a denial of another kind ("no food allergies") or of one other thing ("not
  allergic to dogs") is no rival;
- one of the speaker's one-held relatives (a mother, a father, a partner) given two names
  ("my husband is called mark" / "my husband steve keeps snoring", "my mums name is
  karen" / "my mum linda lives in spain", "my wife, sarah, works ..."), either way round,
  whatever keys the two got, is a conflict at any gap with no word of change ("my
  boyfriend now is sam" a year on is an update); a name said more fully, a sister (one
  of several), or a day after the relative ("i see my dad Sunday") is no rival;
- a count changed to a number of things said with a broader word for them ("theres 6
  devs on my team" / "my team has now reached 11 people", "40 employees" / "grown to 55
  people": counts of people, by WordNet) is the same count moved (an update at a gap); a
  count of other things ("6 devs" / "grown to 3 testers") is not;
- a doing said as the subject of what it does to the speaker ("paying 1450 rent every
  month is killing me", "working two jobs is wearing me down") is the speaker's doing,
  keyed as "i pay 1450 rent every month" (stored as said): another rent said the same
  day is a conflict; a view of anyone's doing ("eating meat is wrong") or a doing with
  its own doer ("my son starting school is stressing me out") is not the speaker's;
- a text about the one spoken to, with no word of the speaker's ("You're such a natural
  at this!", "glad your daughter got the flat"), or with no key and speaking to them
  ("go easy and have a lovely rest of your evening"), is refused ("listener"): it tells
  nothing of the user ("you know i adore jazz clubs", "thank you, been vegan 8 years", "as
  you know, still in leeds" do); a text with no key that names neither the speaker nor
  any thing, said in a plain or present verb, as praise or as an answer ("Speak soon.",
  "Sounds fab!", "Wow, brilliant!", "Absolutely!"), is refused as vague, while a
  state with its "I'm" left out ("pregnant again", "not working at the moment") names the
  speaker; a text of several sentences none of which is a fact alone ("Laters! Speak
  soon.") is refused whole, while one that holds a fact, or a sentence that points back
  to the one before ("I own a greyhound. She is called Pip."), is judged as one (a first
  sentence has none to point back to: "That's brilliant, Ola! Keep at it."); "and thanks"
  is thanks; a verb opening the text with the speaker after it ("Let me hear how the move
  went!") asks, however it is cased ("Love me some tacos" tells);
"""

from __future__ import annotations

import pytest
from speech_pairs import memory, module_store, outcome

from credo.keys import analyse
from credo.store.sqlite import SQLiteStore

store = module_store("round26")


@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("i dont drink", "had a couple of beers at the match yesterday", 0),
        ("ive been sober for four years", "we had a bottle of wine with dinner last night", 0),
        ("im teetotal", "drank half a bottle of rum at the party", 90),
        ("i dont drink", "had three pints of lager on friday", 40),
        ("i dont drink", "i drink a cold beer most nights", 100),
        ("im a vegan", "had a bacon sandwich for breakfast", 0),
    ],
)
def test_not_drinking_is_gainsaid_by_a_drink_of_alcohol(
    store: SQLiteStore, first: str, then: str, gap: int
) -> None:
    assert outcome(store, first, then, gap) == ("conflicted", "conflict")


def test_taking_it_up_again_is_a_change(store: SQLiteStore) -> None:
    assert outcome(store, "i dont drink", "started having the odd beer again", 300) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("i dont drink", "had a flat white with my sister on saturday"),
        ("ive been sober for two years", "my husband drinks a lot of beer"),
        ("im teetotal", "i drink gallons of green tea"),
        ("had a few beers at the wedding", "i dont drink anymore"),
        ("i dont drink", "i have a bottle of rum at home for guests"),
    ],
)
def test_a_drink_of_another_thing_or_anothers_drinking_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[0] == "active"


@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("i dont have any allergies", "im allergic to wasp stings", 0),
        ("im allergic to cats", "i have no allergies, can i get a kitten", 30),
        ("im allergic to penicillin", "i have no drug allergies", 0),
        ("i have a penicillin allergy", "im not allergic to any drugs", 200),
        ("im not scared of anything", "im really scared of spiders", 0),
    ],
)
def test_a_state_denied_of_all_or_of_a_kind_is_gainsaid_by_one(
    store: SQLiteStore, first: str, then: str, gap: int
) -> None:
    assert outcome(store, first, then, gap) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("im allergic to penicillin", "i dont have any food allergies"),
        ("im allergic to cats", "im not allergic to dogs"),
        ("my son has no allergies", "im allergic to hazelnuts"),
    ],
)
def test_a_denial_of_another_kind_or_thing_or_of_anothers_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[0] == "active"


@pytest.mark.parametrize(
    ("first", "then", "gap"),
    [
        ("my husband is called mark", "my husband steve keeps snoring, any ideas", 0),
        ("my mums name is karen", "my mum linda lives in spain", 0),
        ("my wife is called jo", "my wife, sarah, works at the post office", 60),
        ("my dad alan is a retired plumber", "my dads name is geoff", 0),
    ],
)
def test_a_one_held_relative_given_two_names_is_a_conflict(
    store: SQLiteStore, first: str, then: str, gap: int
) -> None:
    assert outcome(store, first, then, gap) == ("conflicted", "conflict")


def test_a_partner_named_anew_with_a_word_of_change_is_an_update(store: SQLiteStore) -> None:
    assert outcome(store, "my boyfriend is called tom", "my boyfriend now is sam", 300) == (
        "superseded",
        "update",
    )


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("my husband is called mark", "my husband mark evans is a chef"),
        ("my sister is called amy", "my sister beth lives in leeds"),
        ("my dad is called bob", "i see my dad Sunday for lunch"),
    ],
)
def test_a_fuller_name_a_sibling_or_a_day_is_no_rival(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 0)[0] == "active"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("theres 6 devs on my team", "my team has now reached 11 people"),
        ("our startup has 40 employees", "our startup has grown to 55 people"),
    ],
)
def test_a_count_said_with_a_broader_word_is_the_same_count(
    store: SQLiteStore, first: str, then: str
) -> None:
    assert outcome(store, first, then, 120) == ("superseded", "update")


def test_a_count_of_other_things_is_no_rival(store: SQLiteStore) -> None:
    assert outcome(store, "my team has 6 devs", "my team has grown to 3 testers", 120)[0] == (
        "active"
    )


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("paying 1450 rent every month is killing me", ("has_rent", "1450")),
        ("working two jobs is wearing me down", ("work", "two jobs")),
        ("living with my in-laws is driving us mad", ("live_with", "my in-laws")),
    ],
)
def test_a_doing_said_as_what_wears_the_speaker_is_theirs(said: str, key: tuple[str, str]) -> None:
    read = analyse(said)
    assert (read.subject, read.predicate, read.object) == ("I", *key)


@pytest.mark.parametrize(
    ("said", "not_read_as"),
    [("eating meat is wrong", "eat"), ("my son starting school is stressing me out", "start")],
)
def test_a_view_or_anothers_doing_is_not_the_speakers(said: str, not_read_as: str) -> None:
    assert analyse(said).predicate != not_read_as


def test_a_rent_that_wears_the_speaker_is_their_rent(store: SQLiteStore) -> None:
    assert outcome(
        store, "my rent is 1200 a month", "paying 1450 rent every month is killing me", 0
    ) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("You're such a natural at this, honestly!", "listener"),
        ("wow you nailed that interview", "listener"),
        ("Glad your daughter got the flat, Ola.", "listener"),
        ("Speak soon.", "vague"),
        ("Yeah, keep at it!", "instruction"),
        ("Sounds fab!", "vague"),
        ("Wow, brilliant! And cheers. Means loads.", "vague"),
        ("Go easy and have a lovely rest of your evening.", "listener"),
        ("Let me hear how the move went!", "instruction"),
        ("Absolutely!", "vague"),
        ("That's brilliant, Ola! Keep at it.", "ungrounded"),
    ],
)
def test_chat_that_tells_nothing_of_the_user_is_refused(
    store: SQLiteStore, said: str, code: str
) -> None:
    result = memory(store).remember(said)
    assert not result.accepted and result.code == code, result.why


@pytest.mark.parametrize(
    "said",
    [
        "you know i adore jazz clubs",
        "I own a greyhound. She is called Pip.",
        "Speak soon! I start at the new bakery on monday.",
        "sites deployed on vercel",
        "thank you, been vegan 8 years",
        "as you know, still in leeds",
        "pregnant again",
        "not working at the moment",
    ],
)
def test_a_text_that_tells_something_of_the_user_is_kept(store: SQLiteStore, said: str) -> None:
    result = memory(store).remember(said)
    assert result.accepted, result.why
