"""Every list of the lexicon (`credo/language/lexicon.toml`) does what it says: each of its
examples goes through `Memory.remember` (the real parser, gate and resolver, on a real
SQLite file) and ends as the example says. The lexicon is also checked as data: no word
twice in a list, no empty list, every list read by the code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from credo import Memory
from credo.embed import get_embedder
from credo.language import examples, lexicon, mapping, words
from credo.store.sqlite import SQLiteStore

DAY = 86400.0
START = 1_700_000_000.0

CASES = [
    pytest.param(name, n, example, id=f"{name}:{example['say']}")
    for name in sorted(lexicon())
    for n, example in enumerate(examples(name))
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    # the shipped model, loaded for real: rules that take the embedding as evidence (two
    # wordings of one claim, a denial of the past) are tried as users meet them
    return SQLiteStore(
        tmp_path_factory.mktemp("lexicon") / "lexicon.db", get_embedder("local:minilm")
    )


@pytest.mark.parametrize("name, n, example", CASES)
def test_each_example_does_what_its_list_says(
    store: SQLiteStore, name: str, n: int, example: dict[str, Any]
) -> None:
    mem = Memory(store, scope=f"{name}-{n}")
    for said in example.get("before", []):
        assert mem.remember(said, valid_from=START).accepted, said
    result = mem.remember(example["say"], valid_from=START + example.get("gap_days", 0) * DAY)
    got = result.relation.value if result.relation else "refused"
    assert got == example["outcome"], (name, result.why)
    if "code" in example:
        assert result.code == example["code"], (name, result.why)
    if "key" in example:
        assert (
            result.fact is not None
            and list(result.fact.key) + [result.fact.object] == (example["key"])
        )


def test_every_list_says_what_it_does_and_holds_no_word_twice() -> None:
    for name, entry in lexicon().items():
        assert entry["what"].strip(), name
        found = entry["words"]
        assert found, name
        if isinstance(found, list):
            assert len(found) == len(set(found)), name
            assert words(name) == frozenset(found)
        else:
            assert mapping(name) == found


#: lists read only where Memory.remember cannot show them by an outcome: "reporting" and
#: "newness" find values said in passing inside requests (tests/test_extract_rules.py);
#: "pronoun_subjects" refuses a subject the caller gives (tests/test_gate.py);
#: "request_stop_words" make the terms of a "don't remember ..." rule
#: (tests/test_write_path.py); the rule extractor's lists (credo/extract/rules.py) are
#: read on the ingest path, whose tests (tests/test_extract_rules.py, tests/test_ingest.py)
#: try the extractor as a whole, not list by list
WITHOUT_EXAMPLES = {
    "reporting",
    "newness",
    "pronoun_subjects",
    "request_stop_words",
    "first_person",
    "second_person",
    "we_words",
    "needs_antecedent",
    "demonstratives",
    "discourse_markers",
    "lead_words",
    "trailing_noise",
    "factive_subordinators",
    "subordinators",
    "small_talk_verbs",
    "small_talk_exceptions",
    "telling_verbs",
    "factive_verbs",
    "preference_verbs",
    "modals",
    "identity_adjectives",
    "identity_adjectives_with_object",
    "life_participles",
    "evaluative",
    "affected_participles",
    "filler_nouns",
    "reaction_nouns",
    "time_nouns",
    "trouble_nouns",
    "quantifiers",
    "be_prepositions",
    "aim_nouns",
    "favourite_words",
    "life_events",
    "activities",
    "aspectual_verbs",
    "broad_refused_verbs",
}


def test_lists_without_examples_are_few_and_named() -> None:
    # a list with no example of its own is exercised elsewhere (WITHOUT_EXAMPLES says
    # where); any other gap is a list nobody has shown working
    assert {name for name in lexicon() if not examples(name)} <= WITHOUT_EXAMPLES


def test_a_missing_list_is_a_clear_error() -> None:
    with pytest.raises(KeyError):
        words("no such list")
    with pytest.raises(TypeError, match="mapping"):
        words("typed_contractions")


def test_the_lexicon_ships_with_the_package() -> None:
    import credo.language

    assert (Path(credo.language.__file__).parent / "lexicon.toml").is_file()
