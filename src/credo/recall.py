"""Recall: exact entity hits first, then reciprocal rank fusion of ranked lists.

Fusion: score(fact) = sum over the lists that found it of 1 / (RRF_K + rank), rank from 1,
RRF_K = 60 (config.RRF_K). Each list takes part with its top `max(k, depth)` (depth 20):
deeper lists let facts that two lists rank low outscore a fact one list ranks first.

The lists:
- vector: cosine to the query vector after one round of pseudo-relevance feedback (the
  query vector moved toward the mean of the first fusion's top 3 facts, then the candidate
  pool re-scored with it);
- lexical: full-text (BM25 in SQLite, ts_rank in PostgreSQL) on what the query asks of
  the entities it names, without their names ("does Arttu have pets" -> "does have
  pets"): every fact of an entity holds its name, so matching on it ranked them by
  length, the short ones first;
- date: when the query names a date, month or year ("in May 2023", "on 8 May", "2024"),
  the pool's facts whose `valid_from` lies in that period or up to 31 days after it (what
  people report comes shortly after it happens), in first-fusion order;
- entity: when the entities the query names have at most k live facts in all, those
  facts, ranked by cosine to the query.

Entity hits come first: every fact of a named entity when they fit in k (the seed's rule:
those facts belong in the answer, whatever the embeddings say); when an entity has more
facts than the answer holds (a speaker of a long conversation), its facts that a list found
come first, in fused order. Either way they are in the order of how well they answer the
question. An entity is named by its name or an alias. A self-reference ("my", "I") names
the scope's own subject: its facts all come first when they fit in k (a small store), but
when they do not they are ranked like any other, never first as a block: the user is the
subject of most facts, and "my mother" asks about her.

A fact that reads almost as one already in the answer (cosine >= NEAR_DUPLICATE: the same
thing told twice) gives way to the next fact, and comes back only when the answer has
room. Superseded and retracted facts never come back; facts under the confidence floor are
left out, conflicted ones too; a conflicted fact that is returned always brings the facts
it conflicts with, under the floor or not (a contradiction is never cut in half), and is
never held back as a repeat.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from . import workers
from .config import MAX_RECALL_K, RECALL_FLOOR, RRF_K
from .fact import SELF_REFERENCES, Fact, Status, base_key, normalize_entity
from .store.base import Store

if TYPE_CHECKING:
    from .beliefs import TimeView


@dataclass
class Hit:
    fact: Fact
    score: float = 0.0
    found_by: list[str] = field(default_factory=list)  # entity, vector, lexical, conflict
    ranks: dict[str, int] = field(default_factory=dict)
    #: cosine of the fact's vector to the query's (before feedback); None when unknown
    similarity: float | None = None

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
_WORDY = re.compile(r"[^\W_]")


def named_in(
    query: str,
    store: Store,
    *,
    scope: str,
    aliases: dict[str, str],
    longest: int = 4,
) -> tuple[list[str], str]:
    """The known entities the query names by name (subject keys and aliases as whole word
    sequences, up to `longest` words), and the query without those words: what it asks
    of them ("does Arttu have pets" -> "does have pets").

    Self-references ("my", "I") are `self_named`'s: the scope's own subject is the
    subject of most of its facts, and "my mother" asks about the mother."""
    spans = [(m, base_key(m.group())) for m in _WORD.finditer(query)]
    spans = [(m, w) for m, w in spans if w]
    words = [w for _, w in spans]
    grams: dict[str, list[range]] = {}
    for n in range(1, longest + 1):
        for i in range(len(words) - n + 1):
            gram = " ".join(words[i : i + n])
            grams.setdefault(aliases.get(gram, gram), []).append(range(i, i + n))
    known = store.known_subjects(sorted(grams), scope=scope) if grams else set()
    covered = sorted({i for name in known for r in grams.get(name, ()) for i in r})
    if not covered:
        return sorted(known), query
    rest, at = [], 0
    for i in covered:
        start, end = spans[i][0].span()
        rest.append(query[at:start])
        at = end
    rest.append(query[at:])
    return sorted(known), " ".join(" ".join(rest).split())


def self_named(
    query: str, store: Store, *, scope: str, aliases: dict[str, str], canonical: str | None = None
) -> str | None:
    """The scope's own subject when the query refers to the speaker ("my", "I") and the
    scope holds facts about it."""
    words = [w for w in (base_key(w) for w in _WORD.findall(query)) if w]
    if not any(w in SELF_REFERENCES or w == "my" for w in words):
        return None
    me = normalize_entity("me", canonical_subject=canonical, aliases=aliases)
    return me if me and store.known_subjects([me], scope=scope) else None


def entities_in(
    query: str,
    store: Store,
    *,
    scope: str,
    aliases: dict[str, str],
    canonical: str | None = None,
    longest: int = 4,
) -> list[str]:
    """Known entities the query names: by name (`named_in`), and by self-reference ("my",
    "I") the scope's own subject (`self_named`)."""
    names = set(named_in(query, store, scope=scope, aliases=aliases, longest=longest)[0])
    me = self_named(query, store, scope=scope, aliases=aliases, canonical=canonical)
    return sorted(names | ({me} if me else set()))


