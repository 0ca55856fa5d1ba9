"""Fitting on train rows what a label-free score needs to become a decision: the standardization of
its features, and a threshold on it.

Lab-only: the product reads the fitted numbers from the files the lab ships
(``gasp/calibrations/<scorer>.json``, ``artifacts/readout/<model>.json``) and never refits them.
GASP's shipped threshold is the balanced point of the train *sentences*
(:func:`balanced_threshold`), not the best answer-level F1 (:func:`best_threshold`, which the
combination and readout fits use): hallucinated sentences are about 6 % of RAGTruth's answer
sentences, and an F1 fitted at that base rate buys precision by leaving most invented sentences
unflagged; the balanced point weighs a missed invention and a false alarm the same whatever the
base rate, which is what a sentence-by-sentence audit asks for.
"""

from __future__ import annotations

import numpy as np


def standardization(vectors: np.ndarray) -> tuple[list[float], list[float]]:
    """Per-feature mean and standard deviation (a constant feature gets std 1, not 0)."""
    mean = vectors.mean(axis=0)
    std = vectors.std(axis=0)
    std[std < 1e-9] = 1.0
    return [float(x) for x in mean], [float(x) for x in std]


def _candidates(risks: list[float]) -> list[float]:
    """Midpoints between consecutive distinct risks (and one beyond each end), so that a chosen
    threshold never sits on a training point."""
    values = sorted(set(risks))
    if not values:
        return []
    return [values[0] - 1.0] + [(a + b) / 2 for a, b in zip(values, values[1:])] + [values[-1] + 1.0]


def balanced_threshold(risks: list[float], gold: list[bool]) -> tuple[float, float]:
    """The threshold with the largest true-positive rate minus false-positive rate (Youden's J;
    flag when risk > threshold), and that J. On a plateau the highest threshold wins, the one
    that flags least. (0.0, 0.0) when there are no positives or no negatives to balance."""
    pos, neg = sum(1 for g in gold if g), sum(1 for g in gold if not g)
    if not pos or not neg:
        return 0.0, 0.0
    best = (-1.0, 0.0)
    for t in _candidates(risks):
        tpr = sum(1 for r, g in zip(risks, gold) if r > t and g) / pos
        fpr = sum(1 for r, g in zip(risks, gold) if r > t and not g) / neg
        if tpr - fpr >= best[0]:
            best = (tpr - fpr, t)
    return best[1], max(best[0], 0.0)


def best_threshold(answer_risks: list[float], gold: list[bool]) -> tuple[float, float]:
    """The risk threshold with the best answer-level F1 (flag when risk > threshold), and that F1.
    The combination fits of the lab use it; GASP's own threshold is :func:`balanced_threshold`."""
    candidates = _candidates(answer_risks)
    if not candidates:
        return 0.0, 0.0
    best = (0.0, candidates[0])
    for t in candidates:
        tp = sum(1 for r, g in zip(answer_risks, gold) if r > t and g)
        fp = sum(1 for r, g in zip(answer_risks, gold) if r > t and not g)
        fn = sum(1 for r, g in zip(answer_risks, gold) if r <= t and g)
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        if f1 > best[0]:
            best = (f1, t)
    return best[1], best[0]
