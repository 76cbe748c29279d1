"""`credo ui` without a browser: every route and every bad input through Starlette's
TestClient, over a real SQLite file filled through `Memory.remember` (the demo memory)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

from starlette.testclient import TestClient  # noqa: E402

from credo.cli import main  # noqa: E402
from credo.fact import Status  # noqa: E402
from credo.memory import Memory  # noqa: E402
from credo.testing import memory_for_tests  # noqa: E402
from credo.ui import queries  # noqa: E402
from credo.ui.app import build_app  # noqa: E402
from credo.ui.auth import COOKIE  # noqa: E402
from credo.ui.demo import fill  # noqa: E402

TOKEN = "ui-test-token-" + "u" * 24
GET_PAGES = [
    "/",
    "/subject?name=user",
    "/search?q=where+do+I+live",
    "/conflicts",
    "/rejections",
    "/forget?subject=maria",
    "/export",
]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    mem = memory_for_tests(tmp_path / "ui.db", scope="arttu")
    fill(mem)
    try:
        yield mem
    finally:
        mem.store.close()


def _client(memory: Memory, **options: Any) -> TestClient:
    return TestClient(build_app(memory, token=TOKEN), base_url="http://127.0.0.1", **options)


@pytest.fixture
def anon(memory: Memory) -> TestClient:
    return _client(memory)


@pytest.fixture
def client(memory: Memory) -> TestClient:
    c = _client(memory)
    response = c.get(f"/login?token={TOKEN}", follow_redirects=False)
    assert response.status_code == 303 and COOKIE in c.cookies
    return c


def csrf(client: TestClient, page: str = "/conflicts") -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(page).text)
    assert found, "the page carries no CSRF token"
    return found.group(1)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# -- signing in ------------------------------------------------------------------------------
@pytest.mark.parametrize("page", GET_PAGES + ["/fact/f_0000000000000000"])
def test_every_page_needs_the_token(anon: TestClient, page: str) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer wrong-token-wrong-token"},
        {"Authorization": TOKEN},
        {"Cookie": f"{COOKIE}=forged"},
    ):
        response = anon.get(page, headers=headers)
        assert response.status_code == 401, (page, headers)
        assert 'name="token"' in response.text and "Subjects" not in response.text
    assert anon.get(page, headers={"Authorization": f"Bearer {TOKEN}"}).status_code in (200, 404)


def test_posts_need_the_token_too(anon: TestClient, memory: Memory) -> None:
    before = memory.stats()
    for path in ("/conflicts/resolve", "/rejections/remember", "/forget/confirm", "/logout"):
        assert anon.post(path, data={"subject": "maria"}).status_code == 401
    assert memory.stats() == before


def test_login_sets_an_httponly_strict_cookie_that_is_not_the_token(anon: TestClient) -> None:
    wrong = anon.post("/login", data={"token": "not-it-" + "x" * 20})
    assert wrong.status_code == 401 and "not this server's" in wrong.text
    response = anon.post("/login", data={"token": TOKEN}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN not in cookie
    assert anon.get("/").status_code == 200


def test_logout_ends_the_session(client: TestClient) -> None:
    response = client.post("/logout", data={"csrf": csrf(client)}, follow_redirects=False)
    assert response.status_code == 303
    client.cookies.clear()
    assert client.get("/").status_code == 401


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for page in ("/", "/login", "/style.css", "/nope"):
        headers = client.get(page).headers
        assert "script-src" not in headers["content-security-policy"]
        assert "default-src 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


# -- reading ---------------------------------------------------------------------------------
def test_subjects_page_lists_every_subject_with_counts(client: TestClient, memory: Memory) -> None:
    page = text_of(client.get("/").text)
    for row in queries.subjects(memory):
        assert row.name in page
    stats = memory.stats()
    assert f"{stats['active']} active" in page and f"{stats['conflicts']} open conflict" in page


class _Timelines(HTMLParser):
    """The subject page's timelines: for each key (a `section.timeline`'s heading), its
    changes in page order (each `li`), as the value, the status and the dates shown."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: dict[str, list[dict[str, Any]]] = {}
        self._key: str | None = None
        self._into: str | None = None  # which text the next data belongs to

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section" and "timeline" in classes:
            self._key = ""
        elif self._key is not None:
            if tag == "h3":
                self._into = "key"
            elif tag == "li":
                self.keys[self._key].append({"value": "", "status": "", "dates": []})
            elif tag == "a" and "value" in classes:
                self._into = "value"
            elif tag == "span" and "status" in classes:
                self._into = "status"
            elif tag == "time":
                self._into = "dates"

    def handle_endtag(self, tag: str) -> None:
        self._into = None
        if tag == "section":
            self._key = None

    def handle_data(self, data: str) -> None:
        if self._into == "key" and self._key is not None:
            self._key = data.strip()
            self.keys[self._key] = []
        elif self._into and self._key:
            change = self.keys[self._key][-1]
            if self._into == "dates":
                change["dates"].append(data.strip())
            else:
                change[self._into] += data.strip()