#: each list's top max(k, LIST_DEPTH) take part in the fusion
LIST_DEPTH = 20
#: how deep the vector and lexical searches go to make the candidate pool that feedback
#: and the date list work on. 50, not 100: LoCoMo R@10 is the same (0.699 raw turns, 0.357
#: extracted facts), so is the top 10 of recalls at 1M facts (agreement 0.999-1.0, 200
#: queries), and on PostgreSQL at 1M a recall reads half the vectors (p50 ~8 -> ~6 ms)
POOL = 50
#: pseudo-relevance feedback: the query vector moves toward the mean of the first
#: fusion's top FEEDBACK_DOCS facts, by FEEDBACK_WEIGHT (the query itself weighs 1)
FEEDBACK_DOCS = 3
FEEDBACK_WEIGHT = 0.5
#: a fact whose cosine to one already in the answer is at least this reads as a repeat of
#: it: it gives way to the next fact, and comes back only when the answer has room. 0.95
#: holds back restatements ("I'm flying to Japan next month" told twice); at 0.9 LoCoMo
#: R@10 on extracted facts fell 0.383 -> 0.378: distinct events read alike there ("won
#: his first tournament", "won another tournament"). None: no step
NEAR_DUPLICATE: float | None = 0.95
#: a period the query names also covers this many days after it
DATE_SLACK_DAYS = 31

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): n for n, name in enumerate(calendar.month_abbr) if name})
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATES = re.compile(
    r"\b(?P<iso>(?P<iy>\d{4})-(?P<im>\d{1,2})(?:-(?P<id>\d{1,2}))?)\b"
    rf"|\b(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+)?(?P<mon>{_MONTH})\b\.?"
    r"(?:\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b)?(?:,?\s+(?P<my>(?:19|20)\d{2})\b)?"
    r"|\b(?P<year>(?:19|20)\d{2})\b",
    re.IGNORECASE,
)

Period = tuple[int | None, int | None, int | None]  # (year, month, day); None: any


def periods_in(query: str) -> list[Period]:
    """Dates, months and years a query names: "May 2023", "8 May", "2023-05-08", "2024"."""
    out: list[Period] = []
    for m in _DATES.finditer(query):
        if m.group("iso"):
            day = int(m.group("id")) if m.group("id") else None
            out.append((int(m.group("iy")), int(m.group("im")), day))
        elif m.group("mon"):
            day_text = m.group("d1") or m.group("d2")
            year = int(m.group("my")) if m.group("my") else None
            month = _MONTHS[m.group("mon").lower()]
            if month == 5 and not (day_text or year) and m.group("mon").islower():
                continue  # the verb "may", not the month
            out.append((year, month, int(day_text) if day_text else None))
        elif m.group("year"):
            out.append((int(m.group("year")), None, None))
    return [p for p in out if p[1] is None or 1 <= p[1] <= 12]


def in_period(
    when: float | None, periods: Sequence[Period], slack_days: int = DATE_SLACK_DAYS
) -> bool:
    """Whether a time falls in one of the periods, or at most `slack_days` after it. A
    period with no year matches that period in the time's own year or the year before."""
    if when is None:
        return False
    moment = datetime.fromtimestamp(when, tz=UTC)
    slack = timedelta(days=slack_days)
    for year, month, day in periods:
        for y in (year,) if year is not None else (moment.year, moment.year - 1):
            try:
                start = datetime(y, month or 1, day or 1, tzinfo=UTC)
            except ValueError:  # "31 February"
                continue
            if day is not None:
                end = start + timedelta(days=1)
            elif month is not None:
                end = start + timedelta(days=calendar.monthrange(y, month)[1])
            else:
                end = start.replace(year=y + 1)
            if start <= moment < end + slack:
                return True
    return False


