"""The one key parser, on real sentences: kind, key, and the sentence to store."""

from __future__ import annotations

import pytest

from credo.keys import analyse, parse_key


@pytest.mark.parametrize(
    ("text", "subject", "predicate", "obj"),
    [
        ("Arttu deploys arttuan.com on Vercel", "Arttu", "deploy", "arttuan.com on Vercel"),
        ("The deploy target is prod", "deploy target", "is", "prod"),
        ("The deploy target for the API is prod", "deploy target for the API", "is", "prod"),
        ("my editor is Helix", "I", "has_editor", "Helix"),
        ("Arttu's editor is Helix", "Arttu", "has_editor", "Helix"),
        ("Our production database is Postgres 15", "we", "has_production_database", "Postgres 15"),
        ("I live in Berlin", "I", "live_in", "Berlin"),
        ("Arttu lives in Helsinki", "Arttu", "live_in", "Helsinki"),
        ("Anna Antikainen works at Reaktor", "Anna Antikainen", "work_at", "Reaktor"),
        ("I don't eat meat", "I", "not_eat", "meat"),
        ("I never drink coffee", "I", "not_drink", "coffee"),
        ("I no longer live in Helsinki", "I", "not_live_in", "Helsinki"),
        ("I used to live in Helsinki", "I", "not_live_in", "Helsinki"),
        ("I stopped using Vim", "I", "not_use", "Vim"),
        ("I have no pets", "I", "not_have", "pets"),
        ("I use Python 3.11", "I", "use", "Python 3.11"),
        ("I'm vegetarian", "I", "be", "vegetarian"),
        ("I'm allergic to peanuts", "I", "be_allergic_to", "peanuts"),
        ("I'm a nurse", "I", "be", "a nurse"),
        ("I was born in India", "I", "be_born_in", "India"),
        ("I am 34 years old", "I", "be_old", "34"),
        ("My standup is at 9:30", "I", "has_standup_at", "9:30"),
        ("I speak Finnish, English and German", "I", "speak", "Finnish, English and German"),
        ("I moved to Turku, Finland in 2023", "I", "move_to", "Turku, Finland"),
        ("I taught myself Rust", "I", "teach", "Rust"),
        ("The team uses Postgres", "team", "use", "Postgres"),
        # typed in lower case: a name first is still the subject
        ("tuuli lives in porvoo", "tuuli", "live_in", "porvoo"),
        ("i had asthma but its gone now", "I", "have", "asthma"),
    ],
)
def test_keys_for_the_shapes_people_use(text: str, subject: str, predicate: str, obj: str) -> None:
    parsed = parse_key(text)
    assert parsed is not None, text
    assert (parsed.subject, parsed.predicate, parsed.object) == (subject, predicate, obj)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("I never drink coffee", "The user never drinks coffee"),
        ("I never use tabs", "The user never uses tabs"),
        ("I don't eat meat", "The user doesn't eat meat"),
        ("I can't eat gluten", "The user can't eat gluten"),
        ("I no longer live in Helsinki", "The user no longer lives in Helsinki"),
        ("I stopped using Vim", "The user stopped using Vim"),
        ("I used to live in Helsinki", "The user used to live in Helsinki"),
        ("I speak Finnish, English and German", "The user speaks Finnish, English and German"),
        (
            "I'm not a fan of meetings before 10:00",
            "The user is not a fan of meetings before 10:00",
        ),
        ("My standup is at 9:30", "The user's standup is at 9:30"),
        ("I've been vegan since 2019", "The user has been vegan since 2019"),
        (
            "I love hiking and I cook every Sunday",
            "The user loves hiking and the user cooks every Sunday",
        ),
        ("My wife and I live in Oslo", "The user's wife and the user live in Oslo"),
        ("I taught myself Rust", "The user taught themselves Rust"),
        ("I'm left-handed", "The user is left-handed"),
        ("I both teach and do research", "The user both teaches and does research"),
        ("I live in Oslo and work at Reaktor", "The user lives in Oslo and works at Reaktor"),
        ("I like hiking and chess", "The user likes hiking and chess"),
        ("I LIVE IN BERLIN", "The user LIVES IN BERLIN"),  # the verb as it was written
        ("I AM A NURSE", "The user IS A NURSE"),
    ],
)
def test_first_person_is_named_with_the_verb_inflected(text: str, stored: str) -> None:
    assert analyse(text).text == stored


