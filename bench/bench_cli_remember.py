"""`credo remember` from the command line, cold and warm (issue 25, part 5).

cold: a fresh `credo remember "<one sentence>"` process each time (interpreter start,
imports, the English parser and the embedder loaded, one write), its wall time and its CPU
time (user + system: less moved by other work on the machine than wall time); with the
start-up cache (credo.cache, filled by an untimed first run) and without it
(CREDO_CACHE_DIR=off); also `credo --version` and `credo --help`, which load none of that,
and one `credo remember --file` of --file-lines statements (the cold start paid once).
warm: `Memory.remember` in one process, many calls after the first (what an agent, the MCP
server or `credo remember --file` pays a statement), its p50 and p95.

    .venv/bin/python bench/bench_cli_remember.py                  # default embedder
    .venv/bin/python bench/bench_cli_remember.py --embedder hash  # the write path alone
    # side by side with an older credo: its src unpacked (git archive REV src | tar -x -C DIR)
    .venv/bin/python bench/bench_cli_remember.py --before DIR/src --cold-runs 5

Figures depend on the machine and its load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: the installed `credo` command beside this interpreter (what a user runs), else -m
_SCRIPT = Path(sys.executable).parent / "credo"
CREDO = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "credo.cli"]

#: invented statements, first person and third, of the shapes people tell an assistant
SUBJECTS = ["I", "Arttu", "My sister", "Sam", "Our team"]
PREDICATES = {
    "live in {}": ["Berlin", "Porto", "Lisbon", "Oslo"],
    "work at {}": ["Acme", "Globex", "Initech"],
    "drive a {}": ["Volvo", "Toyota", "Skoda"],
    "like {}": ["green tea", "jazz", "hiking", "chess"],
    "have a dog called {}": ["Rex", "Luna", "Otto"],
}


def statements(n: int) -> list[str]:
    out = []
    verbs = list(PREDICATES)
    for i in range(n):
        subject = SUBJECTS[i % len(SUBJECTS)]
        verb = verbs[(i // len(SUBJECTS)) % len(verbs)]
        objects = PREDICATES[verb]
        text = f"{subject} {verb.format(objects[(i // 25) % len(objects)])}"
        if subject not in ("I", "Our team"):  # third person singular
            words = text.split()
            at = 1 if subject in ("Arttu", "Sam") else 2
            words[at] = {"have": "has"}.get(words[at], words[at] + "s")
            text = " ".join(words)
        out.append(text)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def cold(
    argv: list[str],
    runs: int,
    env: dict[str, str],
    stdin: str | None = None,
    command: list[str] | None = None,
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds (user + system, of the child) of `runs` fresh processes."""
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(
            [*(command or CREDO), *argv],
            env=env,
            input=stdin,
            text=True,
            capture_output=True,
            timeout=300,
        )
        if done.returncode not in (0, 1):  # 1: a statement refused, as the gate may
            raise SystemExit(f"credo {' '.join(argv)} failed: {done.stderr[-2000:]}")
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return times, cpu


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
        "runs": len(values),
    }


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--embedder", default="local:minilm")
    p.add_argument("--cold-runs", type=int, default=5)
    p.add_argument("--warm-calls", type=int, default=200)
    p.add_argument("--file-lines", type=int, default=100)
    p.add_argument("--out", help="also write the figures to this JSON file")
    p.add_argument(
        "--before",
        metavar="SRC",
        help="also time a cold remember of an older credo whose src folder is SRC (put "
        "first on PYTHONPATH, with a start-up cache of its own where it has credo.cache), "
        "alternating run by run with this one",
    )
    args = p.parse_args()
    if args.before and not (Path(args.before) / "credo" / "__init__.py").is_file():
        p.error(f"--before {args.before}: no credo/__init__.py there (give the src folder)")
    # an installed credo has its modules compiled (pip writes the .pyc files); a checkout
    # run with PYTHONDONTWRITEBYTECODE=1 would compile every credo module from source in
    # every cold process (0.2-0.3 s here), which no user pays: compile them once first
    import credo

    for src in (Path(credo.__file__).parent, *([Path(args.before)] if args.before else [])):
        compileall.compile_dir(str(src), quiet=1)
    folder = Path(tempfile.mkdtemp(prefix="credo-bench-cli-"))
    env = {
        **os.environ,
        "CREDO_EMBEDDER": args.embedder,
        "CREDO_DB": str(folder / "cold.db"),
        "CREDO_CACHE_DIR": str(folder / "cache"),
    }
    env.pop("CREDO_SCOPE", None)
    load = os.getloadavg()
    # make the database and fill the start-up cache: not timed
    cold(["remember", "I live in Berlin"], 1, env)
    figures: dict[str, object] = {
        "embedder": args.embedder,
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load],
    }
    no_cache = {**env, "CREDO_CACHE_DIR": "off"}
    one = ["remember", "Arttu deploys arttuan.com on Vercel"]
    lines = "\n".join(statements(args.file_lines)) + "\n"
    for name, argv, where, stdin, runs in (
        ("version", ["--version"], env, None, args.cold_runs),
        ("help", ["--help"], env, None, args.cold_runs),
        ("remember", one, env, None, args.cold_runs),
        ("remember_first_person", ["remember", "I moved to Porto"], env, None, args.cold_runs),
        ("remember_no_cache", one, no_cache, None, args.cold_runs),
        (f"remember_file_{args.file_lines}", ["remember", "-"], env, lines, 1),
    ):
        times, cpu = cold(argv, runs, where, stdin)
        figures[f"cold_{name}_s"] = summary(times)
        figures[f"cold_{name}_cpu_s"] = summary(cpu)

    if args.before:
        older = {
            **env,
            "PYTHONPATH": args.before,
            "CREDO_CACHE_DIR": str(folder / "before-cache"),  # its own, if it has one
            "CREDO_DB": str(folder / "before.db"),
        }
        python = [sys.executable, "-m", "credo.cli"]
        cold(["remember", "I live in Berlin"], 1, older, command=python)  # not timed
        for text in ("Arttu deploys arttuan.com on Vercel", "I moved to Porto"):
            pairs: dict[str, tuple[list[float], list[float]]] = {
                "before": ([], []),
                "now": ([], []),
            }
            for _ in range(args.cold_runs):  # alternating: both see the same load
                for label, where in (("before", older), ("now", env)):
                    times, cpu = cold(["remember", text], 1, where, command=python)
                    pairs[label][0].extend(times)
                    pairs[label][1].extend(cpu)
            for label, (times, cpu) in pairs.items():
                figures[f"side_by_side_{label}: {text}"] = {
                    "wall_median": round(statistics.median(times), 3),
                    "cpu_median": round(statistics.median(cpu), 3),
                    "runs": len(times),
                }

    from credo.embed import get_embedder
    from credo.memory import Memory
    from credo.store import open_store

    t0 = time.perf_counter()
    mem = Memory(open_store(str(folder / "warm.db"), get_embedder(args.embedder)), scope="bench")
    mem.remember("I live in Berlin")  # the first call loads the parser and the model
    figures["warm_first_call_s"] = round(time.perf_counter() - t0, 3)
    times = []
    for text in statements(args.warm_calls):
        t0 = time.perf_counter()
        mem.remember(text)
        times.append((time.perf_counter() - t0) * 1000)
    mem.store.close()
    figures["warm_remember_ms"] = {
        "p50": round(statistics.median(times), 2),
        "p95": round(pct(times, 0.95), 2),
        "calls": len(times),
    }
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
