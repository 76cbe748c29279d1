"""The `credo` command line: a thin edge over `Memory`. It alone (with the MCP server)
reads the environment: CREDO_DB, CREDO_SCOPE, CREDO_EMBEDDER."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from . import __version__, cache
from .cli_common import (
    CommandAdder,
    UsageError,
    clipped,
    open_memory,
)
from .config import MAX_REJECTION_CHARS, Settings
from .errors import CredoError
from .isotime import export_times, iso_times
from .progress import Progress
from .render import format_date, refusal

if TYPE_CHECKING:  # imported where used: `credo --version` and `--help` load none of them
    from .fact import Fact
    from .memory import Memory
    from .transfer import ImportReport


def _out(text: str = "", stream: TextIO | None = None) -> None:
    print(text, file=stream or sys.stdout)


def _json(data: Any) -> None:
    print(json.dumps(iso_times(data), ensure_ascii=False, indent=2, default=str))


def _unit_interval(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..1 (a confidence)")
    return value


#: the largest whole number an option takes: more than any count, and what both stores
#: (64-bit integers) can hold
MAX_INT_ARG = 2**62


def _int_arg(text: str) -> int:
    """`type=int` on every option: a whole number of at most MAX_INT_ARG either way."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if abs(value) > MAX_INT_ARG:
        raise argparse.ArgumentTypeError(f"{text[:40]} is too large (at most 2^62)")
    return value


