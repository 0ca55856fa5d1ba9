"""How fast the offline default is, one answer at a time and in a batch, in one run.

``python -m rt4chart_lab.bench.speed`` times the trained verifier (the defaults of ``Verifier()``)
on RAGTruth test-150's answers: each answer alone (median and p90 seconds, after one warm-up
answer, so loading the model is not counted), then all of them through ``verify_many`` (answers
per second). The encoder keeps the logits of the pairs it scored, so they are forgotten before
each timed pass: both passes start cold. ``--limit N`` takes the first N answers;
``--concurrency`` is the batch's. Seconds depend on the machine and on what else runs on it:
quote them with both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from rt4chart_plugins import Verifier
from rt4chart_plugins.judges.trained.judge import forget_scores
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args(argv)
    rows = [r.verify_input() for r in load_ragtruth(resolve_data_dir(args.data_dir), "test-150", limit=args.limit)]
    verifier = Verifier()
    verifier.verify(**{k: rows[0][k] for k in ("context", "answer", "question")})  # load the model
    seconds = []
    forget_scores()
    for row in rows:
        start = time.perf_counter()
        verifier.verify(context=row["context"], answer=row["answer"], question=row["question"])
        seconds.append(time.perf_counter() - start)
    forget_scores()
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
