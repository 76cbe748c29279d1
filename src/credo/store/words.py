"""The words of a query both backends match (`query_words`), and which of them may select
full-text candidates in a large store.

Ranking every row that holds a common word ("live", a frequent first name) costs time in
proportion to how many rows hold it. Counting a word's rows is cheap, so each word is
counted once, up to the cutoff, and only the rare ones (in at most 1% of rows, or 500)
select candidates; every word still scores them. The counts only choose which words
select, so a process keeps them until the store has grown by a tenth (a recall's words
recur: names, "live"), over the whole store (the cutoff is the whole store's too): one
count per word serves every scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

#: stores with fewer rows than this rank every row that matches any query word. It was
#: 20,000, and the middle sizes were the slow ones: at 10k facts a question's common words
#: ("live", a first name) match ~1,500 rows, all ranked (PostgreSQL: 28.7 ms of a 41 ms
#: recall, against 8.1 of 28 at 100k). From 2,000, on 150 questions made from a 10k
#: store's own facts (bench/bench_rare_words.py), the fact asked about came first 0.18 ->
#: 0.54 (SQLite; PostgreSQL 0.167 -> 0.48) and in the top 10 0.98 -> 1.0 (0.82 -> 0.947),
#: recall p50 9.8-15.1 -> 4.5-5.3 ms (30-40 -> 14-18 under more load). LoCoMo's stores
#: (~550 turns each) stay below it (docs/benchmarks.md, issue 27)
RARE_WORDS_FROM = 2_000
#: words whose counts a process keeps, at most
KEPT = 50_000
#: the words of a query matched, at most
MAX_QUERY_WORDS = 32


#: words too common to help a lexical match; dropping them keeps FTS queries fast
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "do",
        "does",
        "did",
        "about",
        "just",
        "also",
        "any",
        "some",
    ]
)


def query_words(text: str) -> list[str]:
    """The words of user text worth matching: lower-cased, de-duplicated, no stopwords."""
    words = [w for w in re.findall(r"\w+", text.lower()) if w not in STOPWORDS]
    return list(dict.fromkeys(words))[:MAX_QUERY_WORDS]


class WordCounts:
    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        #: the store's row count the counts were made at
        self.rows = 0

    def held(self, word: str) -> int:
        """The rows holding `word`, as last counted (0 when never counted)."""
        return self._held.get(word, 0)

    def rare(
        self,
        words: Sequence[str],
        rows: int,
        count: Callable[[Sequence[str], int], Sequence[int]],
        *,
        start: int = RARE_WORDS_FROM,
    ) -> list[str] | None:
        """The words that select candidates, or None when every matching row is ranked
        (a small store, a one-word query). `count(words, cutoff)` counts the rows holding
        each word, in order (one call for all the words not counted yet: one round trip on
        a server); it may stop past the cutoff."""
        if len(words) < 2 or rows < start:
            return None
        cutoff = max(500, rows // 100)
        if not self.rows <= rows <= self.rows * 1.1:
            self._held.clear()
            self.rows = rows
        new = [w for w in dict.fromkeys(words) if w not in self._held]
        if new:
            if len(self._held) + len(new) > KEPT:
                self._held.clear()
            counted = count(new, cutoff)
            if len(counted) != len(new):
                raise ValueError(f"{len(counted)} counts for {len(new)} words")
            self._held.update(zip(new, (int(c) for c in counted), strict=True))
        counts = {w: self._held[w] for w in words}
        rare = [w for w in words if counts[w] <= cutoff]
        return rare or [min(words, key=lambda w: counts[w])]
