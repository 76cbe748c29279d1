#!/usr/bin/env python3
"""Build the synonym sets and place names credo ships as package data, from WordNet 3.0.

Output: src/credo/data/synonyms.txt.gz, one synonym set a line ("movie|film|motion picture");
src/credo/data/places.txt.gz, one place name a line ("leeds", "north dakota"): every name
WordNet gives as an instance of a location (a city, a state, a country, a region);
src/credo/data/persons.txt.gz, one noun a line ("vegetarian", "wheelchair user"): every
noun whose most usual sense is a kind of person; src/credo/data/kinds.txt.gz, WordNet's
nouns and what each is a kind of (below); and src/credo/data/WORDNET-LICENSE beside them.

Usage (from the repository root):

    apt-get install wordnet-base             # Debian's WordNet 3.0 database files
    python3 scripts/build_synonyms.py        # reads /usr/share/wordnet
    python3 scripts/build_synonyms.py --wordnet DIR

A word joins a set only for its first `--senses` senses (WordNet lists a word's senses
most frequent first): "dog" is in the set of the domestic dog, not in the set of the
hot dog it can also name; and a set is kept only when two or more words are left in it.
Two words are then synonyms when one line holds both. Sets of co-hyponyms ("pear" and
"plum", "red" and "blue") do not exist in WordNet: a synonym set never merges rival
values, which is what the write path needs of it.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
OUT = Path(__file__).resolve().parents[1] / "src" / "credo" / "data"


def _word(raw: str) -> str:
    """A WordNet lemma as people type it: "motion_picture" -> "motion picture", an
    adjective's marker ("alone(p)") dropped."""
    return raw.split("(")[0].replace("_", " ").lower()


def build(wordnet: Path, senses: int) -> list[list[str]]:
    members: dict[tuple[str, str], list[str]] = {}
    for name, pos in POS.items():
        with (wordnet / f"data.{name}").open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith("  "):  # the licence at the top of each file
                    continue
                fields = line.split()
                count = int(fields[3], 16)
                members[(pos, fields[0])] = [_word(fields[4 + 2 * i]) for i in range(count)]
    chosen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for name, pos in POS.items():
        with (wordnet / f"index.{name}").open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                fields = line.split()
                lemma, n_senses = _word(fields[0]), int(fields[2])
                for offset in fields[len(fields) - n_senses :][:senses]:
                    chosen[(pos, offset)].add(lemma)
    out = []
    for key, words in chosen.items():
        # in the set's own order (its most usual word first), each word once
        kept = [w for w in dict.fromkeys(members[key]) if w in words]
        if len(kept) >= 2:
            out.append(kept)
    out.sort()
    return out


@dataclass
class Nouns:
    """WordNet's noun synsets, read once: each one's words (in its own order), its
    hypernyms, the kinds it is an instance of, and each word's first (most usual) sense."""

    names: dict[str, list[str]]
    hypernyms: dict[str, list[str]]
    instance_of: dict[str, list[str]]
    first_sense: dict[str, str]  # word -> offset
    #: what each is a kind of: its hypernyms and the kinds it is an instance of, in order
    kinds_of: dict[str, list[str]]


def read_nouns(wordnet: Path) -> Nouns:
    nouns = Nouns({}, {}, {}, {}, {})
    with (wordnet / "data.noun").open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):  # the licence at the top of the file
                continue
            fields = line.split("|")[0].split()
            offset, count = fields[0], int(fields[3], 16)
            nouns.names[offset] = [_word(fields[4 + 2 * i]) for i in range(count)]
            at = 4 + 2 * count
            nouns.hypernyms[offset], nouns.instance_of[offset] = [], []
            nouns.kinds_of[offset] = []
            for n in range(int(fields[at])):
                symbol, target, pos = fields[at + 1 + 4 * n : at + 4 + 4 * n]
                if pos == "n" and symbol in ("@", "@i"):
                    nouns.kinds_of[offset].append(target)
                    (nouns.hypernyms if symbol == "@" else nouns.instance_of)[offset].append(target)
    with (wordnet / "index.noun").open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            fields = line.split()
            nouns.first_sense[_word(fields[0])] = fields[len(fields) - int(fields[2])]
    return nouns


