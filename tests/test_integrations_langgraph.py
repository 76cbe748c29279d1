"""CredoStore against the real `langgraph` package: the BaseStore API, a LangGraph agent
that remembers and recalls through it with a scripted chat model, LangMem's memory tools
on top of it, and the README example as written. Real SQLite files; the model is a fake."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import drop_store, make_store

pytest.importorskip("langgraph", reason="credo[langgraph] is not installed")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)

from credo.embed import HashEmbedder
from credo.integrations.langgraph import (
    KEY_REF,
    CredoStore,
    Refused,
    namespace_to_scope,
    scope_to_namespace,
)
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

README = Path(__file__).resolve().parents[1] / "README.md"
NS = ("memories", "arttu")


@pytest.fixture
def store(backend: str, tmp_path: Path) -> Iterator[CredoStore]:
    """A CredoStore over each backend (PostgreSQL when CREDO_TEST_PG_DSN names one)."""
    base = make_store(backend, tmp_path)
    try:
        yield CredoStore(base)
    finally:
        drop_store(base)


class ScriptedModel(GenericFakeChatModel):
    """A chat model that says what the test scripts, tool calls included (no network)."""

    seen: list[list[BaseMessage]] = []

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": uuid.uuid4().hex}])


def scripted(*replies: AIMessage | str) -> ScriptedModel:
    model = ScriptedModel(messages=iter(replies))
    model.seen = []
    return model


def tool_messages(state: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


# -- the namespace rule ----------------------------------------------------------------------
def test_a_namespace_is_a_scope_and_back() -> None:
    assert namespace_to_scope(("memories", "arttu")) == "memories.arttu"
    assert namespace_to_scope(("u@x.io",)[0:0] + ("u@x:io",), prefix="lg") == "lg.u@x:io"
    for ns in [("a",), ("memories", "user-1", "prefs"), ("tool:github", "@me")]:
        assert scope_to_namespace(namespace_to_scope(ns)) == ns
        assert scope_to_namespace(namespace_to_scope(ns, "lg"), "lg") == ns
    assert scope_to_namespace("default") == ("default",)
    assert scope_to_namespace("other.x", "lg") is None
    for bad in [(), ("has space",), ("slash/ed",), ("x" * 129,)]:
        with pytest.raises(InvalidNamespaceError):
            namespace_to_scope(bad)


def test_the_scope_is_the_one_memory_sees(store: CredoStore) -> None:
    store.put(NS, "k1", {"content": "I live in Berlin"})
    facts = Memory(store.store, scope="memories.arttu").list()
    assert [f.text for f in facts] == ["The user lives in Berlin"]
    assert facts[0].derived_from == [KEY_REF + "k1"]
    assert Memory(store.store, scope="memories").list() == []  # no scope sees another


# -- BaseStore: get, put, search, delete, list_namespaces --------------------------------------
def test_it_is_a_langgraph_store(store: CredoStore) -> None:
    assert isinstance(store, BaseStore)
    store.put(NS, "k1", {"content": "I live in Berlin"})
    item = store.get(NS, "k1")
    assert item is not None and item.key == "k1" and item.namespace == NS
    assert item.value["content"] == "The user lives in Berlin"
    assert item.value["status"] == "active" and item.value["subject"] == "user"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", item.value["valid_from"])
    assert item.created_at.tzinfo is not None
    assert store.get(NS, "nope") is None
    assert store.get(("memories", "other"), "k1") is None


def test_search_is_recall_with_its_scores(store: CredoStore) -> None:
    store.put(NS, "home", {"content": "I live in Berlin"})
    store.put(NS, "editor", {"content": "My editor is Helix"})
    store.put(("memories", "someone"), "x", {"content": "I live in Oslo"})
    hits = store.search(("memories", "arttu"), query="where do I live")
    assert hits and all(isinstance(h, SearchItem) for h in hits)
    assert hits[0].key == "home" and hits[0].value["content"] == "The user lives in Berlin"
    scores = [h.score for h in hits]
    assert all(isinstance(s, float) and s > 0 for s in scores)
    assert scores == sorted(scores, reverse=True)
    assert all(h.namespace == NS for h in hits)  # the other scope stays out
    everyone = store.search(("memories",), query="where do they live", limit=10)
    assert {h.namespace for h in everyone} == {NS, ("memories", "someone")}
    listed = store.search(NS)  # no query: the live facts, newest first, unscored
    assert [h.key for h in listed] == ["editor", "home"] and listed[0].score is None
    assert [h.key for h in store.search(NS, limit=1, offset=1)] == ["home"]
    assert [h.key for h in store.search(NS, filter={"predicate": "live_in"})] == ["home"]
    assert store.search(NS, filter={"confidence": {"$gt": 0.95}}) == []


def test_a_refused_put_raises_with_the_reason_and_is_kept(store: CredoStore) -> None:
    with pytest.raises(Refused) as caught:
        store.put(NS, "k", {"content": "Can you book me a table for tonight?"})
    assert caught.value.refusals[0].key == "k"
    assert caught.value.refusals[0].code in str(caught.value)
    assert "not stored" in str(caught.value) and isinstance(caught.value, ValueError)
    assert store.get(NS, "k") is None
    rejected = store.memory(NS).rejections()
    assert rejected and rejected[0].derived_from == (KEY_REF + "k",)


def test_a_batch_does_its_other_operations_before_raising(store: CredoStore) -> None:
    ops = [
        PutOp(NS, "a", {"content": "I live in Berlin"}),
        PutOp(NS, "b", {"content": "my password is hunter2hunter2"}),
        PutOp(NS, "c", {"content": "I use Neovim"}),
    ]
    with pytest.raises(Refused) as caught:
        store.batch(ops)
    assert [r.key for r in caught.value.refusals] == ["b"]
    assert store.get(NS, "a") is not None and store.get(NS, "c") is not None
    assert "hunter2" not in json.dumps([r.__dict__ for r in store.memory(NS).rejections()])


def test_a_new_value_under_a_key_replaces_the_old_one(store: CredoStore) -> None:
    store.put(NS, "k", {"content": "I like tea"})
    first = store.get(NS, "k")
    assert first is not None
    store.put(NS, "k", {"content": "I like coffee"})
    now = store.get(NS, "k")
    assert now is not None and now.value["content"] == "The user likes coffee"
    old = store.memory(NS).get(first.value["fact_id"])
    assert old.status.value == "retracted"  # history, never found again
    assert [h.value["content"] for h in store.search(NS)] == ["The user likes coffee"]
    store.put(NS, "k", {"content": "I like coffee"})  # the same again: reinforced, one fact
    assert len(store.memory(NS).list(status="active")) == 1


def test_two_keys_for_one_claim_share_a_fact_and_delete_lets_go(store: CredoStore) -> None:
    store.put(NS, "a", {"content": "I live in Berlin"})
    store.put(NS, "b", {"content": "I live in Berlin"})
    a, b = store.get(NS, "a"), store.get(NS, "b")
    assert a is not None and b is not None and a.value["fact_id"] == b.value["fact_id"]
    store.delete(NS, "a")
    assert store.get(NS, "a") is None
    assert store.get(NS, "b") is not None  # the fact stays for the other key
    store.delete(NS, "b")
    assert store.get(NS, "b") is None
    assert store.memory(NS).list() == []  # forget: nothing left in the scope


def test_delete_forgets_and_a_fact_id_is_a_key(store: CredoStore) -> None:
    fact = store.memory(NS).remember("Arttu deploys arttuan.com on Vercel").fact
    assert fact is not None
    item = store.get(NS, fact.id)  # stored outside the store: its key is its id
    assert item is not None and item.value["content"] == fact.text
    assert [h.key for h in store.search(NS)] == [fact.id]
    store.delete(NS, fact.id)
    assert store.get(NS, fact.id) is None and store.memory(NS).list() == []


def test_values_credo_cannot_keep_are_refused_not_dropped(store: CredoStore) -> None:
    for value in [
        {"content": {"name": "Arttu"}},
        {"content": "I live in Oslo", "tags": ["x"]},
        {"note": "I live in Oslo"},
    ]:
        with pytest.raises(ValueError, match="content"):
            store.put(NS, "k", value)
    assert store.get(NS, "k") is None
    with pytest.raises(NotImplementedError):
        store.put(NS, "k", {"content": "I live in Oslo"}, ttl=5)
    item = store.get(NS, "k")
    assert item is None
    store.put(NS, "k", {"content": "I live in Oslo"})
    got = store.get(NS, "k")
    assert got is not None
    store.put(NS, "k", got.value)  # credo's own fields come back in: fine
    assert store.get(NS, "k") is not None


def test_a_dont_remember_request_is_honoured_and_no_error(store: CredoStore) -> None:
    store.put(NS, "k", {"content": "Don't remember my phone number"})
    assert store.get(NS, "k") is None
    assert store.memory(NS).rules()


def test_list_namespaces(store: CredoStore) -> None:
    for ns in [("memories", "arttu"), ("memories", "sam"), ("docs", "arttu", "prefs")]:
        store.put(ns, "k", {"content": "I live in Berlin"})
    assert store.list_namespaces() == [
        ("docs", "arttu", "prefs"),
        ("memories", "arttu"),
        ("memories", "sam"),
    ]
    assert store.list_namespaces(prefix=("memories",)) == [
        ("memories", "arttu"),
        ("memories", "sam"),
    ]
    assert store.list_namespaces(suffix=("arttu",)) == [("memories", "arttu")]
    assert store.list_namespaces(prefix=("*", "arttu")) == [
        ("docs", "arttu", "prefs"),
        ("memories", "arttu"),
    ]
    assert store.list_namespaces(max_depth=1) == [("docs",), ("memories",)]
    assert store.list_namespaces(limit=1, offset=1) == [("memories", "arttu")]
    assert store.batch(
        [ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("docs",)),))]
    ) == [[("docs", "arttu", "prefs")]]


def test_a_prefix_keeps_the_store_to_its_own_scopes(tmp_path: Path) -> None:
    base = SQLiteStore(tmp_path / "p.db", HashEmbedder())
    Memory(base, scope="default").remember("I live in Oslo")
    lg = CredoStore(base, prefix="lg")
    lg.put(NS, "k", {"content": "I live in Berlin"})
    assert lg.list_namespaces() == [NS]
    assert base.scopes() == ["default", "lg.memories.arttu"]


def test_async_twins_share_the_one_batch(store: CredoStore) -> None:
    async def go() -> Any:
        await store.aput(NS, "k", {"content": "I live in Berlin"})
        got, found = await asyncio.gather(store.aget(NS, "k"), store.asearch(NS, query="live"))
        with pytest.raises(Refused):
            await store.aput(NS, "q", {"content": "what is the weather like?"})
        await store.adelete(NS, "k")
        return got, found, await store.aget(NS, "k")

    got, found, gone = asyncio.run(go())
    assert got.value["content"] == "The user lives in Berlin"
    assert found[0].key == "k" and gone is None
    assert store.batch([GetOp(NS, "k"), SearchOp(NS, query="Berlin")]) == [None, []]


# -- a LangGraph agent, scripted ---------------------------------------------------------------
def agent_with(tools: list[Any], model: ScriptedModel, store: CredoStore) -> Any:
    graph = StateGraph(MessagesState)
    graph.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=Refused))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile(store=store)


def readme_example() -> str:
    found = re.search(
        r"<!-- test: langgraph-agent -->\s*```python\n(.*?)```",
        README.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found, "README.md has no example marked langgraph-agent"
    return found.group(1)


def test_the_readme_agent_remembers_and_recalls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the example opens agent.db where it runs
    namespace: dict[str, Any] = {"__name__": "readme_langgraph"}
    exec(compile(readme_example(), "README.md (langgraph-agent)", "exec"), namespace)
    store, build_agent = namespace["store"], namespace["build_agent"]
    assert isinstance(store, CredoStore) and (tmp_path / "agent.db").exists()

    model = scripted(call("remember", fact="I live in Berlin"), "Noted.")
    state = build_agent(model, store).invoke({"messages": [("user", "I live in Berlin")]})
    assert [m.content for m in tool_messages(state)] == ["stored"]
    assert state["messages"][-1].content == "Noted."
    assert [f.text for f in Memory(store.store, scope="memories.arttu").list()] == [
        "The user lives in Berlin"
    ]

    model = scripted(call("recall", query="where does the user live"), "In Berlin.")
    state = build_agent(model, store).invoke({"messages": [("user", "Where do I live?")]})
    assert tool_messages(state)[0].content == "The user lives in Berlin"
    assert "The user lives in Berlin" in model.seen[1][-1].content  # the model read it

    model = scripted(call("remember", fact="Can you book a table for two?"), "I won't store that.")
    state = build_agent(model, store).invoke({"messages": [("user", "Book a table")]})
    refusal = tool_messages(state)[0]
    assert refusal.status == "error" and "not stored" in str(refusal.content)
    assert state["messages"][-1].content == "I won't store that."  # the run went on


def test_langmem_tools_manage_and_search_through_credo(store: CredoStore) -> None:
    langmem = pytest.importorskip("langmem")
    ns = ("memories", "{langgraph_user_id}")
    manage = langmem.create_manage_memory_tool(namespace=ns)
    search = langmem.create_search_memory_tool(namespace=ns)
    config = {"configurable": {"langgraph_user_id": "arttu"}}

    model = scripted(call("manage_memory", content="I deploy arttuan.com on Vercel"), "Saved.")
    state = agent_with([manage, search], model, store).invoke(
        {"messages": [("user", "I deploy arttuan.com on Vercel")]}, config
    )
    created = tool_messages(state)[0].content
    memory_id = re.search(r"created memory ([0-9a-f-]{36})", str(created))
    assert memory_id, created
    item = store.get(NS, memory_id.group(1))
    assert item is not None and item.value["content"] == "The user deploys arttuan.com on Vercel"

    model = scripted(
        call(
            "manage_memory",
            content="I deploy arttuan.com on Netlify",
            action="update",
            id=memory_id.group(1),
        ),
        call("search_memory", query="where is arttuan.com deployed"),
        "Netlify.",
    )
    state = agent_with([manage, search], model, store).invoke(
        {"messages": [("user", "I moved arttuan.com to Netlify")]}, config
    )
    found = json.loads(str(tool_messages(state)[1].content))
    assert [m["value"]["content"] for m in found] == ["The user deploys arttuan.com on Netlify"]
    assert found[0]["key"] == memory_id.group(1) and found[0]["score"] > 0

    model = scripted(call("manage_memory", content="lol ok", action="create"), "Fine.")
    state = agent_with([manage, search], model, store).invoke(
        {"messages": [("user", "lol ok")]}, config
    )
    assert tool_messages(state)[0].status == "error"  # refused, and the model is told
    model = scripted(call("manage_memory", action="delete", id=memory_id.group(1)), "Gone.")
    agent_with([manage, search], model, store).invoke({"messages": [("user", "forget it")]}, config)
    assert store.get(NS, memory_id.group(1)) is None and store.memory(NS).list() == []


def test_delete_takes_what_was_derived_from_the_key(store: CredoStore) -> None:
    store.put(NS, "home", {"content": "I live in Berlin"})
    item = store.get(NS, "home")
    assert item is not None
    derived = (
        store.memory(NS)
        .remember("The user speaks German", source="inferred", derived_from=[item.value["fact_id"]])
        .fact
    )
    assert derived is not None and store.get(NS, derived.id) is not None
    store.delete(NS, "home")
    assert store.get(NS, "home") is None and store.get(NS, derived.id) is None
    assert store.memory(NS).list() == []
