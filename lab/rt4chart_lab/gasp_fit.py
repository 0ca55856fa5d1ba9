"""``rt4chart gasp-fit``: fit a scorer's calibration on RAGTruth train rows and ship it.

Features are computed for N train answers (a fixed, seeded choice that keeps the QA/Summary mix)
and kept in ``results/gasp-fit/<model>-k<K>.jsonl``, so an interrupted fit resumes and a refit
with other settings costs nothing. Then: the per-feature mean and standard deviation over every
scored answer sentence (no labels), and the risk threshold at the balanced point of the train
sentences (largest true-positive minus false-positive rate; labels, train rows only; test rows
are never read). That point sits on a flat stretch of the curve, so one resample of the rows can
move it by two units: the shipped threshold is its median over seeded bootstrap resamples of the
answers (:func:`bagged_threshold`). The table printed at the end is on the same train
rows, so it is an optimistic fit, not a result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

from rt4chart_lab.data.datasets import RagTruthRow, load_ragtruth, resolve_data_dir
from rt4chart_lab import jsonl
from rt4chart_lab.metrics import auc
from rt4chart_plugins.pipeline.segment import segment_answer, segment_context
from rt4chart_lab.thresholds import balanced_threshold, best_threshold, standardization
from rt4chart_plugins.gasp.calibration import Calibration, calibration_path
from rt4chart_plugins.gasp.detector import GaspDetector
from rt4chart_plugins.gasp.features import FEATURES, SentenceFeatures, risk


def choose_rows(rows: list[RagTruthRow], n: int, seed: str = "gasp") -> list[RagTruthRow]:
    """``n`` rows in a fixed pseudo-random order (by hash of seed and id), keeping each task
    type's share of the rows."""
    order = sorted(rows, key=lambda r: hashlib.sha256(f"{seed}:{r.id}".encode()).hexdigest())
    if n >= len(rows):
        return order
    by_task: dict[str, list[RagTruthRow]] = {}
    for r in order:
        by_task.setdefault(r.task_type, []).append(r)
    quota = {t: round(n * len(rs) / len(rows)) for t, rs in by_task.items()}
    chosen = [r for t, rs in by_task.items() for r in rs[: quota[t]]]
    return sorted(chosen, key=lambda r: r.id)


def sentence_records(detector: GaspDetector, row: RagTruthRow) -> dict:
    """One row's answer sentences: offsets, gold (overlaps a gold span) and features."""
    data = row.verify_input()
    answer = data["answer"]
    sentences = segment_answer(answer)
    started = time.perf_counter()
    scored = detector.score(segment_context(data["context"]), answer, sentences, data.get("question"))
    out = []
    for s, f in zip(sentences, scored.features):
        gold = any(g.overlaps(s.start, s.end) for g in row.labels)
        out.append({"start": s.start, "end": s.end, "gold": gold,
                    "features": None if f is None else list(f.vector()),
                    "supporting_chunk": None if f is None else f.supporting_chunk,
                    "tokens": 0 if f is None else f.tokens})
    return {"id": row.id, "task_type": row.task_type, "hallucinated": row.hallucinated, "sentences": out,
            "seconds": time.perf_counter() - started, "tokens_read": scored.tokens_read, "notes": scored.notes}


def compute(detector: GaspDetector, rows: list[RagTruthRow], cache: Path, progress: bool = True) -> list[dict]:
    """Sentence records for every row, reusing those already in ``cache`` (JSONL, one row a line)."""
    from tqdm import tqdm

    cache.parent.mkdir(parents=True, exist_ok=True)
    done = {rec["id"]: rec for rec in jsonl.records(cache)}  # a line cut by an interruption is skipped
    todo = [r for r in rows if r.id not in done]
    with open(cache, "a", encoding="utf-8") as out:
        for row in tqdm(todo, desc=f"gasp features ({detector.model})", unit="row", disable=not progress):
            rec = sentence_records(detector, row)
            done[row.id] = rec
            out.write(json.dumps(rec) + "\n")
            out.flush()
    return [done[r.id] for r in rows]


