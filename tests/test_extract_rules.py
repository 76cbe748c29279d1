"""The offline rule extractor, through the real parser: what it takes (with which text,
subject and key), what it refuses, and what it hands to the gate to refuse on record."""

from __future__ import annotations

import pytest

from credo.extract.base import Turn
from credo.extract.rules import RuleExtractor, split_clauses
from credo.gate import Candidate, check
from credo.ingest import ingest, parse_timestamp
from credo.memory import Memory
from credo.store import Store


def candidates(text: str, name: str = "The user") -> list[Candidate]:
    return RuleExtractor().extract(text, self_name=name).candidates


def stored(text: str, name: str = "The user") -> list[Candidate]:
    """What would pass the gate too."""
    return [c for c in candidates(text, name) if check(c)]


def texts(text: str, name: str = "The user") -> list[str]:
    return [c.text for c in stored(text, name)]


# -- what is taken --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected, predicate, obj",
    [
        ("I live in Berlin.", "Ana lives in Berlin.", "live_in", "Berlin"),
        (
            "I work at Reaktor on the payments team.",
            "Ana works at Reaktor on the payments team.",
            "work_at",
            "Reaktor",
        ),
        ("I'm allergic to peanuts.", "Ana is allergic to peanuts.", "be_allergic_to", "peanuts"),
        ("I don't eat meat.", "Ana doesn't eat meat.", "not_eat", "meat"),
        ("I never drink coffee.", "Ana never drinks coffee.", "not_drink", "coffee"),
        ("My editor is Helix.", "Ana's editor is Helix.", "has_editor", "Helix"),
        ("I love hiking!", "Ana loves hiking!", "love", "hiking"),
        (
            "I have three goats and a horse.",
            "Ana has three goats and a horse.",
            "have",
            "three goats and a horse",
        ),
        ("I grew up in Tampere.", "Ana grew up in Tampere.", "grow_up_in", "Tampere"),
    ],
)
def test_durable_statements_keep_the_words_and_the_key(
    text: str, expected: str, predicate: str, obj: str
) -> None:
    (cand,) = stored(text, "Ana")
    assert cand.text == expected
    assert (cand.subject, cand.predicate, cand.object) == ("Ana", predicate, obj)
    assert cand.source == "user" and cand.role == "user"


def test_the_default_speaker_is_the_user() -> None:
    assert texts("I'm a nurse.") == ["The user is a nurse."]
    assert texts("I use Helix.") == ["The user uses Helix."]


@pytest.mark.parametrize(
    "said",
    [
        "I went to Paris last year.",
        "I'm a nurse.",
        "I moved to Turku in 2023.",
        "I've added 48 papers to my reading list.",
        "I have never been to Peru.",
        # an adjective of two words, or an age, sorts the speaker: a state, not a mood
        "I'm lactose intolerant.",
        "i'm left-handed",
        "I'm 34 years old.",
        "I can't eat gluten",  # the tagger reads "gluten" as the verb
        # a name or a noun the small parser tags as an adjective or an adverb
        "My shell is Fish",
        "My favourite author is Pratchett",
        "My laptop's IP is 10.0.0.7",
        "I work at Wolt",
        "I don't like coriander",
        # "myself" is no object; a capitalised "Will" inside a sentence is a name
        "I taught myself Haskell",
        "My neighbour Will lives in Espoo",
        # what the speaker can do, and habits said without an object
        "I can ski",
        "I smoke",
        "I don't drink",
        # one of the speaker's people, by name
        "My brother Mikko is a pilot",
    ],
)
def test_ingest_keys_a_statement_as_remember_does(sqlite_store: Store, said: str) -> None:
    """One key for one sentence on both write paths: the resolver, not the extractor,
    decides what an event or a state contradicts."""
    by_remember = Memory(sqlite_store, scope="r").remember(said).fact
    ingest(Memory(sqlite_store, scope="i"), [Turn("t1", "user", said)])
    (by_ingest,) = sqlite_store.all(scope="i")
    assert by_remember is not None
    assert by_ingest.key == by_remember.key and by_ingest.object == by_remember.object


def test_two_ingested_trips_and_two_roles_all_stay_live(sqlite_store: Store) -> None:
    mem = Memory(sqlite_store, scope="ana")
    turns = [
        Turn("t1", "user", "I went to Paris last year.", parse_timestamp("2024-03-01")),
        Turn("t2", "user", "I went to Rome in May.", parse_timestamp("2024-09-01")),
        Turn("t3", "user", "I'm a nurse.", parse_timestamp("2024-09-02")),
        Turn("t4", "user", "I'm a mother of two.", parse_timestamp("2024-10-02")),
    ]
    ingest(mem, turns)
    live = sorted(f.text for f in sqlite_store.all(scope="ana") if f.is_live)
    assert live == [
        "The user is a mother of two.",
        "The user is a nurse.",
        "The user went to Paris last year.",
        "The user went to Rome in May.",
    ]


