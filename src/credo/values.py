"""The values a sentence names, and when two sentences name the same ones.

Two readings the resolver takes as evidence where keys differ or fail:

- `same_values`: do two wordings name the same things (nouns, names, numbers, adjectives),
  each word of one found in the other as people type it ("i ride a yamaha scooter" / "i own
  a yamaha scooter")? With the embedding it tells one claim said in other words.
- `remeasured`: do two sentences measure one thing with other numbers ("i sleep 6 hours a
  night" / "im down to 5 hours a night")? Read on the sentences with their numbers masked,
  so the embedding hears what is measured, not by how much.

Numbers written as words are digits here ("ten" -> "10"), and accents are left out ("zoë" /
"zoe").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .fact import one_spelling
from .language import mapping, words
from .language.synonyms import LONGEST, synonymous
from .nlp import unknown_word

if TYPE_CHECKING:
    from spacy.tokens import Token

_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NUMBER_VALUES = {
    **{w: n for n, w in enumerate(_UNITS)},
    **{w: 10 * (n + 2) for n, w in enumerate(_TENS)},
}
#: the ordinals as words, with their numbers: "third" -> 3
ORDINAL_VALUES = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
}


#: "thirty-four", and "forty eight" said before its scale ("forty eight thousand"); alone,
#: two number words typed apart stay apart
_COMPOUND_NUMBER = re.compile(
    r"\b(?:" + "|".join(_TENS) + r")(?:-|\s(?=(?:" + "|".join(_UNITS[1:10]) + r")\s+"
    r"(?:hundred|thousand)\b))(?:" + "|".join(_UNITS[1:10]) + r")\b",
    re.IGNORECASE,
)


#: a number scaled by a word ("twelve hundred", "two dozen", "a thousand", "a decade"):
#: one number, in digits, however it is said
_SCALES = {"hundred": 100, "thousand": 1000, "dozen": 12, "decade": 10, "decades": 10}
_SCALED_NUMBER = re.compile(
    r"\b(an?|\d+|" + "|".join(NUMBER_VALUES) + r")\s+(hundred|thousand|dozen|decades?)\b",
    re.IGNORECASE,
)


def _scaled(m: re.Match[str]) -> str:
    said, scale = m.group(1).lower(), m.group(2).lower()
    n = 1 if said in ("a", "an") else int(said) if said.isdigit() else NUMBER_VALUES[said]
    number = str(n * _SCALES[scale])
    return number + " years" if scale.startswith("decade") else number


#: how often, as typed: "3x a week", "2x/day" -> "3 times a week", "2 times/day"; "twice a
#: week" -> "2 times a week" (only before what it is per: "i once lived in oslo" stays)
_TIMES_TYPED = re.compile(r"\b(\d+)\s?x(?=\s+(?:a|an|per|every|each)\b|\s?/)", re.IGNORECASE)
_TIMES_SAID = re.compile(r"\b(once|twice|thrice)(?=\s+(?:a|an|per|every|each)\b)", re.IGNORECASE)
_HOW_OFTEN = {"once": "1 time", "twice": "2 times", "thrice": "3 times"}


def in_digits(text: str) -> str:
    """`text` with its numbers said in words written in digits, for comparing values
    ("twelve hundred" -> "1200", "thirty-four" -> "34", "a decade" -> "10 years", "3x a
    week" and "three times a week" -> "3 times a week")."""
    text = _TIMES_TYPED.sub(r"\1 times", text)
    text = _TIMES_SAID.sub(lambda m: _HOW_OFTEN[m.group(1).lower()], text)
    # "forty eight thousand": the compound first (48), then its scale (48000), twice for
    # a scale of a scale ("one hundred thousand")
    text = _COMPOUND_NUMBER.sub(
        lambda m: number_value(m.group(0).replace(" ", "-")) or m.group(0), text
    )
    return _SCALED_NUMBER.sub(_scaled, _SCALED_NUMBER.sub(_scaled, text))


def number_value(word: str) -> str | None:
    """A cardinal written as a word, in digits: "ten" -> "10", "thirty-four" -> "34";
    None for anything else. "I'm 34" and "I'm thirty-four" name one age."""
    parts = word.lower().split("-")
    if len(parts) == 1 and parts[0] in NUMBER_VALUES:
        return str(NUMBER_VALUES[parts[0]])
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS[1:10]:
        return str(NUMBER_VALUES[parts[0]] + NUMBER_VALUES[parts[1]])
    return None


def _plain(text: str) -> str:
    """`text` without its accents, for comparing words: "zoë" and "zoe", "José" and
    "Jose" are typed for one name."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


#: a number as typed, with what sticks to it: "$2,000", "2k", "220ms", "82kg", "85%", "3.5"
_NUMBER = re.compile(r"^([$€£]?)(\d[\d,]*(?:\.\d+)?)(?:(k|m)|([a-z%]*))$", re.IGNORECASE)
_MULTIPLIERS = {"k": 1_000, "m": 1_000_000}
_DERIVATIONS = words("derivations")
#: spellings of a unit of measure -> the unit ("kilos" -> "kg")
_MEASURE_UNITS = mapping("units")
_FILLER = words("filler_words")
#: words that praise or react ("wonderful", "amazing"): no value of a claim
_PRAISE = words("evaluative")
#: the speaker as a stored sentence names them ("The user is ...")
_SPEAKER = frozenset({"user", "i", "me", "we", "us"})


def value_words(text: str) -> frozenset[str]:
    """The words a sentence names values with: its nouns, names, numbers and adjectives,
    lower-cased, without accents, numbers in digits ("my daughter Zoë is seven" ->
    daughter, zoe, 7). What two wordings of one claim must both name."""
    from .nlp import parse

    out = set()
    # "thirty-four" is one number, though the tokeniser splits it at its hyphen; "twelve
    # hundred" is one too
    text = in_digits(text)
    for tok in parse(text):
        if _how_often(tok):
            out.add(_TIMES[tok.lower_])
            continue
        if _times_counted(tok):
            continue  # "4 times a week" and "four days a week" name one how often
        if (
            tok.pos_ == "NUM"
            or tok.pos_ in ("NOUN", "PROPN", "ADJ")
            and not tok.is_stop
            or unknown_word(tok.lower_)
        ):
            # a word English does not have keeps its letters ("aws" is no plural of "aw")
            lemma = tok.pos_ == "NOUN" and not unknown_word(tok.lower_)
            word = _plain((tok.lemma_ if lemma else tok.text).lower()).strip(".,'")
            typed = _NUMBER.match(word)
            if typed:  # "$2,000" and "2k" name one amount
                word = _digits(typed.group(2), typed.group(3) or "")
            word = number_value(word) or one_spelling(word.removesuffix("'s"))
            if word and word not in _FILLER and word not in _SPEAKER:
                out.add(word)
    return frozenset(out)


def one_word(a: str, b: str) -> bool:
    """`a` and `b` are one word as people type it: the same; one typo apart (six letters
    or more, so that short names stay apart: "corolla" / "corola", not "maria" /
    "mario"), or two neighbouring letters swapped (four or more: "wrok" / "work"); a
    plural with its "s" ("repos" / "repo"); or one stem with endings that derive one from
    the other ("allergic" / "allergy", "drums" / "drummer")."""
    if a == b:
        return True
    if not (a.isalpha() and b.isalpha()):
        return False
    short, long = sorted((a, b), key=len)
    if len(short) >= 3 and long == short + "s":  # a name's plural the lemmatiser kept
        return True
    if min(len(a), len(b)) >= 6 and _one_edit(a, b):
        return True
    if len(a) >= 4 and _swapped(a, b):  # "wrok" / "work": two keys hit in turn
        return True
    stem = 0
    while stem < min(len(a), len(b)) and a[stem] == b[stem]:
        stem += 1
    return stem >= 4 and a[stem:] in _DERIVATIONS and b[stem:] in _DERIVATIONS


def _swapped(a: str, b: str) -> bool:
    """`b` is `a` with two neighbouring letters typed the other way round."""
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and a[diff[0]] == b[diff[1]]
        and (a[diff[1]] == b[diff[0]])
    )


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return len(long) - len(short) == 1 and any(
        long[:i] + long[i + 1 :] == short for i in range(len(long))
    )


def found_in(mine: Iterable[str], theirs: Iterable[str]) -> bool:
    """Is every word of `mine` one of `theirs` as people type it (`one_word`)?"""
    theirs = tuple(theirs)
    return all(any(one_word(w, o) for o in theirs) for w in mine)


def same_values(a: str, b: str, *, ignoring: frozenset[str] = frozenset()) -> bool:
    """Do two sentences name the same values, each word of one found in the other as people
    type it? ("i ride a yamaha scooter" / "i own a yamaha scooter": yes; "my favourite
    fruit is plum" / "... is pear": no; "we live in Kent" / "we live in rural Kent": no, the
    second names more.) Words `ignoring` (a slot's own name) are no value of either."""
    mine, theirs = value_words(a), value_words(b)
    if mine - ignoring and theirs - ignoring:  # a slot's name alone is still compared
        mine, theirs = mine - ignoring, theirs - ignoring
    if not (mine and theirs):
        return False
    # a name said in initials ("the us postal service" / "the united states postal
    # service", "la" / "los angeles") is the words it spells
    mine_left = {w for w in mine if not found_in([w], theirs)}
    theirs_left = {w for w in theirs if not found_in([w], mine)}
    for short, spelt_in, left in ((a, b, theirs_left), (b, a, mine_left)):
        for word, run in spelt_out(short, spelt_in):
            if set(run) & left:
                left -= set(run)
                mine_left.discard(word)
                theirs_left.discard(word)
    mine_left, theirs_left = said_otherwise(a, mine_left, b, theirs_left)
    # a word that says what kind of thing a value both name is names no other value
    # ("violin's my instrument" / "i play the violin")
    shared = {w for w in mine if found_in([w], theirs)}
    mine_left, theirs_left = _kinds_of(mine_left, shared), _kinds_of(theirs_left, shared)
    # praise said in one wording only ("my lovely wife and i run a bakery") names no
    # value; praise in both that differs ("good" / "awful") does
    if not (mine_left & _PRAISE and theirs_left & _PRAISE):
        mine_left, theirs_left = mine_left - _PRAISE, theirs_left - _PRAISE
    # a noun made of the other's verb ("a manager at the store" / "manages the store")
    return found_in(mine_left, _verbs(b)) and found_in(theirs_left, _verbs(a))


def _kinds_of(left: set[str], shared: set[str]) -> set[str]:
    """`left` without the words that name a kind of which a word of `shared` is one."""
    from .language.kinds import is_a_kind_of

    return {w for w in left if not any(is_a_kind_of(n, w) for n in shared)}


def said_less(new: str, old: str, *, people: frozenset[str] = frozenset()) -> bool:
    """Does `new` name only values `old` names, leaving out only how a thing is described
    ("i drive a car" after "i drive a red car", "we live in kent" after "we live in rural
    kent") or, in a sentence that affirms, a common thing beside it ("i ride the tram to
    work" after "i take the tram to work every day")? Not when it leaves out a name, a
    number or a person (`people`: "i live in paris" after "my sister lives in paris"),
    nor a thing of a denial ("i don't eat meat" says more than "... on fridays")."""
    from .nlp import parse

    mine, theirs = value_words(new), value_words(old)
    if not mine or not found_in(mine, theirs):
        return False
    dropped = {w for w in theirs if not found_in([w], mine)}
    doc = parse(old)
    described = {t.lower_ for t in doc if t.pos_ == "ADJ"}
    if any(t.dep_ == "neg" or t.lower_ in ("no", "never", "nothing") for t in doc):
        return dropped <= described
    things = {
        t.lemma_.lower()
        for t in doc
        if t.pos_ == "NOUN" and not unknown_word(t.lower_) and t.lemma_.lower() not in people
    }
    return dropped <= described | things


def said_otherwise(
    a: str, a_left: Iterable[str], b: str, b_left: Iterable[str]
) -> tuple[set[str], set[str]]:
    """What is left of the words `a_left` of `a` and `b_left` of `b` (each said in one
    sentence and not in the other) once a word or phrase of one said with its synonym in
    the other is set aside: "my hubby" / "my husband", "a movie" / "a motion picture".
    WordNet's synonym sets (`credo.language.synonyms`) never hold two rival values."""
    mine, theirs = set(a_left), set(b_left)
    for phrase, said in _phrases(a, mine):
        for other, also in _phrases(b, theirs):
            if (
                said <= mine
                and also <= theirs
                and (synonymous(phrase, other) or _spaced_otherwise(phrase, other))
            ):
                mine -= said
                theirs -= also
    return mine, theirs


def spelt_alike(a: str, b: str) -> str:
    """`b` with two words run together where `a` writes them as one ("i had chicken pox"
    read beside "chickenpox": "i had chickenpox"), the rest as it is; for comparing, the
    stored words stay."""
    ones = {w.lower() for w in re.findall(r"\w+", a) if len(w) > 5}
    if not ones:
        return b
    spans = [m for m in re.finditer(r"\w+", b)]
    out, at, i = [], 0, 0
    while i < len(spans):
        first = spans[i]
        second = spans[i + 1] if i + 1 < len(spans) else None
        if (
            second is not None
            and re.fullmatch(r"[\s-]+", b[first.end() : second.start()])
            and (first.group() + second.group()).lower() in ones
        ):
            out.append(b[at : first.start()] + (first.group() + second.group()).lower())
            at, i = second.end(), i + 2
        else:
            i += 1
    return "".join(out) + b[at:] if out else b


def _spaced_otherwise(a: str, b: str) -> bool:
    """One compound written as one word and as two ("chickenpox" / "chicken pox")."""
    return a.lower() != b.lower() and run_together(a) == run_together(b)


def run_together(phrase: str) -> str:
    """`phrase` with its words run together: a compound written as one word or two
    ("chickenpox" / "chicken pox", "icecream" / "ice-cream") is one word."""
    return re.sub(r"[\s-]+", "", phrase.lower())


def _phrases(text: str, left: set[str]) -> list[tuple[str, frozenset[str]]]:
    """The words and runs of words of `text` (up to `LONGEST`, the last one's lemma for a
    noun: "motion pictures" -> "motion picture") whose value words are all in `left`, with
    those value words; longest first."""
    from .nlp import parse

    if not left:
        return []
    tokens = list(parse(text))
    out = []
    for size in range(LONGEST, 0, -1):
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            last = run[-1]
            # a noun's lemma, and as typed too: "the bahamas" is no plural of a "bahama"
            ends = [last.lemma_.lower(), last.lower_] if last.pos_ == "NOUN" else [last.lower_]
            for end in dict.fromkeys(ends):
                typed = [*(t.lower_ for t in run[:-1]), end]
                # the value words are compared as lemmas or as typed, whichever `left` has
                words = [*typed[:-1], next((e for e in ends if e in left), end)]
                said = frozenset(words) & left
                if said and all(w in left or t.is_stop for w, t in zip(words, run, strict=True)):
                    out.append((" ".join(typed), said))
    return out


def _verbs(text: str) -> frozenset[str]:
    """The lemmas of the verbs a sentence says things with (not its auxiliaries)."""
    from .nlp import parse

    return frozenset(t.lemma_.lower() for t in parse(text) if t.pos_ == "VERB")


#: words short enough to be initials or a shortened word ("la", "nyc", "ucla", "manc", "t1")
_SHORT = re.compile(r"\b[a-z][a-z0-9]{1,4}\b")


def spelt_out(short: str, long: str) -> list[tuple[str, list[str]]]:
    """The words of `short` typed as the initials of a run of `long`'s words, or as a word
    of them shortened, with that run: ("i live in la", "i live in los angeles") ->
    [("la", ["los", "angeles"])]; "manc" / "manchester", "swe" / "software engineer",
    "t1" / "type 1" (`_shortens`)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    said = re.findall(r"[a-z0-9]+", _plain(long.lower()))
    # the words initials stand for; "of", "the" are left out of them ("uea": the university
    # of east anglia)
    words = [w for w in said if w not in STOP_WORDS or w == "us"]
    found = []
    for word in set(_SHORT.findall(_plain(short.lower()))):
        if word in said or word in STOP_WORDS and word != "us":
            continue  # "in", "the": never initials; "us" may be ("the us army")
        for size in range(1, len(word) + 1):
            for i in range(len(words) - size + 1):
                run = words[i : i + size]
                if "".join(w[0] for w in run) == word or _shortens(word, run):
                    found.append((word, run))
    return found


def _shortens(word: str, run: list[str]) -> bool:
    """Is `word` a word English does not have, typed as a shortening of the words `run`:
    each word of the run giving its first letter and maybe more of its letters in order
    ("manc" / "manchester", "akl" / "auckland", "swe" / "software engineer", "appt" /
    "appointment", "t1" / "type 1")? One word is shortened by three letters or more (two
    letters of one word are too many words' letters: "ny" is no "norway")."""
    from lemminflect import getAllLemmas

    if len(run) == 1 and (len(word) < 3 or len(run[0]) <= len(word)):
        return False
    if not any(c.isalpha() for c in word) or getAllLemmas(word):
        return False

    def within(rest: str, at: int) -> bool:
        if at == len(run):
            return not rest
        head = run[at]
        if not rest or rest[0] != head[0]:
            return False
        # the letters this word gives: its first, then any of the rest in order
        for cut in range(1, len(rest) + 1):
            if _in_order(rest[1:cut], head[1:]) and within(rest[cut:], at + 1):
                return True
        return False

    return within(word, 0)


def _in_order(letters: str, word: str) -> bool:
    """Are `letters` found in `word` in their order (not side by side)?"""
    it = iter(word)
    return all(c in it for c in letters)


# -- quantities ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """A number and what it counts or measures ("4 coffees" -> 4, coffee; "82kg" -> 82,
    kg; "$2,000" -> 2000, $); `unit` is empty where nothing says (a year, a version)."""

    value: str
    unit: str


def _digits(number: str, multiplier: str) -> str:
    plain = number.replace(",", "")
    if not multiplier:
        return plain
    scaled = float(plain) * _MULTIPLIERS[multiplier.lower()]
    return str(int(scaled)) if scaled.is_integer() else str(scaled)


#: a number typed with what a rate is per ("2k/month", "$40/hr")
_PER = re.compile(r"^(.+?)/[a-z]+$", re.IGNORECASE)


def typed_number(word: str) -> str | None:
    """A number as typed, written one way: digits without thousands separators or a
    currency sign, a "k" or "m" multiplied out, a unit of letters kept ("$2,000" and
    "2k/month" -> "2000", "220ms" -> "220ms"); None for a word that is no number."""
    word = word.strip(".,")
    per = _PER.match(word)
    typed = _NUMBER.match(per.group(1) if per else word)
    if not typed:
        return None
    _sign, number, multiplier, unit = typed.groups()
    return _digits(number, multiplier or "") + (unit or "").lower()


#: how often, said in one word
_TIMES = {"once": "1", "twice": "2", "thrice": "3"}


def _how_often(tok: Token) -> bool:
    """ "twice a week", "once per month", "thrice every day": how often, not "once upon a
    time" or "i once lived in rome"."""
    doc = tok.doc
    return (
        tok.lower_ in _TIMES
        and tok.i + 1 < len(doc)
        and doc[tok.i + 1].lower_ in ("a", "an", "per", "every", "each")
    )


#: what "N times a week" counts, and what "N days a week" does when a week or more has them
#: (no periods named: any of `_PERIODS`)
_COUNTED = {
    "time": (),
    "x": (),
    "day": ("week", "fortnight", "month"),
    "night": ("week", "fortnight", "month"),
}
_PERIODS = ("day", "week", "fortnight", "month", "year")
_EVERY = ("a", "an", "per", "every", "each")


def _times_counted(tok: Token) -> bool:
    """Is `tok` the "times" of "4 times a week" ("3 days per week", "two nights every
    month"): the word a number counts how often with, which names no value of its own?"""
    doc = tok.doc
    periods = _COUNTED.get(tok.lemma_.lower())
    if periods is None or tok.i == 0 or tok.i + 2 >= len(doc):
        return False
    after, period = doc[tok.i + 1], doc[tok.i + 2].lemma_.lower()
    return (
        doc[tok.i - 1].pos_ == "NUM" and after.lower_ in _EVERY and period in (periods or _PERIODS)
    )


#: `_COUNTED` read in a value as typed, where there is no parse ("3 times a week")
_COUNTED_TYPED = re.compile(
    "|".join(
        rf"(?<=\w ){word}s?\s+(?=(?:{'|'.join(_EVERY)})\s+(?:{'|'.join(periods or _PERIODS)})\b)"
        for word, periods in _COUNTED.items()
    ),
    re.IGNORECASE,
)


def without_times_counted(value: str) -> str:
    """`value` without the word a number counts how often with ("4 times a week" -> "4 a
    week", as "four days a week" -> "four a week"): one how often said two ways."""
    return _COUNTED_TYPED.sub("", value)


def _a_unit(tok: Token) -> bool:
    """Is the word a unit of measure, as typed or as its lemma ("mg", "hours")?"""
    from .language.kinds import is_a_kind_of

    return (
        tok.lower_ in _MEASURE_UNITS
        or tok.lower_ in _UNITS_NAMED
        or is_a_kind_of(tok.lemma_.lower(), "measure")
    )


#: the units spellings are read as ("kg" for "kilos")
_UNITS_NAMED = frozenset(_MEASURE_UNITS.values())


#: a height in feet and inches as typed: "5'10", "5’10\"", "5ft10", "6 ft 1in" ("5 ft 10")
_FEET_INCHES = re.compile(
    r"(?<![\w.])([3-8])\s*(?:'|’|′|ft)\s*(1[01]|[0-9])\s*(?:\"|”|″|''|in\b|inches\b)?(?![\w.])"
)


def quantities(text: str) -> tuple[Quantity, ...]:
    """The numbers `text` states, each with its unit: the letters on it, a currency sign,
    or the noun after it."""
    from .nlp import parse

    doc = parse(_FEET_INCHES.sub(r"\1 ft \2", in_digits(text)))
    found = []
    skip = -1
    for tok in doc:
        if tok.i <= skip:
            continue
        last = tok.i
        typed = _NUMBER.match(tok.text)
        if typed:
            sign, number, multiplier, unit = typed.groups()
            value = _digits(number, multiplier or "")
            unit = (unit or "").lower() or sign or (multiplier or "").lower()
        elif _how_often(tok):  # "twice a week" is "2 times a week"
            value, unit = _TIMES[tok.lower_], "time"
        elif tok.pos_ == "NUM" and number_value(tok.lower_):
            value, unit = number_value(tok.lower_) or "", ""
            if tok.i + 2 < len(doc) and doc[tok.i + 1].text == "-":  # "thirty-four"
                whole = number_value(f"{tok.lower_}-{doc[tok.i + 2].lower_}")
                if whole:
                    value, last = whole, tok.i + 2
        else:
            continue
        skip = last
        if not unit and tok.i and doc[tok.i - 1].text in ("$", "€", "£"):
            unit = doc[tok.i - 1].text
        if not unit and last + 1 < len(doc):
            after = doc[last + 1]
            if after.text in ("%", "percent"):
                unit = "%"
            elif not doc[last].whitespace_ and after.is_alpha and _a_unit(after):
                # "97kg", cut in two by the tokenizer: the unit typed on the number, whatever
                # the tagger took it for ("kg" read as an address after a verb)
                unit = after.lower_
            elif after.pos_ in ("NOUN", "PROPN") and after.is_alpha:
                counted = after
                # "15 classification problems" counts problems: the noun the words after
                # the number name, not the first word of their compound ("50 mg
                # sertraline" measures in mg: a unit is the unit)
                while (
                    not _a_unit(after)
                    and counted.dep_ == "compound"
                    and counted.head.i > counted.i
                    and counted.head.pos_ in ("NOUN", "PROPN")
                    and counted.head.is_alpha
                ):
                    counted = counted.head
                if counted is not after and _a_unit(counted):
                    counted = after  # "9 mixing hours" and "4 recording hours": two measures
                unit = counted.lemma_.lower()
        found.append(Quantity(value, _MEASURE_UNITS.get(unit, unit)))
    return tuple(found)


def _unit_size(spec: str) -> tuple[str, float]:
    base, size = spec.split()
    return base, float(size)


#: a unit of a measure said in more than one system -> the unit the measure is compared
#: in, and how many of that unit it is (lexicon "unit_sizes": "lb" -> ("kg", 0.4536))
_UNIT_SIZES = {unit: _unit_size(spec) for unit, spec in mapping("unit_sizes").items()}
#: the unit a second number with none of its own is in, after a unit of these sizes
#: ("5 foot 10" is 5 feet and 10 inches, "12 stone 4" 12 stone and 4 pounds)
_THEN_SMALLER = {_UNIT_SIZES["ft"]: _UNIT_SIZES["inch"], _UNIT_SIZES["stone"]: _UNIT_SIZES["lb"]}
#: how far apart two amounts of one measure, each rounded as people round, may be and
#: still be one amount ("6 foot 2" is 187.96 cm: "188cm")
SAME_AMOUNT_WITHIN = 0.02


def amounts(text: str) -> list[tuple[str, float]]:
    """The measures `text` states in units of a known size, each in the unit its measure is
    compared in: "im 5 foot 10" -> [("m", 1.778)], "i weigh 180 lbs" -> [("kg", 81.6)]."""
    return _sized(quantities(text))


def _sized(found: tuple[Quantity, ...]) -> list[tuple[str, float]]:
    """`amounts` of quantities already read."""
    out: list[tuple[str, float]] = []
    n = 0
    while n < len(found):
        q = found[n]
        n += 1
        size = _UNIT_SIZES.get(q.unit)
        if size is None:
            continue
        try:
            value = float(q.value) * size[1]
            smaller = _THEN_SMALLER.get(size)
            if smaller and n < len(found) and not found[n].unit:
                value += float(found[n].value) * smaller[1]
                n += 1
        except ValueError:
            continue
        out.append((size[0], value))
    return out


def is_unit(word: str) -> bool:
    """Is `word` a unit of measure as people type one ("kg", "kilos", "foot", "stone")?"""
    from .language.kinds import is_a_kind_of

    low = word.lower()
    return (
        low in _UNIT_SIZES
        or low in _MEASURE_UNITS
        or low in _MEASURE_UNITS.values()
        or is_a_kind_of(low, "measure")
    )


def _one_amount(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_AMOUNT_WITHIN * max(abs(a), abs(b))


def same_amount(a: str, b: str) -> bool:
    """Do two values state one amount of one measure, in the same units or not ("180 lbs"
    / "82 kg", "5 foot 10" / "178cm tall"), naming nothing else apart?"""
    mine, theirs = amounts(a), amounts(b)
    if len(mine) != 1 or len(theirs) != 1 or mine[0][0] != theirs[0][0]:
        return False
    if not _one_amount(mine[0][1], theirs[0][1]):
        return False

    def named(text: str) -> frozenset[str]:
        return frozenset(
            w
            for w in value_words(text)
            if w not in _UNIT_SIZES
            and _MEASURE_UNITS.get(w, w) not in _UNIT_SIZES
            and not any(c.isdigit() for c in w)
        )

    here, there = named(a), named(b)
    if here == there:
        return True
    # "178cm tall" / "5 foot 10": a word that only says how it measures, on one side
    from .nlp import parse

    said = {t.lower_: t.pos_ for t in parse(f"{a} {b}")}
    return not (here and there) and all(said.get(w) == "ADJ" for w in here ^ there)


def masked(text: str) -> str:
    """`text` with its numbers out ("i drink 4 coffees a day" -> "i drink # coffees a
    day"): what it measures, for the embedding to compare."""
    out = []
    for word in _FEET_INCHES.sub(r"\1 ft \2", text).split():  # "5'10" as "# ft #"
        typed = _NUMBER.match(word.rstrip(".,!?"))
        if typed:
            out.append(" ".join(filter(None, ("#", typed.group(4)))))  # "82kg" -> "# kg"
        else:
            out.append("#" if number_value(word.strip(".,!?")) else word)
    return " ".join(out)


#: how close two sentences with their numbers masked must read to measure one thing (the
#: bundled model's cosine), where both count the same unit; and where they name numbers
#: without a unit (a year, a version), which says less about what is measured
REMEASURED_AT = 0.6
#: how many value words one of the two may name besides all the other's ("im at 76 kg
#: now after cutting out sugar" / "i weigh 82kg": one); more, and it measures something
#: more particular ("15 problems at an accuracy rate above 80%" is not "my accuracy")
MORE_WORDS = 2
UNITLESS_AT = 0.85
#: ... and where one of the two names nothing but its amount: halfway between the two
#: above (the embedding alone must say that both measure one thing)
NAMES_NOTHING_AT = 0.725


def remeasured(new: str, old: str, similarity: Callable[[str, str], float]) -> bool:
    """Does `new` measure what `old` measures, with another number? One of them names no
    value the other does not (besides numbers) and the other at most `MORE_WORDS` more;
    they share a unit whose numbers differ (or, unit-less, read almost alike); and they
    read close with the numbers masked. "im down to 1 coffee a day now" / "i drink like 4
    coffees a day": yes; "the mobile app budget is 25k" / "the web app budget is 10k": no,
    each names an app the other does not."""
    mine, theirs = quantities(new), quantities(old)
    if not mine or not theirs:
        return False

    def by_unit(qs: tuple[Quantity, ...]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for q in qs:
            out.setdefault(q.unit, set()).add(q.value)
        return out

    a, b = by_unit(mine), by_unit(theirs)
    shared = [u for u in a.keys() & b.keys() if u]
    sized_a, sized_b = _sized(mine), _sized(theirs)
    # one measure in two systems ("180 lbs" / "75 kg"), or in the same one
    sized = len(sized_a) == len(sized_b) == 1 and sized_a[0][0] == sized_b[0][0]
    if sized:
        if _one_amount(sized_a[0][1], sized_b[0][1]):
            return False
        at = REMEASURED_AT
    elif shared:
        if all(a[u] == b[u] for u in shared):
            return False
        at = REMEASURED_AT
    elif "" in a and "" in b and a[""] != b[""]:
        at = UNITLESS_AT
    else:
        return False
    units = {q.unit for q in (*mine, *theirs)}

    def besides_numbers(text: str) -> frozenset[str]:
        return frozenset(
            w
            for w in value_words(text)
            # a unit in any of its spellings ("kilo" for "kg")
            if _MEASURE_UNITS.get(w, w) not in units and not any(c.isdigit() for c in w)
        )

    words_a, words_b = besides_numbers(new), besides_numbers(old)
    if bool(words_a) != bool(words_b):
        # one names nothing but its amount ("i weigh 80kg"): with no word to compare,
        # only the sentences' meaning says whether they measure one thing ("my best
        # squat is 120kg" does not), read closer than where both name something
        at = max(at, NAMES_NOTHING_AT)
    fewer, more = sorted((words_a, words_b), key=len)
    extra = {w for w in more if not any(one_word(w, o) for o in fewer)}
    if not found_in(fewer, more) or len(extra) > MORE_WORDS:
        return False
    return similarity(masked(new), masked(old)) >= at


#: an amount of money and nothing else, per a span of time or not: "60k", "£32,000 a
#: year", "45 grand", "15 quid an hour", "$4.5k"; "5k runs" is none
_MONEY = re.compile(
    r"(?P<sign>[£$€])?\s?(?P<number>\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<scale>k|grand|thousand)?\s*(?P<word>quid|bucks|dollars?|pounds?|euros?)?"
    r"(?:\s+(?:a|an|per|every|each)\s+(?P<per>year|yr|annum|month|week|hour|hr|day))?",
    re.IGNORECASE,
)


def money(value: str) -> tuple[float, str] | None:
    """(amount, per what span: "" where none is said) when `value` is an amount of money
    and nothing else ("60k a year" -> (60000.0, "year"), "£32,000" -> (32000.0, "")); a
    number needs a sign, a scale ("k", "grand") or a word for money to be one."""
    m = _MONEY.fullmatch(in_digits(value).strip())  # "sixty thousand" as 60000
    if m is None or not (m["sign"] or m["scale"] or m["word"]):
        return None
    amount = float(m["number"].replace(",", "")) * (1_000 if m["scale"] else 1)
    per = (m["per"] or "").lower()
    return amount, {"yr": "year", "annum": "year", "hr": "hour"}.get(per, per)


def same_money(a: str, b: str) -> bool:
    """One amount of money said two ways ("40k" / "£40,000", "45 grand" / "45k", "60k" /
    "60k a year": a span said on one side only is no other amount)?"""
    mine, theirs = money(a), money(b)
    if (mine is None) == (theirs is None):
        if mine is None or theirs is None:
            return False
    elif mine is None:  # "40,000" beside "40k": a bare number beside money is money
        mine = _bare_amount(a)
    else:
        theirs = _bare_amount(b)
    if mine is None or theirs is None:
        return False
    same_span = mine[1] == theirs[1] or not (mine[1] and theirs[1])
    return same_span and _one_amount(mine[0], theirs[0])


def _bare_amount(value: str) -> tuple[float, str] | None:
    """A number and nothing else, as an amount ("40,000" -> (40000.0, ""))."""
    m = _MONEY.fullmatch(in_digits(value).strip())
    return (float(m["number"].replace(",", "")), "") if m and not m["per"] else None
