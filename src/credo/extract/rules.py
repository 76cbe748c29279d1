"""The offline extractor: plain statements people make about themselves, by rules.

It reads English only through `credo.keys.analyse` and the spaCy parse of `credo.nlp`,
the one English engine of the write path. Per user turn:

1. the turn is parsed; a photo caption (`[shares a photo: ...]`) is dropped, because a
   caption is nobody's statement;
2. each sentence is cut into clauses where two clauses that each have a subject of their
   own are joined by "and", "but", "so", a comma, a dash or a semicolon ("I went to a
   pottery class on Monday and it was so calming" is two clauses), and where a second
   verb shares the subject ("I'm reading The Quiet Harbour and hoping it helps": the
   second part, with no subject, is left out); openers ("Wow, Caroline!", "yeah", "so")
   and vocatives are trimmed;
3. each clause is read by `analyse` and kept when it is a statement about the speaker
   ("I", "my ...", "Anthony and I ...", "X is my Y"), about a person of the conversation
   by name, or a named thing and its value ("the deploy target for refunds is the
   eu-west region"), whose verb states something durable or reports something done,
   with an object that names something;
4. the candidate's text is `analyse(clause, self_name=speaker).text`: the user's words,
   with the first-person speaker named and the verb inflected to agree. Nothing else is
   rewritten: a relative date stays as said ("last year"), and the fact carries the
   turn's time as `valid_from`. One exception: a chat report in the past tense with its
   "I" left out ("Sold my bike to a neighbour yesterday") is read with the "I" put back,
   because the speaker is the only subject it can have.

What it leaves out on purpose: questions, instructions, suggestions ("let's ..."),
greetings and thanks, news announcements ("I have some amazing news", "guess what"),
captions ("here's ...", "this is my ..."), reactions and praise ("that's awesome",
"I love that!", "I love the colors"), thoughts, wishes and modals ("I think", "I hope",
"I could"), anything said to or about the listener ("you"; but "I wanted to tell you
that I'm moving to Leeds" keeps what follows "that"), "we" statements (a "we" is not
the speaker), and clauses holding "it", "they", "he", "she", "this" or "that", which mean
nothing once read out of the conversation. A first-person clause that carries one of the
gate's markers (a mood, a hedge, a plan, a state of the moment) is handed to the gate
anyway, so the refusal is on record with its reason; only clauses the gate does refuse
are handed over, so they never add a stored fact.

What it cannot do: resolve a pronoun; see a fact given as an answer ("Berlin." after
"where do you live?"); read a photo; or tell an opinion from a fact when both are plain
statements.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..corrections import amendment
from ..fact import one_spelling
from ..gate import HEDGE_MARKERS, Candidate, GatePolicy, check
from ..keys import (
    AUX_OPENERS,
    QUESTION_OPENERS,
    Statement,
    analyse,
    asks_after_description,
    asks_unmarked,
    asks_yes_or_no,
    elided_subject,
    inverted_question,
    past_form,
    puzzled_why,
    self_description,
    since_said,
    speaker_fragment,
    strip_wrapper,
    values_in_passing,
)
from ..language import words
from ..nlp import describes, lemma_of, parse
from ..predicates import shipped as shipped_predicates
from ..suppress_request import is_suppression_request
from ..values import value_words
from .base import Extraction, Turn

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = ["RuleExtractor", "split_clauses"]

# -- vocabulary ---------------------------------------------------------------------------
# The English word lists are the lexicon's (credo/language/lexicon.toml, one list a name);
# what is left here is grammar: the parser's labels, punctuation and the gate's codes.
# fmt: off
_CAPTION = re.compile(r"\s*\[shares a photo:[^\]]*\]")
_SUBJ = ("nsubj", "nsubjpass", "csubj", "expl")
_FIRST = words("first_person")
_SECOND = words("second_person")
#: the listener's contractions typed without their apostrophe ("youre", "youll")
_LISTENER_CONTRACTED = words("listener_contractions")
_WE = words("we_words")
#: pronouns that need an antecedent; a clause holding one means nothing out of context
_THIRD = words("needs_antecedent")
_DEMONSTRATIVE = words("demonstratives")
#: openers and afterthoughts that carry nothing; trimmed from the ends of a clause
_DISCOURSE = words("discourse_markers")
#: openers trimmed even when no comma follows ("So I'm carving out ...")
_LEAD_WORDS = words("lead_words")
_NOISE = words("trailing_noise")
#: subordinators whose clause is asserted: "after I failed the test" says I failed it
_FACTIVE = words("factive_subordinators")
#: a clause that opens with one of these is half a sentence
_SUBORDINATE = words("subordinators")
_STRONG_BREAKS = (";", "-", "–", "—", "--", ":")
#: verbs of thinking, saying, perceiving, wanting and reacting: small talk, not facts
_DENY_VERBS = words("small_talk_verbs")
#: ... except these ("I've known my neighbours for 12 years", "I grew up in Oulu")
_DENY_EXCEPT = words("small_talk_exceptions")
#: what a speaker tells the listener, when it is about the speaker, is kept
_TELLING = words("telling_verbs")
#: verbs whose complement is asserted: "I found out I'm allergic to cockroaches"
_FACTIVE_VERBS = words("factive_verbs")
_PREFERENCE = words("preference_verbs")
_MODALS = words("modals")
#: a copula's adjectives that say who someone is, not how they feel
_IDENTITY_ADJ = words("identity_adjectives")
#: ... of which these need an object: "passionate about art", "allergic to peanuts"
_IDENTITY_WITH_OBJECT = words("identity_adjectives_with_object")
#: participles passed as identity ("I got married", "I was promoted")
_LIFE_PARTICIPLES = words("life_participles")
#: adjectives and adverbs that praise, react or report a mood
_EVALUATIVE = words("evaluative")
#: participles that report a feeling: "I was so stoked", "I've been blessed with ..."
_AFFECTED = words("affected_participles")
#: nouns that name nothing a fact could be about: filler, reactions, small talk
_FILLER_NOUNS = words("filler_nouns")
#: what a reaction to something shown is about: "I love the shape and glaze"
_REACTION_NOUNS = words("reaction_nouns")
_TIME_NOUNS = words("time_nouns")
_TROUBLE = words("trouble_nouns")
_QUANTIFIERS = words("quantifiers")
#: a copula's prepositions that place or describe the speaker durably
_BE_PREPS = words("be_prepositions")
#: a speaker's nouns whose complement is an aim: "my goal is to ..."
_AIMS = words("aim_nouns")
_FAVOURITE = words("favourite_words")
#: what happens to someone or their things, said without an object
_LIFE_EVENTS = words("life_events")
#: activities that are a fact about someone even without an object ("I paint", "I run")
_ACTIVITIES = words("activities")
#: verbs whose complement carries the relation: "I started volunteering" -> volunteering
_ASPECTUAL = words("aspectual_verbs")
#: "I've managed to cut the build time": the complement is what happened
_IMPLICATIVE = words("implicative_verbs")
#: verbs that broad mode leaves out even when their clause names something
_BROAD_REFUSED = words("broad_refused_verbs")
#: the gate's codes a clause may be handed over for, so the refusal is on record
_GATE_CODES = frozenset({"affect", "hedged", "speculative", "transient", "secret", "question"})
#: what "I can't ..." says the speaker never does: "I can't have dairy"
_NOT_ABLE = frozenset({"have", "eat", "drink"})
# fmt: on


# -- splitting ----------------------------------------------------------------------------
def _has_clause(tokens: Sequence[Token], lo: int, hi: int) -> bool:
    """Whether doc[lo:hi] holds a verb together with its own subject."""
    return any(
        lo <= t.i < hi
        and t.dep_ in _SUBJ
        and lo <= t.head.i < hi
        and t.head.pos_ in ("VERB", "AUX")
        for t in tokens
    )


def _said_of_the_speaker(verb: Token) -> bool:
    """Is `verb`'s subject "i" or "we" (or none said: "moved to leeds and ...")?"""
    subject = next((c for c in verb.children if c.dep_ in _SUBJ), None)
    return subject is None or subject.lower_ in _I_WE


def _independent(tokens: Sequence[Token], lo: int, hi: int) -> bool:
    """doc[lo:hi] holds a clause of its own: a verb with its own subject that is the
    sentence's root, is coordinated with a clause before `lo`, or governs a clause after
    `hi`; never a complement of a verb before `lo` ("I think, I'm a nurse" stays whole:
    the hedge belongs to what it hedges) nor a clause inside a noun phrase ("the
    struggles I had")."""
    for tok in tokens:
        if not (
            lo <= tok.i < hi
            and tok.dep_ in _SUBJ
            and lo <= tok.head.i < hi
            and tok.head.pos_ in ("VERB", "AUX")
        ):
            continue
        verb = tok.head
        if (
            verb.dep_ == "ROOT"
            or verb.head.i >= hi
            or (verb.dep_ in ("conj", "parataxis") and verb.head.i < lo)
        ):
            return True
        if (
            verb.dep_ == "ccomp"
            and verb.head.i < lo
            and tok.lower_ in _THIRD
            and tok.i == lo
            and tok.doc[lo - 1].text == ","
        ):
            return True  # "I made peach cobbler, it was great": a reaction spliced on
    return False


#: words a question opens with after a comma: "..., how do i ...?", "..., any tips?"
_QUESTION_AFTER_COMMA = frozenset(
    {"how", "what", "where", "when", "which", "who", "why", "any", "can", "could", "should"}
    | {"do", "does", "is", "are", "would", "will", "anything", "tips", "ideas", "thoughts"}
)


#: how a word hangs on a noun before it when a list or an apposition goes on past a comma
_PHRASE_LINKS = frozenset({"appos", "conj", "nummod", "compound", "amod", "npadvmod"})


def _continues_phrase(doc: Doc, nxt: int, comma: int) -> bool:
    """Does the phrase opening at `nxt` go on with a noun before the comma at `comma` ("a
    rug of 2 m, 3 m, and ...": "3 m" is another item of the list)? Climbs
    from doc[nxt] to the word of its phrase that hangs outside it; a verb there opens a
    clause of its own."""
    word = doc[nxt]
    while word.head.i >= nxt and word.head.i != word.i:
        word = word.head
    if word.pos_ in ("VERB", "AUX") or any(c.dep_ in _SUBJ for c in word.children):
        return False
    head, last = word.head, doc[comma - 1]
    after = word.right_edge.i + 1
    return (
        # the list goes on after it ("2 m, 3 m, and ..."); "..., redis or memcached?" ends
        after < len(doc)
        and (doc[after].text == "," or doc[after].dep_ == "cc")
        and word.dep_ in _PHRASE_LINKS
        and (last.i == head.i or last.head.i == head.i)  # the phrase right before it
        and head.pos_ in ("NOUN", "PROPN", "NUM")
        and not _asks_unmarked([t for t in doc[nxt:] if not t.is_punct])
    )


def _asks_after(doc: Doc, comma: int, end: int) -> bool:
    """Does a question open right after the comma at `comma` ("..., how do i ...?")?"""
    return comma + 1 < end and doc[comma + 1].lower_ in _QUESTION_AFTER_COMMA


def _clause_alone(text: str) -> bool:
    """Is `text`, read on its own, a clause with a verb and its own subject? The parse of a
    whole sentence can hang a statement on the question after it ("tom and i got married
    last summer, how do i change my name?": "tom" read as the question's adverb); read alone,
    the statement parses as one."""
    said = parse(text)
    return _has_clause(list(said), 0, len(said))


def _elided_report(doc: Doc, lo: int, hi: int) -> bool:
    """doc[lo:hi] is a report with its "I" left out ("moved to lisbon last month"), as the
    key parser reads one (`keys.elided_subject`)."""
    said = doc[lo:hi].text
    return bool(said) and elided_subject(said) != said


def _finite_before(tokens: Sequence[Token], lo: int, hi: int) -> bool:
    return any(lo <= t.i < hi and (t.tag_ in ("VBD", "VBZ", "VBP") or past_form(t)) for t in tokens)


#: what makes a verb's clause say something of its own: an object, a complement, a place
_OWN_COMPLEMENTS = frozenset(
    {"dobj", "prep", "attr", "acomp", "oprd", "xcomp", "ccomp", "dative", "prt", "npadvmod"}
)


def _asking(sent: Span) -> bool:
    """Does the sentence ask: a "?" at its end, or a question in its words however it is
    punctuated ("upgraded to the 15 pro, how do i move my chats over")?"""
    return (
        sent.text.rstrip().endswith("?")
        or inverted_question(sent)
        or _unmarked_question(sent)
        or _run_on_question(sent) is not None
    )


