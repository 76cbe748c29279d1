"""The offline extractor: plain statements people make about themselves, by rules.

What it takes, from user turns only: first-person declaratives with a durable verb
("I live in Berlin", "I work at Reaktor", "I use Helix", "I'm a nurse", "I have two kids",
"I love hiking"), reports of things done ("I ran a charity race last Saturday"), "my X is Y"
possessives, third-person statements about a person named in the conversation, and
anything after an explicit "remember that". Each is rewritten in the third person with the
speaker's name, because the stored sentence is read later, out of the conversation in which
"I" and "yesterday" meant something; relative dates are pinned to the turn's date.

What it leaves out on purpose: questions, greetings and thanks, sentences about the
listener ("you", "your"), reactions ("I love that!", "I'm so glad"), cognition and wishes
("I think", "I hope", "I wish"), and any verb it does not know to be durable. Hedges,
affect, speculation, transient state and secrets are the gate's to refuse, not this
module's: an extractor that pre-filters them hides the rejections that tune the gate.

What it cannot do: resolve "he", "she", "it" or "they"; see facts stated as answers to
questions ("Berlin." after "where do you live?"); understand negation beyond "do not";
or tell an opinion from a fact when both are phrased as plain statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timezone

from ..fact import base_key
from ..gate import Candidate, GatePolicy
from ..keys import lemma, parse_key, third_person
from ..suppress import is_suppression_request
from .base import Extraction, Turn

__all__ = ["RuleExtractor", "split_clauses", "to_third_person"]

# -- vocabulary ---------------------------------------------------------------------------
#: openers that carry no content; stripped before a clause is judged
_DISCOURSE = (
    "oh", "wow", "woah", "whoa", "yeah", "yes", "yep", "yup", "no", "nope", "well", "so",
    "and", "but", "also", "plus", "btw", "by the way", "actually", "honestly", "anyway",
    "anyways", "hey", "hi", "hello", "ok", "okay", "sure", "cool", "nice", "great",
    "awesome", "thanks", "thank you", "lol", "haha", "hmm", "um", "uh", "ah", "man", "dude",
    "omg", "right", "totally", "definitely", "absolutely", "true", "indeed", "aw", "aww",
    "yay", "fyi", "basically", "seriously", "ha", "hah", "gosh", "alright", "all right",
    "fun fact", "guess what", "in fact", "funny enough", "though", "then", "now", "just",
    "on another note", "speaking of which", "oh yeah", "especially", "luckily",
    "fortunately", "unfortunately", "sadly", "thankfully", "of course", "you know",
    # subordinators: "after I failed the test, I..." reports the failure all the same
    "after", "ever since", "since", "once",
)
_DISCOURSE_RX = re.compile(
    r"^(?:(?:" + "|".join(re.escape(w) for w in sorted(_DISCOURSE, key=len, reverse=True))
    + r")\b[\s,!.:;-]*)+",
    re.IGNORECASE,
)
#: a time phrase that opens a clause is moved to its end, so the clause starts with "I"
_LEADING_TIME = re.compile(
    r"^((?:yesterday|today|tonight|recently|lately|last\s+(?:\w+day|night|week|weekend|month|"
    r"year|fri|sat|sun|mon|tues?|wed|thurs?)|(?:a\s+few|two|three|four|several|\d+)\s+"
    r"(?:days|weeks|weekends|months|years)\s+ago|a\s+(?:week|month|year)\s+ago|"
    r"this\s+(?:week|month|year|morning|weekend)|back\s+in\s+\d{4}|in\s+\d{4}|"
    r"over\s+the\s+weekend|next\s+(?:week|month|year|weekend)|"
    r"since\s+we\s+last\s+(?:spoke|chatted|talked))),?\s+",
    re.IGNORECASE,
)
_SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself|you're|you've|ya|u|y'all)\b",
                            re.IGNORECASE)
_ADVERBS = frozenset({
    "also", "really", "just", "finally", "recently", "actually", "still", "always", "usually",
    "often", "even", "never", "already", "mostly", "sometimes", "normally", "generally",
    "originally", "currently", "now", "first", "once", "lately", "too", "all", "both",
    "officially", "proudly", "regularly", "occasionally", "happily", "last",
    "ever", "kinda", "sorta", "pretty", "literally", "seriously", "only",
})
#: verbs that end in -ly, so they are not taken for adverbs
_LY_VERBS = frozenset({"apply", "reply", "supply", "rely", "multiply", "comply", "imply",
                       "fly", "bully", "ally", "rally", "tally", "sully"})
#: verbs that end in -ed without being past tense
_ED_PRESENT = frozenset({"need", "feed", "seed", "speed", "breed", "bleed", "proceed",
                         "succeed", "exceed", "embed", "shed", "wed", "heed", "weed"})


def _is_adverb(word: str) -> bool:
    return word in _ADVERBS or (len(word) > 4 and word.endswith("ly") and word not in _LY_VERBS)
_PRONOUN_OBJECTS = frozenset({
    "it", "that", "this", "these", "those", "them", "him", "her", "one", "some", "so",
    "something", "anything", "everything", "nothing", "what", "how", "when", "where", "why",
    "the way", "there", "here", "a lot", "lots", "much", "more", "too", "to", "too much",
    "a while", "while", "back", "ago", "yet", "again", "time", "times", "fun", "blast",
    "already", "out", "up", "well", "hard", "lately", "recently", "great", "good",
    "really", "very", "super", "all", "day", "week", "today", "now", "then",
    "not", "no", "either", "neither", "though", "anyway", "ever", "once", "twice",
})
#: the first verb after "I" that marks small talk, cognition, wishes, or a modal
_DENY_VERBS = frozenset({
    "think", "thought", "guess", "guessed", "hope", "hoped", "wish", "wished", "know",
    "knew", "bet", "mean", "meant", "understand", "understood", "agree", "agreed",
    "appreciate", "appreciated", "feel", "felt", "see", "hear", "believe", "believed",
    "suppose", "imagine", "imagined", "wonder", "wondered", "can", "cannot", "could",
    "would", "should", "must", "may", "might", "will", "shall", "need", "needed", "want",
    "wanted", "wanna", "gotta", "say", "said", "tell", "told", "ask", "asked", "remember",
    "forgot", "forget", "get", "try", "look", "admire", "miss", "missed", "thank", "owe",
    "promise", "swear", "doubt", "realize", "realized", "realise", "realised", "recommend",
    "suggest", "encourage", "congratulate", "pray", "trust", "apologize", "apologise",
    "can't", "couldn't", "won't", "wouldn't", "shouldn't", "let", "totally", "definitely",
    "absolutely", "hate", "reckon", "figure", "figured", "noticed", "notice", "love",
    "like", "enjoy", "enjoyed", "loved", "liked", "adore", "prefer", "preferred",
    "mentioned", "mention", "care", "had", "have", "do", "am", "was", "were", "are",
    "used", "gotten",
})
#: present-tense verbs that state something durable: a home, a job, a tool, a habit
_DURABLE_PRESENT = frozenset({
    "live", "work", "use", "own", "play", "speak", "teach", "study", "run", "drive", "ride",
    "write", "paint", "draw", "read", "collect", "volunteer", "practice", "practise", "train",
    "cook", "bake", "swim", "dance", "sing", "grow", "eat", "drink", "wear", "deploy",
    "host", "maintain", "build", "manage", "lead", "belong", "attend", "follow", "support",
    "listen", "watch", "coach", "mentor", "knit", "hike", "climb", "surf", "ski", "travel",
    "sew", "garden", "code", "program", "develop", "design", "edit", "rent", "commute",
    "bike", "cycle", "jog", "fish", "hunt", "camp", "meditate", "visit", "take", "go",
    "do", "make", "keep", "prefer", "like", "love", "enjoy", "hate", "dislike", "adore",
    "have", "avoid", "celebrate", "sell", "raise", "foster",
    "breed", "shoot", "photograph", "produce", "compose", "perform", "fly", "sail", "box",
    "lift", "skate", "snowboard", "paddle", "row", "serve", "specialize", "specialise",
    "handle", "identify", "worship", "believe_in", "run_on", "deploy_on",
})
_IRREGULAR_PAST = frozenset({
    "went", "got", "took", "made", "bought", "ran", "won", "lost", "met", "saw", "found",
    "had", "began", "left", "came", "gave", "wrote", "grew", "became", "built", "caught",
    "chose", "drew", "drove", "ate", "fell", "flew", "forgot", "heard", "held", "kept",
    "knew", "led", "learnt", "lent", "lit", "paid", "put", "quit", "rode", "sang", "sat",
    "sold", "sent", "set", "shot", "slept", "spent", "spoke", "stood", "swam", "taught",
    "told", "threw", "woke", "wore", "brought", "did", "said", "hit", "hurt", "cut", "broke",
    "dug", "fought", "fed", "hung", "shook", "stole", "struck", "swore", "tore",
    "overcame", "undertook", "rebuilt", "withdrew", "read", "begun", "done",
    "gone", "seen", "taken", "given", "written", "grown", "known", "been", "run", "retook",
    "redid", "rewrote", "reran", "remade", "outgrew", "mistook", "forgave",
    "felt", "thought", "sought", "meant", "dealt", "bent", "burnt", "dreamt", "knelt", "swept",
    "wept",
    "bled", "fled", "sped", "hid", "slid", "bit",
    "spat", "stuck", "strung", "swung", "clung", "flung",
    "stung", "wrung", "rang", "sank", "shrank", "stank", "drank", "sprang", "froze", "rose",
    "arose", "strode", "smote", "dove", "wove",
})
#: participles: "Been a busy week" has no elided "I"
_PARTICIPLES = frozenset({"been", "begun", "done", "gone", "seen", "taken", "given",
                          "written", "grown", "known", "run"})
#: verbs whose past tense reports a reaction or a thought, not an event
_DENY_PAST = frozenset({
    "thought", "felt", "said", "told", "asked", "meant", "wanted", "wondered", "hoped",
    "wished", "realized", "realised", "guessed", "figured", "noticed", "mentioned",
    "loved", "liked", "enjoyed", "hated", "appreciated", "imagined", "believed", "agreed",
    "needed", "missed", "forgot", "heard", "knew", "understood", "decided",
    "looked", "seemed", "laughed", "cried", "smiled", "promised", "supposed", "expected",
    "worried", "freaked", "struggled", "managed",
    "happened", "used",
})
#: what may follow "I am" / "I was" for the clause to state an identity or a situation
_AFTER_BE = frozenset({
    "a", "an", "the", "from", "into", "married", "engaged", "divorced", "single", "retired",
    "vegan", "vegetarian", "allergic", "passionate", "part", "member", "based", "born",
    "originally", "working", "studying", "learning", "taking", "training", "volunteering",
    "starting", "teaching", "writing", "building", "running", "raised", "adopted",
    "pregnant", "widowed", "lactose", "gluten", "colorblind", "left-handed", "right-handed",
    "fluent", "certified", "licensed", "employed", "unemployed", "self-employed",
    "responsible", "in", "on", "at", "of", "painting", "researching", "preparing",
    "organizing", "organising", "planning", "saving", "moving", "opening", "launching",
    "creating", "making", "designing", "developing", "coaching", "mentoring", "competing",
    "performing", "playing", "practicing", "practising", "reading", "collecting",
    "fostering", "hosting", "attending", "joining", "renovating", "applying",
    "recording", "releasing", "gonna", "going", "hiking", "camping", "using",
    "deploying", "migrating", "switching", "keen",
})
_EVALUATIVE = frozenset({
    "great", "good", "awesome", "amazing", "cool", "nice", "fun", "sweet", "beautiful",
    "lovely", "wonderful", "fantastic", "incredible", "tough", "hard", "crazy", "busy",
    "hectic", "insane", "so", "really", "super", "pretty", "very", "too", "such", "doing",
    "fine", "okay", "ok", "alright", "bad", "terrible", "awful", "stunning", "gorgeous",
    "special", "important", "inspiring", "powerful", "rewarding", "fulfilling", "perfect",
    "the best", "worth", "key", "vital", "crucial", "essential", "everything", "always",
    "my rock", "my rocks", "such a", "quite", "kinda", "kind", "adorable", "cute",
    "precious", "meaningful", "huge", "epic", "wild", "all", "still", "just", "there",
    "here", "a blast", "a lot", "lots", "getting",
})
_DENY_AFTER_HAVE = ("to ", "no ", "got to", "a feeling", "a question", "an idea", "a lot",
                    "fun", "a great", "a good", "a blast", "a wonderful", "an amazing",
                    "an awesome", "a nice", "a tough", "a hard", "a busy", "a crazy",
                    "so ", "been thinking", "been wondering", "been feeling", "been so ",
                    "been really", "been super", "been busy", "been crazy", "been great",
                    "been good", "been there", "been having", "been doing", "been pretty",
                    "been a ", "been an ", "been loving", "been enjoying", "been looking",
                    "always wanted", "always been", "never been so", "heard", "seen")
_DENY_ING = frozenset({
    "thinking", "trying", "hoping", "wondering", "looking", "loving", "doing", "feeling",
    "telling", "saying", "asking", "kidding", "waiting", "dying", "missing", "counting",
    "rooting", "cheering", "enjoying", "guessing", "getting", "considering",
    "glad", "happy", "sure", "sorry", "excited", "proud", "grateful", "thankful", "lucky",
    "blessed", "curious", "impressed", "here", "there", "always", "off", "heading", "about",
    "staying", "keeping", "pushing", "holding", "hanging", "managing", "coping", "figuring",
    "dealing", "struggling", "down", "up", "back", "done", "finished", "ready",
    "pumped", "psyched", "stoked", "honored", "touched", "amazed", "blown", "gonna", "going",
    "determined", "motivated", "inspired", "confident", "aware",
})
_NAMED_VERBS = frozenset({"is", "are", "was", "has", "lives", "works", "uses", "owns",
                          "deploys", "runs", "prefers", "likes", "loves", "speaks",
                          "teaches", "studies", "plays", "manages", "leads", "hosts",
                          "maintains", "builds", "writes", "drives", "belongs", "moved",
                          "married", "founded", "joined", "graduated", "grew", "became"})
_WORD = re.compile(r"[\w'’-]+")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


# -- splitting ----------------------------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’)]*\s+|\n+")
_CLAUSE_BREAK = re.compile(
    r"(\s*(?:;|\s[-–—]+\s|,\s*(?:but|so|and so|which|cause|'cause|because)\s|"
    r"\s(?:but|so that|'cause|cause|because)\s|,?\s+and\s+(?=(?:I|i|we|my|My)\s)|"
    r",?\s+and\s+(?=(?:it|that|this|they|he|she|there|it's|that's)\s)|,\s+(?=(?:I|i)\s)|"
    r",\s+(?:and\s+)?(?=(?:it|that|this|they|he|she|there|it's|that's|they're|the)\s)|"
    r",\s+(?=\w+\s+(?:is|are|was|were)\s))\s*)"
)
#: afterthoughts that end a clause and carry nothing: "..., btw", "..., by the way"
_TRAILING = re.compile(
    r"(?:[\s,]+(?:btw|by the way|honestly|lol|haha|though|anyway|i guess|ok|okay|"
    r"you know|fyi|tbh|imo|too))+\s*$", re.IGNORECASE)


def split_clauses(text: str) -> list[str]:
    """Sentences, then clauses joined by "but", "so", "because", dashes or semicolons.

    A clause is judged on its own, so that "Lost my job yesterday, so I'm gonna start a
    business" keeps the report and leaves the intention to the gate.
    """
    out: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        sentence = sentence.strip()
        if not sentence:
            continue
        question = sentence.endswith("?")
        parts = _CLAUSE_BREAK.split(sentence)
        clauses: list[str] = []
        for k in range(0, len(parts), 2):
            piece = parts[k].strip(" ,")
            if clauses and len(clauses[-1].split()) < 3 and parts[k - 1].strip(" ,") == "and":
                # "My wife and I were..." is one subject, not two clauses
                clauses[-1] = f"{clauses[-1]} and {piece}"
            elif piece:
                clauses.append(piece)
        for clause in clauses:
            # a question mark at the end makes every clause of the sentence a question
            out.append(clause.rstrip(".!…") + ("?" if question and not
                                                clause.endswith("?") else ""))
    return out


def _expand(text: str) -> str:
    text = re.sub(r"[’`]", "'", text)
    text = re.sub(r"\bi\b", "I", text)
    for pattern, repl in (
        (r"\bI'm\b", "I am"), (r"\bIm\b", "I am"), (r"\bI've\b", "I have"),
        (r"\bI'd\b", "I would"), (r"\bI'll\b", "I will"), (r"\bwe're\b", "we are"),
        (r"\bwe've\b", "we have"), (r"\bwe'll\b", "we will"), (r"\bcan't\b", "cannot"),
        (r"\bwon't\b", "will not"), (r"\bdon't\b", "do not"), (r"\bdidn't\b", "did not"),
        (r"\bdoesn't\b", "does not"), (r"\bwasn't\b", "was not"), (r"\bhaven't\b", "have not"),
        (r"\bisn't\b", "is not"), (r"\baren't\b", "are not"), (r"\bain't\b", "am not"),
    ):
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    text = re.sub(r"\bi am\b", "I am", text)
    return text


def _strip_openers(clause: str, names: Sequence[str]) -> str:
    """Drop interjections and vocatives: "Wow, Gina! I..." -> "I..."."""
    previous = None
    while previous != clause:
        previous = clause
        clause = _DISCOURSE_RX.sub("", clause).strip()
        for name in names:
            clause = re.sub(rf"^{re.escape(name)}\b[\s,!.:;-]+", "", clause,
                            flags=re.IGNORECASE).strip()
    clause = _TRAILING.sub("", clause).strip()
    moved = _LEADING_TIME.match(clause)
    if moved:
        clause = clause[moved.end():] + " " + moved.group(1)
    return clause


# -- time ---------------------------------------------------------------------------------
def _date(ts: float) -> str:
    d = datetime.fromtimestamp(ts, tz=timezone.utc)
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3}


def pin_dates(text: str, ts: float | None) -> str:
    """Relative past dates -> absolute ones, from the turn's time ("yesterday" -> date).

    Only past references are pinned: present ones ("today", "this week") are the gate's
    transient markers, and future ones are speculation.
    """
    if ts is None:
        return text
    now = datetime.fromtimestamp(ts, tz=timezone.utc)

    def month_back(n: int) -> str:
        y, m = now.year, now.month - n
        while m < 1:
            m, y = m + 12, y - 1
        return f"in {_MONTHS[m - 1]} {y}"

    def ago(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        n = int(word) if word.isdigit() else _NUMBERS.get(word, 1)
        unit = m.group(2).lower().rstrip("s")
        if unit == "year":
            return f"in {now.year - n}"
        if unit == "month":
            return month_back(n)
        days = {"day": 1, "week": 7, "weekend": 7}[unit] * n
        return f"around {_date(ts - days * 86400)}"

    fixed = (
        (r"\byesterday\b", f"on {_date(ts - 86400)}"),
        (r"\blast night\b", f"on the night of {_date(ts - 86400)}"),
        (r"\blast weekend\b", f"the weekend before {_date(ts)}"),
        (r"\blast week\b", f"the week before {_date(ts)}"),
        (r"\blast month\b", month_back(1)),
        (r"\blast year\b", f"in {now.year - 1}"),
        (r"\bthis month\b", f"in {_MONTHS[now.month - 1]} {now.year}"),
        (r"\bthis year\b", f"in {now.year}"),
        (r"\blast (mon|tues|wednes|thurs|fri|satur|sun)(?:day)?\b",
         rf"the \1day before {_date(ts)}"),
    )
    for pattern, repl in fixed:
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    text = re.sub(r"\b(\d+|a few|a couple of|two|three|four|five|six|seven|eight|nine|ten|a)"
                  r"\s+(days?|weeks?|weekends?|months?|years?)\s+ago\b", ago, text,
                  flags=re.IGNORECASE)
    return re.sub(r"\bthe (mon|tues|wednes|thurs|fri|satur|sun)day\b",
                  lambda m: "the " + m.group(1).capitalize() + "day", text)


# -- rewriting ----------------------------------------------------------------------------
_MODALS = frozenset({"will", "would", "can", "could", "should", "must", "might", "may",
                     "shall", "did", "had", "cannot", "used", "wanna", "gonna", "gotta",
                     "ought"})
_ADVERB_RX = (r"(?:" + "|".join(sorted(_ADVERBS)) + r"|(?!(?:" + "|".join(sorted(_LY_VERBS))
              + r")\b)\w{3,}ly)")
_I_VERB = re.compile(r"\b(I|we|We)((?:\s+" + _ADVERB_RX + r")*)\s+([\w'-]+)")


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in ("am", "are"):
        return "is"
    if low in ("was", "were"):
        return "was"
    if low == "have":
        return "has"
    if low == "do":
        return "does"
    if low in _MODALS or _is_past(low) or not low.isalpha():
        return verb
    return third_person(low)


def to_third_person(clause: str, name: str) -> str:
    """Rewrite a first-person clause with `name` for "I", "me", "my" (and "we", "our")."""
    mid = "the user" if name == "The user" else name
    clause = re.sub(r"\b([Ww]e) (?:all|both)\b", r"\1", clause)
    text = _I_VERB.sub(lambda m: f"{mid}{m.group(2)} {_conjugate(m.group(3))}", clause)
    text = re.sub(r"\b(?:I|me|myself)\b", mid, text)
    text = re.sub(r"\b(?:my|our|My|Our|mine|ours)\b", f"{mid}'s", text)
    text = re.sub(r"\b(?:we|We)\b", mid, text)
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


# -- judging ------------------------------------------------------------------------------
def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _has_content(tokens: Sequence[str]) -> bool:
    """An object that names something, not just "it", "that" or "so much"."""
    rest = " ".join(tokens)
    for filler in sorted(_PRONOUN_OBJECTS, key=len, reverse=True):
        rest = re.sub(rf"\b{re.escape(filler)}\b", " ", rest)
    return any(len(w) > 1 or w.isdigit() for w in rest.split())


def _is_past(verb: str) -> bool:
    return verb in _IRREGULAR_PAST or (verb.endswith("ed") and len(verb) > 3
                                       and verb not in _ED_PRESENT)


_REACTION_OBJECTS = frozenset({
    "it", "that", "this", "these", "those", "them", "him", "her", "how", "what", "when",
    "you", "your", "our", "seeing", "hearing", "having", "so", "too", "one", "where",
    "why", "everything", "all", "both", "each",
})
_REACTION_NOUNS = frozenset({
    "way", "idea", "pic", "pics", "photo", "photos", "picture", "pictures", "sound",
    "thought", "feeling", "vibe", "vibes", "energy", "look", "looks", "color", "colors",
    "colour", "colours", "name", "story", "message", "support", "attitude",
    "spirit", "enthusiasm", "positivity", "dedication", "passion", "advice", "tip", "tips",
    "update", "news",
})


def _preference_ok(rest: Sequence[str]) -> bool:
    """"I love hiking", "I love to cook", "I prefer the beach" state a preference; "I love
    that!", "I love the way you..." and "I love your pics" react to the conversation."""
    if not rest:
        return False
    if rest[0] == "to":
        return len(rest) > 1 and rest[1] not in ("hear", "see", "know", "say", "read") \
            and _has_content(rest[1:])
    if rest[0] in _REACTION_OBJECTS and not (rest[0] == "all" and len(rest) > 1
                                              and rest[1] not in _REACTION_OBJECTS):
        return False
    if rest[0] in ("the", "a", "an", "all"):
        return len(rest) > 1 and rest[1] not in _REACTION_NOUNS and rest[1] not in _EVALUATIVE \
            and not (len(rest) > 2 and rest[2] in _REACTION_NOUNS) and _has_content(rest[1:])
    return _has_content(rest)


