"""The resolver on real personas: labelled pairs of statements, remembered in time order.

A pair is an earlier statement A and a later statement B about one user. Each pair is
remembered into a fresh scope of one temporary SQLite store through the public API,
`Memory.remember(A, valid_from=t)` then `Memory.remember(B, valid_from=t + gap)`, so the
gate, the key parser and the resolver all run. What B's `RememberResult` says, and what A's
status is afterwards, is scored against the pair's label.

The statements come from real persona data (the command takes the path; nothing is copied):

- MSC personas (`{"train": [...], "valid": [...]}`, lists of `{"Speaker 1": [...],
  "Speaker 2": [...]}`): clean first-person sentences, all true of one speaker at once;
- PersonaExt (JSON Lines of PersonaChat utterances, each with one `head`, `relation`,
  `tail` triple): the clause that holds the tail, detokenised ("i collect old maps ." ->
  "I collect old maps."), kept only when it starts with I / I'm / My.

The format is read from the content. The labels, with the gap between A and B:

- `duplicate` (30 days): one sentence said twice: verbatim, re-cased, or with its trailing
  period dropped or added. Right when B is a duplicate.
- `coexist` (a year): two statements that are both true: two sentences of one MSC speaker,
  or two PersonaExt clauses on one many-valued relation (`COEXIST_RELATIONS`) with unrelated
  tails and no negation. Pairs whose words mostly overlap (one's content words inside the
  other's, or Jaccard >= 0.5) are left out: they are restatements or refinements, not two
  facts. Right when B is stored (not a duplicate), nothing is flagged conflict, and A stays
  active; a refinement (which supersedes A) is right only when B holds every word of A.
- `update` (a year): one one-valued slot (`ONE_VALUED`) filled with another value, from
  templates filled with real values from the file ("I live in {A}." then "I live in {B}.";
  an MSC age n then n + 1), plus version changes ("I use Python 3.11." then "... 3.12.",
  the `versions` set, made once per run). Right when B is an update and A is superseded.
- `contradiction_same_day` (2 hours) and `contradiction_later` (a year): B negates A by a
  simple rewrite (`negate`: "I am X" / "I am not X", "I V ..." / "I do not V ...", "I have a
  ..." / "I do not have a ...", "I can V" / "I cannot V", "My X is Y" / "My X is not Y"),
  done only on one-clause sentences it can rewrite exactly. Same day: right when B is a
  conflict. A year later: right when B is an update and A is superseded.

A pair the gate refuses (A or B) is counted apart as `refused` and left out of the shares:
this measures the resolver, not the gate. The headline figures, over the pairs that ran:

- supersession precision: of the B that superseded a stored fact, the share whose pair
  expected a supersession (update, contradiction a year later, or a coexist refinement
  that holds every word of A);
- duplicate precision: of the B classified duplicate, the share labelled duplicate;
- coexistence kept: of the coexist pairs, the share where A stayed active (live, not
  flagged) and B was stored;
- contradiction recall: of the contradiction pairs (both gaps), the share that ended as
  expected (conflict the same day, update a year later).

Generation is deterministic: each (data set, label) draws from its own `random.Random`
seeded with the run's seed, and `limit` caps the pairs per label per data set.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..embed import Embedder
from ..errors import CredoError
from ..memory import Memory
from ..resolver import Relation
from ..store.base import Store
from ..store.sqlite import SQLiteStore
from .text import fit

DUPLICATE = "duplicate"
COEXIST = "coexist"
UPDATE = "update"
CONTRA_SAME_DAY = "contradiction_same_day"
CONTRA_LATER = "contradiction_later"
LABELS = (DUPLICATE, COEXIST, UPDATE, CONTRA_SAME_DAY, CONTRA_LATER)
CONTRADICTIONS = (CONTRA_SAME_DAY, CONTRA_LATER)

HOUR = 3600.0
DAY = 24 * HOUR
YEAR = 365 * DAY
#: how long after A each label's B is said
GAPS = {
    DUPLICATE: 30 * DAY,
    COEXIST: YEAR,
    UPDATE: YEAR,
    CONTRA_SAME_DAY: 2 * HOUR,
    CONTRA_LATER: YEAR,
}
#: A's date (B's is A's plus the gap); every pair has its own scope, so one date serves all
START = 1677661200.0  # 2023-03-01 09:00 UTC
DEFAULT_LIMIT = 200
DEFAULT_SEED = 0
VERSIONS = "versions"  # the data set of version-change pairs, made once per run
RELATIONS = ("new", "duplicate", "refinement", "update", "conflict")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: PersonaExt relations (schema.json) that hold one value at a time: a new value replaces
#: the old one. Read from the schema's types: identity (name, age, gender, sexual
#: orientation, race), where one lives now (city/state/country), the one employer, job and
#: school status, work schedule, marital status, diet, and every `favorite_<category>` (one
#: favourite per category). Everything else is many-valued: when in doubt, keep both
#: (live_in_general, nationality, place_origin, has_profession and attend_school included).
ONE_VALUED = _wordset(
    """
    name has_age gender sexual_orientation race live_in_citystatecountry employed_by_company
    job_status school_status work_schedule marital_status diet favorite_food favorite_color
    favorite_book favorite_movie favorite_music favorite_music_artist favorite_activity
    favorite_drink favorite_show favorite_place favorite_hobby favorite_season
    favorite_animal favorite_sport
    """
)
#: the many-valued relations coexist pairs are drawn from: the ones where two different
#: values are plainly both true (likes, pets, things owned, skills). Many-valued relations
#: whose values can still exclude each other (live_in_general: a farm / an apartment;
#: have_chidren: 2 kids / three daughters) are left out of the labels, not declared
#: one-valued.
COEXIST_RELATIONS = _wordset(
    """
    like_activity like_food like_drink like_animal like_general like_music like_read
    like_watching like_movie like_sports like_goto like_color have_pet own have_vehicle
    has_ability has_hobby collect dislike dislike_food dislike_activity dislike_animal
    dislike_drink member_of
    """
)


class ResolverDataError(CredoError, ValueError):
    """The data file cannot be used; the message names the file and the problem."""


# -- pairs and outcomes -----------------------------------------------------------------------
@dataclass(frozen=True)
class Pair:
    id: str  # also the scope it runs in
    label: str
    kind: str  # how it was made: "msc:recased", "template:live_in", "negation:am", ...
    dataset: str
    a: str
    b: str
    gap: float  # seconds from A to B

    @property
    def expected(self) -> str:
        return {
            DUPLICATE: "duplicate",
            COEXIST: "both kept (new)",
            UPDATE: "update, A superseded",
            CONTRA_SAME_DAY: "conflict",
            CONTRA_LATER: "update, A superseded",
        }[self.label]

    @property
    def refinement_ok(self) -> bool:
        """B says all A says: superseding A by refinement loses nothing."""
        return _word_set(self.a) <= _word_set(self.b)

    @property
    def expects_supersession(self) -> bool:
        return self.label in (UPDATE, CONTRA_LATER) or (
            self.label == COEXIST and self.refinement_ok
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "kind": self.kind,
            "dataset": self.dataset,
            "a": self.a,
            "b": self.b,
            "gap_days": self.gap / DAY,
        }


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    a_relation: str | None  # None: the gate refused A (B was not run)
    b_relation: str | None  # None: the gate refused B
    a_status: str | None = None  # A's status after B
    superseded: bool = False  # B superseded a stored fact
    why: str = ""
    code: str = ""  # the gate's category when it refused A or B

    @property
    def refused(self) -> bool:
        return self.a_relation is None or self.b_relation is None

    @property
    def got(self) -> str:
        if self.a_relation is None:
            return f"A refused by the gate ({self.why})"
        if self.b_relation is None:
            return f"B refused by the gate ({self.why})"
        return f"{self.b_relation}; A {self.a_status}"

    @property
    def right(self) -> bool:
        """Whether the resolver did what the label expects (False for refused pairs)."""
        if self.refused:
            return False
        label, rel, a = self.pair.label, self.b_relation, self.a_status
        if label == DUPLICATE:
            return rel == "duplicate"
        if label == COEXIST:
            if rel == "new":
                return a == "active"
            return rel == "refinement" and self.pair.refinement_ok
        if label in (UPDATE, CONTRA_LATER):
            return rel == "update" and a == "superseded"
        if label == CONTRA_SAME_DAY:
            return rel == "conflict"
        raise ValueError(f"unknown label {label!r}")

    @property
    def coexisted(self) -> bool:
        """A stayed active and B was stored beside it (the strict coexistence test)."""
        return (
            not self.refused
            and self.b_relation in ("new", "refinement")
            and self.a_status == "active"
        )


# -- reading -----------------------------------------------------------------------------------
@dataclass
class Dataset:
    name: str
    format: str  # "msc" or "personaext"
    personas: list[list[str]] = field(default_factory=list)  # msc: one list per speaker
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # personaext: clean
    # (sentence, relation, tail), the sentence first-person and holding the tail


def read_dataset(path: str | Path, name: str | None = None) -> Dataset:
    """Read an MSC personas file or a PersonaExt JSON Lines file (told apart by content)."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ResolverDataError(f"cannot read {path}: {exc}") from exc
    name = name or path.stem
    try:
        whole: Any = json.loads(raw)
    except json.JSONDecodeError:
        whole = None
        lines = []
        for n, line in enumerate(raw.splitlines(), 1):
            if not line.strip():
                continue
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ResolverDataError(
                    f"{path}:{n}: neither one JSON document nor JSON Lines ({exc.msg})"
                ) from exc
    if whole is not None:
        if _is_personaext_row(whole):
            return _personaext(name, [whole], path)
        items = _msc_items(whole)
        if items is None:
            raise ResolverDataError(
                f"{path}: not MSC personas (a list, or a mapping of lists, of "
                "{'Speaker 1': [...], 'Speaker 2': [...]}) nor PersonaExt JSON Lines"
            )
        return _msc(name, items, path)
    return _personaext(name, lines, path)


