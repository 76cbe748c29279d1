"""Natural speech the write path reads since the eleventh round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file.
Every sentence is invented for the class it stands for.

An opening clause of grounds ("since i moved to oslo", "because im allergic to nuts")
that no comma closes is read apart from the main clause, as it is when a comma parts
them: each is stored in the user's words, never run together into one sentence that
says neither."""

from __future__ import annotations

import pytest
from speech_pairs import T0, memory, module_store, pair

from credo.store.sqlite import SQLiteStore

store = module_store("round11")


def stored(store: SQLiteStore, said: str) -> list[str]:
    result = memory(store).remember(said, valid_from=T0)
    return [r.fact.text for r in (result, *result.also) if r.accepted and r.fact is not None]


@pytest.mark.parametrize(
    ("said", "reason", "main"),
    [
        (
            "since i moved to oslo ive been cold, any jacket tips?",
            "The user moved to oslo",
            "The user has been cold",
        ),
        (
            "because im allergic to shellfish i never order paella, what else is good in valencia?",
            "The user is allergic to shellfish",
            "The user never orders paella",
        ),
        (
            "since we switched to postgres our reports run faster, any tips on indexes?",
            "we switched to postgres",
            "our reports run faster",
        ),
    ],
)
def test_a_reason_with_no_comma_before_a_question_is_its_own_clause(
    store: SQLiteStore, said: str, reason: str, main: str
) -> None:
    texts = stored(store, said)
    assert reason in texts
    # the two clauses are never run together with their "since" / "because" left out
    assert not any(reason in t and main in t for t in texts)


@pytest.mark.parametrize(
    "said",
    [
        "since i moved to leeds last year ive been cycling to work",
        "since i moved to york i walk everywhere",
        "after i quit smoking i gained weight",
    ],
)
def test_a_reason_with_no_comma_is_kept_as_said_or_apart(store: SQLiteStore, said: str) -> None:
    texts = stored(store, said)
    assert texts
    for text in texts:
        words = text.lower().split()
        opener = said.split()[0]
        # whole, its opener kept; or one clause alone
        assert words[0] == opener or len(words) < len(said.split())
        if words[0] == opener:
            assert len(texts) == 1


