"""What a GASP report depends on besides its scorer, as one value a run can fingerprint.

A batch row's fingerprint holds the detector's settings (:func:`rt4chart_plugins.runs.spec.detector_settings`
reads ``detector.config``), so that a row scored under other settings is scored again on resume.
GASP's scorer is in its name; ``chunks``, ``threshold``, the calibration and the window it reads
in are here. Each is kept as given (None: the calibration's), so reading it loads nothing: the
Ray driver fingerprints rows without a calibration file or a model.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rt4chart_plugins.config import AtLeastOne, Finite
from rt4chart_plugins.gasp.calibration import Calibration


class GaspSettings(BaseModel):
    """GASP's options that change a report (rows in flight and threads do not)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: K, the leave-one-out chunks (None: what the calibration was fitted with)
    chunks: AtLeastOne | None = None
    #: the risk above which a sentence is flagged (None: the calibration's)
    threshold: Finite | None = None
    #: the calibration given: a folder holding ``<model>.json``, or one read already (None: the shipped one)
    calibration: str | Calibration | None = None
    #: the scorer's window in tokens: a longer context is cut to fit it
    n_ctx: AtLeastOne = 8192
    #: the longest context accepted, in characters
    max_context_chars: int = Field(default=2_000_000, ge=1)
