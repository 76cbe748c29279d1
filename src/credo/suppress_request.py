""" "Don't remember that": finding a request not to store something in a user turn.

Three shapes are recognised:

* about the previous turn: "don't remember that", "please don't store this",
  "forget what I just said", "scratch that", "that's off the record";
* about a topic: "please don't store my address", "don't save my phone number",
  "don't keep anything about my health";
* about a statement: "forget that I said I live in Berlin", "forget that I work at Acme".

`detect` is pure (no store, no clock). The request itself never becomes a fact:
extractors skip turns for which `is_suppression_request` is true. What honouring a
request writes is planned by `credo.suppress` and applied by `Memory.honour`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .keys import parse_key
from .language import words

__all__ = [
    "RequestParts",
    "SuppressionRequest",
    "detect",
    "is_suppression_request",
    "rule_terms",
    "split_requests",
]

_NEG = r"(?:do\s+not|don't|dont|never|please\s+do\s+not|please\s+don't|no\s+need\s+to|stop)"
_VERB = (
    r"(?:remember|store|save|keep|record|log|note|memori[sz]e|write\s+down|"
    r"keep\s+track\s+of|hold\s+on\s+to)"
)
_THAT = r"(?:that|this|it|those|these|what\s+I\s+(?:just\s+)?(?:said|told\s+you|wrote))"
_END = r"\s*(?:[.!,;:]|$|\s+(?:please|ok|okay|thanks|either|anymore|any\s+more)\b)"
_PLEASE = r"(?:(?:please|can\s+you|could\s+you|would\s+you|just|and|actually|oh|also|so)[\s,]+)*"

_PREVIOUS = [
    re.compile(rf"\b{_NEG}\s+(?:you\s+)?{_VERB}\s+{_THAT}{_END}", re.IGNORECASE),
    re.compile(rf"(?:^|[.!?,]\s*){_PLEASE}forget\s+{_THAT}{_END}", re.IGNORECASE),
    re.compile(
        r"(?:^|[.!?,]\s*)(?:please\s+)?(?:scratch|strike|disregard|ignore)\s+that\b", re.IGNORECASE
    ),
    re.compile(
        r"\b(?:that's|that\s+is|this\s+is|keep\s+(?:that|this))\s+(?:strictly\s+)?"
        r"(?:off\s+the\s+record|private|between\s+us|confidential)\b",
        re.IGNORECASE,
    ),
]
_FORGET_STATEMENT = re.compile(
    rf"(?:^|[.!?,]\s*){_PLEASE}forget\s+(?:that\s+|about\s+|the\s+fact\s+that\s+)?"
    r"(?:I\s+(?:said|told\s+you|mentioned|wrote)\s+(?:that\s+)?)?(?P<what>[^.!?]+)",
    re.IGNORECASE,
)
_TOPIC = re.compile(
    rf"\b{_NEG}\s+(?:you\s+)?{_VERB}\s+(?:(?:anything|things|stuff|info|information|details)"
    r"\s+(?:about|on|regarding)\s+)?(?P<what>(?:my|our)\s+[^.!?,;]+|"
    r"(?:the\s+fact\s+)?that\s+[^.!?;]+)",
    re.IGNORECASE,
)
#: "don't forget that ..." asks to remember; it must never read as a suppression
_NOT_A_REQUEST = re.compile(
    r"\b(?:don't|do\s+not|never|won't|will\s+not|I|can't)\s+forget\b|"
    r"\bforgot\b",
    re.IGNORECASE,
)

#: words left out of a rule's terms: the lexicon's "request_stop_words"
_STOP = words("request_stop_words")
#: a topic also stands for the ways a fact about it is usually phrased
_SYNONYMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "address": (("address",), ("lives", "at"), ("home", "address")),
    "home address": (("address",), ("lives", "at")),
    "phone": (("phone",), ("mobile",), ("cell",)),
    "phone number": (("phone",), ("mobile",), ("cell",)),
    "number": (("phone",), ("number",)),
    "email": (("email",),),
    "email address": (("email",),),
    "birthday": (("birthday",), ("born",)),
    "age": (("age",), ("years", "old")),
    "salary": (("salary",), ("earns",)),
    "password": (("password",),),
}


@dataclass(frozen=True)
class SuppressionRequest:
    """A request found in a turn. `kind` is "previous" (about the speaker's previous
    turn), "topic" ("my address") or "statement" ("forget that I live in Berlin")."""

    kind: str
    phrase: str  # what the user named, as written ("" for "previous")
    term_sets: tuple[tuple[str, ...], ...] = field(default=())  # one rule per set


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.lower()) if w not in _STOP and len(w) > 1]


def rule_terms(phrase: str, *, limit: int = 4) -> tuple[tuple[str, ...], ...]:
    """The word sets that stand for `phrase`: its object when it is a statement ("I live in
    Berlin" -> berlin), its content words when it is a noun phrase ("my phone number")."""
    phrase = re.sub(
        r"^(?:that|the\s+fact\s+that|about)\s+", "", phrase.strip(), flags=re.IGNORECASE
    )
    phrase = re.sub(
        r"\s+(?:please|either|anymore|any more|ok|okay|thanks)$", "", phrase, flags=re.IGNORECASE
    ).strip()
    noun = re.sub(r"^(?:my|our)\s+", "", phrase, flags=re.IGNORECASE).strip().lower()
    if noun in _SYNONYMS:
        return _SYNONYMS[noun]
    words: list[str] = []
    if re.match(r"^(?:I|I'm|I've|we|my|our)\b", phrase, re.IGNORECASE):
        parsed = parse_key(phrase)
        if parsed is not None:
            words = content_words(parsed.object or "")
    if not words:
        words = content_words(phrase)
    return (tuple(words[:limit]),) if words else ()


def detect(text: str) -> SuppressionRequest | None:
    """The request in `text`, or None. Pure: no store, no clock."""
    text = re.sub(r"[’`]", "'", text or "").strip()
    if not text:
        return None
    for rx in _PREVIOUS:
        if rx.search(text) and not _NOT_A_REQUEST.search(text):
            return SuppressionRequest("previous", "")
    topic = _TOPIC.search(text)
    if topic:
        what = topic.group("what").strip()
        terms = rule_terms(what)
        if terms:
            return SuppressionRequest("topic", what, terms)
    if not _NOT_A_REQUEST.search(text):
        found = _FORGET_STATEMENT.search(text)
        if found:
            what = found.group("what").strip()
            terms = rule_terms(what)
            if terms:
                kind = "statement" if re.match(r"^(?:I|I'm|we)\b", what) else "topic"
                return SuppressionRequest(kind, what, terms)
    return None


def is_suppression_request(text: str) -> bool:
    return detect(text) is not None


#: where one sentence ends and the next begins
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class RequestParts:
    """A text of several sentences, one or more of them a request: the requests, each
    with its sentence and what its "that" names when it names something said before it
    in the same text ("I'm 52. Don't remember that."; empty: it names the speaker's
    previous turn, or it is no "previous" request); and the other sentences, statements
    to remember as any other."""

    requests: tuple[tuple[str, SuppressionRequest, tuple[str, ...]], ...]
    kept: tuple[str, ...] = ()

    @property
    def named(self) -> tuple[str, ...]:
        """The sentences a request's "that" names: not stored."""
        return tuple(s for _, _, names in self.requests for s in names)


def split_requests(text: str) -> RequestParts | None:
    """The requests and the statements of a text of several sentences, or None when it
    is one sentence or no sentence of it is a request on its own (then the text is one
    request, as `detect` reads it). Pure.

    "I moved to Porto. Don't store my salary." keeps "I moved to Porto"; "I'm 52. Don't
    remember that. I live in Oslo." names "I'm 52" and keeps "I live in Oslo"."""
    sentences = [s.strip() for s in _SENTENCE_BREAK.split(text.strip()) if s.strip()]
    if len(sentences) < 2:
        return None
    found = [detect(sentence) for sentence in sentences]
    if not any(found):
        return None
    requests: list[tuple[str, SuppressionRequest, tuple[str, ...]]] = []
    kept: list[str] = []
    since: list[str] = []  # statements since the last request
    for sentence, request in zip(sentences, found, strict=True):
        if request is None:
            since.append(sentence)
            continue
        if request.kind == "previous":  # "that" is what was just said
            requests.append((sentence, request, tuple(since)))
        else:
            requests.append((sentence, request, ()))
            kept.extend(since)
        since = []
    kept.extend(since)
    return RequestParts(tuple(requests), tuple(kept))