def _is_personaext_row(row: Any) -> bool:
    return isinstance(row, dict) and all(
        isinstance(row.get(k), str) for k in ("text", "relation", "tail")
    )


def _msc_items(data: Any) -> list[dict[str, Any]] | None:
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        if not lists:
            return None
        items = [item for lst in lists for item in lst]
    elif isinstance(data, list):
        items = data
    else:
        return None
    if not items or not all(
        isinstance(i, dict) and any(k.startswith("Speaker") for k in i) for i in items
    ):
        return None
    return items


def _msc(name: str, items: list[dict[str, Any]], path: Path) -> Dataset:
    personas = []
    for item in items:
        for key in sorted(k for k in item if k.startswith("Speaker")):
            sentences = item[key]
            if not isinstance(sentences, list):
                continue
            clean = [_clean_msc(s) for s in sentences if isinstance(s, str)]
            unique = list(dict.fromkeys(s for s in clean if s))
            if unique:
                personas.append(unique)
    if not personas:
        raise ResolverDataError(f"{path}: MSC personas file with no sentences")
    return Dataset(name, "msc", personas=personas)


def _clean_msc(sentence: str) -> str:
    s = " ".join(sentence.replace("\u2019", "'").split())
    return "" if not s or s.endswith("?") else s


def _personaext(name: str, rows: list[Any], path: Path) -> Dataset:
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for n, row in enumerate(rows, 1):
        if not _is_personaext_row(row):
            raise ResolverDataError(f"{path}: line {n} lacks 'text', 'relation' or 'tail'")
        sentence = personaext_sentence(row["text"], row["tail"])
        if sentence is None:
            continue
        entry = (sentence, row["relation"], " ".join(row["tail"].lower().split()))
        if entry not in seen:
            seen.add(entry)
            kept.append(entry)
    if not kept:
        raise ResolverDataError(f"{path}: no first-person PersonaExt sentence found")
    return Dataset(name, "personaext", rows=kept)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CLITIC = re.compile(r" (n't|'s|'m|'re|'ve|'ll|'d)\b")
