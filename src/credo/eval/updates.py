"""Knowledge updates: after a sequence of dated statements, does credo hold what is true now,
what was true then, and nothing stale? Scored without an LLM judge.

A sequence is a list of dated steps, each a statement (`say`, with the value it asserts)
or a retraction (`retract`, naming the value whose fact is withdrawn), then a question
and what the answer should hold:

- `current`: the values true now (one for a one-valued key, several when they coexist:
  "I like tea" then "I like coffee" is no update, both stay);
- `stale`: values that were true once and are not now;
- `retracted`: values withdrawn ("that's wrong");
- `conflict: true`: the statements contradict each other and nothing settles it (the same
  day, or a less trusted source), so both sides must be shown, with the warning;
- `as_of` and `then`: a date before the change and the value true at that date.

Each sequence runs in its own scope of one temporary SQLite store, through the public API
(`Memory.remember` with `valid_from`, `Memory.retract`), with the clock set just after the
last step. Each step's value names the fact its `RememberResult` stands for, so what recall
returns is matched by fact, not by words. The question is then asked:

- `recall(question, k)` and `for_prompt(question, k)` (the block an agent puts in a prompt);
- `recall(question, k, as_of=as_of)`.

The figures, each over the sequences it applies to:

- update precedence: the first recalled fact that carries a labelled value carries a
  current one, and every current value is in the rendered block (for conflicts, see
  contradiction surfacing instead);
- stale-leak rate: the share of sequences whose rendered block holds a fact of a stale or
  retracted value (target 0);
- as-of correctness: the first recalled fact with a labelled value, at `as_of`, carries
  `then`;
- contradiction surfacing: every side of an unresolved contradiction is in the block, and
  so is the conflict warning;
- retraction: no fact of a retracted value comes back, neither from recall nor in the
  block.

A step the gate refuses fails its sequence (reported with the gate's reason): a benchmark
sentence is one a user would say.

Sequences come from a hand-labelled YAML file (`examples/updates.yaml`) and are mined from
real data (the command takes the paths; nothing is copied):

- MSC personas and PersonaExt (read as `credo.eval.resolver` reads them): the one-valued
  templates of the resolver evaluation ("I live in {}.", "I work at {}.", "My favorite
  color is {}.", an MSC age n then n + 1, ...) filled with real values of the file, as an
  update (A then B a year later), an update confirmed (A, B, B again) and a chain (A, B,
  C); and, from PersonaExt's many-valued relations (likes, pets, hobbies, things owned),
  two real statements on one relation that must both stay;
- LoCoMo: every first-person sentence of every turn is read by credo's key parser; a
  speaker whose one-valued key takes two values in two sessions makes an update sequence
  (the later session's value current). On the LoCoMo dev file this finds none (see
  docs/benchmarks.md): the conversations' changes are told as stories, not restated as
  keyed claims.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..embed import Embedder
from ..errors import CredoError, InvalidInput
from ..memory import Memory
from ..render import CONFLICT_WARNING, quote
from ..store.base import Store
from ..store.sqlite import SQLiteStore
from . import resolver as personas
from .text import fit

DEFAULT_K = 5
DEFAULT_LIMIT = 20
DEFAULT_SEED = 0
FIGURES = ("precedence", "stale_leak", "as_of", "contradiction", "retraction")
#: how long after the last step the question is asked
ASK_AFTER = dt.timedelta(days=1)
START = dt.date(2023, 3, 1)

MemoryFactory = Callable[..., Memory]


class UpdatesDataError(CredoError, ValueError):
    """A sequence file or data file cannot be used; the message says where."""


@dataclass(frozen=True)
class Step:
    on: str  # ISO date
    say: str | None = None  # a statement, or None for a retraction
    value: str | None = None  # the value the statement asserts, or the value retracted
    source: str = "user"


@dataclass(frozen=True)
class UpdateSequence:
    id: str
    kind: str
    origin: str  # the file it came from, or how it was mined
    steps: tuple[Step, ...]
    ask: str
    current: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    retracted: tuple[str, ...] = ()
    conflict: bool = False
    as_of: str | None = None
    then: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "origin": self.origin,
            "steps": [s.__dict__ for s in self.steps],
            "ask": self.ask,
            "current": list(self.current),
            "stale": list(self.stale),
            "retracted": list(self.retracted),
            "conflict": self.conflict,
            "as_of": self.as_of,
            "then": self.then,
        }


# -- reading the hand-labelled file ------------------------------------------------------------
def _date(value: Any, where: str) -> str:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise UpdatesDataError(f"{where}: {value!r} is not a date (YYYY-MM-DD)")


def _values(entry: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    raw = entry.get(key, [])
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(v, str) and v.strip() for v in raw):
        raise UpdatesDataError(f"{where}: '{key}' must be a value or a list of values")
    return tuple(v.strip() for v in raw)


def parse_sequence(entry: Any, where: str, origin: str) -> UpdateSequence:
    if not isinstance(entry, dict):
        raise UpdatesDataError(f"{where}: a sequence is a mapping")
    unknown = set(entry) - {
        "id",
        "kind",
        "steps",
        "ask",
        "current",
        "stale",
        "retracted",
        "conflict",
        "as_of",
        "then",
    }
    if unknown:
        raise UpdatesDataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    sid = entry.get("id")
    if not isinstance(sid, str) or not sid.strip():
        raise UpdatesDataError(f"{where}: needs an 'id'")
    where = f"{where} ({sid})"
    ask = entry.get("ask")
    if not isinstance(ask, str) or not ask.strip():
        raise UpdatesDataError(f"{where}: needs the question to 'ask'")
    raw_steps = entry.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise UpdatesDataError(f"{where}: needs a list of 'steps'")
    steps = []
    for n, raw in enumerate(raw_steps, 1):
        at = f"{where} step {n}"
        if not isinstance(raw, dict) or "at" not in raw:
            raise UpdatesDataError(f"{at}: a step is {{at: DATE, say: TEXT, value: V}}")
        if ("say" in raw) == ("retract" in raw):
            raise UpdatesDataError(f"{at}: a step either says something or retracts a value")
        on = _date(raw["at"], at)
        source = raw.get("source", "user")
        if not isinstance(source, str):
            raise UpdatesDataError(f"{at}: 'source' must be text")
        if "say" in raw:
            say, value = raw["say"], raw.get("value")
            if not isinstance(say, str) or not say.strip():
                raise UpdatesDataError(f"{at}: 'say' must be a sentence")
            if value is not None and not isinstance(value, str):
                raise UpdatesDataError(f"{at}: 'value' must be text")
            steps.append(Step(on, say.strip(), value, source))
        else:
            if not isinstance(raw["retract"], str):
                raise UpdatesDataError(f"{at}: 'retract' names the value to withdraw")
            steps.append(Step(on, None, raw["retract"], source))
    if [s.on for s in steps] != sorted(s.on for s in steps):
        raise UpdatesDataError(f"{where}: steps must be in date order")
    said = {s.value for s in steps if s.say is not None and s.value}
    seq = UpdateSequence(
        id=sid.strip(),
        kind=str(entry.get("kind", "update")),
        origin=origin,
        steps=tuple(steps),
        ask=ask.strip(),
        current=_values(entry, "current", where),
        stale=_values(entry, "stale", where),
        retracted=_values(entry, "retracted", where),
        conflict=bool(entry.get("conflict", False)),
        as_of=_date(entry["as_of"], where) if entry.get("as_of") is not None else None,
        then=entry.get("then"),
    )
    named = [*seq.current, *seq.stale, *seq.retracted, *([seq.then] if seq.then else [])]
    missing = sorted(v for v in named if v not in said)
    if missing:
        raise UpdatesDataError(f"{where}: no step says the value(s) {', '.join(missing)}")
    for s in steps:
        if s.say is None and s.value not in said:
            raise UpdatesDataError(f"{where}: retracts {s.value!r}, which no step says")
    if (seq.as_of is None) != (seq.then is None):
        raise UpdatesDataError(f"{where}: 'as_of' and 'then' go together")
    return seq


def read_sequences(path: Path, text: str) -> list[UpdateSequence]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise UpdatesDataError(f"{path}: not YAML ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("sequences"), list):
        raise UpdatesDataError(f"{path}: expected a mapping with a list of 'sequences'")
    out = [
        parse_sequence(e, f"{path}: sequence {n}", str(path))
        for n, e in enumerate(data["sequences"], 1)
    ]
    ids = [s.id for s in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise UpdatesDataError(f"{path}: sequence id(s) used twice: {', '.join(dupes)}")
    return out


# -- mining real data --------------------------------------------------------------------------
#: the question for each resolver template (one-valued keys)
QUESTIONS = {
    "live_in": "Where do I live?",
    "works_at": "Where do I work?",
    "name": "What is my name?",
    "marital_status": "What is my marital status?",
    "favorite_color": "What is my favorite color?",
    "favorite_season": "What is my favorite season?",
    "favorite_food": "What is my favorite food?",
    "favorite_drink": "What is my favorite drink?",
    "favorite_sport": "What is my favorite sport?",
    "favorite_show": "What is my favorite show?",
    "favorite_movie": "What is my favorite movie?",
    "age": "How old am I?",
}
#: the question for each PersonaExt many-valued relation that coexistence is drawn from
COEXIST_QUESTIONS = {
    "like_food": "What food do I like?",
    "like_drink": "What do I like to drink?",
    "like_animal": "What animals do I like?",
    "like_music": "What music do I like?",
    "like_activity": "What do I like to do?",
    "like_sports": "What sports do I like?",
    "like_movie": "What movies do I like?",
    "like_read": "What do I like to read?",
    "like_watching": "What do I like to watch?",
    "have_pet": "What pets do I have?",
    "own": "What do I own?",
    "has_hobby": "What are my hobbies?",
    "collect": "What do I collect?",
}
_YEAR = 365


def _day(n: int) -> str:
    return (START + dt.timedelta(days=n)).isoformat()


def _seq(
    sid: str,
    kind: str,
    origin: str,
    steps: tuple[Step, ...],
    ask: str,
    current: tuple[str, ...],
    stale: tuple[str, ...] = (),
    as_of: str | None = None,
    then: str | None = None,
) -> UpdateSequence:
    return UpdateSequence(sid, kind, origin, steps, ask, current, stale, as_of=as_of, then=then)


def _one_valued_sequences(
    name: str, ask: str, text: str, values: list[str], rng: random.Random, limit: int, tag: str
) -> list[UpdateSequence]:
    """Update, update confirmed, and a chain of three, round robin, from real values."""
    out: list[UpdateSequence] = []
    shapes = ("update", "confirm", "chain")
    for _ in range(20 * limit):
        if len(values) < 3 or len(out) >= limit:
            break
        a, b, c = rng.sample(values, 3)
        if (
            personas._stems(a) & personas._stems(b)
            or personas._stems(b) & personas._stems(c)
            or personas._stems(a) & personas._stems(c)
        ):
            continue  # "New York" / "York": not plainly two values
        n = len(out)
        shape = shapes[n % len(shapes)]
        sid = f"{tag}:{name}:{n + 1}"
        steps: tuple[Step, ...]
        if shape == "update":
            steps = (Step(_day(0), text.format(a), a), Step(_day(_YEAR), text.format(b), b))
            out.append(_seq(sid, "update", tag, steps, ask, (b,), (a,), _day(_YEAR // 2), a))
        elif shape == "confirm":
            steps = (
                Step(_day(0), text.format(a), a),
                Step(_day(_YEAR), text.format(b), b),
                Step(_day(_YEAR + 90), text.format(b), b),
            )
            out.append(_seq(sid, "confirm", tag, steps, ask, (b,), (a,), _day(_YEAR // 2), a))
        else:
            steps = (
                Step(_day(0), text.format(a), a),
                Step(_day(_YEAR), text.format(b), b),
                Step(_day(2 * _YEAR), text.format(c), c),
            )
            mid = _day(_YEAR + _YEAR // 2)
            out.append(_seq(sid, "chain", tag, steps, ask, (c,), (a, b), mid, b))
    return out


def mine_personas(
    dataset: personas.Dataset, *, limit: int = DEFAULT_LIMIT, seed: int = DEFAULT_SEED
) -> list[UpdateSequence]:
    """Sequences from an MSC personas or PersonaExt data set (see the module docstring)."""
    tag = dataset.name
    out: list[UpdateSequence] = []
    for template in personas.TEMPLATES:
        values = personas.template_values(template, dataset)
        rng = random.Random(f"{seed}:{tag}:{template.name}")
        out += _one_valued_sequences(
            template.name, QUESTIONS[template.name], template.text, values, rng, limit, tag
        )
    if dataset.format == "msc":
        ages = sorted(
            {int(m.group(1)) for p in dataset.personas for s in p if (m := _AGE.match(s))}
        )
        random.Random(f"{seed}:{tag}:age").shuffle(ages)
        for n, age in enumerate(ages[:limit]):
            a, b = f"I am {age} years old.", f"I am {age + 1} years old."
            steps = (Step(_day(0), a, str(age)), Step(_day(_YEAR), b, str(age + 1)))
            out.append(
                _seq(
                    f"{tag}:age:{n + 1}",
                    "update",
                    tag,
                    steps,
                    QUESTIONS["age"],
                    (str(age + 1),),
                    (str(age),),
                    _day(_YEAR // 2),
                    str(age),
                )
            )
        return out
    by_relation: dict[str, list[tuple[str, str]]] = {}
    for sentence, relation, tail in dataset.rows:
        if relation in COEXIST_QUESTIONS and not personas._negative(sentence.lower().split()):
            by_relation.setdefault(relation, []).append((sentence, tail))
    for relation in sorted(by_relation):
        rows = by_relation[relation]
        rng = random.Random(f"{seed}:{tag}:{relation}")
        made = 0
        for _ in range(50 * limit):
            if made >= limit or len(rows) < 2:
                break
            (a, ta), (b, tb) = rng.sample(rows, 2)
            if (
                personas._stems(ta) & personas._stems(tb)
                or personas._overlapping(a, b)
                or ta in b.lower()
                or tb in a.lower()
            ):
                continue
            made += 1
            steps = (Step(_day(0), a, ta), Step(_day(_YEAR), b, tb))
            sid = f"{tag}:{relation}:{made}"
            out.append(_seq(sid, "coexist", tag, steps, COEXIST_QUESTIONS[relation], (ta, tb)))
    return out


_AGE = re.compile(r"^I am (\d{1,2}) years old\.?$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_FIRST_PERSON = re.compile(r"^(I|I'm|My)\b")


def mine_locomo(path: Path, *, limit: int = DEFAULT_LIMIT) -> tuple[list[UpdateSequence], int]:
    """Sequences from LoCoMo: a speaker's one-valued key with two values in two sessions.
    Also returns how many first-person sentences the key parser read."""
    from ..keys import analyse
    from ..predicates import shipped, split_polarity
    from .locomo import LocomoError, read_locomo

    try:
        conversations = read_locomo(path)
    except LocomoError as exc:
        raise UpdatesDataError(str(exc)) from exc
    catalogue = shipped()
    read = 0
    out: list[UpdateSequence] = []
    for conv in conversations:
        seen: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
        for turn in conv.turns:
            if turn.date is None:
                continue
            day = dt.datetime.fromtimestamp(turn.date, tz=dt.UTC).date().isoformat()
            for sentence in _SENTENCE.split(turn.text):
                if not _FIRST_PERSON.match(sentence):
                    continue
                read += 1
                st = analyse(sentence)
                if st.kind != "statement" or not st.keyed or not st.object or st.negated:
                    continue
                base, _ = split_polarity(st.predicate or "")
                if catalogue.one_valued(base):
                    seen.setdefault((turn.speaker, base), []).append((day, sentence, st.object))
        for (speaker, base), said in sorted(seen.items()):
            first, last = said[0], said[-1]
            if len(out) >= limit or first[0] == last[0] or first[2].lower() == last[2].lower():
                continue
            steps = (Step(first[0], first[1], first[2]), Step(last[0], last[1], last[2]))
            sid = f"{conv.sample_id}:{speaker}:{base}"
            ask = f"{speaker} {base.replace('_', ' ')}?"
            out.append(_seq(sid, "update", "locomo", steps, ask, (last[2],), (first[2],)))
    return out, read


def load(
    paths: Sequence[str | Path], *, limit: int = DEFAULT_LIMIT, seed: int = DEFAULT_SEED
) -> tuple[list[UpdateSequence], dict[str, int]]:
    """Every sequence of every file (told apart by content), and how many each gave."""
    sequences: list[UpdateSequence] = []
    counts: dict[str, int] = {}
    for raw in paths:
        path = Path(raw)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UpdatesDataError(f"cannot read {path}: {exc}") from exc
        if path.suffix.lower() in (".yaml", ".yml"):
            found = read_sequences(path, text)
        elif _looks_like_locomo(text):
            found, _ = mine_locomo(path, limit=limit)
        else:
            try:
                dataset = personas.read_dataset(path)
            except personas.ResolverDataError as exc:
                raise UpdatesDataError(str(exc)) from exc
            found = mine_personas(dataset, limit=limit, seed=seed)
        counts[str(path)] = len(found)
        sequences += found
    ids = [s.id for s in sequences]
    if len(set(ids)) != len(ids):
        raise UpdatesDataError("two files give sequences with the same id: name each once")
    return sequences, counts


def _looks_like_locomo(text: str) -> bool:
    if not text.lstrip().startswith("["):
        return False
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return False
    return bool(data) and all(isinstance(s, dict) and "conversation" in s for s in data)


# -- running and scoring -----------------------------------------------------------------------
@dataclass
class Outcome:
    sequence: UpdateSequence
    checks: dict[str, bool] = field(default_factory=dict)  # figure -> passed (if it applies)
    problems: list[str] = field(default_factory=list)
    refused: str | None = None  # a step the gate refused, with its reason

    @property
    def passed(self) -> bool:
        return self.refused is None and all(self.checks.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.sequence.id,
            "kind": self.sequence.kind,
            "passed": self.passed,
            "checks": self.checks,
            "problems": self.problems,
            "refused": self.refused,
        }


def _epoch(day: str) -> float:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), tzinfo=dt.UTC).timestamp()


def run_sequence(
    store: Store,
    seq: UpdateSequence,
    scope: str,
    *,
    k: int = DEFAULT_K,
    memory: MemoryFactory = Memory,
) -> Outcome:
    """Remember the steps in order, ask the question, check every figure that applies."""
    ask_at = _epoch(seq.steps[-1].on) + ASK_AFTER.total_seconds()
    mem = memory(store, scope=scope, clock=lambda: ask_at)
    out = Outcome(seq)
    value_of: dict[str, str] = {}  # fact id -> the value its step asserted
    facts_of: dict[str, set[str]] = {}  # value -> fact ids
    for n, step in enumerate(seq.steps, 1):
        if step.say is None:
            live = [
                f
                for fid in sorted(facts_of.get(step.value or "", ()))
                if (f := store.get(fid, scope=scope)) is not None and f.is_live
            ]
            if not live:
                out.problems.append(f"step {n}: nothing live to retract for {step.value!r}")
            for fact in live:
                mem.retract(fact.id, why="that's wrong", by="user")
            continue
        try:
            result = mem.remember(step.say, source=step.source, valid_from=_epoch(step.on))
        except InvalidInput as exc:
            out.refused = f"step {n} ({step.say!r}): {exc}"
            return out
        if not result.accepted or result.fact is None:
            out.refused = f"step {n} ({step.say!r}) refused: {result.why} [{result.code}]"
            return out
        if step.value:
            value_of[result.fact.id] = step.value
            facts_of.setdefault(step.value, set()).add(result.fact.id)

    labelled = set(seq.current) | set(seq.stale) | set(seq.retracted) | {seq.then or ""}

    def first_value(hits: Sequence[Any]) -> str | None:
        for h in hits:
            v = value_of.get(h.fact.id)
            if v in labelled:
                return v
        return None

    def in_block(value: str, block: str) -> bool:
        return any(
            quote(f.text) in block
            for fid in facts_of.get(value, ())
            if (f := store.get(fid, scope=scope)) is not None
        )

    hits = mem.recall(seq.ask, k=k)
    block = mem.for_prompt(seq.ask, k=k)
    if seq.current and not seq.conflict:
        first = first_value(hits)
        missing = [v for v in seq.current if not in_block(v, block)]
        ok = first in seq.current and not missing
        out.checks["precedence"] = ok
        if not ok:
            out.problems.append(
                f"precedence: first valued hit {first!r}, current {list(seq.current)}"
                + (f", not rendered: {missing}" if missing else "")
            )
    gone = [*seq.stale, *seq.retracted]
    if gone:
        leaked = [v for v in gone if in_block(v, block)]
        out.checks["stale_leak"] = not leaked
        if leaked:
            out.problems.append(f"stale leak: {leaked} rendered")
    if seq.as_of and seq.then:
        then_hits = mem.recall(seq.ask, k=k, as_of=seq.as_of)
        got = first_value(then_hits)
        out.checks["as_of"] = got == seq.then
        if got != seq.then:
            out.problems.append(
                f"as of {seq.as_of}: first valued hit {got!r}, expected {seq.then!r}"
            )
    if seq.conflict:
        missing = [v for v in seq.current if not in_block(v, block)]
        warned = CONFLICT_WARNING in block
        out.checks["contradiction"] = not missing and warned
        if missing or not warned:
            out.problems.append(
                f"contradiction: not rendered {missing}" + ("" if warned else ", no warning")
            )
    if seq.retracted:
        recalled = {value_of.get(h.fact.id) for h in hits}
        back = sorted(v for v in seq.retracted if v in recalled or in_block(v, block))
        out.checks["retraction"] = not back
        if back:
            out.problems.append(f"retraction: {back} came back")
    if out.problems:
        said = [value_of.get(h.fact.id, "-") for h in hits]
        out.problems.append(f"recalled (by value): {said}")
    return out


@dataclass
class UpdatesReport:
    embedder: str
    k: int
    counts: dict[str, int] = field(default_factory=dict)  # sequences per file
    outcomes: list[Outcome] = field(default_factory=list)

    def figure(self, name: str) -> tuple[int, int]:
        """(passed, applicable) for one figure; for stale_leak, (leaks, applicable)."""
        applicable = [o for o in self.outcomes if name in o.checks]
        good = sum(1 for o in applicable if o.checks[name])
        if name == "stale_leak":
            return len(applicable) - good, len(applicable)
        return good, len(applicable)

    def by_origin(self) -> dict[str, list[Outcome]]:
        groups: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            groups.setdefault(o.sequence.origin, []).append(o)
        return groups

    @property
    def refused(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.refused]

    @property
    def failures(self) -> list[Outcome]:
        """Sequences that ran and missed a figure (refused ones are listed apart)."""
        return [o for o in self.outcomes if not o.refused and not o.passed]

    def to_dict(self) -> dict[str, Any]:
        figures = {}
        for name in FIGURES:
            n, of = self.figure(name)
            figures[name] = {"count": n, "of": of, "rate": round(n / of, 4) if of else None}
        return {
            "embedder": self.embedder,
            "k": self.k,
            "sequences": len(self.outcomes),
            "per_file": self.counts,
            "passed": sum(1 for o in self.outcomes if o.passed),
            "refused": len(self.refused),
            "figures": figures,
            "failures": [o.to_dict() for o in self.failures],
            "refusals": [o.to_dict() for o in self.refused],
        }


def evaluate(
    paths: Sequence[str | Path],
    embedder: Embedder,
    *,
    k: int = DEFAULT_K,
    limit: int = DEFAULT_LIMIT,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str], None] | None = None,
    memory: MemoryFactory = Memory,
    sequences: Sequence[UpdateSequence] | None = None,
) -> UpdatesReport:
    """Load (or take) the sequences and run each in its own scope of one temporary
    SQLite store. `memory` builds the Memory each sequence uses (tests pass a broken one
    to show the benchmark fails it)."""
    if k <= 0 or limit <= 0:
        raise UpdatesDataError("k and the mining limit must be positive numbers")
    counts: dict[str, int] = {}
    if sequences is None:
        sequences, counts = load(paths, limit=limit, seed=seed)
    if not sequences:
        raise UpdatesDataError("no sequences: give a sequence file or a data file to mine")
    report = UpdatesReport(embedder.name, k, counts)
    with tempfile.TemporaryDirectory(prefix="credo-updates-") as tmp:
        store = SQLiteStore(Path(tmp) / "updates.db", embedder)
        try:
            for n, seq in enumerate(sequences, 1):
                report.outcomes.append(run_sequence(store, seq, f"u{n:05d}", k=k, memory=memory))
                if progress and (n % 50 == 0 or n == len(sequences)):
                    progress(f"{n}/{len(sequences)} sequences")
        finally:
            store.close()
    return report


def _rate(n: int, of: int) -> str:
    return f"{n / of:6.3f}  ({n}/{of})" if of else "     -  (0)"


LABELS = {
    "precedence": "update precedence",
    "stale_leak": "stale-leak rate",
    "as_of": "as-of correctness",
    "contradiction": "contradiction surfacing",
    "retraction": "retraction",
}


def format_report(report: UpdatesReport, *, failures: int = 30) -> str:
    lines = [
        f"Knowledge updates: embedder={report.embedder}, k={report.k}, "
        f"{len(report.outcomes)} sequence(s)",
        f"{sum(o.passed for o in report.outcomes)} passed, {len(report.refused)} refused "
        "by the gate",
    ]
    for path, n in report.counts.items():
        lines.append(f"  {n:5d} from {path}")
    lines += ["", "figure".ljust(26) + "rate", "-" * 40]
    for name in FIGURES:
        lines.append(LABELS[name].ljust(26) + _rate(*report.figure(name)))
    head = "origin".ljust(26) + "".join(
        n.rjust(10) for n in ("preced.", "stale", "as-of", "contra.", "retract")
    )
    lines += ["", head, "-" * len(head)]
    for origin, outs in report.by_origin().items():
        sub = UpdatesReport(report.embedder, report.k, outcomes=outs)
        cells = []
        for name in FIGURES:
            n, of = sub.figure(name)
            cells.append(f"{n / of:10.3f}" if of else "-".rjust(10))
        lines.append(Path(origin).name[:25].ljust(26) + "".join(cells))
    bad = report.failures
    if bad:
        lines += ["", f"failures ({len(bad)}; first {min(failures, len(bad))}):"]
        for o in bad[:failures]:
            lines.append(f"  {o.sequence.id} [{o.sequence.kind}]")
            lines.extend(f"      {p}" for p in o.problems)
    if report.refused:
        shown = report.refused[:failures]
        lines += ["", f"refused by the gate ({len(report.refused)}; first {len(shown)}):"]
        lines.extend(f"  {o.sequence.id}: {o.refused}" for o in shown)
    return fit("\n".join(lines))
