"""``rt4chart report``, ``rt4chart export``, ``rt4chart diff`` and ``rt4chart verify --html``: the
audit from the command line. ``cli.py`` registers them here; the work is in ``html.py``,
``table.py``, ``diff.py`` (with ``gate.py``, ``diff_output.py`` and ``compare.py``)."""

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
    r.add_argument(
        "--input",
        help="the samples JSONL the results came from: its other fields (task, meta…) become the page's field filter",
    )
    r.add_argument("--title", default=None, help="the page's title (default: the results file's name)")
    r.add_argument(
        "--baseline",
        metavar="RESULTS",
        help="an earlier run of the same rows: each row shows its change "
        "and the page sorts by it (`rt4chart diff` compares both)",
    )
    r.add_argument(
        "--by",
        nargs="+",
        metavar="FIELD",
        default=None,
        help="the input fields to aggregate by (default: each with 2 to 30 values, such as task)",
    )
    r.add_argument(
        "--plain",
        action="store_true",
        help="every row as markup, however many (default: past 1,000 "
        "rows the rows after the first page are compressed)",
    )
    r.set_defaults(func=cmd_report)

    x = sub.add_parser("export", help="one row per claim of verify or bench results, as CSV or parquet")
    x.add_argument("results", help="JSONL written by `rt4chart verify FILE -o …` or a bench run's <system>.jsonl")
    x.add_argument("-o", "--output", required=True, help="claims.csv or claims.parquet")
    x.add_argument("--input", help="the samples JSONL the results came from: its other fields become meta.* columns")
    x.set_defaults(func=cmd_export)
    register_diff(sub)


def _rules(given: list[str]) -> list[str]:
    """``--fail-on`` rules, repeated or comma-separated; an unknown one is refused by name."""
    from rt4chart_plugins.audit.gate import RULES
    from rt4chart_plugins.errors import InvalidInput

    rules = [r.strip() for text in given for r in text.split(",") if r.strip()]
    unknown = [r for r in rules if r not in RULES]
    if unknown:
        raise InvalidInput(f"--fail-on: unknown rule(s) {', '.join(unknown)}; choose from {', '.join(RULES)}")
    return rules


def register_diff(sub: Any) -> None:
    """``rt4chart diff BEFORE AFTER``: two audits compared, and the CI gate."""
    d = sub.add_parser(
        "diff",
        help="compare two runs: answers newly hallucinated, fixed, claims that changed; a CI gate",
        description="Exit status: 0 the gate passed (or none was set); 1 it failed; 2 bad usage or input.",
    )
    d.add_argument("before", help="the earlier run: `rt4chart verify` batch output or a bench run's <system>.jsonl")
    d.add_argument("after", help="the later run, in either form")
    d.add_argument(
        "-o",
        "--output",
        action="append",
        default=[],
        metavar="PATH",
        help="write the diff as its extension says: .html (the compare page), .jsonl (one answer a "
        "line), .csv (one claim a line); may be repeated",
    )
    d.add_argument(
        "--format",
        choices=["table", "jsonl", "csv"],
        default=None,
        help="what goes to stdout (default: table, or nothing when -o is given)",
    )
    d.add_argument(
        "--input",
        help="the samples JSONL both runs came from: its other fields (task, meta…) group the summary and the page",
    )
    d.add_argument(
        "--by",
        nargs="+",
        metavar="FIELD",
        default=None,
        help="the input fields to group by (default: each with 2 to 30 values)",
    )
    d.add_argument(
        "--fail-on",
        action="append",
        default=[],
        metavar="RULE[,RULE]",
        help="exit 1 when: new-hallucinations (an answer faithful before is hallucinated after), "
        "new-unfaithful-claims (a claim newly CON or NIC), new-failures (an answer scored before "
        "failed after), missing-rows (a row of the run before is missing after)",
    )
    d.add_argument(
        "--max-score-drop",
        type=float,
        default=None,
        metavar="X",
        help="exit 1 when the mean score of the answers scored in both runs drops by more than X",
    )
    d.add_argument("--junit", metavar="PATH", help="write the gate as JUnit XML: one test case per answer")
    d.add_argument("--title", default=None, help="the compare page's title")
    d.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    from rt4chart_plugins.audit.diff import diff_reports
    from rt4chart_plugins.audit.diff_output import FORMATS, print_table, summary_lines, to_csv, to_jsonl, write_diff
    from rt4chart_plugins.audit.gate import Gate, check, failure_message, junit_xml
    from rt4chart_plugins.errors import InvalidInput

    if args.max_score_drop is not None and not 0.0 <= args.max_score_drop <= 1.0:
        raise InvalidInput(f"--max-score-drop is a share of the score, 0 to 1, not {args.max_score_drop}")
    for path in args.output:
        if Path(path).suffix.lower() not in FORMATS:
            raise InvalidInput(f"{path}: a diff is written as .html, .jsonl or .csv")
    gate = Gate(fail_on=_rules(args.fail_on), max_score_drop=args.max_score_drop)  # type: ignore[arg-type]
    diff = diff_reports(args.before, args.after, by=args.by, inputs=args.input)
    for path in args.output:
        write_diff(diff, path, title=args.title)
    fmt = args.format or (None if args.output else "table")
    if fmt == "table":
        print_table(diff)
    elif fmt in ("jsonl", "csv"):
        sys.stdout.write(to_jsonl(diff) if fmt == "jsonl" else to_csv(diff))
    if fmt != "table":
        for line in summary_lines(diff.summary):
            print(line, file=sys.stderr)
    violations = check(diff, gate)
    if args.junit:
        Path(args.junit).write_text(junit_xml(diff, gate, violations), encoding="utf-8")
    for path in args.output + ([args.junit] if args.junit else []):
        print(f"→ {path}", file=sys.stderr)
    if violations:
        print(failure_message(diff, violations), file=sys.stderr)
        return 1
    if gate.fail_on or gate.max_score_drop is not None:
        print(
            "gate passed: "
            + ", ".join(
                [*gate.fail_on] + ([f"max-score-drop {gate.max_score_drop}"] if gate.max_score_drop is not None else [])
            ),
            file=sys.stderr,
        )
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from rt4chart_plugins.audit.html import write_html
    from rt4chart_plugins.audit.summary import bench_context

    results = Path(args.results)
    rows = load_results(results, inputs=args.input)
    settings, metrics = bench_context(results)
    baseline = load_results(args.baseline, inputs=args.input) if args.baseline else None
    write_html(
        rows,
        args.output,
        title=args.title or f"RT4CHART audit: {results.name}",
        settings=settings,
        metrics=metrics,
        by=args.by,
        baseline=baseline,
        compress=False if args.plain else None,
    )
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

    keys = (
        "method",
        "judge",
        "decomposition",
        "window_size",
        "window_overlap",
        "no_global",
        "scorer",
        "chunks",
        "threshold",
    )
    settings = {k: v for k in keys if (v := getattr(args, k, None)) not in (None, False)}
    write_html([("answer", report)], args.html, title="RT4CHART audit", settings=settings)
    print(f"audit → {args.html}", file=sys.stderr)