def test_relative_dates_stay_as_said_and_the_turn_time_is_the_valid_from() -> None:
    ts = parse_timestamp("10:37 am on 23 March, 2021")
    turn = Turn("D1:3", "user", "I went to a chess club yesterday.", ts, "Priya")
    (cand,) = RuleExtractor().extract_episode([turn]).candidates
    assert cand.text == "Priya went to a chess club yesterday."
    assert cand.subject == "Priya"
    assert cand.valid_from == ts and cand.derived_from == ("D1:3",)


def test_a_sentence_is_cut_into_clauses_and_each_is_judged() -> None:
    got = texts("I went to a salsa dance class yesterday and it was so calming.", "Priya")
    assert got == ["Priya went to a salsa dance class yesterday"]
    got = texts("I'm reading The Silent Orchard and hoping it'll calm me.", "Teo")
    assert got == ["Teo is reading The Silent Orchard"]
    assert split_clauses("I live in Berlin and I work at Reaktor.") == [
        "I live in Berlin",
        "I work at Reaktor.",
    ]
    assert split_clauses("My wife and I went hiking.") == ["My wife and I went hiking."]
    assert split_clauses("I'm keen on counseling - I'd love to help.") == [
        "I'm keen on counseling",
        "I'd love to help.",
    ]
    assert split_clauses("I love dairy-free cake.") == ["I love dairy-free cake."]


def test_openers_and_vocatives_are_trimmed() -> None:
    turns = [
        Turn("D1:1", "user", "Hey Ros! Yeah, I adopted a cat named Biscuit.", speaker="Priya"),
        Turn(
            "D1:2",
            "user",
            "Wow, Priya, that's great! I have two dogs, Priya!",
            speaker="Rosalind",
        ),
    ]
    cands = RuleExtractor().extract_episode(turns).candidates
    assert [(c.subject, c.text) for c in cands] == [
        ("Priya", "Priya adopted a cat named Biscuit."),
        ("Rosalind", "Rosalind has two dogs"),
    ]


def test_possessives_and_companions_are_the_speaker() -> None:
    assert texts("My goal is to give rescue dogs a quiet home.", "Priya") == [
        "Priya's goal is to give rescue dogs a quiet home."
    ]
    (fave,) = stored("Green is my favorite color.", "Priya")
    assert fave.text == "Green is Priya's favorite color." and fave.subject == "Priya"
    (event,) = stored("Marek and I went to a charity quiz.", "Kofi")
    assert event.text == "Marek and Kofi went to a charity quiz." and event.subject == "Kofi"


def test_a_named_person_of_the_conversation_is_the_subject() -> None:
    turns = [
        Turn("1", "user", "I live in Oslo.", speaker="Ada"),
        Turn("2", "user", "Ada works at the hospital.", speaker="Bo"),
    ]
    cands = RuleExtractor().extract_episode(turns).candidates
    assert [(c.subject, c.text) for c in cands] == [
        ("Ada", "Ada lives in Oslo."),
        ("Ada", "Ada works at the hospital."),
    ]


def test_a_named_thing_and_its_value() -> None:
    (cand,) = stored("The deploy target for refunds is the eu-west region.")
    # the qualifier names which deploy target: refunds' is a slot of its own
    assert cand.subject == "deploy target for refunds"
    assert cand.text == "The deploy target for refunds is the eu-west region."
    (cand,) = stored("remember that the deploy target is prod")
    assert cand.text == "The deploy target is prod" and cand.object == "prod"
    assert stored("The atmosphere was electric.") == []  # praise in the same shape


def test_a_subjectless_past_report_is_the_speakers() -> None:
    got = texts("Lost my keys at the station yesterday, so I'm gonna change the locks.", "Teo")
    assert got == ["Teo lost Teo's keys at the station yesterday"]
    assert texts("Check out my new studio.", "Teo") == []  # an imperative is not a report


def test_what_is_told_to_the_listener_keeps_the_news_about_the_speaker() -> None:
    assert texts("I told you I live in Berlin.", "Ana") == ["Ana lives in Berlin"]


# -- what is refused ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        # pronouns with nothing to refer to in the clause
        "It's downtown.",
        "They live in Oslo.",
        "He works at Google.",
        "She moved to Paris.",
        "I built it in woodwork class last week.",
        "I love their work.",
        "This charity helps older folks with paperwork.",
        # greetings, thanks and small talk
        "Hey! Good to see you.",
        "Good morning!",
        "Thanks so much, that means a lot.",
        "lol ok",
        "I agree, totally.",
        "I think so.",
        "I'm doing great, thanks.",
        "I bet they loved it.",
        # captions and suggestions
        "Here's a pic of my cousins fishing at the lake.",
        "Here is my new painting.",
        "This is my new studio.",
        "Let's go hiking next weekend.",
        # news announcements
        "I have some amazing news!",
        "Guess what!",
        "I've got something to tell you.",
        # reactions and praise
        "That's awesome!",
        "I love that!",
        "Wow, love that painting!",
        "I love the colors.",
        "It was awesome.",
        "I had a great time.",
        # questions and instructions
        "How are you doing today?",
        "Did you move to Berlin?",
        "Write me a poem about Berlin.",
        # the listener
        "You live in Berlin, right.",
        "I love your new haircut.",
        "Your painting looks amazing.",
        "I'm really proud of you.",
        # rewrites that would not be English
        "The choir has made me feel welcome.",
        "I taught myself guitar.",
    ],
)
def test_refused(text: str) -> None:
    assert stored(text, "Dave") == []