_FIRST_PERSON = re.compile(r"^(I|I'm|My) ")
#: chat to the partner, not a statement about oneself
_CHATTY = re.compile(r"\b(you|your|u|lol|haha|hahaha|lmao|omg)\b")


def detokenize(text: str) -> str:
    """PersonaChat's tokenised lower case to a sentence: "i 'm a nurse ." -> "I'm a nurse."."""
    t = " ".join(text.split())
    t = re.sub(r" ([.,!?;:])", r"\1", t)
    t = _CLITIC.sub(r"\1", t)
    t = re.sub(r"\bi\b", "I", t)
    t = t[:1].upper() + t[1:]
    if t and t[-1] not in ".!?":
        t += "."
    return t


def personaext_sentence(text: str, tail: str) -> str | None:
    """The first-person sentence of an utterance that holds the tail, or None."""
    tail_re = re.compile(r"\b" + re.escape(" ".join(tail.lower().split())) + r"\b")
    for piece in _SENTENCE_END.split(" ".join(text.lower().split())):
        piece = piece.strip()
        if not piece or piece.endswith("?") or not tail_re.search(piece):
            continue
        sentence = detokenize(piece)
        words = len(sentence.split())
        if _FIRST_PERSON.match(sentence) and 3 <= words <= 14 and not _CHATTY.search(piece):
            return sentence
    return None


# -- negation ----------------------------------------------------------------------------------
_CLAUSE = re.compile(
    r"[,;:()\"!?]|\b(and|but|or|because|so|when|while|if|although|though|unless|until|"
    r"since|whereas|except|nor|yet|then|who|which|that|where|whose|whom)\b",
    re.I,
)
_NEGATIVE = _wordset(
    """
    not no never nothing nobody none nowhere neither cannot without dont cant wont isnt
    arent doesnt didnt wasnt havent hasnt couldnt wouldnt shouldnt aint
    """
)
#: words that make a negation change more than the truth value ("I like cats too", "I like
#: all genres"), or that lean on context the pair does not carry ("I drive my dogs in it")
_AWKWARD = _wordset(
    """
    too either anymore also again already still any some only even always usually often
    sometimes rarely seldom hardly just mostly really actually probably definitely maybe
    perhaps almost ever i i'm i've i'd i'll me myself we they he she it them this these those
    here there all every everything well
    """
)
#: verbs whose first-person present is their base form ("I play" -> "I do not play")
NEGATABLE_VERBS = _wordset(
    """
    like love enjoy hate prefer play own eat drink work live drive read watch listen want
    need go wear speak write cook run swim ride collect smoke volunteer teach study attend
    know sing dance paint hike travel use believe practice fish hunt exercise bake grow
    raise walk surf knit sew garden shop sleep draw vote gamble keep follow support visit
    make build rescue donate belong spend sell fix design coach train lift jog bike camp
    climb ski skate bowl golf tutor mentor babysit pray meditate rent save get take care
    cycle homeschool foster adopt breed farm fly sail row
    """
)
_DETERMINERS = _wordset(
    """
    a an the one two three four five six seven eight nine ten many several lots my pets kids
    children tattoos siblings brothers sisters dogs cats horses allergies
    """
)
_NEG_PREFIX = (
    (re.compile(r"^I (?:do not|don't|dont) (\S.*)$", re.I), "I {}", "do-not"),
    (re.compile(r"^I (?:cannot|can't|can not) (\S.*)$", re.I), "I can {}", "cannot"),
    (re.compile(r"^I am not (\S.*)$", re.I), "I am {}", "am-not"),
    (re.compile(r"^I'm not (\S.*)$", re.I), "I'm {}", "am-not"),
    (re.compile(r"^(My(?: [a-z]+){1,3}) (is|are) not (\S.*)$"), "{} {} {}", "my-is-not"),
)