def test_subject_page_shows_each_keys_timeline_in_order(client: TestClient) -> None:
    html = client.get("/subject?name=user").text
    timelines = _Timelines()
    timelines.feed(html)
    assert timelines.keys["Live in"] == [  # the older value first, each with its dates
        {"value": "Berlin", "status": "superseded", "dates": ["2019-03-01", "2023-06-01"]},
        {"value": "Lisbon", "status": "active", "dates": ["2023-06-01"]},
    ]
    assert "The user lives in Berlin" in html  # and the fact itself, in the table


def test_timeline_headings_are_words_not_predicate_names() -> None:
    assert queries.key_words("be_allergic_to") == "Is allergic to"
    assert queries.key_words("not_drink") == "Does not drink"
    assert queries.key_words("not_be_vegetarian") == "Is not vegetarian"
    assert queries.key_words("has_wife_name") == "Has wife name"
    assert queries.key_words("live_in") == "Live in"


FRUIT = (
    "apples pears plums kiwis mangoes lemons limes figs dates grapes cherries melons peaches "
    "apricots papayas guavas lychees olives quinces nectarines oranges bananas coconuts "
    "berries currants raisins prunes almonds walnuts pecans"
)


def test_a_long_subject_page_is_grouped_and_paged(client: TestClient, memory: Memory) -> None:
    """23 facts were one 3,500-pixel column: what holds now comes first, what no longer
    holds is folded away, and each group shows a page at a time."""
    liked = FRUIT.split()
    assert len(liked) == queries.FACTS_PER_PAGE + 5
    for fruit in liked:
        assert memory.remember(f"Noor likes {fruit}").relation.value == "new"
    memory.remember("Noor lives in Oslo", valid_from="2020-01-01")
    memory.remember("Noor lives in Bergen")
    html = client.get("/subject?name=noor").text
    assert html.index("that hold now") < html.index("<details") < html.index("no longer hold")
    assert "The user" not in html and "Noor lives in Bergen" in html
    assert "Noor lives in Oslo" in html[html.index("<details") :]  # superseded: folded
    assert "page 1 of 2" in html and 'rel="next"' in html
    first = set(re.findall(r"Noor likes (\w+)", html))
    second_page = client.get("/subject?name=noor&page=2")
    assert second_page.status_code == 200 and 'rel="prev"' in second_page.text
    second = set(re.findall(r"Noor likes (\w+)", second_page.text))
    # page 1 holds the newest 25 that hold now: Bergen and 24 of the fruit
    assert len(first) == queries.FACTS_PER_PAGE - 1 and first.isdisjoint(second)
    assert first | second == set(liked)
    assert client.get("/subject?name=noor&page=3").status_code == 400


def test_subject_page_applies_aliases_and_lists_facts_without_a_subject(
    client: TestClient, memory: Memory
) -> None:
    memory.alias_add("me", "user")
    assert "The user lives in Lisbon now" in client.get("/subject?name=me").text
    memory.remember("The build is green", source="user")
    unkeyed = [f for f in memory.list() if not f.subject]
    response = client.get("/subject?name=")
    if unkeyed:
        assert response.status_code == 200 and unkeyed[0].text in response.text
    else:
        assert response.status_code == 404


def test_search_is_recall(client: TestClient, memory: Memory) -> None:
    html = client.get("/search", params={"q": "where does the user live", "k": "3"}).text
    hits = memory.recall("where does the user live", k=3)
    assert hits
    found = re.findall(r'<li>\s*<a href="/fact/(f_[0-9a-f]+)"', html)
    assert found == [h.fact.id for h in hits]
    narrowed = client.get("/search", params={"q": "works", "subject": "maria"}).text
    found = re.findall(r'<li>\s*<a href="/fact/(f_[0-9a-f]+)"', narrowed)
    assert found == [h.fact.id for h in memory.recall("works", k=10, subject="maria")]
    assert "Maria works at" in narrowed
    assert 'id="results-h"' not in client.get("/search").text  # no query, no results


