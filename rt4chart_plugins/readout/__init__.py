"""Route 1 of the trained verifier: a linear readout on the embedded judge's hidden state."""

from .detector import ReadoutDetector
from .probe import Readout, load_readout

__all__ = ["Readout", "ReadoutDetector", "load_readout"]
