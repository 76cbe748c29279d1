"""`credo ingest`, `credo gate` and `credo rules`: conversations in, and what the gate is.

Like the rest of the CLI, this module reads the environment (the library never does):
CREDO_LLM / CREDO_LLM_URL / CREDO_LLM_KEY choose the extraction model, with OPENAI_API_KEY
or ANTHROPIC_API_KEY as the key for those providers; CREDO_LLM_TIMEOUT,
CREDO_LLM_CONCURRENCY and CREDO_EPISODE_SIZE stand for the options of the same names. With
no model named, extraction is the offline rule extractor. Progress lines go to standard
error on a terminal only (`credo.progress`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .config import (
    EPISODE_SIZE,
    LLM_TIMEOUT,
    MAX_EPISODE_SIZE,
    MAX_LLM_CONCURRENCY,
    Settings,
    SettingsError,
    check_llm_settings,
)
from .extract.base import Extractor
from .gate import GatePolicy
from .ingest import (
    EXPORT_FORMATS,
    FORMATS,
    EpisodeProgress,
    IngestError,
    IngestReport,
    detect_format,
    ingest,
    read_turns,
)
from .llm import PROVIDERS, STRUCTURED, LLMConfigError, LLMError
from .memory import Memory
from .policy import PolicyError, load_policy, policy_path_for, render_policy, save_policy
from .progress import Progress, format_seconds
from .render import format_date

if TYPE_CHECKING:
    from .cli_common import CommandAdder

__all__ = ["add_llm_options", "build_extractor", "llm_settings", "print_report", "register"]

_KEY_VARS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
#: exit status of an ingest stopped by Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130


def _out(text: str = "", *, err: bool = False) -> None:
    print(text, file=sys.stderr if err else sys.stdout)


def _fail(message: str) -> int:
    _out(f"credo: error: {message}", err=True)
    return 1


def _guarded(fn: Callable[..., int]) -> Callable[..., int]:
    """Errors this module raises become one line and exit status 1, not a traceback."""

    def run(*args: Any) -> int:
        try:
            return fn(*args)
        except (IngestError, PolicyError, LLMConfigError, LLMError, SettingsError) as exc:
            return _fail(str(exc))

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


# -- ingest -------------------------------------------------------------------------------
def llm_settings(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> Settings:
    """The extraction settings: each option given on the command line, else its CREDO_*
    variable, else the default; out-of-range values are a `SettingsError` naming the
    option."""
    base = Settings.from_env(os.environ if env is None else env)

    def pick(name: str, default: Any) -> Any:
        value = getattr(args, name, None)
        return default if value is None else value

    settings = dataclasses.replace(
        base,
        llm=pick("llm", base.llm),
        llm_url=pick("llm_url", base.llm_url),
        llm_key=pick("llm_key", base.llm_key),
        llm_timeout=pick("llm_timeout", base.llm_timeout),
        llm_concurrency=pick("llm_concurrency", base.llm_concurrency),
        episode_size=pick("episode_size", base.episode_size),
    )
    check_llm_settings(
        timeout=settings.llm_timeout,
        concurrency=settings.llm_concurrency,
        episode_size=settings.episode_size,
    )
    return settings


def build_extractor(
    args: argparse.Namespace,
    memory: Memory | None = None,
    env: Mapping[str, str] | None = None,
    *,
    policy: GatePolicy | None = None,
) -> Extractor:
    """The LLM extractor when a model is named (--llm or CREDO_LLM), else the rules."""
    from .extract.llm import LLMExtractor
    from .extract.rules import RuleExtractor
    from .llm import get_chat_client

    env = os.environ if env is None else env
    settings = llm_settings(args, env)
    policy = policy if policy is not None else memory.policy if memory is not None else None
    if not settings.llm:
        return RuleExtractor(policy=policy, broad=bool(getattr(args, "broad", False)))
    provider = settings.llm.split(":", 1)[0].strip().lower()
    key = settings.llm_key or (env.get(_KEY_VARS[provider]) if provider in _KEY_VARS else None)
    client = get_chat_client(
        settings.llm,
        base_url=settings.llm_url or None,
        api_key=key or None,
        timeout=settings.llm_timeout,
        max_tokens=getattr(args, "llm_max_tokens", None),
        structured=getattr(args, "llm_structured", None),
    )
    return LLMExtractor(client, policy=policy)


def episode_line(episode: EpisodeProgress) -> str:
    """The progress detail of one episode: what it kept, its tokens, or why it failed."""
    if episode.status == "skipped":
        return f"skipped (done before: {episode.accepted} kept)"
    parts = [f"{episode.status}: kept {episode.accepted} of {episode.accepted + episode.rejected}"]
    if episode.usage:
        parts.append(
            f"tokens {episode.usage.get('prompt_tokens', '?')} in / "
            f"{episode.usage.get('completion_tokens', '?')} out"
        )
    if episode.splits:
        parts.append(f"split {episode.splits}x")
    parts.append(f"{format_seconds(episode.seconds)}")
    if episode.reason:
        reason = episode.reason if len(episode.reason) <= 120 else episode.reason[:117] + "..."
        parts.append(reason)
    return ", ".join(parts)


@_guarded
def cmd_ingest(args: argparse.Namespace, mem: Memory) -> int:
    settings = llm_settings(args)
    fmt = detect_format(args.file) if args.format == "auto" else args.format
    turns = read_turns(args.file, fmt=fmt, sample=args.sample)
    extractor = build_extractor(args, mem)
    shown = Progress(None, label="ingest", quiet=args.json)
    kept = 0

    def on_episode(episode: EpisodeProgress) -> None:
        nonlocal kept
        kept += episode.accepted
        shown.total = episode.total
        shown.step(
            f"{episode_line(episode)}; {kept} kept in all",
            seconds=episode.seconds,
            timed=episode.status != "skipped",
        )

    try:
        report = ingest(
            mem,
            turns,
            extractor=extractor,
            dry_run=args.dry_run,
            episode_size=settings.episode_size,
            concurrency=settings.llm_concurrency,
            force=args.force,
            progress=on_episode,
            session_keys=fmt in EXPORT_FORMATS,
        )
    except KeyboardInterrupt:
        where = f"{shown.done} of {shown.total}" if shown.total is not None else "no"
        _out(
            f"credo: interrupted after {where} episode(s); what they stored is kept"
            + ("" if args.dry_run else ": run the same command again to resume"),
            err=True,
        )
        return EXIT_INTERRUPTED
    if args.json:
        data = report.to_dict()
        data["extractor"] = getattr(extractor, "name", type(extractor).__name__)
        data["scope"] = mem.scope
        if not args.show_rejected:
            data.pop("rejected_candidates")
        print(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        print_report(
            report,
            extractor=getattr(extractor, "name", "?"),
            scope=mem.scope,
            show_rejected=args.show_rejected,
        )
    for error in report.errors:
        _out(f"credo: error: {error}", err=True)
    return 1 if report.errors else 0


def print_report(
    report: IngestReport, *, extractor: str, scope: str, show_rejected: bool = False
) -> None:
    verb = "would store" if report.dry_run else "stored"
    _out(
        f"read {report.turns} turn(s) ({report.user_turns} from users) in "
        f"{report.episodes} episode(s); extractor: {extractor}; scope: {scope}"
        + ("; DRY RUN: nothing written" if report.dry_run else "")
    )
    if report.skipped:
        _out(
            f"skipped {report.skipped} episode(s) an earlier run had done "
            "(--force to extract them again)"
        )
    codes = ", ".join(f"{c} {n}" for c, n in report.rejected_by_code.most_common())
    _out(
        f"candidates: {report.candidates}; {verb}: {report.accepted}; rejected: "
        f"{report.rejected}"
        + (f" ({codes})" if codes else "")
        + (f"; accept ratio {report.accept_ratio:.1%}" if report.candidates else "")
    )
    if report.usage:
        _out(
            f"tokens: {report.usage.get('prompt_tokens', 0)} in, "
            f"{report.usage.get('completion_tokens', 0)} out; "
            f"{format_seconds(report.seconds)} in all"
        )
    if report.failed:
        _out(
            f"failed episodes: {len(report.failed)} (recorded; run the same command "
            "again to retry them)"
        )
        for failed in report.failed:
            _out(f"  {failed['episode']}: {failed['reason']}")
    _out(
        f"turns that produced a fact: {len(report.fact_turns)} of {report.turns} "
        f"({report.accepted_per_turn:.1%}; {report.accepted_per_user_turn:.1%} of user turns)"
    )
    if not report.dry_run:
        rel = report.to_dict()["relations"]
        _out("relations: " + ", ".join(f"{k} {v}" for k, v in rel.items()))
        _out(f"unresolved conflicts in scope {scope!r}: {report.unresolved_conflicts}")
    for applied in report.suppressions:
        what = f" {applied.request.phrase!r}" if applied.request.phrase else ""
        rules = ", ".join(f"{r.id} [{r.pattern}]" for r in applied.rules) or "no rule"
        gone = f"; forgot {len(applied.forgotten)} fact(s)" if applied.forgotten else ""
        _out(
            f"honoured a request not to remember ({applied.request.kind}{what}) in "
            f"{applied.turn_id}: {rules}{gone}"
        )
    _out()
    _out(f"{'would be stored' if report.dry_run else 'accepted'} ({report.accepted}):")
    for item in report.accepted_facts:
        rel = f"{item['relation']:<10} " if item["relation"] else ""
        _out(f"  {rel}{item['text']}  [from {', '.join(item['turns'])}]")
    if not report.accepted_facts:
        _out("  (nothing)")
    if show_rejected:
        _out()
        _out(f"rejected ({report.rejected}):")
        for item in report.rejected_candidates:
            _out(
                f"  {item['code']:<18} {item['text']}  ({item['reason']}) "
                f"[from {', '.join(item['turns'])}]"
            )
        if not report.rejected_candidates:
            _out("  (nothing)")
    for note in report.notes:
        _out(f"note: {note}", err=True)


# -- gate ---------------------------------------------------------------------------------
def _db(args: argparse.Namespace, settings: Settings) -> str:
    return str(getattr(args, "db", None) or settings.db)


@_guarded
def cmd_gate(args: argparse.Namespace, settings: Settings) -> int:
    path = policy_path_for(_db(args, settings))
    if args.gate_cmd == "path":
        _out(str(path))
        return 0
    if args.gate_cmd == "show":
        policy = load_policy(path)
        if getattr(args, "json", False):
            data: dict[str, Any] = {"path": str(path), "exists": path.exists()}
            data.update(
                {k: list(v) if isinstance(v, tuple) else v for k, v in policy.__dict__.items()}
            )
            print(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            state = "" if path.exists() else " (not written yet: these are the defaults)"
            _out(f"# {path}{state}")
            _out(render_policy(policy))
        return 0
    # edit
    if not path.exists():
        save_policy(load_policy(path), path)
        _out(f"wrote the default gate policy to {path}")
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor or not (sys.stdin.isatty() and sys.stdout.isatty()):
        _out(str(path))
        return 0
    subprocess.call([*shlex.split(editor), str(path)])
    load_policy(path)  # a broken edit is reported now, not at the next ingest
    _out(f"gate policy saved: {path}")
    return 0


# -- rules --------------------------------------------------------------------------------
@_guarded
def cmd_rules(args: argparse.Namespace, mem: Memory) -> int:
    action = args.rules_cmd or "list"
    if action == "add":
        rule = mem.add_rule(args.pattern, subject=args.subject, origin="cli")
        if args.json:
            print(json.dumps(rule.to_dict(), indent=2))
        else:
            _out(
                f"added {rule.id}: refuse candidates containing all of [{rule.pattern}]"
                + (f" about {rule.subject}" if rule.subject else "")
            )
        return 0
    if action == "remove":
        mem.remove_rule(args.rule_id)
        _out(f"removed rule {args.rule_id}")
        return 0
    rules = mem.rules()
    if args.json:  # times in ISO 8601, as every --json writes them
        from .isotime import iso_times

        data = [r.to_dict() for r in rules]
        print(json.dumps(iso_times(data), ensure_ascii=False, indent=2))
        return 0
    if not rules:
        _out("(no suppression rules)")
    for r in rules:
        about = f" subject={r.subject}" if r.subject else ""
        origin = f" from={readable_origin(r.origin)}" if r.origin else ""
        _out(f"{r.id}  [{r.pattern}]{about}{origin}  added {format_date(r.created_at)}")
    return 0


#: a rule's origin as `remember` wrote it before it wrote ISO times: "remember@<epoch>"
_EPOCH_ORIGIN = re.compile(r"^(remember)@(\d{9,11})$")


def readable_origin(origin: str) -> str:
    """A rule's origin to read: "remember@1796276561" (older stores) is shown as
    "remember@2026-12-03T...Z", as `remember` now writes it; a turn id stays as it is."""
    from .isotime import format_iso

    found = _EPOCH_ORIGIN.match(origin)
    if not found:
        return origin
    return f"{found.group(1)}@{format_iso(float(found.group(2)))}"


# -- registration -------------------------------------------------------------------------
def add_llm_options(p: argparse.ArgumentParser) -> None:
    """The extraction model's options, shared by `credo ingest` and `credo eval gate`."""
    p.add_argument(
        "--llm",
        metavar="PROVIDER:MODEL",
        help="extract with this chat model (default: $CREDO_LLM, else the "
        "offline rule extractor), e.g. openai:gpt-4o-mini, ollama:qwen2.5:7b, "
        f"llamacpp:qwen; providers: {', '.join(PROVIDERS)}",
    )
    p.add_argument(
        "--llm-url",
        metavar="URL",
        help="the model server's base URL (default: $CREDO_LLM_URL or the provider's)",
    )
    p.add_argument(
        "--llm-key",
        metavar="KEY",
        help="API key (default: $CREDO_LLM_KEY, "
        "or $OPENAI_API_KEY / $ANTHROPIC_API_KEY for those providers)",
    )
    p.add_argument(
        "--llm-timeout",
        type=float,
        metavar="SECONDS",
        help=f"how long to wait for one reply (default: $CREDO_LLM_TIMEOUT or "
        f"{LLM_TIMEOUT:g}); a local model on a laptop may need 300 or more. An episode "
        "that times out is split in two and retried",
    )
    p.add_argument(
        "--llm-concurrency",
        type=int,
        metavar="N",
        help="episodes extracted at once (default: $CREDO_LLM_CONCURRENCY or 1; "
        f"at most {MAX_LLM_CONCURRENCY}): more for a remote API, 1 for a local server",
    )
    p.add_argument(
        "--llm-structured",
        choices=sorted({*STRUCTURED.values(), "none"}),
        help="how to ask the server for JSON (default: by provider; see "
        "docs/extraction.md); none: in the prompt only",
    )
    p.add_argument(
        "--llm-max-tokens",
        type=int,
        metavar="N",
        help="cap on the tokens of one reply (default: the server's)",
    )
    p.add_argument(
        "--episode-size",
        type=int,
        metavar="N",
        help=f"turns per extraction call (default: $CREDO_EPISODE_SIZE or {EPISODE_SIZE}; "
        f"1 to {MAX_EPISODE_SIZE}; episodes never straddle two sessions)",
    )