@pytest.mark.parametrize(
    "params, says",
    [
        ({"q": "x", "k": "abc"}, "k (how many facts) must be a number"),
        ({"q": "x", "k": "0"}, "between 1 and 50"),
        ({"q": "x", "k": "51"}, "between 1 and 50"),
        ({"q": "x", "min_confidence": "2"}, "between 0 and 1"),
        ({"q": "x", "min_confidence": "nan"}, "min_confidence must be between"),
        ({"q": "x", "min_confidence": "lots"}, "must be a number"),
        ({"q": "x" * 2001}, "over 2000 characters"),
        ({"q": "x", "subject": "!!!"}, "does not name an entity"),
    ],
)
def test_search_bad_input_is_a_clear_error(
    client: TestClient, params: dict[str, str], says: str
) -> None:
    response = client.get("/search", params=params)
    assert response.status_code == 400
    assert says in text_of(response.text) and "Traceback" not in response.text


def test_fact_page_shows_lineage_and_decisions(client: TestClient, memory: Memory) -> None:
    lisbon = next(f for f in memory.list() if f.object == "Lisbon")
    berlin = next(f for f in memory.list(status="superseded") if f.object == "Berlin")
    html = client.get(f"/fact/{lisbon.id}").text
    lineage = html[html.index('id="lineage-h"') :]
    assert f'href="/fact/{berlin.id}"' in lineage and "The user lives in Berlin" in lineage
    old = client.get(f"/fact/{berlin.id}").text
    assert "replaced by" in old and f'href="/fact/{lisbon.id}"' in old
    if hasattr(memory, "why"):
        assert "I live in Lisbon now" in html  # the statement as it was said


def test_fact_page_names_its_source_turns(client: TestClient, memory: Memory) -> None:
    result = memory.remember("Arttu plays the cello", derived_from=["chat-7:3"])
    assert result.fact is not None
    html = client.get(f"/fact/{result.fact.id}").text
    assert "chat-7:3" in html and "/forget?episode=chat-7%3A3" in html


def test_unknown_fact_and_page_are_404_pages(client: TestClient) -> None:
    for page, says in (
        ("/fact/f_0000000000000000", "no fact"),
        ("/nope", "no page at /nope"),
        ("/subject?name=nobody", "nothing is stored about"),
        ("/subject", "say which subject"),
    ):
        response = client.get(page)
        assert response.status_code in (400, 404), page
        assert says in text_of(response.text) and "Traceback" not in response.text
    assert client.get("/conflicts/resolve").status_code == 405


def test_text_is_data_never_markup(client: TestClient, memory: Memory) -> None:
    result = memory.remember('Arttu\'s band is called <script>alert("x")</script> Deluxe')
    assert result.fact is not None
    html = client.get(f"/fact/{result.fact.id}").text
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_export_downloads_the_scope_as_jsonl(client: TestClient, memory: Memory) -> None:
    response = client.get("/export")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    records = [json.loads(line) for line in response.text.splitlines()]
    assert records[0]["type"] == "header" and records[0]["scope"] == "arttu"
    facts = [r for r in records if r["type"] == "fact"]
    assert len(facts) == sum(1 for _ in memory.store.iter_all(scope="arttu"))
    # times as `credo export` writes them (ISO 8601 in UTC), not epoch seconds
    assert re.match(r"^\d{4}-\d\d-\d\dT[\d:.]+Z$", records[0]["exported_at"])
    assert all(re.match(r"^\d{4}-\d\d-\d\dT[\d:.]+Z$", f["created_at"]) for f in facts)


# -- adding and correcting a fact --------------------------------------------------------------
def test_a_fact_typed_on_the_subjects_page_is_remembered_through_the_gate(
    client: TestClient, memory: Memory
) -> None:
    page = client.get("/").text
    assert 'action="/remember"' in page
    response = client.post(
        "/remember", data={"csrf": csrf(client, "/"), "text": "I play the cello"}
    )
    assert response.status_code == 200
    assert "Remembered" in response.text and "The user plays the cello" in response.text
    assert any(f.text == "The user plays the cello" for f in memory.list())
    before = len(memory.list())
    refused = client.post("/remember", data={"csrf": csrf(client, "/"), "text": "what time is it?"})
    assert refused.status_code == 200 and "Not stored" in refused.text
    assert len(memory.list()) == before
    empty = client.post("/remember", data={"csrf": csrf(client, "/"), "text": " "})
    assert empty.status_code == 400 and len(memory.list()) == before
    forged = client.post("/remember", data={"csrf": "0" * 32, "text": "I play the oboe"})
    assert forged.status_code == 403 and len(memory.list()) == before


