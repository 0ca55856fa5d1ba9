"""How fast the offline default is, one answer at a time and in a batch, in one run.

``python -m rt4chart_lab.bench.speed`` times the trained verifier (the defaults of ``Verifier()``)
on RAGTruth test-150's answers: each answer alone (median and p90 seconds, after one warm-up
answer, so loading the model is not counted), then all of them through ``verify_many`` (answers
per second). The encoder keeps the logits of the pairs it scored, and the rules their reading of
the last contexts, so both are forgotten before each timed pass: both passes start cold. ``--limit N`` takes the first N answers;
``--concurrency`` is the batch's; ``--window-size W`` (with ``--window-overlap``) sets the pipeline's
windows instead of leaving them to the judge (25 and 10 time the windows and the global pass
that the verifier read before it took the whole context as one window). Seconds depend on the
machine and on what else runs on it: quote them with both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from rt4chart_plugins import Verifier
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--window-size", type=int)
    parser.add_argument("--window-overlap", type=int, default=10)
    args = parser.parse_args(argv)
    rows = [r.verify_input() for r in load_ragtruth(resolve_data_dir(args.data_dir), "test-150", limit=args.limit)]
    options = {"window_size": args.window_size, "window_overlap": args.window_overlap} if args.window_size else {}

    def cold() -> Verifier:
        """A verifier that has read no context and a judge that remembers no pair (the model stays loaded)."""
        verifier = Verifier(**options)
        verifier.judge.forget_scores()
        return verifier

    verifier = cold()
    verifier.verify(**{k: rows[0][k] for k in ("context", "answer", "question")})  # load the model
    verifier = cold()
    seconds = []
    for row in rows:
        start = time.perf_counter()
        verifier.verify(context=row["context"], answer=row["answer"], question=row["question"])
        seconds.append(time.perf_counter() - start)
    verifier = cold()
    start = time.perf_counter()
    reports = verifier.verify_many(rows, concurrency=args.concurrency)
    batch = time.perf_counter() - start
    failed = sum(r.state == "failed" for r in reports)
    p90 = sorted(seconds)[max(0, int(0.9 * len(seconds)) - 1)]
    print(f"| answers | CPUs | s median (alone) | s p90 (alone) | answers/s (verify_many, concurrency {args.concurrency}) | failed |")
    print("|---|---|---|---|---|---|")
    print(f"| {len(rows)} | {os.cpu_count()} | {statistics.median(seconds):.3f} | {p90:.3f} | {len(rows) / batch:.1f} | {failed} |")


if __name__ == "__main__":
    main()