#: what even the broad mode refuses: modals, cognition and conversational reactions
_BROAD_DENY = frozenset({
    "think", "thought", "guess", "hope", "wish", "know", "bet", "mean", "understand",
    "agree", "appreciate", "feel", "felt", "see", "hear", "believe", "suppose", "imagine",
    "wonder", "can", "cannot", "could", "would", "should", "must", "may", "might", "will",
    "shall", "need", "want", "wanna", "gotta", "say", "said", "tell", "told", "ask",
    "remember", "get", "try", "look", "miss", "thank", "owe", "promise", "swear", "doubt",
    "realize", "realise", "recommend", "suggest", "can't", "couldn't", "won't", "wouldn't",
    "shouldn't", "let", "totally", "definitely", "absolutely", "reckon", "figure", "figured",
    "gonna", "going", "glad", "sure", "sorry",
})


#: what is never a statement, marker or not ("I hope you feel better", "I bet")
_SMALL_TALK_VERBS = frozenset({
    "hope", "wish", "bet", "guess", "suppose", "wonder", "imagine", "mean", "agree",
    "appreciate", "thank", "owe", "promise", "swear", "know", "understand", "see", "hear",
    "can", "cannot", "could", "would", "should", "must", "can't", "couldn't", "wouldn't",
    "shouldn't", "let", "miss", "remember", "say", "tell", "ask", "recommend", "suggest",
})


