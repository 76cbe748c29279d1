"""One value said with its synonym is one value (WordNet's synonym sets, shipped as data);
rival values are never synonyms. A place typed in lower case is a place when WordNet names
it, and a "we" the user says includes the user. Tried on the shipped table and through `Memory.remember`
(the real parser, gate, resolver and model) with sentences typed as people type them."""

from __future__ import annotations

import gzip
from importlib import resources

import pytest

from credo import Memory
from credo.embed import get_embedder
from credo.language.synonyms import synonymous
from credo.store.sqlite import SQLiteStore
from credo.values import same_values

START = 1_700_000_000.0


@pytest.mark.parametrize(
    "a, b",
    [
        ("husband", "hubby"),
        ("movie", "motion picture"),
        ("Motion Picture", "film"),
        ("kid", "child"),
        ("car", "automobile"),
        ("tv", "television"),
        ("usa", "united states"),
    ],
)
def test_synonyms_of_a_usual_sense(a: str, b: str) -> None:
    assert synonymous(a, b)
    assert synonymous(b, a)


@pytest.mark.parametrize(
    "a, b",
    [
        ("pear", "plum"),  # sisters under one hypernym, rival values
        ("red", "blue"),
        ("cat", "dog"),
        ("boston", "denver"),
        ("dog", "hot dog"),  # "dog" names the sausage only in a rare sense
        ("python", "python"),  # the same word is no synonym of itself
        ("", "film"),
    ],
)
def test_rival_values_are_never_synonyms(a: str, b: str) -> None:
    assert not synonymous(a, b)


def test_the_table_is_sets_of_two_or_more_lower_case_words() -> None:
    raw = resources.files("credo").joinpath("data/synonyms.txt.gz").read_bytes()
    lines = gzip.decompress(raw).decode("utf-8").splitlines()
    assert len(lines) > 40_000
    for line in lines[::97]:
        words = line.split("|")
        assert len(words) >= 2 and len(set(words)) == len(words), line
        assert all(w == w.lower() and w.strip() == w and "_" not in w for w in words), line
    licence = resources.files("credo").joinpath("data/WORDNET-LICENSE").read_text("utf-8")
    assert "Princeton University" in licence


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("my husband is a firefighter", "my hubby is a firefighter", True),
        ("i watched a motion picture about whales", "i watched a movie about whales", True),
        ("we have 2 kids", "we have two children", True),
        ("my favourite fruit is plum", "my favourite fruit is pear", False),
        ("i drive a red car", "i drive a blue automobile", False),
        ("i have a cat", "i have a dog", False),
    ],
)
def test_same_values_hears_synonyms_and_nothing_more(a: str, b: str, same: bool) -> None:
    assert same_values(a, b) is same


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    return SQLiteStore(tmp_path_factory.mktemp("synonyms") / "s.db", get_embedder())


def _then(store: SQLiteStore, first: str, then: str) -> tuple[str, int]:
    mem = Memory(store, scope=f"s{abs(hash((first, then)))}")
    a = mem.remember(first, valid_from=START)
    b = mem.remember(then, valid_from=START)
    assert a.accepted and b.accepted, (a.why, b.why)
    assert b.relation is not None
    return b.relation.value, len(mem.list())


@pytest.mark.parametrize(
    "first, then",
    [
        ("i did the lighting for a motion picture", "i did the lighting for a movie"),
        ("my kid goes to st. anne's", "my kid goes to St Annes"),  # an apostrophe left out
    ],
)
def test_a_value_said_in_other_words_is_one_fact(store: SQLiteStore, first: str, then: str) -> None:
    assert _then(store, first, then) == ("duplicate", 1)


@pytest.mark.parametrize(
    "first, then",
    [
        ("my favourite fruit is plum", "my favourite fruit is pear"),
        ("i did the lighting for a movie", "i did the lighting for a play"),
    ],
)
def test_rival_values_stay_apart(store: SQLiteStore, first: str, then: str) -> None:
    relation, facts = _then(store, first, then)
    assert relation != "duplicate"
    assert facts == 2


@pytest.mark.parametrize(
    "first, then, gap, outcome",
    [
        # a place typed in lower case is a place when English names it
        ("i live in york", "i moved to leeds", 200, "update"),
        ("i live in ohio", "we moved to north dakota last spring", 200, "update"),
        # "we" said by the user includes the user: where "we" live is where the user lives
        ("we live in bristol", "i live in cardiff now", 30, "update"),
        ("i have a dog", "we have a cat", 0, "new"),
    ],
)
def test_places_and_we(store: SQLiteStore, first: str, then: str, gap: int, outcome: str) -> None:
    mem = Memory(store, scope=f"p{abs(hash((first, then)))}")
    assert mem.remember(first, valid_from=START).accepted
    got = mem.remember(then, valid_from=START + gap * 86400)
    assert got.relation is not None and got.relation.value == outcome, got.why


@pytest.mark.parametrize(
    "said", ["we moved to kubernetes last year", "i moved to backend", "i moved to nights"]
)
def test_a_move_to_what_is_no_place_is_not_a_home(store: SQLiteStore, said: str) -> None:
    mem = Memory(store, scope=f"k{abs(hash(said))}")
    assert mem.remember("i live in leeds", valid_from=START).accepted
    got = mem.remember(said, valid_from=START + 200 * 86400)
    assert got.accepted and got.relation is not None and got.relation.value == "new", got.why
    assert any(f.text.endswith("leeds") for f in mem.list())


def test_place_names() -> None:
    from credo.language.places import is_place

    assert is_place("leeds") and is_place("North  Dakota") and is_place("são paulo")
    assert not is_place("kubernetes") and not is_place("platform") and not is_place("")


@pytest.mark.parametrize(
    "said, key",
    [
        # the tagger reads a noun as the root, or a name as an adjective
        ("The billing API deploy target is staging.", ("billing api deploy target", "is")),
        ("Maija lives in Helsinki.", ("maija", "live_in")),
    ],
)
def test_a_misread_root_or_name_still_keys(store: SQLiteStore, said: str, key: tuple) -> None:
    mem = Memory(store, scope=f"r{abs(hash(said))}")
    fact = mem.remember(said).fact
    assert fact is not None and (fact.subject, fact.predicate) == key
