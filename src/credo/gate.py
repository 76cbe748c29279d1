"""The gate: what may become a fact. Durable, specific, sourced, asserted; nothing denied.

`check()` is a pure function of a candidate and a policy; it returns a `Verdict` whose
`code` is a stable category (`hedged`, `affect`, `secret`, ...) and whose `reason` says
what matched. Callers store every rejection: rejections are data, not debug output.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .config import MAX_FACT_CHARS
from .fact import SOURCE_CONFIDENCE
from .language import mapping, word_list, words
from .language.schedule import WEEKDAYS
from .passing_states import passing_state

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

    from .keys import Statement
    from .predicates import Catalogue

DENY_LIST = (
    "NEVER extract: emotions or mood, opinions the user attributes to others, speculation "
    "about the future, anything the user hedged, transient state (what is running, what is "
    "open, what is failing right now), restatements of your own previous answers, or "
    "anything the user asked you not to remember."
)

# the default marker lists of a policy are the lexicon's (credo/language/lexicon.toml)
HEDGE_MARKERS = word_list("hedges")
AFFECT_MARKERS = word_list("affect")
SPECULATION_MARKERS = word_list("speculation")
TRANSIENT_MARKERS = word_list("transient")
ATTRIBUTION_MARKERS = word_list("attribution")
VAGUE_MARKERS = word_list("vague")

KEEP_EXAMPLES = (
    "Arttu deploys arttuan.com on Vercel.",
    "Arttu lives in Berlin.",
    "The deploy target for the API is prod.",
    "Arttu's editor is Helix.",
    "Arttu is allergic to peanuts.",
    "The team's database is Postgres 16 on Neon.",
)
REFUSE_EXAMPLES = (
    "The user seems frustrated with the build. (mood)",
    "Arttu might switch to Postgres eventually. (hedged intention)",
    "The build is failing. (transient state)",
    "The user likes clean code. (not specific)",
    "Arttu's colleague thinks Rust is overrated. (opinion attributed to another)",
)


@dataclass(frozen=True)
class GatePolicy:
    """What counts as a fact, as configuration. Defaults are the seed's categories."""

    hedges: tuple[str, ...] = HEDGE_MARKERS
    affect: tuple[str, ...] = AFFECT_MARKERS
    speculation: tuple[str, ...] = SPECULATION_MARKERS
    transient: tuple[str, ...] = TRANSIENT_MARKERS
    attribution: tuple[str, ...] = ATTRIBUTION_MARKERS
    vague: tuple[str, ...] = VAGUE_MARKERS
    deny_list: str = DENY_LIST
    keep_examples: tuple[str, ...] = KEEP_EXAMPLES
    refuse_examples: tuple[str, ...] = REFUSE_EXAMPLES
    min_chars: int = 8
    max_words: int = 40
    #: extensions of the predicate catalogue (`credo/data/predicates.toml`)
    one_valued: tuple[str, ...] = ()
    many_valued: tuple[str, ...] = ()
    predicate_synonyms: tuple[str, ...] = ()
    predicate_opposites: tuple[str, ...] = ()
    exclusive_values: tuple[str, ...] = ()
    value_kinds: tuple[str, ...] = ()

    def catalogue(self) -> Catalogue:
        """The shipped predicate catalogue with this policy's entries added."""
        from .predicates import shipped

        return shipped().extended(
            one_valued=self.one_valued,
            many_valued=self.many_valued,
            synonyms=self.predicate_synonyms,
            opposites=self.predicate_opposites,
            exclusive=self.exclusive_values,
            kinds=self.value_kinds,
        )


@dataclass(frozen=True)
class Candidate:
    """Something that may become a fact, from an extractor or an explicit `remember`."""

    text: str
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source: str = "user"
    role: str = "user"  # who produced the turn: user, tool, assistant
    derived_from: tuple[str, ...] = ()
    valid_from: float | None = None


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    code: str  # "ok" or a rejection category
    reason: str

    def __bool__(self) -> bool:
        return self.accepted


@dataclass(frozen=True)
class Suppression:
    """A stored "don't remember that": candidates matching it are refused, now and later."""

    id: str
    pattern: str  # words that must all appear (case-insensitive) for a match
    subject: str | None = None
    terms: tuple[str, ...] = field(default=())

    def matches(self, text: str, subject: str | None) -> bool:
        if self.subject and subject and self.subject != subject:
            return False
        words = set(re.findall(r"\w+", text.lower()))
        terms = self.terms or tuple(re.findall(r"\w+", self.pattern.lower()))
        return bool(terms) and all(t in words for t in terms)


@lru_cache(maxsize=64)
def _marker_regex(markers: tuple[str, ...]) -> re.Pattern[str] | None:
    if not markers:
        return None
    alternatives = sorted((re.escape(m.lower()) for m in markers), key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(alternatives) + r")(?!\w)")


def _first_marker(text: str, markers: tuple[str, ...]) -> str | None:
    rx = _marker_regex(markers)
    found = rx.search(text) if rx else None
    return found.group(1) if found else None


#: how contracted tokens read to the marker lists ("I'll" -> "i will")
_SPELLED = mapping("spelled_pieces")  # lexicon list "spelled_pieces"
#: state verbs that "currently" or "now" do not make transient ("I currently live in Oslo")
DURABLE_NOW = words("durable_now")  # lexicon list "durable_now"
#: ... nor verbs that report or change a measure: "the suite currently takes 9 minutes",
#: "I've currently reached 65%" give a value as of now, not a passing state
_MEASURING = (words("changing") | words("reaching") | words("reporting")) - {"be", "go"}
_NOW_WORDS = words("now_words")  # lexicon list "now_words"
_PRAISING = words("evaluative")  # lexicon list "evaluative"
#: the phrases of "now_words": "at the moment", "at present"
_NOW_PHRASES = tuple(w for w in _NOW_WORDS if " " in w)


def _exclusive_state(statement: Statement | None) -> bool:
    """The statement says the subject is in one state of an exclusive group ("engaged",
    "single", "vegan"): a state that holds until it changes."""
    from .predicates import shipped

    if statement is None or not statement.object:
        return False
    said = f"{statement.predicate} {statement.object}".replace("_", " ")
    return shipped().exclusive_state(said)


def _owned_relation(predicate: str) -> str:
    """The relation of a predicate said of one of the speaker's ("sister_be" -> "be")."""
    from .predicates import shipped

    return shipped().owned(predicate)[1]


def _in_a_body(statement: Statement | None) -> bool:
    """ "im currently in med school", "currently in a band", "in the army at the moment":
    the subject is in a body of people (an organisation or a social group in WordNet's
    first sense of the word: a school, an army, a choir), a membership that holds as of
    now; a gathering ("in a meeting", "in a seminar") passes."""
    from .language.kinds import is_a_kind_of
    from .nlp import lemma_of

    value = ((statement.object or "") if statement else "").lower()
    # the noun the value names, before what is said of it ("a choir at the moment")
    said = re.findall(
        r"[a-z]+", re.split(r"[,;(]|\b(?:at|for|with|in|on|since|from|of)\b", value)[0]
    )
    if not said:
        return False
    head = lemma_of(said[-1])
    return (
        is_a_kind_of(head, "organization") or is_a_kind_of(head, "social group")
    ) and not is_a_kind_of(head, "gathering")


#: kinds of person WordNet lacks (lexicon "person_nouns", "occupations": "barista", "mum")
_PERSON_WORDS = words("person_nouns") | words("occupations")


