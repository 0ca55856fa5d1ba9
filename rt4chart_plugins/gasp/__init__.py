"""GASP: grounding sensitivity by perturbation (docs/gasp.md), a training-free second detector.

``scorer`` re-reads the answer under perturbed contexts, ``features`` turns token likelihoods into
the four per-sentence features, ``calibration`` reads what the label-free decision needs (the lab's
``gasp-fit`` fits it on train rows), and ``detector`` builds the report.
"""

from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
from rt4chart_plugins.gasp.detector import DEFAULT_SCORER, GaspDetector

__all__ = ["DEFAULT_SCORER", "Calibration", "GaspDetector", "load_calibration"]
