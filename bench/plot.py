"""One figure: recall latency (p50, p95 as error bar tops) against store size, for credo on
SQLite (and PostgreSQL when measured, bench_scale.py) and credo vs mem0 (bench_mem0.py);
beside it each system's recall over its own query embedding, and each system's top 10
against exact search over its own vectors. Runs in the benchmark
environment (matplotlib is not a credo dependency):

    .bench-venv/bin/python bench/plot.py          # -> docs/benchmarks-latency.png

Reads bench/results/*.json; a file that is missing, or a row without a figure (a size mem0
did not reach, a size a scale run has not got to yet), is left out, not an error.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FormatStrFormatter  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
Row = dict[str, Any]


def load(name: str) -> Any:
    path = RESULTS / name
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:  # a run still writing it
        return None


def scale_rows(backend: str) -> list[Row]:
    """bench_scale.py's one-scope rows of a backend, by size, from every
    `scale-<backend>*.json` ({"rows": [...]}, or a bare list): a size measured in several
    runs (1k-100k in one, 1M in another, `--out`) takes the newest file's row."""
    by_size: dict[int, Row] = {}
    files = sorted(RESULTS.glob(f"scale-{backend}*.json"), key=lambda p: p.stat().st_mtime)
    for path in files:
        data = load(path.name)
        rows = data.get("rows", []) if isinstance(data, dict) else data or []
        for r in rows:
            if isinstance(r, dict) and "facts" in r and r.get("scopes", 1) == 1:
                by_size[int(r["facts"])] = r
    return [by_size[n] for n in sorted(by_size)]


def mem0_rows(name: str) -> tuple[list[Row], str]:
    """bench_mem0.py's latency rows, renamed to one vocabulary: `shipped` (credo with
    local:minilm), `fp32` (credo on mem0's fp32 model), `mem0`. Older files called the
    shipped run credo_int8 and the fp32 one plain credo."""
    data = load(name)
    if not isinstance(data, dict) or not data.get("latency"):
        return [], ""
    store = data.get("mem0_config", {}).get("vector_store", {}).get("provider", "?")
    out = []
    for r in data["latency"]:
        old = "credo_int8_recall_p50_ms" in r
        prefixes = {
            "shipped": "credo_int8_recall" if old else "credo_recall",
            "fp32": "credo_recall" if old else "credo_fp32_recall",
            "mem0": "mem0_search",
            "qdrant": "mem0_qdrant_search",
        }
        row: Row = {"facts": r["facts"], "load_1min": r.get("load_1min")}
        for key, prefix in prefixes.items():
            for q in ("p50", "p95"):
                if f"{prefix}_{q}_ms" in r:
                    row[f"{key}_{q}"] = r[f"{prefix}_{q}_ms"]
        for key in ("credo_over_embed", "mem0_over_embed"):
            if key in r:
                row[key] = r[key]
        for key, name in (
            ("shipped", "credo_vector_overlap_at_10"),
            ("fp32", "credo_fp32_vector_overlap_at_10"),
            ("mem0", "mem0_vector_overlap_at_10"),
        ):
            if name in r:
                row[f"{key}_overlap"] = r[name]
        out.append(row)
    return sorted(out, key=lambda r: r["facts"]), store


def series(ax: Any, rows: list[Row], p50: str, p95: str, label: str, style: str) -> None:
    have = [r for r in rows if r.get(p50) is not None]
    if not have:
        return
    xs = [r["facts"] for r in have]
    lo = [r[p50] for r in have]
    up = [max(0.0, (r.get(p95) if r.get(p95) is not None else r[p50]) - r[p50]) for r in have]
    ax.errorbar(xs, lo, yerr=[[0.0] * len(xs), up], fmt=style, capsize=3, label=label)


