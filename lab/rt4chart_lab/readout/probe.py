"""The linear readout: ENT / CON / NIC from the judge's hidden state at the verdict position.

A multinomial logistic regression on the judge's own log-odds of Yes plus the top principal
components of the standardized hidden state: the readout starts from what the prompt already
says and learns what the hidden state adds. A few thousand statements cannot pin down 1,536
weights per class (cross-validation on train rows: the full vector overfits, 16 to 64 components
do not), and the projection folds back into one linear map over the full vector, so the artifact
and the inference are the same either way. Class weights balance the three labels; the L2
penalty spares the Yes log-odds. Fitted with full-batch Adam in numpy: the problem is small and
convex, and a solver library is not worth a dependency.

The artifact (``artifacts/readout/<model>.json``) holds the standardization, the weights, the
threshold on P(not ENT) and a sha256 of all of those numbers, checked on load.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from rt4chart_lab.logistic import fit_multinomial, softmax
from rt4chart_plugins.errors import ModelNotAvailable

_EPS = 1e-6


class Readout(BaseModel):
    model: str  # the judge whose hidden state this reads
    dim: int  # hidden size + 1 (the Yes log-odds)
    mean: list[float]
    std: list[float]
    weights: list[list[float]]  # 3 × dim, rows ENT, CON, NIC
    bias: list[float] = Field(min_length=3, max_length=3)
    components: int  # principal components of the hidden state the weights were fitted on
    l2: float
    threshold: float  # flag a statement when P(not ENT) > threshold
    prompt_threshold: float  # the same for the judge's 1 - P(Yes) alone (the prompt-only baseline)
    fitted_on: str = ""
    validation: dict[str, float | int | None] = Field(default_factory=dict)
    sha256: str = ""

    def digest(self) -> str:
        arrays = (self.mean, self.std, self.weights, self.bias, [self.threshold, self.prompt_threshold])
        h = hashlib.sha256()
        for a in arrays:
            h.update(np.asarray(a, dtype=np.float64).tobytes())
        return h.hexdigest()

    def probs(self, hidden: np.ndarray, p_yes: np.ndarray) -> np.ndarray:
        """(n, 3) probabilities ENT, CON, NIC."""
        x = (features(hidden, p_yes) - np.asarray(self.mean)) / np.asarray(self.std)
        return softmax(x @ np.asarray(self.weights).T + np.asarray(self.bias))


def features(hidden: np.ndarray, p_yes: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p_yes, dtype=np.float64), _EPS, 1 - _EPS)
    return np.hstack([np.asarray(hidden, dtype=np.float64), np.log(p / (1 - p))[:, None]])


def fit_linear(x: np.ndarray, y: np.ndarray, components: int, l2: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(mean, std, weights 3 × d, bias) over raw features ``x`` (hidden state, then the Yes
    log-odds): standardize, project the hidden part on its top ``components`` principal axes,
    fit, and fold the projection back into the weights."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-9] = 1.0
    xs = (x - mean) / std
    _, _, vt = np.linalg.svd(xs[:, :-1], full_matrices=False)
    axes = vt[:components].T  # (d - 1, k)
    w, b = fit_multinomial(np.hstack([xs[:, :-1] @ axes, xs[:, -1:]]), y, l2, free_last=True)
    weights = np.hstack([w[:, :-1] @ axes.T, w[:, -1:]])
    return mean, std, weights, b


#: the fitted readouts, one file per judge model
READOUTS = Path(__file__).resolve().parent.parent / "artifacts" / "readout"


def readout_path(model: str, directory: str | Path | None = None) -> Path:
    """``<directory>/<model>.json`` for a refit, else the lab's fitted file."""
    return (Path(directory) if directory is not None else READOUTS) / f"{model}.json"


def load_readout(model: str, directory: str | Path | None = None) -> Readout:
    path = readout_path(model, directory)
    rebuild = f"rebuild it with: rt4chart readout-fit --model {model}"
    if not path.is_file():
        raise ModelNotAvailable(f"no hidden-state readout for judge {model!r} ({path}); {rebuild}")
    try:
        readout = Readout.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelNotAvailable(f"the readout {path} is unreadable ({exc.__class__.__name__}); {rebuild}") from exc
    if readout.sha256 != readout.digest():
        raise ModelNotAvailable(f"the readout {path} fails its checksum (corrupted or edited); {rebuild}")
    if len(readout.weights) != 3 or any(len(r) != readout.dim for r in readout.weights) \
            or len(readout.mean) != readout.dim or len(readout.std) != readout.dim:
        raise ModelNotAvailable(f"the readout {path} has inconsistent shapes; {rebuild}")
    return readout
