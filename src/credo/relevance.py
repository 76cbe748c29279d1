"""The relevance floor: which recalled facts a prompt block carries.

`recall` always fills k: asked "deploy target" in a store that knows nothing about
deploying, it still returns its k nearest facts ("works at Reaktor", "editor is Helix"),
and a query with no words at all (a lone quote) still returns facts. A prompt block should
carry only what bears on the question, so rendering keeps:

- every entity hit: a fact of an entity the query names, when that entity's facts all fit
  in the answer (the entity list took part in the fusion, `"entity" in hit.ranks`). A
  speaker of a long conversation has more facts than k; those facts are not kept on their
  name alone, they need the floor like any other;
- every fact whose cosine to the query (`Hit.similarity`, before pseudo-relevance
  feedback) is at least `RENDER_FLOOR`, or at least `LEXICAL_FLOOR` when the full-text
  list found it too (it shares a word with the query: weaker closeness, corroborated);
- whole conflicts: a conflicted fact and the partners recall brought with it are kept or
  dropped together (kept when any of them is kept), so a contradiction is never cut in
  half.

A query with no letter or digit keeps nothing. The two cut-offs were chosen by measurement on
LoCoMo dev (`credo eval locomo --render-floor`, docs/benchmarks.md, "Relevance floor"): of
the pairs tried, the one that left fewest facts for queries the conversations do not bear
on while keeping evidence R@10 within 0.01 of rendering without a floor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .recall import Hit

#: cosine (all-MiniLM-L6-v2, the default local embedder) at which a recalled fact is
#: close enough to the query on its own
RENDER_FLOOR = 0.40
#: the lower cosine that is enough when the full-text list found the fact as well
LEXICAL_FLOOR = 0.20

_WORDY = re.compile(r"\w")


def is_entity_hit(hit: Hit) -> bool:
    """A fact of an entity the query names, all of whose facts fit in the answer."""
    return "entity" in hit.ranks


def _groups(hits: Sequence[Hit]) -> list[list[Hit]]:
    """Each hit with the conflict partners recall placed right after it."""
    groups: list[list[Hit]] = []
    for hit in hits:
        if groups and "conflict" in hit.found_by:
            groups[-1].append(hit)
        else:
            groups.append([hit])
    return groups


def keep_relevant(
    hits: Sequence[Hit],
    *,
    query: str | None = None,
    floor: float = RENDER_FLOOR,
    lexical_floor: float = LEXICAL_FLOOR,
) -> list[Hit]:
    """The hits a prompt block carries, in their order (see the module's rules).

    `query`, when given, lets a query without a letter or digit keep nothing. A hit whose
    similarity is unknown (None) is kept only as an entity hit or with its conflict."""
    if query is not None and not _WORDY.search(query):
        return []

    def relevant(hit: Hit) -> bool:
        if is_entity_hit(hit):
            return True
        if hit.similarity is None:
            return False
        if "lexical" in hit.found_by:
            return hit.similarity >= min(floor, lexical_floor)
        return hit.similarity >= floor

    kept: list[Hit] = []
    for group in _groups(hits):
        if any(relevant(h) for h in group):
            kept.extend(group)
    return kept