def negate(sentence: str) -> tuple[str, str] | None:
    """(B, rule) where B says exactly the opposite of a one-clause first-person `sentence`,
    or None when no simple rewrite is certainly right."""
    s = " ".join(sentence.replace("\u2019", "'").split())
    if s.endswith("."):
        s = s[:-1].rstrip()
    if not s or _CLAUSE.search(s) or len(s.split()) > 14:
        return None
    words = s.split()
    # negative -> positive: the rest must hold no other negation
    for pattern, template, rule in _NEG_PREFIX:
        m = pattern.match(s)
        if not m:
            continue
        groups = m.groups()
        rest = groups[-1].split()
        if _negative(rest) or any(w.lower() in _AWKWARD for w in rest):
            return None
        if rule == "do-not" and rest[0].lower() not in NEGATABLE_VERBS | {"have"}:
            return None
        return template.format(*groups) + ".", rule
    if _negative(words[1:]) or any(w.lower() in _AWKWARD for w in words[1:]):
        return None
    head = words[0]
    if head == "My":  # My favorite color is blue -> My favorite color is not blue
        m = re.match(r"^(My(?: [a-z]+){1,3}) (is|are) (\S.*)$", s)
        return (f"{m.group(1)} {m.group(2)} not {m.group(3)}.", "my-is") if m else None
    if head == "I'm" and len(words) > 1:
        return f"I'm not {' '.join(words[1:])}.", "am"
    if head != "I" or len(words) < 2:
        return None
    verb, rest = words[1].lower(), words[2:]
    if verb == "am" and rest:
        return f"I am not {' '.join(rest)}.", "am"
    if verb == "can" and rest:
        return f"I cannot {' '.join(rest)}.", "can"
    if verb == "have" and rest and rest[0].lower() in _DETERMINERS:
        return f"I do not have {' '.join(rest)}.", "have"
    if verb in NEGATABLE_VERBS and words[1] == verb:  # lower case verb, as written
        return f"I do not {' '.join(words[1:])}.", "do"
    return None


def _negative(words: Iterable[str]) -> bool:
    return any(w.lower() in _NEGATIVE or w.lower().endswith("n't") for w in words)


# -- update templates --------------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    name: str
    text: str  # "I live in {}."
    msc: str  # a pattern over whole MSC sentences; group 1 is the value
    personaext: str | None = None  # the PersonaExt relation whose tails fill it
    proper: bool = True  # a proper name: title-cased when read from PersonaExt
    allowed: frozenset[str] = frozenset()  # if set, the only values (lower case)
    exclude: frozenset[str] = frozenset()  # PersonaExt tails that are not values
    min_count: int = 2  # PersonaExt tails seen fewer times are typos more often than not


_PROPER = r"([A-Z][\w'&-]*(?: [A-Z][\w'&-]*){0,3})"
TEMPLATES = (
    Template(
        "live_in",
        "I live in {}.",
        rf"^I live in {_PROPER}\.?$",
        "live_in_citystatecountry",
        exclude=frozenset({"apartment", "big city", "the states", "usa", "united states"}),
    ),
    Template(
        "works_at",
        "I work at {}.",
        rf"^I work (?:at|for) {_PROPER}\.?$",
        "employed_by_company",
        exclude=frozenset(
            {
                "bank",
                "telecom",
                "computer company",
                "navy",
                "online",
                "military",
                "greeting card",
                "at a power plant",
                "at power plant",
                "a bookstore",
                "bookstore",
                "grocery store",
                "army ranger",
                "ceo of taco bell",
                "googles",
                "mcdonald",
                "aldis",
                "scrubway",
                "school",
            }
        ),
    ),
    Template(
        "name",
        "My name is {}.",
        r"^My name is ([A-Z][a-z]+)\.?$",
        "name",
        exclude=frozenset({"cow", "cows"}),
    ),
    Template(
        "marital_status",
        "I am {}.",
        r"^I am (married|single|divorced|engaged|widowed)\.?$",
        "marital_status",
        proper=False,
        allowed=frozenset({"married", "single", "divorced", "engaged", "widowed"}),
    ),
    Template(
        "favorite_color",
        "My favorite color is {}.",
        r"^My favou?rite colou?r is ([a-z]+)\.?$",
        "favorite_color",
        proper=False,
        exclude=frozenset({"oranges", "purples", "greene", "bleu", "plaid"}),
    ),
    Template(
        "favorite_season",
        "My favorite season is {}.",
        r"^My favou?rite season is ([a-z]+)\.?$",
        "favorite_season",
        proper=False,
        allowed=frozenset({"winter", "summer", "fall", "autumn", "spring"}),
    ),
    Template(
        "favorite_food",
        "My favorite food is {}.",
        r"^My favou?rite food is ([a-z]+(?: [a-z]+)?)\.?$",
        "favorite_food",
        proper=False,
    ),
    Template(
        "favorite_drink",
        "My favorite drink is {}.",
        r"^My favou?rite drink is ([a-z]+(?: [a-z]+)?)\.?$",
        "favorite_drink",
        proper=False,
    ),
    Template(
        "favorite_sport",
        "My favorite sport is {}.",
        r"^My favou?rite sport is ([a-z]+)\.?$",
        "favorite_sport",
        proper=False,
        exclude=frozenset({"washington nationals"}),
    ),
    Template(
        "favorite_show",
        "My favorite show is {}.",
        rf"^My favou?rite (?:tv )?show is {_PROPER}\.?$",
        "favorite_show",
    ),
    Template(
        "favorite_movie",
        "My favorite movie is {}.",
        rf"^My favou?rite movie is {_PROPER}\.?$",
        "favorite_movie",
        exclude=frozenset(
            {
                "horror",
                "disney movies",
                "documentary",
                "disney movie",
                "good burgers",
                "pretty women",
            }
        ),
    ),
)
_AGE = re.compile(r"^I am (\d{1,2}) years old\.?$")
_UPPER = frozenset({"ibm", "nasa", "peta", "ups", "csi", "usa", "mit", "usc", "ucla", "nyc"})
_SMALL = frozenset({"a", "an", "and", "the", "of", "in", "on", "at", "with", "for", "to"})
_SPECIAL = {"mcdonalds": "McDonald's", "mcdonald's": "McDonald's"}