def _unmarked_question(sent: Span) -> bool:
    """A clause of the sentence worded as a question though no "?" was typed, at its start
    or after a comma or who the speaker is: "my birthday's 3 feb, what star sign is that",
    "im 6'5, any tips for sleeping on planes", "as a runner which shoes are best"
    (`keys.asks_unmarked`; "any" and a plural noun asks for some)."""
    if asks_after_description(sent):
        return True
    doc = sent.doc
    starts = [sent.start, *(t.i + 1 for t in sent if t.text in (",", ";", ":"))]
    return any(_asks_unmarked([t for t in doc[i : sent.end] if not t.is_punct]) for i in starts)


def _piece_asks(tokens: Sequence[Token]) -> bool:
    """Does a piece of the clause, at its start or after a comma, ask with no "?" typed
    ("as a result of the move, whats the best way to ship a piano")?"""
    starts = [0, *(n + 1 for n, t in enumerate(tokens) if t.text in (",", ";", ":"))]
    return _inverted_after([t for t in tokens if not t.is_punct]) or any(
        _asks_unmarked([t for t in tokens[i:] if not t.is_punct]) for i in starts
    )


#: the question words a question run on after a statement opens with
_RUN_ON_OPENERS = frozenset({"what", "how", "where", "which", "who", "why", "when"})
#: what an inverted question puts after its verb: "should he", "do i", "is the"
_ASKED_ABOUT = frozenset(
    {"i", "you", "he", "she", "we", "they", "it", "my", "your", "his", "her", "our"}
    | {"their", "the", "this", "that", "these", "those", "a", "an", "u"}
)


def _inverted_after(words: Sequence[Token]) -> bool:
    """Do `words` open with a question word and put a verb before its subject, by their
    words alone ("what do i do", "what foods should he avoid", "how much should i
    charge", "where can i park")? Read by the words, not the parse: run on after a
    statement, the parse of the whole hangs them elsewhere."""
    if len(words) < 3 or words[0].lower_ not in _RUN_ON_OPENERS:
        return False
    j = 1
    if words[0].lower_ == "how" and words[1].pos_ in ("ADJ", "ADV"):
        j = 2  # "how much", "how long", "how often"
    if words[0].lower_ in ("what", "which", "how"):
        # "what foods", "which red wine", "how many hours": the thing asked of, in two
        # words at most, whatever the tagger took them for ("desserts" read as a verb)
        skip = j + 2
        while j < min(skip, len(words)) and words[j].lower_ not in AUX_OPENERS | _ASKED_ABOUT:
            j += 1
    return (
        j + 1 < len(words)
        and words[j].lower_ in AUX_OPENERS
        and words[j + 1].lower_ in _ASKED_ABOUT
    )


def _run_on_question(sent: Span) -> int | None:
    """Where a question run on after a statement with no comma or stop starts ("my dad
    has high blood pressure what foods should he avoid", "i spilled tea on my laptop what
    do i do"): a question word after three words or more, its verb before its subject
    (`_inverted_after`), with a clause of its own before it. None when there is none."""
    doc, tokens = sent.doc, list(sent)
    for tok in tokens[3:]:
        if (
            (
                tok.lower_ in _RUN_ON_OPENERS
                and _inverted_after([t for t in doc[tok.i : sent.end] if not t.is_punct])
                or _yes_or_no_after(doc[tok.i : sent.end])
                # "im allergic to penicillin so what do doctors give instead", "... so
                # whats the fastest way": a question joined on by "so", "but" or "and"
                or doc[tok.i - 1].lower_ in _JOINING
                and tok.lower_ in QUESTION_OPENERS
                and _asks_unmarked([t for t in doc[tok.i : sent.end] if not t.is_punct])
            )
            and not doc[tok.i - 1].is_punct
            and _independent(tokens, sent.start, tok.i)
        ):
            return tok.i
    return None


#: verbs whose clause a question asks about, not tells: "how do i know im pregnant"
_ASKED_CLAUSE = words("telling") | words("telling_verbs") | words("factive_verbs")
#: the words a question is joined on to a statement by, typed with no comma before them
_JOINING = frozenset({"so", "but", "and"})
#: verbs that take "so" for a clause ("i think so", "i hope so"): that "so" ends nothing
_SO_TAKING = _ASKED_CLAUSE | {"hope", "guess", "suppose", "imagine", "fear"}
#: the verbs a yes-no question run on after a statement opens with ("... can i eat
#: bananas"): the modals and "do"; not "is" ("the thing is it works" tells)
_YES_OR_NO_OPENERS = frozenset(
    {"do", "does", "did", "can", "could", "would", "will", "should", "shall", "may", "might"}
)
#: whom a question run on asks of
_RUN_ON_SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they", "it"})


def _yes_or_no_after(words: Span) -> bool:
    """Do `words` open with a modal or "do", a subject pronoun and a verb in its base form,
    a yes-no question by their words alone ("since im diabetic can i eat bananas", "i have
    two cats can they eat tuna")? Not "so do i" (no verb after)."""
    return (
        len(words) >= 3
        and words[0].lower_ in _YES_OR_NO_OPENERS
        and words[1].lower_ in _RUN_ON_SUBJECTS
        and words[2].tag_ == "VB"
    )


def _asks_unmarked(words: Sequence[Token]) -> bool:
    """Words worded as a question with no "?" typed (`keys.asks_unmarked`), a verb put
    before its subject ("..., can i put e10 in it": `keys.asks_yes_or_no`), or "any" and a
    plural noun or what one asks for, which asks for some ("any tips for a dentist", "any
    quick dinners", "any advice on ...")."""
    if len(words) < 2:
        return False
    if words[0].lower_ in QUESTION_OPENERS and asks_unmarked(list(words)):
        return True
    if asks_yes_or_no(list(words)):
        return True
    # "any quick dinners", "any advice for a new runner": describing words may come
    # between; what one asks an assistant for (lexicon "asked_for") need not be plural
    noun = next((w for w in words[1:] if w.pos_ != "ADJ" and w.dep_ != "compound"), None)
    return (
        words[0].lower_ == "any"
        and noun is not None
        and (noun.tag_ == "NNS" or noun.lemma_.lower() in _ASKED_FOR)
    )


#: what people ask an assistant for: "any advice", "any help" ask as "any tips" does
_ASKED_FOR = words("asked_for")


def _main_after_reason(sent: Span) -> int | None:
    """Where the main clause starts after an opening clause of grounds that no comma
    closes: "since i moved to oslo | ive been cold", "after i quit smoking | i gained
    weight". Each clause is then read on its own, as it is when a comma parts them."""
    for mark in sent[:3]:
        if mark.dep_ != "mark" or mark.lower_ not in _FACTIVE or mark.head.dep_ != "advcl":
            continue
        clause, main = mark.head, mark.head.head
        subject = next((c for c in main.children if c.dep_ in _SUBJ), None)
        after = clause.right_edge.i + 1
        if (
            subject is not None
            and clause.i < subject.i
            and after == subject.left_edge.i
            and not sent.doc[after - 1].is_punct
        ):
            return after
    return None


def _cut_points(sent: Span) -> list[int]:
    """Token indices where a new clause starts (see the module's docstring)."""
    tokens = list(sent)
    doc = sent.doc
    cuts: list[int] = []
    start, end = sent.start, sent.end
    asks = _asking(sent)
    # "make me a packing list for our caravan, its a 4 berth": a request opens it
    requests = tokens[0].tag_ == "VB" and not any(
        c.dep_ in _SUBJ and c.lower_ not in ("me", "us") for c in tokens[0].children
    )  # "make me a list": "me" is whom it is for
    main = _main_after_reason(sent)
    if main is not None:
        cuts.append(main)
        start = main
    run_on = _run_on_question(sent) if asks else None
    for tok in tokens[1:-1]:
        if tok.i < start:
            continue
        coordinator = tok.dep_ == "cc" and tok.lower_ in ("and", "but", "so")
        if coordinator and tok.head.dep_ == "ROOT" and tok.head.i < tok.i:
            # "I'm reading The Quiet Harbour and hoping it helps": a second verb that
            # shares the subject is cut off, so that the first is judged on its own
            conj = next(
                (
                    c
                    for c in tok.head.children
                    if c.dep_ == "conj" and c.i > tok.i and c.pos_ in ("VERB", "AUX")
                ),
                None,
            )
            # "born and raised in Tampere": a first verb with nothing of its own before
            # the "and" shares what follows the second; one statement, not two
            complete = any(c.dep_ in _OWN_COMPLEMENTS and c.i < tok.i for c in tok.head.children)
            if (
                conj is not None
                and complete
                # the same tense, or a verb of its own time said of the speaker (read
                # alone, it is the speaker's): "i will be in law school next fall and
                # graduated from duke", "im moving to leeds and got a job there"; not "my
                # father was a cop but retired"
                and (
                    conj.tag_ in (tok.head.tag_, "VBG")
                    or (conj.tag_ in ("VBZ", "VBP") or past_form(conj))
                    and _said_of_the_speaker(tok.head)
                )
                and not any(c.dep_ in _SUBJ for c in conj.children)
                and start < tok.i
                and _has_clause(tokens, start, tok.i)
            ):
                cuts.append(tok.i)
                start = tok.i
                continue
        if tok.tag_ == "HYPH" or not (coordinator or tok.text in (*_STRONG_BREAKS, ",")):
            continue  # "dairy-free" is one word
        nxt = tok.i + 1
        while nxt < end and (doc[nxt].dep_ == "cc" or doc[nxt].is_punct):
            nxt += 1
        if nxt >= end or coordinator and tok.head.pos_ not in ("VERB", "AUX"):
            continue  # "my husband and kids": "and" joins two nouns
        first = doc[nxt]
        if _hedge_alone(doc[nxt:end].text) or _hedge_alone(doc[start : tok.i].text):
            continue  # "i love sushi, i think", "i think, i live in leeds": the hedge is
            # said of the clause beside it
        if tok.text == "," and _continues_phrase(doc, nxt, tok.i):
            continue  # "a shed of 2 m, 3 m, and we've ...": a list goes on
        if (
            (asks or requests)
            and tok.text in (",", *_STRONG_BREAKS)
            and (
                _independent(tokens, start, tok.i)
                or _elided_report(doc, start, tok.i)
                or _asks_after(doc, tok.i, end)
                and _clause_alone(doc[start : tok.i].text)
                # "any tips for sleeping on planes, im 6 foot 5": the question first
                or (requests or _asks_unmarked([t for t in doc[start : tok.i] if not t.is_punct]))
                and _independent(tokens, nxt, end)
            )
        ):
            # "i just moved to lisbon, any tips for a dentist?": a statement, then the
            # question it leads to; each is judged on its own
            cuts.append(nxt)
            start = nxt
            continue
        if first.dep_ == "mark" or first.tag_ in ("WDT", "WP", "WP$", "WRB"):
            continue  # "..., since I moved", "..., which is exciting": subordinate
        left = (
            tok.text in _STRONG_BREAKS
            or _has_clause(tokens, start, tok.i)
            or _finite_before(tokens, start, tok.i)
        )
        imperative = (
            tok.text == ","
            and first.tag_ == "VB"
            and first.dep_ in ("dep", "parataxis")
            and not any(c.dep_ in _SUBJ for c in first.children)
        )  # "..., take a look"
        if left and (imperative or _independent(tokens, nxt, end)):
            if tok.text == "," and _phrase_then_clause(doc, nxt, end):
                continue  # "..., especially with chess puzzles, and i've ...": the phrase
                # stays with the clause before; the cut comes after it
            cuts.append(nxt)
            start = nxt
    if run_on is not None and run_on > start and tokens[0].lower_ not in _SUBORDINATE:
        # "... on my keyboard what do i do": the question run on; not after a condition
        # ("if i had a million dollars what should i buy": one question)
        cuts.append(run_on)
    told = _run_on_told(sent, asks or requests) if not cuts else None
    if told is not None:
        cuts.append(told)
    return cuts


#: words after which a clause belongs to what comes before it: "what do i do if i ...",
#: "how do i know that i ...", "which bike for when we ..."
_BINDS_NEXT = frozenset({"that", "for", "to", "of", "about", "with", "like", "than"})
#: what a clause's verb is finite by
_FINITE = ("VBP", "VBZ", "VBD", "MD")
#: quotation marks as tokens: words quoted ("translate 'i have two cats' into french") are
#: no statement of the speaker's run on
_QUOTES = ('"', "'", "“", "”", "‘", "’", "`")
#: what ends or joins a clause as typed: a run-on has none of them
_TYPED_BREAKS = (",", ";", ":", ".", "?", "!", "(", ")", *_STRONG_BREAKS, *_QUOTES)


