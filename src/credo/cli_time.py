"""Commands about beliefs over time: `why`, `history` and `retract` (the `--as-of` and
`--known-at` reads are options of `recall` and `list`)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from .render import format_date
from .secrets import mask_field

if TYPE_CHECKING:
    from .cli_common import CommandAdder
    from .memory import Memory


def _print(text: str = "") -> None:
    print(text)


def _json(data: Any) -> None:
    from .isotime import iso_times  # times as every --json writes them: ISO 8601

    print(json.dumps(iso_times(data), ensure_ascii=False, indent=2, default=str))


def _day(stamp: float | None) -> str:
    return format_date(stamp) if stamp is not None else "-"


def cmd_why(args: argparse.Namespace, mem: Memory) -> int:
    why = mem.why(args.id)
    if args.json:
        _json(why.to_dict())
        return 0
    f = why.fact
    key = f"({f.subject}, {f.predicate}, {f.object})" if f.key else "(no key)"
    _print(f"{f.id}  {f.status.value}  {f.text}")
    _print(f"  key {key}; source {f.source}; confidence {f.confidence:.2f}")
    valid = f"valid from {_day(f.asserted_at)}" + (
        f" to {_day(f.valid_to)}" if f.valid_to is not None else ""
    )
    _print(f"  {valid}; learned {_day(f.created_at)}")
    _print("from:")
    for s in why.sources:
        where = ", ".join(s["episodes"]) or "no episode named"
        said = f" said: {json.dumps(s['said'], ensure_ascii=False)}" if s["said"] else ""
        extra = ""
        if s["kind"] in ("reinforced", "corroborated"):
            extra = " (independent)" if s["independent"] else " (a repetition)"
        _print(f"  {_day(s['at'])}  {s['kind']}{extra} by {s['source']} [{where}]{said}")
    _print("decisions:")
    for d in why.decisions:
        reason = f": {d['why']}" if d["why"] else ""
        _print(f"  {_day(d['at'])}  {d['what']}{reason}")
    if why.confidence:
        steps = " -> ".join(f"{c:.2f} ({_day(at)})" for at, c in why.confidence)
        _print(f"confidence: {steps}")
    return 0


def cmd_history(args: argparse.Namespace, mem: Memory) -> int:
    keys = mem.history(args.subject, args.predicate)
    if args.json:
        _json([k.to_dict() for k in keys])
        return 0
    if not keys:
        _print(f"(no keyed facts about {args.subject!r})")
    for key in keys:
        _print(f"{key.subject} {key.predicate.replace('_', ' ')}:")
        for e in key.entries:
            value = e["value"] if e["value"] is not None else e["text"]
            value = f"not {value}" if e["negated"] else value
            span = _day(e["valid_from"]) + (
                f" to {_day(e['valid_to'])}" if e["valid_to"] is not None else ""
            )
            state = e["status"]
            if e["retracted_by"]:
                state += f" by {e['retracted_by']}"
            _print(f"  {span:<24}  {value}  ({e['how']}, {e['source']}; {state})  {e['id']}")
            for c in e["conflicts"]:
                closed = (
                    f"until {_day(c['closed'])}, settled by {c['decided_by']}"
                    if c["closed"] is not None
                    else "open"
                )
                _print(f"  {'':<24}  conflict with {c['with']} from {_day(c['opened'])} ({closed})")
    return 0


def cmd_retract(args: argparse.Namespace, mem: Memory) -> int:
    fact = mem.retract(args.id, why=args.why, by=args.by)
    if args.json:
        _json(fact.to_dict())
    else:
        reason = f" ({mask_field(args.why)})" if args.why else ""
        _print(f"retracted {fact.id}{reason}: {fact.text}")
        _print(
            "  kept in lineage as retracted; out of recall; the same claim is refused "
            "later unless remembered with --force"
        )
    return 0


def register(command: CommandAdder) -> None:
    p = command(
        "why",
        cmd_why,
        "Why credo holds a fact: its source and confidence over time, the statements "
        "and episodes it came from, and every decision that touched it.",
    )
    p.add_argument("id", help="the fact id")

    p = command(
        "history",
        cmd_history,
        "The timeline of values on each key of a subject (what changed when, and how).",
    )
    p.add_argument("subject", help='the entity ("user" for the speaker)')
    p.add_argument("predicate", nargs="?", help="only this relation, e.g. live_in")

    p = command(
        "retract",
        cmd_retract,
        '"That\'s wrong": take a fact out of recall, keeping it in lineage with who and '
        "why. Nothing it superseded comes back; the same claim is refused later unless "
        "remembered with --force.",
        read=False,
    )
    p.add_argument("id", help="the fact id")
    p.add_argument("--why", metavar="TEXT", help="why it is wrong (recorded)")
    p.add_argument("--by", default="user", help="who retracts it (recorded; default user)")