def _vector_search_async(store: Store, query: str, *, scope: str, k: int) -> Future[Any]:
    """The query's embedding, and where the store allows it (`Store.concurrent_nearest`:
    PostgreSQL, on a connection of its own) its nearest stored vectors, computed on a
    worker thread while the caller runs the searches that need no vector (full text,
    entities: SQL that releases the GIL, as the model does). A future of (vector, nearest
    or None). On two cores this takes the lexical search off the critical path: SQLite at
    100k facts, recall p50 6.4 -> 5.3 ms with the query embedding alone at 2.2 ms; the
    vector search stays on the caller's thread there, where it scans in parts on the pool
    (docs/benchmarks.md, "Scale")."""

    def run() -> tuple[Any, list[tuple[str, float, Any]] | None]:
        qvec = store.embed([query], kind="query")[0]
        if not store.concurrent_nearest:
            return qvec, None
        return qvec, store.nearest(qvec, scope=scope, k=k)

    return workers.submit(run)


def _unit(vec: Any) -> Any:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def _partners(store: Store, fact_id: str, *, scope: str, view: TimeView | None) -> list[Fact]:
    """The facts an open conflict ties to this one (open then, for a view)."""
    if view is None:
        return store.conflicts_of(fact_id, scope=scope)
    ids = view.open_partners(fact_id)
    view.load(store, ids, scope=scope)
    projected = (view.project(f) for f in store.get_many(ids, scope=scope))
    return [f for f in projected if f is not None]


