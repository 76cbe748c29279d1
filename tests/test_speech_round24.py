"""Natural speech the write path reads since the twenty-fourth round (issue 23), through
`Memory.remember`, the real parser, the default embedding model and a SQLite file. Every
sentence is invented for the class it stands for.

- a move onto a product ("we moved to fly.io", "moved from jira to linear") is a switch
  onto it, keyed as one (`migrate_to`, which the catalogue reads as `use`), so it ends
  the rival it left; a move to a place stays a home ("we moved to york"), and a move to
  anything else is stored as said, with no key ("moved to a new team")."""

from __future__ import annotations

import pytest
from speech_pairs import module_store, outcome

from credo.keys import analyse
from credo.store.sqlite import SQLiteStore

store = module_store("round24")


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we moved to fly.io", "fly.io"),
        ("moved from jira to linear last sprint", "linear"),
        ("i moved to postgres for the side project", "postgres"),
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