@pytest.mark.parametrize(
    "text",
    [
        "Our docs live at https://docs.example.org/v2",
        "The API lives at https://api.example.com/v1?x=1&y=2.",
        "Standup is at 9:30, not 9:45!",
        "Arttu deploys arttuan.com on Vercel",
        "The build uses Node 20.11.1 (LTS) — see README.md",
    ],
)
def test_sentences_without_a_first_person_are_kept_byte_for_byte(text: str) -> None:
    found = analyse(text)
    assert found.text == text and not found.rewritten


def test_the_scope_subject_names_the_speaker() -> None:
    assert analyse("I live in Berlin", self_name="Arttu").text == "Arttu lives in Berlin"
    assert analyse("my editor is Helix", self_name="Arttu").text == "Arttu's editor is Helix"


def test_remember_wrappers_are_not_part_of_the_fact() -> None:
    found = analyse("Remember that my birthday is on 3 May")
    assert found.text == "The user's birthday is on 3 May"
    assert (found.predicate, found.object) == ("has_birthday_on", "3 May")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Where does Arttu live?", "question"),
        ("What is my editor", "question"),
        ("Can you remind me to call mom", "instruction"),
        ("Write me a poem about cats", "instruction"),
        ("Please summarize this thread", "instruction"),
        ("Let's use Postgres", "instruction"),
        ("I live in Berlin", "statement"),
        ("ok", "fragment"),
    ],
)
def test_the_kind_of_utterance(text: str, kind: str) -> None:
    assert analyse(text).kind == kind


@pytest.mark.parametrize("text", ["nice weather", "Where does Arttu live?", "ok", ""])
def test_no_key_when_there_is_no_statement(text: str) -> None:
    assert parse_key(text) is None


def test_a_pronoun_subject_is_marked_as_needing_an_antecedent() -> None:
    found = analyse("It runs on port 8080")
    assert found.pronoun_subject
    assert not analyse("Arttu runs on coffee").pronoun_subject


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        (
            "The choir has made me feel welcome",
            "The choir has made Ana feel welcome",
        ),  # "me" is no subject to inflect for
        ("I need some me-time", "I need some me-time"),  # a word of its own: stored as said
        ("I wanna help people", "I wanna help people"),  # no third person of "wanna"
        ("Last week I retook the test", "Last week Ana retook the test"),  # a past form
        ("I quit smoking", "I quit smoking"),  # past or present: stored as said
        ("I read a lot", "I read a lot"),
        ("I quit smoking in 2019", "Ana quit smoking in 2019"),  # said with a past time
    ],
)
def test_rewrites_that_cannot_be_made_correctly_are_not_made(text: str, stored: str) -> None:
    assert analyse(text, self_name="Ana").text == stored


def test_predicates_use_the_verbs_base_form() -> None:
    assert analyse("I am hoping to win").predicate == "hope"
    assert analyse("I blog about food").predicate == "blog_about"


def test_a_couple_typed_in_lower_case_is_the_user_too() -> None:
    """ "tuuli and i got engaged": the parser reads a lower-case name first as a verb's
    object unless it is read with its capital; the user is in the couple."""
    parsed = parse_key("tuuli and i got engaged last week")
    assert parsed is not None
    assert parsed.subject == "I"
    assert "engaged" in f"{parsed.predicate} {parsed.object}"


def test_a_relation_of_something_owned_is_canonical_in_its_verb() -> None:
    from credo.predicates import shipped

    catalogue = shipped()
    assert catalogue.canonical("brother_move_to") == ("brother_live_in", False)
    assert catalogue.canonical("aunt_hate") == ("aunt_like", True)
    # a word clipped or spelt another way in chat is compared as the word it stands for
    assert (
        catalogue.canonical("mum_hate") == catalogue.canonical("mom_hate") == ("mother_like", True)
    )
    assert catalogue.canonical("dad_hate") == ("father_like", True)
    assert catalogue.one_valued("sister_work_at")
    assert not catalogue.one_valued("sister_like")
    assert catalogue.canonical("has_daily_standup_at") == ("has_daily_standup_at", False)


@pytest.mark.parametrize(
    ("bare", "with_for"),
    [
        ("i have been married eleven years", "ive been married for eleven years"),
        ("my folks have been wed 41 years", "my folks have been wed for 41 years"),
        ("ive worked there 10 years", "i have worked there for 10 years"),
    ],
)
def test_how_long_is_no_value_with_or_without_for(bare: str, with_for: str) -> None:
    """A counted span of time ("six years", "for six years") says how long, not what: the
    two spellings give one key, so that one is the other said again."""
    a, b = analyse(bare), analyse(with_for)
    assert (a.subject, a.predicate, a.object) == (b.subject, b.predicate, b.object)
    assert "year" not in (a.object or "")
