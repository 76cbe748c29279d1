"""`credo eval resolver`: pair generation, scoring arithmetic and the command, on tiny files
the test writes. Nothing here asserts how good the resolver is: only the structure of the
pairs, the arithmetic of the figures, and that the command runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from credo.cli import main
from credo.embed import HashEmbedder
from credo.eval.resolver import (
    COEXIST,
    COEXIST_RELATIONS,
    CONTRA_LATER,
    CONTRA_SAME_DAY,
    DUPLICATE,
    GAPS,
    HEADLINES,
    LABELS,
    ONE_VALUED,
    TEMPLATES,
    UPDATE,
    VERSIONS,
    Outcome,
    Pair,
    ResolverDataError,
    build_pairs,
    detokenize,
    evaluate,
    format_report,
    negate,
    personaext_sentence,
    read_dataset,
    run_pair,
    score,
)
from credo.store.sqlite import SQLiteStore

MSC = {
    "train": [
        {
            "Speaker 1": [
                "I am vegan.",
                "I play collegiate basketball.",
                "I live in Denver.",
                "My favorite color is teal.",
                "I have a cat.",
                "My name is Zed.",
                "I am 33 years old.",
                "I work at Acme.",
            ],
            "Speaker 2": [
                "I like jazz records.",
                "I work at Initech.",
                "I live in Oslo.",
                "My favorite color is amber.",
                "I do not drink coffee.",
                "My name is Quill.",
                "I am married.",
            ],
            "in_dataset": 0,
        },
    ],
    "valid": [
        {
            "Speaker 1": [
                "I grow tomatoes.",
                "I live in Lima.",
                "I am single.",
                "I can juggle.",
                "I'm a night owl.",
                "Is this a question?",
            ],
            "Speaker 2": [
                "I knit scarves for my nieces.",
                "I am divorced.",
                "My favorite color is mauve.",
                "I have two parrots.",
            ],
        },
    ],
}


def _row(text: str, relation: str, tail: str) -> dict[str, object]:
    return {"text": text, "tokens": text.split(), "head": "i", "relation": relation, "tail": tail}


PERSONAEXT = [
    _row("hello there . i have a parrot named kiwi .", "have_pet", "parrot"),
    _row("i have a hamster at home .", "have_pet", "hamster"),
    _row("i love to go kayaking on weekends .", "like_activity", "kayaking"),
    _row("cool . i enjoy baking bread .", "like_activity", "baking"),
    _row("i live in vermont with my aunt .", "live_in_citystatecountry", "vermont"),
    _row("i moved , i live in vermont now", "live_in_citystatecountry", "vermont"),
    _row("i live in oregon .", "live_in_citystatecountry", "oregon"),
    _row("yes ! i live in oregon , it rains", "live_in_citystatecountry", "oregon"),
    _row("my favorite color is teal .", "favorite_color", "teal"),
    _row("my favorite color is teal , like the sea", "favorite_color", "teal"),
    _row("my favorite color is amber .", "favorite_color", "amber"),
    _row("my favorite color is amber for sure .", "favorite_color", "amber"),
    _row("i do n't eat fish .", "do_not_eat", "fish"),
    _row("what about you ? i like trains .", "like_general", "trains"),
    _row("do you like cats ?", "like_animal", "cats"),
]


@pytest.fixture
def msc_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_msc.json"
    path.write_text(json.dumps(MSC), encoding="utf-8")
    return path


@pytest.fixture
def personaext_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_personaext.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in PERSONAEXT) + "\n", encoding="utf-8")
    return path


# -- reading -----------------------------------------------------------------------------------
def test_the_format_is_read_from_the_content(
    msc_file: Path, personaext_file: Path, tmp_path: Path
) -> None:
    msc = read_dataset(msc_file)
    assert msc.format == "msc" and msc.name == "tiny_msc"
    assert len(msc.personas) == 4  # two speakers in each of two items
    assert "Is this a question?" not in {s for p in msc.personas for s in p}
    listed = tmp_path / "listed.json"  # a bare list of speaker pairs is MSC too
    listed.write_text(json.dumps(MSC["train"]), encoding="utf-8")
    assert read_dataset(listed).format == "msc"

    ext = read_dataset(personaext_file)
    assert ext.format == "personaext" and not ext.personas
    sentences = {s for s, _, _ in ext.rows}
    assert "I have a parrot named kiwi." in sentences
    assert "I don't eat fish." in sentences
    assert not any("you" in s.lower() for s in sentences)  # chat to the partner is left out


def test_unusable_files_are_refused_with_the_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"train": [{"nobody": 1}]}', encoding="utf-8")
    with pytest.raises(ResolverDataError, match="bad.json"):
        read_dataset(bad)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(
        '{"text": "i am", "relation": "x", "tail": "y"}\nnot json\n', encoding="utf-8"
    )
    with pytest.raises(ResolverDataError, match="broken.jsonl:2"):
        read_dataset(broken)
    with pytest.raises(ResolverDataError, match="cannot read"):
        read_dataset(tmp_path / "missing.json")


def test_personaext_utterances_become_first_person_sentences() -> None:
    assert detokenize("i 'm a nurse , i work nights") == "I'm a nurse, I work nights."
    assert detokenize("i do n't like it .") == "I don't like it."
    assert personaext_sentence("oh nice . i have two dogs .", "two dogs") == "I have two dogs."
    assert personaext_sentence("do you have a dog ?", "dog") is None  # a question
    assert personaext_sentence("that dog is big .", "dog") is None  # not first person
    assert personaext_sentence("i have a cat .", "dog") is None  # no tail


# -- negation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        ("I am vegan.", "I am not vegan."),
        ("I'm a night owl.", "I'm not a night owl."),
        ("I am not a judge of wine.", "I am a judge of wine."),
        ("I play collegiate basketball.", "I do not play collegiate basketball."),
        ("I do not drink coffee.", "I drink coffee."),
        ("I don't have a kayak.", "I have a kayak."),
        ("I have a ferret.", "I do not have a ferret."),
        ("I have two parrots", "I do not have two parrots."),
        ("I can juggle.", "I cannot juggle."),
        ("I can't swim.", "I can swim."),
        ("My favorite color is teal.", "My favorite color is not teal."),
        ("My dogs are not boxers.", "My dogs are boxers."),
    ],
)
def test_negation_rewrites_one_clause_sentences(sentence: str, negated: str) -> None:
    result = negate(sentence)
    assert result is not None and result[0] == negated
    back = negate(negated)  # and back again, in the long form
    assert back is not None
    original = sentence.rstrip(".").replace("don't", "do not").replace("can't", "cannot")
    assert back[0] == original + "."


@pytest.mark.parametrize(
    "sentence",
    [
        "I do not drink soda and I am a pilot.",  # two clauses
        "I like cats, dogs and birds.",
        "I have been to Paris.",  # a participle, not possession
        "I have some cats.",  # "some" would need "any"
        "I like cats too.",
        "I always wear hats.",
        "I never smoke.",  # already negative, no simple positive
        "I grew up in Ohio.",  # past tense
        "I went to school.",
        "My mom is not never home.",
        "i like jazz.",  # lower-case "i": not the form the rules read
        "I do not have any houseplants.",
        "I think the attic is creepy.",  # "think" is not a verb it negates
        "Do I like jazz?",
    ],
)
def test_negation_refuses_what_it_cannot_rewrite_exactly(sentence: str) -> None:
    assert negate(sentence) is None


# -- pairs -------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return text.lower().rstrip(".")


def test_msc_pairs_carry_the_expected_labels(msc_file: Path) -> None:
    ds = read_dataset(msc_file)
    pairs = build_pairs([ds], limit=50, seed=1)
    by_label: dict[str, list[Pair]] = {label: [] for label in LABELS}
    for p in pairs:
        by_label[p.label].append(p)
        assert p.gap == GAPS[p.label] > 0  # B is always later
        assert re.fullmatch(r"p\d{4,}", p.id)
    assert len({p.id for p in pairs}) == len(pairs)
    assert all(by_label[label] for label in LABELS)

    speakers = [set(p) for p in ds.personas]
    for p in by_label[DUPLICATE]:
        assert _norm(p.a) == _norm(p.b)
    for p in by_label[COEXIST]:
        assert p.a != p.b and any({p.a, p.b} <= s for s in speakers)  # one speaker's
    for p in by_label[UPDATE]:
        if p.dataset == VERSIONS:
            assert p.kind.startswith("version:")
            continue
        template = (
            next(t for t in TEMPLATES if p.kind == f"template:{t.name}")
            if p.kind != "template:age"
            else None
        )
        if template is None:
            n = int(re.findall(r"\d+", p.a)[0])
            assert p.b == f"I am {n + 1} years old."
        else:
            prefix = template.text.split("{}")[0]
            assert p.a.startswith(prefix) and p.b.startswith(prefix) and p.a != p.b
    for p in by_label[CONTRA_SAME_DAY] + by_label[CONTRA_LATER]:
        negated = negate(p.a)
        assert negated is not None and negated[0] == p.b
    assert GAPS[CONTRA_SAME_DAY] < 24 * 3600 <= GAPS[CONTRA_LATER]
    # the two contradiction gaps use different sentences
    assert not {p.a for p in by_label[CONTRA_SAME_DAY]} & {p.a for p in by_label[CONTRA_LATER]}


def test_personaext_pairs_use_the_declared_cardinality(personaext_file: Path) -> None:
    assert not ONE_VALUED & COEXIST_RELATIONS
    assert {t.personaext for t in TEMPLATES if t.personaext} <= ONE_VALUED
    ds = read_dataset(personaext_file)
    pairs = build_pairs([ds], limit=20, versions=False)
    coexist = [p for p in pairs if p.label == COEXIST]
    assert coexist
    for p in coexist:
        assert p.kind.removeprefix("personaext:") in COEXIST_RELATIONS
    updates = [p for p in pairs if p.label == UPDATE]
    assert {p.kind for p in updates} <= {"template:live_in", "template:favorite_color"}
    assert {(p.a, p.b) for p in updates} <= {
        ("I live in Vermont.", "I live in Oregon."),
        ("I live in Oregon.", "I live in Vermont."),
        ("My favorite color is teal.", "My favorite color is amber."),
        ("My favorite color is amber.", "My favorite color is teal."),
    }
    assert all(p.dataset == "tiny_personaext" for p in pairs)


def test_generation_is_deterministic_and_capped(msc_file: Path, personaext_file: Path) -> None:
    datasets = [read_dataset(msc_file), read_dataset(personaext_file)]
    first = build_pairs(datasets, limit=2, seed=7)
    assert first == build_pairs(datasets, limit=2, seed=7)
    counts: dict[tuple[str, str], int] = {}
    for p in first:
        counts[(p.dataset, p.label)] = counts.get((p.dataset, p.label), 0) + 1
    assert max(counts.values()) <= 2
    assert ("versions", UPDATE) in counts
    with pytest.raises(ValueError):
        build_pairs(datasets, limit=0)


# -- scoring -----------------------------------------------------------------------------------
def _pair(n: int, label: str, a: str = "I am A.", b: str = "I am B.") -> Pair:
    return Pair(f"p{n:04d}", label, "scripted", "tiny", a, b, GAPS[label])


def _out(
    pair: Pair, rel: str | None, a_status: str = "active", superseded: bool = False
) -> Outcome:
    return Outcome(pair, "new", rel, a_status, superseded, why="scripted")


def test_scoring_arithmetic_on_a_scripted_outcome() -> None:
    outcomes = [
        # duplicates: 2 right, 1 stored as new
        _out(_pair(1, DUPLICATE), "duplicate"),
        _out(_pair(2, DUPLICATE), "duplicate"),
        _out(_pair(3, DUPLICATE), "new"),
        # coexist: kept; wrongly a duplicate; wrongly superseded; refused by the gate;
        # a refinement that holds every word of A (right, but A is not "kept")
        _out(_pair(4, COEXIST), "new"),
        _out(_pair(5, COEXIST), "duplicate"),
        _out(_pair(6, COEXIST), "update", "superseded", superseded=True),
        Outcome(_pair(7, COEXIST), "new", None, "active", why="hedged", code="hedged"),
        _out(
            _pair(8, COEXIST, "I use Postgres.", "I use Postgres 16."),
            "refinement",
            "superseded",
            superseded=True,
        ),
        # updates: right; a conflict instead
        _out(_pair(9, UPDATE), "update", "superseded", superseded=True),
        _out(_pair(10, UPDATE), "conflict", "conflicted"),
        # contradictions: same day right and wrong; a year later right and wrong
        _out(_pair(11, CONTRA_SAME_DAY), "conflict", "conflicted"),
        _out(_pair(12, CONTRA_SAME_DAY), "update", "superseded", superseded=True),
        _out(_pair(13, CONTRA_LATER), "update", "superseded", superseded=True),
        _out(_pair(14, CONTRA_LATER), "new"),
        # the gate refused A: not run, not scored
        Outcome(_pair(15, UPDATE), None, None, why="too short", code="too_short"),
    ]
    report = score(outcomes, embedder="scripted", examples=5)
    labels = report.labels()
    assert (labels[DUPLICATE].n, labels[DUPLICATE].right) == (3, 2)
    assert labels[DUPLICATE].share == pytest.approx(2 / 3)
    assert (labels[COEXIST].n, labels[COEXIST].refused, labels[COEXIST].right) == (5, 1, 2)
    assert labels[COEXIST].share == pytest.approx(2 / 4)
    assert labels[COEXIST].refusals == {"hedged": 1}
    assert (labels[UPDATE].n, labels[UPDATE].refused, labels[UPDATE].right) == (3, 1, 1)
    assert labels[UPDATE].got == {"update": 1, "conflict": 1}
    assert (labels[CONTRA_SAME_DAY].right, labels[CONTRA_LATER].right) == (1, 1)

    heads = report.headline()
    assert set(heads) == set(HEADLINES)
    # superseding: p6 (not expected), p8 (refinement holding A: expected), p9, p12 (same
    # day: expected a conflict), p13 -> 3 of 5
    assert (heads["supersession_precision"].right, heads["supersession_precision"].of) == (3, 5)
    # classified duplicate: p1, p2 (labelled duplicate), p5 (coexist) -> 2 of 3
    assert (heads["duplicate_precision"].right, heads["duplicate_precision"].of) == (2, 3)
    # coexist pairs that ran: p4, p5, p6, p8; only p4 kept A active beside a stored B
    assert (heads["coexistence_kept"].right, heads["coexistence_kept"].of) == (1, 4)
    assert (heads["contradiction_recall"].right, heads["contradiction_recall"].of) == (2, 4)
    assert heads["contradiction_recall"].value == 0.5

    assert [o.pair.id for o in report.failures(COEXIST)] == ["p0005", "p0006"]
    assert report.failures(UPDATE)[0].got == "conflict; A conflicted"
    data = report.to_dict()
    assert data["headline"]["supersession_precision"] == 0.6
    assert data["headline_counts"]["coexistence_kept"] == {"right": 1, "of": 4}
    assert data["labels"][COEXIST]["refused_by"] == {"hedged": 1}
    assert sum(s["n"] for s in data["labels"].values()) == len(outcomes)
    text = format_report(report)
    for name in HEADLINES:
        assert name.replace("_", " ") in text
    assert "I use Postgres" not in text.split("failing examples")[1]  # p8 was right


def test_figures_with_nothing_to_count_are_none() -> None:
    report = score([_out(_pair(1, DUPLICATE), "new")])
    heads = report.headline()
    assert heads["supersession_precision"].value is None
    assert heads["coexistence_kept"].value is None
    assert report.to_dict()["headline"]["duplicate_precision"] is None
    assert "n/a" in format_report(report)


def test_a_pair_runs_in_its_own_scope(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "r.db", HashEmbedder())
    try:
        pair = _pair(1, DUPLICATE, "I play chess on Sundays.", "I play chess on Sundays.")
        outcome = run_pair(store, pair)
        assert outcome.a_relation == "new" and outcome.b_relation is not None
        assert outcome.a_status in ("active", "superseded", "conflicted")
        assert store.count(scope="p0001") >= 1
        assert store.count(scope="default") == 0
    finally:
        store.close()


# -- the command -------------------------------------------------------------------------------
def test_the_command_prints_the_four_figures(
    msc_file: Path, personaext_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "eval",
            "resolver",
            "--data",
            str(msc_file),
            "--data",
            str(personaext_file),
            "--limit",
            "3",
            "--embedder",
            "hash",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    for name in (
        "supersession precision",
        "duplicate precision",
        "coexistence kept",
        "contradiction recall",
    ):
        assert re.search(rf"{name}\s+(\d\.\d{{3}}|n/a)", out), name
    for label in LABELS:
        assert label in out


def test_the_command_prints_json(msc_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "eval",
            "resolver",
            "--data",
            str(msc_file),
            "--limit",
            "2",
            "--json",
            "--embedder",
            "hash",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["headline"]) == set(HEADLINES)
    assert data["pairs"] == sum(s["n"] for s in data["labels"].values())
    assert data["embedder"].startswith("hash")
    assert set(data["datasets"]) == {"tiny_msc", VERSIONS}
    for label, stats in data["labels"].items():
        assert stats["n"] <= 2 * len(data["datasets"]), label
        assert stats["right"] <= stats["ran"] == stats["n"] - stats["refused"]

    # the figures for this input: two pairs of each label from the file, two version
    # updates, each the plainest case of its kind ("I live in Denver." then "I live in
    # Lima.", "I am vegan." then "I am not vegan."), so every one is resolved as labelled
    assert (data["seed"], data["limit_per_label"], data["pairs"]) == (0, 2, 12)
    assert {name: {k: s["n"] for k, s in d.items()} for name, d in data["datasets"].items()} == {
        "tiny_msc": dict.fromkeys(LABELS, 2),
        VERSIONS: {UPDATE: 2},
    }
    got = {label: stats["got"] for label, stats in data["labels"].items()}
    assert got == {
        DUPLICATE: {"duplicate": 2},
        COEXIST: {"new": 2},
        UPDATE: {"update": 4},
        CONTRA_SAME_DAY: {"conflict": 2},
        CONTRA_LATER: {"update": 2},
    }
    assert data["headline_counts"] == {
        "supersession_precision": {"right": 6, "of": 6},  # 4 updates + 2 a year later
        "duplicate_precision": {"right": 2, "of": 2},
        "coexistence_kept": {"right": 2, "of": 2},
        "contradiction_recall": {"right": 4, "of": 4},
    }
    assert data["headline"] == dict.fromkeys(HEADLINES, 1.0)
    assert data["failures"] == {label: [] for label in LABELS}
    assert sum(s["n"] for s in data["kinds"].values()) == 12


def test_the_command_refuses_bad_input(
    tmp_path: Path, msc_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert main(["eval", "resolver", "--data", str(bad), "--embedder", "hash"]) == 2
    assert (
        main(["eval", "resolver", "--data", str(msc_file), "--limit", "0", "--embedder", "hash"])
        == 2
    )
    assert "credo:" in capsys.readouterr().err


def test_evaluate_names_two_files_of_one_stem_apart(msc_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "again"
    other.mkdir()
    twin = other / msc_file.name
    twin.write_text(msc_file.read_text(encoding="utf-8"), encoding="utf-8")
    report = evaluate([msc_file, twin], HashEmbedder(), limit=1)
    assert report.datasets()[:2] == ["tiny_msc", "tiny_msc'"]


REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


@pytest.mark.skipif(
    not (REAL / "msc_personas").is_dir() or not (REAL / "personaext").is_dir(),
    reason="the real persona data is not in ../shared/data",
)
def test_the_command_runs_on_the_real_files(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "eval",
            "resolver",
            "--json",
            "--limit",
            "3",
            "--embedder",
            "hash",
            "--data",
            str(REAL / "msc_personas" / "msc_personas_dev.json"),
            "--data",
            str(REAL / "personaext" / "personaext_dev.jsonl"),
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["datasets"]) == {"msc_personas_dev", "personaext_dev", VERSIONS}
    for name, labels in data["datasets"].items():
        expected = {UPDATE} if name == VERSIONS else set(LABELS)
        assert set(labels) == expected, name
        assert all(s["n"] == 3 for s in labels.values()), name