def _broad_ok(words: list[str]) -> bool:
    """The broad mode: any first-person clause with content whose verb is not a modal,
    a thought or a reaction; the gate refuses the affect and the hedges."""
    i = 1
    while i < len(words) and _is_adverb(words[i]):
        i += 1
    if i >= len(words) - 1 or words[i] in _BROAD_DENY:
        return False
    rest = words[i + 1:]
    if words[i] in ("am", "was", "is", "are", "were"):
        if len(rest) > 1 and rest[0] == "trying" and rest[1] != "to":
            return _has_content(rest[1:])  # "I'm trying kundalini yoga"
        if rest[0] in _DENY_ING or rest[0] in _EVALUATIVE:
            return False
    return _has_content(rest)


def _first_person_ok(words: list[str], broad: bool = False) -> bool:
    """Judge "I <adverbs> <verb> <rest>" (words lower-cased, contractions expanded)."""
    if broad and _broad_ok(words):
        return True
    i = 1
    while i < len(words) and _is_adverb(words[i]):
        i += 1
    if i >= len(words) - 1:
        return False
    verb, rest = words[i], words[i + 1:]
    tail = " ".join(rest) + " "
    if verb in ("am", "was"):
        if rest[0] == "not":
            rest = rest[1:]
        while rest and _is_adverb(rest[0]):
            rest = rest[1:]
        if len(rest) > 1 and rest[0] in ("doing", "trying"):
            # "doing kickboxing", "trying out recipes" are activities; "doing ok" is not
            if rest[0] == "trying" and rest[1] != "out":
                return False
            return rest[1] not in _EVALUATIVE and rest[1] not in ("my", "ok", "well", "fine",
                                                                  "better", "it", "that") \
                and _has_content(rest[1:])
        if not rest or rest[0] in _DENY_ING or rest[0] in _EVALUATIVE:
            return False
        if rest[0] in ("a", "an", "the") and len(rest) > 1 and rest[1] in _EVALUATIVE:
            return False
        if rest[0].endswith("ing") and rest[0] not in _DENY_ING:
            return _has_content(rest[1:]) or rest[0] in _AFTER_BE
        if rest[0] in ("in", "on", "at", "of") and (len(rest) < 2 or rest[1] == "to"):
            return False
        if rest[0].isdigit():
            return True  # "I am 70"
        return rest[0] in _AFTER_BE and _has_content(rest)
    if verb in ("have", "had"):
        if any(tail.startswith(p) for p in _DENY_AFTER_HAVE):
            return False
        if rest[0] == "not" and len(rest) > 1 and (_is_past(rest[1]) or rest[1] == "been"):
            return False  # "I had not heard", "I have not tried it yet"
        if rest[0] == "been" and len(rest) > 1:
            nxt = rest[1]
            if nxt in _DENY_ING or nxt in _EVALUATIVE:
                return False
            return (nxt in ("to", "into", "in", "at", "on", "a", "an", "married", "with")
                    or nxt.endswith("ing") or nxt in _AFTER_BE) and _has_content(rest[2:])
        if _is_past(rest[0]) and rest[0] not in _DENY_PAST:
            return _has_content(rest[1:])
        return verb == "have" and _has_content(rest) or (
            verb == "had" and rest[0] not in _EVALUATIVE and _has_content(rest))
    if verb in ("do", "did") and rest[0] == "not" and len(rest) > 1:
        # "I don't eat meat", "I don't surf": a durable verb, with or without an object
        return rest[1] in _DURABLE_PRESENT and rest[1] not in ("have", "do", "go", "make",
                                                                "keep", "take")
    if verb == "cannot" and rest[0] in ("have", "eat", "drink", "tolerate", "digest") \
            and len(rest) > 1:
        return _has_content(rest[1:])  # "I can't have dairy": a restriction, not a modal
    if verb == "used" and rest[0] == "to" and len(rest) > 2:
        return _has_content(rest[2:])
    if verb in ("love", "like", "enjoy", "prefer", "adore", "hate", "dislike",
                "loved", "liked", "enjoyed"):
        return verb not in ("loved", "liked", "enjoyed") and _preference_ok(rest)
    if verb in ("got", "get") and rest[0] in ("married", "engaged", "divorced", "promoted",
                                              "hired", "adopted", "certified", "accepted",
                                              "a", "an", "my", "into", "back", "the"):
        return rest[0] not in ("a", "an", "the", "back") or _has_content(rest[1:3])
    if verb in _DENY_VERBS:
        return verb in _DURABLE_PRESENT and verb not in ("have", "do", "go", "get", "keep",
                                                         "make") and _has_content(rest)
    if _is_past(verb):
        return verb not in _DENY_PAST and _has_content(rest)
    return verb in _DURABLE_PRESENT and _has_content(rest)


