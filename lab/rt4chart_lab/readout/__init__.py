"""Route 1 of the trained verifier: a linear readout on the embedded judge's hidden state."""

from rt4chart_lab.readout.detector import ReadoutDetector
from rt4chart_lab.readout.probe import Readout, load_readout

__all__ = ["Readout", "ReadoutDetector", "load_readout"]