def _refused_for_nothing_said(text: str) -> bool:
    """Does the gate take `text`, or refuse it only for want of a key it has yet to be
    given (`no_subject`), not for anything it says (a hedge, a mood, a plan)?"""
    verdict = check(Candidate(text))
    return verdict.accepted or verdict.code == "no_subject"


def _run_on_told(sent: Span, asks: bool) -> int | None:
    """Where a statement run on with no comma or stop starts, after a question or a request
    ("what should i cook tonight im vegetarian", "recommend me a podcast i like true
    crime") or after a statement ("i live in leeds i work at the hospital", "im 34 i have
    two kids"): "i", "we", "my <noun>" or "our <noun>" and a finite verb of their own.
    Not a clause bound to the words before it ("what do i do if i miss a dose", "how do
    i know im pregnant", "i hope we win"), nor a relative clause that fills a gap ("a
    podcast i would like", "the house i grew up in"). None when there is none."""
    tokens = list(sent)
    first = tokens[0]
    if asks:
        opens = (
            first.lower_ in QUESTION_OPENERS
            or first.lower_ in AUX_OPENERS
            or first.tag_ == "VB"
            and not any(c.dep_ in _SUBJ for c in first.children)
        )
    else:
        opens = first.lower_ in _I_WE or first.lower_ in ("my", "our")
    if not opens or any(t.text in _TYPED_BREAKS for t in tokens[:-1]):
        return None
    # the verb the question or request is made with: what is told comes after it ("how do i
    # stop my puppy biting" asks with "stop", its "i" the asker's)
    asked = first if first.dep_ == "ROOT" or first.pos_ in ("VERB", "AUX") else first.head
    for tok in tokens[2:]:
        if tok.lower_ in _I_WE:
            subject = tok
        elif tok.lower_ in ("my", "our") and tok.head.dep_ in ("nsubj", "nsubjpass"):
            subject = tok.head
        else:
            continue
        verb = subject.head
        if (
            subject.dep_ not in ("nsubj", "nsubjpass")
            or verb.i <= subject.i
            or asks
            and verb.i <= asked.i
            or verb.pos_ not in ("VERB", "AUX")
            or not (verb.tag_ in _FINITE or past_form(verb))
            and not any(c.dep_ == "aux" and c.tag_ in _FINITE for c in verb.children)
        ):
            continue
        before = sent.doc[tok.i - 1]
        if (
            before.dep_ == "mark"
            or before.lower_ in _SUBORDINATE | _BINDS_NEXT
            or before.tag_ in ("WDT", "WP", "WRB", "IN")
            or any(c.dep_ == "mark" for c in verb.children)  # "... if i ...": a condition
        ):
            return None
        if verb.dep_ == "relcl":
            stranded = any(
                c.dep_ == "prep" and not any(g.dep_ == "pobj" for g in c.children)
                for c in verb.children
            )
            own = any(
                c.dep_ in ("dobj", "attr", "acomp", "ccomp", "xcomp")
                or c.dep_ == "prep"
                and not asks
                for c in verb.children
            )
            if stranded or not own:
                return None  # "a podcast i would like": the clause says which podcast
        elif asks:
            if verb.dep_ == "ccomp" and verb.head.lemma_.lower() in _ASKED_CLAUSE:
                return None
        elif verb.dep_ not in ("ROOT", "conj", "parataxis", "dep"):
            return None  # "i hope we win", "i said i would": what the first clause says
        if not asks and not (
            _has_clause(tokens, sent.start, tok.i) and _refused_for_nothing_said(sent.text)
        ):
            # a run-on the gate refuses whole ("i think ... i ..." hedged, a mood, a plan)
            # stays whole: what refused it may be said of every part
            return None
        if not any(c.dep_ in _OWN_COMPLEMENTS and c.i > verb.i for c in verb.children):
            return None  # "im worn out after the week i had": nothing said of its own
        return tok.i
    return None


_WORD = re.compile(r"[\w']+")


def _hedge_alone(piece: str) -> bool:
    """Is `piece` a hedge and nothing else ("i think", "i guess", "probably")? Said after a
    clause it hedges that clause ("i love sushi, i think"), not a clause of its own."""
    said = " ".join(_WORD.findall(piece.lower()))
    return bool(said) and said in HEDGE_MARKERS


def _phrase_then_clause(doc: Doc, lo: int, end: int) -> bool:
    """Does doc[lo:end] open with a phrase of no verb closed by a comma, a clause of its
    own after it ("especially with chess puzzles, and i've joined a club")? The phrase
    says more of the clause before it."""
    stop = next((i for i in range(lo, end) if doc[i].text == ","), None)
    if stop is None or stop == lo:
        return False
    if any(t.pos_ in ("VERB", "AUX") for t in doc[lo:stop]):
        return False
    after = stop + 1
    while after < end and (doc[after].dep_ == "cc" or doc[after].is_punct):
        after += 1
    return after < end and _has_clause(list(doc[after:end]), after, end)


def _trim(tokens: list[Token], names: frozenset[str]) -> list[Token]:
    """Drop openers, vocatives and afterthoughts at both ends of a clause."""
    changed = True
    while tokens and changed:
        changed = False
        head = tokens[0]
        nxt = tokens[1] if len(tokens) > 1 else None
        low = head.lower_
        if (
            head.is_punct
            or head.is_space
            or head.dep_ == "cc"
            or head.pos_ == "INTJ"
            or (
                low in _DISCOURSE
                and (nxt is None or nxt.is_punct or low in _LEAD_WORDS or nxt.lower_ in names)
            )
        ):
            tokens, changed = tokens[1:], True
        elif low in names and (nxt is None or nxt.is_punct or nxt.lower_ in names):
            tokens, changed = tokens[1:], True  # "Caroline, I ...", "Hey Mel! ..."
        elif low in _FACTIVE and head.dep_ == "mark" and nxt is not None and nxt.dep_ in _SUBJ:
            tokens, changed = tokens[1:], True  # "After I failed the test, ...": it happened
        elif (
            low in _GROUNDS_THAT | _GROUNDS_GIVEN
            and nxt is not None
            and nxt.lower_ == "that"
            and len(tokens) > 2
            and tokens[2].dep_ in _SUBJ
        ):
            tokens, changed = tokens[2:], True  # "now that i live in york, ...": it is so
        elif low in _GROUNDS_GIVEN and nxt is not None and nxt.dep_ in _SUBJ:
            tokens, changed = tokens[1:], True  # "considering i've never ...": it is so
        elif (
            low == "by"
            and len(tokens) > 2
            and tokens[1].lower_ == "the"
            and tokens[2].lower_ == "way"
        ):
            tokens, changed = tokens[3:], True
    changed = True
    while tokens and changed:
        changed = False
        tail = tokens[-1]
        if (
            tail.is_punct
            and tail.text not in (")", '"', "”", "%")
            or tail.is_space
            or tail.lower_ in _NOISE
            or tail.dep_ == "cc"
            # a "so" or "but" a question was cut off after ("i rent so | what can i do");
            # not "i think so"
            or tail.lower_ in _JOINING
            and len(tokens) > 2
            and tokens[-2].lemma_.lower() not in _SO_TAKING
        ):
            tokens, changed = tokens[:-1], True
        elif tail.lower_ in names and len(tokens) > 1 and tokens[-2].text == ",":
            tokens, changed = tokens[:-2], True  # "..., Mel!"
        elif (
            tail.lower_ in names
            and len(tokens) > 2
            and tokens[-2].pos_ in ("NOUN", "ADJ", "ADV", "PRON")
            # the name not what is done or to whom (a name read as the object of a noun
            # before it is the tagger's)
            and (tail.dep_ not in ("pobj", "dobj", "conj") or tokens[-2].dep_ == "compound")
        ):
            tokens, changed = tokens[:-1], True  # "i love the thought Nate!": to Nate
        elif (
            len(tokens) > 3
            and tail.lower_ == "way"
            and tokens[-2].lower_ == "the"
            and tokens[-3].lower_ == "by"
        ):
            tokens, changed = tokens[:-3], True  # "..., by the way"
    return tokens


#: the words a question opens with ("what ...", "any tips ...", "can i ...")
_OPENERS = "what|whats|how|hows|which|where|when|who|why|any|can|could|should|is|are|do|does"
_QUESTION_OPENER = re.compile(rf"(?:{_OPENERS})\b", re.IGNORECASE)
#: a pictograph (with its modifiers and joiners) used as a full stop: "we adopted a
#: greyhound 🐕 what food is best?"
_PICTOGRAPHS = re.compile(
    "(?:[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff]"
    "[\U0001f3fb-\U0001f3ff\ufe0f\u200d\u20e3]*)+"
)
#: "so" between a statement and the question it leads to: "im vegan so what can i cook",
#: "i'm 34 so is it too late to learn piano?"
_SO_THEN_ASKED = re.compile(rf"\s+so\s+(?=(?:{_OPENERS}|would|will)\b)", re.IGNORECASE)
#: ... or to a statement the text asks to have confirmed by a tag at its end: "the van's
#: diesel so i just fill it with b7 right?", "we have one car so a small garage is fine
#: yeah?"
_SO_THEN_TAGGED = re.compile(r"\s+so\s+")
#: ... or a dash between blanks: "training for a half marathon - any tips?"
_DASH_THEN_ASKED = re.compile(rf"\s+[-\u2013\u2014]+\s+(?=(?:{_OPENERS})\b)", re.IGNORECASE)
_TAGGED = re.compile(r"[\s,]+(?:right|yeah|yes|correct|ok|okay|no|innit)\s*\?+\s*$", re.IGNORECASE)


def _pieces(text: str) -> list[str]:
    """`text` cut where a pictograph, a dash or a "so" leads from a statement to a question
    ("maisie's nine so what chores can she do?", "the van's diesel so i fill it with b7
    right?": a tag at the end asks), when the text asks (ends with "?" or
    the piece after the cut opens with a question word): each piece is read on its
    own, its words as written. A pictograph that ends a text, or one inside a text that
    asks nothing, cuts nothing."""
    asks = text.rstrip().endswith("?")
    tagged = _TAGGED.search(text) is not None
    out: list[str] = []
    rest = text
    while True:
        cut = None
        for pattern in (
            _PICTOGRAPHS,
            _SO_THEN_ASKED,
            _DASH_THEN_ASKED,
            *([_SO_THEN_TAGGED] if tagged else []),
        ):
            for m in pattern.finditer(rest):
                before, after = rest[: m.start()].strip(), rest[m.end() :].strip()
                if len(before.split()) < 2 or len(after.split()) < 2:
                    continue
                if pattern in (_SO_THEN_ASKED, _DASH_THEN_ASKED) and not asks:
                    continue
                if pattern is _PICTOGRAPHS and not (asks or _QUESTION_OPENER.match(after)):
                    continue
                if cut is None or m.start() < cut.start():
                    cut = m
                break
        if cut is None:
            out.append(rest)
            return [p.strip() for p in out if p.strip()]
        out.append(rest[: cut.start()])
        rest = rest[cut.end() :]


#: a block of code fenced by three backticks (or one a cut message leaves open)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


