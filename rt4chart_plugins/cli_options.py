"""What every command that verifies takes and reads, in one place: the judge flags (generated from
the judge registry) and the pipeline flags, the detector they build through the one factory, and
an answer or a context read from files. The flags become a detector in one place,
:func:`rt4chart_plugins.runs.spec.spec_from_args`. ``rt4chart verify``, ``rt4chart guard`` and the lab's
benchmarks share it, so a flag means the same to each.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, get_args

from rt4chart_plugins.config import Decomposition
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.registry import DEFAULT_JUDGE, JUDGES, all_flags
from rt4chart_plugins.runs.spec import judge_kwargs, spec_from_args


def add_answer_args(p: argparse.ArgumentParser, output_help: str) -> None:
    """The flags that say what to read: a JSONL file of rows with ``-o``, or one answer's
    ``--context`` and ``--answer``; ``verify`` and ``guard`` take the same."""
    p.add_argument("input", nargs="?", help="JSONL file of {id?, context, answer, question?} rows")
    p.add_argument("-o", "--output", help=output_help)
    p.add_argument("--context", nargs="+", metavar="FILE", help="context file(s); several files are passages")
    p.add_argument("--answer", help="the answer text")
    p.add_argument("--answer-file", help="read the answer from a file")
    p.add_argument("--question", help="the user question (optional)")


def add_judge_args(p: argparse.ArgumentParser) -> None:
    """The judge and pipeline flags, shared with the lab's ``rt4chart bench``. The judge flags are
    the registry's (:func:`rt4chart_plugins.judges.registry.all_flags`): a flag several judges take
    is one flag, and one the parser already has (``verify``'s ``--threshold``, shared with GASP)
    is left as it is."""
    g = p.add_argument_group("judge")
    g.add_argument(
        "--judge",
        default=None,
        metavar="NAME",
        help="; ".join(f"{e.spelling}: {e.summary}" for e in JUDGES.values())
        + f" (default: $RT4CHART_JUDGE, else {DEFAULT_JUDGE})",
    )
    taken = {o for a in p._actions for o in a.option_strings}
    for flag, takers in all_flags().items():
        if flag in taken:
            continue
        first = takers[0][1]
        by_help: dict[str, list[str]] = {}
        for e, f in takers:
            by_help.setdefault(f.help, []).append(e.name)
        helps = "; ".join(f"{', '.join(names)} judge: {text}" for text, names in by_help.items())
        if first.negatable:
            g.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=helps)
        elif first.type is None:
            g.add_argument(flag, action="store_const", const=first.const, default=None, help=helps)
        else:
            g.add_argument(flag, type=first.type, default=None, help=helps)
    g = p.add_argument_group("pipeline")
    defaults = ", ".join(f"{e.decomposition} for {e.name}" for e in JUDGES.values())
    g.add_argument(
        "--decomposition",
        choices=list(get_args(Decomposition)),
        default=None,
        help=f"how answer sentences become claims (default: the judge's: {defaults})",
    )
    g.add_argument(
        "--window-size",
        type=int,
        default=None,
        help="W, context sentences per local window (default: the judge's; 25 for LLM judges, "
        "the whole context for the trained verifier)",
    )
    g.add_argument(
        "--window-overlap",
        type=int,
        default=10,
        help="O, context sentences shared by consecutive windows, below W (default: 10)",
    )
    g.add_argument("--no-global", action="store_true", help="skip the global verification pass")
    g.add_argument(
        "--deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds one row may take; past them it fails with the reason (default: none)",
    )


def detector_from_args(args: argparse.Namespace):  # a Verifier, or GASP's detector
    """The detector the flags describe: :func:`rt4chart_plugins.runs.spec.spec_from_args`, built."""
    return spec_from_args(args).build()


def read_text(path: str, what: str) -> str:
    """A file's text (``-``: stdin), or :class:`InvalidInput` naming the file when it is not UTF-8."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{what} {'(stdin)' if path == '-' else path} is not valid UTF-8 (byte {exc.start}: {exc.reason})"
        ) from None
    except IsADirectoryError:
        raise InvalidInput(f"{what} {path} is a directory, not a file") from None


def read_context(paths: list[str]) -> str | list[str]:
    """One file (``-``: stdin): its text (a .json file holding a list of strings gives passages);
    several: passages. A .json file that is not valid JSON is refused, not read as prose."""
    texts = [read_text(p, "context file") for p in paths]
    if len(texts) == 1 and paths[0].endswith(".json"):
        try:
            data = json.loads(texts[0])
        except RecursionError:
            raise InvalidInput(f"context file {paths[0]} is JSON nested too deeply") from None
        except ValueError as exc:
            raise InvalidInput(f"context file {paths[0]} is not valid JSON ({exc})") from None
        if isinstance(data, list) and all(isinstance(x, str) for x in data):
            return data
    return texts[0] if len(texts) == 1 else texts


def batch_misused(args: argparse.Namespace, command: str) -> bool:
    """True, after saying why, when a batch call also names one answer's flags or has no ``-o``;
    ``verify`` and ``guard`` word it alike."""
    if args.context or args.answer or args.answer_file:
        print(f"rt4chart {command}: give either a JSONL file or --context/--answer, not both", file=sys.stderr)
        return True
    if not args.output:
        print(f"rt4chart {command}: a batch needs -o OUTPUT.jsonl", file=sys.stderr)
        return True
    return False


def lacks_answer(args: argparse.Namespace, command: str) -> bool:
    """True, after saying what is missing, when a one-answer call has no context or no answer;
    ``verify`` and ``guard`` word it alike."""
    if args.context and (args.answer is not None or args.answer_file):
        return False
    print(
        f"rt4chart {command}: needs --context FILE and --answer TEXT (or --answer-file), or a JSONL file",
        file=sys.stderr,
    )
    return True


def read_answer(args: argparse.Namespace) -> tuple[str | list[str], str]:
    """A one-answer call's context and answer, from ``--context`` and ``--answer`` or ``--answer-file``."""
    context = read_context(args.context)
    return context, read_text(args.answer_file, "answer file") if args.answer_file else args.answer


def batch_exit(summary: Any, output: str) -> int:
    """Say a batch's summary on stderr and give its exit status: 1 when a row failed or the run
    stopped, else 0 (``verify`` and ``guard`` end a file alike)."""
    for line in summary.report_lines("stdout" if output == "-" else output):
        print(line, file=sys.stderr)
    return 1 if summary.failed or summary.stopped else 0


__all__ = [
    "add_answer_args",
    "add_judge_args",
    "batch_exit",
    "batch_misused",
    "detector_from_args",
    "judge_kwargs",
    "lacks_answer",
    "read_answer",
    "read_context",
    "read_text",
]