@pytest.mark.parametrize(
    "text",
    ["We moved to Lisbon last year.", "We use pytest for most tests.", "Our dog is a collie."],
)
def test_we_is_nobody_known_among_several_people_and_the_users_own_with_an_assistant(
    text: str,
) -> None:
    """Among several people, whose "we" it is the turn cannot tell (the two talking, a
    family, a team): refused. In one person's chat with an assistant it is theirs: kept
    under "we", as said, as `remember` keeps it."""
    party = [
        Turn("1", "user", "Morning Ana!", speaker="Dave"),
        Turn("2", "user", "Hi Dave, how was the weekend?", speaker="Ana"),
        Turn("3", "user", text, speaker="Dave"),
    ]
    assert RuleExtractor().extract_episode(party).candidates == []
    alone = RuleExtractor().extract_episode([Turn("1", "user", text)]).candidates
    assert [(c.text, c.subject) for c in alone] == [(text, "we")]


def test_no_second_person_or_object_pronoun_is_renamed() -> None:
    turns = [
        Turn("1", "user", "You reminded me why I'm proud of what I make.", speaker="Dave"),
        Turn("2", "user", "It reminds me why I enjoy being a teacher.", speaker="Dave"),
    ]
    assert RuleExtractor().extract_episode(turns).candidates == []


# -- handed to the gate ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, code",
    [
        ("I'm so frustrated with this build.", "affect"),
        ("I might switch to Postgres eventually.", "hedged"),
        ("I will rewrite it in Rust next year.", "speculative"),
        ("I'm so tired of this, honestly.", "affect"),
    ],
)
def test_marked_first_person_clauses_reach_the_gate_and_are_refused_there(
    text: str, code: str
) -> None:
    cands = candidates(text)
    assert cands, "handed to the gate so the refusal is on record"
    assert {check(c).code for c in cands} == {code}


def test_only_clauses_the_gate_refuses_are_handed_over() -> None:
    # "I love that" carries no marker: a reaction, dropped by the extractor itself
    assert candidates("I love that!") == []


# -- the episode ----------------------------------------------------------------------------
def test_only_user_turns_are_sources() -> None:
    turns = [
        Turn("a1", "assistant", "I live in the cloud."),
        Turn("t1", "tool", "I am a tool output."),
        Turn("u1", "user", "I live in Oulu."),
    ]
    cands = RuleExtractor().extract_episode(turns).candidates
    assert [c.derived_from for c in cands] == [("u1",)]


def test_photo_captions_are_nobodys_statement() -> None:
    text = "Look! [shares a photo: a photo of a man who lives in Paris]"
    assert candidates(text) == []


def test_suppression_requests_are_never_facts() -> None:
    assert candidates("Please don't store my address, I live at 12 Main St.") == []


def test_broad_mode_takes_more_first_person_statements() -> None:
    text = "I got ideas from all over: neighbours I know, markets, blogs."
    assert stored(text) == []
    broad = [c for c in RuleExtractor(broad=True).extract(text).candidates if check(c)]
    assert broad


def test_extraction_is_deterministic() -> None:
    text = "I live in Berlin. I'm a nurse. I love hiking!"
    assert (
        texts(text)
        == texts(text)
        == ["The user lives in Berlin.", "The user is a nurse.", "The user loves hiking!"]
    )


def test_a_value_said_in_passing_inside_a_request_is_kept_in_the_users_words() -> None:
    texts = [
        c.text
        for c in RuleExtractor()
        .extract(
            "can you help me speed up the nightly import job, which now takes 40 minutes "
            "since the schema change?"
        )
        .candidates
    ]
    assert "The nightly import job now takes 40 minutes since the schema change" in texts
    # a relative clause that gives no number is a description, not a value in passing
    assert RuleExtractor().extract("I have a dog that loves the beach").candidates[0].text == (
        "The user has a dog that loves the beach"
    )


def test_a_value_named_new_inside_a_request_is_kept_as_said() -> None:
    texts = [
        c.text
        for c in RuleExtractor()
        .extract("can you help me plan around the new release date of June 12, 2025?")
        .candidates
    ]
    assert "The new release date of June 12, 2025" in texts
    # "new" with no value of its own is not one
    assert [c.text for c in RuleExtractor().extract("I got a new pair of shoes").candidates] == [
        "The user got a new pair of shoes"
    ]


@pytest.mark.parametrize("said", ["im incredibly lucky", "I'm so happy", "i'm super excited"])
def test_a_feeling_is_no_state(said: str) -> None:
    assert (
        RuleExtractor().extract(said).candidates == []
        or not check(RuleExtractor().extract(said).candidates[0]).accepted
    )