#: (tool, versions oldest first); each phrasing below is said with an older then a newer one
VERSION_TOOLS = (
    ("Python", ("3.9", "3.10", "3.11", "3.12", "3.13")),
    ("Node.js", ("16", "18", "20", "22")),
    ("PostgreSQL", ("13", "14", "15", "16", "17")),
    ("Java", ("11", "17", "21")),
    ("Ubuntu", ("20.04", "22.04", "24.04")),
    ("React", ("16", "17", "18", "19")),
    ("Django", ("3.2", "4.2", "5.0", "5.1")),
    ("Go", ("1.20", "1.21", "1.22", "1.23")),
    ("TypeScript", ("4.9", "5.0", "5.4")),
    ("Rails", ("6.1", "7.0", "7.1")),
)
VERSION_PHRASES = ("I use {tool} {v}.", "I'm on {tool} {v}.", "My project runs on {tool} {v}.")


def _display(value: str, proper: bool) -> str:
    value = " ".join(value.split())
    if not proper:
        return value.lower()
    if value.lower() in _SPECIAL:
        return _SPECIAL[value.lower()]
    words = value.lower().split()
    return " ".join(
        w.upper() if w in _UPPER else w if i and w in _SMALL else w[:1].upper() + w[1:]
        for i, w in enumerate(words)
    )


