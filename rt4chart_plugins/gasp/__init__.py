"""GASP: grounding sensitivity by perturbation (docs/gasp.md), a training-free second detector.

``scorer`` re-reads the answer under perturbed contexts, ``features`` turns token likelihoods into
the four per-sentence features, ``calibration`` reads what the label-free decision needs (the lab's
``gasp-fit`` fits it on train rows), and ``detector`` builds the report. Each loads when first
used, not with the package.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
    from rt4chart_plugins.gasp.detector import DEFAULT_SCORER, GaspDetector

#: where each public name lives; a module loads when one of its names is first asked for, so that
#: importing ``rt4chart_plugins.gasp`` (or one light module of it) does not load the scorer
_HOMES = {
    "DEFAULT_SCORER": "detector",
    "GaspDetector": "detector",
    "Calibration": "calibration",
    "load_calibration": "calibration",
}

__all__ = ["DEFAULT_SCORER", "Calibration", "GaspDetector", "load_calibration"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