def _a_kind_of_person(doc: Doc) -> bool:
    """The subject is said to be a kind of person ("i'm currently a student", "right now
    i'm a night-shift nurse"): a role that holds as of now, not a passing state ("currently
    a mess" is no kind of person)."""
    from .language.persons import is_kind_of_person

    for tok in doc:
        if tok.dep_ != "attr" or tok.head.lemma_ != "be" or tok.pos_ != "NOUN":
            continue
        said = " ".join([c.lower_ for c in tok.lefts if c.dep_ == "compound"] + [tok.lemma_])
        if any(is_kind_of_person(w) or w in _PERSON_WORDS for w in (said, tok.lemma_)):
            return True
    return False


#: verbs of a change: what they tell stays told, whenever it happened (not the light
#: verbs of having and getting: "i had pizza today" is passing)
_CHANGES = (words("gaining") | words("changing") | words("ending") | words("becoming")) - {
    "have",
    "get",
    "take",
    "find",
    "go",
    "be",
}


#: what happens to one, told in the past, is a change too: "graduated this morning",
#: "got engaged today", "my cast came off this week"
_HAPPENINGS = words("life_events")
_HAPPENED_TO = words("life_participles") | words("state_participles")


def _of_the_speaker(root: Token) -> bool:
    """Is what `root` tells of the speaker or theirs: no subject said ("graduated"), "I",
    "we", or a thing of theirs ("my cast came off"); not "the server crashed"."""
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects:
        return True
    subject = subjects[0]
    return subject.lower_ in ("i", "we") or any(
        c.dep_ == "poss" and c.lower_ in ("my", "our") for c in subject.children
    )


def _changed(root: Token) -> bool:
    """Is `root` a verb of a change, told in the past ("started", "has quit", "quit",
    "graduated", "got engaged", "came off")?"""
    from .nlp import inflections

    lemma = root.lemma_.lower()
    particle = next((c.lower_ for c in root.children if c.dep_ == "prt"), "")
    if (
        root.tag_ == "VBN"
        and root.lower_ in _HAPPENED_TO
        and any(c.dep_ == "auxpass" for c in root.children)
    ):
        return True  # "got engaged", "was promoted": a passive of what happens to one
    if (
        root.tag_ == "VBD"
        and (lemma in _HAPPENINGS or f"{lemma}_{particle}" in _HAPPENINGS)
        and _of_the_speaker(root)
    ):
        return True
    told_past = root.tag_ == "VBD" or root.lower_ in inflections(lemma, "VBD")
    if told_past and lemma in ("get", "have") and _acquired_or_removed(root, lemma, particle):
        return True
    if lemma not in _CHANGES or root.pos_ != "VERB":
        return False
    if root.tag_ == "VBN" and any(a.lemma_ == "have" for a in root.children):
        return True
    return root.tag_ == "VBD" or root.lower_ in inflections(lemma, "VBD")


def _acquired_or_removed(root: Token, lemma: str, particle: str) -> bool:
    """ "got a new job", "got my first tattoo": a thing got new or for the first time is
    had from then on; "got my braces off", "had my wisdom teeth out": a thing of the
    speaker's taken off or out is gone from then on (not "got a headache", "had a new
    flavour of ice cream", "took the day off")."""
    objects = [c for c in root.children if c.dep_ == "dobj"]
    # the parse may hang "first" as the object itself, or the particle on the object
    said = [t for o in objects for t in (o, *o.children)]
    if lemma == "get" and any(
        t.lower_ in ("new", "first") and t.dep_ in ("amod", "dobj") for t in said
    ):
        return True
    particles = {particle, *(t.lower_ for t in said if t.dep_ == "prt")}
    return bool(particles & {"off", "out"}) and any(
        t.dep_ == "poss" and t.lower_ in ("my", "our") for t in said
    )


#: the words by which a transient marker says "today" or "this week"
_DAY_WORDS = frozenset({"today", "tonight", "week", "morning", "afternoon", "evening"})
_MODALS = words("name_modals")  # modals that may be names ("Will"): lexicon


def _names_a_product(verb: Token, subject: Token) -> bool:
    """Does what `verb` says of `subject` name a product, as its object or the object of
    a preposition ("runs on azure", "is hosted on vercel")?"""
    from .language.products import products_in

    objects = [
        o
        for c in verb.children
        if c.i > subject.i
        for o in ([c] if c.dep_ in ("dobj", "attr") else c.children if c.dep_ == "prep" else [])
        if o.dep_ in ("dobj", "attr", "pobj")
    ]
    return any(
        products_in([t.lower_ for t in o.subtree if t.pos_ != "DET" and not t.is_punct])
        for o in objects
    )


@dataclass(frozen=True)
class _Views:
    """The candidate as the marker lists read it, one view per kind of marker.

    Every view is the lower-cased sentence with some tokens blanked: names always (a
    capitalised word inside a sentence, or a name read as a modal: "My colleague Will",
    "Happy Cow"), and per category the tokens a marker must not match there: nouns for
    attribution ("insurance claims"), modifiers of a specific noun for vagueness
    ("complex analysis"), "currently" before a state verb for transience."""

    base: str
    hedges: str
    attribution: str
    vague: str
    transient: str
    speculation: str