def template_values(template: Template, dataset: Dataset) -> list[str]:
    """The real values the data set gives a template, in first-seen order, display-cased."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    if dataset.format == "msc":
        pattern = re.compile(template.msc)
        for persona in dataset.personas:
            for sentence in persona:
                m = pattern.match(sentence)
                if m:
                    value = m.group(1)
                    shown.setdefault(value.lower(), value if template.proper else value.lower())
                    counts[value.lower()] += 1
        minimum = 1
    else:
        for _, relation, tail in dataset.rows:
            if relation == template.personaext:
                shown.setdefault(tail, _display(tail, template.proper))
                counts[tail] += 1
        minimum = template.min_count
    keep = []
    for key, n in counts.items():
        if template.allowed and key not in template.allowed:
            continue
        if key in template.exclude or (n < minimum and not template.allowed):
            continue
        keep.append(shown[key])
    return keep


def _stems(text: str) -> set[str]:
    return {w.rstrip("s") if len(w) > 3 else w for w in re.findall(r"[a-z0-9]+", text.lower())}


def _word_set(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text.lower()))


_STOP = _wordset(
    """
    i a an the am is are my to of in on at and for with i'm me be have do it like love
    """
)


def _overlapping(a: str, b: str) -> bool:
    """Two sentences that say much the same: content words nested, or Jaccard >= 0.5."""
    wa, wb = _word_set(a) - _STOP, _word_set(b) - _STOP
    if not wa or not wb or wa <= wb or wb <= wa:
        return True
    return len(wa & wb) / len(wa | wb) >= 0.5


# -- pair generation ---------------------------------------------------------------------------
Draft = tuple[str, str, str]  # (kind, a, b)


def _rng(seed: int, dataset: str, label: str) -> random.Random:
    return random.Random(f"{seed}:{dataset}:{label}")


def _sentences(dataset: Dataset) -> list[str]:
    if dataset.format == "msc":
        return list(dict.fromkeys(s for p in dataset.personas for s in p))
    return list(dict.fromkeys(s for s, _, _ in dataset.rows))


def duplicate_drafts(dataset: Dataset, rng: random.Random, limit: int) -> list[Draft]:
    pool = _sentences(dataset)
    rng.shuffle(pool)
    out: list[Draft] = []
    variants = ("same", "recased", "period")
    for sentence in pool:
        if len(out) >= limit:
            break
        variant = variants[len(out) % len(variants)]
        if variant == "same":
            b = sentence
        elif variant == "recased":
            b = sentence.lower() if sentence.lower() != sentence else sentence.upper()
        else:
            b = sentence[:-1] if sentence.endswith(".") else sentence + "."
        out.append((f"{dataset.format}:{variant}", sentence, b))
    return out


def coexist_drafts(dataset: Dataset, rng: random.Random, limit: int) -> list[Draft]:
    out: list[Draft] = []
    if dataset.format == "msc":
        order = list(range(len(dataset.personas)))
        rng.shuffle(order)
        for index in order:
            if len(out) >= limit:
                break
            persona = dataset.personas[index]
            if len(persona) < 2:
                continue
            candidates = [
                (x, y) for x in persona for y in persona if x != y and not _overlapping(x, y)
            ]
            if candidates:
                a, b = rng.choice(candidates)
                out.append(("msc:same-speaker", a, b))
        return out
    by_relation: dict[str, list[tuple[str, str]]] = {}
    for sentence, relation, tail in dataset.rows:
        if relation in COEXIST_RELATIONS and not _negative(sentence.lower().split()):
            by_relation.setdefault(relation, []).append((sentence, tail))
    relations = sorted(r for r, rows in by_relation.items() if len(rows) >= 2)
    attempts = 0
    while len(out) < limit and relations and attempts < 50 * limit:
        attempts += 1
        relation = relations[attempts % len(relations)]
        (a, tail_a), (b, tail_b) = rng.sample(by_relation[relation], 2)
        if (
            _stems(tail_a) & _stems(tail_b)
            or _overlapping(a, b)
            or re.search(r"\b" + re.escape(tail_a) + r"\b", b.lower())
            or re.search(r"\b" + re.escape(tail_b) + r"\b", a.lower())
        ):
            continue
        draft = (f"personaext:{relation}", a, b)
        if draft not in out:
            out.append(draft)
    return out


def update_drafts(dataset: Dataset, rng: random.Random, limit: int) -> list[Draft]:
    pools: list[list[Draft]] = []
    for template in TEMPLATES:
        values = template_values(template, dataset)
        drafts: list[Draft] = []
        seen: set[tuple[str, str]] = set()
        for _ in range(20 * limit):
            if len(values) < 2 or len(drafts) >= limit:
                break
            va, vb = rng.sample(values, 2)
            if (va, vb) in seen or _stems(va) & _stems(vb):
                continue
            seen.add((va, vb))
            drafts.append(
                (f"template:{template.name}", template.text.format(va), template.text.format(vb))
            )
        if drafts:
            pools.append(drafts)
    if dataset.format == "msc":
        ages = sorted(
            {int(m.group(1)) for p in dataset.personas for s in p for m in [_AGE.match(s)] if m}
        )
        rng.shuffle(ages)
        ages_drafts: list[Draft] = [
            ("template:age", f"I am {n} years old.", f"I am {n + 1} years old.")
            for n in ages
            if n >= 1
        ]
        if ages_drafts:
            pools.append(ages_drafts)
    return _round_robin(pools, limit)


def version_drafts(rng: random.Random, limit: int) -> list[Draft]:
    pools = []
    for tool, versions in VERSION_TOOLS:
        drafts: list[Draft] = [
            (f"version:{tool}", phrase.format(tool=tool, v=old), phrase.format(tool=tool, v=new))
            for i, old in enumerate(versions)
            for new in versions[i + 1 :]
            for phrase in VERSION_PHRASES
        ]
        rng.shuffle(drafts)
        pools.append(drafts)
    return _round_robin(pools, limit)


def contradiction_drafts(dataset: Dataset, rng: random.Random, limit: int) -> list[Draft]:
    """Up to `limit` negation pairs (a sentence, its negation), in a seeded order."""
    pool = _sentences(dataset)
    rng.shuffle(pool)
    out: list[Draft] = []
    for sentence in pool:
        if len(out) >= limit:
            break
        negated = negate(sentence)
        if negated is None:
            continue
        b, rule = negated
        out.append((f"negation:{rule}", sentence, b))
    return out


def _round_robin(pools: list[list[Draft]], limit: int) -> list[Draft]:
    out: list[Draft] = []
    index = 0
    while len(out) < limit and any(index < len(p) for p in pools):
        for pool in pools:
            if index < len(pool) and len(out) < limit:
                out.append(pool[index])
        index += 1
    return out


def build_pairs(
    datasets: Sequence[Dataset],
    *,
    limit: int = DEFAULT_LIMIT,
    seed: int = DEFAULT_SEED,
    versions: bool = True,
) -> list[Pair]:
    """Every labelled pair of a run, in a fixed order, each with its own scope id."""
    if limit <= 0:
        raise ValueError("limit must be a positive number")
    drafts: list[tuple[str, str, Draft]] = []
    for ds in datasets:
        by_label: dict[str, list[Draft]] = {
            DUPLICATE: duplicate_drafts(ds, _rng(seed, ds.name, DUPLICATE), limit),
            COEXIST: coexist_drafts(ds, _rng(seed, ds.name, COEXIST), limit),
            UPDATE: update_drafts(ds, _rng(seed, ds.name, UPDATE), limit),
        }
        contra = contradiction_drafts(ds, _rng(seed, ds.name, "contradiction"), 2 * limit)
        # alternate, so that a small pool still gives both gaps
        by_label[CONTRA_SAME_DAY] = contra[0::2][:limit]
        by_label[CONTRA_LATER] = contra[1::2][:limit]
        for label in LABELS:
            drafts.extend((ds.name, label, d) for d in by_label[label])
    if versions:
        drafts.extend(
            (VERSIONS, UPDATE, d) for d in version_drafts(_rng(seed, VERSIONS, UPDATE), limit)
        )
    width = max(4, len(str(len(drafts))))
    return [
        Pair(f"p{i:0{width}d}", label, kind, name, a, b, GAPS[label])
        for i, (name, label, (kind, a, b)) in enumerate(drafts, 1)
    ]


# -- running -----------------------------------------------------------------------------------
def run_pair(store: Store, pair: Pair, *, start: float = START) -> Outcome:
    """Remember A then B (B `pair.gap` seconds later) in the pair's own scope."""
    mem = Memory(store, scope=pair.id)
    ra = mem.remember(pair.a, valid_from=start)
    if not ra.accepted or ra.fact is None:
        return Outcome(pair, None, None, why=ra.why, code=ra.code)
    rb = mem.remember(pair.b, valid_from=start + pair.gap)
    after = store.get(ra.fact.id, scope=pair.id)
    a_status = after.status.value if after is not None else "missing"
    if not rb.accepted or rb.relation is None:
        return Outcome(
            pair,
            ra.relation.value if ra.relation else "new",
            None,
            a_status,
            why=rb.why,
            code=rb.code,
        )
    # a B of several statements is stored as several facts (`also`): what happened to B
    # is what happened to any of them, a duplicate only if every stored part was one
    parts = [r for r in (rb, *rb.also) if r.accepted and r.relation is not None]
    # the part that bears on A tells what became of it ("grew up in cork, now i'm based
    # in lyon" after "i live in paris": the second part updates A, the first is new)
    told = next(
        (r for r in parts if any(f.id == ra.fact.id for f in r.touched)),
        next((r for r in parts if r.relation is not Relation.DUPLICATE), rb),
    )
    superseded = any(f.status.value == "superseded" for r in parts for f in r.touched)
    return Outcome(
        pair,
        ra.relation.value if ra.relation else "new",
        told.relation.value if told.relation else rb.relation.value,
        a_status,
        superseded,
        told.why,
    )


