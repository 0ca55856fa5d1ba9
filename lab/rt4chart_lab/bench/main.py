"""One benchmark run: select rows, run each system (resumably), score, write the report."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import platform
import resource
import sys
import time
from pathlib import Path
from typing import Any

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput, Rt4chartError
from rt4chart_plugins.gasp import GaspDetector
from rt4chart_lab.readout import ReadoutDetector
from rt4chart_plugins.verifier import Verifier
from rt4chart_lab import metrics
from rt4chart_lab.data import first_user, pairs, records_dev
from rt4chart_lab.data.datasets import load_extra, load_ragtruth, load_wice, resolve_data_dir, subset_ids
from rt4chart_lab.serving import Endpoint, llama_server
from rt4chart_lab.bench.first_user import evaluate_first_user
from rt4chart_lab.bench.plot import write_plot
from rt4chart_lab.bench.report import write_report
from rt4chart_lab.bench.runner import RunStats, load_records, run_system
from rt4chart_lab.bench.served import served_metrics, served_table, served_verifier
from rt4chart_lab.bench.systems import System, select


#: what ``--dataset`` selects
DATASETS = ("ragtruth", "wice", "records", "pairs", "first-user", "everyday-tune", "extra")
#: the hand-written sets of the lab: no shared data, no splits, a subset is a file of item ids
HAND_WRITTEN = {"pairs": "minimal pairs", "first-user": "first-user items", "everyday-tune": "everyday tuning items"}
#: the sets scored as another: records and extra have RAGTruth's row form, the tuning set first-user's
SCORED_AS = {"records": "ragtruth", "extra": "ragtruth", "everyday-tune": "first-user"}


def default_run_name(dataset: str, subset: str | None, split: str | None, limit: int | None) -> str:
    name = f"{dataset}-{Path(subset).stem if subset else 'all'}"
    if split:
        name += f"-{split}"
    if limit:
        name += f"-n{limit}"
    return name


def _hand_written(dataset: str, rows: list, subset: str | None, split: str | None, limit: int | None) -> list:
    """The chosen rows of a hand-written set: all, or those a file of ids names (a slice for slow
    judges, in the file's order); then the first ``limit``."""
    what = HAND_WRITTEN[dataset]
    if split:
        raise InvalidInput(f"the {what} have no splits")
    if subset not in (None, "all"):
        by_id = {r.id: r for r in rows}
        ids = subset_ids(Path("."), subset)
        if unknown := [i for i in ids if i not in by_id]:
            raise InvalidInput(f"subset {subset}: {len(unknown)} ids are not {what}, e.g. {unknown[0]!r}")
        rows = [by_id[i] for i in ids]
    return rows[:limit]


def _check_run_meta(run_dir: Path, meta: dict) -> None:
    """A run directory holds one dataset, judge and pipeline setting: resuming with another would
    mix predictions silently."""
    path = run_dir / "run.json"
    if path.exists():
        old = json.loads(path.read_text(encoding="utf-8"))
        diff = [k for k in ("dataset", "judge", "judge_kwargs", "base_config") if old.get(k) != meta.get(k)]
        if diff:
            raise InvalidInput(f"{run_dir} was run with a different {', '.join(diff)}; use another --run name")
    else:
        run_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def run_benchmark(*, dataset: str, subset: str | None = None, split: str | None = None, limit: int | None = None,
                  data_dir: str | Path | None = None, systems: str | None = None, judge: str | None = None,
                  judge_kwargs: dict[str, Any] | None = None, base_config: dict[str, Any] | None = None,
                  run: str | None = None, out: str | Path = "results", concurrency: int = 1,
                  progress: bool = True) -> tuple[dict, str, list[RunStats]]:
    """Returns (summary, Markdown table, per-system run stats)."""
    if dataset not in DATASETS:
        raise InvalidInput(f"unknown dataset {dataset!r}: use {', '.join(DATASETS)}")
    if dataset == "records":  # generated contexts, hand-written answers: no shared data needed
        if subset not in (None, "all", *records_dev.SUBSETS) or split:  # "all": the CLI's name for no subset
            raise InvalidInput(f"the records dev set has the subsets {', '.join(records_dev.SUBSETS)} "
                               "(default dev) and no splits")
        root: Path | str = "(generated: rt4chart_lab.data.records_dev)"
        rows: list = records_dev.rows(subset if subset in records_dev.SUBSETS else "dev")[:limit]
    elif dataset == "pairs":  # hand-written, in the lab: no shared data needed
        root = str(pairs.PATH)
        chosen_rows = _hand_written(dataset, pairs.load_pairs(), subset, split, limit)
        rows = chosen_rows + pairs.with_question_dropped(chosen_rows)
    elif dataset == "first-user":  # hand-written, in the lab, held out: never trained or tuned on
        root = str(first_user.PATH)
        rows = _hand_written(dataset, first_user.load_first_user(), subset, split, limit)
    elif dataset == "everyday-tune":  # hand-written, in the lab, first-user's schema: the set to tune on
        root = str(first_user.TUNE_PATH)
        rows = _hand_written(dataset, first_user.load_first_user(first_user.TUNE_PATH), subset, split, limit)
    elif dataset == "ragtruth":
        root = resolve_data_dir(data_dir)
        rows = load_ragtruth(root, subset, split=split, limit=limit)
    elif dataset == "extra":
        if split:
            raise InvalidInput("the extra sets are read whole, with no split; drop --split")
        root = resolve_data_dir(data_dir)
        rows = load_extra(root, subset, limit=limit)
    else:
        if split:
            raise InvalidInput("WiCE has one split (dev); drop --split")
        root = resolve_data_dir(data_dir)
        rows = load_wice(root, subset, limit=limit)
    scored_as = SCORED_AS.get(dataset, dataset)
    chosen = select(systems, scored_as)
    judge_kwargs = judge_kwargs or {}
    base_config = base_config or {}
    run_dir = Path(out) / (run or default_run_name(dataset, subset, split, limit))
    public_kwargs = {k: str(v) for k, v in judge_kwargs.items() if k != "api_key"}
    _check_run_meta(run_dir, {"dataset": dataset, "judge": judge or "default", "judge_kwargs": public_kwargs,
                              "base_config": base_config})

    def make_verifier(system: System) -> Detector:
        if system.gasp_model:
            return GaspDetector(system.gasp_model)
        if system.readout_model:
            return ReadoutDetector(system.readout_model, prompt_only=system.prompt_only)
        if system.served:
            return served_verifier(system.name, endpoint, system.pipeline_config(dataset, base_config))
        return Verifier(judge, judge_kwargs=judge_kwargs, **system.pipeline_config(dataset, base_config))

    stack = contextlib.ExitStack()
    # the OpenAI-compatible endpoint of the external systems, started on first need, once
    endpoint = functools.cache(lambda: _endpoint(judge, judge_kwargs, stack))

    stats: list[RunStats] = []
    results: dict[str, dict] = {}
    judges: set[str] = set()
    with stack:  # stops the server, if one was started, when every system has run
        for system in chosen:
            path = run_dir / f"{system.name}.jsonl"
            stats.append(run_system(system, rows, path, make_verifier=make_verifier, concurrency=concurrency,
                                    progress=progress, endpoint=endpoint))
            preds = load_records(path)
            judges.update(p.get("judge") for r in rows if (p := preds.get(r.id)) and p.get("judge") not in (None, "none"))
            evaluate = {"ragtruth": metrics.evaluate_ragtruth, "wice": metrics.evaluate_wice,
                        "pairs": metrics.evaluate_pairs, "first-user": evaluate_first_user}
            results[system.name] = evaluate[scored_as](rows, preds)
            results[system.name]["description"] = system.description
            if system.served:
                results[system.name]["served"] = served_metrics(rows, preds)
            # the process's peak resident memory so far (the embedded judge runs in-process)
            results[system.name]["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    selection = f"subset {subset or 'all'}" + (f", split {split}" if split else "") + (f", first {limit}" if limit else "")
    summary = {
        "meta": {
            "dataset": dataset, "scored_as": scored_as, "subset": subset, "split": split, "limit": limit,
            "rows": len(rows),
            "selection": f"{selection} ({len(rows)} rows)", "data_dir": str(root),
            "judge": ", ".join(sorted(judges)) or (judge or "default"), "judge_kwargs": public_kwargs,
            "base_config": base_config, "run_dir": str(run_dir),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": f"{platform.machine()}, {platform.system()}, "
            f"{_cpus()} CPU cores",
        },
        "systems": results,
    }
    table = write_report(run_dir, summary)
    if any(s.served for s in chosen):
        table += "\n" + served_table(results) + "\n"
    note = write_plot(run_dir, summary)
    if note:
        table += f"\n{note}\n"
    return summary, table, stats


def _endpoint(judge: str | None, judge_kwargs: dict[str, Any], stack: contextlib.ExitStack) -> Endpoint:
    """``--judge openai``: its endpoint. Otherwise the embedded LLM behind llama.cpp's server (the
    trained judge is not a chat model, so the frameworks' metrics run on the embedded LLM)."""
    import os

    if judge == "openai":
        base_url = judge_kwargs.get("base_url") or os.environ.get("OPENAI_BASE_URL")
        model = judge_kwargs.get("model") or os.environ.get("RT4CHART_OPENAI_MODEL")
        if not base_url or not model:
            raise InvalidInput("external systems with --judge openai need --base-url and --model")
        return Endpoint(base_url=base_url, model=model,
                        api_key=judge_kwargs.get("api_key") or os.environ.get("OPENAI_API_KEY") or "sk-none")
    from rt4chart_plugins import models

    path = models.locate(models.DEFAULT_MODEL, judge_kwargs.get("model_path") if judge == "local" else None)
    return stack.enter_context(llama_server(path))


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def build_parser() -> argparse.ArgumentParser:
    from rt4chart_plugins.cli_options import add_judge_args

    b = argparse.ArgumentParser(prog="rt4chart bench", description="benchmark RT4CHART systems on RAGTruth, WiCE "
                                "or the lab's dev sets")
    b.add_argument("--dataset", choices=list(DATASETS), default="ragtruth",
                   help="records: hand-written answers about generated business records (a Data2txt-style dev "
                        "set; --subset dev, blind or both); pairs: hand-written minimal pairs (never trained on); "
                        "first-user: hand-written answers over everyday contexts, per group (invented facts, "
                        "abstentions, paraphrases; held out, never trained on); everyday-tune: the same over other "
                        "contexts, the set to tune and fit on; "
                        "extra: the human-annotated sets of extra/, to choose candidates on")
    b.add_argument("--subset", help="test-150 | dev-60 | all | PATH to a file of ids (RAGTruth default: test-150; "
                                    "WiCE default: all claims; pairs, first-user, everyday-tune: all items; "
                                    "extra: a set's name, several comma-separated, or all)")
    b.add_argument("--split", choices=["train", "test"], help="RAGTruth: keep only rows of this split")
    b.add_argument("--limit", type=int, help="only the first N selected rows (extra: a seeded sample of N rows of "
                                             "each set)")
    b.add_argument("--data-dir", help="benchmark data (default $RT4CHART_DATA_DIR, else ../shared/data)")
    b.add_argument("--systems", help="comma-separated: rt4chart, rt4chart-no-global, rt4chart-sentence, flag-all, "
                                     "oracle (reads the gold labels: the span ceiling of sentence verdicts), "
                                     "gasp (SmolLM2-135M), gasp-qwen0.5b, gasp-qwen1.5b (GASP scorers, no judge), "
                                     "readout, judge-yes (the 1.5B judge's hidden-state readout, and its P(Yes) alone), "
                                     "direct, ragas-faithfulness, deepeval-faithfulness, llamaindex-faithfulness "
                                     "(the last four run on the judge LLM through an OpenAI-compatible server), "
                                     "openai-served, openai-served-premise, local (the embedded 1.5B model through the "
                                     "openai judge and llama_server on loopback, read='reply' and read='premise', and "
                                     "in-process: failed rows, balanced accuracy, s/row)")
    b.add_argument("--run", help="run name: results go to OUT/RUN/ (default from dataset, subset, split, limit)")
    b.add_argument("--out", default="results", help="results folder (default: results)")
    b.add_argument("--concurrency", type=int, default=1, help="rows in flight per system")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b.add_argument("--threshold", type=float, default=None, help="trained judge: the support at or above which a "
                   "claim is ENT (default: the artifact's)")
    add_judge_args(b)
    return b


def main(argv: list[str] | None = None) -> int:
    """``rt4chart bench``: run the systems over the selected rows and print the table."""
    from rt4chart_plugins.cli_options import judge_kwargs

    args = build_parser().parse_args(argv)
    if args.decomposition or args.no_global:
        print("rt4chart bench: --decomposition and --no-global are set per system; choose with --systems",
              file=sys.stderr)
        return 2
    subset = args.subset if args.subset or args.dataset != "ragtruth" else "test-150"
    if subset == "all":  # every row (of --split, if given)
        subset = None
    try:
        summary, table, stats = run_benchmark(
            dataset=args.dataset, subset=subset, split=args.split, limit=args.limit, data_dir=args.data_dir,
            systems=args.systems, judge=args.judge, judge_kwargs=judge_kwargs(args),
            base_config={"window_size": args.window_size, "window_overlap": args.window_overlap,
                         **({"deadline": args.deadline} if args.deadline is not None else {})},
            run=args.run, out=args.out, concurrency=args.concurrency, progress=not args.quiet,
        )
    except Rt4chartError as exc:
        print(f"rt4chart bench: {exc}", file=sys.stderr)
        return 2
    for s in stats:
        print(f"{s.system}: {s.total} rows, {s.skipped} already done, {s.ok} run, {s.failed} could not be judged",
              file=sys.stderr)
    print(table)
    print(f"→ {summary['meta']['run_dir']}/summary.json, table.md", file=sys.stderr)
    return 0
