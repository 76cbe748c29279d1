"""`credo eval ...`: measured figures as commands. `probes` (the seed's Tier 2),
`locomo` (evidence recall on LoCoMo) and `resolver` (labelled pairs from real personas)
live here, and so do `gate` and `personaext` (the extraction evaluations of
`credo.eval.extraction`): the evaluation modules are a library these commands call."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .cli_common import CommandAdder, clipped
from .config import Settings
from .embed import Embedder, get_embedder
from .progress import Progress

#: exit status when the probe suite leaks a fact across scopes (any leak fails the suite)
EXIT_LEAK = 1
#: exit status for an unusable probe or data file
EXIT_BAD_INPUT = 2


def _embedder(args: argparse.Namespace, settings: Settings) -> Embedder:
    name = getattr(args, "eval_embedder", None) or args.embedder or settings.embedder
    return get_embedder(name, **settings.embedder_options)


def cmd_probes(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.probes import ProbeFileError, dumps, format_report, load_probes, run_probes

    try:
        suite = load_probes(args.file)
        report = run_probes(suite, _embedder(args, settings))
    except ProbeFileError as exc:
        print(f"credo: bad probe file: {clipped(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(dumps(report, verbose=args.verbose))
    else:
        print(format_report(report, verbose=args.verbose))
    if not report.passed:
        return EXIT_LEAK
    failed = []
    if args.min_recall is not None and report.recall < args.min_recall:
        failed.append(f"recall {report.recall:.3f} < {args.min_recall}")
    if args.max_staleness is not None and report.staleness > args.max_staleness:
        failed.append(f"staleness {report.staleness:.3f} > {args.max_staleness}")
    if failed:
        print("credo: probe thresholds missed: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


def _report(
    args: argparse.Namespace,
    run: Callable[[Callable[[str], None] | None], Any],
    format_report: Callable[[Any], str],
    errors: type[Exception] | tuple[type[Exception], ...],
) -> int:
    """Run an evaluation (progress on a terminal's stderr, none when piped or --json),
    print its report as text or JSON, and turn its data errors into one line and the
    bad-input exit status."""
    shown = Progress(None, label=f"eval {args.eval_cmd}", quiet=args.json)
    try:
        report = run(shown.note if shown.enabled else None)
    except errors as exc:
        print(f"credo: {clipped(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_report(report))
    return 0


def cmd_locomo(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.locomo import LocomoError, evaluate, format_report, read_locomo

    if args.conversations is not None and args.conversations <= 0:
        print("credo: --conversations must be a positive number", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _report(
        args,
        lambda progress: evaluate(
            read_locomo(args.data, limit=args.conversations),
            _embedder(args, settings),
            unit=args.unit,
            ks=args.k,
            progress=progress,
            render_floor=args.render_floor,
        ),
        format_report,
        LocomoError,
    )


def cmd_resolver(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.resolver import ResolverDataError, evaluate, format_report

    if args.limit <= 0 or args.examples < 0:
        print("credo: --limit must be positive and --examples not negative", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _report(
        args,
        lambda progress: evaluate(
            args.data,
            _embedder(args, settings),
            limit=args.limit,
            seed=args.seed,
            examples=args.examples,
            progress=progress,
        ),
        format_report,
        ResolverDataError,
    )


def cmd_updates(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.updates import UpdatesDataError, evaluate, format_report

    if args.k <= 0 or args.limit <= 0:
        print("credo: --k and --limit must be positive numbers", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _report(
        args,
        lambda progress: evaluate(
            args.data,
            _embedder(args, settings),
            k=args.k,
            limit=args.limit,
            seed=args.seed,
            progress=progress,
        ),
        lambda report: format_report(report, failures=args.failures),
        UpdatesDataError,
    )


def cmd_beam(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.beam import BeamError, evaluate, format_report, read_beam

    return _report(
        args,
        lambda progress: evaluate(
            read_beam(args.data, chats=args.chats), _embedder(args, settings), progress=progress
        ),
        lambda report: format_report(report, items=args.items),
        BeamError,
    )


def cmd_natural(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.natural import NaturalDataError, evaluate, format_report, read_items

    if args.examples < 0:
        print("credo: --examples must not be negative", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _report(
        args,
        lambda progress: evaluate(
            read_items(args.files, data=args.data),
            _embedder(args, settings),
            progress=progress,
        ),
        lambda report: format_report(report, examples=args.examples),
        NaturalDataError,
    )


def cmd_statements(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.statements import StatementsDataError, evaluate, format_report, read

    return _report(
        args,
        lambda progress: evaluate(read(args.files), _embedder(args, settings), progress=progress),
        lambda report: format_report(report, examples=args.examples),
        StatementsDataError,
    )


def _embedder_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--embedder",
        dest="eval_embedder",
        metavar="NAME",
        help="embedding model (default: the global --embedder or local:minilm)",
    )


def register(command: CommandAdder) -> None:
    p = command.sub.add_parser(
        "eval",
        help="Measure credo: probe suites, LoCoMo evidence recall, the resolver, extraction.",
        description="Measure credo on labelled data. Each subcommand prints a table "
        "(--json for machine-readable output).",
    )
    p.set_defaults(handler=None, standalone=None)
    eval_sub = p.add_subparsers(dest="eval_cmd", metavar="EVAL", required=True)

    e = eval_sub.add_parser(
        "probes",
        help="Tier 2 probe suite: recall@k, staleness, leak rate (exit 1 on any leak)",
        description="Remember the facts of a probe file (YAML or JSON) through the gate and "
        "the resolver, in a fresh temporary store, then run its queries. Reports recall@k "
        "(expected facts returned), staleness (share of queries returning a superseded "
        "fact) and leak rate (share of queries returning a fact of another scope). Exits 1 "
        "on any leak, 2 on a bad probe file. Format: see examples/probes.yaml.",
    )
    e.add_argument("file", help="probe file (YAML or JSON)")
    _embedder_option(e)
    e.add_argument("--verbose", "-v", action="store_true", help="per-query details")
    e.add_argument("--json", action="store_true", help="print JSON")
    e.add_argument(
        "--min-recall",
        type=float,
        default=None,
        metavar="X",
        help="also exit 1 when recall@k is below X",
    )
    e.add_argument(
        "--max-staleness",
        type=float,
        default=None,
        metavar="X",
        help="also exit 1 when staleness is above X",
    )
    e.set_defaults(handler=None, standalone=cmd_probes)

    e = eval_sub.add_parser(
        "locomo",
        help="LoCoMo evidence recall@k per category",
        description="One fresh store per LoCoMo conversation; each QA question is a recall "
        "query; a hit is a returned fact whose provenance names a gold evidence turn. "
        "Reports evidence recall@k overall (categories 1-4) and per category, category 5 "
        "apart, and the time taken.",
    )
    e.add_argument(
        "--data",
        required=True,
        metavar="PATH",
        help="LoCoMo JSON (e.g. ../shared/data/locomo/locomo_dev.json)",
    )
    e.add_argument(
        "--unit",
        choices=("turn", "extracted"),
        default="turn",
        help="turn: each turn a fact (default); extracted: what credo's ingestion stores",
    )
    e.add_argument(
        "--conversations",
        type=int,
        default=None,
        metavar="N",
        help="only the first N conversations",
    )
    e.add_argument(
        "--k",
        type=int,
        nargs="+",
        default=[1, 5, 10, 20],
        metavar="K",
        help="cut-offs (default: 1 5 10 20)",
    )
    e.add_argument(
        "--render-floor",
        action="store_true",
        help="also measure the render relevance floor: facts per question, evidence "
        "share, R@10 and off-topic facts, with and without it",
    )
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(handler=None, standalone=cmd_locomo)

    e = eval_sub.add_parser(
        "resolver",
        help="The resolver on labelled pairs from real personas: duplicate, "
        "coexist, update, contradiction",
        description="Build labelled pairs (an earlier statement A, a later B) from MSC "
        "personas and PersonaExt (format read from the content), remember each pair in "
        "time order into a fresh scope of one temporary store, and score B's relation and "
        "A's status against the label. Reports each label's share handled right, "
        "supersession precision, duplicate precision, coexistence kept and contradiction "
        "recall, with failing examples. Pairs are drawn with a fixed seed.",
    )
    e.add_argument(
        "--data",
        required=True,
        action="append",
        metavar="PATH",
        help="MSC personas JSON or PersonaExt JSON Lines (repeatable; e.g. "
        "../shared/data/msc_personas/msc_personas_dev.json)",
    )
    e.add_argument(
        "--limit",
        type=int,
        default=200,
        metavar="N",
        help="at most N pairs per label and data set (default 200)",
    )
    e.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    e.add_argument(
        "--examples",
        type=int,
        default=3,
        metavar="N",
        help="failing examples shown per label (default 3)",
    )
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(handler=None, standalone=cmd_resolver)

    e = eval_sub.add_parser(
        "updates",
        help="Knowledge updates: update precedence, stale leaks, as-of, contradictions, retraction",
        description="Remember sequences of dated statements (a value changes, is "
        "confirmed, contradicted or retracted), each in its own scope of a temporary "
        "SQLite store, then ask its question: is the current value first, does a stale "
        "one reach the rendered block, does --as-of before the change give the old "
        "value, are both sides of a contradiction shown with the warning, does a "
        "retracted value stay out. Sequences come from a YAML file (examples/updates.yaml) "
        "and are mined from MSC personas, PersonaExt and LoCoMo files (format read from "
        "the content). Failures are listed by sequence id.",
    )
    e.add_argument(
        "--data",
        required=True,
        action="append",
        metavar="PATH",
        help="sequence YAML, MSC personas JSON, PersonaExt JSON Lines or LoCoMo JSON (repeatable)",
    )
    e.add_argument("--k", type=int, default=5, metavar="K", help="facts recalled (default 5)")
    e.add_argument(
        "--limit",
        type=int,
        default=20,
        metavar="N",
        help="at most N mined sequences per template or relation and data file (default 20)",
    )
    e.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    e.add_argument(
        "--failures",
        type=int,
        default=30,
        metavar="N",
        help="failing sequences listed (default 30)",
    )
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(handler=None, standalone=cmd_updates)

    e = eval_sub.add_parser(
        "beam",
        help="BEAM chats: are updates stored and rendered, contradictions flagged (no LLM judge)",
        description="Ingest each BEAM chat's user turns (dated by their batches) into a "
        "fresh scope of a temporary store with credo's own offline ingestion, then score its "
        "knowledge-update questions (new value stored, old value superseded, new value "
        "rendered, stale value rendered as current; counted over the questions whose update "
        "turn holds the value) and its contradiction questions (both claims stored, flagged, "
        "both shown with the warning), and count every pair flagged as a conflict and how "
        "many of them a question names. Every figure is read from the store and the rendered "
        "block; nothing asks a model.",
    )
    e.add_argument(
        "--data",
        required=True,
        metavar="PATH",
        help="a BEAM chat folder or a folder of them (e.g. ../shared/data/beam/100K)",
    )
    e.add_argument(
        "--chats",
        nargs="+",
        default=None,
        metavar="NAME",
        help="only these chat folders (e.g. 1 2 3)",
    )
    e.add_argument("--items", action="store_true", help="one line per question")
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(handler=None, standalone=cmd_beam)

    e = eval_sub.add_parser(
        "natural",
        help="The write path on labelled natural statement pairs (tune and test halves)",
        description="Remember each labelled pair (A, then B gap_days later) in a fresh scope "
        "of a temporary store through the public API and score what the memory holds "
        "against the label (docs/labelling.md). Statements are text or references into "
        "the data folder (never copied into the repository). Reports the tune half and the "
        "test half apart: supersession precision, updates found, false conflicts, "
        "duplicates caught, values lost; failing examples are shown for the tune half only.",
    )
    e.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="labelled pairs, JSON Lines (e.g. examples/natural/*.jsonl)",
    )
    e.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help="the evaluation data folder references point into (e.g. ../shared/data); "
        "without it, items that reference data are skipped and counted",
    )
    e.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="N",
        help="failing tune-half items shown per label (default 0)",
    )
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON (figures only)")
    e.set_defaults(handler=None, standalone=cmd_natural)

    e = eval_sub.add_parser(
        "statements",
        help="The gate on labelled single messages: facts stored, non-facts refused "
        "(tune and test halves)",
        description="Remember each labelled message in a fresh scope of a temporary store "
        "through the public API: a message labelled a fact is right when something of it "
        "is stored, one labelled not-a-fact when nothing is. Reports the tune and the test "
        "half apart, per kind of construction; --examples shows the tune half's misses "
        "(the test half is only scored).",
    )
    e.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="labelled messages, JSON Lines (e.g. examples/statements/*.jsonl)",
    )
    e.add_argument(
        "--examples",
        action="store_true",
        help="show the tune half's messages handled wrong, with what was stored",
    )
    _embedder_option(e)
    e.add_argument("--json", action="store_true", help="print JSON (figures only)")
    e.set_defaults(handler=None, standalone=cmd_statements)

    _register_extraction(eval_sub)


# -- the extraction evaluations (credo.eval.extraction) ---------------------------------
def _pct(x: float) -> str:
    return f"{x:6.1%}"


def cmd_eval_gate(args: argparse.Namespace, settings: Settings) -> int:
    from .cli_ingest import build_extractor, episode_line, llm_settings
    from .config import SettingsError
    from .eval.extraction import EMBEDDER_NOTE, evaluate_locomo, locomo_summary
    from .eval.text import fit
    from .extract.rules import RuleExtractor
    from .ingest import EpisodeProgress, IngestError
    from .llm import LLMConfigError

    try:
        chosen = llm_settings(args)
        extractor = build_extractor(args)
        shown = Progress(None, label="eval gate", quiet=args.json)

        def on_episode(episode: EpisodeProgress) -> None:
            if episode.index == 1:
                shown.done = 0  # a new conversation
            shown.total = episode.total
            shown.step(episode_line(episode), seconds=episode.seconds)

        scores = evaluate_locomo(
            args.data,
            conversations=args.conversations,
            extractor=extractor,
            sample=args.sample,
            episode_size=chosen.episode_size,
            concurrency=chosen.llm_concurrency,
            progress=on_episode,
        )
    except (IngestError, LLMConfigError, SettingsError, OSError, ValueError) as exc:
        print(f"credo: error: {clipped(str(exc))}", file=sys.stderr)
        return 2
    summary = locomo_summary(scores)
    if isinstance(extractor, RuleExtractor):
        mode = "rules (broad)" if args.broad else "rules"
    else:
        mode = f"{getattr(extractor, 'name', '?')} {chosen.llm}"
    if args.json:
        print(
            json.dumps(
                {
                    "extractor": mode,
                    "note": EMBEDDER_NOTE,
                    "summary": summary,
                    "conversations": [s.to_dict() for s in scores],
                },
                indent=2,
            )
        )
        return 1 if summary["failed_episodes"] else 0
    lines = [
        f"LoCoMo gate evaluation: extractor {mode}; {EMBEDDER_NOTE}",
        "share: turns that stored a fact; kept: questions whose evidence turn stored one;",
        "ref: the same for LoCoMo's own observations (a reference, LLM-written)",
        f"{'conversation':<13}{'turns':>6}{'w/fact':>7}{'share':>8}{'questions':>10}"
        f"{'kept':>6}{'retention':>10}{'ref share':>10}{'ref ret.':>10}",
    ]

    def row(name: str, d: dict[str, Any]) -> str:
        return (
            f"{name:<13}{d['turns']:>6}{d['turns_with_fact']:>7}{_pct(d['turn_share']):>8}"
            f"{d['questions']:>10}{d['retained']:>6}{_pct(d['retention']):>10}"
            f"{_pct(d['observation_turn_share']):>10}{_pct(d['observation_retention']):>10}"
        )

    lines += [row(s.sample_id, s.to_dict()) for s in scores]
    sm = summary
    lines += [
        row("overall", sm),
        f"targets: share of turns <= 33.3%, retention >= 60.0%; evidence ids: "
        f"{sm['malformed_evidence']} malformed (read leniently), {sm['unknown_evidence']} "
        "naming no turn",
    ]
    print(fit("\n".join(lines)))
    print(llm_line(summary))
    return 1 if summary["failed_episodes"] else 0


def llm_line(sm: dict[str, Any]) -> str:
    """What the extraction cost: candidates, episodes (failed), tokens, time."""
    tokens = sm["tokens"]
    spent = (
        f"tokens {tokens.get('prompt_tokens', 0)} in, {tokens.get('completion_tokens', 0)} out; "
        if tokens
        else ""
    )
    return (
        f"candidates {sm['candidates']}, accepted {sm['accepted']}; episodes "
        f"{sm['episodes']}, failed {sm['failed_episodes']}; {spent}{sm['seconds']:.1f} s"
    )


def cmd_eval_personaext(args: argparse.Namespace, settings: Settings) -> int:
    from .eval.extraction import EMBEDDER_NOTE, evaluate_personaext
    from .extract.rules import RuleExtractor

    result = evaluate_personaext(
        args.data, limit=args.limit, extractor=RuleExtractor(broad=args.broad)
    )
    if args.json:
        print(json.dumps({"note": EMBEDDER_NOTE, **result}, indent=2))
        return 0
    n = result["utterances"]
    print(f"PersonaExt: {n} utterances; rule extractor{' (broad)' if args.broad else ''}")
    print(f"  stored a fact:              {result['stored']:>6} ({result['stored_share']:.1%})")
    print(
        f"  stored object has gold tail:{result['object_has_tail']:>6} "
        f"({result['object_has_tail_share']:.1%})"
    )
    print(
        f"  stored text has gold tail:  {result['text_has_tail']:>6} "
        f"({result['text_has_tail_share']:.1%})"
    )
    print("  by relation (most frequent): utterances / stored / object has tail")
    for rel, c in result["by_relation"].items():
        print(f"    {rel:<22}{c['utterances']:>6}{c['stored']:>8}{c['object_has_tail']:>8}")
    return 0


def _register_extraction(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `gate` and `personaext` under `credo eval`."""
    from .cli_ingest import add_llm_options

    p = sub.add_parser(
        "gate",
        help="LoCoMo: share of turns that produce a fact, and "
        "evidence retention, with the offline extractor or any chat model (--llm)",
        description="Ingest LoCoMo conversations with the offline extractor (or the "
        "chat model named by --llm / $CREDO_LLM), one fresh store each, and report per "
        "conversation the share of turns that produced a stored fact and the share of QA "
        "items (categories 1-4) whose evidence turns all did. Exits 1 when an episode's "
        "extraction failed (its turns count as producing nothing).",
    )
    p.add_argument("--data", required=True, help="path to locomo_dev.json (or locomo10.json)")
    p.add_argument(
        "--conversations",
        type=int,
        default=None,
        metavar="N",
        help="only the first N conversations",
    )
    p.add_argument("--sample", metavar="ID", help="only the conversation with this sample_id")
    p.add_argument("--broad", action="store_true", help="the rule extractor's broad mode")
    add_llm_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=None, standalone=cmd_eval_gate)

    p = sub.add_parser(
        "personaext",
        help="PersonaExt: how often the rule extractor stores a "
        "fact, and how often its object holds the gold tail",
    )
    p.add_argument("--data", required=True, help="path to personaext_dev.jsonl")
    p.add_argument(
        "--limit", type=int, default=None, metavar="N", help="only the first N utterances"
    )
    p.add_argument("--broad", action="store_true", help="the rule extractor's broad mode")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=None, standalone=cmd_eval_personaext)
