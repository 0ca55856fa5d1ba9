"""rt4chart-plugins: claim-level, evidence-backed hallucination detection for RAG (RT4CHART)."""

from .config import PipelineConfig
from .errors import InvalidInput, JudgeError, MissingExtra, ModelNotAvailable, Rt4chartError
from .judges.base import Judge
from .types import ClaimVerdict, Cost, Evidence, Label, Report, Sentence, Span, VerifyInput
from .detector import Detector
from .gasp import GaspDetector
from .verifier import Verifier, failed_report, make_judge, run_sync

__all__ = [
    "Verifier", "GaspDetector", "Detector", "make_judge", "run_sync", "failed_report", "Judge", "PipelineConfig", "Report", "ClaimVerdict", "Evidence", "Label",
    "Span", "Sentence", "Cost", "VerifyInput", "Rt4chartError", "InvalidInput", "JudgeError",
    "ModelNotAvailable", "MissingExtra",
]
__version__ = "0.1.0"