def _clauses(
    text: str, names: frozenset[str], *, capitalise: bool = True
) -> list[tuple[str, bool, bool]]:
    """(clause, from a question, opens its sentence) for each clause of `text`: the
    words as written (trimmed, the first letter capitalised; punctuation as said)."""
    text = _CAPTION.sub("", text).strip()
    if not text:
        return []
    prose = [p for p in _CODE_BLOCK.split(text) if p.strip()]
    if prose != [text]:  # code pasted in a message is no speech: the words around it are
        return [c for piece in prose for c in _clauses(piece, names, capitalise=capitalise)]
    pieces = _pieces(text)
    if len(pieces) > 1:
        return [c for piece in pieces for c in _clauses(piece, names, capitalise=capitalise)]
    doc = parse(text)
    out: list[tuple[str, bool, bool]] = []
    asked: str | None = None  # "favourite season" of the last "what's your favourite season?"
    for sent in _sentences(doc):
        asks = _asking(sent)
        run_on = _run_on_question(sent) if asks else None  # read once, for every clause
        worded = False  # a clause before this one is worded as a question
        bounds = [sent.start, *_cut_points(sent), sent.end]
        for lo, hi in zip(bounds, bounds[1:], strict=False):
            tokens = _trim([doc[i] for i in range(lo, hi)], names)
            if not tokens:
                continue
            end = tokens[-1].i + 1
            while end < hi and doc[end].is_punct and doc[end].text in ".!?…":
                end += 1  # the sentence's own final punctuation, as said
            last = doc[end - 1]
            clause = doc.text[tokens[0].idx : last.idx + len(last.text)]
            if asked and tokens[0].lower_ == "mine" and len(tokens) > 1:
                # "what's your favourite season? mine is autumn": "mine" is "my" and what
                # was asked of ("my favourite season is autumn")
                rest = clause[len(tokens[0].text) :]
                if tokens[1].lower_ in ("'s", "’s"):  # "mine's alien": "is", not a possessive
                    rest = " is" + rest[len(tokens[1].text) :]
                clause = f"my {asked}{rest}"
            if capitalise:
                clause = clause[:1].upper() + clause[1:]
            # a question is the clause that asks: the last of a sentence ending in "?"
            # and any of its clauses in the form of a question ("which is better for my
            # laptop, 8 or 16 gb?"); a statement cut off before it is not
            marked = sent.text.rstrip().endswith("?") or inverted_question(sent)
            # ... but when the question came first, worded as one, the statement cut off
            # after it asks nothing ("what should i cook tonight, i'm vegetarian", "how do
            # i list my degree on a cv, got a 2:1 in 2012"), "?" typed at the end or not
            form = _asking_form(tokens) or _piece_asks(tokens)
            # "when the baby naps what can i cook": a condition, then what it asks
            conditioned = tokens[0].lower_ in _SUBORDINATE and run_on is not None
            question = asks and (hi == sent.end and marked and not worded or form or conditioned)
            worded = worded or asks and form
            if not question and _echoed_to_the_listener(tokens, doc, sent):
                continue  # "running a bakery and raising twins - you're a superhero!"
            out.append((clause, question, lo == sent.start))
        asked = _asked_of_you(sent) if asks else None
    return out


def _sentences(doc: Doc) -> Iterator[Span]:
    """The sentences of `doc`, each also cut after a "?" typed inside it: what came before
    the mark asks, however the parser joined the two ("best way to learn to swim as an
    adult? never learned as a kid")."""
    for sent in doc.sents:
        start = sent.start
        for tok in sent[:-1]:
            if tok.text.startswith("?") and tok.i + 1 < sent.end and not doc[tok.i + 1].is_punct:
                yield doc[start : tok.i + 1]
                start = tok.i + 1
        yield doc[start : sent.end]


#: how many clauses after a doing may praise the listener for it ("learning japanese at
#: 60 - that's inspiring! you'll do great!")
_ECHO_REACH = 2


def _echoed_to_the_listener(tokens: Sequence[Token], doc: Doc, sent: Span) -> bool:
    """ "Taking in foster dogs - you're so generous!", "Learning Japanese at 60 - that's
    inspiring! You'll do great!": a doing with no subject of its own, opening its
    sentence, and the listener made the subject of what follows (in this sentence or the
    next, before the speaker says anything of their own) is the listener's doing said back
    to them, not the speaker's ("training for a half marathon, it's going well" is the
    speaker's)."""
    first = tokens[0]
    if first.i != sent.start and not all(
        t.is_punct or t.pos_ == "INTJ" for t in doc[sent.start : first.i]
    ):
        return False
    if first.tag_ != "VBG" or any(t.dep_ in _SUBJ or t.lower_ in _FIRST for t in tokens):
        return False
    after = doc[tokens[-1].i + 1 :]
    sents = [s for s in doc.sents if s.start >= sent.start][:_ECHO_REACH]
    for tok in after:
        if tok.sent not in sents:
            break
        if tok.lower_ in _FIRST or tok.lower_ in _WE:
            return False
        if tok.dep_ in ("nsubj", "nsubjpass") and tok.lower_ in _SECOND | _LISTENER_CONTRACTED:
            return True
    return False


#: the verbs a yes-no question opens with: "can i ...", "should we ...", "is it ..."
_YES_NO = frozenset(
    {"do", "does", "did", "can", "could", "should", "would", "will", "is", "are", "was"}
    | {"were", "am", "may", "might", "shall", "must", "have", "has"}
)


def _asking_form(tokens: Sequence[Token]) -> bool:
    """A clause worded as a question: opening with a question word ("which is better for
    my laptop", "whats the best way to ...") or with a verb before its subject ("can my
    landlord ...", "should i ...")."""
    first = tokens[0]
    if first.tag_ in ("WDT", "WP", "WP$", "WRB") or first.lower_ in ("whats", "hows", "wheres"):
        return True
    return first.lower_ in _YES_NO and len(tokens) > 1 and tokens[1].dep_ in (*_SUBJ, "poss")


def _asked_of_you(sent: Span) -> str | None:
    """What a question asks of the listener's ("what's your favourite season?" -> "favourite
    season"): the words after "your" up to the noun they belong to, or None."""
    your = next((t for t in sent if t.lower_ == "your" and t.dep_ == "poss"), None)
    if your is None or your.head.i <= your.i or your.head.pos_ != "NOUN":
        return None
    return sent.doc[your.i + 1 : your.head.i + 1].text


def statements_in(text: str) -> list[str]:
    """The clauses of `text` that are not questions, as written: "i just moved to lisbon,
    any tips for a dentist?" -> ["i just moved to lisbon"]."""
    return told_and_asked(text)[0]


def told_and_asked(text: str) -> tuple[list[str], bool]:
    """The clauses of `text` that are not questions (`statements_in`), and whether it
    holds a question beside them too ("whats your favourite season? mine is autumn")."""
    clauses = _clauses(text, frozenset(), capitalise=False)
    return [c for c, question, _ in clauses if not question], any(q for _, q, _ in clauses)


#: where a statement said beside a mood, a plan or an aside is cut off from it, when the
#: parse finds no clause boundary: "turned 40 last week, feeling old" / "im vegan - so no
#: cheese for me"
_ASIDE_BREAKS = re.compile(r"\s*(?:[,;:]|\s[-–—]\s|\s(?:so|but|though)\s)\s*", re.IGNORECASE)


def asides(text: str) -> list[str]:
    """`text` cut at commas, dashes and "so" / "but", each piece as written (the user's
    words, none added): for a text refused whole, whose statement may stand apart from
    what was refused."""
    inside = [m.group(1) for m in _PARENTHESISED.finditer(text)]
    outside = _PARENTHESISED.sub(" ", text) if inside else text
    pieces = [p.strip().rstrip(".!") for p in _ASIDE_BREAKS.split(outside)]
    pieces += [p.strip().rstrip(".!") for p in inside]  # "(we meet every tuesday)"
    if any(_hedge_alone(p) for p in pieces):
        return []  # "not a fan of sushi, i think": the hedge is said of the rest
    # a piece that ends on a verb still waiting for its complement is no statement: "so"
    # in "my week has been so hectic" says how much, it cuts nothing
    return [p for p in pieces if len(p.split()) >= 2 and p.split()[-1].lower() not in _OPEN_ENDS]


#: words a statement does not end on: a copula or an auxiliary still to be completed
_OPEN_ENDS = frozenset({"is", "are", "was", "were", "be", "been", "am", "being", "has", "have"})


#: words said in parentheses: an aside of its own
_PARENTHESISED = re.compile(r"\(([^()]{3,300})\)")


def felt_about(text: str) -> list[str]:
    """The clauses a feeling is about, as said: "so happy that i finally got my license"
    -> "i finally got my license", "thrilled to say i got into the program" -> "i got
    into the program". Only a clause with its own first-person subject that hangs on the
    feeling (its complement), its "that" left off."""
    doc = parse(text)
    out = []
    for tok in doc:
        subject = next(
            (c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in _I_WE),
            None,
        )
        if subject is None:
            continue
        marks = {c.lower_ for c in tok.children if c.dep_ == "mark"}
        if tok.dep_ == "ccomp" or tok.dep_ == "advcl" and marks & {"because", "cause", "cos"}:
            # "so happy that i got my license", "stressed because i started at a new firm"
            start = tok.left_edge.i
        elif tok.dep_ == "ROOT" and any(
            c.dep_ == "advcl" and c.i < subject.i for c in tok.children
        ):
            # "happy to report i'm now a certified nurse": the feeling read as a clause
            # before the statement it is about
            start = subject.left_edge.i
        else:
            continue
        words = [
            t for t in doc[start : tok.right_edge.i + 1] if not (t.i == start and t.dep_ == "mark")
        ]
        while words and words[-1].is_punct:
            words.pop()
        if words:
            out.append(text[words[0].idx : words[-1].idx + len(words[-1].text)])
    return out


_I_WE = frozenset({"i", "we"})


def _of_the_speaker(subject: Token) -> bool:
    """ "i", "we", "my cat", "our landlord": a subject the speaker tells of themselves."""
    return subject.lower_ in _I_WE or any(
        c.dep_ == "poss" and c.lower_ in ("my", "our") for c in subject.children
    )


def _speakers_clause(verb: Token) -> Token | None:
    """The word that opens `verb`'s clause ("that", "since") when a subject of the
    speaker's follows it ("that i've never owned a car", "since my knee is bad"); None
    for any other clause."""
    mark = next((c for c in verb.children if c.dep_ == "mark"), None)
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if mark is None or subject is None or mark.i > subject.i or not _of_the_speaker(subject):
        return None
    return mark


def _as_said(doc: Doc, start: int, end: int) -> str:
    """doc[start:end] as written, without the punctuation it ends with."""
    words = list(doc[start:end])
    while words and words[-1].is_punct:
        words.pop()
    return doc.text[words[0].idx : words[-1].idx + len(words[-1].text)] if words else ""


def presupposed(text: str) -> list[str]:
    """The clauses a request or question takes as true: the one it asks the reason for
    ("clarify why I have never been billed for the api" -> "I have never been billed for
    the api", "can you explain why my cat sleeps all day?" -> "my cat sleeps all day"), or
    says the speaker cannot tell the reason for (`puzzled_why`), and those it gives as its
    grounds (`reasons_given`). Only a clause of the speaker or of their things ("explain
    how i can deploy it" asks, it tells nothing), as said, its opener left off."""
    doc = parse(text)
    out = []
    for tok in doc:
        if tok.dep_ != "ccomp" or tok.head.dep_ != "ROOT" or tok.head.pos_ != "VERB":
            continue
        why = next((c for c in tok.children if c.dep_ == "advmod" and c.lower_ == "why"), None)
        subject = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if why is None or subject is None or why.i > subject.i:
            continue
        if not _of_the_speaker(subject):
            continue
        said = _as_said(doc, why.i + 1, tok.right_edge.i + 1)
        if said:
            out.append(said)
    out += [p for p in puzzled_about(doc) if p not in out]
    out += [j for j in judged(doc) if j not in out]
    out += [d for d in described_in_passing(doc) if d not in out]
    out += [t for t in to_be_told(doc) if t not in out]
    return out + [r for r in reasons_given(doc) if r not in out]


#: the words that open a relative clause as its subject: "my wife who loves gardening"
_RELATIVE_SUBJECT = frozenset({"who", "that", "which"})


def described_in_passing(doc: Doc) -> list[str]:
    """What a question or request says in passing of a thing of the speaker's, in a
    relative clause whose subject is the thing: "what's a good gift for my wife who
    loves gardening?" -> "my wife loves gardening", "any advice for my dog, who is
    scared of fireworks?" -> "my dog is scared of fireworks". The words said, the
    relative word left out; only a noun with "my" or "our" before it."""
    out = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ not in ("relcl", "ccomp"):
            continue
        rel = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if rel is None or rel.lower_ not in _RELATIVE_SUBJECT or rel.i == 0 or rel.i > verb.i:
            continue
        noun = doc[rel.i - 1] if not doc[rel.i - 1].is_punct else doc[max(rel.i - 2, 0)]
        if noun.pos_ not in ("NOUN", "PROPN") or (verb.dep_ == "relcl" and verb.head != noun):
            continue
        if verb.dep_ == "ccomp" and rel.lower_ == "which":
            continue  # "..., which is why": a clause about the sentence, not the thing
        poss = next((c for c in noun.children if c.dep_ == "poss"), None)
        if poss is None or poss.lower_ not in ("my", "our"):
            continue
        if any(t.head.i not in range(poss.i, noun.i + 1) for t in doc[poss.i + 1 : noun.i]):
            continue  # "my" and the noun are one phrase: "my 2015 macbook pro"
        said = _as_said(doc, rel.i + 1, verb.right_edge.i + 1)
        if said:
            out.append(f"{_as_said(doc, poss.i, noun.i + 1)} {said}")
    return out + [d for d in _done_to_in_passing(doc) if d not in out]


#: nouns a relative clause tells when, why or how of, or that name nothing: "the way i sleep"
_NOT_DONE_TO = words("adverbial_nouns") | _FILLER_NOUNS


