"""Recall: exact entity hits first, then reciprocal rank fusion of vector and lexical lists.

Fusion: score(fact) = sum over the lists that found it of 1 / (RRF_K + rank), rank from 1,
RRF_K = 60 (config.RRF_K). The entity list is a third list (the facts about an entity the
query names, ranked by cosine to the query); facts it holds come first, whatever the other
lists think. Superseded and retracted facts never come back; facts under the confidence
floor are left out; a conflicted fact always brings the facts it conflicts with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .config import RECALL_FLOOR, RRF_K
from .fact import SELF_REFERENCES, Fact, Status, base_key, normalize_entity
from .store.base import Store


@dataclass
class Hit:
    fact: Fact
    score: float = 0.0
    found_by: list[str] = field(default_factory=list)  # entity, vector, lexical, conflict
    ranks: dict[str, int] = field(default_factory=dict)

    @property
    def record(self) -> Fact:
        return self.fact

    def to_dict(self) -> dict[str, Any]:
        data = self.fact.to_dict()
        data["score"] = round(self.score, 6)
        data["found_by"] = list(self.found_by)
        return data


def rrf(lists: dict[str, Sequence[str]], k: int = RRF_K) -> dict[str, tuple[float, dict[str, int]]]:
    """Reciprocal rank fusion: id -> (score, {list name: rank})."""
    fused: dict[str, tuple[float, dict[str, int]]] = {}
    for name, ids in lists.items():
        for rank, fact_id in enumerate(ids, start=1):
            score, ranks = fused.get(fact_id, (0.0, {}))
            ranks[name] = rank
            fused[fact_id] = (score + 1.0 / (k + rank), ranks)
    return fused


_WORD = re.compile(r"[\w.@-]+")


def entities_in(query: str, store: Store, *, scope: str, aliases: dict[str, str],
                canonical: str | None = None, longest: int = 4) -> list[str]:
    """Known entities the query names: subject keys and aliases as whole word sequences
    (up to `longest` words), and self-references ("my", "I") as the scope's own subject."""
    words = [w for w in (base_key(w) for w in _WORD.findall(query)) if w]
    grams = {" ".join(words[i : i + n]) for n in range(1, longest + 1)
             for i in range(len(words) - n + 1)}
    names = {aliases.get(g, g) for g in grams}
    if any(w in SELF_REFERENCES or w == "my" for w in words):
        names.add(normalize_entity("me", canonical_subject=canonical, aliases=aliases))
    return sorted(store.known_subjects(sorted(names), scope=scope)) if names else []


def recall(
    store: Store,
    query: str,
    *,
    scope: str = "default",
    k: int = 5,
    min_confidence: float = RECALL_FLOOR,
    subject: str | None = None,
    canonical_subject: str | None = None,
    depth: int = 4,
    entity_limit: int = 200,
) -> list[Hit]:
    """The facts that answer `query`, best first. May return more than `k` when a conflicted
    fact brings its counterpart: a contradiction is never cut in half."""
    if not isinstance(query, str) or not query.strip():
        raise ValueError("recall needs a non-empty query")
    if k <= 0:
        raise ValueError("k must be a positive number")
    n = max(k * depth, 20)
    qvec = store.embed([query], kind="query")[0]
    vector = [fid for fid, _ in store.vector_search(qvec, scope=scope, k=n)]
    lexical = [fid for fid, _ in store.lexical_search(query, scope=scope, k=n)]

    aliases = store.aliases(scope=scope)
    named = [subject] if subject else entities_in(
        query, store, scope=scope, aliases=aliases, canonical=canonical_subject
    )
    entity: list[str] = []
    if named:
        exact = [f for s in named for f in store.by_subject(s, scope=scope, limit=entity_limit)]
        vecs = store.vectors_of([f.id for f in exact], scope=scope)
        sims = {fid: float(np.dot(v, qvec)) for fid, v in vecs.items()}
        entity = sorted((f.id for f in exact), key=lambda i: sims.get(i, -1.0), reverse=True)

    fused = rrf({"entity": entity, "vector": vector, "lexical": lexical})
    in_entity = set(entity)
    order = sorted(fused, key=lambda i: (i not in in_entity, -fused[i][0]))
    facts: dict[str, Fact] = {}
    fetched = 0

    out: list[Hit] = []
    seen: set[str] = set()
    for position, fact_id in enumerate(order):
        if len(out) >= k:
            break
        if position >= fetched:  # fetch rows lazily: most queries stop after a few
            batch = order[fetched : fetched + max(2 * k, 10)]
            facts.update((f.id, f) for f in store.get_many(batch, scope=scope))
            fetched += len(batch)
        fact = facts.get(fact_id)
        if fact is None or fact.id in seen or not fact.is_live:
            continue
        if fact.confidence < min_confidence and fact.status is not Status.CONFLICTED:
            continue
        score, ranks = fused[fact_id]
        out.append(Hit(fact, score, [name for name in ("entity", "vector", "lexical")
                                     if name in ranks], ranks))
        seen.add(fact.id)
        if fact.status is Status.CONFLICTED:
            for other in store.conflicts_of(fact.id, scope=scope):
                if other.id not in seen:
                    partner_score, partner_ranks = fused.get(other.id, (0.0, {}))
                    via = [name for name in ("entity", "vector", "lexical")
                           if name in partner_ranks]
                    out.append(Hit(other, partner_score, [*via, "conflict"], partner_ranks))
                    seen.add(other.id)
    return out
