"""SQLite-specific behaviour: the file on disk, migrations, several processes on one file."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from credo.embed import HashEmbedder
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore, fts_query
from credo.store.sqlite_schema import MIGRATIONS


def _raw_bytes(path: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            data += p.read_bytes()
    return data


def test_forget_leaves_no_copy_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    secret_word = "Quuxingtonshire"
    with SQLiteStore(path, HashEmbedder()) as store:
        mem = Memory(store)
        for i in range(50):
            mem.remember(f"Colleague number {i} works at Reaktor")
        mem.remember(f"Arttu lives in {secret_word}", derived_from=["ep-9"])
        mem.remember(f"Arttu's cat was born in {secret_word}", derived_from=["ep-9"])
        from credo.gate import Candidate

        mem.remember_candidate(
            Candidate(
                text=f"Arttu seems sad about {secret_word}", subject="arttu", derived_from=("ep-9",)
            )
        )
        assert secret_word.encode() in _raw_bytes(
            path
        ) or secret_word.lower().encode() in _raw_bytes(path)
        report = mem.forget(episode="ep-9")
        assert report.facts == 2 and report.rejections == 1
    raw = _raw_bytes(path).lower()
    assert secret_word.lower().encode() not in raw
    assert b"quuxingtonshir" not in raw  # nor the stemmed token in the FTS index


def test_migrations_on_a_blank_database(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "blank.db", HashEmbedder()) as store:
        assert store.applied_migrations() == MIGRATIONS.names
        assert store.migrate() == []  # applied once only


def test_upgrade_from_the_oldest_schema(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL)")
    oldest_name, oldest = next(MIGRATIONS.pending(set()))
    oldest(conn)
    conn.execute("INSERT INTO migrations VALUES (?, ?)", (oldest_name, time.time()))
    conn.execute(
        "INSERT INTO facts (id, scope, text, source, confidence, status, created_at) "
        "VALUES ('f_old', 'default', 'Arttu lives in Berlin', 'user', 0.9, 'active', 1.0)"
    )
    conn.close()
    with SQLiteStore(path, HashEmbedder()) as store:
        assert store.applied_migrations() == MIGRATIONS.names
        assert store.get("f_old", scope="default") is not None
        indexes = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master")}
        assert "rejections_code" in indexes


def test_a_newer_database_is_refused_clearly(tmp_path: Path) -> None:
    import pytest

    from credo.store.base import StoreError

    path = tmp_path / "new.db"
    SQLiteStore(path, HashEmbedder()).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO migrations VALUES ('m999_from_the_future', 0)")
    conn.close()
    with pytest.raises(StoreError, match="newer credo"):
        SQLiteStore(path, HashEmbedder())


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    import pytest

    from credo.store.base import StoreError

    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a credo database"):
        SQLiteStore(path, HashEmbedder())


def test_two_connections_see_each_others_vectors(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    with SQLiteStore(path, HashEmbedder()) as a, SQLiteStore(path, HashEmbedder()) as b:
        ma, mb = Memory(a), Memory(b)
        ma.remember("Arttu plays the cello")
        assert mb.recall("cello")  # b builds its index
        fact = ma.remember("Anna restores old motorcycles").fact
        assert fact is not None
        assert fact.id in [h.fact.id for h in mb.recall("restores old motorcycles")]
        mb.forget(id=fact.id)
        assert fact.id not in [h.fact.id for h in ma.recall("restores old motorcycles")]


def test_fts_query_quotes_every_word() -> None:
    assert fts_query('deploy" OR NEAR(x') == '{text subject object} : ("deploy" OR "near" OR "x")'
    assert fts_query("the of and") is None
    assert fts_query("") is None


def test_wal_and_foreign_keys_are_on(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "p.db", HashEmbedder()) as store:
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_large_stores_select_lexical_candidates_by_rare_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from credo.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "RARE_WORDS_FROM", 10)
    with SQLiteStore(tmp_path / "big.db", HashEmbedder()) as store:
        mem = Memory(store)
        from credo.fact import Fact

        store.put_many([Fact(text=f"Person {i} lives in Berlin") for i in range(600)])
        store.put_many([Fact(text="Zebulon lives in Oslo")])
        assert store._rare_words(["zebulon", "live"]) == ["zebulon"]
        (best, _), *_ = store.lexical_search("where does Zebulon live", scope="default", k=5)
        assert store.get(best, scope="default").text == "Zebulon lives in Oslo"  # type: ignore[union-attr]
        # every word common: the rarest still selects, nothing raises
        assert store.lexical_search("person lives berlin", scope="default", k=3)
        assert mem.recall("Zebulon")[0].fact.text == "Zebulon lives in Oslo"


def test_common_words_still_rank_the_rare_words_candidates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a large store the rare word selects the candidates; a candidate that also holds
    the query's common words ranks above one that does not, and another scope's rows
    never come back."""
    from credo.fact import Fact
    from credo.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "RARE_WORDS_FROM", 10)
    with SQLiteStore(tmp_path / "rank.db", HashEmbedder()) as store:
        store.put_many([Fact(text=f"Person {i} lives in Berlin") for i in range(600)])
        store.put_many([Fact(text=f"Person {i} works at Nokia") for i in range(600)])
        plain = Fact(text="Zebulon has a red bicycle")
        both = Fact(text="Zebulon works at Reaktor")
        store.put_many([plain, both, Fact(text="Zebulon works at Wolt", scope="other")])
        assert store._rare_words(["zebulon", "works"]) == ["zebulon"]
        found = store.lexical_search("where does Zebulon work", scope="default", k=5)
        assert [fid for fid, _ in found] == [both.id, plain.id]
        assert found[0][1] > found[1][1] > 0
        assert store.lexical_search("where does Zebulon work", scope="default", k=1) == found[:1]