#: location.n.01, whose instances (through their hypernyms) are places
LOCATION = "00027167"


def places(nouns: Nouns) -> list[str]:
    """Every name of a synset that is an instance of a location, as people type it."""

    def located(offset: str, seen: set[str]) -> bool:
        if offset == LOCATION:
            return True
        seen.add(offset)
        return any(located(h, seen) for h in nouns.hypernyms.get(offset, []) if h not in seen)

    out = {
        name
        for offset, kinds in nouns.instance_of.items()
        if any(located(k, set()) for k in kinds)
        for name in nouns.names[offset]
    }
    return sorted(out)


#: person.n.01, whose hyponyms are the kinds of person
PERSON = "00007846"


def persons(nouns: Nouns) -> list[str]:
    """Every noun whose first sense (WordNet lists a word's senses most frequent first) is
    a kind of person, through its hypernyms: "nurse", "vegetarian", "user", "lefty"; not
    "dog" (its first sense an animal) or "python" (a snake). Names of one person (instances:
    "einstein") are not kinds and are left out."""
    kinds: dict[str, bool] = {PERSON: True}

    def a_person(offset: str, seen: frozenset[str] = frozenset()) -> bool:
        if offset not in kinds:
            kinds[offset] = any(
                a_person(h, seen | {offset})
                for h in nouns.hypernyms.get(offset, [])
                if h not in seen
            )
        return kinds[offset]

    return sorted(word for word, first in nouns.first_sense.items() if a_person(first))


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        out = digits[n % 36] + out
        n //= 36
        if not n:
            return out


def kinds(nouns: Nouns) -> list[str]:
    """WordNet's noun hierarchy, one synset a line: its id, the ids of what it is a kind of
    (its hypernyms and the kinds it is an instance of), and its words, a word marked "*"
    where this is its first (most usual) sense: "1a2b 19zz *husky|sled dog|sledge dog".
    Ids are the synsets in WordNet's order, in base 36."""
    first: dict[str, set[str]] = defaultdict(set)
    for word, offset in nouns.first_sense.items():
        first[offset].add(word)
    ids = {offset: _b36(n) for n, offset in enumerate(sorted(nouns.names))}
    lines = []
    for o in sorted(nouns.names):
        parents = nouns.kinds_of[o]
        words = dict.fromkeys(nouns.names[o])
        lines.append(
            f"{ids[o]} {','.join(ids[p] for p in parents) or '-'} "
            + "|".join(("*" if w in first[o] else "") + w for w in words)
        )
    return lines


def _write(path: Path, lines: list[str]) -> None:
    # mtime=0: the same database builds the same bytes
    with gzip.GzipFile(path, "wb", mtime=0) as fh:
        fh.write("".join(line + "\n" for line in lines).encode())
    print(f"{path}: {len(lines)} lines, {path.stat().st_size} bytes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--senses", type=int, default=2, help="senses of a word kept (default 2)")
    args = ap.parse_args()
    if not (args.wordnet / "data.noun").is_file():
        raise SystemExit(f"{args.wordnet}: no WordNet database (apt-get install wordnet-base)")
    _write(OUT / "synonyms.txt.gz", ["|".join(s) for s in build(args.wordnet, args.senses)])
    nouns = read_nouns(args.wordnet)
    _write(OUT / "places.txt.gz", places(nouns))
    _write(OUT / "persons.txt.gz", persons(nouns))
    _write(OUT / "kinds.txt.gz", kinds(nouns))
    licence = Path("/usr/share/doc/wordnet-base/copyright")
    if licence.is_file():
        shutil.copyfile(licence, OUT / "WORDNET-LICENSE")


if __name__ == "__main__":
    main()
