"""rt4chart-plugins: claim-level, evidence-backed hallucination detection for RAG (RT4CHART)."""

from rt4chart_plugins.config import PipelineConfig
from rt4chart_plugins.detector import Detector, failed_report, run_sync
from rt4chart_plugins.errors import InvalidInput, JudgeError, MissingExtra, ModelNotAvailable, Rt4chartError
from rt4chart_plugins.gasp import GaspDetector
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.registry import make_judge
from rt4chart_plugins.types import (
    ClaimVerdict,
    Cost,
    Evidence,
    Label,
    Report,
    Sentence,
    Span,
    VerifyInput,
    set_html_view,
)
from rt4chart_plugins.verifier import Verifier

__all__ = [
    "Verifier",
    "GaspDetector",
    "Detector",
    "make_judge",
    "run_sync",
    "failed_report",
    "Judge",
    "PipelineConfig",
    "Report",
    "ClaimVerdict",
    "Evidence",
    "Label",
    "Span",
    "Sentence",
    "Cost",
    "VerifyInput",
    "Rt4chartError",
    "InvalidInput",
    "JudgeError",
    "ModelNotAvailable",
    "MissingExtra",
]
__version__ = "0.1.0"


def _report_card(report: Report) -> str:
    """A notebook's view of a Report: the audit page's card, loaded when first shown."""
    from rt4chart_plugins.audit.html import report_card

    return report_card(report)


set_html_view(_report_card)
