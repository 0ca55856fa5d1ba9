"""The ``rt4chart`` command, thin over the Python API.

    rt4chart verify --context FILE --answer "..." [--question "..."] [--format text|json]
    rt4chart verify samples.jsonl -o results.jsonl        # batch, resumable
    rt4chart schema                                       # JSON Schema of the report
    rt4chart model pull [NAME] | path [NAME] | list
    rt4chart bench --dataset ragtruth --subset test-150 [--judge local|trained|openai] [--systems ...]
    rt4chart verify --method gasp [--scorer NAME] --context FILE --answer "..."   # GASP instead
    rt4chart train-verifier [--out DIR] [...]             # rebuild the trained verifier
    rt4chart gasp-fit [--model NAME] [--rows N]           # refit a GASP scorer's calibration
    rt4chart bench-combine --run results/RUN               # GASP + the judge, fitted on train rows
    rt4chart readout-fit [--model NAME] [--rows N]        # the readout on the judge's hidden state

Exit status: 0 success; 1 a batch had failed rows (or a single verification failed); 2 bad usage
or input.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from . import models
from .errors import Rt4chartError


def _judge_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("judge")
    g.add_argument("--judge", choices=["local", "trained", "openai"], default=None,
                   help="trained: the packaged cross-encoder verifier (offline, fast; the default); local: "
                        "the embedded offline LLM; openai: an OpenAI-compatible endpoint")
    g.add_argument("--model-path", help="local judge: any ChatML GGUF file instead of the pinned default; "
                                        "trained judge: an artifact directory (`rt4chart train-verifier --out DIR`)")
    g.add_argument("--base-url", help="openai judge: endpoint URL (default $OPENAI_BASE_URL)")
    g.add_argument("--api-key", help="openai judge: key (default $OPENAI_API_KEY)")
    g.add_argument("--model", dest="openai_model", help="openai judge: model name")
    g.add_argument("--no-cache", action="store_true", help="do not read or write the judge cache")
    g = p.add_argument_group("pipeline")
    g.add_argument("--decomposition", choices=["llm", "sentence", "holistic"], default=None,
                   help="claim decomposition (default: llm)")
    g.add_argument("--window-size", type=int, default=25)
    g.add_argument("--window-overlap", type=int, default=10)
    g.add_argument("--no-global", action="store_true", help="skip the global verification pass")


def _judge_kwargs(args: argparse.Namespace) -> dict:
    """Judge constructor arguments from the shared judge flags."""
    from .verifier import judge_name

    name = judge_name(args.judge)
    kwargs: dict = {}
    if args.no_cache:
        kwargs["cache"] = False
    if name == "openai":
        kwargs.update({k: v for k, v in (("base_url", args.base_url), ("api_key", args.api_key),
                                         ("model", args.openai_model)) if v})
    elif name == "trained":
        out = {"artifact_dir": args.model_path} if args.model_path else {}
        if getattr(args, "threshold", None) is not None:
            out["threshold"] = args.threshold
        return out
    elif args.model_path:
        kwargs["model_path"] = args.model_path
    return kwargs


def _verifier(args: argparse.Namespace):
    from .verifier import Verifier

    if getattr(args, "method", "rt4chart") == "gasp":
        from .gasp import GaspDetector

        return GaspDetector(args.scorer, chunks=args.chunks, threshold=args.threshold)
    kwargs = _judge_kwargs(args)
    judge = args.judge
    config = {"window_size": args.window_size, "window_overlap": args.window_overlap,
              "global_verification": not args.no_global}
    if args.decomposition:
        config["decomposition"] = args.decomposition
    return Verifier(judge, judge_kwargs=kwargs, **config)


def _read_context(paths: list[str]) -> str | list[str]:
    """One file: its text (a .json file holding a list of strings gives passages); several: passages."""
    texts = [Path(p).read_text(encoding="utf-8") for p in paths]
    if len(texts) == 1 and paths[0].endswith(".json"):
        data = json.loads(texts[0])
        if isinstance(data, list) and all(isinstance(x, str) for x in data):
            return data
    return texts[0] if len(texts) == 1 else texts


def cmd_verify(args: argparse.Namespace) -> int:
    if args.input:
        if args.context or args.answer or args.answer_file:
            print("rt4chart verify: give either a JSONL file or --context/--answer, not both", file=sys.stderr)
            return 2
        if not args.output:
            print("rt4chart verify: a batch needs -o OUTPUT.jsonl", file=sys.stderr)
            return 2
        from .batch import run_batch

        summary = run_batch(_verifier(args), Path(args.input), Path(args.output),
                            concurrency=args.concurrency, progress=not args.quiet)
        print(f"{summary.total} rows: {summary.skipped} already done, {summary.ok} scored, "
              f"{summary.failed} failed → {args.output}", file=sys.stderr)
        return 1 if summary.failed else 0
    if not args.context or (args.answer is None and not args.answer_file):
        print("rt4chart verify: needs --context FILE and --answer TEXT (or --answer-file), or a JSONL file",
              file=sys.stderr)
        return 2
    answer = Path(args.answer_file).read_text(encoding="utf-8") if args.answer_file else args.answer
    question = Path(args.question_file).read_text(encoding="utf-8") if args.question_file else args.question
    report = _verifier(args).verify(context=_read_context(args.context), answer=answer, question=question)
    if args.format == "json":
        print(report.model_dump_json(indent=2))
    else:
        from .render import render

        render(report)
    return 1 if report.state == "failed" else 0


def cmd_schema(_args: argparse.Namespace) -> int:
    from .types import Report

    print(json.dumps(Report.model_json_schema(), indent=2))
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    name = args.name or models.DEFAULT_MODEL
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
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Run RT4CHART systems over RAGTruth or WiCE rows and print the table (rt4chart_plugins.bench)."""
    from .bench.main import run_benchmark

    if args.decomposition or args.no_global:
        print("rt4chart bench: --decomposition and --no-global are set per system; choose with --systems",
              file=sys.stderr)
        return 2
    kwargs = _judge_kwargs(args)
    subset = args.subset if args.subset or args.dataset != "ragtruth" else "test-150"
    if subset == "all":  # every row (of --split, if given)
        subset = None
    summary, table, stats = run_benchmark(
        dataset=args.dataset, subset=subset, split=args.split, limit=args.limit, data_dir=args.data_dir,
        systems=args.systems, judge=args.judge, judge_kwargs=kwargs,
        base_config={"window_size": args.window_size, "window_overlap": args.window_overlap},
        run=args.run, out=args.out, concurrency=args.concurrency, progress=not args.quiet,
    )
    for s in stats:
        print(f"{s.system}: {s.total} rows, {s.skipped} already done, {s.ok} run, {s.failed} could not be judged",
              file=sys.stderr)
    print(table)
    print(f"→ {summary['meta']['run_dir']}/summary.json, table.md", file=sys.stderr)
    return 0


