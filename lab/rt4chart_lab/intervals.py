"""How much a table's numbers would move on other rows: bootstrap intervals over the rows.

test-150 has 50 rows per task type and 11 to 31 hallucinated answers in each, so a per-task AUC
or F1 moves by ±0.1 from one draw of rows to another. Two systems, or two versions of one, are
only told apart by a difference larger than that, and the tables say so next to the numbers.

The rows are resampled with replacement (1,000 times, fixed seed, so a re-run prints the same
intervals); each statistic is recomputed on every resample and its 2.5th and 97.5th percentiles
are reported. Span F1 resamples whole rows, as the protocol sums characters per row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rt4chart_lab.data.datasets import RagTruthRow

RESAMPLES = 1000
SEED = 0


def _auc(scores: np.ndarray, gold: np.ndarray) -> float:
    """Mann–Whitney AUC with average ranks for ties; NaN when a class is absent (dropped later)."""
    pos = int(gold.sum())
    neg = len(gold) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    sorted_scores = scores[order]
    ranks = np.empty(len(scores))
    # average rank of each run of equal scores
    _, first, counts = np.unique(sorted_scores, return_index=True, return_counts=True)
    avg = first + (counts + 1) / 2.0
    ranks[order] = np.repeat(avg, counts)
    return float((ranks[gold].sum() - pos * (pos + 1) / 2) / (pos * neg))


def _f1(tp: float, fp: float, fn: float) -> float:
    return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else float("nan")


def _interval(values: list[float]) -> list[float] | None:
    arr = np.asarray([v for v in values if not np.isnan(v)])
    if len(arr) < RESAMPLES // 2:  # the statistic is undefined on most resamples
        return None
    return [round(float(np.percentile(arr, 2.5)), 3), round(float(np.percentile(arr, 97.5)), 3)]


def con_nic_balanced(con_on_conflict: float, flagged_conflict: float, nic_on_baseless: float,
                     flagged_baseless: float) -> float | None:
    """Contradicted vs baseless, told apart on the gold spans whose claim was flagged (CON or NIC):
    the mean of CON's recall on Conflict spans and NIC's recall on Baseless spans. Chance is 0.5
    whatever the mix; None when either kind has no flagged span."""
    if not flagged_conflict or not flagged_baseless:
        return None
    return (con_on_conflict / flagged_conflict + nic_on_baseless / flagged_baseless) / 2


def bootstrap(rows: Sequence[RagTruthRow], records: Sequence[dict], span_counts: Sequence[tuple[int, int, int]],
              typed: Sequence[tuple[int, int, int, int]]) -> dict[str, list[float] | None]:
    """95 % intervals of answer F1, AUC, span F1 and the contradicted-vs-baseless balanced accuracy.

    ``records``: each row's prediction (``hallucinated``, ``score``); ``span_counts``: each row's
    sentence-span (TP, FP, FN) in characters; ``typed``: each row's (Conflict spans called CON,
    Conflict spans flagged, Baseless spans called NIC, Baseless spans flagged)."""
    n = len(rows)
    if n == 0:
        return {"f1": None, "auc": None, "span_f1": None, "con_nic": None}
    gold = np.array([r.hallucinated for r in rows], dtype=bool)
    pred = np.array([bool(x["hallucinated"]) for x in records], dtype=bool)
    score = np.array([float(x["score"]) for x in records], dtype=float)
    spans = np.asarray(span_counts, dtype=float).reshape(n, 3)
    kinds = np.asarray(typed, dtype=float).reshape(n, 4)
    rng = np.random.default_rng(SEED)
    out: dict[str, list[float]] = {"f1": [], "auc": [], "span_f1": [], "con_nic": []}
    for _ in range(RESAMPLES):
        idx = rng.integers(0, n, n)
        g, p = gold[idx], pred[idx]
        out["f1"].append(_f1(float((g & p).sum()), float((p & ~g).sum()), float((g & ~p).sum())))
        out["auc"].append(_auc(score[idx], g))
        out["span_f1"].append(_f1(*spans[idx].sum(axis=0)))
        balanced = con_nic_balanced(*kinds[idx].sum(axis=0))
        out["con_nic"].append(float("nan") if balanced is None else balanced)
    return {k: _interval(v) for k, v in out.items()}