def _views(text: str, policy: GatePolicy, statement: Statement | None) -> _Views:
    from .nlp import parse

    doc = parse(text)
    vague_words = {m.lower() for m in policy.vague}
    predicate = (statement.predicate or "") if statement else ""
    verb = predicate.removeprefix("not_").split("_", 1)[0]
    # "my sister is currently married": the verb of a relation said of one's own
    own = _owned_relation(predicate.removeprefix("not_"))
    # the verb of the sentence itself, whatever its key: "my login system currently uses
    # bcrypt", "the site is currently hosted on netlify" (the key's first word is a noun),
    # with what it is done with ("my laptop is currently running slow" passes)
    root = next(iter(doc.sents)).root if len(doc) else None
    said = (
        root.lemma_.lower()
        if root is not None
        and root.pos_ == "VERB"
        and any(c.dep_ in ("dobj", "prep", "dative") for c in root.children)
        else ""
    )
    durable = (
        verb in DURABLE_NOW
        or said in DURABLE_NOW
        or predicate.removeprefix("not_") in DURABLE_NOW
        or any(word in _MEASURING for word in predicate.split("_"))
        or "be" in (verb, own.split("_", 1)[0])
        and _exclusive_state(statement)
        or own == "be_in"
        and _in_a_body(statement)
        or predicate == "be"
        and _a_kind_of_person(doc)
    )
    names: set[int] = set()
    for sent in doc.sents:
        words = [t for t in sent if not t.is_punct and not t.is_space]
        for n, tok in enumerate(words):
            later = n > 0 and words[n - 1].text not in (":", '"', "“", "(")
            named = later or tok.tag_ in ("NNP", "NNPS")
            if tok.text[:1].isupper() and tok.text != "I" and named:
                names.add(tok.i)
            elif (
                tok.lower_ in _MODALS
                and tok.text[:1].isupper()
                and n + 1 < len(words)
                and (words[n + 1].tag_ in ("VBZ", "VBD") or words[n + 1].text[:1].isupper())
            ):
                # "Will lives in Oslo", "Will Smith ...": a modal takes a base-form verb
                names.add(tok.i)

    def view(blank: set[int]) -> str:  # one token a word: "I'll" reads "i will"
        return " ".join(
            "_" if tok.i in blank else _SPELLED.get(tok.lower_, tok.lower_)
            for tok in doc
            if not tok.is_space
        )

    nouns = {t.i for t in doc if t.pos_ in ("NOUN", "PROPN") or t.tag_.startswith("NN")}
    modifiers = {
        t.i
        for t in doc
        if t.lower_ in vague_words
        and t.dep_ in ("amod", "compound", "nmod")
        and t.head.pos_ in ("NOUN", "PROPN")
        and f"{t.lower_} {t.head.lower_}" not in vague_words
    }
    # "spicy stuff", "outdoor things": a vague noun a describing word makes specific
    # ("good stuff", "some things" stay vague)
    modifiers |= {
        t.i
        for t in doc
        if t.lower_ in vague_words
        and t.pos_ == "NOUN"
        and any(
            c.dep_ in ("amod", "compound")
            and c.lower_ not in vague_words
            and c.lower_ not in _PRAISING
            and c.is_alpha
            for c in t.children
        )
    }
    # "all our stuff sits on azure", "our things are in storage with safestore": a vague
    # word for what is the speaker's, said to run on or be in a product, is made specific
    # by the product
    modifiers |= {
        t.i
        for t in doc
        if t.lower_ in vague_words
        and t.dep_ in ("nsubj", "nsubjpass")
        and any(c.dep_ == "poss" or c.lower_ == "all" for c in t.children)
        and _names_a_product(t.head, t)
    }
    now = {t.i for t in doc if t.lower_ in _NOW_WORDS} if durable else set()
    if durable:  # "im single at the moment": as of now, not passing
        low = doc.text.lower()
        now |= {
            i
            for t in doc
            for phrase in _NOW_PHRASES
            if low.startswith(phrase, t.idx)
            for i in range(t.i, t.i + len(phrase.split()))
        }
    # "my daughter started school this week", "i quit smoking today": a change told in the
    # past is dated by "this week", not passing
    if any(_changed(t) for t in doc if t.dep_ == "ROOT"):
        now |= {t.i for t in doc if t.lower_ in _DAY_WORDS}
    # "I'm running for office", "she is running a bakery": an undertaking, not a process
    now |= {
        t.i
        for t in doc
        if t.lower_ == "running"
        and t.i + 1 < len(doc)
        and doc[t.i + 1].lower_ in ("for", "a", "an", "my", "our", "his", "her", "their")
    }
    # "I believe in God" is a belief, not a hedge; "my favourite kind of movie" is a noun
    not_hedges = {
        t.i
        for t in doc
        if t.lower_ in ("believe", "believes")
        and t.i + 1 < len(doc)
        and doc[t.i + 1].lower_ == "in"
    }
    not_hedges |= {t.i for t in doc if t.lower_ in ("kind", "sort") and t.dep_ != "advmod"}
    # "im on roughly ten a day", "roughly 40k a year": a number said as about so much
    # is a value, not the claim hedged
    not_hedges |= {
        t.i for t in doc if t.lower_ == "roughly" and t.i + 1 < len(doc) and doc[t.i + 1].like_num
    }
    return _Views(
        view(names),
        view(names | not_hedges),
        view(names | nouns),
        view(names | modifiers),
        view(names | now),
        view(
            names
            | {t.i for t in doc if _going_somewhere(t) or _tells_after(t) or _dates_a_thing(t)}
        ),
    )


def _dates_a_thing(tok: Token) -> bool:
    """ "we pushed the wedding back to may next year", "my visa for next year came
    through": a span to come ("next year") in a sentence that tells a thing done, in the
    past, says when that thing is; the sentence tells what is so now. "i'm moving next
    year", "i will start next week" stay plans, and so does "flying to lisbon for a
    conference next week"; "tomorrow" and "tonight" date what is passing ("my flight's at
    6am tomorrow"), whatever the tense."""
    span = tok.head if tok.lower_ == "next" else tok
    if span.lower_ not in _NEXT_SPANS or not any(c.lower_ == "next" for c in span.children):
        return False
    root = span.sent.root
    if any(c.lower_ in ("will", "'ll", "gonna") for c in root.subtree):
        return False
    return root.tag_ == "VBD" or _for_a_thing_to_come(root, span)


#: verbs of going somewhere: told in the present with a time to come, the going is the
#: plan ("flying to lisbon for a conference next week")
_GOING = frozenset({"go", "fly", "travel", "drive", "move", "leave", "head", "come", "ride"})


def _for_a_thing_to_come(root: Token, span: Token) -> bool:
    """ "learning korean for a trip next year", "saving for a wedding next june": a doing
    told in the present for a thing to come, the time said right after that thing, dates
    the thing; the doing is so now. Not a going ("flying to lisbon for a conference next
    week")."""
    if root.tag_ not in ("VBG", "VBP", "VBZ") or root.lemma_.lower() in _GOING:
        return False
    return any(
        prep.lower_ == "for"
        and any(o.dep_ == "pobj" and o.right_edge.i + 1 == span.left_edge.i for o in prep.children)
        for prep in root.children
        if prep.dep_ == "prep"
    )


def _tells_after(tok: Token) -> bool:
    """ "i should mention im vegan", "I should add that ...": "should" before a verb of
    telling tells; it obliges nothing. "my mum says i should move home": the "should"
    is someone's advice, which the gate names as such (`_advice`)."""
    if tok.lower_ not in ("should", "ought"):
        return False
    if tok.i + 1 < len(tok.doc) and tok.nbor().lemma_.lower() in _TELLING_NOW:
        return True
    said = tok.head
    return said.dep_ == "ccomp" and said.head.lemma_.lower() in _ADVISING


#: verbs by which a speaker tells what follows ("i should mention ...")
_TELLING_NOW = frozenset({"mention", "say", "add", "note", "tell", "point", "clarify", "explain"})


_WEEKDAYS = frozenset(WEEKDAYS)
#: "next summer", "next spring": a span of time to come ("this year" is now: "this year im
#: teaching year 3" tells what is so)
_NEXT_SPANS = frozenset(
    {"weekend", "week", "month", "summer", "winter", "spring", "fall", "autumn", "year"}
)
_PRESENT_BE = frozenset({"am", "is", "are", "'m", "'re", "'s", "’m", "’re", "’s", "m", "re"})


def _scheduled(text: str) -> str | None:
    """A plan told in the present progressive for a day close ahead: "i'm flying to lisbon
    on friday", "picking him up saturday", "we're driving up tomorrow", "moving to spain
    next summer". What is to come is no fact yet (the words that say so are returned);
    "i'm working on fridays" (a habit) and "i moved on friday" (the past) are not plans.
    A month ahead ("moving to denver in june") is a change on its way, kept as said."""
    from .nlp import parse

    for tok in parse(text):
        if tok.tag_ != "VBG" or tok.dep_ not in ("ROOT", "conj", "ccomp", "advcl"):
            continue
        if tok.lemma_ == "expect":  # "we're expecting a baby in march": a state now
            continue
        auxes = [c for c in tok.children if c.dep_ == "aux"]
        # "my sister's flying in": the "is" typed as "'s" and read as the possessive
        auxes += [
            c
            for s in tok.children
            if s.dep_ == "nsubj"
            for c in s.children
            if c.dep_ == "case" and c.i == s.i + 1
        ]
        elided = not auxes and not any(c.dep_ in ("nsubj", "expl") for c in tok.children)
        if not (elided and tok.i == tok.sent.start or any(a.lower_ in _PRESENT_BE for a in auxes)):
            continue
        for when in tok.subtree:
            by_prep = when.head.head.i == tok.i and when.head.dep_ == "prep"
            if when.head.i != tok.i and not by_prep:
                continue
            low = when.lower_
            if _dates_a_thing(when):
                continue  # "learning korean for a trip next year": when the trip is
            if low in _WEEKDAYS and when.tag_ != "NNS" or low in ("tomorrow", "soon", "tonight"):
                return f"{tok.text} ... {when.text}"
            if low in _NEXT_SPANS and any(c.lower_ == "next" for c in when.children):
                return f"{tok.text} ... {when.text}"
    return None