def run_pairs(
    pairs: Sequence[Pair], store: Store, *, progress: Callable[[str], None] | None = None
) -> list[Outcome]:
    outcomes = []
    for n, pair in enumerate(pairs, 1):
        outcomes.append(run_pair(store, pair))
        if progress and (n % 250 == 0 or n == len(pairs)):
            progress(f"{n}/{len(pairs)} pairs")
    return outcomes


# -- scoring -----------------------------------------------------------------------------------
@dataclass
class LabelStats:
    n: int = 0
    refused: int = 0
    right: int = 0
    got: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)  # gate code -> pairs

    @property
    def ran(self) -> int:
        return self.n - self.refused

    @property
    def share(self) -> float | None:
        return self.right / self.ran if self.ran else None

    def add(self, o: Outcome) -> None:
        self.n += 1
        if o.refused:
            self.refused += 1
            self.refusals[o.code or "?"] += 1
            return
        self.right += o.right
        self.got[o.b_relation or "refused"] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "refused": self.refused,
            "ran": self.ran,
            "right": self.right,
            "share": _round(self.share),
            "got": dict(self.got),
            "refused_by": dict(self.refusals),
        }


@dataclass(frozen=True)
class Ratio:
    right: int
    of: int

    @property
    def value(self) -> float | None:
        return self.right / self.of if self.of else None


HEADLINES = (
    "supersession_precision",
    "duplicate_precision",
    "coexistence_kept",
    "contradiction_recall",
)