def register(command: CommandAdder) -> None:
    """Add `ingest`, `gate` and `rules` to the `credo` parser."""
    p = command(
        "ingest",
        cmd_ingest,
        "Extract facts from a conversation file (JSON Lines, OpenAI messages, LoCoMo, "
        "a ChatGPT or Claude data export (conversations.json or the .zip as downloaded) "
        "or a folder of Markdown / text notes) through the gate; prints a report. Each "
        "episode's "
        "outcome is recorded: running it again skips what is done and retries what "
        "failed, so an interrupted ingest resumes where it stopped.",
        read=False,
    )
    p.add_argument(
        "file", help="the conversation file, the export (.json or .zip) or the notes folder"
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="auto",
        help="input format (default: from the file name and content); chatgpt and "
        "claude: a data export, one episode per conversation; notes: a folder of .md / "
        ".txt files, one episode per file",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="judge every candidate with the gate but write nothing",
    )
    p.add_argument(
        "--show-rejected",
        action="store_true",
        help="also print the rejected candidates, with reasons",
    )
    add_llm_options(p)
    p.add_argument(
        "--broad",
        action="store_true",
        help="rule extractor: take every first-person statement the gate "
        "passes (more recall, more facts to review)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="extract again the episodes an earlier run of this file finished (they are "
        "skipped otherwise; failed ones are always retried)",
    )
    p.add_argument("--sample", metavar="ID", help="LoCoMo: only this sample_id")

    p = command.standalone(
        "gate", cmd_gate, "Show or edit the gate policy: what counts as a fact in this store."
    )
    gate_sub = p.add_subparsers(dest="gate_cmd", required=True, metavar="ACTION")
    s = gate_sub.add_parser("show", help="print the policy in force (TOML)")
    s.add_argument("--json", action="store_true", help="print JSON")
    gate_sub.add_parser(
        "edit",
        help="write the defaults if missing, then open $EDITOR "
        "(prints the path when there is no editor or no terminal)",
    )
    gate_sub.add_parser("path", help="print where the policy file lives")

    p = command(
        "rules", cmd_rules, 'List, add or remove suppression rules ("don\'t remember ...").'
    )
    rules_sub = p.add_subparsers(dest="rules_cmd", required=False, metavar="ACTION")
    s = rules_sub.add_parser("list", help="list the rules (the default)")
    s.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    s = rules_sub.add_parser("add", help="refuse candidates containing all these words")
    s.add_argument("pattern", help='words that must all appear, e.g. "home address"')
    s.add_argument("--subject", help="only candidates about this entity")
    s.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    s = rules_sub.add_parser("remove", help="remove a rule by id")
    s.add_argument("rule_id", metavar="ID")