def _going_somewhere(tok: Token) -> bool:
    """ "I stopped going to the gym", "i love going to gigs": "going to" a place that a
    verb or a preposition takes as its doing is a habit told, not the future ("I'm going
    to quit", "going to try pottery": a "be" before it, or a verb after it). "Been going
    to" is a habit kept up till now ("i've been going to the gym since january", "been
    going to bed at ten"), never the future."""
    if tok.lower_ != "going" or tok.i + 2 >= len(tok.doc) or tok.nbor().lower_ != "to":
        return False
    after = tok.doc[tok.i + 2]
    if after.tag_ == "VB":
        return False
    if any(c.dep_ == "aux" and c.lower_ == "been" for c in tok.children):
        return True
    if any(c.dep_ in ("aux", "auxpass") for c in tok.children):
        return False
    return tok.dep_ in ("xcomp", "pcomp", "dobj", "csubj", "ccomp") and tok.head.lemma_ != "be"


def _asks_why(text: str) -> bool:
    """ "i dont understand why ive never had a cavity", "I wonder why the sky is orange":
    a sentence that says the speaker cannot tell why (`keys.puzzled_why`)."""
    from .keys import puzzled_why
    from .nlp import parse

    return any(puzzled_why(sent) is not None for sent in parse(text).sents)


def check(
    candidate: Candidate,
    policy: GatePolicy | None = None,
    *,
    require_subject: bool = True,
    suppressions: Sequence[Suppression] | Iterable[Suppression] = (),
    statement: Statement | None = None,
) -> Verdict:
    """Decide whether a candidate may become a fact. Pure: no I/O, no clock.

    Secrets are looked for first, so that whatever else is wrong with a candidate, a
    refusal that carries a secret says so (and the caller masks it). `statement` is the
    parser's reading of the text (`keys.analyse`); it is made here when not given."""
    from .keys import analyse, strip_particles
    from .secrets import find_secrets, masked_kind

    policy = policy or GatePolicy()
    text = (candidate.text or "").strip()
    secrets = find_secrets(text)
    if secrets:
        return Verdict(False, "secret", f"carries a secret ({secrets[0].kind})")
    # a secret found in the whole text before it was cut into sentences, and masked
    masked = masked_kind(text)
    if masked:
        return Verdict(False, "secret", f"carries a secret ({masked})")
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text):
        return Verdict(False, "malformed", "holds control characters")
    if len(text) > MAX_FACT_CHARS or len(text.split()) > policy.max_words:
        return Verdict(False, "too_long", "too long: probably a summary, not a fact")
    if not text:
        return Verdict(False, "too_short", "too short to be checkable")
    statement = statement or analyse(text)
    chatter = _chatter(statement)
    if len(text) < policy.min_chars and not (
        statement.keyed and (statement.object or not chatter and statement.kind == "statement")
    ):  # "I'm 34" and "I smoke" are not
        return Verdict(False, "too_short", "too short to be checkable")
    if candidate.role == "assistant":
        return Verdict(False, "not_sourced", "restates the assistant, not the user or a tool")
    if candidate.source.split(":", 1)[0].lower() not in SOURCE_CONFIDENCE:
        return Verdict(False, "not_sourced", f"unknown source {candidate.source!r}")
    if text.endswith("?") or statement.kind == "question":
        return Verdict(False, "question", "a question asserts nothing")
    if _asks_why(text):
        return Verdict(False, "question", "asks why or how in other words: a question, not a fact")
    if statement.kind == "instruction":
        return Verdict(False, "instruction", "a request to the assistant, not a fact")
    if _greeting(text):
        return Verdict(False, "vague", "not specific: a greeting or thanks, not a fact")
    if _THANKS_FOR.match(text) and not _SPEAKER_WORDS & set(_words_said(text)):
        return Verdict(False, "vague", "not specific: thanks for something, not a fact")
    if not statement.keyed and _phrase_only(text):
        return Verdict(False, "vague", "not specific: a phrase, not a statement")
    opener = _discourse_opener(text)
    if opener:
        return Verdict(False, "vague", f"not specific: {opener!r} opens what is said, not a fact")
    for rule in suppressions:
        if rule.matches(text, candidate.subject):
            return Verdict(False, "suppressed", f"the user asked not to remember {rule.pattern!r}")
    views = _views(text, policy, statement)
    checks = (
        ("affect", policy.affect, "emotion or mood", views.base),
        ("hedged", policy.hedges, "hedged", views.hedges),
        (
            "speculative",
            policy.speculation,
            "intention or speculation about the future",
            views.speculation,
        ),
        ("transient", policy.transient, "transient state", views.transient),
        (
            "attributed_opinion",
            policy.attribution,
            "opinion attributed to someone",
            views.attribution,
        ),
        ("vague", policy.vague, "not specific", views.vague),
    )
    for code, markers, label, seen in checks:
        marker = _first_marker(seen, markers)
        if marker:
            return Verdict(False, code, f"{label}: {marker!r}")
    passing = passing_state(text)
    if passing:  # "got a headache", "im so hungover": the body as it is right now
        return Verdict(False, "transient", f"transient state: {passing!r}")
    if _GOTTA.search(text):  # "gotta get my mot done": an obligation, not a fact yet
        return Verdict(False, "speculative", "an obligation: 'gotta'")
    planned = _scheduled(text)
    if planned:
        return Verdict(False, "speculative", f"a plan for a time to come: {planned!r}")
    would = _would(text)
    if would:  # "if i won the lottery, i'd buy a boat": what would be, not what is
        return Verdict(False, "speculative", f"what would be, not what is: {would!r}")
    wished = _WISH.match(strip_particles(text))  # "hiya, hope youre well": after a greeting
    if wished:  # "wish I had a bigger kitchen": the "I" of "I wish" left out
        return Verdict(False, "speculative", f"a wish: {wished.group('verb') or 'if only'!r}")
    # "i am great lol": "lol" is no part; a conversation's "Sam is doing ok" is Sam's "I"
    reaction = _reaction(strip_particles(text), speaker=candidate.subject)
    if reaction:
        return Verdict(False, "affect", f"a reaction, not a fact: {reaction!r}")
    unspoken = (
        _said_to_the_listener(text, keyed=statement.keyed) if candidate.subject is None else None
    )
    if unspoken:
        return Verdict(False, "listener", f"about the one spoken to, not the user: {unspoken!r}")
    if not statement.keyed and candidate.subject is None and _names_no_one_nothing(text):
        return Verdict(False, "vague", "not specific: names no one and nothing")
    advice = _advice(text)
    if advice:
        return Verdict(False, "attributed_opinion", f"advice or a view of theirs: {advice!r}")
    if chatter:
        return Verdict(False, *chatter)
    vexed = _VEXED.match(text)
    if vexed and not (statement.keyed or statement.first_person):
        # "ugh tuesday again": a mood said in a word, and nothing of the speaker's
        return Verdict(False, "affect", f"a reaction, not a fact: {vexed[1]!r}")
    if statement.kind == "fragment" and not statement.keyed and _names_nothing(text):
        return Verdict(False, "vague", "not specific: names nothing a fact could be about")
    had = _had_unnamed(text)
    if had:  # "i have a few ideas", "i had a big milestone last week": what, it never says
        return Verdict(False, "vague", f"not specific: {had!r} says nothing of what")
    subject = (candidate.subject or "").strip().lower()
    if statement.pronoun_subject and (not subject or subject in _PRONOUNS):
        return Verdict(
            False,
            "ungrounded",
            f"{statement.subject!r} has nothing to refer to: say who or what it is",
        )
    if subject in _PRONOUNS:
        return Verdict(False, "ungrounded", f"{subject!r} has nothing to refer to")
    if require_subject and not subject:
        return Verdict(False, "no_subject", "no subject: cannot be keyed or contradicted")
    refused = _every_sentence_refused(candidate, policy, suppressions)
    if refused is not None:
        return Verdict(False, refused.code, f"no sentence of it is a fact: {refused.reason}")
    return Verdict(True, "ok", "ok")