def _possessive_ok(words: list[str]) -> bool:
    """"my <thing> is <value>" or "my <person> <verb> ...": about the speaker's things."""
    if len(words) > 3 and words[1] in ("favorite", "favourite", "fave", "fav") and \
            any(w in ("is", "are", "was") for w in words[2:6]):
        # a favourite is a preference even when it is praised in the same breath
        return True
    for j in range(1, min(len(words), 5)):
        w = words[j]
        if w in ("is", "are", "was", "were"):
            rest = words[j + 1:]
            if not rest or rest[0] in _EVALUATIVE or rest[0] in _DENY_ING:
                return False
            if rest[0] in ("a", "an", "the") and len(rest) > 1 and rest[1] in _EVALUATIVE:
                return False
            return _has_content(rest) and len(rest) <= 12
        if w in ("has", "have", "had") and j + 1 < len(words):
            return words[j + 1] not in ("been", "got", "to") and _has_content(words[j + 1:])
        if j >= 2 and (_is_past(w) and w not in _DENY_PAST or w in _NAMED_VERBS
                       or w in _DURABLE_PRESENT or lemma(w) in _DURABLE_PRESENT):
            # "my son got into an accident", "my kids love nature"
            return w not in ("go", "do", "get") and _has_content(words[j + 1:])
    return False


