"""One plot: recall latency (p50, p95 as error bar tops) against store size, for credo on
SQLite (and PostgreSQL when measured) and credo vs mem0 from bench_mem0.py. Runs in the
benchmark environment (matplotlib is not a credo dependency):

    .bench-venv/bin/python bench/plot.py          # -> docs/benchmarks-latency.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def series(ax: Any, xs: list[int], p50: list[float], p95: list[float], label: str,
           style: str) -> None:
    lower = [0.0] * len(xs)
    upper = [b - a for a, b in zip(p50, p95, strict=True)]
    ax.errorbar(xs, p50, yerr=[lower, upper], fmt=style, capsize=3, label=label)


def ratio_panel(ax: Any) -> None:
    """Recall p50 over the query embedding p50 of the same run: the ratio to the floor,
    which moves far less with machine load than either figure."""
    for name, label, style in (("scale-sqlite.json", "SQLite", "o-"),
                               ("scale-postgres.json", "PostgreSQL", "s-")):
        data = load(name)
        rows = sorted((r for r in (data or {}).get("rows", []) if "recall_over_embed" in r),
                      key=lambda r: r["facts"])
        if rows:
            ax.plot([r["facts"] for r in rows], [r["recall_over_embed"] for r in rows], style,
                    label=f"credo recall / query embedding, {label}")
            for r in rows:
                ax.annotate(f"load {r.get('load_1min', '?')}", (r["facts"], r["recall_over_embed"]),
                            fontsize=7, textcoords="offset points", xytext=(4, 4))
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("facts in the scope")
    ax.set_ylabel("recall p50 / query-embedding p50 (same run)")
    ax.set_title("Ratio to the floor")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks-latency.png"))
    args = parser.parse_args()
    fig, (ax, rax) = plt.subplots(1, 2, figsize=(14, 7), gridspec_kw={"width_ratios": [3, 2]})
    ratio_panel(rax)
    for name, label, style in (("scale-sqlite.json", "credo recall, SQLite (local:minilm)",
                                "o-"),
                               ("scale-postgres.json", "credo recall, PostgreSQL (local:minilm)",
                                "s-")):
        data = load(name)
        if data:
            rows = sorted(data["rows"], key=lambda r: r["facts"])
            series(ax, [r["facts"] for r in rows], [r["recall_p50_ms"] for r in rows],
                   [r["recall_p95_ms"] for r in rows], label, style)
    for name, tag, styles in (("mem0.json", "", ("^--", "v--", "x--")),
                              ("mem0-nospin.json", ", no-spin run", ("D:", "s:", "+:"))):
        data = load(name)
        if not data or not data.get("latency"):
            continue
        rows = sorted(data["latency"], key=lambda r: r["facts"])
        store = data["mem0_config"]["vector_store"]["provider"]
        for (key, label), style in zip(
            (("credo_int8_recall", "credo recall (local:minilm int8)"),
             (None, f"mem0 search ({store}, fp32 all-MiniLM-L6-v2)"),
             ("credo_recall", "credo recall (fp32 all-MiniLM-L6-v2)")), styles, strict=True):
            prefix = key or "mem0_search"
            have = [r for r in rows if f"{prefix}_p50_ms" in r]  # mem0 may not reach a size
            series(ax, [r["facts"] for r in have], [r[f"{prefix}_p50_ms"] for r in have],
                   [r[f"{prefix}_p95_ms"] for r in have], label + tag, style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("facts in the scope")
    ax.set_ylabel("latency per query, ms (marker p50, bar top p95)")
    ax.set_title("Recall latency against store size (2 shared cores, k=10; see the load)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
