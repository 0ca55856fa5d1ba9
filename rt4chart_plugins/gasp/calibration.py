"""The statistics GASP's label-free decision needs, per scorer model, as shipped.

The features' scale depends on the scorer (a 135M model's log-likelihoods move less than a 1.5B
model's), so each scorer ships its own file ``gasp/calibrations/<model>.json``: the mean and
standard deviation of each feature over RAGTruth **train** answer sentences (no labels used) and
one threshold on the risk, the balanced point of those train rows' sentences. The lab's
``rt4chart gasp-fit`` fits and rebuilds a file; its ``fitted_on`` says on what. The product only
reads them.
"""

from __future__ import annotations

from pathlib import Path

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