def test_correcting_a_fact_remembers_the_right_one_and_retracts_the_wrong_one(
    client: TestClient, memory: Memory
) -> None:
    wrong = memory.remember("Arttu plays the banjo").fact
    assert wrong is not None
    page = client.get(f"/fact/{wrong.id}").text
    assert f'action="/fact/{wrong.id}/correct"' in page
    token = csrf(client, f"/fact/{wrong.id}")
    response = client.post(
        f"/fact/{wrong.id}/correct",
        data={"csrf": token, "text": "Arttu plays the ukulele", "by": "Arttu"},
    )
    assert response.status_code == 200, response.text
    assert "Retracted as wrong" in response.text
    assert memory.get(wrong.id).status.value == "retracted"
    said = memory.why(wrong.id)
    assert any(d["by"] == "ui:Arttu" and "ukulele" in (d["why"] or "") for d in said.decisions)
    assert any(
        f.text == "Arttu plays the ukulele" and f.status.value == "active" for f in memory.list()
    )

    # a refused correction changes nothing; who corrects must be said
    other = memory.remember("Arttu plays the drums").fact
    assert other is not None
    for data, status in (
        ({"text": "can you play something?", "by": "Arttu"}, 200),
        ({"text": "Arttu plays the flute", "by": " "}, 400),
    ):
        refused = client.post(f"/fact/{other.id}/correct", data={"csrf": token, **data})
        assert refused.status_code == status
        assert memory.get(other.id).status.value == "active"
    assert not any("flute" in f.text for f in memory.list())


# -- conflicts -------------------------------------------------------------------------------
def _maria(memory: Memory) -> tuple[str, str]:
    (conflict,) = memory.conflicts()
    return conflict.a.id, conflict.b.id


def test_keep_one_side_of_a_conflict_records_who_decided(
    client: TestClient, memory: Memory
) -> None:
    a, b = _maria(memory)
    response = client.post(
        "/conflicts/resolve",
        data={"csrf": csrf(client), "a": a, "b": b, "action": "keep_b", "decided_by": "Arttu"},
    )
    assert response.status_code == 200 and "ui:Arttu" in response.text
    assert memory.get(b).status is Status.ACTIVE and memory.get(a).status is Status.RETRACTED
    (settled,) = memory.conflicts(include_resolved=True)
    assert settled.decided_by == "ui:Arttu" and settled.resolved_at is not None
    page = client.get("/conflicts").text
    assert "No open conflicts" in page and "ui:Arttu" in page


def test_retract_both_sides(client: TestClient, memory: Memory) -> None:
    a, b = _maria(memory)
    response = client.post(
        "/conflicts/resolve",
        data={
            "csrf": csrf(client),
            "a": a,
            "b": b,
            "action": "retract_both",
            "decided_by": "Arttu",
        },
    )
    assert response.status_code == 200
    assert {memory.get(a).status, memory.get(b).status} == {Status.RETRACTED}


@pytest.mark.parametrize(
    "change, status, says",
    [
        ({"csrf": None}, 403, "CSRF token is missing or wrong"),
        ({"csrf": "0" * 64}, 403, "CSRF token is missing or wrong"),
        ({"decided_by": "  "}, 400, "say who decided"),
        ({"decided_by": "x" * 101}, 400, "at most 100 characters"),
        ({"action": "keep_both"}, 400, "choose keep_a, keep_b or retract_both"),
        ({"a": ""}, 400, "the form needs the conflict's first fact"),
        ({"a": "f_0000000000000000", "action": "keep_a"}, 404, "no fact"),
    ],
)
def test_resolve_bad_input_changes_nothing(
    client: TestClient, memory: Memory, change: dict[str, Any], status: int, says: str
) -> None:
    a, b = _maria(memory)
    data = {"csrf": csrf(client), "a": a, "b": b, "action": "keep_a", "decided_by": "Arttu"}
    data.update(change)
    response = client.post(
        "/conflicts/resolve", data={k: v for k, v in data.items() if v is not None}
    )
    assert response.status_code == status
    assert says in text_of(response.text) and "Traceback" not in response.text
    assert len(memory.conflicts()) == 1


