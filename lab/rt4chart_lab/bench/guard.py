"""``rt4chart bench-guard``: what the guard's ``drop`` policy takes out of real answers, per judge.

On RAGTruth rows (test-150 by default), with the gold hallucinated spans:

- **hallucinated removed**: the share of the gold spans' word characters the guarded text no
  longer has (an answer refused counts as all removed);
- **faithful kept**: the share of the other word characters of the answers it still has;
- **intact**: the share of faithful answers (no gold span) passed whole, and **refused**: the
  share of answers replaced by the refusal message.

On the team's minimal pairs (``lab/rt4chart_lab/data/pairs.jsonl``): the share of hallucinated
answers the guard changed (a clause dropped or the answer refused) and of faithful answers it
left whole. Word characters (``\\w``) are counted, so a comma or a space taken out with a clause
weighs nothing. ``--judges trained,auto,local`` runs each judge on the same rows, one table row each
(the ``verify`` judge flags go to each, so give only flags they all take); without it, the
``--judge`` flag's judge alone. ``--limit`` and ``--pairs-limit`` take a slice for the slow judges.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from collections.abc import Sequence
from typing import Any

from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_lab.data.pairs import load_pairs
from rt4chart_plugins.guard import guard_report
from rt4chart_plugins.guard.surgery import drop
from rt4chart_plugins.types import Label, Report

_WORD = re.compile(r"\w")


def kept_mask(report: Report, status: str) -> list[bool]:
    """Which characters of the answer the guarded text keeps (all gone when it was refused):
    the ``drop`` policy's own surgery, on the spans it takes out."""
    answer = report.answer
    if status == "refused":
        return [False] * len(answer)
    if status != "guarded":
        return [True] * len(answer)
    spans = [
        (c.answer_span.start, c.answer_span.end)
        for c in report.claims
        if c.label != Label.ENT and c.answer_span is not None
    ]
    return drop(answer, [(s.start, s.end) for s in report.answer_sentences], spans).keep


def ragtruth_scores(rows: Sequence[Any], reports: Sequence[Report]) -> dict[str, float | int]:
    gold_chars = gold_removed = faithful_chars = faithful_kept = 0
    intact = faithful_rows = refused = failed = 0
    for row, report in zip(rows, reports):
        result = guard_report(report, policy="drop")
        failed += result.status == "failed"
        refused += result.status == "refused"
        keep = kept_mask(report, result.status)
        gold = [False] * len(row.answer)
        for span in row.labels:
            for i in range(max(0, span.start), min(len(row.answer), span.end)):
                gold[i] = True
        for i, char in enumerate(row.answer):
            if not _WORD.match(char):
                continue
            if gold[i]:
                gold_chars += 1
                gold_removed += not keep[i]
            else:
                faithful_chars += 1
                faithful_kept += keep[i]
        if not row.labels:
            faithful_rows += 1
            intact += result.text == row.answer
    return {
        "rows": len(rows),
        "hallucinated_removed": gold_removed / gold_chars if gold_chars else 0.0,
        "faithful_kept": faithful_kept / faithful_chars if faithful_chars else 0.0,
        "faithful_intact": intact / faithful_rows if faithful_rows else 0.0,
        "refused": refused / len(rows) if rows else 0.0,
        "failed": failed,
    }


def pairs_scores(rows: Sequence[Any], reports: Sequence[Report]) -> dict[str, float | int]:
    changed = hallucinated = left = faithful = 0
    for row, report in zip(rows, reports):
        result = guard_report(report, policy="drop")
        if row.hallucinated:
            hallucinated += 1
            changed += result.text != row.answer
        else:
            faithful += 1
            left += result.text == row.answer
    return {
        "rows": len(rows),
        "hallucinated_changed": changed / hallucinated if hallucinated else 0.0,
        "faithful_intact": left / faithful if faithful else 0.0,
    }


def _reports(verifier: Any, rows: Sequence[dict], concurrency: int) -> tuple[list[Report], float]:
    start = time.perf_counter()
    reports = asyncio.run(verifier.averify_many(rows, concurrency=concurrency, progress=True))
    return reports, (time.perf_counter() - start) / max(1, len(rows))


HEADER = (
    "| judge | hallucinated chars removed | faithful chars kept | faithful answers intact | refused "
    "| pairs: hallucinated changed | pairs: faithful intact | wall s/answer |\n|---|---|---|---|---|---|---|---|"
)


def table_row(judge: str, r: dict[str, Any], p: dict[str, Any], seconds: float) -> str:
    """One judge's line of the table."""
    return (
        f"| {judge} | {r['hallucinated_removed']:.1%} | {r['faithful_kept']:.1%} | {r['faithful_intact']:.1%} "
        f"| {r['refused']:.1%} | {p['hallucinated_changed']:.1%} | {p['faithful_intact']:.1%} | {seconds:.2f} |"
    )


def judges_of(args: argparse.Namespace) -> list[str | None]:
    """The judges to run: ``--judges a,b`` (each once, in order), else ``--judge``'s (None: the
    default judge). A ``ValueError`` says what is wrong with them."""
    if args.judges is None:
        return [args.judge]
    names: list[str | None] = list(dict.fromkeys(n.strip() for n in args.judges.split(",") if n.strip()))
    if not names:
        raise ValueError("--judges names no judge (e.g. --judges trained,auto,local)")
    if args.judge:
        raise ValueError("give --judge or --judges, not both")
    return names


def main(argv: list[str] | None = None) -> int:
    from rt4chart_plugins.cli_options import add_judge_args, detector_from_args

    parser = argparse.ArgumentParser(prog="rt4chart bench-guard", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--subset", default="test-150", help="RAGTruth subset (default test-150)")
    parser.add_argument("--limit", type=int, help="the first N RAGTruth rows of the subset")
    parser.add_argument("--pairs-limit", type=int, help="the first N minimal pairs' answers (default all)")
    parser.add_argument("--judges", help="judges to compare, one table row each: e.g. trained,auto,local")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--threshold", type=float, default=None, help="trained judge: its ENT threshold")
    add_judge_args(parser)
    args = parser.parse_args(argv)
    args.method = "rt4chart"
    try:
        names = judges_of(args)
    except ValueError as exc:
        parser.error(str(exc))
    rag = load_ragtruth(resolve_data_dir(args.data_dir), args.subset, limit=args.limit)
    pairs = load_pairs()[: args.pairs_limit]
    print(f"\nguard, policy drop: RAGTruth {args.subset} ({len(rag)} rows), pairs ({len(pairs)} items)\n")
    print(HEADER, flush=True)
    notes = []
    for name in names:  # each judge's row as soon as it is measured
        args.judge = name
        verifier = detector_from_args(args)
        rag_reports, rag_seconds = _reports(verifier, [r.verify_input() for r in rag], args.concurrency)
        pair_reports, _ = _reports(verifier, [r.verify_input() for r in pairs], args.concurrency)
        r = ragtruth_scores(rag, rag_reports)
        print(table_row(verifier.name, r, pairs_scores(pairs, pair_reports), rag_seconds), flush=True)
        if r["failed"]:
            notes.append(f"{verifier.name}: {r['failed']} RAGTruth row(s) could not be verified (counted as kept)")
    if notes:
        print("\n" + "\n".join(notes))
    return 0