def _would(text: str) -> str | None:
    """The "would" of a main verb that says what would be, not what is ("i would buy a
    boat", "if i lost my job i'd claim benefits", "i would have gone"); None for a
    sentence without one, for "would" denied ("i wouldn't eat pork": what the speaker does
    not do), and for one of a clause inside another ("my boss said she would ...")."""
    from .nlp import parse

    for sent in parse(text).sents:
        # with a condition said ("if we had a garden we'd get chickens"), the "would" of
        # any verb, however the parse hung it; without, only the main verb's
        conditioned = any(t.dep_ == "mark" and t.lower_ in ("if", "unless") for t in sent)
        for aux in sent:
            verb = aux.head
            if (
                aux.dep_ == "aux"
                and aux.lower_ in ("would", "'d", "\u2019d")
                and aux.tag_ == "MD"
                and (verb.i == sent.root.i or conditioned)
                and not any(c.dep_ == "neg" for c in verb.children)
            ):
                return aux.text
    return None


def _every_sentence_refused(
    candidate: Candidate,
    policy: GatePolicy,
    suppressions: Sequence[Suppression] | Iterable[Suppression],
) -> Verdict | None:
    """A text of several sentences none of which the gate takes alone ("Laters! Speak
    soon. Look after yourself."; "Wow, brilliant! Keep at it!"): the first sentence's
    refusal; None where one sentence is a fact, where the text is one sentence, or where
    a later sentence is refused only for a word that may point back ("He's called Rex"
    after "I have a dog": the whole is judged as one)."""
    text = candidate.text.strip()
    starts = _sentence_starts(text)
    if len(starts) < 2:
        return None
    pieces = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)], strict=False)]
    verdicts = [
        check(
            dataclasses.replace(candidate, text=piece),
            policy,
            require_subject=False,
            suppressions=suppressions,
        )
        for piece in pieces
        if piece
    ]
    # the first sentence has no sentence before it to point back to: "That's so nice!"
    # points at what someone else said
    if len(verdicts) < 2 or any(
        v.accepted or v.code == "ungrounded" and n for n, v in enumerate(verdicts)
    ):
        return None
    return verdicts[0]


_PRONOUNS = words("pronoun_subjects")  # lexicon list "pronoun_subjects"
#: words by which a speaker says "I" or "we" (as typed: "im", "ive", "id")
_SPEAKER_WORDS = frozenset(
    {"i", "im", "ive", "id", "ill", "me", "my", "mine", "myself", "we", "us", "our", "ours"}
    | {"ourselves", "weve", "were"}
)
#: words by which a speaker addresses the one they speak to, as typed
_LISTENER_WORDS = frozenset({"you", "your", "yours", "yourself", "ya", "u", "ur"}) | words(
    "listener_contractions"
)


def _words_said(text: str) -> list[str]:
    return [w.lower().replace("'", "").replace("\u2019", "") for w in _WORDS_OF.findall(text)]


def _said_to_the_listener(text: str, *, keyed: bool = True) -> str | None:
    """ "You're such a natural at this", "wow, you're brilliant! keep at it", "glad your
    daughter is feeling better": a text about the one spoken to, with no word of the
    speaker's ("I", "my", "we"), tells nothing of the user; nor does one with no key that
    speaks to them ("go easy and have a lovely rest of your evening"). The words that say
    so, or None ("you know i adore jazz clubs" is the speaker's)."""
    from .nlp import parse

    said = _words_said(text)
    if not _LISTENER_WORDS & set(said):
        return None
    if _SPEAKER_WORDS & set(said):
        # "you're an inspiration to me", "you're a true friend to us": the speaker only
        # as what the listener is or does to, in a text of one clause about the listener
        return _listener_to_the_speaker(text) if keyed else None
    doc = parse(text)
    if not keyed:
        # the listener's things, or the listener doing ("have a lovely rest of your
        # evening", "you nailed it"); not "thank you" or "as you know" beside a fact whose "I" is
        # left out ("thank you, been vegan 8 years", "as you know, still in leeds")
        return next(
            (
                t.text
                for t in doc
                if t.lower_ in _LISTENER_WORDS
                and (
                    t.dep_ == "poss"
                    # of the sentence's own verb: not "as you know, still in leeds"
                    or t.dep_ in ("nsubj", "nsubjpass")
                    and t.head.dep_ == "ROOT"
                )
            ),
            None,
        )
    for tok in doc:
        if tok.dep_ in ("nsubj", "nsubjpass") and (
            tok.lower_ in _LISTENER_WORDS
            or any(c.dep_ == "poss" and c.lower_ in _LISTENER_WORDS for c in tok.children)
        ):
            return " ".join(t.text for t in tok.subtree)
    return None


#: the speaker's words that only ever stand where someone is done to or spoken of
_SPEAKER_OBJECTS = frozenset({"me", "us", "myself", "ourselves"})


def _listener_to_the_speaker(text: str) -> str | None:
    """ "you're an inspiration to me", "You've been a great friend to us": one sentence
    whose subject is the one spoken to, the speaker in it only as an object ("me", "us").
    The subject's words, or None ("you know i adore jazz", "you and I met at uni", "my
    sister and you": the speaker is a subject or an owner there; "you can call me Sam":
    a modal tells what the listener may do with the speaker's fact)."""
    from .nlp import parse

    doc = parse(text)
    sents = list(doc.sents)
    if len(sents) != 1:
        return None
    if any(t.lower_ in _SPEAKER_WORDS - _SPEAKER_OBJECTS for t in doc):
        return None
    root = sents[0].root
    if any(c.dep_ == "aux" and c.tag_ == "MD" for c in root.children):
        return None  # "you can call me Sam", "you can reach me at ...": the speaker's, told
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1 or subjects[0].lower_ not in _LISTENER_WORDS:
        return None
    if any(c.dep_ == "conj" for c in subjects[0].children):
        return None
    return subjects[0].text


def _names_no_one_nothing(text: str) -> bool:
    """ "Speak soon.", "Yeah, keep at it!", "Means loads.": a text with no key that names
    neither the speaker nor any thing (no name, number or noun but the lexicon's
    `filler_nouns`): chat, no fact."""
    from .nlp import parse

    if _SPEAKER_WORDS & set(_words_said(text)):
        return False
    doc = parse(text)
    if any(
        t.pos_ in ("PROPN", "NUM")
        or t.like_num
        or t.pos_ == "NOUN"
        and not {t.lemma_.lower(), t.lower_} & (_FILLER_NOUNS | _QUANTITY_STAND_INS)
        for t in doc
    ):
        return False
    # a state with its "I'm" left out names the speaker ("pregnant again", "not working
    # at the moment", "retired too"); a verb in its plain or present form says nothing
    # of anyone ("speak soon", "keep at it", "means loads"), nor do praise ("brilliant!")
    # and answers ("absolutely!", "same here")
    roots = [t for t in doc if t.dep_ == "ROOT"]
    return all(
        r.tag_ in ("VB", "VBP", "VBZ", "UH")
        or r.pos_ in ("ADV", "INTJ")  # "Absolutely!", "same here", "not really"
        or r.pos_ == "ADJ"
        and r.lower_ in _PRAISING
        for r in roots
    )