def test_forms_must_be_urlencoded_and_small(client: TestClient, memory: Memory) -> None:
    token = csrf(client)
    as_json = client.post("/conflicts/resolve", json={"csrf": token})
    assert as_json.status_code == 415 and "x-www-form-urlencoded" in as_json.text
    huge = client.post("/rejections/remember", data={"csrf": token, "text": "x" * 20_000})
    assert huge.status_code == 413
    bad = client.post(
        "/rejections/remember",
        content=b"csrf=\xff\xfe",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert bad.status_code in (400, 403) and "Traceback" not in bad.text
    assert len(memory.conflicts()) == 1


def test_an_already_settled_conflict_cannot_be_settled_again(
    client: TestClient, memory: Memory
) -> None:
    a, b = _maria(memory)
    data = {"csrf": csrf(client), "a": a, "b": b, "action": "keep_a", "decided_by": "Arttu"}
    assert client.post("/conflicts/resolve", data=data).status_code == 200
    again = client.post("/conflicts/resolve", data=data)
    assert again.status_code == 404 and "no unresolved conflict" in again.text


# -- rejections ------------------------------------------------------------------------------
def _rejection(memory: Memory, code: str) -> Any:
    return next(r for r in memory.rejections() if r.code == code)


def test_remembering_a_rejection_the_gate_refuses_again_says_so(
    client: TestClient, memory: Memory
) -> None:
    hedged = _rejection(memory, "hedged")
    before = memory.stats()["active"]
    response = client.post(
        "/rejections/remember",
        data={
            "csrf": csrf(client, "/rejections"),
            "rejection": str(hedged.id),
            "text": hedged.text,
        },
    )
    assert response.status_code == 200
    page = text_of(response.text)
    assert "Not stored" in page and "refused" in page and "hedged" in page
    assert memory.stats()["active"] == before


def test_remembering_an_edited_rejection_stores_it(client: TestClient, memory: Memory) -> None:
    hedged = _rejection(memory, "hedged")
    response = client.post(
        "/rejections/remember",
        data={
            "csrf": csrf(client, "/rejections"),
            "rejection": str(hedged.id),
            "text": "Arttu uses Emacs",
        },
    )
    assert response.status_code == 200 and "Remembered" in response.text
    stored = [f for f in memory.list(subject="arttu") if "Emacs" in f.text]
    assert stored and stored[0].source == hedged.source


@pytest.mark.parametrize(
    "data, status, says",
    [
        ({"rejection": "999999", "text": "Arttu uses Emacs"}, 404, "no rejection 999999"),
        ({"rejection": "abc", "text": "Arttu uses Emacs"}, 400, "rejection must be a number"),
        ({"text": "Arttu uses Emacs"}, 400, "the rejection's id"),
        ({"rejection": "1", "text": "  "}, 400, "the text to remember"),
        ({"rejection": "1", "text": "Arttu\x00 uses Emacs"}, 400, "control characters"),
    ],
)
def test_remember_bad_input_is_a_clear_error(
    client: TestClient, memory: Memory, data: dict[str, str], status: int, says: str
) -> None:
    before = memory.stats()
    response = client.post(
        "/rejections/remember", data={"csrf": csrf(client, "/rejections"), **data}
    )
    assert response.status_code == status
    assert says in text_of(response.text) and "Traceback" not in response.text
    assert memory.stats() == before


def test_rejections_page_rejects_a_bad_limit(client: TestClient) -> None:
    assert client.get("/rejections?limit=0").status_code == 400
    assert client.get("/rejections?limit=2").text.count("Remember this") == 2


# -- forgetting ------------------------------------------------------------------------------
def _confirm(client: TestClient, query: str) -> tuple[str, dict[str, str]]:
    html = client.get(f"/forget?{query}").text
    form = html[html.index('action="/forget/confirm"') :]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    return html, fields


def test_forget_shows_what_goes_and_deletes_only_on_confirmation(
    client: TestClient, memory: Memory
) -> None:
    maria = memory.list(subject="maria")
    html, fields = _confirm(client, "subject=maria")
    for fact in maria:
        assert fact.text in text_of(html)
    assert len(memory.list(subject="maria")) == len(maria)  # nothing deleted by looking
    response = client.post("/forget/confirm", data=fields)
    assert response.status_code == 200 and f"Removed {len(maria)} fact(s)" in response.text
    assert memory.list(subject="maria") == []


def test_the_preview_is_exactly_what_forget_removes(memory: Memory) -> None:
    parent = memory.list(subject="user")[0]
    child = memory.remember(
        "Arttu probably likes rainy cities", source="inferred", derived_from=[parent.id]
    )
    memory.remember("Arttu bakes sourdough", derived_from=["ep-1"])
    for target, value in (
        ("id", parent.id),
        ("subject", "maria"),
        ("episode", "ep-1"),
        ("subject", "user"),
    ):
        preview = queries.forget_preview(memory, target, value)
        if target == "id" and child.fact is not None:
            assert child.fact.id in [f.id for f in preview.derived]
        report = memory.forget(**{target: value})
        assert sorted(preview.fact_ids) == sorted(report.fact_ids), (target, value)
        assert len(preview.rejections) == report.rejections
        assert len(preview.aliases) == report.aliases
        assert sorted(f.id for f in preview.reopened) == sorted(report.reopened)


def test_a_forget_whose_listing_changed_is_shown_again(client: TestClient, memory: Memory) -> None:
    _, fields = _confirm(client, "subject=maria")
    memory.remember("Maria lives in Tampere", valid_from="2024-01-01")
    response = client.post("/forget/confirm", data=fields)
    assert response.status_code == 409 and "changed since" in response.text
    assert "Maria lives in Tampere" in response.text
    assert memory.list(subject="maria")  # nothing was deleted


@pytest.mark.parametrize(
    "query, status, says",
    [
        ("", 400, "exactly one of id, subject or episode"),
        ("subject=maria&episode=e1", 400, "exactly one of id, subject or episode"),
        ("id=f_0000000000000000", 404, "no fact"),
        ("subject=%21%21", 400, "does not name an entity"),
        ("episode=never-seen", 404, "Nothing matches"),
    ],
)
def test_forget_bad_input_is_a_clear_error(
    client: TestClient, query: str, status: int, says: str
) -> None:
    response = client.get(f"/forget?{query}")
    assert response.status_code == status
    assert says in text_of(response.text) and "Traceback" not in response.text


def test_forget_post_bad_input_deletes_nothing(client: TestClient, memory: Memory) -> None:
    before = memory.stats()
    token = csrf(client)
    for data, status in (
        ({"csrf": token, "subject": "maria"}, 400),
        ({"subject": "maria", "digest": "x"}, 403),
        ({"csrf": token, "subject": "maria", "digest": "0" * 32}, 409),
    ):
        assert client.post("/forget/confirm", data=data).status_code == status
    assert memory.stats() == before


def test_retract_from_the_fact_page(client: TestClient, memory: Memory) -> None:
    if not hasattr(memory, "retract"):
        pytest.skip("this credo has no Memory.retract")
    fact = next(f for f in memory.list() if f.object == "Vim")
    token = csrf(client, f"/fact/{fact.id}")
    assert (
        client.post(f"/fact/{fact.id}/retract", data={"csrf": token, "by": ""}).status_code == 400
    )
    response = client.post(
        f"/fact/{fact.id}/retract", data={"csrf": token, "by": "Arttu", "why": "I use Helix"}
    )
    assert response.status_code == 200 and memory.get(fact.id).status is Status.RETRACTED
    assert "ui:Arttu" in response.text


# -- failures and the command -----------------------------------------------------------------
def test_an_internal_failure_is_a_page_without_a_traceback(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_: Memory) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(queries, "subjects", broken)
    c = _client(memory, raise_server_exceptions=False)
    response = c.get("/", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 500 and "Internal error" in response.text
    assert "secret internals" not in response.text and "Traceback" not in response.text


def test_ui_refuses_a_non_loopback_host_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CREDO_MCP_TOKEN", raising=False)
    code = main(["--db", str(tmp_path / "u.db"), "ui", "--host", "0.0.0.0", "--port", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "refusing to serve on 0.0.0.0" in err and "--token-file" in err
    monkeypatch.setenv("CREDO_MCP_TOKEN", "short")
    assert main(["--db", str(tmp_path / "u.db"), "ui", "--host", "0.0.0.0"]) == 2
    assert "use at least 16" in capsys.readouterr().err
    assert main(["--db", str(tmp_path / "u.db"), "ui", "--port", "70000"]) == 2


def test_ui_without_its_packages_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)
    assert main(["--db", str(tmp_path / "u.db"), "ui"]) == 1
    assert "pip install 'credo[ui]'" in capsys.readouterr().err
