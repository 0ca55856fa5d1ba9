"""``rt4chart report`` and ``rt4chart export``, and ``rt4chart verify --html``: the audit from the
command line. ``cli.py`` registers them here; the work is in ``html.py`` and ``table.py``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rt4chart_plugins.audit.rows import load_results


def register(sub: Any) -> None:
    """Add ``report`` and ``export`` to the ``rt4chart`` subcommands."""
    r = sub.add_parser("report", help="an HTML audit (one self-contained file) of verify or bench results")
    r.add_argument("results", help="JSONL written by `rt4chart verify FILE -o …` or a bench run's <system>.jsonl")
    r.add_argument("-o", "--output", required=True, help="the HTML file to write")
    r.add_argument("--input", help="the samples JSONL the results came from: its other fields (task, meta…) "
                                   "become the page's field filter")
    r.add_argument("--title", default=None, help="the page's title (default: the results file's name)")
    r.add_argument("--baseline", metavar="RESULTS", help="an earlier run of the same rows: each row shows its change "
                                                         "and the page sorts by it (`rt4chart diff` compares both)")
    r.add_argument("--by", nargs="+", metavar="FIELD", default=None,
                   help="the input fields to aggregate by (default: each with 2 to 30 values, such as task)")
    r.add_argument("--plain", action="store_true", help="every row as markup, however many (default: past 1,000 "
                                                        "rows the rows after the first page are compressed)")
    r.set_defaults(func=cmd_report)

    x = sub.add_parser("export", help="one row per claim of verify or bench results, as CSV or parquet")
    x.add_argument("results", help="JSONL written by `rt4chart verify FILE -o …` or a bench run's <system>.jsonl")
    x.add_argument("-o", "--output", required=True, help="claims.csv or claims.parquet")
    x.add_argument("--input", help="the samples JSONL the results came from: its other fields become meta.* columns")
    x.set_defaults(func=cmd_export)


def cmd_report(args: argparse.Namespace) -> int:
    from rt4chart_plugins.audit.html import write_html
    from rt4chart_plugins.audit.summary import bench_context

    results = Path(args.results)
    rows = load_results(results, inputs=args.input)
    settings, metrics = bench_context(results)
    baseline = load_results(args.baseline, inputs=args.input) if args.baseline else None
    write_html(rows, args.output, title=args.title or f"RT4CHART audit: {results.name}", settings=settings,
               metrics=metrics, by=args.by, baseline=baseline, compress=False if args.plain else None)
    failed = sum(1 for r in rows if not r.ok)
    print(f"{len(rows)} rows ({failed} failed) → {args.output}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from rt4chart_plugins.audit.table import write_table

    rows = load_results(args.results, inputs=args.input)
    n = write_table(rows, args.output)
    print(f"{len(rows)} answers, {n} claim rows → {args.output}", file=sys.stderr)
    return 0


def write_verify_html(report: Any, args: argparse.Namespace) -> None:
    """``rt4chart verify --context … --answer … --html PATH``: the one answer's audit page, with
    the flags it was verified with in the header."""
    from rt4chart_plugins.audit.html import write_html

    keys = ("method", "judge", "decomposition", "window_size", "window_overlap", "no_global", "scorer", "chunks",
            "threshold")
    settings = {k: v for k in keys if (v := getattr(args, k, None)) not in (None, False)}
    write_html([("answer", report)], args.html, title="RT4CHART audit", settings=settings)
    print(f"audit → {args.html}", file=sys.stderr)
