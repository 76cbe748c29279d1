"""`credo.language.products`: the shipped table of products by kind, and what it answers."""

from __future__ import annotations

import tomllib
from importlib import resources

from credo.language import products
from credo.language.kinds import is_a_kind_of


def _table() -> dict:
    return tomllib.loads(resources.files("credo").joinpath("data/products.toml").read_text())


def test_every_kind_has_nouns_and_products_in_lower_case() -> None:
    table = _table()
    assert len(table) >= 60
    for kind, entry in table.items():
        assert entry["words"] and entry["names"], kind
        for name in [*entry["words"], *(n for names in entry["names"] for n in names)]:
            assert name == name.lower() and name.strip() == name, (kind, name)


def test_products_are_found_in_a_value_longest_name_first() -> None:
    found = products.products_in(["a", "visual", "studio", "code", "setup"])
    assert [p.name for p in found] == ["visual studio code"]
    assert [p.name for p in products.products_in(["postgres", "15"])] == ["postgresql"]
    assert products.products_in(["a", "red", "bicycle"]) == []


def test_rivals_are_two_products_of_one_kind() -> None:
    (vim,) = products.products_in(["neovim"])
    (code,) = products.products_in(["vscode"])
    (pg,) = products.products_in(["postgres"])
    (pg_again,) = products.products_in(["postgresql"])
    assert products.rivals(vim, code)
    assert not products.rivals(vim, pg)
    assert not products.rivals(pg, pg_again)  # one product, two spellings


def test_a_spelling_of_two_products_names_neither() -> None:
    table = _table()
    spelt: dict[str, set[str]] = {}
    for entry in table.values():
        for names in entry["names"]:
            for name in names:
                spelt.setdefault(name, set()).add(names[0])
    shared = [s for s, firsts in spelt.items() if len(firsts) > 1]
    assert shared, "the table has spellings of two products"
    for spelling in shared:
        assert products.products_in(spelling.split()) == [] or len(spelling.split()) > 1


def test_a_product_is_of_the_kinds_its_nouns_name() -> None:
    assert products.is_of_kind("postgres", "database") and products.is_of_kind("postgres", "db")
    assert products.is_of_kind("neovim", "editor")
    assert not products.is_of_kind("neovim", "database")
    assert not products.is_of_kind("a red bicycle", "database")
    # and so a kind of it, beside WordNet's kinds
    assert is_a_kind_of("mariadb", "database") and is_a_kind_of("husky", "dog")
    assert not is_a_kind_of("database", "mariadb")
    assert "db" in products.kind_words(products.products_in(["mariadb"])[0])