#: verbs of a conversational turn: "I understand", "I agree", "I hope so", "I forgot" answer
#: the assistant; said of nothing in particular, they are not facts about the speaker
_CONVERSATIONAL = words("conversational")  # lexicon list "conversational"
#: objects that stand for what the conversation was about, not for anything named
_STAND_INS = words("stand_ins")  # lexicon list "stand_ins"
#: amounts with no noun that stand for things named before, when had ("i have plenty")
_QUANTITY_STAND_INS = words("quantity_stand_ins")  # lexicon list "quantity_stand_ins"
_HAVING = frozenset({"have", "own", "get"})


#: longest first, so that "good morning" is tried before "morning"
_GREETINGS = tuple(sorted(words("greetings"), key=len, reverse=True))
_WORDS_OF = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


_FILLER_NOUNS = words("filler_nouns")


def _names_nothing(text: str) -> bool:
    """A fragment whose only nouns name nothing a fact could be about ("quick question",
    "long story short", "bit of a weird one"): no other noun, name, number or verb."""
    from .nlp import parse

    content = [t for t in parse(text) if t.pos_ in ("NOUN", "PROPN", "NUM", "VERB", "AUX")]
    return bool(content) and all(
        t.pos_ == "NOUN" and t.lemma_.lower() in _FILLER_NOUNS for t in content
    )


#: nouns of what one has, gets or makes that say nothing of what it is unless something
#: is said of them ("a few ideas", "some changes"; lexicon `content_free_nouns`: the whole
#: of `filler_nouns` refused five facts of the blind pairs for one non-fact)
_CONTENT_FREE = words("content_free_nouns")
#: verbs of having, getting or making a thing
_HAD = frozenset({"have", "get", "receive", "make"})
#: what may be said of such a noun and still say nothing of what it is: "a few", "some
#: great", "3" ("my" too: a possessive says something only when it names whose)
_SAYS_NOTHING_OF = frozenset({"det", "amod", "nummod", "quantmod", "predet", "advmod"})
#: how much of a thing: "a couple of suggestions", "a lot of plans"
_HOW_MUCH_OF = frozenset({"couple", "lot", "lots", "bunch", "few", "number", "handful", "ton"})


def _names_in(tok: Token) -> bool:
    """Does a phrase say what something is: a noun or name that is not a pronoun, a
    demonstrative or one of `_CONTENT_FREE` ("for my garden", "about the move to lisbon";
    not "for you", "for this")?"""
    return any(
        t.pos_ in ("NOUN", "PROPN", "NUM") and t.lemma_.lower() not in _CONTENT_FREE
        for t in tok.subtree
    )


