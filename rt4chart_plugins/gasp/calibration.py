"""The statistics GASP's label-free decision needs, per scorer model, and how they are fitted.

The features' scale depends on the scorer (a 135M model's log-likelihoods move less than a 1.5B
model's), so each scorer ships its own file ``gasp/calibrations/<model>.json``: the mean and
standard deviation of each feature over RAGTruth **train** answer sentences (no labels used) and
one threshold on the risk. The threshold is the only number that sees labels: it is the balanced
point on those train rows' *sentences* (:func:`balanced_threshold`), not the best answer-level F1.
Hallucinated sentences are about 6 % of RAGTruth's answer sentences, and an F1 fitted at that base
rate buys precision by leaving most invented sentences unflagged (the F1-optimal 4.79 passed the
example's invented sentence, risk 3.40); the balanced point weighs a missed invention and a false
alarm the same whatever the base rate, which is what a sentence-by-sentence audit asks for.
``rt4chart gasp-fit`` rebuilds a file; its ``fitted_on`` says on what.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.gasp.features import FEATURES


class Calibration(BaseModel):
    model: str
    chunks: int = Field(ge=1)
    mean: list[float] = Field(min_length=4, max_length=4)
    std: list[float] = Field(min_length=4, max_length=4)
    threshold: float
    features: list[str] = Field(default_factory=lambda: list(FEATURES))
    fitted_on: str = ""
    train_metrics: dict[str, float | int | None] = Field(default_factory=dict)


#: the packaged calibrations, one file per scorer
CALIBRATIONS = Path(__file__).resolve().parent / "calibrations"


def calibration_path(model: str, directory: str | Path | None = None) -> Path:
    """``<directory>/<model>.json`` for a refit, else the packaged file."""
    return (Path(directory) if directory is not None else CALIBRATIONS) / f"{model}.json"


def load_calibration(model: str, directory: str | Path | None = None) -> Calibration:
    path = calibration_path(model, directory)
    if not path.is_file():
        raise ModelNotAvailable(
            f"no GASP calibration for scorer {model!r} ({path}); fit one with: rt4chart gasp-fit --model {model}"
        )
    return Calibration.model_validate_json(path.read_text(encoding="utf-8"))


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