def test_a_word_equal_to_the_scope_name_matches_no_fact_by_its_scope(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db", HashEmbedder()) as store:
        Memory(store, scope="berlin").remember("Arttu plays the cello")
        assert store.lexical_search("berlin", scope="berlin", k=5) == []


def test_rule_ids_cannot_move_between_scopes(tmp_path: Path) -> None:
    from credo.store.base import Rule, StoreError

    with SQLiteStore(tmp_path / "r.db", HashEmbedder()) as store:
        store.add_rule(Rule("r_1", "a", "home address", None, 1.0))
        with pytest.raises(StoreError):
            store.add_rule(Rule("r_1", "b", "home address", None, 1.0))
        assert [r.scope for r in store.rules(scope="a")] == ["a"]


def test_a_facts_conflict_partners_are_found_by_its_id(tmp_path: Path) -> None:
    """`conflicts_of` (recall calls it for every conflicted fact it returns) looks the
    fact up by id, not through the scope's index of open conflicts: that read every open
    conflict of the scope for each fact. Its partners stay within the scope asked."""
    from credo.fact import Fact, Status
    from credo.store import sql

    with SQLiteStore(tmp_path / "c.db", HashEmbedder()) as store:
        facts = [
            Fact(text=f"Person {i} lives in Berlin", status=Status.CONFLICTED) for i in range(40)
        ]
        other = Fact(text="Person 0 lives in Rome", scope="s2", status=Status.CONFLICTED)
        store.put_many([*facts, other])
        for a, b in zip(facts[::2], facts[1::2], strict=True):
            store.record_conflict("default", a.id, b.id, "rival cities")
        statement, params = sql.conflict_partners(sql.SQLITE, "default", facts[3].id)
        plan = " ".join(
            str(row[-1]) for row in store._conn.execute("EXPLAIN QUERY PLAN " + statement, params)
        )
        assert "conflicts_scope" not in plan and "fact_a=?" in plan, plan
        assert [f.id for f in store.conflicts_of(facts[3].id, scope="default")] == [facts[2].id]
        assert [f.id for f in store.conflicts_of(facts[2].id, scope="default")] == [facts[3].id]
        assert store.conflicts_of(facts[2].id, scope="s2") == []
        assert store.conflicts_of(other.id, scope="default") == []