def _float_arg(text: str) -> float:
    """`type=float` on every option: a finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text[:40]} is not a finite number")
    return value


class _Parser(argparse.ArgumentParser):
    """The parser of credo and of each of its commands (argparse makes subcommands' parsers
    of the parent's class): `type=int` and `type=float` options take only numbers every
    command can use, and say so, instead of failing deep inside with a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("type", int, _int_arg)
        self.register("type", float, _float_arg)


def not_utf8(argv: Sequence[str]) -> str | None:
    """A message naming the first argument that was not UTF-8 on the command line (Python
    reads such bytes as lone surrogates), or None."""
    for n, arg in enumerate(argv, 1):
        if any("\ud800" <= ch <= "\udfff" for ch in arg):
            shown = arg.encode("utf-8", "surrogateescape")[:60]
            return f"argument {n} ({shown!r}) is not valid UTF-8: pass text in UTF-8"
    return None


def _cut(text: str | None, limit: int = MAX_REJECTION_CHARS) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _fact_line(fact: Fact, extra: str = "") -> str:
    key = f"({fact.subject}, {fact.predicate})" if fact.key else "(no key)"
    return (
        f"{fact.id}  {fact.status.value:<10} {fact.confidence:.2f}  "
        f"[{format_date(fact.asserted_at)}]  {fact.text}  {key} source={fact.source}{extra}"
    )


# -- commands ------------------------------------------------------------------------------
def cmd_remember(args: argparse.Namespace, mem: Memory) -> int:
    """Each line of the text is one statement; exit 0 when every line was stored or a
    request honoured, 1 when the gate refused any (each says why) or a line could not be
    remembered at all (named by its number; the lines after it are still remembered)."""
    text = _remember_input(args)
    # the whole input is looked at for secrets before it is cut into lines: a pasted key
    # is refused whole, never stored line by line
    numbered = mem.remember_numbered(
        text,
        source=args.source,
        valid_from=args.valid_from,
        derived_from=args.derived_from or (),
        force=args.force,
        keep_going=True,
    )
    several = len(numbered) > 1
    for n, result in numbered:
        if args.json:
            continue
        at = f"line {n}: " if several and n else ""
        if result.code == "invalid":
            _out(f"not stored (invalid): {clipped(result.why)}", sys.stderr)
            continue
        for each in (result, *result.also):  # a text of several statements: each one
            if each.code == "request":
                _out(f"{at}honoured: {each.why}")
                continue
            if not each.accepted:
                _out(f"{at}{refusal(each.code, each.why)}", sys.stderr)
                continue
            assert each.fact is not None and each.relation is not None
            _out(f"{at}{each.relation.value}: {each.fact.id}  {each.fact.text}")
            _out(f"  why: {each.why}")
            for touched in each.touched:
                _out(f"  {touched.status.value}: {touched.id}  {touched.text}")
    results = [result for _, result in numbered]
    if args.json:
        _json(
            results[0].to_dict()
            if len(results) == 1
            else [{"line": n, **r.to_dict()} for n, r in numbered]
        )
    elif several:
        stored = sum(
            1 for r in results for each in (r, *r.also) if each.accepted and each.fact is not None
        )
        refused = sum(
            1
            for r in results
            for each in (r, *r.also)
            if not each.accepted and each.code != "request"
        )
        _out(
            f"{len(numbered)} statement(s) read: {stored} stored, {refused} not stored"
            + (" (each named above)" if refused else ""),
            sys.stderr,
        )
    return 0 if all(r.accepted or _honoured(r) for r in results) else 1


def _honoured(result: Any) -> bool:
    """A request honoured, and every statement said with it stored (or, named by it,
    left unstored as asked)."""
    return result.code == "request" and all(
        each.accepted or each.code in ("request", "suppressed") for each in result.also
    )


def _remember_input(args: argparse.Namespace) -> str:
    """The text `remember` is given: the argument, standard input (`-`), or a file
    (`--file PATH`, `-` for standard input), one statement a line."""
    if args.file is not None and args.text is not None:
        raise UsageError("give the statement or --file, not both")
    if args.file is None and args.text is None:
        raise UsageError("remember needs a statement, - (standard input) or --file PATH")
    if args.file is None:
        return str(sys.stdin.read() if args.text == "-" else args.text)
    if args.file == "-":
        return sys.stdin.read()
    with open(args.file, encoding="utf-8") as handle:
        return handle.read()


def cmd_recall(args: argparse.Namespace, mem: Memory) -> int:
    hits = mem.recall(
        args.query,
        k=args.k,
        subject=args.subject,
        min_confidence=args.min_confidence,
        as_of=args.as_of,
        known_at=args.known_at,
    )
    if args.json:
        _json([h.to_dict() for h in hits])
    elif args.render:
        view = mem.view(args.as_of, args.known_at)
        block = mem.render(
            hits,
            query=None if args.no_floor else args.query,
            as_of=view.as_of if view else None,
            changes=args.changes,
        )
        _out(block or "(nothing known)")
    else:
        if not hits:
            _out("(nothing known)")
        for n, hit in enumerate(hits, 1):
            _out(
                f"{n}. "
                + _fact_line(hit.fact, f"  via={'+'.join(hit.found_by)} score={hit.score:.4f}")
            )
    return 0


def cmd_list(args: argparse.Namespace, mem: Memory) -> int:
    facts = mem.list(
        subject=args.subject,
        status=args.status,
        limit=args.limit,
        offset=args.offset,
        as_of=args.as_of,
        known_at=args.known_at,
    )
    if args.json:
        _json([f.to_dict() for f in facts])
        return 0
    if not facts:
        _out("(no facts)")
    for fact in facts:
        prov = f" from={','.join(fact.derived_from)}" if fact.derived_from else ""
        _out(_fact_line(fact, prov))
    return 0


def cmd_forget(args: argparse.Namespace, mem: Memory) -> int:
    if args.all and not args.yes:
        raise UsageError(
            f"forget --all deletes everything in scope {mem.scope!r}: add --yes to confirm"
        )
    report = mem.forget(id=args.id, subject=args.subject, episode=args.episode, everything=args.all)
    if args.json:
        _json(report.to_dict())
    else:
        _out(
            f"forgot {report.facts} fact(s) in scope {report.scope!r}: {report.vectors} "
            f"vector(s), {report.fts_rows} search row(s), {report.lineage} lineage row(s), "
            f"{report.conflicts} conflict(s), {report.rejections} rejection(s), "
            f"{report.aliases} alias(es), {report.rules} rule(s)"
        )
        for fid in report.fact_ids:
            _out(f"  removed {fid}")
        for fid in report.reopened:
            _out(f"  {fid} no longer conflicted: back to active")
        if report.erased:
            _out(
                "  erased: no copy is left in the database files (old WAL segments and "
                "backups aside: see docs/security.md)"
            )
        else:
            _out(
                f"  erase pending ({report.pending_erase} forget(s) waiting): a reader of "
                "an older snapshot or a lock held it up; run `credo erase` to finish it"
            )
    return 0


def cmd_erase(args: argparse.Namespace, mem: Memory) -> int:
    """Finish the erase step of earlier forgets (exit 1 while some is still held up)."""
    done = mem.store.erase(wait=args.wait)
    left = mem.store.pending_erase()
    if args.json:
        _json({"erased": done, "pending_erase": left})
    elif done:
        _out("erased: no forgotten record is left in the database files")
    else:
        _out(
            f"{left} erase(s) still pending: a reader of an older snapshot or a lock "
            "held it up; try again when it is done"
        )
    return 0 if done else 1


def cmd_export(args: argparse.Namespace, mem: Memory) -> int:
    """An export holds everything the scope knows: a file written with -o is 0600 (and
    a directory made for it 0700) whatever the umask. Times are written in ISO 8601 (UTC,
    to the microsecond where a time has a fraction, so nothing is lost); `import` reads
    these and the epoch seconds older exports hold. With -o, what was written is said."""
    from .memory import Memory
    from .store import open_private
    from .transfer import dumps_jsonl

    scopes = mem.store.scopes() if args.all_scopes else [mem.scope]
    stream = open_private(args.output) if args.output else sys.stdout
    counts: dict[str, int] = {}
    try:
        for scope in scopes:
            records = (export_times(r) for r in Memory(mem.store, scope=scope).export())
            for line in dumps_jsonl(_counted(records, counts)):
                stream.write(line + "\n")
    finally:
        if args.output:
            stream.close()
    if args.output:
        kinds = ", ".join(f"{n} {kind}(s)" for kind, n in counts.items() if kind != "header")
        _out(
            f"wrote {args.output}: {len(scopes)} scope(s) ({', '.join(scopes) or 'none'}); "
            f"{kinds or 'nothing in them'}",
            sys.stderr if args.json else None,
        )
    return 0


def _counted(
    records: Any, counts: dict[str, int]
) -> Any:  # an iterator of records, counted by type as they pass
    for record in records:
        kind = str(record.get("type", "record"))
        counts[kind] = counts.get(kind, 0) + 1
        yield record


def cmd_import(args: argparse.Namespace, mem: Memory) -> int:
    """Import writes one scope: --scope (a record naming another scope is refused, and
    nothing written), or --into, which copies every record into that scope. --all-scopes
    restores an `export --all-scopes` file, each record into the scope it names. Exit 1
    when any record was refused (each is named on stderr; the rest is imported)."""
    if args.into is not None and args.all_scopes:
        raise UsageError(
            "--into copies into one scope; --all-scopes restores each scope "
            "as exported: give one of them"
        )
    if args.into is not None and args.scope is not None and args.scope != args.into:
        raise UsageError(
            f"--scope {args.scope} and --into {args.into} disagree: --into "
            "names the scope the import writes"
        )
    from .memory import Memory
    from .transfer import ImportReport, import_all_scopes, read_json_lines

    name = "<stdin>" if args.file == "-" else args.file
    if args.file == "-":
        stream: Any = getattr(sys.stdin, "buffer", sys.stdin)
    else:
        stream = open(args.file, "rb")  # noqa: SIM115 - closed below
    try:  # a line over the limit is read past, never held whole, and reported refused
        records = [record for _, record in read_json_lines(stream, name=name, skip_long=True)]
    finally:
        if args.file != "-":
            stream.close()
    shown = Progress(1, label="import", quiet=args.json)  # on a terminal only
    shown.note(f"{len(records)} record(s) read from {name}; importing")
    if args.all_scopes:
        reports = import_all_scopes(mem.store, records, clock=mem.clock)
    else:
        target = mem if args.into is None else Memory(mem.store, scope=args.into, policy=mem.policy)
        reports = [target.import_(records, into=args.into)]
    shown.step(f"{sum(r.facts for r in reports)} fact(s) written")
    refused = [line for r in reports for line in r.refused]
    if args.json:
        _json(
            reports[0].to_dict()
            if len(reports) == 1 and not args.all_scopes
            else [r.to_dict() for r in reports]
        )
    else:
        for report in reports or [ImportReport()]:
            _out(_import_line(report))
    for line in refused:
        _out(f"credo: {line}", sys.stderr)
    return 1 if refused else 0


def _import_line(report: ImportReport) -> str:
    renumbered = (
        f"; {report.renumbered} id(s) already in use in this database were replaced"
        if report.renumbered
        else ""
    )
    return (
        f"imported {report.facts} fact(s) ({report.skipped} already there), "
        f"{report.lineage} lineage, {report.conflicts} conflict(s), {report.events} "
        f"decision(s), {report.aliases} "
        f"alias(es), {report.rules} rule(s), {report.rejections} rejection(s) into "
        f"{', '.join(report.scopes) or 'nothing'}{renumbered}"
        + (f"; {len(report.refused)} record(s) refused" if report.refused else "")
    )


def cmd_conflicts(args: argparse.Namespace, mem: Memory) -> int:
    conflicts = mem.conflicts(include_resolved=args.all)
    if args.json:
        _json([c.to_dict() for c in conflicts])
        return 0
    if not conflicts:
        _out("(no unresolved conflicts)")
    for c in conflicts:
        state = f"resolved by {c.decided_by}: {c.resolution}" if c.resolved_at else "unresolved"
        _out(f"{state}; {c.reason}")
        _out("  " + _fact_line(c.a))
        _out("  " + _fact_line(c.b))
    return 0


def cmd_resolve(args: argparse.Namespace, mem: Memory) -> int:
    changed = mem.resolve_conflict(keep=args.keep, retract=args.retract or (), decided_by=args.by)
    if args.json:
        _json([f.to_dict() for f in changed])
    else:
        for fact in changed:
            _out(_fact_line(fact))
    return 0


def cmd_alias(args: argparse.Namespace, mem: Memory) -> int:
    if args.alias_cmd == "add":
        alias, canonical = mem.alias_add(args.alias, args.canonical)
        _out(f"{alias} -> {canonical}")
        before = mem.store.all(scope=mem.scope, subject=alias)
        if before:  # an alias applies to what is read from now on: say what it leaves
            _out(
                f"{len(before)} fact(s) stored before under {alias!r} keep that subject "
                f"(they are not about {canonical!r} to recall, list or forget --subject); "
                "forget any by id and remember it again to key it anew:"
            )
            for fact in before:
                _out("  " + _fact_line(fact))
    elif args.alias_cmd == "remove":
        mem.alias_remove(args.alias)
        _out(f"removed alias {args.alias}")
    else:
        table = mem.aliases()
        if args.json:
            _json(table)
        else:
            for alias, canonical in table.items():
                _out(f"{alias} -> {canonical}")
            if not table:
                _out("(no aliases)")
    return 0


def cmd_rejected(args: argparse.Namespace, mem: Memory) -> int:
    if args.prune is not None:
        if args.prune < 0:
            raise UsageError("--prune takes how many rejections to keep (0 or more)")
        removed = mem.store.prune_rejections(scope=mem.scope, keep=args.prune)
        _out(f"pruned {removed} rejection(s); kept the newest {args.prune}")
        return 0
    rejections = mem.rejections(limit=args.limit)
    if args.json:
        _json([r.to_dict() for r in rejections])
        return 0
    if not rejections:
        _out("(no rejections)")
    for r in rejections:  # rows stored before rejections were cut are cut when shown
        _out(f"[{format_date(r.created_at)}] {r.code:<18} {_cut(r.text)}  ({_cut(r.reason)})")
    return 0


def cmd_stats(args: argparse.Namespace, mem: Memory) -> int:
    where = {"database": db_label(getattr(args, "db_in_use", "")), "scope": mem.scope}
    stats = mem.stats()
    if args.json:
        _json({**where, **stats})
    else:
        for name, value in {**where, **stats}.items():
            _out(f"{name}: {value}")
    return 0


def cmd_reindex(args: argparse.Namespace, mem: Memory) -> int:
    shown = Progress(1, label="reindex")  # on a terminal only
    shown.note(f"re-embedding every fact with {mem.store.embedder.name}")
    count = mem.store.reindex()
    shown.step(f"{count} fact(s)")
    _out(f"re-embedded {count} fact(s) with {mem.store.embedder.name}")
    return 0


def cmd_migrate(args: argparse.Namespace, mem: Memory) -> int:
    applied: list[str] = getattr(mem.store, "applied_migrations", list)()
    _out("schema up to date; migrations applied: " + (", ".join(applied) or "none"))
    return 0


# -- parser --------------------------------------------------------------------------------
def _time_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--as-of",
        metavar="DATE",
        help="what was true at DATE (YYYY, YYYY-MM, YYYY-MM-DD or ISO 8601; a date means "
        "the end of that period), as credo knows it now",
    )
    p.add_argument(
        "--known-at",
        metavar="DATE",
        help="as credo knew it at DATE (record time; --as-of defaults to the same date)",
    )


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given the command line, only what it needs. A command defined
    here leaves the command groups (MCP, eval, ingest: heavy imports) unregistered, so a
    `credo recall` per prompt does not pay for them; anything else gets every command."""
    parser: argparse.ArgumentParser = _Parser(
        prog="credo",
        description="credo: a semantic fact store for AI agents. Stores facts (not "
        "transcripts), refuses what is not a fact, keeps contradictions in view, and "
        "forgets when asked.",
        epilog="Environment: CREDO_DB (database path or postgresql:// URL), CREDO_SCOPE, "
        "CREDO_EMBEDDER (local:minilm, local:static, hash, openai:<model>, ollama:<model>), "
        "CREDO_CACHE_DIR (what a cold start would build again; default: the user cache "
        "directory; off: no cache).",
    )
    parser.add_argument("--version", action="version", version=f"credo {__version__}")
    _add_globals(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    command = CommandAdder(sub)
    p = command(
        "remember",
        cmd_remember,
        "Store a statement as a fact (gate and resolver "
        'decide); each line is one statement. "Don\'t remember ..." and "forget '
        'that ..." are honoured, never stored. Exits 1 when the gate refuses any.',
        read=False,
    )
    p.add_argument(
        "text",
        nargs="?",
        help='the statement, e.g. "Arttu deploys arttuan.com on Vercel"; '
        "- reads statements from standard input, one a line",
    )
    p.add_argument(
        "--file",
        "-f",
        metavar="PATH",
        help="read statements from a file, one a line (each is reported with its line "
        "number; a line that cannot be remembered is named and the rest still are)",
    )
    p.add_argument(
        "--source", default="user", help="user (default), tool:<name>, imported:<doc> or inferred"
    )
    p.add_argument(
        "--valid-from",
        metavar="DATE",
        help="when it became true (YYYY-MM-DD or ISO 8601; default: now)",
    )
    p.add_argument(
        "--derived-from",
        action="append",
        metavar="ID",
        help="an episode, turn or fact id it comes from (repeatable)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="store it even though the same claim was retracted before (re-assert it)",
    )

    p = command("recall", cmd_recall, "Find the facts that answer a query.")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=5, help="how many facts (default 5)")
    p.add_argument("--subject", help="only facts about this entity")
    p.add_argument(
        "--min-confidence",
        type=_unit_interval,
        default=None,
        metavar="X",
        help="leave out facts below this confidence, conflicted ones too (0 to 1; default 0.4)",
    )
    p.add_argument("--render", action="store_true", help="print the prompt block")
    p.add_argument(
        "--changes",
        action="store_true",
        help="with --render: say what a recently changed value replaced "
        '("since 2025-03; before: Helsinki")',
    )
    p.add_argument(
        "--no-floor",
        action="store_true",
        help="with --render: render all k facts, not only those that bear on the query",
    )
    _time_options(p)

    p = command("list", cmd_list, "List what is stored in the scope, with provenance.")
    p.add_argument("--subject", help="only facts about this entity (aliases apply)")
    p.add_argument("--status", help="active, superseded, conflicted or retracted")
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--offset", type=int, default=0)
    _time_options(p)

    p = command("forget", cmd_forget, "Delete facts and everything derived from them.", read=False)
    p.add_argument("--id", help="one fact id")
    p.add_argument("--subject", help="every fact about an entity")
    p.add_argument("--episode", help="every fact from one source episode or turn")
    p.add_argument("--all", action="store_true", help="everything in the scope")
    p.add_argument("--yes", action="store_true", help="confirm --all")

    p = command(
        "erase",
        cmd_erase,
        "Finish erasing what forget removed from the database "
        "files, when a reader or a lock held it up.",
        read=False,
    )
    p.add_argument(
        "--wait",
        type=float,
        default=None,
        help="seconds to wait for older snapshots and locks (default 5)",
    )

    p = command("export", cmd_export, "Write the scope as JSON Lines (import reads it back).")
    p.add_argument("--output", "-o", help="file to write (default: stdout)")
    p.add_argument("--all-scopes", action="store_true", help="every scope in the database")

    p = command(
        "import",
        cmd_import,
        "Read an export (JSON Lines) into the scope. Every "
        "record is checked as a write: a malformed one stops the import; a fact "
        "holding a secret or over the size limit is refused (named on stderr, exit "
        "1). A record of another scope is refused unless --into copies it.",
        read=False,
    )
    p.add_argument("file", nargs="?", default="-", help="export file, or - for stdin")
    p.add_argument(
        "--into",
        metavar="SCOPE",
        help="copy every record into SCOPE, whatever scope the file names (ids "
        "in use elsewhere in the database are replaced)",
    )
    p.add_argument(
        "--all-scopes",
        action="store_true",
        help="restore an `export --all-scopes` file: each record into the scope it names",
    )

    p = command("conflicts", cmd_conflicts, "List unresolved contradictions.")
    p.add_argument("--all", action="store_true", help="include resolved ones")

    p = command(
        "resolve",
        cmd_resolve,
        "Settle a contradiction: keep one fact, or retract facts.",
        read=False,
    )
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--keep", metavar="ID", help="the fact that is right")
    group.add_argument("--retract", metavar="ID", nargs="+", help="facts that are wrong")
    p.add_argument("--by", default="user", help="who decided (recorded)")

    p = command.sub.add_parser(
        "alias",
        help="Manage the alias table (ALIAS names CANONICAL).",
        description="Manage the alias table: an alias is another name "
        "for one entity, set explicitly, never guessed.",
    )
    p.set_defaults(handler=cmd_alias, standalone=None, json=False)
    alias_sub = p.add_subparsers(dest="alias_cmd", required=True, metavar="ACTION")
    a = alias_sub.add_parser(
        "add",
        help="ALIAS CANONICAL: make ALIAS mean CANONICAL from now on (facts already "
        "stored under ALIAS keep their subject: they are listed)",
    )
    a.add_argument("alias")
    a.add_argument("canonical")
    a = alias_sub.add_parser("remove", help="remove an alias")
    a.add_argument("alias")
    alias_sub.add_parser("list", help="list aliases").add_argument(
        "--json", action="store_true", help="print JSON"
    )

    p = command("rejected", cmd_rejected, "Show what the gate refused, with reasons.")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument(
        "--prune",
        type=int,
        metavar="KEEP",
        help="delete all but the newest KEEP rejections of the scope",
    )

    command("stats", cmd_stats, "Counts of facts by status, conflicts and rejections.")
    command("reindex", cmd_reindex, "Re-embed every fact with the current embedder.", read=False)
    command("migrate", cmd_migrate, "Apply pending schema migrations.", read=False)
    if argv is not None and _command_of(argv) in sub.choices:
        return _accept_globals(parser)
    if argv is not None and _asks_top_level(argv):
        # `credo --help` and `--version` run no command: the command groups are named,
        # with their help, but their modules (the MCP server, ingestion, the inspector:
        # numpy, the store, pydantic) are not imported (a test keeps the two in step)
        for name, help_ in GROUP_COMMANDS:
            sub.add_parser(name, help=help_, description=help_)
        return _accept_globals(parser)
    for register in _command_groups():
        register(command)
    return _accept_globals(parser)


#: the options every command takes, before or after its name: (flags, argparse settings)
GLOBAL_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "--db",
        {
            "metavar": "PATH|URL",
            "help": "SQLite file or postgresql:// URL (default: $CREDO_DB or a file in your "
            "user data directory); a file in a directory that does not exist is an error "
            "unless --create",
        },
    ),
    ("--scope", {"help": "the scope to read and write (default: $CREDO_SCOPE or 'default')"}),
    ("--embedder", {"help": "embedding model name (default: $CREDO_EMBEDDER or local:minilm)"}),
    (
        "--create",
        {
            "action": "store_true",
            "help": "make the --db file's directory when it does not exist (the default "
            "location is always made)",
        },
    ),
)


def _add_globals(parser: argparse.ArgumentParser, *, copy: bool = False) -> None:
    """The global options on `parser`. On a command's parser (`copy`) they default to
    SUPPRESS: left out there, they leave what was given before the command alone."""
    for flag, settings in GLOBAL_OPTIONS:
        if flag in parser._option_string_actions:  # the command has its own (eval --embedder)
            continue
        extra: dict[str, Any] = {"default": argparse.SUPPRESS} if copy else {}
        parser.add_argument(flag, **settings, **extra)


def _accept_globals(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Let every command, at every level, take the global options after its name too
    (`credo mcp --scope arttu --db x.db`, `credo alias add a b --scope s`), and take no
    option by a prefix of its name: `credo recall x --k 0` was read as `--known-at 0`
    and answered "(nothing known)"; now it is an error that names the option."""
    parser.allow_abbrev = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):
                _add_globals(command, copy=True)
                _accept_globals(command)
    return parser


