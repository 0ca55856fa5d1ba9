"""How the cost of the offline default grows with its input: context length, answer length, batch rows.

``rt4chart bench-scale`` (or ``python -m rt4chart_lab.bench.scale``) verifies with the defaults of
``Verifier()`` (the trained verifier):

- a context of 10k, 100k and 1M characters (RAGTruth's QA and news passages, then WiCE's web
  pages, one after the other) with an answer of :data:`ANSWER_FOR_CONTEXT` sentences (RAGTruth
  answers' sentences);
- an answer of 10, 100 and 1,000 sentences against a context of :data:`CONTEXT_FOR_ANSWER`
  characters;
- a batch file of 1k, 10k and 100k short rows through ``run_batch`` (the CLI's batch), where
  the final rewrite in input order is timed apart from the whole run;
- the target: a 1 MB context with a 500-sentence answer.

Each point runs in a process of its own, so its peak memory (the resident set's high-water
mark, the model included) is its own; the model is loaded and one tiny answer verified before
the clock starts. Per axis, the exponent of a least-squares fit of log(CPU seconds) on log(size)
says how cost grows: 1 is linear, 2 quadratic; answers are fitted on the sentences the pipeline
segmented (sentencex runs a few of the given ones together). CPU seconds, not wall seconds, are fitted,
because the machine may be shared (the load average is printed); both are shown.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rt4chart_lab.data.datasets import load_ragtruth, load_wice, resolve_data_dir

#: the sizes of each axis: context characters, answer sentences, batch rows
SIZES = {"context": [10_000, 100_000, 1_000_000], "answer": [10, 100, 1_000], "rows": [1_000, 10_000, 100_000]}
#: the answer read against each context size, and the context each answer size is read against
ANSWER_FOR_CONTEXT = 50
CONTEXT_FOR_ANSWER = 100_000
#: the issue's target: this context with this answer
TARGET = (1_000_000, 500)
#: the rows of the batch axis, in turn: short, and judged for real (ENT, CON by a number, CON by a word)
BATCH_ROWS = [("The trial lasts 14 days. Only verified users are eligible.", "The trial lasts 14 days."),
              ("The museum opens at 10 AM and closes at 6 PM.", "It closes at 9 PM."),
              ("Only employees with a badge may enter the lab.", "Anyone can enter the lab.")]


def corpus(data_dir: str | None) -> tuple[list[str], list[str]]:
    """Prose contexts, each once, in file order: RAGTruth's QA passages and news (its records are
    JSON), then WiCE's web-page chunks (RAGTruth's prose holds about 700k characters); and the
    sentences of RAGTruth's answers to them, in the same order."""
    from rt4chart_plugins.pipeline.segment import segment_answer

    folder = resolve_data_dir(data_dir)
    contexts: dict[str, list[str]] = {}
    for row in load_ragtruth(folder):
        if row.task_type != "Data2txt":
            contexts.setdefault(row.context, []).append(row.answer)
    # sentences as a writer ends them: list items ("3) Side effects: *") run into what follows once
    # the answers' sentences are put one after the other, into one "sentence" of thousands of characters
    sentences = [s.text for answers in contexts.values() for a in answers for s in segment_answer(a)
                 if _PLAIN.match(s.text) and s.text.rstrip()[-1:] in ".!?" and not set("()*") & set(s.text)]
    pages = dict.fromkeys(" ".join(row.context_sentences) for row in load_wice(folder))
    return list(contexts) + [p for p in pages if p not in contexts], sentences


_PLAIN = re.compile(r"[A-Z][a-z]")


def context_of(contexts: list[str], chars: int) -> str:
    text, parts = 0, []
    for c in contexts:
        parts.append(c)
        text += len(c) + 2
        if text >= chars:
            break
    if text < chars:
        raise SystemExit(f"the corpus holds {text} characters of context, fewer than {chars}")
    return "\n\n".join(parts)[:chars]


def answer_of(sentences: list[str], count: int) -> str:
    if len(sentences) < count:
        raise SystemExit(f"the corpus holds {len(sentences)} answer sentences, fewer than {count}")
    return " ".join(sentences[:count])


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def measure_verify(data_dir: str | None, chars: int, count: int) -> dict:
    """One verification of ``count`` answer sentences against ``chars`` context characters."""
    from rt4chart_plugins import Verifier

    contexts, sentences = corpus(data_dir)
    context, answer = context_of(contexts, chars), answer_of(sentences, count)
    verifier = Verifier()
    verifier.verify(context="The trial lasts 14 days.", answer="It lasts 14 days.")  # the model, the units' registry
    wall, cpu = time.perf_counter(), time.process_time()
    report = verifier.verify(context=context, answer=answer)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "peak_mb": _peak_mb(),
            "state": report.state, "claims": len(report.claims), "context_sentences": len(report.context_sentences),
            "answer_sentences": len(report.answer_sentences)}