def _had_unnamed(text: str) -> str | None:
    """The object of a first-person "have", "get", "receive" or "make" that names nothing
    it is ("i have a few ideas", "i got some great advice", "i had a big milestone last
    week", "i made some changes"): only a noun of `_CONTENT_FREE` with a count, a praise
    or a possessive, and nothing said of what (not "ideas for my garden", "a business
    idea", "advice from my doctor", "plans to move to lisbon"). None otherwise."""
    from .nlp import parse

    sents = list(parse(text).sents)
    if len(sents) != 1:
        return None
    root = sents[0].root
    subject = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if root.lemma_.lower() not in _HAD or subject is None:
        return None
    if subject.lower_ not in ("i", "user", "we") or any(c.dep_ == "neg" for c in root.children):
        return None
    objects = [c for c in root.children if c.dep_ == "dobj"]
    if len(objects) != 1:
        return None
    obj = objects[0]
    # anything else the sentence names says what, or where from ("ideas from the market
    # stalls"; a list after a colon however the parse hangs it); not when ("last week")
    when = {t.i for c in root.children if c.dep_ == "npadvmod" for t in c.subtree}
    besides = [
        t
        for t in sents[0]
        if t.i not in when and t.i != subject.i and t not in obj.subtree and t.dep_ != "poss"
    ]
    if any(t.pos_ in ("NOUN", "PROPN", "NUM") and t.lemma_.lower() != "user" for t in besides):
        return None
    start = obj.left_edge.idx
    if obj.lemma_.lower() in _HOW_MUCH_OF:  # "a couple of suggestions": the suggestions
        of = next((c for c in obj.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        thing = next((c for c in of.children if c.dep_ == "pobj"), None) if of else None
        if thing is None:
            return None
        obj = thing
    if obj.pos_ != "NOUN" or obj.lemma_.lower() not in _CONTENT_FREE:
        return None
    # "a business idea", "ideas for my garden", "my mum's advice": what, or whose
    if any(c.dep_ not in _SAYS_NOTHING_OF and _names_in(c) for c in obj.children):
        return None
    return text[start : obj.idx + len(obj.text)]


_VEXED = re.compile(
    r"^\W*(" + "|".join(sorted(words("vexed_interjections"), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_DISCOURSE_NOUNS = words("discourse_openers")
_OPENER = re.compile(
    r"^\W*(?:(?:so|ok|okay|well|and|but)\W+)?my\s+(?P<noun>[a-z]+(?:\s+cents)?)"
    r"(?=\s*(?::|,|\bis\b|\bwas\b|\bwould be\b|'s\b|’s\b))"
    r"|^\W*(?:oh\W+)?(?P<cry>my\s+(?:god|gosh|goodness|word|bad))\b",
    re.IGNORECASE,
)


def _sentence_starts(text: str) -> list[int]:
    """Where `text` and each sentence after its first begin ("i teach. my question is")."""
    return [0, *(m.end() for m in re.finditer(r"[.!?]+\s+", text))]


def _phrase_only(text: str) -> bool:
    """ "given my tight budget", "regarding my pension": a text that opens with a
    participle used as a preposition (`keys.opens_with_preposition`) and has no verb of its
    own after it: a phrase said of nothing."""
    from .keys import opens_with_preposition
    from .nlp import parse

    words = [t for t in parse(text) if not t.is_punct]
    return opens_with_preposition(words) and not any(t.pos_ in ("VERB", "AUX") for t in words[1:])


def _discourse_opener(text: str) -> str:
    """ "my question is ...", "my point was ...", "my god ...": the words that open a text
    said to the listener about the conversation, not about the speaker; "" otherwise
    ("my point guard ...", "my take home pay is ..." name things of the speaker's)."""
    found = next(
        (m for start in _sentence_starts(text) if (m := _OPENER.match(text[start:]))), None
    )
    if found is None:
        return ""
    if found["cry"]:
        return found["cry"]
    return found[0].strip() if found["noun"].lower() in _DISCOURSE_NOUNS else ""


#: "thanks for the tip!", "oh thanks a ton for the lift home": thanks for something,
#: opening what is said (a statement after it is read apart: "thanks for the recipe, i
#: made it last night")
_THANKS_FOR = re.compile(
    r"^\W*(?:(?:oh|aw+|wow|ah|ok|okay|well)\W+)*"
    r"(?:thanks|thank\s+(?:you|u|ya)|thx|thankyou|many\s+thanks|cheers)"
    r"(?:\s+(?:so|very)\s+much|\s+a\s+(?:lot|ton|bunch|million))?"
    r"(?:\s*,?\s+[A-Z][a-z]+)?\s*,?\s+for\b",
    re.IGNORECASE,
)


#: "gotta" (got to, have to) is an obligation, as "need to" is
_GOTTA = re.compile(r"\bgott?a\b", re.IGNORECASE)


def _greeting(text: str) -> bool:
    """Is `text` only a greeting or a farewell, with at most a word of address ("good
    morning!", "hey there :)", "night all")?"""
    said = " ".join(_WORDS_OF.findall(text.lower()))
    # "and thanks", "oh hi there": a word that joins it to what was said before
    said = re.sub(r"^(?:(?:and|but|so|oh|well|ok|okay)\s+)+", "", said)
    if not said:
        return False
    for greeting in _GREETINGS:
        if said == greeting or said.startswith(greeting + " "):
            rest = said[len(greeting) :].split()
            return len(rest) <= 1 and all(w not in ("i", "im", "we", "my") for w in rest)
    return False


def _chatter(statement: Statement) -> tuple[str, str] | None:
    """(code, reason) when a short keyed first-person statement says nothing durable: a
    conversational verb with no object of its own ("I understand", "I hope so"), or any
    verb whose only object stands for something the sentence does not name ("I like it",
    "I use it daily"). A longer sentence may name it after all ("I read about them,
    biographies before sleep"): left to the other checks."""
    if not (statement.keyed and statement.first_person) or statement.kind != "statement":
        return None
    words = len(re.findall(r"[\w'’-]+", statement.said))
    relation = (statement.predicate or "").removeprefix("not_")
    obj = (statement.object or "").strip().lower()
    # "IT" in capitals is the trade ("i work in IT"), not "it"; a text all in capitals
    # says nothing by its case
    acronym = (statement.object or "").isupper() and not statement.said.isupper()
    # "my daughter just turned one": an age, not a stand-in
    aged = obj == "one" and bool({"turn", "old"} & set(relation.split("_")))
    had = obj in _QUANTITY_STAND_INS and relation.rsplit("_", 1)[-1] in _HAVING
    if (obj in _STAND_INS or had) and words <= 5 and not acronym and not aged:
        return "ungrounded", f"{statement.object!r} has nothing to refer to: say what it is"
    if not obj and relation in _CONVERSATIONAL and words <= 5:
        return "vague", "not specific: an answer in a conversation, not a fact"
    return None


_ADVISING = words("advising_verbs")  # lexicon list "advising_verbs"
#: a sentence that opens with "wish" or "hope" and what is wished ("Wish I had ...",
#: "wish we could ...", "hope youre well", "hope my sister gets the job"), its "I" left
#: out as people type; or with "if only" ("if only i had more time")
_WISH = re.compile(
    r"^\W*(?:(?:(?:i|we)(?:\s+am|\s+are|'m|'re|m|re)?\s+)?(?P<verb>wish(?:ing)?|hop(?:e|ing))"
    r"|(?P<only>if\s+only))\s+"
    r"(?:i|we|my|our|it|there|that|you|your|youre|the|he|she|they)\b",
    re.IGNORECASE,
)
#: modals by which a reported clause advises rather than tells ("could" also tells what
#: was allowed: "my boss told me I could work from home on Fridays")
_ADVICE_MODALS = frozenset({"should", "ought"})


_VERDICTS = words("verdicts")  # lexicon list "verdicts"


def _reaction(text: str, *, speaker: str | None = None) -> str | None:
    """ "ugh mondays are the worst", "this city is amazing", "dating apps suck": a verdict
    on something, said by no one in particular, is a reaction, not a fact. Not when the
    speaker says it of themselves ("I'm the best swimmer in my club" names a rank), nor
    when the verdict qualifies a thing ("she is the best dentist in town"). The verdict's
    words, or None."""
    from .nlp import parse

    for sent in parse(text).sents:
        root = sent.root
        subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        told = _told_how_it_went(root, subject) if subject is not None else None
        if told:
            return told
        how = _how_one_is(root, subject, speaker) or _how_things_go(root, subject)
        if how:
            return how
        praised = _praised_in_general(sent) or _praised_shown(root, subject)
        if praised:
            return praised
        if subject is None or subject.pos_ == "PRON":
            continue  # the speaker's own rank; "that's awesome" refers to nothing said
        if root.lemma_.lower() in _VERDICTS and not any(
            c.dep_ in ("dobj", "prep") for c in root.children
        ):
            return root.text
        if root.lemma_.lower() != "be":
            continue
        for c in root.children:
            if (
                c.dep_ in ("attr", "acomp")
                and c.lower_ in _VERDICTS
                and not any(k.dep_ in ("prep", "relcl", "acl", "xcomp") for k in c.children)
            ):
                return c.text
    return None


#: verbs by which a thing is praised as it comes across ("looks amazing", "sounds fun")
_COMING_ACROSS = frozenset({"look", "seem", "sound", "feel"})
#: demonstratives: "that cake", "this view" point at what was shown (lexicon)
_POINTING = words("demonstratives")
#: one's own measured things, said without "my" (lexicon "own_measures")
_OWN_MEASURES = words("own_measures")


def _praised_in_general(sent: Span) -> str | None:
    """ "that cake looks amazing", "Galway looks stunning!", "movies can be so powerful",
    "hard work is key": praise of a thing shown or of a kind of thing in general, in a
    sentence with no word of the speaker's, is a reaction or a view of the world, not a
    fact about the user. Not "my garden looks amazing" (the speaker's), "living by the
    sea is so calming" (a doing, most often the speaker's own: on the blind sets, read as
    a reaction it refused six facts and no non-fact), "the api is fast" (a thing named
    with "the", described), "school is online this year" (a bare noun with a word that
    describes, not praises). The praising word, or None."""
    if _SPEAKER_WORDS & set(_words_said(sent.text)):
        return None
    root = sent.root
    lemma = root.lemma_.lower()
    # "this view is breathtaking", read as the view doing it: the praise is "be"'s
    praising = root.tag_ == "VBG" and root.lower_ in _PRAISING
    if praising and any(c.dep_ == "aux" and c.lemma_.lower() == "be" for c in root.children):
        if any(c.dep_ in ("dobj", "prep", "xcomp", "ccomp") for c in root.children):
            return None
        lemma = "be"
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")), None)
    if subject is None or subject.pos_ == "PRON" or lemma not in _COMING_ACROSS | {"be"}:
        return None
    if any(c.dep_ == "poss" for c in subject.children):
        return None  # "your garden looks amazing" is said to the listener, judged apart
    if subject.dep_ == "csubj" or subject.tag_ == "VBG":
        return None  # "living by the sea is so calming" tells what the speaker does
    if lemma == "be":
        dets = {c.lower_ for c in subject.children if c.dep_ in ("det", "predet")}
        kind = not dets and subject.tag_ in ("NN", "NNS")  # "movies", "hard work"
        if not (dets & _POINTING or kind):
            return None
        if kind and subject.lemma_.lower() in _GOINGS | _OWN_MEASURES:
            return None  # "work is remote", "rent is steep": the speaker's, left unsaid
    if root.lemma_.lower() != lemma:
        return root.text
    for c in root.children:
        said = None
        if c.dep_ in ("acomp", "attr") and (c.pos_ == "ADJ" or c.tag_ == "VBG"):
            said = c
        elif c.dep_ == "prep" and c.lower_ == "like" and lemma in _COMING_ACROSS:
            # "looks like a great squad": the praise on what it looks like
            said = next((k for k in c.subtree if k.dep_ == "amod"), None)
        if (
            said is not None
            and said.lower_ in _PRAISING | _VERDICTS
            and not any(k.dep_ in ("prep", "xcomp", "ccomp") for k in said.children)
        ):
            return said.text
    return None


_LIKING = words("preference_verbs")


def _praised_shown(root: Token, subject: Token | None) -> str | None:
    """ "Love that photo of the harbour", "love your garden!": a verb of liking opening
    its sentence with no subject, whose object is a thing pointed at or the listener's
    (`keys.shown_thing`), is praise of what the other shows or has: a reaction, no taste
    of the speaker's ("love hiking", "love my allotment" are). The verb, or None."""
    from .keys import shown_thing

    if root.lemma_.lower() not in _LIKING:
        return None
    if subject is not None or root.i != root.sent.start:
        return None
    return root.text if shown_thing(root) else None


#: how one is, as "how are you" is answered (lexicon "how_one_is")
_HOW_ONE_IS = words("how_one_is")


def _how_one_is(root: Token, subject: Token | None, speaker: str | None = None) -> str | None:
    """ "i am great", "im ok", "i feel fine", "i am sorry": the speaker (or "we") said to
    be as one answers "how are you", in a bare word (not "good at chess", "fine with
    it"), is a mood of the moment, not a fact. `speaker`: the name a conversation's
    candidate calls the speaker by ("Sam is doing ok"). The word, or None."""
    # "doing fine, thanks for asking": the "I'm" left out, as people answer
    elided = subject is None and root.lower_ == "doing" and root.i == root.sent.start
    named = (
        subject is not None
        and bool(speaker)
        and subject.pos_ == "PROPN"
        and subject.lower_ == (speaker or "").split()[-1].lower()
    )
    if not elided and not named and (subject is None or subject.lower_ not in ("i", "we")):
        return None
    if root.lemma_.lower() == "do" and root.tag_ == "VBG":
        # "i'm doing fine, thanks for asking", "we're doing ok": how one is doing, in a
        # bare word (not "doing well at school", "doing keto")
        comma = next((t.i for t in root.sent if t.text == "," and t.i > root.i), root.sent.end)
        # what follows a comma is said to the listener ("..., ta for asking"); "doing
        # better since the op" says how one has changed, and when
        if any(
            c.dep_ in ("prep", "xcomp", "ccomp", "advcl") and c.i < comma for c in root.children
        ):
            return None
        if any(c.lower_ in ("better", "worse") for c in root.children):
            return None
        return next(
            (
                c.text
                for c in root.children
                if c.dep_ in ("dobj", "advmod", "acomp", "oprd", "npadvmod")
                and c.lower_ in _HOW_ONE_IS
            ),
            None,
        )
    if root.lemma_.lower() not in ("be", "feel"):
        return None
    told = [k for k in root.children if k.dep_ in ("prep", "xcomp", "ccomp", "attr", "acomp")]
    for c in root.children:
        if (
            c.dep_ in ("acomp", "attr", "advmod", "oprd")
            and c.lower_ in _HOW_ONE_IS
            and not any(k.dep_ in ("prep", "xcomp", "ccomp", "relcl", "acl") for k in c.children)
            and all(k.i == c.i for k in told)
        ):
            return c.text
    return None


#: adjectives that sort what they describe ("my gran was deaf", "the cat was adopted")
_SORTING = words("identity_adjectives")


def _told_how_it_went(root: Token, subject: Token) -> str | None:
    """ "that shift was brutal", "the kids were feral", "i was absolutely knackered": how a
    thing shown or named in passing ("the", "that") went, or how the speaker was, in the
    past tense and in a bare adjective, is a verdict on what happened or a passing state,
    not a fact about anyone (not "my gran was deaf", "i was shy as a kid", "the house was
    built in 1920", "the wedding was in june")."""
    if root.tag_ != "VBD" or any(c.dep_ == "poss" for c in subject.children):
        return None
    speaker = subject.lower_ in ("i", "we")
    if speaker and any(c.dep_ in ("prep", "npadvmod", "advcl", "conj") for c in root.children):
        return None  # "i was shy as a kid", "i was vegan for years": a past that lasted
    if not speaker and not any(
        c.dep_ == "det" and c.lower_ in ("the", "that", "this", "those", "these")
        for c in subject.children
    ):
        return None
    for c in root.children:
        if (
            c.dep_ == "acomp"
            and c.pos_ == "ADJ"
            and c.lower_ not in _SORTING
            and not any(k.dep_ not in ("advmod", "punct") for k in c.children)
        ):
            return c.text
    return None


#: what one says "has been rough lately" of: life, work, things, the week (lexicon)
_GOINGS = words("goings")


def _how_things_go(root: Token, subject: Token | None) -> str | None:
    """ "life's been pretty rough lately", "work has been crazy", "my week has been hectic
    so far": how life, work or a stretch of time has gone, in an adjective, said as of
    late (the present perfect, or "lately", "recently") is a verdict on the stretch, not
    a fact ("work is remote", "my week is mon to thu" are not so told). The adjective, or
    None."""
    if subject is None or subject.lemma_.lower() not in _GOINGS or root.lemma_.lower() != "be":
        return None
    perfect = any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in root.children)
    lately = any(c.lower_ in ("lately", "recently") for c in root.subtree)
    if not (perfect or lately):
        return None
    for c in root.children:
        said = c if c.dep_ == "acomp" else None
        if c.dep_ == "attr":  # "a bit rough": the adjective the attribute holds
            said = next((k for k in c.subtree if k.pos_ == "ADJ"), None)
        if (
            said is not None
            and said.pos_ == "ADJ"
            and not any(k.dep_ in ("prep", "xcomp", "ccomp") for k in said.children)
        ):
            return said.text
    return None


def _advice(text: str) -> str | None:
    """ "my mum says I should move back home": someone else's verb of saying or thinking
    whose reported clause holds "should" or "ought" is their advice, not a fact
    (what it advises is not done); what they say of a thing neither the speaker's nor
    theirs ("my uncle says crypto is a scam") is their view. The words that say so, or
    None."""
    from .nlp import parse

    for verb in parse(text):
        if verb.lemma_.lower() not in _ADVISING or verb.pos_ not in ("VERB", "AUX"):
            continue
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None or subject.lower_ in ("i", "we"):
            continue  # "I think I should ..." is the user's own hedge, judged elsewhere
        for clause in verb.children:
            if clause.dep_ not in ("ccomp", "xcomp"):
                continue
            modal = next(
                (c for c in clause.children if c.dep_ == "aux" and c.lower_ in _ADVICE_MODALS),
                None,
            )
            if modal is not None:
                return f"{verb.text} ... {modal.text}"
            if verb.lemma_.lower() == "say" and clause.dep_ == "ccomp" and _of_a_thing(clause):
                return verb.text  # "my uncle says crypto is a scam": their view of a thing
    return None


#: who a reported clause may be about and still tell a fact: the speaker, the speaker's
#: people, the one who says it ("my brother says he quit")
_ABOUT_PEOPLE = frozenset({"i", "me", "we", "us", "he", "she", "they", "him", "her", "them"})


def _of_a_thing(clause: Token) -> bool:
    """Is the reported `clause` about a thing that is neither the speaker's nor the
    sayer's: its subject a noun with no "my" / "our" / "his" / "her" / "their"?"""
    subject = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or subject.lower_ in _ABOUT_PEOPLE:
        return False
    if subject.pos_ not in ("NOUN", "PROPN"):
        return False
    owned = {c.lower_ for c in subject.children if c.dep_ == "poss"}
    return not owned & {"my", "our", "his", "her", "their"}


def passes_gate(candidate: dict[str, str]) -> tuple[bool, str]:
    """The seed's dict-shaped gate: (accepted, reason)."""
    verdict = check(
        Candidate(
            text=candidate.get("text") or "",
            subject=candidate.get("subject"),
            source=candidate.get("source") or "user",
        )
    )
    return verdict.accepted, verdict.reason