@dataclass
class ResolverReport:
    outcomes: list[Outcome]
    embedder: str = ""
    data: list[str] = field(default_factory=list)
    seed: int = DEFAULT_SEED
    limit: int = DEFAULT_LIMIT
    seconds: float = 0.0
    examples: int = 3

    def labels(self, dataset: str | None = None) -> dict[str, LabelStats]:
        stats = {label: LabelStats() for label in LABELS}
        for o in self.outcomes:
            if dataset is None or o.pair.dataset == dataset:
                stats[o.pair.label].add(o)
        return stats

    def datasets(self) -> list[str]:
        return list(dict.fromkeys(o.pair.dataset for o in self.outcomes))

    def kinds(self) -> dict[str, LabelStats]:
        stats: dict[str, LabelStats] = {}
        for o in self.outcomes:
            stats.setdefault(f"{o.pair.label} {o.pair.kind}", LabelStats()).add(o)
        return dict(sorted(stats.items()))

    def headline(self) -> dict[str, Ratio]:
        ran = [o for o in self.outcomes if not o.refused]
        superseding = [o for o in ran if o.superseded]
        duplicates = [o for o in ran if o.b_relation == "duplicate"]
        coexist = [o for o in ran if o.pair.label == COEXIST]
        contra = [o for o in ran if o.pair.label in CONTRADICTIONS]
        return {
            "supersession_precision": Ratio(
                sum(o.pair.expects_supersession for o in superseding), len(superseding)
            ),
            "duplicate_precision": Ratio(
                sum(o.pair.label == DUPLICATE for o in duplicates), len(duplicates)
            ),
            "coexistence_kept": Ratio(sum(o.coexisted for o in coexist), len(coexist)),
            "contradiction_recall": Ratio(sum(o.right for o in contra), len(contra)),
        }

    def failures(self, label: str, k: int | None = None) -> list[Outcome]:
        bad = [o for o in self.outcomes if o.pair.label == label and not o.right and not o.refused]
        return bad[: self.examples if k is None else k]

    @property
    def remembers(self) -> int:
        return sum(1 if o.a_relation is None else 2 for o in self.outcomes)

    def to_dict(self) -> dict[str, Any]:
        heads = self.headline()
        return {
            "embedder": self.embedder,
            "data": self.data,
            "seed": self.seed,
            "limit_per_label": self.limit,
            "pairs": len(self.outcomes),
            "seconds": round(self.seconds, 2),
            "ms_per_remember": round(1000 * self.seconds / max(1, self.remembers), 2),
            "headline": {name: _round(r.value) for name, r in heads.items()},
            "headline_counts": {name: {"right": r.right, "of": r.of} for name, r in heads.items()},
            "labels": {label: s.to_dict() for label, s in self.labels().items()},
            "datasets": {
                name: {label: s.to_dict() for label, s in self.labels(name).items() if s.n}
                for name in self.datasets()
            },
            "kinds": {name: s.to_dict() for name, s in self.kinds().items()},
            "failures": {label: [_example(o) for o in self.failures(label)] for label in LABELS},
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _example(o: Outcome) -> dict[str, Any]:
    return {
        "id": o.pair.id,
        "dataset": o.pair.dataset,
        "kind": o.pair.kind,
        "a": o.pair.a,
        "b": o.pair.b,
        "expected": o.pair.expected,
        "got": o.got,
        "why": o.why,
    }


def score(outcomes: Sequence[Outcome], **meta: Any) -> ResolverReport:
    return ResolverReport(list(outcomes), **meta)


def evaluate(
    paths: Sequence[str | Path],
    embedder: Embedder,
    *,
    limit: int = DEFAULT_LIMIT,
    seed: int = DEFAULT_SEED,
    examples: int = 3,
    progress: Callable[[str], None] | None = None,
) -> ResolverReport:
    """Read the files, build the pairs, run them in one temporary SQLite file."""
    names: list[str] = []
    datasets = []
    for path in paths:
        name = Path(path).stem
        while name in names or name == VERSIONS:
            name += "'"
        names.append(name)
        datasets.append(read_dataset(path, name))
    pairs = build_pairs(datasets, limit=limit, seed=seed)
    if progress:
        progress(f"{len(pairs)} pairs from {', '.join(names)} (+ {VERSIONS})")
    with tempfile.TemporaryDirectory(prefix="credo-resolver-") as tmp:
        store = SQLiteStore(Path(tmp) / "resolver.db", embedder)
        try:
            begin = time.perf_counter()
            outcomes = run_pairs(pairs, store, progress=progress)
            seconds = time.perf_counter() - begin
        finally:
            store.close()
    return score(
        outcomes,
        embedder=embedder.name,
        data=[str(p) for p in paths],
        seed=seed,
        limit=limit,
        seconds=seconds,
        examples=examples,
    )


# -- output ------------------------------------------------------------------------------------
def _fmt(value: float | None) -> str:
    return "   n/a" if value is None else f"{value:6.3f}"


def _table(stats: dict[str, LabelStats]) -> list[str]:
    head = (
        "label".ljust(23)
        + "pairs".rjust(6)
        + "refused".rjust(8)
        + "right".rjust(6)
        + "share".rjust(7)
        + "".join(r[:4].rjust(6) for r in RELATIONS)
    )
    lines = [head, "-" * len(head)]
    for label, s in stats.items():
        if not s.n:
            continue
        lines.append(
            label.ljust(23)
            + str(s.n).rjust(6)
            + str(s.refused).rjust(8)
            + str(s.right).rjust(6)
            + " "
            + _fmt(s.share)
            + "".join(str(s.got.get(r, 0)).rjust(6) for r in RELATIONS)
        )
    return lines


def format_report(report: ResolverReport) -> str:
    heads = report.headline()
    lines = [
        f"credo resolver on real personas: embedder={report.embedder}, seed={report.seed}, "
        f"limit={report.limit} per label and data set, {len(report.outcomes)} pairs",
        "data: " + "\n      ".join(report.data),
        "",
        "all data sets (share = right / (pairs - refused); the last five columns count "
        "what B was classified as)",
        *_table(report.labels()),
    ]
    refusals = [
        f"{label} " + ", ".join(f"{code} {n}" for code, n in s.refusals.most_common())
        for label, s in report.labels().items()
        if s.refusals
    ]
    if refusals:
        lines.append("refused by the gate (not scored): " + "; ".join(refusals))
    for name in report.datasets():
        lines += ["", f"{name}:", *_table(report.labels(name))]
    lines += ["", "headline"]
    notes = {
        "supersession_precision": "B that superseded a fact, where that was expected",
        "duplicate_precision": "B classified duplicate, labelled duplicate",
        "coexistence_kept": "coexist pairs with A still active and B stored",
        "contradiction_recall": "contradictions ending as conflict (same day) / update "
        "(a year later)",
    }
    for name in HEADLINES:
        r = heads[name]
        lines.append(
            f"  {name.replace('_', ' '):<24}{_fmt(r.value)}   {r.right}/{r.of}: {notes[name]}"
        )
    shown = False
    for label in LABELS:
        bad = report.failures(label)
        if not bad:
            continue
        if not shown:
            lines += ["", "failing examples"]
            shown = True
        lines.append(f"  {label} (expected {bad[0].pair.expected}):")
        for o in bad:
            lines.append(f"    [{o.pair.id} {o.pair.kind}] A: {o.pair.a!r}  B: {o.pair.b!r}")
            lines.append(f"      got {o.got}: {o.why}")
    lines += [
        "",
        f"time: {report.seconds:.1f}s for {report.remembers} remembers "
        f"({1000 * report.seconds / max(1, report.remembers):.1f} ms each)",
    ]
    return fit("\n".join(lines))
