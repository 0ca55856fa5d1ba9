"""``rt4chart guard``: one answer, or a JSONL file of them, as a user may see them.

    rt4chart guard --context FILE --answer-file FILE [--policy drop|flag|refuse] [--cite]
    rt4chart guard rows.jsonl -o guarded.jsonl        # one {id, context, answer, question?} a line

One answer prints its guarded text and, under ``--cite``, a line per ``[n]`` marker with its
source (``--format json``: the whole :class:`GuardedAnswer`). A batch is the ``guard`` action of
the one loop (:mod:`rt4chart_plugins.runs.local`), so it reads, names, resumes and counts rows as
``rt4chart verify FILE`` does: one line per row, ``{"id": ..., **GuardedAnswer, "fingerprint": ...}``,
in input order; a row that cannot be read or verified is a line with ``status: "failed"`` and the
reason, while the others are guarded. The judge flags are ``rt4chart verify``'s. Exit status: 0
done; 1 a row (or the answer) could not be verified; 2 bad usage or input.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rt4chart_plugins import cli_options as flags
from rt4chart_plugins.guard.options import DEFAULT_MESSAGE, ON_ERROR, POLICIES, GuardOptions
from rt4chart_plugins.runs.actions import Guard
from rt4chart_plugins.runs.local import run_file


def register(sub: Any) -> None:
    """Add ``guard`` to the ``rt4chart`` subcommands."""

    g = sub.add_parser(
        "guard",
        help="an answer as a user may see it: unsupported clauses dropped, flagged, or the answer refused",
        description="Exit status: 0 done; 1 an answer could not be verified; 2 bad usage or input.",
    )
    flags.add_answer_args(g, "batch: the JSONL to write (- for stdout), resumed if it exists")
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
    g.add_argument("-q", "--quiet", action="store_true", help="batch: no progress bar")
    g.add_argument("--threshold", type=float, default=None, help="trained judge: the support at which a claim is ENT")
    flags.add_judge_args(g)
    g.set_defaults(func=cmd_guard, method="rt4chart")


def guard_options(args: argparse.Namespace) -> GuardOptions:
    """The guard's options from its flags, as one value (checked here) for one answer or a batch."""
    return GuardOptions.of(
        policy=args.policy,
        cite=args.cite,
        message=args.message,
        min_support=args.min_support,
        quote=not args.no_quote,
        on_error=args.on_error,
    )


def cmd_guard(args: argparse.Namespace) -> int:
    if args.input:
        if flags.batch_misused(args, "guard"):
            return 2
        action = Guard(flags.detector_from_args(args), guard_options(args), args.concurrency)
        summary = run_file(action, args.input, args.output, progress=not args.quiet)
        return flags.batch_exit(summary, args.output)
    if flags.lacks_answer(args, "guard"):
        return 2
    context, answer = flags.read_answer(args)
    result = flags.detector_from_args(args).guard(context, answer, args.question, options=guard_options(args))
    if args.format == "json":
        print(result.model_dump_json(indent=2))
    elif result.text is not None:
        print(result.text)
        for source in result.sources:  # what the [n] markers stand for
            print(f"[{source.marker}] {' '.join(source.text.split())}")
    else:
        print(f"rt4chart guard: {'; '.join(result.notes)}", file=sys.stderr)
    return 1 if result.status == "failed" else 0