def _done_to_in_passing(doc: Doc) -> list[str]:
    """What a question says the speaker did to or does with a thing it names, in a
    relative clause with the speaker as its subject: "what should we feed the rabbit we
    rescued last spring" -> "we rescued the rabbit last spring", "how do i add 2fa to the
    wordpress site i run for my church" -> "i run the wordpress site for my church". The
    words said, the thing put after the verb; not "the way i sleep", nor a clause with an
    object of its own ("the book i read any good")."""
    out = []
    for verb in doc:
        if verb.dep_ != "relcl" or verb.pos_ != "VERB" or verb.lemma_.lower() == "be":
            continue
        noun = verb.head
        subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        if subject is None or subject.lower_ not in _I_WE or subject.i != noun.i + 1:
            continue  # "the rabbit we rescued": the subject straight after the noun
        if noun.pos_ != "NOUN" or noun.lemma_.lower() in _NOT_DONE_TO:
            continue
        if any(c.dep_ in ("dobj", "ccomp", "xcomp", "attr", "acomp") for c in verb.children):
            continue
        start = min((c.left_edge.i for c in noun.lefts), default=noun.i)
        if start >= noun.i or doc[start].lower_ not in ("the", "my", "our", "this", "that"):
            continue
        thing = _as_said(doc, start, noun.i + 1)
        after = verb.i + 1
        while after < len(doc) and doc[after].dep_ == "prt":
            after += 1  # "the bike i picked up last week": the particle stays with its verb
        rest = _as_said(doc, after, verb.right_edge.i + 1)
        doing = _as_said(doc, subject.i, after)
        out.append(" ".join(p for p in (doing, thing, rest) if p))
    return out


#: verbs of telling someone news: "how do i tell my boss i'm quitting?"
_TELLING_NEWS = frozenset({"tell", "inform"})


def to_be_told(doc: Doc) -> list[str]:
    """The news a question asks how or whether to tell someone, which it takes as true:
    "how do i tell my boss i'm quitting?" -> "i'm quitting", "should i tell my parents
    that we got engaged" -> "we got engaged". Only when the speaker is the one to tell,
    someone is told (not "how can i tell if ..."), and the news is of the speaker or of
    their things; as said, its "that" left off."""
    out = []
    for verb in doc:
        if verb.dep_ != "ccomp" or verb.pos_ not in ("VERB", "AUX"):
            continue
        tell = verb.head
        if tell.lemma_.lower() not in _TELLING_NEWS or tell.pos_ != "VERB":
            continue
        teller = next((c for c in tell.children if c.dep_ == "nsubj"), None)
        told = next((c for c in tell.children if c.dep_ in ("dobj", "dative")), None)
        if teller is None or teller.lower_ not in _I_WE or told is None or told.i > verb.i:
            continue
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None or not _of_the_speaker(subject):
            continue
        mark = next((c for c in verb.children if c.dep_ == "mark"), None)
        if mark is not None and mark.lower_ != "that":
            continue
        start = mark.i + 1 if mark is not None else subject.left_edge.i
        said = _as_said(doc, start, verb.right_edge.i + 1)
        if said:
            out.append(said)
    return out


def puzzled_about(doc: Doc) -> list[str]:
    """The clauses of the speaker's that a sentence says the speaker cannot tell the reason
    for, or sets out to know the reason or the way of (`keys.puzzled_why`), which it takes
    as true: "i dont get why ive never had a filling" -> "ive never had a filling", "no
    idea why i never get hay fever" -> "i never get hay fever", "im trying to work out
    how my bonsai got so tall" -> "my bonsai got so tall". As said, the "why" or "how" left off."""
    out = []
    for sent in doc.sents:
        verb = puzzled_why(sent)
        subject = next((c for c in verb.children if c.dep_ in _SUBJ), None) if verb else None
        if verb is None or subject is None or not _of_the_speaker(subject):
            continue
        why = next(t for t in sent if t.lower_ in ("why", "how") and t.head.i == verb.i)
        said = _as_said(doc, why.i + 1, verb.right_edge.i + 1)
        if said and said not in out:
            out.append(said)
    return out


#: adjectives that judge a fact the asker tells: "is it normal that my son still naps?"
#: takes it as true ("is it true / possible that ..." doubts it: not one of these)
_JUDGING = words("judging_adjectives")


def judged(doc: Doc) -> list[str]:
    """The clauses a question judges, which it takes as true: "is it weird that i've never
    owned a car?" -> "i've never owned a car", "do you think it's bad that my cat sleeps
    in the bath?" -> "my cat sleeps in the bath". Only a clause of the speaker or of
    their things, as said, its "that" left off."""
    out = []
    for verb in doc:
        if verb.dep_ != "ccomp" or verb.pos_ not in ("VERB", "AUX"):
            continue
        mark = _speakers_clause(verb)
        if mark is None or mark.lower_ != "that":
            continue
        head = verb.head  # "it's weird that ..." or "it's ok that ..." (the adjective)
        judging = head if head.lower_ in _JUDGING else None
        if judging is None:
            judging = next(
                (c for c in head.children if c.dep_ == "acomp" and c.lower_ in _JUDGING), None
            )
        be = judging.head if judging is not None and judging is head else head
        if judging is None or be.lemma_ != "be":
            continue
        if not any(c.dep_ in ("nsubj", "expl") and c.lower_ == "it" for c in be.children):
            continue
        said = _as_said(doc, mark.i + 1, verb.right_edge.i + 1)
        if said:
            out.append(said)
    return out


#: what opens a clause a question or request gives as its grounds: "since i work from
#: home now", "because my knee is bad", "as i have two toddlers", "now that i live in
#: york", "given that im vegan"
_GROUNDS = frozenset({"since", "because", "cause", "as"})
_GROUNDS_THAT = frozenset({"now", "given", "seeing"})
#: a participle that gives grounds when a clause with its own subject follows it, with or
#: without "that": "considering i've never driven abroad", "given we rent"
_GROUNDS_GIVEN = frozenset({"considering", "given", "seeing"})


def reasons_given(doc: Doc) -> list[str]:
    """The clauses a question or request gives as its grounds, which it takes as true:
    "should i get a standing desk since i work from home now?" -> "i work from home now",
    "now that i live in york, what are good day trips?" -> "i live in york". Only a
    clause of the speaker or of their things, with a subject of its own, as said, its
    opener left off ("if i move ...", "when i was ..." are no grounds)."""
    out = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        said = ""
        if verb.dep_ in ("advcl", "ccomp", "pcomp") and (mark := _speakers_clause(verb)):
            before = doc[mark.i - 1].lower_ if mark.i > 0 else ""
            if mark.lower_ in _GROUNDS or (
                mark.lower_ == "that" and before in _GROUNDS_THAT | _GROUNDS_GIVEN
            ):
                said = _as_said(doc, mark.i + 1, verb.right_edge.i + 1)
        elif verb.dep_ == "ccomp" and verb.head.lower_ in _GROUNDS_GIVEN:
            # "..., considering i've never driven abroad": no "that" opens it
            subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
            if subject is not None and _of_the_speaker(subject):
                start = subject.left_edge.i
                if start == verb.head.i + 1:
                    said = _as_said(doc, start, verb.right_edge.i + 1)
        if said:
            out.append(said)
    return out


#: pronouns a clause may open with, and whether they stand for a person
_STANDS_FOR = {"he": True, "she": True, "it": False}


def with_antecedent(clause: str, text: str) -> str:
    """`clause` with the pronoun it opens with ("it's been in the same pot for 3 years")
    put as the one thing of the speaker's `text` names before it that the pronoun can
    stand for ("should i repot my monstera? it's been ..." -> "my monstera has been in the
    same pot for 3 years"): a person or a pet for "he" / "she", anything but a person for
    "it". As said when there is none, or more than one."""
    from ..keys import PEOPLE
    from ..predicates import shipped

    pets = shipped().kinds.get("pet", frozenset())
    words = clause.split(maxsplit=1)
    if not words:
        return clause
    first = words[0]
    low = first.lower()
    pronoun = next((p for p in _STANDS_FOR if low == p or low.startswith(p + "'")), None)
    if pronoun is None and low in ("its", "hes", "shes"):
        pronoun = low[:-1]
    if pronoun is None:
        return clause
    at = text.find(clause)
    before = parse(text[:at] if at > 0 else "")
    person = _STANDS_FOR[pronoun]
    found = {
        text[t.left_edge.idx : t.idx + len(t.text)]
        for t in before
        if t.pos_ in ("NOUN", "PROPN")  # "my nan", read as a name
        and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in t.children)
        and (
            one_spelling(t.lemma_.lower()) in PEOPLE | pets
            if person
            else one_spelling(t.lemma_.lower()) not in PEOPLE
        )
    }
    if len(found) != 1:
        return clause
    rest = first[len(pronoun) :]  # "'s", "s" (typed "its"), or nothing
    tail = clause[len(first) :]
    if rest.lower() in ("s", "'s", "’s"):
        # "it's been ..." is "has", "it's about 6 years old" is "is": after a noun the
        # clitic would read as a possessive ("my fig tree's")
        after = tail.split(maxsplit=1)[0].lower() if tail.strip() else ""
        rest = " has" if after in ("been", "got", "gotten", "had", "gone") else " is"
    return f"{found.pop()}{rest}{tail}"


def split_clauses(text: str) -> list[str]:
    """The clauses of `text` as written, openers trimmed: each is judged on its own, so
    that "I went to a pottery class on Monday and it was so calming" keeps the report
    and leaves the reaction out."""
    return [clause for clause, _, _ in _clauses(text, frozenset())]


# -- reading a clause ---------------------------------------------------------------------
def _phrase(tok: Token) -> list[Token]:
    return [tok.doc[i] for i in range(tok.left_edge.i, tok.right_edge.i + 1)]


def _misread_name(tok: Token) -> bool:
    """A word the parser read as an adjective or an adverb that names a thing: "my editor
    is Vim", "I work at Smartly", "I like cilantro", "my IP is 192.168.1.10". The small
    English model tags a word it does not know by its shape; the key parser (`keys`)
    reads these as the things they are, and so must this. A name capitalised inside the
    sentence, a word with a digit, or one English never uses to describe (and no function
    word: "all over")."""
    if tok.pos_ not in ("ADJ", "ADV"):
        return False
    text = tok.text
    if tok.i > tok.sent.start and text[:1].isupper() and text != "I":
        return True
    if any(c.isdigit() for c in text):
        return True
    return text.isalpha() and not tok.is_stop and not describes(tok.lower_)


def _content(tokens: Sequence[Token]) -> bool:
    """Whether `tokens` name something: a noun that is not filler, a name, a number, an
    activity ("hiking"), or a name the parser misread (`_misread_name`)."""
    for tok in tokens:
        low = tok.lower_
        if _misread_name(tok):
            return True
        if tok.pos_ in ("PROPN", "NUM") and low not in _FILLER_NOUNS:
            return True
        if (
            tok.pos_ == "NOUN"
            and tok.lemma_.lower() not in _FILLER_NOUNS
            and low not in _FILLER_NOUNS
        ):
            return True
        if (
            tok.pos_ == "VERB"
            and tok.tag_ == "VBG"
            and tok.dep_ in ("xcomp", "pobj", "dobj", "pcomp", "conj")
        ):
            return True
    return False


def _evaluative(tokens: Sequence[Token]) -> bool:
    return any(t.lower_ in _EVALUATIVE and t.pos_ in ("ADJ", "ADV") for t in tokens)


def _owned(tok: Token) -> bool:
    """ "my editor", "my main hobby": a noun the speaker owns."""
    return any(c.dep_ == "poss" and c.lower_ in ("my", "mine") for c in tok.children)


def _subject(sent: Span) -> Token | None:
    return next((c for c in sent.root.children if c.dep_ in _SUBJ), None)