def _broad_possessive_ok(words: list[str]) -> bool:
    """Broad mode: "my <someone> <does something>" unless it is praise or a feeling."""
    for j in range(2, min(len(words) - 1, 6)):
        w = words[j]
        if w in ("is", "are", "was", "were", "has", "have", "had") or _is_past(w) or \
                w.endswith("s") and lemma(w) != w:
            rest = words[j + 1:]
            return rest[0] not in _EVALUATIVE and rest[0] not in _DENY_ING and \
                rest[0] not in _BROAD_DENY and _has_content(rest)
    return False


def _copula_ok(words: list[str]) -> bool:
    """"The deploy target for the API is prod": a named thing and its value. The value
    must be short and plain; "the kids were so cute" is praise, not a value."""
    for j in range(2, min(len(words) - 1, 8)):
        if words[j] in ("is", "are"):
            rest = words[j + 1:]
            subject = words[1:j]
            return (len(rest) <= 6 and rest[0] not in _EVALUATIVE and rest[0] not in _DENY_ING
                    and rest[0] not in _REACTION_OBJECTS and rest[0] not in ("not", "no")
                    and not any(w in _REACTION_NOUNS for w in subject)
                    and not (len(rest) > 1 and rest[1] in _EVALUATIVE)
                    and _has_content(rest))
        if words[j] in ("was", "were", "has", "have", "had") or _is_past(words[j]):
            return False
    return False