def bagged_threshold(answers: list[list[tuple[float, bool]]], resamples: int = 200, seed: int = 0) -> tuple[float, float]:
    """The median, over ``resamples`` bootstrap resamples of the answers (an answer's sentences
    stay together: they share a context and a writer), of the balanced sentence threshold; and
    the spread of those thresholds (their interquartile range)."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(resamples):
        items = [item for i in rng.integers(0, len(answers), len(answers)) for item in answers[i]]
        found.append(balanced_threshold([r for r, _ in items], [g for _, g in items])[0])
    q1, median, q3 = np.percentile(found, [25, 50, 75])
    return float(median), float(q3 - q1)


def fit(records: list[dict], model: str, chunks: int, fitted_on: str) -> Calibration:
    vectors = np.array([s["features"] for r in records for s in r["sentences"] if s["features"] is not None])
    if len(vectors) == 0:
        raise SystemExit("no answer sentence was scored: nothing to fit")
    mean, std = standardization(vectors)
    answer_risks, gold, sent_risks, sent_gold, per_answer = [], [], [], [], []
    for r in records:
        risks = [risk(_features(s["features"]), mean, std) for s in r["sentences"] if s["features"] is not None]
        golds = [bool(s["gold"]) for s in r["sentences"] if s["features"] is not None]
        sent_risks += risks
        sent_gold += golds
        per_answer.append(list(zip(risks, golds)))
        answer_risks.append(max(risks) if risks else 0.0)
        gold.append(bool(r["hallucinated"]))
    threshold, spread = bagged_threshold(per_answer)
    sent_pos = sum(sent_gold)
    tpr = sum(r > threshold and g for r, g in zip(sent_risks, sent_gold)) / max(1, sent_pos)
    fpr = sum(r > threshold and not g for r, g in zip(sent_risks, sent_gold)) / max(1, len(sent_gold) - sent_pos)
    flagged = [r > threshold for r in answer_risks]
    tp = sum(f and g for f, g in zip(flagged, gold))
    f1 = 2 * tp / (sum(flagged) + sum(gold)) if tp else 0.0
    metrics = {"rows": len(records), "positives": sum(gold), "sentences": len(sent_risks),
               "sentence_positives": sent_pos, "sentence_j": round(tpr - fpr, 4),
               "threshold_iqr": round(spread, 4), "balanced_threshold_all_rows": round(balanced_threshold(sent_risks, sent_gold)[0], 4),
               "sentence_tpr": _round(tpr), "sentence_fpr": _round(fpr),
               "answer_f1": round(f1, 4), "answer_f1_best_threshold": round(best_threshold(answer_risks, gold)[0], 4),
               "answer_auc": _round(auc(answer_risks, gold)),
               "sentence_auc": _round(auc(sent_risks, sent_gold)),
               "seconds_median": round(float(np.median([r["seconds"] for r in records])), 2)}
    return Calibration(model=model, chunks=chunks, mean=mean, std=std, threshold=threshold, fitted_on=fitted_on,
                       train_metrics=metrics)


def _features(v: list[float]) -> SentenceFeatures:
    return SentenceFeatures(*v, supporting_chunk=None, tokens=0)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rt4chart gasp-fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="scorer model name (default: the GASP default)")
    parser.add_argument("--rows", type=int, default=120, help="RAGTruth train rows to fit on (default 120)")
    parser.add_argument("--chunks", type=int, default=5, help="K, chunks left out one at a time (default 5)")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--cache", default="results/gasp-fit", help="folder of the per-row feature cache")
    parser.add_argument("--out", default=None, help="folder for <model>.json (default: the package's artifacts)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    detector = GaspDetector(args.model, chunks=args.chunks)
    rows = load_ragtruth(resolve_data_dir(args.data_dir), split="train")
    assert all(r.split == "train" for r in rows)
    chosen = choose_rows(rows, args.rows)
    records = compute(detector, chosen, Path(args.cache) / f"{detector.model}-k{args.chunks}.jsonl",
                      progress=not args.quiet)
    tasks = ", ".join(f"{t} {sum(1 for r in chosen if r.task_type == t)}" for t in sorted({r.task_type for r in chosen}))
    cal = fit(records, detector.model, args.chunks,
              f"{len(chosen)} RAGTruth train rows ({tasks}; seeded choice, rt4chart gasp-fit --rows {args.rows}); "
              "mean/std over their answer sentences, threshold = the median over 200 bootstrap resamples of the "
              "answers of the balanced point (max TPR - FPR) of their sentences")
    path = calibration_path(detector.model, args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cal.model_dump_json(indent=2) + "\n", encoding="utf-8")
    m = cal.train_metrics
    print(f"wrote {path}")
    print("| scorer | rows | positives | sentences (halluc.) | threshold (IQR) | sent TPR / FPR | ans F1 (train) "
          "| F1-best threshold | ans AUC | sent AUC | s/row |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {cal.model} | {m['rows']} | {m['positives']} | {m['sentences']} ({m['sentence_positives']}) | "
          f"{cal.threshold:.3f} ({m['threshold_iqr']:.2f}) | {m['sentence_tpr']} / {m['sentence_fpr']} | {m['answer_f1']} | "
          f"{m['answer_f1_best_threshold']} | {m['answer_auc']} | {m['sentence_auc']} | {m['seconds_median']} |")
    print("feature means " + ", ".join(f"{k}={v:.4f}" for k, v in zip(FEATURES, cal.mean)), file=sys.stderr)
    return 0