def recall(
    store: Store,
    query: str,
    *,
    scope: str = "default",
    k: int = 5,
    min_confidence: float = RECALL_FLOOR,
    subject: str | None = None,
    depth: int = LIST_DEPTH,
    entity_limit: int = 200,
    feedback: bool = True,
    view: TimeView | None = None,
) -> list[Hit]:
    """The facts that answer `query`, best first. May return more than `k` when a conflicted
    fact brings its counterpart: a contradiction is never cut in half.

    `subject` names the entity instead of finding it in the query; `depth` is how much of
    each list takes part in the fusion (at least k); `feedback=False` skips the
    pseudo-relevance feedback round (one vector read fewer). With a `view`, the facts are
    those the view holds true (`beliefs.TimeView`: as of a date, as known at a date), each
    with the status it had then, and the conflicts that were open then."""
    if not isinstance(query, str) or not query.strip():
        raise ValueError("recall needs a non-empty query")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 < k <= MAX_RECALL_K:
        raise ValueError(f"k must be a whole number from 1 to {MAX_RECALL_K:,}, not {k!r:.40}")
    n = max(k, depth)
    pool_size = max(n, POOL)
    pending = _vector_search_async(store, query, scope=scope, k=pool_size)
    known: dict[str, Any] = {}  # stored vectors read so far
    try:
        aliases = store.aliases(scope=scope)
        named, asked = named_in(query, store, scope=scope, aliases=aliases)
        if subject:
            named = [subject]
        # "my", "I": the user's facts all come when they fit in the answer (a small store);
        # when they do not, they are ranked like any other ("my mother" asks about her)
        me = None if subject else self_named(query, store, scope=scope, aliases=aliases)
        selves = [me] if me and me not in named else []
        # a named entity's name is in all its facts (and its subject column): full-text
        # search on it ranks them by length. What the query asks of it is the rest.
        if not _WORDY.search(asked):
            asked = query
        if feedback:  # the feedback round re-scores the whole pool: read these meanwhile
            found = store.lexical_nearest(asked, scope=scope, k=pool_size)
            known.update((fid, vec) for fid, _, vec in found if vec is not None)
            lexical = [fid for fid, _, _ in found]
        else:
            lexical = [fid for fid, _ in store.lexical_search(asked, scope=scope, k=pool_size)]
        # the named entities' facts (while the embedding runs): all of them, when they fit
        exact = [
            f
            for s in [*named, *selves]
            for f in store.by_subject(
                s, scope=scope, limit=min(k, entity_limit) + 1, live_only=view is None
            )
        ]
        if view is not None:  # the entity's facts as the view holds them
            view.load(store, [f.id for f in exact], scope=scope)
            exact = [f for f in exact if view.project(f) is not None]
    except BaseException:
        wait([pending])  # no embedding left running against the store after an error
        raise
    qvec, near = pending.result()
    if near is None:
        near = store.nearest(qvec, scope=scope, k=pool_size)
    vector = [fid for fid, _, _ in near]
    known.update((fid, vec) for fid, _, vec in near)

    def vectors(ids: Sequence[str]) -> dict[str, Any]:
        missing = [i for i in ids if i not in known]
        if missing:
            known.update(store.vectors_of(missing, scope=scope))
        return {i: known[i] for i in ids if i in known}

    first = rrf({"vector": vector[:n], "lexical": lexical[:n]})
    first_order = sorted(first, key=lambda i: -first[i][0])
    pool = list(dict.fromkeys([*vector, *lexical]))

    if feedback and len(first_order) > FEEDBACK_DOCS:
        # the top facts say how the store words what the query asks: re-score the pool
        # with a query vector moved toward them
        vecs = vectors(pool)
        top = [vecs[i] for i in first_order[:FEEDBACK_DOCS] if i in vecs]
        if top and vecs:
            moved = _unit(qvec + FEEDBACK_WEIGHT * np.mean(top, axis=0))
            ids = list(vecs)
            # one dot per row, not a threaded BLAS product (see store.vectors._dot)
            sims = np.vecdot(np.stack([vecs[i] for i in ids]), moved)
            vector = [ids[int(j)] for j in np.argsort(-sims, kind="stable")]

    lists: dict[str, Sequence[str]] = {"vector": vector[:n], "lexical": lexical[:n]}
    facts: dict[str, Fact] = {}
    periods = periods_in(query)
    if periods:
        facts.update((f.id, f) for f in store.get_many(pool, scope=scope))
        ordered = [*first_order, *(i for i in pool if i not in first)]
        lists["date"] = [
            i for i in ordered if i in facts and in_period(facts[i].valid_from, periods)
        ][:n]

    first_ids: set[str] = set()
    if (named or selves) and len(exact) <= k:
        evecs = vectors([f.id for f in exact])
        esims = {fid: float(np.dot(v, qvec)) for fid, v in evecs.items()}
        lists["entity"] = sorted(
            (f.id for f in exact), key=lambda i: esims.get(i, -1.0), reverse=True
        )
        first_ids = set(lists["entity"])
    fused = rrf(lists)
    if named and not first_ids:
        # more facts about the entity than the answer holds: the ones a list found lead
        # (their subjects only: the rows are read below, as far as the answer goes)
        names = set(named)
        subjects = {i: f.subject for i, f in facts.items()}
        subjects.update(store.subjects_of([i for i in fused if i not in facts], scope=scope))
        first_ids = {i for i in fused if subjects.get(i) in names}
    order = sorted(fused, key=lambda i: (i not in first_ids, -fused[i][0]))
    fetched = 0

    out: list[Hit] = []
    seen: set[str] = set()
    # near-duplicates: a fact that reads almost as one already in the answer waits until
    # the answer has room (the vectors of the facts in it, one row each)
    deferred: list[Hit] = []
    taken: list[Any] = []
    names_of = ("entity", "vector", "lexical", "date")
    for position, fact_id in enumerate(order):
        if len(out) >= k:
            break
        if position >= fetched:  # fetch rows lazily: most queries stop after a few
            ahead = order[fetched : fetched + max(2 * k, 10)]
            batch = [i for i in ahead if i not in facts]
            facts.update((f.id, f) for f in store.get_many(batch, scope=scope))
            if view is not None:
                view.load(store, list(ahead), scope=scope)
            if NEAR_DUPLICATE is not None:
                vectors(ahead)
            fetched += max(2 * k, 10)
        fact = facts.get(fact_id)
        if fact is not None and view is not None:
            view.load(store, [fact.id], scope=scope)
            fact = view.project(fact)
        if fact is None or fact.id in seen or not fact.is_live:
            continue
        if fact.confidence < min_confidence:
            continue
        score, ranks = fused[fact_id]
        via = [name for name in names_of if name in ranks]
        if fact_id in first_ids and "entity" not in via:
            via.insert(0, "entity")
        hit = Hit(fact, score, via, ranks)
        seen.add(fact.id)
        vec = known.get(fact.id)
        if NEAR_DUPLICATE is not None and vec is not None:
            if (
                fact.status is not Status.CONFLICTED
                and taken
                and float(np.max(np.stack(taken) @ vec)) >= NEAR_DUPLICATE
            ):
                deferred.append(hit)
                continue
            taken.append(vec)
        out.append(hit)
        if fact.status is Status.CONFLICTED:
            for other in _partners(store, fact.id, scope=scope, view=view):
                if other.id not in seen:  # whole: a contradiction is never cut in half
                    partner_score, partner_ranks = fused.get(other.id, (0.0, {}))
                    pvia = [name for name in names_of if name in partner_ranks]
                    out.append(Hit(other, partner_score, [*pvia, "conflict"], partner_ranks))
                    seen.add(other.id)
                    if NEAR_DUPLICATE is not None and other.id in vectors([other.id]):
                        taken.append(known[other.id])
    out.extend(deferred[: max(0, k - len(out))])
    sims = vectors([h.fact.id for h in out]) if out else {}
    for hit in out:  # what the relevance floor (credo.relevance) reads
        if hit.fact.id in sims:
            hit.similarity = float(np.dot(sims[hit.fact.id], qvec))
    return out