def test_a_reason_after_the_main_clause_stays_with_it(store: SQLiteStore) -> None:
    # "since" after the main clause says when the state began: one statement
    assert stored(store, "i have walked everywhere since i moved to york") == [
        "The user has walked everywhere since the user moved to york"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "whats a good age to start piano",  # "what" the subject of the main verb, no "?"
        "which is cheaper to run, a heat pump or a boiler",
        "how to get rid of fruit flies",  # a question word, "to" and a verb
        "how often should a boiler be serviced",  # "how" and its measure, then the verb
        "how much is a passport renewal these days",
        "can cats eat cheese",  # a verb put before a noun subject
        "does the tumble dryer use much power",
    ],
)
def test_a_question_typed_without_its_question_mark_asserts_nothing(
    store: SQLiteStore, said: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code == "question"


@pytest.mark.parametrize(
    ("said", "text"),
    [
        # a question word opening a clause the sentence is about, or of time or place
        ("what i miss most is the sea", "what the user misses most is the sea"),
        ("when i was 9 i broke my wrist", "when the user was 9 the user broke the user's wrist"),
        ("how i met my husband is a funny story", None),
    ],
)
def test_a_question_word_that_asks_nothing_leaves_a_statement(
    store: SQLiteStore, said: str, text: str | None
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.code != "question"
    if text is not None:
        assert result.accepted and result.fact is not None and result.fact.text == text


@pytest.mark.parametrize(
    "said", ["thanks so much!", "thank you so much", "got it, thanks", "sounds good", "thx"]
)
def test_thanks_and_acknowledgements_are_no_facts(store: SQLiteStore, said: str) -> None:
    # "thanks so much!" was stored as "so much!": what was left once the thanks was trimmed
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code in ("vague", "too_short")


@pytest.mark.parametrize(
    ("said", "kept", "asked"),
    [
        ("my partner is deaf, whats a good app to learn bsl with", "is deaf", "app"),
        ("our main db is postgres 15, whats the best backup tool", "postgres 15", "backup"),
        ("im 6 foot 5, any tips for sleeping on planes", "6 foot 5", "tips"),
    ],
)
def test_a_question_without_its_mark_is_not_kept_in_the_fact(
    store: SQLiteStore, said: str, kept: str, asked: str
) -> None:
    texts = stored(store, said)
    assert any(kept in t for t in texts)
    assert not any(asked in t for t in texts)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a kind of person WordNet knows, though no word list here names it
        ("as a lefty, what acoustic guitar should i get?", "The user is a lefty"),
        ("as a wheelchair user, which museums in york are step free?", "wheelchair user"),
        ("being an introvert, how do i network at conferences?", "The user is an introvert"),
        ("as a beginner runner, how far should i go?", "The user is a beginner runner"),
    ],
)
def test_as_a_kind_of_person_says_who_the_speaker_is(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert any(kept in t for t in stored(store, said))


@pytest.mark.parametrize(
    "said",
    [
        "as a result of the move, whats the best way to ship a piano",
        "as a rule, which wine goes with fish?",
    ],
)
def test_as_a_thing_that_is_no_person_says_nothing_of_the_speaker(
    store: SQLiteStore, said: str
) -> None:
    assert stored(store, said) == []


def test_a_question_before_a_statement_leaves_the_statement(store: SQLiteStore) -> None:
    assert stored(store, "any tips for sleeping on planes, im 6 foot 5") == ["The user is 6 foot 5"]


@pytest.mark.parametrize(
    ("noun", "person"),
    [
        ("nurse", True),
        ("Vegetarian", True),
        ("computer  user", True),
        ("night owl", True),
        ("dog", False),  # its first sense an animal
        ("python", False),  # a snake first
        ("result", False),
        ("einstein", False),  # one person's name, not a kind
    ],
)
def test_kinds_of_person_come_from_wordnet(noun: str, person: bool) -> None:
    from credo.language.persons import is_kind_of_person

    assert is_kind_of_person(noun) is person


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "been gluten free 3 yrs now, any tips for eating out?",
            # its "I've" left out, read and stored with it since the twenty-first round
            "The user has been gluten free 3 yrs now",
        ),
        ("single mum of twins, quick dinner ideas pls", "single mum of twins"),
        ("pescatarian since uni. best fish for a barbecue?", "pescatarian since uni"),
    ],
)
def test_a_fragment_saying_who_the_speaker_is_before_a_question_is_kept_as_said(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert stored(store, said) == [kept]


@pytest.mark.parametrize(
    "said",
    ["quick question, how do i reset my router?", "on a budget, what laptop should i get?"],
)
def test_an_opening_that_says_nothing_of_the_speaker_is_not_kept(
    store: SQLiteStore, said: str
) -> None:
    assert stored(store, said) == []


@pytest.mark.parametrize(
    ("said", "value"),
    [
        # the parse hangs the version on the verb: it is still the value's
        ("prod runs postgres 15", "postgres 15"),
        ("staging runs redis 7 on fly", "redis 7 on fly"),
    ],
)
def test_a_version_after_the_thing_is_part_of_the_value(
    store: SQLiteStore, said: str, value: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert result.accepted and result.fact is not None and result.fact.object == value


def test_two_versions_of_one_thing_the_same_day_are_flagged(store: SQLiteStore) -> None:
    status, relation = pair(store, "prod runs postgres 15", "prod db is postgres 13", 0)
    assert (status, relation) == ("conflicted", "conflict")


@pytest.mark.parametrize(
    ("first", "then", "gap", "expected"),
    [
        # a thing one has or plays, named more narrowly: the old claim follows from the new
        ("i have a cat", "i have a tabby", 20, ("superseded", "refinement")),
        ("i own a car", "i own a hatchback now", 200, ("superseded", "refinement")),
        (
            "i play an instrument",
            "i play the oboe in a wind band",
            30,
            ("superseded", "refinement"),
        ),
        # not: broader, one more, one of many, a habit's kind, what one is
        ("i have a tabby", "i have a cat", 20, ("active", "new")),
        ("i have a cat", "i also have a tabby", 20, ("active", "new")),
        ("i have cats", "i have a tabby", 20, ("active", "new")),
        ("i drink wine", "i drink rioja", 20, ("active", "new")),
    ],
)
def test_a_thing_named_more_narrowly_refines_it(
    store: SQLiteStore, first: str, then: str, gap: int, expected: tuple[str, str]
) -> None:
    assert pair(store, first, then, gap) == expected


@pytest.mark.parametrize(
    ("narrow", "broad", "kind"),
    [
        ("husky", "dog", True),
        ("oboe", "instrument", True),
        ("hatchback", "car", True),
        ("dog", "husky", False),
        ("dog", "dog", False),
        ("cobra", "language", False),
        # a snake first in WordNet, and a programming language by the table of products
        ("python", "language", True),
    ],
)
def test_kinds_come_from_wordnet(narrow: str, broad: str, kind: bool) -> None:
    from credo.language.kinds import is_a_kind_of

    assert is_a_kind_of(narrow, broad) is kind


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("idk if i still want to be a lawyer", "hedged"),  # what one does not know is so
        ("i dont know whether i like my new flat", "hedged"),
        ("no idea if my landlord will renew", "hedged"),
        ("im wondering what to cook tonight", "speculative"),  # a question told
        ("hoping to run a marathon in the spring", "speculative"),
        ("im moving to york in march", "speculative"),  # "im" reads "i am"
    ],
)
def test_hedges_and_plans_typed_without_apostrophes(
    store: SQLiteStore, said: str, code: str
) -> None:
    result = memory(store).remember(said, valid_from=T0)
    assert not result.accepted and result.code == code