#: the global options that take a value (the command is the first word after them)
_GLOBAL_VALUES = ("--db", "--scope", "--embedder")


def _command_of(argv: Sequence[str]) -> str | None:
    """The command word of a command line, or None where it is unclear (then every
    command is registered and argparse decides)."""
    words = iter(argv)
    for word in words:
        if word in _GLOBAL_VALUES:
            next(words, None)
        elif word == "--create" or word.startswith(tuple(f"{opt}=" for opt in _GLOBAL_VALUES)):
            continue
        elif word.startswith("-"):
            return None  # --help, --version, an abbreviation: let argparse see everything
        else:
            return word
    return None


def _asks_top_level(argv: Sequence[str]) -> bool:
    """Whether a command line is `credo [global options] --help|-h|--version` (or holds
    nothing but global options): the top level's help, its version or its usage."""
    words = iter(argv)
    for word in words:
        if word in _GLOBAL_VALUES:
            next(words, None)
        elif word == "--create" or word.startswith(tuple(f"{opt}=" for opt in _GLOBAL_VALUES)):
            continue
        else:
            return word in ("-h", "--help", "--version")
    return True


#: the commands of the command groups (`_command_groups`) and their help, as `credo --help`
#: lists them without importing the groups; tests/test_cli_startup.py checks each is what
#: the group registers (change both together)
GROUP_COMMANDS: tuple[tuple[str, str], ...] = (
    (
        "mcp",
        "Serve the scope's memory to MCP clients (Claude Desktop, Claude Code, Cursor): over "
        "stdio, or over streamable HTTP with --http. The scope is fixed at start; with "
        "--http --tokens, many scopes are served, each client bound to its scope by its "
        "token.",
    ),
    ("eval", "Measure credo: probe suites, LoCoMo evidence recall, the resolver, extraction."),
    (
        "ingest",
        "Extract facts from a conversation file (JSON Lines, OpenAI messages, LoCoMo, a "
        "ChatGPT or Claude data export (conversations.json or the .zip as downloaded) or a "
        "folder of Markdown / text notes) through the gate; prints a report. Each "
        "episode's outcome is recorded: running it again skips what is done and retries "
        "what failed, so an interrupted ingest resumes where it stopped.",
    ),
    ("gate", "Show or edit the gate policy: what counts as a fact in this store."),
    ("rules", 'List, add or remove suppression rules ("don\'t remember ...").'),
    (
        "why",
        "Why credo holds a fact: its source and confidence over time, the statements and "
        "episodes it came from, and every decision that touched it.",
    ),
    (
        "history",
        "The timeline of values on each key of a subject (what changed when, and how).",
    ),
    (
        "retract",
        '"That\'s wrong": take a fact out of recall, keeping it in lineage with who and why. '
        "Nothing it superseded comes back; the same claim is refused later unless "
        "remembered with --force.",
    ),
    (
        "ui",
        "Serve the memory inspector: a local web page to browse, search, settle conflicts, "
        "review rejections, forget and export. Needs a sign-in token (see --token-file).",
    ),
    (
        "serve",
        "Serve an HTTP JSON API for many users: the scope is named in each request, and "
        "each token may touch only the scopes its grant names (see --tokens).",
    ),
)