def _is_my_ok(words: list[str]) -> bool:
    """"<something> is my <thing>": "Playing video games is my main hobby"."""
    for j in range(1, min(len(words) - 2, 8)):
        if words[j] in ("is", "are", "was", "were") and words[j + 1] in ("my", "our"):
            head = words[0]
            return head not in _REACTION_OBJECTS and head not in (
                "he", "she", "they", "there", "which", "who", "family", "everyone") \
                and _has_content(words[j + 2:])
    return False


class RuleExtractor:
    """Offline, deterministic extraction of plain statements from user turns."""

    name = "rules"

    def __init__(self, *, policy: GatePolicy | None = None, broad: bool = False,
                 pin_relative_dates: bool = True) -> None:
        """`policy` is the gate's: a first-person statement carrying one of its markers
        ("I'm so frustrated", "I might switch to Helix") is passed on even when it is
        not a plain statement, so the gate refuses it with its reason on record instead
        of the extractor dropping it unseen. `broad` takes every first-person clause that
        is not a modal, a thought or a reaction: more recall, and more facts to read."""
        self.policy = policy or GatePolicy()
        markers = (self.policy.hedges + self.policy.affect + self.policy.speculation
                   + self.policy.transient)
        alternatives = sorted((re.escape(m.lower()) for m in markers if m.strip()), key=len,
                              reverse=True)
        self._markers = (re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")
                         if alternatives else None)
        self.broad = broad
        self.pin_relative_dates = pin_relative_dates

    def extract(self, text: str, *, self_name: str = "The user") -> Extraction:
        """Candidates from one user message (no id, no time)."""
        return self.extract_episode([Turn("t0", "user", text)], self_name=self_name)

    def extract_episode(self, turns: Sequence[Turn], *, self_name: str = "The user"
                        ) -> Extraction:
        names = sorted({t.speaker for t in turns if t.speaker} | {self_name}, key=len,
                       reverse=True)
        out = Extraction()
        for turn in turns:
            if turn.role != "user" or is_suppression_request(turn.content):
                continue
            speaker = turn.speaker or self_name
            seen: set[str] = set()
            for clause in split_clauses(turn.content):
                cand = self._candidate(clause, turn, speaker, names)
                if cand is not None and cand.text.lower() not in seen:
                    seen.add(cand.text.lower())
                    out.candidates.append(cand)
        return out

    # a clause -> a candidate, or None when it states nothing durable
    def _candidate(self, clause: str, turn: Turn, speaker: str, names: Sequence[str]
                   ) -> Candidate | None:
        clause = _expand(clause.strip())
        if not clause or clause.endswith("?"):
            return None
        explicit = re.match(r"^(?:please\s+)?(?:remember|note|keep in mind)(?:\s+that)?[:,]?\s+",
                            clause, re.IGNORECASE)
        if explicit:
            clause = clause[explicit.end():]
        clause = _strip_openers(clause, [n for n in names if n != "The user"])
        if not clause or len(clause.split()) < 3 or _SECOND_PERSON.search(clause):
            return None
        words = _words(clause)
        first = words[0]
        if words[:2] in (["we", "all"], ["we", "both"]) and len(words) > 2 \
                and words[2] in ("have", "need", "can", "should", "know", "deserve", "get"):
            return None  # "we all have our paths": a maxim, about no one in particular
        if first == "i":
            ok = explicit is not None or _first_person_ok(words, self.broad)
            kind = "first"
        elif first in ("my", "our"):
            ok = explicit is not None or _possessive_ok(words) or (
                self.broad and _broad_possessive_ok(words))
            kind = "first"
        elif first == "we" and len(words) > 2:
            ok = explicit is not None or _first_person_ok(["i", *words[1:]], self.broad)
            kind = "first"
        elif _is_past(first) and first not in _DENY_PAST and first not in _PARTICIPLES:
            # an elided "I": "Lost my job yesterday", "Went hiking last weekend"
            clause = "I " + clause[:1].lower() + clause[1:]
            words = ["i", *words]
            ok = _first_person_ok(words)
            kind = "first"
        elif _is_my_ok(words):
            ok, kind = True, "first"
        else:
            ok, kind = self._named_ok(clause, words, names, explicit is not None), "named"
        if not ok and not (kind == "first" and self._for_the_gate(clause, words)):
            return None
        if self.pin_relative_dates:
            clause = pin_dates(clause, turn.timestamp)
        return self._keyed(clause, kind, turn, speaker)

    def _for_the_gate(self, clause: str, words: list[str]) -> bool:
        """A first-person statement the gate will refuse by one of its markers: hand it
        over, so the refusal is recorded (mood, hedge, plan, state of the moment)."""
        if self._markers is None or len(words) < 3 or words[1] in _SMALL_TALK_VERBS:
            return False
        low = " ".join(to_third_person(clause, "the user").lower().split())
        return self._markers.search(low) is not None and _has_content(words[2:])

    @staticmethod
    def _named_ok(clause: str, words: list[str], names: Sequence[str], explicit: bool
                  ) -> bool:
        """"Arttu deploys X on Vercel", "Arttu's editor is Helix", "The deploy target is
        prod" (only after "remember that", since a bare copula is usually an opinion)."""
        lowered = {n.lower() for n in names}
        tokens = clause.split()
        head = tokens[0].rstrip(",")
        owner = head[:-2] if head.lower().endswith("'s") else head
        if owner.lower() in lowered or (owner[:1].isupper() and owner.lower() not in (
                "it", "that", "this", "there", "he", "she", "they", "the", "a", "an",
                "everyone", "everything", "nothing", "someone", "people", "life", "which",
                "what", "who", "here", "his", "her", "their", "its", "one", "let's", "lets")):
            if head.lower().endswith("'s"):
                return _possessive_ok(["my", *words[1:]])
            if len(words) > 2 and words[1] in _NAMED_VERBS and (owner.lower() in lowered
                                                                 or explicit):
                rest = words[2:]
                return rest[0] not in _EVALUATIVE and _has_content(rest)
        if words[0] == "the" and _copula_ok(words):
            return True
        return explicit and parse_key(clause) is not None

    def _keyed(self, clause: str, kind: str, turn: Turn, speaker: str) -> Candidate:
        subject, predicate, obj = speaker, None, None
        if kind == "first":
            text = to_third_person(clause, speaker)
            # the key parser wants "I <verb>": "I also like snakes" -> "I like snakes"
            plain = re.sub(r"^(?:our|Our)\b", "my", re.sub(r"^(?:we|We)\b", "I", clause))
            plain = re.sub(r"^I((?:\s+" + _ADVERB_RX + r")+)\s", "I ", plain)
            parsed = parse_key(plain, self_name=speaker)
            if parsed is not None and parsed.first_person:
                predicate, obj = self._durable_key(parsed.predicate, parsed.object)
        else:
            text = clause if clause[-1:] in ".!" else clause + "."
            text = text[:1].upper() + text[1:]
            parsed = parse_key(clause, self_name=speaker)
            if parsed is not None:
                subject = parsed.subject if parsed.subject != "I" else speaker
                predicate, obj = self._durable_key(parsed.predicate, parsed.object)
        return Candidate(
            text=text, subject=subject, predicate=predicate, object=obj, source="user",
            role="user", derived_from=(turn.id,), valid_from=turn.timestamp,
        )

    @staticmethod
    def _durable_key(predicate: str, obj: str) -> tuple[str | None, str | None]:
        """Keep a key only for relations that hold one value at a time or are listed as
        many-valued. An event ("went to", "ran") keeps its object but no predicate, so it
        has no key: two trips are not a contradiction and must not supersede each other."""
        base = predicate.removeprefix("not_")
        verb = base.split("_", 1)[0]
        head = base_key(obj).split(" ", 1)[0] if obj else ""
        if _is_past(verb) or verb in ("go", "get", "make", "take", "do") or head == "been":
            return None, obj
        if base == "be":
            # "is a nurse", "is keen on counseling", "is passionate about art" can all be
            # true at once: a bare "be" is no slot ("be_from", "be_in" are kept)
            return None, obj
        return predicate, obj
