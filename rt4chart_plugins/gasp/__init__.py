"""GASP: grounding sensitivity by perturbation (method.md §2), a training-free second detector.

``scorer`` re-reads the answer under perturbed contexts, ``features`` turns token likelihoods into
the four per-sentence features, ``calibration`` holds what the label-free decision needs,
``detector`` builds the report and ``fit`` rebuilds a scorer's calibration from train rows.
"""

from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
from rt4chart_plugins.gasp.detector import DEFAULT_SCORER, GaspDetector

__all__ = ["DEFAULT_SCORER", "Calibration", "GaspDetector", "load_calibration"]