#: subcommands that parse their own flags: name → (module under rt4chart_plugins with a main(argv), help)
OWN_FLAGS = {
    "train-verifier": ("training.train",
                       "rebuild the trained cross-encoder verifier (needs the 'train' extra; --help for its flags)"),
    "gasp-fit": ("gasp.fit", "refit a GASP scorer's calibration on RAGTruth train rows (--help for its flags)"),
    "readout-fit": ("readout.fit", "train the linear readout on the embedded judge's hidden state (--help for its flags)"),
    "bench-combine": ("bench.combine",
                      "GASP and the RT4CHART judge as one decision fitted on train rows, vs. each alone"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rt4chart", description="Claim-level hallucination detection for RAG (RT4CHART)")
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser("verify", help="verify one answer, or a JSONL file of samples")
    v.add_argument("input", nargs="?", help="JSONL file of {id?, context, answer, question?} rows")
    v.add_argument("-o", "--output", help="batch: JSONL output (resumed if it exists)")
    v.add_argument("--context", nargs="+", metavar="FILE", help="context file(s); several files are passages")
    v.add_argument("--answer", help="the answer text")
    v.add_argument("--answer-file", help="read the answer from a file")
    v.add_argument("--question", help="the user question (optional)")
    v.add_argument("--question-file", help="read the question from a file")
    v.add_argument("--format", choices=["text", "json"], default="text")
    v.add_argument("--concurrency", type=int, default=2, help="batch: rows in flight")
    v.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    g = v.add_argument_group("method")
    g.add_argument("--method", choices=["rt4chart", "gasp"], default="rt4chart",
                   help="rt4chart: claims judged against the context (default); gasp: grounding sensitivity of "
                        "each answer sentence under a small scoring LM (no judge)")
    g.add_argument("--scorer", default=None, help=f"gasp: scorer model, one of {', '.join(models.MODELS)}")
    g.add_argument("--chunks", type=int, default=None, help="gasp: K, context chunks left out one at a time")
    g.add_argument("--threshold", type=float, default=None, help="gasp: risk threshold (default: calibrated); trained judge: the "
                   "support at or above which a claim is ENT (default: the artifact's, fitted on train rows)")
    _judge_args(v)
    v.set_defaults(func=cmd_verify)

    s = sub.add_parser("schema", help="print the JSON Schema of a report")
    s.set_defaults(func=cmd_schema)

    m = sub.add_parser("model", help="get and locate the embedded judge's model and GASP's scorers")
    m.add_argument("action", choices=["pull", "path", "list"])
    m.add_argument("name", nargs="?", help=f"one of: {', '.join(models.MODELS)} (default {models.DEFAULT_MODEL})")
    m.add_argument("-q", "--quiet", action="store_true")
    m.set_defaults(func=cmd_model)

    b = sub.add_parser("bench", help="benchmark RT4CHART systems on RAGTruth or WiCE")
    b.add_argument("--dataset", choices=["ragtruth", "wice", "records"], default="ragtruth",
                   help="records: hand-written answers about generated business records (a Data2txt-style dev "
                        "set; --subset dev, blind or both)")
    b.add_argument("--subset", help="test-150 | dev-60 | all | PATH to a file of ids (RAGTruth default: test-150; "
                                    "WiCE default: all claims)")
    b.add_argument("--split", choices=["train", "test"], help="RAGTruth: keep only rows of this split")
    b.add_argument("--limit", type=int, help="only the first N selected rows")
    b.add_argument("--data-dir", help="benchmark data (default ../shared/data, else $RT4CHART_DATA_DIR)")
    b.add_argument("--systems", help="comma-separated: rt4chart, rt4chart-no-global, rt4chart-sentence, flag-all, "
                                     "oracle (reads the gold labels: the span ceiling of sentence verdicts), "
                                     "gasp (SmolLM2-135M), gasp-qwen0.5b, gasp-qwen1.5b (GASP scorers, no judge), "
                                     "readout, judge-yes (the 1.5B judge's hidden-state readout, and its P(Yes) alone), "
                                     "direct, ragas-faithfulness, deepeval-faithfulness, llamaindex-faithfulness "
                                     "(the last four run on the judge LLM through an OpenAI-compatible server)")
    b.add_argument("--run", help="run name: results go to OUT/RUN/ (default from dataset, subset, split, limit)")
    b.add_argument("--out", default="results", help="results folder (default: results)")
    b.add_argument("--concurrency", type=int, default=1, help="rows in flight per system")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _judge_args(b)
    b.set_defaults(func=cmd_bench)

    # listed for --help only: main() hands everything after their name to their own main()
    for name, (_module, help_text) in OWN_FLAGS.items():
        sub.add_parser(name, add_help=False, help=help_text)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv[:1] and argv[0] in OWN_FLAGS:
            module = importlib.import_module(f"{__package__}.{OWN_FLAGS[argv[0]][0]}")
            return module.main(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except Rt4chartError as exc:
        print(f"rt4chart: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"rt4chart: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
