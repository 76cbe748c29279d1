"""States that pass: what the gate refuses as a state of the moment.

"got a headache", "im so hungover", "i'm starving", "my son has the flu": each tells how
someone is right now, which is no fact to keep. The same words said as a habit or a
lasting condition are facts: "i get migraines", "i'm always cold", "i have chronic back
pain", "i get hungry at night". What separates them is read from the parse, not from the
sentence's words alone:

- an acute ailment ("a cold", "the flu", "a headache"; lexicon "passing_ailments") had,
  got or caught once, in the singular, by anyone: passing; its plural ("headaches"), a
  lasting word ("chronic", "recurring"), a habit ("often", "every winter", "i get ...")
  or a count of times ("twice a year") make it a condition;
- a bodily state ("hungry", "hungover", "freezing"; lexicon "bodily_states") that the
  speaker is, feels or got, or that a fragment says alone ("hungover af"): passing; said
  with a habit word, with "when" or "at night", or of someone else, it is left to the
  other rules;
- a place one is at for a while ("the airport", "the train", "traffic"; lexicon
  "passing_places"), or a doing that fills a moment ("queuing", "stuck"; lexicon
  "passing_doings"), said of the speaker now: passing; with a time ("in bed by 10") it is
  a habit.

A denial ("i've never had covid") and the past tense ("I had the flu last winter", "was
sick") are left to the other rules: they tell what happened, not how one is now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .language import words

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["passing_state"]

_AILMENTS = words("passing_ailments")
_STATES = words("bodily_states")
#: what says a state or an ailment returns or lasts: a condition, not a moment
_LASTING = words("habit_adverbs") | words("lasting_words")
_SPEAKER = frozenset({"i", "we"})
_HOW_BAD = words("how_bad") | words("evaluative")
_SPANS = words("time_nouns") | {"age", "ages", "while"}
_HAVING = frozenset({"have", "get", "catch", "nurse", "fight"})
#: "a" bad headache, "the" flu, "this" cold, "my" hangover: one episode
_ONE = frozenset({"a", "an", "the", "this", "that", "my", "his", "her", "their", "our"})


def passing_state(text: str) -> str | None:
    """The words of a passing state of the body that `text` tells, or None."""
    from .nlp import parse

    doc = parse(text)
    if _lasts(doc) or any(t.dep_ == "neg" or t.lower_ == "never" for t in doc):
        return None  # "i've never had covid": a denial, which the other rules judge
    for sent in doc.sents:
        found = _ailment(sent.root) or _bodily_state(sent.root, doc) or _situation(sent.root)
        if found:
            return found
    return None


def _lasts(doc: Doc) -> bool:
    """A habit, a lasting word, a time it comes back ("when", "at night", "every"), or a
    count of times ("twice a year"): a condition."""
    said = " " + " ".join(t.lower_ for t in doc) + " "
    if any(f" {w} " in said for w in _LASTING):
        return True
    # "sick for three months after the move", "ill since june": a stretch, not a moment
    if any(
        t.lower_ in ("for", "since")
        and any(k.lemma_.lower() in _SPANS or k.like_num for k in doc[t.i + 1 : t.i + 4])
        for t in doc
    ):
        return True
    # "i get hungry", "i get headaches": "get" in the simple present tells a habit
    return any(t.lemma_ == "get" and t.tag_ in ("VBP", "VBZ") for t in doc)


def _ailment(root: Token) -> str | None:
    """ "got a headache", "my son has the flu", "im in bed with a fever": one episode of
    an acute ailment, had by anyone."""
    for tok in root.subtree:
        # "a cold" is an adjective to the parser, but still what is had
        if tok.dep_ not in ("dobj", "pobj") or tok.tag_ in ("NNS", "NNPS"):
            continue
        name = _ailment_name(tok)
        if name is None or not _one_episode(tok, name):
            continue
        head = tok.head
        had = tok.dep_ == "dobj" and head.lemma_.lower() in _HAVING and _now(head)
        with_it = tok.dep_ == "pobj" and head.lower_ == "with" and _now(head.head)
        one = any(c.dep_ in ("det", "poss") and c.lower_ in _ONE for c in tok.children)
        # "got food poisoning", "i have covid": said without "a"; never counted
        bare = not any(c.dep_ in ("det", "poss", "nummod") for c in tok.children)
        # "the flat has a temperature of 18", "a bug in my code": no ailment of anyone's
        told_of = any(c.dep_ == "prep" and c.lower_ != "from" for c in tok.children)
        if (had or with_it) and (one or bare) and not told_of:
            return name
    return None


#: what dates a "got" in the past: "got the flu last winter" is a past event, not now
_PAST = frozenset({"ago", "yesterday", "last", "when", "once", "before"})


def _now(verb: Token) -> bool:
    """Is `verb` said of the present: "have", "has", "'m", "feeling", and "got" ("got a
    cold", "i've got a cold") undated? "I had the flu", "was sick", "caught covid in 2021"
    tell a past event, which the other rules judge."""
    if verb.tag_ in ("VBP", "VBZ", "VBG") or verb.pos_ not in ("VERB", "AUX"):
        return True
    if verb.lower_ in ("got", "gotten"):
        return not any(t.lower_ in _PAST or t.like_num for t in verb.sent)
    # "i have had a cold": the perfect says it still holds
    return any(c.dep_ == "aux" and c.tag_ in ("VBP", "VBZ") for c in verb.children)


def _one_episode(tok: Token, name: str) -> bool:
    """Does every word that describes the ailment say how bad this one is ("a splitting
    headache", "a nasty cold")? Any other names another condition: "long covid", "a
    cluster headache", "a smoker's cough"."""
    return all(
        c.lower_ in name.split() or c.lower_ in _HOW_BAD
        for c in tok.children
        if c.dep_ in ("amod", "advmod", "compound", "nmod", "poss") and c.lower_ not in _ONE
    )


def _ailment_name(tok: Token) -> str | None:
    """The lexicon's name for the ailment `tok` heads: "throat" of "a sore throat"."""
    before = " ".join(
        c.lower_ for c in tok.children if c.dep_ in ("amod", "compound") and c.i < tok.i
    )
    for name in (f"{before} {tok.lower_}".strip(), tok.lower_, tok.lemma_.lower()):
        if name in _AILMENTS:
            return name
    last = before.split()[-1:] if before else []
    if last and f"{last[0]} {tok.lower_}" in _AILMENTS:
        return f"{last[0]} {tok.lower_}"
    return None


def _bodily_state(root: Token, doc: Doc) -> str | None:
    """ "im so hungover", "i'm starving", "feeling dizzy", "hungover af": the speaker's
    body as it is right now."""
    subject = _subject(root)
    if subject is not None and subject.lower_ not in _SPEAKER:
        return None
    said = f"{doc[root.i - 1].lower_} {root.lower_}" if root.i > 0 else root.lower_
    if (root.lower_ in _STATES or said in _STATES) and (
        subject is not None or root.i == root.sent.start
    ):
        # "im starving" (a verb to the parser), "i'm jet lagged", "hungover af" (a fragment)
        return root.lower_ if root.lower_ in _STATES else said
    if root.lemma_.lower() not in ("be", "feel", "get") or not _now(root):
        return None
    for c in root.children:
        said = f"{doc[c.i - 1].lower_} {c.lower_}" if c.i > 0 else c.lower_
        if c.dep_ in ("acomp", "attr", "oprd") and (c.lower_ in _STATES or said in _STATES):
            if any(k.dep_ == "prep" for k in c.children):
                return None  # "sick of it", "full of ideas": something else
            return c.lower_ if c.lower_ in _STATES else said
    return None


def _situation(root: Token) -> str | None:
    """ "im stuck in traffic", "i'm at the airport", "on the train home", "waiting for the
    bus": where the speaker is, or what they are waiting through, right now."""
    subject = _subject(root)
    if subject is not None and subject.lower_ not in _SPEAKER:
        return None
    if subject is None and root.i != root.sent.start:
        return None
    lemma = root.lemma_.lower()
    if root.lower_ in _WAITING and root.tag_ == "VBG":
        return root.lower_  # "waiting for the bus", "sat in the car" is below
    if lemma not in ("be", "sit", "stand", "stick") and root.lower_ not in _WAITING:
        return None
    if not _now(root) and root.tag_ != "VBN":
        return None
    if any(t.like_num or t.lower_ in ("by", "before", "until", "till") for t in root.sent):
        return None  # "in bed by 10 now", "on the train at 7": a time of a habit
    for prep in (c for c in root.children if c.dep_ == "prep" and c.lower_ in ("at", "on", "in")):
        place = next((k for k in prep.children if k.dep_ == "pobj"), None)
        if place is None:
            continue
        # "on the train home": the parser may make the place a compound of "home"; never
        # of anything else ("in a car club")
        home = place.lower_ == "home"
        for word in (place, *(k for k in place.children if home and k.dep_ == "compound")):
            if word.lemma_.lower() in _PLACES_NOW:
                return f"{prep.lower_} {word.lower_}"
    return None


def _subject(root: Token) -> Token | None:
    """The subject, under the verb or (as the parser may hang it) under its auxiliary."""
    return next(
        (
            t
            for t in root.sent
            if t.dep_ in ("nsubj", "nsubjpass") and (t.head == root or t.head.head == root)
        ),
        None,
    )


_PLACES_NOW = words("passing_places")
_WAITING = words("passing_doings")