def ratio_panel(ax: Any, mem0: list[Row], store: str) -> None:
    """Recall p50 over the query embedding p50 of the same run: the ratio to the floor,
    which moves far less with machine load than either figure."""
    lines: list[tuple[list[Row], str, str, str]] = [
        (scale_rows("sqlite"), "recall_over_embed", "credo, SQLite (bench_scale)", "o-"),
        (scale_rows("postgres"), "recall_over_embed", "credo, PostgreSQL (bench_scale)", "s-"),
        (mem0, "credo_over_embed", "credo, SQLite (bench_mem0 run)", "^--"),
        (mem0, "mem0_over_embed", f"mem0 ({store}), same run", "v--"),
    ]
    for rows, key, label, style in lines:
        have = [r for r in rows if r.get(key) is not None]
        if not have:
            continue
        ax.plot(
            [r["facts"] for r in have],
            [r[key] for r in have],
            style,
            label=f"{label}: search / its query embedding",
        )
        for r in have:
            ax.annotate(
                f"load {r.get('load_1min', '?')}",
                (r["facts"], r[key]),
                fontsize=7,
                textcoords="offset points",
                xytext=(4, 4),
            )
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    log_axes(
        ax,
        "recall p50 / query-embedding p50 (same run)",
        "Ratio to the floor (1 = all of it is the query embedding)",
        fontsize=7,
        ncol=1,
    )
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))  # after the scale, which resets it
    ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))


def overlap_panel(ax: Any, mem0: list[Row], store: str) -> None:
    """Each system's top 10 against exact search over its own vectors (1 = exactly what
    a brute-force search returns): credo's vector search, mem0's search."""
    lines: list[tuple[list[Row], str, str, str]] = [
        (scale_rows("sqlite"), "vector_overlap_at_10", "credo, SQLite (bench_scale)", "o-"),
        (scale_rows("postgres"), "vector_overlap_at_10", "credo, PostgreSQL (bench_scale)", "s-"),
        (mem0, "shipped_overlap", "credo, SQLite (bench_mem0 run)", "^--"),
        (mem0, "fp32_overlap", "credo on mem0's fp32 model", "x:"),
        (mem0, "mem0_overlap", f"mem0 ({store}), same run", "v--"),
    ]
    for rows, key, label, style in lines:
        have = [r for r in rows if r.get(key) is not None]
        if have:
            ax.plot([r["facts"] for r in have], [r[key] for r in have], style, label=label)
    ax.set_xscale("log")
    ax.set_ylim(0.8, 1.01)
    ax.set_xlabel("facts in the scope")
    ax.set_ylabel("top-10 overlap with exact search")
    ax.set_title("What exact search would return (1 = all of it)")
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=1)


def log_axes(ax: Any, ylabel: str, title: str, *, fontsize: int, ncol: int) -> None:
    """Both axes logarithmic, labelled, gridded, with the legend under the panel."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("facts in the scope")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=fontsize, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=ncol)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks-latency.png"))
    args = parser.parse_args()
    fig, (ax, rax, oax) = plt.subplots(
        1, 3, figsize=(20, 7), gridspec_kw={"width_ratios": [3, 2, 2]}
    )
    mem0, store = mem0_rows("mem0.json")
    ratio_panel(rax, mem0, store)
    overlap_panel(oax, mem0, store)
    for backend, label, style in (
        ("sqlite", "credo recall, SQLite (local:minilm)", "o-"),
        ("postgres", "credo recall, PostgreSQL (local:minilm)", "s-"),
    ):
        series(ax, scale_rows(backend), "recall_p50_ms", "recall_p95_ms", label, style)
    for name, tag, styles in (
        ("mem0.json", "", ("^--", "v--", "x:")),
        ("mem0-nospin.json", ", no-spin run", ("D:", "s:", "+:")),
    ):
        rows, kind = (mem0, store) if name == "mem0.json" else mem0_rows(name)
        for (key, label), style in zip(
            (
                ("shipped", "credo recall, SQLite (local:minilm), bench_mem0 run"),
                ("mem0", f"mem0 search ({kind}, fp32 all-MiniLM-L6-v2)"),
                ("fp32", "credo recall on mem0's fp32 model"),
            ),
            styles,
            strict=True,
        ):
            series(ax, rows, f"{key}_p50", f"{key}_p95", label + tag, style)
        if name == "mem0.json":  # the other offline store, where it was measured
            series(
                ax,
                rows,
                "qdrant_p50",
                "qdrant_p95",
                f"mem0 search ({'faiss' if kind == 'qdrant' else 'qdrant local'}), "
                "store comparison",
                "P",
            )
    log_axes(
        ax,
        "latency per query, ms (marker p50, bar top p95)",
        "Recall latency against store size (k=10, 2 shared cores: see the load)",
        fontsize=8,
        ncol=2,
    )
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
