"""Recall of what a question names (issue 25, part 3): when a query names a person, that
person's facts are ranked by how well they answer the question, not by how short they are
or where they sit in the store, and near-identical facts do not crowd out the one that
answers. Through the real `Memory`: a SQLite file and the shipped `local:minilm` model.

The store is one user's memory of herself and five people around her (invented), with
several facts about one friend, a few of them near-identical."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from credo.embed import get_embedder
from credo.fact import Fact
from credo.memory import Memory
from credo.recall import named_in
from credo.store.sqlite import SQLiteStore

NOW = 1_767_225_600.0  # 2026-01-01

FACTS = (
    # the user
    "I work as a nurse on the children's ward.",
    "I live in Tampere.",
    "My favourite food is pho.",
    "I run a half marathon every autumn.",
    "I am allergic to penicillin.",
    "I drive a green Skoda Octavia.",
    "I play the piano.",
    "My birthday is on 14 March.",
    "I speak Finnish, Swedish and some German.",
    "I'm learning to knit.",
    "I have two kids, Eetu and Aino.",
    "I'm training for a marathon in the spring.",
    "I volunteer at the library on Thursdays.",
    "My husband is called Mikko.",
    "I'm afraid of spiders.",
    # Arttu, an old friend: many facts, short ones and near-identical ones
    "Arttu is my oldest friend from school.",
    "Arttu lives in Turku.",
    "Arttu is from Oulu.",
    "Arttu works as a software developer at a bank.",
    "Arttu is vegetarian.",
    "Arttu is left-handed.",
    "Arttu is an introvert.",
    "Arttu is learning Japanese.",
    "Arttu is learning Japanese for a trip to Osaka.",
    "Arttu is learning Japanese on Duolingo.",
    "Arttu loves hiking.",
    "Arttu loves hiking in Lapland.",
    "Arttu loves going hiking in the fells.",
    "Arttu has two cats called Muru and Nappi that he adopted from a shelter.",
    "Arttu has a brother called Ville.",
    "Arttu had a dog as a child.",
    "Arttu grew up with a dog.",
    "Arttu has a summer cottage in Savonlinna.",
    "Arttu has a vinyl record collection.",
    "Arttu's birthday is on 2 June.",
    "Arttu plays football on Tuesdays.",
    "Arttu is afraid of flying.",
    "Arttu supports Ilves in ice hockey.",
    "Arttu drinks his coffee black.",
    # Maija, the user's sister
    "Maija is my younger sister.",
    "Maija lives in Helsinki.",
    "Maija studies law at the University of Helsinki.",
    "Maija has a golden retriever named Otso.",
    "Maija is getting married next summer.",
    "Maija's fiance is called Daniel.",
    "Maija is lactose intolerant.",
    "Maija plays the violin.",
    "Maija's favourite band is Nightwish.",
    # Jonas, a colleague
    "Jonas is a doctor on my ward.",
    "Jonas moved here from Germany.",
    "Jonas has three children.",
    "Jonas commutes to work by bike.",
    "Jonas is training for a triathlon.",
    "Jonas keeps bees in his garden.",
    # Leena, the user's mother
    "Leena is my mother.",
    "Leena lives in Kuopio.",
    "Leena is retired; she was a teacher.",
    "Leena has diabetes.",
    "Leena loves gardening.",
    "Leena has a parrot named Kaapo.",
    "Leena calls me every Sunday.",
    # Pekka, a neighbour
    "Pekka is my neighbour.",
    "Pekka has a sauna in his back yard.",
    "Pekka repairs old cars.",
    "Pekka has a rabbit.",
    "Pekka is a drummer in a blues band.",
)

CATS = "Arttu has two cats called Muru and Nappi that he adopted from a shelter."

#: a question naming someone, and the fact that answers it
QUESTIONS = (
    ("does arttu have pets", CATS),
    ("what pets does Arttu have", CATS),
    ("does Arttu have any siblings", "Arttu has a brother called Ville."),
    ("where does Arttu live", "Arttu lives in Turku."),
    ("what does Arttu do for a living", "Arttu works as a software developer at a bank."),
    ("does Arttu eat meat", "Arttu is vegetarian."),
    ("when is Arttu's birthday", "Arttu's birthday is on 2 June."),
    ("which sport does Arttu play", "Arttu plays football on Tuesdays."),
    ("is Arttu scared of anything", "Arttu is afraid of flying."),
    ("does Maija have pets", "Maija has a golden retriever named Otso."),
    ("who is Maija marrying", "Maija's fiance is called Daniel."),
    ("what instrument does Maija play", "Maija plays the violin."),
    ("does Jonas have kids", "Jonas has three children."),
    ("how does Jonas get to work", "Jonas commutes to work by bike."),
    ("does Leena have a pet", "Leena has a parrot named Kaapo."),
    ("does Pekka have animals", "Pekka has a rabbit."),
    # "my" names the user, whose facts are ranked like the others: "my mother" asks of her
    ("does my mother have any health problems", "Leena has diabetes."),
    ("what does my sister study", "Maija studies law at the University of Helsinki."),
    ("how many kids does my colleague Jonas have", "Jonas has three children."),
    ("what is my job", "The user works as a nurse on the children's ward."),
    ("what car do I drive", "The user drives a green Skoda Octavia."),
)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path: Path = tmp_path_factory.mktemp("named") / "credo.db"
    store = SQLiteStore(path, get_embedder("local:minilm"))
    m = Memory(store, scope="sanna", clock=lambda: NOW)
    for n, text in enumerate(FACTS):
        assert m.remember(text, valid_from=NOW - 86400 * (len(FACTS) - n)).accepted, text
    try:
        yield m
    finally:
        store.close()


def _rank(mem: Memory, query: str, answer: str, k: int) -> int | None:
    texts = [h.fact.text for h in mem.recall(query, k=k)]
    return texts.index(answer) + 1 if answer in texts else None


def test_the_store_holds_many_facts_about_arttu(mem: Memory) -> None:
    arttu = mem.list(subject="arttu", limit=100)
    assert len([f for f in arttu if f.is_live]) > 10  # more than any k below


@pytest.mark.parametrize(("query", "answer"), QUESTIONS)
def test_the_fact_that_answers_a_question_naming_someone_is_in_the_top_3(
    mem: Memory, query: str, answer: str
) -> None:
    rank = _rank(mem, query, answer, k=3)
    assert rank is not None, f"{query!r}: {answer!r} not in the top 3"


@pytest.mark.parametrize("k", [3, 10, 30])
def test_does_arttu_have_pets_finds_the_cats_at_every_k(mem: Memory, k: int) -> None:
    for query in ("does arttu have pets", "Does Arttu have any pets?"):
        rank = _rank(mem, query, CATS, k=k)
        assert rank is not None and rank <= 3, (query, k, rank)


def test_the_user_has_more_facts_than_the_answers_hold(mem: Memory) -> None:
    assert len(mem.list(subject="user", limit=100)) > 10


@pytest.mark.parametrize("k", [3, 10])
def test_the_users_own_facts_do_not_crowd_out_what_my_mother_asks(mem: Memory, k: int) -> None:
    hits = mem.recall("does my mother have any health problems", k=k)
    assert "Leena has diabetes." in [h.fact.text for h in hits]
    assert hits[0].fact.subject == "leena"


#: imported chat turns (no resolver on this path): one plan told twice in other words
TURNS = (
    ("arttu", "Arttu: Next month I'm flying to Japan for two weeks!"),
    ("arttu", "Arttu: I'm flying to Japan next month, for two weeks!"),
    ("arttu", "Arttu: I booked a ryokan in Kyoto for the trip."),
    ("sanna", "Sanna: My sister is getting married in June."),
    ("arttu", "Arttu: My cats will stay with my brother while I'm away."),
    ("sanna", "Sanna: I ran my first half marathon last weekend."),
    ("arttu", "Arttu: Work has been crazy busy lately."),
)


def test_a_fact_told_twice_gives_way_to_the_next_one(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "chat.db", get_embedder("local:minilm"))
    try:
        store.put_many(
            [
                Fact(
                    text=text,
                    subject=who,
                    scope="chat",
                    source="imported:chat",
                    confidence=0.75,
                    derived_from=[f"turn-{n}"],
                    created_at=NOW + n,
                    valid_from=NOW + n,
                )
                for n, (who, text) in enumerate(TURNS)
            ]
        )
        twice = store.embed([TURNS[0][1], TURNS[1][1]])
        assert float(twice[0] @ twice[1]) > 0.95  # near-identical to the model
        mem = Memory(store, scope="chat", clock=lambda: NOW)
        texts = [h.fact.text for h in mem.recall("what are Arttu's travel plans", k=3)]
        assert "Arttu: I booked a ryokan in Kyoto for the trip." in texts
        assert sum("flying to Japan" in t for t in texts) == 1
        # with room for everything, the repeat comes back, after the rest
        texts = [h.fact.text for h in mem.recall("what are Arttu's travel plans", k=7)]
        assert len(texts) == 7 and "flying to Japan" in texts[-1]
    finally:
        store.close()


def test_named_in_finds_the_person_and_what_is_asked_of_them(mem: Memory) -> None:
    store = mem.store
    aliases = store.aliases(scope="sanna")
    named, asked = named_in("does Arttu have pets", store, scope="sanna", aliases=aliases)
    assert named == ["arttu"] and asked == "does have pets"
    named, asked = named_in("when is Arttu's birthday?", store, scope="sanna", aliases=aliases)
    assert named == ["arttu"] and "arttu" not in asked.lower() and "birthday" in asked
    # nobody named: the query unchanged
    assert named_in("who keeps bees", store, scope="sanna", aliases=aliases) == (
        [],
        "who keeps bees",
    )


def test_a_subject_given_ranks_its_facts_by_the_question_too(mem: Memory) -> None:
    hits = mem.recall("does arttu have pets", k=3, subject="Arttu")
    assert CATS in [h.fact.text for h in hits]
    assert all(h.fact.subject == "arttu" for h in hits)
