"""``rt4chart guard``: one answer, or a JSONL file of them, as a user may see them.

    rt4chart guard --context FILE --answer-file FILE [--policy drop|flag|refuse] [--cite]
    rt4chart guard rows.jsonl -o guarded.jsonl        # one {id, context, answer, question?} a line

One answer prints its guarded text and, under ``--cite``, a line per ``[n]`` marker with its
source (``--format json``: the whole :class:`GuardedAnswer`); a batch
writes one line per row, ``{"id": ..., **GuardedAnswer}``, in input order, a row that cannot be
read or verified a line with ``status: "failed"`` and the reason, while the others are guarded.
The judge flags are ``rt4chart verify``'s. Exit status: 0 done; 1 a row (or the answer) could not
be verified; 2 bad usage or input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from rt4chart_plugins.cli_options import add_judge_args, detector_from_args, read_context, read_text
from rt4chart_plugins.detector import failed_report, run_sync
from rt4chart_plugins.guard import DEFAULT_MESSAGE, GuardedAnswer, guard_report
from rt4chart_plugins.guard.policies import ON_ERROR, POLICIES
from rt4chart_plugins.types import VerifyInput


def register(sub: Any) -> None:
    """Add ``guard`` to the ``rt4chart`` subcommands."""

    g = sub.add_parser(
        "guard",
        help="an answer as a user may see it: unsupported clauses dropped, flagged, or the answer refused",
        description="Exit status: 0 done; 1 an answer could not be verified; 2 bad usage or input.",
    )
    g.add_argument("input", nargs="?", help="JSONL file of {id?, context, answer, question?} rows")
    g.add_argument("-o", "--output", help="batch: the JSONL to write (- for stdout)")
    g.add_argument("--context", nargs="+", metavar="FILE", help="context file(s); several files are passages")
    g.add_argument("--answer", help="the answer text")
    g.add_argument("--answer-file", help="read the answer from a file")
    g.add_argument("--question", help="the user question (optional)")
    g.add_argument("--policy", choices=POLICIES, default="drop", help="drop (default), flag or refuse")
    g.add_argument("--cite", action="store_true", help="[n] markers after each kept claim, for its sources")
    g.add_argument("--message", default=DEFAULT_MESSAGE, help="what a refused answer reads")
    g.add_argument(
        "--min-support",
        type=float,
        default=0.5,
        help="refuse: the share of supported claims below which the answer is refused (default 0.5)",
    )
    g.add_argument("--no-quote", action="store_true", help="flag: do not quote what the context says instead")
    g.add_argument(
        "--on-error",
        choices=[e for e in ON_ERROR if e != "raise"],
        default="report",
        help="an answer that cannot be verified: report (no text, exit 1; default) or pass (as it came, "
        "marked [unverified])",
    )
    g.add_argument("--format", choices=["text", "json"], default="text", help="one answer: the text, or the JSON")
    g.add_argument("--concurrency", type=int, default=2, help="batch: rows in flight")
    g.add_argument("--threshold", type=float, default=None, help="trained judge: the support at which a claim is ENT")
    add_judge_args(g)
    g.set_defaults(func=cmd_guard, method="rt4chart")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "policy": args.policy,
        "cite": args.cite,
        "message": args.message,
        "min_support": args.min_support,
        "quote": not args.no_quote,
        "on_error": args.on_error,
    }


def cmd_guard(args: argparse.Namespace) -> int:

    if args.input:
        if args.context or args.answer or args.answer_file:
            print("rt4chart guard: give either a JSONL file or --context/--answer, not both", file=sys.stderr)
            return 2
        if not args.output:
            print("rt4chart guard: a batch needs -o OUTPUT.jsonl", file=sys.stderr)
            return 2
        failed = run_sync(_guard_file(detector_from_args(args), Path(args.input), args.output, args))
        return 1 if failed else 0
    if not args.context or (args.answer is None and not args.answer_file):
        print(
            "rt4chart guard: needs --context FILE and --answer TEXT (or --answer-file), or a JSONL file",
            file=sys.stderr,
        )
        return 2
    context = read_context(args.context)
    answer = read_text(args.answer_file, "answer file") if args.answer_file else args.answer
    result = detector_from_args(args).guard(context, answer, args.question, **_options(args))
    if args.format == "json":
        print(result.model_dump_json(indent=2))
    elif result.text is not None:
        print(result.text)
        for source in result.sources:  # what the [n] markers stand for
            print(f"[{source.marker}] {' '.join(source.text.split())}")
    else:
        print(f"rt4chart guard: {'; '.join(result.notes)}", file=sys.stderr)
    return 1 if result.status == "failed" else 0


async def _guard_file(verifier: Any, path: Path, output: str, args: argparse.Namespace) -> int:
    """Every row guarded, ``concurrency`` at a time, written in input order; the failed count."""
    options = _options(args)
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    limit = asyncio.Semaphore(max(1, args.concurrency))

    async def one(number: int, line: str) -> tuple[str, GuardedAnswer]:
        row_id = str(number)
        try:
            data = VerifyInput.model_validate(json.loads(line))
            row_id = data.id or row_id
        except Exception as exc:  # noqa: BLE001 - a row that cannot be read is a failed row, the others go on
            report = failed_report({}, exc)
            return row_id, guard_report(report, on_error=options["on_error"], policy=options["policy"])
        async with limit:
            return row_id, await verifier.aguard(data.context, data.answer, data.question, **options)

    results = await asyncio.gather(*(one(i, line) for i, line in enumerate(lines, start=1)))
    out = sys.stdout if output == "-" else open(output, "w", encoding="utf-8")  # noqa: SIM115 - stdout stays open
    try:
        for row_id, result in results:
            out.write(json.dumps({"id": row_id, **result.model_dump(mode="json")}, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    failed = sum(r.status == "failed" for _, r in results)
    print(f"{len(results)} rows guarded, {failed} could not be verified → {output}", file=sys.stderr)
    return failed