def _verb_of(sent: Span) -> Token:
    """The verb that carries the relation: "I started volunteering" -> volunteering,
    "I tried writing a story" -> writing."""
    root = sent.root
    lemma = root.lemma_.lower()
    if lemma in _ASPECTUAL:
        comp = next(
            (
                c
                for c in root.children
                if c.dep_ in ("xcomp", "pcomp", "prep") and c.pos_ in ("VERB", "ADP")
            ),
            None,
        )
        if comp is not None and comp.pos_ == "ADP":  # "carry on volunteering"
            comp = next((c for c in comp.children if c.pos_ == "VERB"), None)
        if comp is not None:
            return comp
    if lemma == "try":
        comp = next((c for c in root.children if c.dep_ == "xcomp" and c.tag_ == "VBG"), None)
        if comp is not None:
            return comp
    if lemma in _IMPLICATIVE:  # "I managed to fix the leak" -> fix
        comp = next((c for c in root.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
        if comp is not None:
            return comp
    return root


def _reported(sent: Span, verbs: frozenset[str] = _TELLING) -> str | None:
    """ "I wanted to tell you that I'm moving to Leeds in June" -> "I'm moving to Leeds
    in June": what the speaker tells the listener (or found out: `verbs`), when that
    is about the speaker."""
    for verb in sent:
        if (
            verb.dep_ != "ccomp"
            or verb.pos_ not in ("VERB", "AUX")
            or verb.head.lemma_.lower() not in verbs
        ):
            continue
        words = [t for t in _phrase(verb) if not (t.dep_ == "mark" and t.i < verb.i)]
        while words and words[-1].is_punct:
            words.pop()
        subject = next((c for c in verb.children if c.dep_ in _SUBJ), None)
        if (
            not words
            or {t.lower_ for t in words} & _SECOND
            or subject is None
            or subject.lower_ != "i"
        ):
            continue
        text = sent.doc.text[words[0].idx : words[-1].idx + len(words[-1].text)]
        return text[:1].upper() + text[1:]
    return None


def _named_thing(sent: Span, subject: Token) -> bool:
    """ "The deploy target for refunds is the eu-west region": a named thing and its value,
    stated in the present, short and plain. Praise in the same shape ("the atmosphere was
    electric", "the colors are amazing") has an adjective, a past tense or a long value."""
    root = sent.root
    if (
        root.lemma_ != "be"
        or root.tag_ not in ("VBZ", "VBP")
        or subject.pos_ != "NOUN"
        or not any(c.dep_ == "det" and c.lower_ == "the" for c in subject.children)
    ):
        return False
    attr = next((c for c in root.children if c.dep_ in ("attr", "acomp")), None)
    if attr is None or attr.pos_ not in ("NOUN", "PROPN", "NUM"):
        return False
    value = _phrase(attr)
    if len(value) > 6 or _evaluative(list(sent)) or not _content(value):
        return False
    return not any(t.lower_ in _FIRST | _THIRD and t.pos_ == "PRON" for t in sent)


def _garbled(sent: Span, self_name: str) -> bool:
    """Shapes whose first-person rewrite would not be English: "me" as the subject of a
    small clause ("made me feel" -> "made Ana feels"), "me-time", "myself", "wanna"."""
    doc = sent.doc
    for tok in sent:
        low = tok.lower_
        if low == "me" and (
            tok.dep_ in _SUBJ or tok.i + 1 < len(doc) and doc[tok.i + 1].text == "-"
        ):
            return True
        if low == "myself" and self_name != "The user":
            return True
        if (
            low in ("wanna", "gonna", "gotta")
            or low == "ta"
            and tok.i > 0
            and doc[tok.i - 1].lower_ == "got"
        ):
            return True
    return False


def _unresolved(sent: Span) -> bool:
    """A pronoun with nothing to refer to in the clause: "it", "they", "that"."""
    for tok in sent:
        if (
            tok.lower_ not in _THIRD
            or tok.tag_ in ("WDT", "WP", "WP$")
            or tok.pos_ not in ("PRON", "DET", "ADV")
        ):
            continue
        if tok.pos_ == "DET" and tok.dep_ == "det":
            continue  # "that lake sunrise": a determiner, judged with its noun
        head = tok.head
        if head.dep_ == "prep" and head.head.lemma_.lower() in (
            "all",
            "stuff",
            "thing",
            "something",
            "like",
        ):
            continue  # "all of that", "stuff like that"
        if tok.dep_ == "poss" and any(t.pos_ in ("NOUN", "PROPN") and t.i < tok.i for t in sent):
            continue  # "tutoring to help pupils pass their exams"
        return True
    return False


# -- durable or not -----------------------------------------------------------------------
def _classifying(adj: Token) -> bool:
    """An adjective that sorts its subject rather than says how it feels: one made of two
    words ("lactose intolerant", "left-handed", "self-employed"; its first word a noun or
    an adjective, or joined by a hyphen, and neither praise nor an intensifier: not "so
    happy", "super excited") or an age ("34 years old")."""
    if adj.lower_ in _EVALUATIVE:
        return False
    if adj.lower_ == "old":
        return any(
            c.dep_ == "npadvmod" and any(n.dep_ == "nummod" for n in c.children)
            for c in adj.children
        )
    hyphened = any(c.dep_ == "punct" and c.tag_ == "HYPH" for c in adj.children)
    for mod in adj.children:
        if mod.i >= adj.i or mod.dep_ not in ("amod", "advmod", "npadvmod", "compound"):
            continue
        if mod.lower_ in _EVALUATIVE:
            return False
        if hyphened or mod.pos_ in ("NOUN", "PROPN", "ADJ"):
            return True
    return False


def _quoted_after(verb: Token) -> bool:
    """The verb is followed by a quotation of two words or more that runs to the end of
    the sentence (not a word in scare quotes: 'my cat is "special"')."""
    doc, end = verb.doc, verb.sent.end
    last = end - 1
    while last > verb.i and doc[last].is_punct and doc[last].tag_ != "''":
        last -= 1  # a full stop after the closing mark
    return (
        verb.i + 3 < last
        and doc[verb.i + 1].tag_ == "``"
        and doc[last].tag_ == "''"
        and not any(t.tag_ in ("``", "''") for t in doc[verb.i + 2 : last])
    )


def _copula_ok(verb: Token, subject: Token) -> bool:
    """ "I'm a nurse", "I'm vegan", "I'm from Sweden", "I'm into climbing", "I'm allergic
    to peanuts", "my editor is Helix", "my goal is to ...", "Blue is my favourite
    colour"; not "I'm so happy", "I'm a lucky guy", "it's great"."""
    if _quoted_after(verb):
        return True  # 'my motto is "I never give up"': the value is what is quoted
    complements = [c.dep_ for c in verb.rights if c.dep_ in ("attr", "acomp", "oprd")]
    if len(complements) > 1 and "acomp" in complements:
        return False  # "I'm livin' my dreams" read as two complements: a misparse
    for child in verb.rights:
        if child.dep_ in ("advmod", "neg", "npadvmod", "punct") and child.i < verb.i + 3:
            continue  # "I'm finally in the program", "I'm not a smoker"
        if child.dep_ in ("attr", "oprd", "acomp") and child.pos_ in ("NOUN", "PROPN", "NUM"):
            words = _phrase(child)
            if _owned(child):  # "Playing video games is my main hobby"
                if _owned(subject):
                    return False  # "my friends are my rocks": praise, not a value
                return subject.pos_ in ("NOUN", "PROPN", "VERB") or _content(words)
            if _owned(subject) and (
                subject.lemma_.lower() in _FAVOURITE
                or any(c.lower_ in _FAVOURITE for c in subject.children)
            ):
                return _content(words)  # "my favorite is the spicy lentil soup"
            if child.lemma_.lower() in ("fan", "believer", "lover", "member", "part"):
                # "I'm a big fan of origami"; not "I'm a huge fan" (of what was said)
                return any(c.dep_ == "prep" and _content(_phrase(c)) for c in child.children)
            if any(
                t.lower_ in _EVALUATIVE and t.dep_ == "amod" and t.head.i == child.i for t in words
            ):
                return False  # "I'm a lucky guy"
            if child.pos_ == "NUM" and verb.tag_ == "VBD":
                return False  # "(since) I was 17": an age then, an answer to a question
            if any(c.dep_ == "conj" and c.lower_ in _EVALUATIVE for c in child.children):
                return False  # "a roller coaster but rewarding"
            return _content(words)
        if (
            child.dep_ in ("acomp", "attr")
            and _misread_name(child)
            and child.lower_ not in _IDENTITY_ADJ
        ):
            return not _evaluative(_phrase(child))  # "my editor is Vim": a name
        if child.dep_ in ("acomp", "attr") and child.pos_ in ("ADJ", "VERB"):
            adj = child.lower_
            if adj not in _IDENTITY_ADJ:
                return _classifying(child)
            if adj in _IDENTITY_WITH_OBJECT:
                prep = next((c for c in child.children if c.dep_ == "prep"), None)
                if prep is None:  # "I'm lactose intolerant": the object said before it
                    return _classifying(child)
                return _content(_phrase(prep))
            return True
        if child.dep_ == "prep" and (
            child.lower_ in _BE_PREPS or child.lower_ == "to" and verb.lower_ == "been"
        ):
            pobj = next((c for c in child.children if c.dep_ in ("pobj", "pcomp")), None)
            if pobj is None:
                return False
            words = _phrase(pobj)
            return _content(words) and not any(
                t.lower_ in _EVALUATIVE and t.head.i == pobj.i for t in words
            )
        if (
            child.dep_ == "xcomp"
            and _owned(subject)
            and subject.lemma_.lower() in _AIMS
            and verb.tag_ in ("VBZ", "VBP")
        ):
            return _content(_phrase(child))  # "my goal is to open a small bakery"
        if child.dep_ in ("xcomp", "ccomp", "advmod", "npadvmod", "prep", "acomp"):
            return False
    return False


def _reaction(head: Token, words: Sequence[Token]) -> bool:
    """The object of "love", "like" is a reaction to what was shown or said: "that
    painting", "the yellow leaves", "the colors", "a great time"."""
    if any(t.dep_ == "det" and t.lower_ in _DEMONSTRATIVE for t in words) or _evaluative(words):
        return True
    if head.pos_ == "PROPN":
        return False
    the = any(t.dep_ == "det" and t.lower_ == "the" and t.head.i == head.i for t in words)
    if the and (head.lemma_.lower() in _REACTION_NOUNS or head.lemma_.lower() in _FILLER_NOUNS):
        return True  # "I love the way ...", "I like the theme and the lighting"
    modified = any(t.dep_ in ("amod", "compound", "nmod") and t.head.i == head.i for t in words)
    return the and (modified or head.tag_ == "NNS")


def _object_ok(verb: Token) -> bool:
    """A non-copular verb: its object, or failing one a prepositional object, must name
    something; a verb with neither is kept only for an activity ("I paint") or a life
    event ("my grandma passed away")."""
    lemma = verb.lemma_.lower()
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    has_object = False
    for child in verb.rights:
        if child.dep_ == "dative" and child.lower_ in ("myself", "ourselves"):
            continue  # "I taught myself Rust": what was taught is the object
        if child.dep_ in ("advmod", "npadvmod") and _misread_name(child):
            return True  # "I like cilantro", "I work at Smartly": read as adverbs
        if (
            child.dep_ == "dobj"
            and child.lemma_.lower() in ("lot", "bit", "ton")
            and not any(c.dep_ == "prep" for c in child.children)
        ):
            continue  # "I read a lot", "i travel a bit": how much, not what
        if child.dep_ in ("dobj", "dative", "attr", "oprd", "obj"):
            words = _phrase(child)
            head = child.lemma_.lower()
            if (child.pos_ == "PRON" or child.lower_ == "one") and not (
                child.lower_ in _QUANTIFIERS
                and any(c.dep_ == "prep" and _content(_phrase(c)) for c in child.children)
            ):
                return False  # "I love it", "I haven't had one"; not "some of my equipment"
            if lemma in _PREFERENCE and _reaction(child, words):
                return False  # "love that painting": a reaction to what was shown
            if any(
                t.dep_ == "amod"
                and t.lower_ in _EVALUATIVE
                and (
                    t.head.lemma_.lower() in _FILLER_NOUNS | _TIME_NOUNS
                    or t.head.i == child.i
                    and any(
                        c.dep_ == "compound" and c.lemma_.lower() in _TIME_NOUNS
                        for c in child.children
                    )
                )
                for t in words
            ):
                return False  # "I had a neat day out", "an incredible time meeting ..."
            if lemma == "have" and head in _TROUBLE:
                return False  # "I'm having trouble with ...": a state of the moment
            has_object = True
            if (
                any(
                    t.dep_ == "det" and t.head.i == child.i and t.lower_ in _DEMONSTRATIVE
                    for t in words
                )
                and not any(t.pos_ == "PROPN" for t in words)
                and not any(
                    c.dep_ in ("prep", "relcl", "acl") and _content(_phrase(c))
                    for c in child.children
                )
            ):
                continue  # "I had that performance": what was shown, not named
            if _content(words):
                return True
        elif child.dep_ == "xcomp":
            comp = child.lemma_.lower()
            if child.pos_ == "VERB" and comp in _DENY_VERBS and comp not in _DENY_EXCEPT:
                return False  # "I love to see ...", "I want to ..."
            words = _phrase(child)
            if lemma in _PREFERENCE and (child.tag_ == "VBG" or comp in _ACTIVITIES):
                return not _evaluative(words)  # "I love hiking", "I like to cook healthy"
            if _content(words) and not _evaluative(words):
                return True
        elif child.dep_ in ("prep", "agent"):
            pobj = next((c for c in child.children if c.dep_ in ("pobj", "pcomp")), None)
            if pobj is not None and _content(_phrase(pobj)):
                return True
        elif (
            child.dep_ == "npadvmod"
            and any(c.dep_ == "nummod" for c in child.children)
            and (child.lemma_.lower() not in _TIME_NOUNS or _per_time(child))
        ):
            return True  # "I scored 40 points", "I sleep 8 hours a night"
        elif child.dep_ == "npadvmod" and child.pos_ == "NUM" and _a_range(child):
            return True  # "I work 9 to 5": the hours kept
        elif child.dep_ == "punct" and _FILE_NAME.fullmatch(child.text):
            return True  # "I keep secrets in .env.local": a file name read as punctuation
        elif child.dep_ in ("ccomp", "acomp"):
            return False
    if has_object:
        return False
    if verb.tag_ == "VBN" and any(
        c.dep_ == "auxpass" and c.lemma_ in ("be", "get") for c in verb.children
    ):
        return verb.lower_ in _IDENTITY_ADJ or verb.lower_ in _LIFE_PARTICIPLES
    if f"{lemma}_{particle}" in _LIFE_EVENTS or lemma in _LIFE_EVENTS:
        return True  # "my grandma passed away", "my laptop crashed"
    return lemma in _ACTIVITIES and not particle  # "I've been running to de-stress"


#: a file or folder name the tokenizer may read as punctuation (".env.local", ".bashrc")
_FILE_NAME = re.compile(r"\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+|\.[A-Za-z_][A-Za-z0-9_-]*")


def _kept_somewhere(verb: Token) -> bool:
    """ "I keep my passport in the safe", "I keep secrets in .env.local": a thing named
    and where it is kept (not "keep going", "keep in touch")."""
    thing = next((c for c in verb.children if c.dep_ == "dobj" and _content(_phrase(c))), None)
    return thing is not None and any(
        c.dep_ == "prep" and c.lower_ in ("in", "at", "on", "under", "inside")
        for c in (*verb.children, *thing.children)  # the place hung on the verb or the thing
    )


def _per_time(measure: Token) -> bool:
    """A measure of time said per unit of time: "8 hours a night", "3 hours per week",
    "20 minutes every day": a habit's amount, not a moment."""
    return any(
        t.i != measure.i
        and t.lemma_.lower() in _TIME_NOUNS
        and (
            any(c.dep_ == "det" and c.lower_ in ("a", "an", "every", "each") for c in t.children)
            or t.head.lower_ == "per"
        )
        for t in measure.subtree
    )


def _a_range(number: Token) -> bool:
    """ "9 to 5", "6-8": a number with its range's first number before it."""
    kids = list(number.children)
    return any(c.dep_ == "quantmod" and c.pos_ == "NUM" for c in kids) and any(
        c.dep_ == "quantmod" and c.lower_ in ("to", "-", "–") for c in kids
    )


def _durable(sent: Span, subject: Token) -> bool:
    """Whether the clause's main verb states something durable or reports a thing done,
    with an object that names something."""
    verb = _verb_of(sent)
    root = sent.root
    lemma = verb.lemma_.lower()
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    prep = next((c.lower_ for c in verb.children if c.dep_ == "prep"), "")
    phrasal = f"{lemma}_{particle}" if particle else lemma
    auxes = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
    modals = [
        a
        for a in auxes
        if (a.lower_ in _MODALS or a.lemma_.lower() in _MODALS)
        and not (a.i > sent.start and a.text[:1].isupper())  # "my colleague Will lives ..."
    ]
    able = all(a.lemma_.lower() in ("can", "ca") for a in modals)
    if (
        modals
        and not (able and any(c.dep_ == "neg" for c in root.children) and lemma in _NOT_ABLE)
        and not (able and lemma in _ACTIVITIES)
    ):
        # "I could ...", "I'd love to ..."; but "I can't have dairy" and "I can swim" are
        # facts about the speaker
        return False
    if any(c.dep_ == "mark" for c in root.children):
        return False  # "Since I was 17": a subordinate clause on its own, an answer
    if root.lower_ in ("gon", "gonna", "wanna", "gotta") or any(a.lower_ == "going" for a in auxes):
        return False
    passive = verb.tag_ == "VBN" and any(
        c.dep_ == "auxpass" and c.lemma_ in ("be", "get") for c in verb.children
    )
    denied = (
        lemma in _DENY_VERBS or phrasal in _DENY_VERBS or lemma_of(verb.lower_) in _DENY_VERBS
    )  # lemma_of: the tagger reads "hoping" as a form of "hop"
    if (
        denied
        and not passive
        and not (lemma == "look" and prep in ("into", "for"))
        and not (lemma == "keep" and _kept_somewhere(verb))
        and phrasal not in _DENY_EXCEPT
        and lemma not in _DENY_EXCEPT
    ):
        return False  # but "I got noticed by a gallery owner", "I'm looking into ..."
    if lemma == "be" and verb.tag_ != "VBG":
        return _copula_ok(verb, subject)
    if verb.pos_ == "ADJ" and any(a.lemma_ == "be" for a in auxes):
        # "I'm no longer vegetarian": the tagger hangs the "'m" on the adjective
        return verb.lower_ in _IDENTITY_ADJ and verb.lower_ not in _IDENTITY_WITH_OBJECT
    if (
        verb.tag_ == "VBG"
        and lemma not in _ACTIVITIES
        and subject.pos_ == "NOUN"
        and any(a.lemma_ == "be" for a in auxes)
        and not any(
            c.dep_ in ("dobj", "prep", "xcomp", "prt", "advmod", "ccomp") for c in verb.children
        )
    ):
        return True  # "my deploy target is staging": read as a progressive, it is a value
    if passive and (verb.lower_ in _EVALUATIVE or verb.lower_ in _AFFECTED):
        return False  # "I was so stoked", "I've been blessed with ..."
    if lemma == "get" and any(c.dep_ == "acomp" for c in verb.children):
        return False  # "I got creative"
    return _object_ok(verb)


def _slot_value(st: Statement) -> bool:
    """A statement the key reads as the value of a slot that holds one value at a time
    ("turned 40 on sunday": an age; "moved to leeds": where one lives), whatever its verb
    says of the event: it says what is so now."""
    if not (st.predicate and st.object):
        return False
    catalogue = shipped_predicates()
    base, negated = catalogue.canonical(st.predicate)
    # a slot the catalogue lists; not "my <thing> is ...", which describes as often as it
    # names ("my boss is really patient")
    return not negated and base in catalogue.one and base != "is"


#: words that single out the clause a subordinator opens: "even when ...", "only if ..."
_FOCUSING = frozenset({"even", "only", "just", "especially"})


#: relative pronouns: a clause they open hangs on a noun said before it ("which i sent on
#: friday"), half a sentence when read alone
_RELATIVE = frozenset({"which", "whom", "whose"})


def _half_sentence(words: Sequence[str]) -> bool:
    """Words (lower case) that open with a subordinator, or one singled out ("even when i
    make mistakes", "only if it rains"), or a relative pronoun ("which i sent on
    friday"): half a sentence, a condition, a time or a thing said before."""
    if not words:
        return False
    return (
        words[0] in _SUBORDINATE
        or words[0] in _RELATIVE
        or (words[0] in _FOCUSING and len(words) > 1 and words[1] in _SUBORDINATE)
    )


def _broad_ok(sent: Span) -> bool:
    """Broad mode: a first-person clause whose verb is not a thought, a modal or a
    reaction, with words after the verb that name something."""
    verb = _verb_of(sent)
    lemma = verb.lemma_.lower()
    auxes = [c for c in sent.root.children if c.dep_ in ("aux", "auxpass")]
    if any(a.lower_ in _MODALS for a in auxes) or lemma in _PREFERENCE:
        return False
    if lemma in _BROAD_REFUSED:
        return False
    tokens = [t for t in sent if t.i > verb.i]
    return _content(tokens) and not _evaluative(tokens)


def _read_together(
    text: str, clauses: list[tuple[str, bool, bool]]
) -> list[tuple[str, bool, bool, bool]]:
    """`clauses` of `text`, each with whether it is read as `remember` reads a sentence: a
    first-person clause that means little alone ("I used to smoke but I quit", "... and
    then i gave up") is read with the statement before it in the same sentence, in the
    words said, and the gate, not the verb, says whether the two together last."""
    out: list[tuple[str, bool, bool, bool]] = []
    lowered = text.lower()
    for clause, question, opens in clauses:
        before = out[-1] if out else None
        if (
            before is not None
            and not opens
            and not question
            and not before[1]
            and not before[3]
            and means_little_alone(clause)
        ):
            start = lowered.find(before[0].lower())
            end = lowered.find(clause.lower(), start + len(before[0])) if start >= 0 else -1
            if end >= 0:
                joined = text[start : end + len(clause)]
                out[-1] = (joined[:1].upper() + joined[1:], False, before[2], True)
                continue
        out.append((clause, question, opens, False))
    return out


# -- the extractor ------------------------------------------------------------------------
class RuleExtractor:
    """Offline, deterministic extraction of plain statements from user turns."""

    name = "rules"

    def __init__(self, *, policy: GatePolicy | None = None, broad: bool = False) -> None:
        """`policy` is the gate's: a first-person statement carrying one of its markers
        ("I'm so frustrated", "I might switch to Helix") is passed on even when it is
        not a plain statement, so the gate refuses it with its reason on record instead
        of the extractor dropping it unseen. `broad` also takes first-person clauses
        whose verb is not on the durable side but is not a thought, a modal or a
        reaction either: more recall, and more facts to read."""
        self.policy = policy or GatePolicy()
        self.broad = broad

    def extract(self, text: str, *, self_name: str = "The user") -> Extraction:
        """Candidates from one user message (no id, no time)."""
        return self.extract_episode([Turn("t0", "user", text)], self_name=self_name)

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user") -> Extraction:
        people = {t.speaker for t in turns if t.speaker} | {self_name}
        named = [p for p in people if p != "The user"]
        names = frozenset(n.lower() for n in named) | frozenset(
            part.lower() for n in named for part in n.split()
        )
        out = Extraction()
        for turn in turns:
            if turn.role != "user" or is_suppression_request(turn.content):
                continue
            speaker = turn.speaker or self_name
            seen: set[str] = set()
            for clause, question, opens, told in _read_together(
                turn.content, _clauses(turn.content, names)
            ):
                if question:
                    # "as a new mum, what should i pack?": who the speaker says they are
                    found = self._told_apart(clause, "question", turn, speaker, people)
                else:
                    cand, why = self.judge(clause, turn, speaker, people, opens=opens, told=told)
                    found = [] if cand is None else [cand]
                    verdict = None if cand is None else check(cand, self.policy)
                    if verdict is not None and not verdict.accepted:
                        # refused whole, its clauses read on their own as `remember` reads
                        # them ("turned 40 on sunday, feeling old": the age is kept)
                        found += self._told_apart(clause, verdict.code, turn, speaker, people)
                    elif why == "pronoun":
                        # "moved to leeds in june, loving it so far": the clause that
                        # needs nothing else, judged as any clause is
                        found += self._told_apart(
                            clause, "ungrounded", turn, speaker, people, told=False
                        )
                for cand in found:
                    if cand.text.lower() not in seen:
                        seen.add(cand.text.lower())
                        out.candidates.append(cand)
            for said in values_in_passing(_CAPTION.sub("", turn.content)):
                cand = self._in_passing(said, turn, speaker)
                if cand.text.lower() not in seen:
                    seen.add(cand.text.lower())
                    out.candidates.append(cand)
        return out

    def _told_apart(
        self,
        clause: str,
        code: str,
        turn: Turn,
        speaker: str,
        people: set[str],
        *,
        told: bool = False,
    ) -> list[Candidate]:
        """The candidates of a clause's parts when it is refused whole (gate code `code`)
        for what may be one part only (a mood, a hedge, a question): the parts
        `told_apart` finds, the same reading `Memory.remember` gives a refused text,
        each judged as a clause and, when `told` (the gate refused the whole), left to the
        gate to keep or refuse."""
        described = (self_description(clause), speaker_fragment(clause))
        parts = told_apart(clause, code)
        if code in ASKING or code == "too_long":
            # a conversation's clauses are cut already: of one that asks, only who the
            # speaker says they are and what it takes as true ("no idea why ive never
            # flown", "explain why my cat ..."); a clause too long to be a fact
            # (code, a pasted log) has no parts worth reading apart
            taken = presupposed(clause) if code == "question" else []
            parts = [p for p in parts if p in described or p in taken]
        out = []
        for part in parts:
            # only a part that opens the clause can leave its "I" unsaid ("turned 40 on
            # sunday, ..."); one after a comma is a participle of the clause, no statement
            # ("..., checking the totals")
            opens = clause.lower().startswith(part.lower().rstrip(".!"))
            cand, _ = self.judge(part, turn, speaker, people, opens=opens, told=told)
            if cand is None and part in described:
                # "as a new mum": who the speaker says they are, a statement with no
                # subject of its own that the key reads as theirs
                st = analyse(part, self_name=speaker)
                if st.kind == "statement" and st.keyed and st.first_person:
                    cand = self._keyed(st, speaker, turn, next(iter(parse(part).sents)))
            if cand is not None:
                out.append(cand)
        return out

    @staticmethod
    def _in_passing(said: str, turn: Turn, speaker: str) -> Candidate:
        """A value a request states in passing ("..., which now takes 40 minutes"): the
        speaker's, stored in the words said, with no key (the thing is named in the
        sentence; whose slot it fills the parse cannot tell)."""
        text = analyse(said, self_name=speaker).text
        return Candidate(
            text=text[:1].upper() + text[1:],
            subject=speaker,
            source="user",
            role="user",
            derived_from=(turn.id,),
            valid_from=turn.timestamp,
        )

    def judge(
        self,
        clause: str,
        turn: Turn,
        speaker: str,
        people: set[str],
        *,
        opens: bool = True,
        told: bool = False,
    ) -> tuple[Candidate | None, str]:
        """One clause: its candidate (or None) and a word on why, for inspecting the
        rules. `people` are the names of the conversation; `opens`: the clause begins its
        sentence (only then can a missing subject be the speaker's "I"); `told`: the
        clause is a part of one the gate refuses whole, so the gate, not the verb, says
        whether it lasts (as it does for `remember`)."""
        said = strip_wrapper(clause)
        explicit = said != clause.strip()
        if opens:
            clause = elided_subject(clause)
        st = analyse(clause, self_name=speaker)
        if st.kind != "statement" or not said:
            return None, st.kind
        sents = list(parse(st.said).sents)
        if len(sents) != 1:
            return None, "several sentences"
        sent = sents[0]
        since = since_said(sent)
        if since is not None and st.keyed:
            # "it's been 2 years since i moved to leeds": the statement its "since"
            # clause makes is the one judged (whose, and whether it lasts), read alone
            sent = next(iter(parse(since[0].text).sents))
        words = [t.lower_ for t in sent]
        if set(words) & _SECOND:
            reported = _reported(sent)
            if reported is not None and reported != clause:
                return self.judge(reported, turn, speaker, people, opens=False)
            return None, "second person"
        if _half_sentence(words) and not told:  # (a part told apart is chosen as one)
            return None, "fragment"  # "When I lose focus at the office."
        if words[0] in (
            "here",
            "let",
            "guess",
            "there",
            "this",
            "that",
        ) or st.said.lower().startswith(("here's", "let's", "lets ")):
            return None, "caption or suggestion"
        subject_tok = _subject(sent)
        if subject_tok is None:
            return None, "no subject"
        if subject_tok.lower_ in _WE or any(
            c.lower_ in ("our", "ours") and c.dep_ == "poss" for c in subject_tok.children
        ):
            if people != {speaker} or not st.keyed or st.subject != "we":
                # among several people nobody can tell from the turn whose "we" it is (the
                # two talking, a family, a team)
                return None, "we"
            # a chat between one person and an assistant: "we" is theirs (their team,
            # their household), keyed and kept as said, as `remember` keeps it
            subject: str | None = "we"
        else:
            subject = self._who(st, sent, subject_tok, speaker, people, explicit)
        if subject is None:
            return None, f"subject {subject_tok.lower_}"
        first = any(w in _FIRST for w in words)
        if first and (_garbled(sent, speaker) or not st.rewritten and not st.keyed):
            # a rewrite that would not be English, or none at all for a statement the
            # parser could not key either; a keyed one is kept in the words said ("I read
            # a lot", "I don t like music"), as `remember` keeps it
            return None, "garbled"
        cand = self._keyed(st, subject, turn, sent)
        if _unresolved(sent):
            refusal = "pronoun"  # "it", "they", "that": nothing to refer to out of context
        elif any(
            t.dep_ == "det" and t.lower_ in _DEMONSTRATIVE and t.head.dep_ in _SUBJ for t in sent
        ):
            refusal = "shown subject"  # "this agency", "that photo": what was shown
        elif (
            told
            or _durable(sent, subject_tok)
            or st.first_person
            and _slot_value(st)
            or self.broad
            and first
            and _broad_ok(sent)
        ):
            return cand, "ok"
        else:
            refusal = f"not durable ({_verb_of(sent).lemma_})"
            found = _reported(sent, _FACTIVE_VERBS)  # "I found out I'm allergic to ..."
            if found is not None and found != clause:
                return self.judge(found, turn, speaker, people, opens=False)
        if first and self._for_the_gate(cand):
            return cand, "for the gate"  # "I'm so tired of this": refused, on record
        return None, refusal

    @staticmethod
    def _who(
        st: Statement,
        sent: Span,
        subject_tok: Token,
        speaker: str,
        people: set[str],
        explicit: bool,
    ) -> str | None:
        """Whom the clause is about: the speaker ("I", "my ...", "Anthony and I", "X is my
        Y"), a person of the conversation by name ("Caroline is ...", "Caroline's dog
        ..."), or a thing as written ("the deploy target"), when it is named with its value
        or after an explicit "remember that"."""
        if st.first_person or any(
            c.dep_ == "conj" and c.lower_ == "i" for c in subject_tok.children
        ):
            return speaker
        lowered = {p.lower(): p for p in people if p != "The user"}
        said = (st.subject or subject_tok.text).lower()
        if said in lowered:
            return lowered[said]
        owner = next((c for c in subject_tok.children if c.dep_ == "poss"), None)
        if owner is not None and owner.lower_ in lowered:
            return lowered[owner.lower_]
        if (
            owner is not None
            and owner.lower_ == "my"
            and st.keyed
            and st.subject
            and not st.pronoun_subject
            and any(c.dep_ in ("appos", "compound") for c in subject_tok.subtree)
        ):
            return st.subject  # "my wife Laura is a doctor": one of the speaker's, by name
        if (
            sent.root.lemma_ == "be"
            and subject_tok.pos_ in ("NOUN", "PROPN", "VERB")
            and any(c.dep_ == "attr" and _owned(c) for c in sent.root.children)
        ):
            return speaker  # "Playing video games is my main hobby"
        if (
            st.keyed
            and not st.pronoun_subject
            and said not in ("we", "you")
            and (explicit or _named_thing(sent, subject_tok))
        ):
            return st.subject
        return None

    def _for_the_gate(self, cand: Candidate) -> bool:
        """A first-person statement the gate refuses by one of its markers: hand it over,
        so the refusal is recorded (mood, hedge, plan, state of the moment, a secret)."""
        verdict = check(cand, self.policy)
        return not verdict.accepted and verdict.code in _GATE_CODES

    @staticmethod
    def _keyed(st: Statement, subject: str, turn: Turn, sent: Span) -> Candidate:
        predicate, obj = st.predicate, st.object
        if not st.first_person and st.subject and subject != st.subject:
            # "Blue is my fave", "Anthony and I went to ...": the parser's key is about
            # someone else; keep the thing named, with no key
            predicate = None
            obj = st.subject if sent.root.lemma_ == "be" else st.object
        text = st.text[:1].upper() + st.text[1:]
        return Candidate(
            text=text,
            subject=subject,
            predicate=predicate,
            object=obj,
            source="user",
            role="user",
            derived_from=(turn.id,),
            valid_from=turn.timestamp,
        )


# -- what a text refused whole still states ----------------------------------------------
#
# `Memory.remember` hands a refused text's clauses to the gate one by one ("turned 40 on
# sunday, feeling old lol" keeps "turned 40 on sunday"); the extractor, reading a
# conversation, does the same with a first-person clause the gate refuses whole. Both ask
# `told_apart`, so a sentence said through `remember` and through `ingest` gives the same
# key (issue 25, part 4).

#: refusals of a text that asks (a question, a request to the assistant): a clause of it
#: may still state a fact ("i just moved to lisbon, any tips for a dentist?")
ASKING = frozenset({"question", "instruction"})
#: refusals that may be of one clause only: a fact said beside a question, a request, a
#: mood, a plan, someone's opinion, or something vague or passing ("turned 40 last week,
#: feeling old lol" keeps "turned 40 last week"); a long chat sentence holding a fact and
#: a request; a reply that opens on what it answers ("that is fair, i keep bees on the
#: roof": the "that" refers to nothing stored, the statement after it stands alone). Every
#: other refusal holds for the whole text (a secret, a "don't remember" rule)
ONE_CLAUSE = frozenset(
    {
        "ungrounded",
        "question",
        "instruction",
        "affect",
        "speculative",
        "attributed_opinion",
        "vague",
        "transient",
        "hedged",
        "too_long",
    }
)


def states(clause: str) -> bool:
    """A clause that states something of someone: a statement with a subject of its own
    ("i just moved to lisbon"), or a correction said without its sentence ("make that 10
    people"); not a name called out ("Caroline!") or another fragment."""
    if _half_sentence(clause.lower().split()):
        return False  # "(idk) if i even like my job": half a sentence, a condition
    st = analyse(clause)
    # "make that 10 people": a correction said without its sentence states a value again
    return st.kind == "statement" and (st.keyed or st.first_person) or amendment(clause) is not None


def names_something(clause: str, statement: Statement | None = None) -> bool:
    """A first-person keyed clause that names a thing or a value ("i live in lyon", "im
    39"); not one that means little alone ("but I quit", "and I stopped"), which is read
    with the clause it follows. `statement`: the clause's reading, when already made."""
    st = statement or analyse(clause)
    return bool(st.keyed and st.first_person and (st.object or value_words(clause)))


def means_little_alone(clause: str) -> bool:
    """A first-person keyed clause that names nothing ("but I quit", "and i stopped"):
    read with the clause it follows, never alone."""
    st = analyse(clause)
    return bool(st.keyed and st.first_person) and not names_something(clause, st)


def told_apart(text: str, code: str) -> list[str]:
    """The clauses of `text`, refused whole by the gate with `code` (one of `ONE_CLAUSE`),
    that are each read on their own, in the words said; nothing when the whole is all
    there is. A clause that asks is never one; what a question takes for granted is ("explain
    why my cat sleeps all day"); the statement before a request ("im vegan, so no meat
    recipes pls"); who the speaker says they are ("as a new mum, what should i pack?");
    what a feeling is about ("so happy that i finally got my license"); of a long chat
    message, only the clauses a conversation would keep."""
    if code not in ONE_CLAUSE:
        return []
    parts = [p for p in (with_antecedent(c, text) for c in statements_in(text)) if states(p)]
    if code in ASKING:
        parts += [p for p in presupposed(text) if p not in parts and states(p)]
    if len(parts) <= 1 and code not in ASKING or (not parts and code == "instruction"):
        # the clause found beside the others kept ("nah, i own two kayaks and is happy
        # retired")
        parts += [p for p in asides(text) if states(p) and p not in parts]
    described = self_description(text)
    if described is None and code in ASKING:
        described = speaker_fragment(text)  # "single dad of two, any ...?"
    if described is not None and described not in parts:
        parts = [described, *(p for p in parts if p != text)]
    if code == "affect":
        parts += [p for p in felt_about(text) if p not in parts and states(p)]
    if code == "too_long":
        # a long chat message is read as a conversation is: only the clauses the
        # conversation extractor would keep ("I've been a paramedic for nine years"),
        # not the request around them or a fragment of its list
        parts = [p for p in parts if _durable_clause(p)]
    # the whole said again (its final stop left off by a cut) is not a part of it
    whole = _bare(text)
    return [p for p in dict.fromkeys(parts) if _bare(p) != whole]


def _bare(text: str) -> str:
    return text.strip().rstrip(".!?…").strip().lower()


def _durable_clause(clause: str) -> bool:
    """Would the conversation extractor keep `clause` as a fact of the speaker's?"""
    candidate, _ = RuleExtractor().judge(clause, Turn("t", "user", clause), "The user", set())
    return candidate is not None