def _command_groups() -> list[Callable[[CommandAdder], None]]:
    """Command groups that live beside the modules they drive."""
    groups: list[Callable[[CommandAdder], None]] = []
    from .cli_mcp import register as register_mcp

    groups.append(register_mcp)
    from .cli_eval import register as register_eval

    groups.append(register_eval)
    from .cli_ingest import register as register_ingest

    groups.append(register_ingest)
    from .cli_time import register as register_time

    groups.append(register_time)
    from .ui import register as register_ui

    groups.append(register_ui)
    from .serve import register as register_serve

    groups.append(register_serve)
    return groups


def db_label(db: str) -> str:
    """The database as `stats` shows it: a path made absolute, or a URL without its
    password."""
    from pathlib import Path
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    if "://" not in db:
        return db if db == ":memory:" else str(Path(db).expanduser().resolve())
    parts = urlsplit(db)
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k.lower() != "password"])
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _dashes_as_value(argv: Sequence[str]) -> str | None:
    """argparse (Python 3.11) turns a value "--" into an empty list ("--derived-from=--",
    "alias add x -- --"): refuse it as a usage error instead of failing later."""
    seen_sentinel = False
    for arg in argv:
        if arg.endswith("=--") and arg.startswith("--"):
            return f"{arg.split('=', 1)[0]}: '--' cannot be a value"
        if arg == "--":
            if seen_sentinel:
                return "'--' cannot be a value (after '--' every word is a value, but not '--')"
            seen_sentinel = True
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if problem := not_utf8(argv):
        print(f"credo: {problem}", file=sys.stderr)
        return 2
    if problem := _dashes_as_value(argv):
        print(f"credo: {problem}", file=sys.stderr)
        return 2
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
        cache.enable(settings.cache_dir or None)  # before the write path is imported
        if args.standalone is not None:
            status: int = args.standalone(args, settings)
            return status
        mem = open_memory(args, settings)
        try:
            code: int = args.handler(args, mem)
            return code
        finally:
            mem.store.close()
    except UsageError as exc:
        print(f"credo: {clipped(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `credo list | head` is fine
        return 0
    except (
        CredoError,  # anything credo refused or could not do: a message, never a traceback
        OSError,
        UnicodeError,  # standard input that is not UTF-8
    ) as exc:
        print(f"credo: error: {clipped(str(exc))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