@pytest.mark.parametrize(
    "said", ["i dont know anyone in york", "im a paramedic", "ive lived in york for 10 years"]
)
def test_facts_typed_without_apostrophes_stay_facts(store: SQLiteStore, said: str) -> None:
    assert memory(store).remember(said, valid_from=T0).accepted


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a request first, then a statement after its comma: the statement is kept
        ("write a speech for my sister, she's a midwife in hull", "sister is a midwife in hull"),
        ("make me a packing list for our tent, it's a 6 berth from 2019", "our tent is a 6 berth"),
    ],
)
def test_a_statement_after_a_request_and_its_comma_is_kept(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert any(kept in t for t in stored(store, said))


def test_a_request_of_several_things_keeps_nothing(store: SQLiteStore) -> None:
    assert stored(store, "buy oat milk, eggs, bread") == []


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("i swim 3x a week", "i swim 3 times a week"),
        ("meds 2x/day", "meds 2 times/day"),
        ("twice a month", "2 times a month"),
        ("once a year", "1 time a year"),
        ("i once lived in oslo", "i once lived in oslo"),  # not how often
        ("a 4x4 and 2x speed", "a 4x4 and 2x speed"),
    ],
)
def test_how_often_is_read_however_typed(typed: str, read: str) -> None:
    from credo.values import in_digits

    assert in_digits(typed) == read


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # the question first, typed without "?", then a statement of the speaker's
        ("whats a good name for our new kitten, she's a ragdoll", "our new kitten is a ragdoll"),
        ("which payroll app works with xero, we're a team of 8", "we're a team of 8"),
    ],
)
def test_a_question_without_its_mark_then_a_statement(
    store: SQLiteStore, said: str, kept: str
) -> None:
    assert stored(store, said) == [kept]


@pytest.mark.parametrize(
    "said",
    ["my anniversary's 9 may, what flowers are traditional", "my due date's 3 june, what sign"],
)
def test_a_piece_of_the_speaker_beside_a_question_is_not_lost(
    store: SQLiteStore, said: str
) -> None:
    # kept on its own, or whole as said where the reading of clauses does not part it
    # from the question; never lost with the question
    date = said.split(",")[0].split("'s ")[1]
    assert any(date in t for t in stored(store, said))


def test_what_a_sentence_is_about_is_no_question(store: SQLiteStore) -> None:
    assert stored(store, "what music i like is jazz") == ["what music the user likes is jazz"]


def test_a_relative_clause_after_a_comma_is_no_question(store: SQLiteStore) -> None:
    said = "im trying to speed up our build, which has recently dropped to 4 minutes"
    result = memory(store).remember(said, valid_from=T0)
    assert result.code != "question"