def measure_batch(rows: int) -> dict:
    """A batch file of ``rows`` short rows through ``run_batch``, to a JSONL file."""
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.batch import run_batch

    with tempfile.TemporaryDirectory() as folder:
        inp, out = Path(folder) / "in.jsonl", Path(folder) / "out.jsonl"
        with open(inp, "w", encoding="utf-8") as fh:
            for i in range(rows):
                context, answer = BATCH_ROWS[i % len(BATCH_ROWS)]
                fh.write(json.dumps({"id": i, "context": context, "answer": answer}) + "\n")
        verifier = Verifier()
        verifier.verify(context=BATCH_ROWS[0][0], answer=BATCH_ROWS[0][1])
        cpu = time.process_time()
        summary = run_batch(verifier, inp, out, progress=False)
        cpu = time.process_time() - cpu
    return {"wall": summary.seconds, "cpu": cpu, "peak_mb": _peak_mb(), "rewrite": summary.rewrite_seconds,
            "state": f"{summary.ok} ok, {summary.failed} failed"}


def exponent(sizes: list[float], seconds: list[float]) -> float | None:
    """The slope of log(seconds) on log(size), least squares; None with fewer than two points."""
    points = [(math.log(s), math.log(max(t, 1e-6))) for s, t in zip(sizes, seconds)]
    if len(points) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


def _point(args: argparse.Namespace) -> None:
    kind, size = args.point
    if kind == "rows":
        result = measure_batch(int(size))
    elif kind == "context":
        result = measure_verify(args.data_dir, int(size), args.answer_for_context)
    elif kind == "answer":
        result = measure_verify(args.data_dir, args.context_for_answer, int(size))
    else:  # target: "CHARS:SENTENCES"
        chars, count = map(int, size.split(":"))
        result = measure_verify(args.data_dir, chars, count)
    print(json.dumps(result))


def run_point(kind: str, size: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, "-m", "rt4chart_lab.bench.scale", "--point", kind, size,
               "--answer-for-context", str(args.answer_for_context), "--context-for-answer", str(args.context_for_answer)]
    if args.data_dir:
        command += ["--data-dir", args.data_dir]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"rt4chart bench-scale: the {kind} {size} point failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _sizes(text: str | None, default: list[int]) -> list[int]:
    return default if text is None else [int(x) for x in text.split(",") if x]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rt4chart bench-scale", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="the shared benchmark data (default $RT4CHART_DATA_DIR)")
    parser.add_argument("--context", help="context sizes in characters, comma-separated (default 10000,100000,1000000)")
    parser.add_argument("--answer", help="answer sizes in sentences (default 10,100,1000)")
    parser.add_argument("--rows", help="batch sizes in rows (default 1000,10000,100000)")
    parser.add_argument("--target", default=f"{TARGET[0]}:{TARGET[1]}",
                        help="CHARS:SENTENCES of the target point, or none (default %(default)s)")
    parser.add_argument("--answer-for-context", type=int, default=ANSWER_FOR_CONTEXT)
    parser.add_argument("--context-for-answer", type=int, default=CONTEXT_FOR_ANSWER)
    parser.add_argument("--point", nargs=2, metavar=("KIND", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.point:
        _point(args)
        return 0
    axes = {"context": _sizes(args.context, SIZES["context"]), "answer": _sizes(args.answer, SIZES["answer"]),
            "rows": _sizes(args.rows, SIZES["rows"])}
    names = {"context": "context chars", "answer": "answer sentences", "rows": "batch rows"}
    fixed = {"context": f"answer of {args.answer_for_context} sentences",
             "answer": f"context of {args.context_for_answer:,} chars", "rows": "short rows, run_batch to JSONL"}
    load = os.getloadavg()
    print("| axis | size | wall s | CPU s | peak MB | what else | result |")
    print("|---|---:|---:|---:|---:|---|---|")
    fits: list[str] = []
    for axis, sizes in axes.items():
        results = [run_point(axis, str(size), args) for size in sizes]
        for size, r in zip(sizes, results):
            extra = (f"final rewrite {r['rewrite']:.2f} s ({100 * r['rewrite'] / r['wall']:.1f} % of the run)"
                     if axis == "rows" else f"{r['answer_sentences']} answer sentences (segmented), {r['claims']} "
                     f"claims, {r['context_sentences']} context sentences")
            print(f"| {names[axis]} | {size:,} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_mb']:.0f} | {fixed[axis]} | "
                  f"{r['state']}; {extra} |")
        # the answer axis is fitted on the sentences the pipeline read: a few given ones run together
        xs = [r["answer_sentences"] for r in results] if axis == "answer" else sizes
        cpu_fit = exponent(xs, [r["cpu"] for r in results])
        wall_fit = exponent(xs, [r["wall"] for r in results])
        if cpu_fit is not None:
            fits.append(f"| {names[axis]} | {sizes[0]:,} to {sizes[-1]:,} | {cpu_fit:.2f} | {wall_fit:.2f} |")
    if args.target != "none":
        r = run_point("target", args.target, args)
        chars, count = map(int, args.target.split(":"))
        print(f"| target | {chars:,} chars, {count} sentences | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_mb']:.0f} | – | "
              f"{r['state']}; {r['answer_sentences']} answer sentences (segmented), {r['claims']} claims, "
              f"{r['context_sentences']} context sentences |")
    print("\n| axis | sizes | exponent of CPU s | exponent of wall s |")
    print("|---|---|---:|---:|")
    for line in fits:
        print(line)
    end = os.getloadavg()
    print(f"\n{os.cpu_count()} CPUs; load average {load[0]:.1f} at the start, {end[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
