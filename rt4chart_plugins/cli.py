"""The ``rt4chart`` command, thin over the Python API.

    rt4chart verify --context FILE|- --answer "..." [--question "..."] [--format text|json|jsonl|csv]
    rt4chart verify samples.jsonl -o results.jsonl        # batch, resumable (.csv, .txt, or - for stdout)
    rt4chart verify logs/ -o audits/ --engine ray         # on a Ray cluster: JSONL/Parquet in, shards out
    rt4chart schema                                       # JSON Schema of the report
    rt4chart report results.jsonl -o audit.html           # the audit: one self-contained HTML page
    rt4chart export results.jsonl -o claims.csv           # one row per claim (.csv or .parquet)
    rt4chart diff before.jsonl after.jsonl [--fail-on new-hallucinations]   # two runs compared; a CI gate
    rt4chart model pull [NAME] | path [NAME] | list     # NAME may be hf:REPO
    rt4chart guard --context FILE --answer "..." [--policy drop|flag|refuse] [--cite]   # what a user may see
    rt4chart model export hf:REPO|hf:FOLDER [--int8]    # a Hugging Face verifier as ONNX
    rt4chart verify --method gasp [--scorer NAME] --context FILE --answer "..."   # GASP instead
    rt4chart examples [FOLDER]                          # the docs' example files, from the package

The lab (``pip install -e lab`` from a checkout) adds its commands through the
``rt4chart.commands`` entry points: ``bench``, ``train-verifier``, ``gasp-fit``, ``bench-combine``,
``readout-fit``.

Exit status: 0 success; 1 a batch had failed rows or stopped early (its judge's endpoint refused
it or is down; a re-run resumes), a single verification failed, or ``diff``'s gate failed; 2 bad
usage or input.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points
from pathlib import Path

from rt4chart_plugins import guard_command, models
from rt4chart_plugins.audit import commands as audit_commands
from rt4chart_plugins.cli_options import (
    add_answer_args,
    add_judge_args,
    batch_exit,
    batch_misused,
    detector_from_args,
    lacks_answer,
    read_answer,
    read_text,
)
from rt4chart_plugins.errors import Rt4chartError
from rt4chart_plugins.types import package_version

#: the lab's commands, named here only to say how to get them when the lab is not installed
LAB_COMMANDS = ("bench", "train-verifier", "gasp-fit", "bench-combine", "readout-fit", "bench-ray", "bench-scale")


def cmd_verify(args: argparse.Namespace) -> int:
    if args.html and args.input:
        print(
            "rt4chart verify: --html is for one answer; for a batch, `rt4chart report OUTPUT.jsonl -o audit.html`",
            file=sys.stderr,
        )
        return 2
    if args.input:
        if batch_misused(args, "verify"):
            return 2
        if args.engine == "ray":
            from rt4chart_plugins.distributed.job import cli_main

            return cli_main(args)
        if args.address or args.workers or args.rate_limit or args.ray_logs:
            print(
                "rt4chart verify: --address, --workers, --rate-limit and --ray-logs need --engine ray", file=sys.stderr
            )
            return 2
        from rt4chart_plugins.batch import run_batch

        fmt = "jsonl" if args.format == "json" else args.format
        summary = run_batch(
            detector_from_args(args),
            Path(args.input),
            args.output,
            format=fmt,
            concurrency=args.concurrency,
            progress=not args.quiet,
        )
        return batch_exit(summary, args.output)
    if lacks_answer(args, "verify"):
        return 2
    if args.output:
        print("rt4chart verify: -o is for a batch; one answer's report goes to stdout (--format json)", file=sys.stderr)
        return 2
    if sum(x == "-" for x in [*args.context, args.answer_file, args.question_file]) > 1:
        print(
            "rt4chart verify: only one of --context, --answer-file and --question-file can be - (stdin)",
            file=sys.stderr,
        )
        return 2
    context, answer = read_answer(args)
    question = read_text(args.question_file, "question file") if args.question_file else args.question
    report = detector_from_args(args).verify(context=context, answer=answer, question=question)
    if args.format == "json":
        print(report.model_dump_json(indent=2))
    elif args.format in ("jsonl", "csv"):
        from rt4chart_plugins.runs.formats import CSV_COLUMNS, csv_cells, csv_line
        from rt4chart_plugins.types import BatchRow

        row = BatchRow(id="-", ok=report.state != "failed", report=report, error=report.error)
        print(
            report.model_dump_json() if args.format == "jsonl" else csv_line(CSV_COLUMNS) + csv_line(csv_cells(row)),
            end="\n" if args.format == "jsonl" else "",
        )
    else:
        from rt4chart_plugins.render import render

        render(report)
    if args.html:
        audit_commands.write_verify_html(report, args)
    return 1 if report.state == "failed" else 0


def cmd_schema(_args: argparse.Namespace) -> int:
    from rt4chart_plugins.types import Report

    print(json.dumps(Report.model_json_schema(), indent=2))
    return 0


def cmd_examples(args: argparse.Namespace) -> int:
    from rt4chart_plugins import examples

    written = examples.copy(args.folder)  # FileExistsError (an OSError): exit 2, naming the file
    if not args.quiet:
        print("\n".join(map(str, written)))
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    name = args.name or models.DEFAULT_MODEL
    if name.startswith("hf:"):
        return _cmd_hf_model(args, name.removeprefix("hf:"))
    if args.action == "export" or args.int8 or args.out or args.revision:
        print("rt4chart model: export, --int8, --out and --revision are for hf:REPO models", file=sys.stderr)
        return 2
    if name not in models.MODELS:
        print(f"unknown model {name!r}; known: {', '.join(models.MODELS)}", file=sys.stderr)
        return 2
    if args.action == "pull":
        path = models.pull(name, progress=not args.quiet)
        print(path)
    elif args.action == "path":
        print(models.locate(name, pull_if_missing=False))
    else:
        for spec in models.MODELS.values():
            target = models.models_dir() / spec.filename
            state = "pulled" if target.is_file() else "not pulled"
            print(f"{spec.name:24} {spec.size / 1e6:8.0f} MB  {state:10}  {spec.license}")
        from rt4chart_plugins.models import hf as hub

        for pin in hub.pinned():
            print(f"{'hf:' + pin['repo']:24} {pin['size'] / 1e6:8.0f} MB  pulled      revision {pin['revision'][:12]}")
    return 0


def _cmd_hf_model(args: argparse.Namespace, repo: str) -> int:
    """``rt4chart model pull|path|export hf:REPO``: a Hugging Face verifier pulled and pinned, found, or
    exported to ONNX (rt4chart_plugins/models/hf.py, rt4chart_plugins/model_export.py)."""
    from rt4chart_plugins.models import hf as hub

    if args.action == "pull":
        if args.int8 or args.out:
            print("rt4chart model pull: --int8 and --out are for export", file=sys.stderr)
            return 2
        print(hub.pull(repo, revision=args.revision, progress=not args.quiet))
    elif args.action == "path":
        print(hub.locate(repo)[0])
    elif args.action == "export":
        from rt4chart_plugins.model_export import export

        folder, meta = export(repo, args.out, int8=args.int8)
        check = ", ".join(f"{k} {v:.2g}" for k, v in meta["check"].items())
        print(f"{folder}  (largest |logit - torch's|: {check})")
    else:
        print("rt4chart model list takes no name", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rt4chart", description="Claim-level hallucination detection for RAG (RT4CHART)"
    )
    parser.add_argument("--version", action="version", version=f"rt4chart-plugins {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser("verify", help="verify one answer, or a JSONL file of samples")
    add_answer_args(v, "batch: JSONL output (resumed if it exists)")
    v.add_argument("--question-file", help="read the question from a file")
    v.add_argument(
        "--format",
        choices=["text", "json", "jsonl", "csv"],
        default=None,
        help="one answer: text (default), json, jsonl (one line) or csv (one row); a batch: jsonl, csv "
        "or text, by default the output's extension's (.jsonl, .csv, .txt; else jsonl), and refused "
        "when it contradicts it",
    )
    v.add_argument("--html", metavar="PATH", help="one answer: also write its audit page, one self-contained HTML file")
    v.add_argument("--concurrency", type=int, default=2, help="batch: rows in flight")
    v.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    g = v.add_argument_group("method")
    g.add_argument(
        "--method",
        choices=["rt4chart", "gasp"],
        default="rt4chart",
        help="rt4chart: claims judged against the context (default); gasp: grounding sensitivity of "
        "each answer sentence under a small scoring LM (no judge)",
    )
    g.add_argument("--scorer", default=None, help=f"gasp: scorer model, one of {', '.join(models.MODELS)}")
    g.add_argument("--chunks", type=int, default=None, help="gasp: K, context chunks left out one at a time")
    g.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="gasp: risk threshold (default: calibrated); trained judge: the "
        "support at or above which a claim is ENT (default: the artifact's, fitted on train rows); "
        "auto judge: the trained verifier's threshold",
    )
    g = v.add_argument_group("engine")
    g.add_argument(
        "--engine",
        choices=["local", "ray"],
        default="local",
        help="local: this process (default); ray: a Ray cluster (the [ray] extra), IN may then be a "
        "folder or glob of JSONL/Parquet files and -o a folder of shards (docs/ray.md)",
    )
    g.add_argument(
        "--address",
        default=None,
        help="ray: the cluster, auto or HOST:PORT (default: $RAY_ADDRESS, else a local cluster started for the run)",
    )
    g.add_argument(
        "--workers",
        type=int,
        default=None,
        help="ray: actors, each with its own judge (default: one per CPU of the cluster)",
    )
    g.add_argument(
        "--rate-limit", type=float, default=None, help="ray, openai judge: API requests per second shared by all actors"
    )
    g.add_argument(
        "--ray-logs",
        action="store_true",
        help="ray: also print Ray's own log lines (its warnings and errors, the workers' output); off by default",
    )
    add_judge_args(v)
    v.set_defaults(func=cmd_verify)

    s = sub.add_parser("schema", help="print the JSON Schema of a report")
    s.set_defaults(func=cmd_schema)
    audit_commands.register(sub)  # report, export, diff
    guard_command.register(sub)  # guard

    m = sub.add_parser(
        "model", help="get and locate the embedded judge's model, GASP's scorers and Hugging Face verifiers"
    )
    m.add_argument("action", choices=["pull", "path", "list", "export"])
    m.add_argument(
        "name",
        nargs="?",
        help=f"one of: {', '.join(models.MODELS)} (default {models.DEFAULT_MODEL}), or hf:REPO "
        "(hf:/path/to/folder for export)",
    )
    m.add_argument("--revision", help="pull hf:REPO: a branch, tag or commit (default main); the commit is pinned")
    m.add_argument("--int8", action="store_true", help="export: also an int8 graph (onnxruntime dynamic quantization)")
    m.add_argument("--out", help="export: the folder to write (default the model folder's onnx/)")
    m.add_argument("-q", "--quiet", action="store_true")
    m.set_defaults(func=cmd_model)

    e = sub.add_parser("examples", help="write the docs' example files (shipped in the package) into a folder")
    e.add_argument(
        "folder",
        nargs="?",
        default="examples",
        help="where (default ./examples): policy/context.txt, policy/answer.txt, samples.jsonl, diff/*.jsonl; "
        "a file already there with other content is refused",
    )
    e.add_argument("-q", "--quiet", action="store_true", help="do not list the files")
    e.set_defaults(func=cmd_examples)

    # listed for --help only: main() hands everything after their name to their own main()
    for name, ep in lab_commands().items():
        sub.add_parser(name, add_help=False, help=f"(lab) {ep.value.split(':')[0]}; --help for its flags")
    return parser


def lab_commands() -> dict:
    """The commands other installed distributions (the lab) register under ``rt4chart.commands``."""
    return {ep.name: ep for ep in entry_points(group="rt4chart.commands")}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        extra = lab_commands()
        if argv[:1] and argv[0] in extra:
            return extra[argv[0]].load()(argv[1:])
        if argv[:1] and argv[0] in LAB_COMMANDS:
            print(
                f"rt4chart {argv[0]} is a lab command and the lab is not installed: from a checkout, "
                f"`pip install -e lab` (add `lab[train]` to rebuild the trained verifier)",
                file=sys.stderr,
            )
            return 2
        args = build_parser().parse_args(argv)
        return args.func(args)
    except Rt4chartError as exc:
        print(f"rt4chart: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file that is missing, a folder, not readable or not writable
        print(f"rt4chart: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a batch keeps what it wrote: a re-run resumes
        print("rt4chart: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
