"""rt4chart-plugins: claim-level, evidence-backed hallucination detection for RAG (RT4CHART).

The public API is what ``__all__`` names: the two detectors and the judge factory, the judge base
class and what a judge of one's own reads and returns, the pipeline's configuration, the report
and the types it is made of, the guarded answer, and every error the package raises on purpose.
Everything else is importable from its own module and may change.
"""

from typing import TYPE_CHECKING, Any

from rt4chart_plugins.config import PipelineConfig
from rt4chart_plugins.errors import (
    InvalidInput,
    InvalidReply,
    JudgeError,
    JudgeUnavailable,
    MissingExtra,
    ModelNotAvailable,
    Rt4chartError,
)
from rt4chart_plugins.guard import GuardedAnswer
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.registry import make_judge
from rt4chart_plugins.types import (
    Claim,
    ClaimVerdict,
    Cost,
    Evidence,
    Judgement,
    Label,
    Report,
    Sentence,
    Span,
    set_html_view,
)
from rt4chart_plugins.verifier import Verifier

if TYPE_CHECKING:
    from rt4chart_plugins.gasp import GaspDetector

__all__ = [
    # the detectors and their judges
    "Verifier",
    "GaspDetector",
    "make_judge",
    "Judge",
    "PipelineConfig",
    # what a judge of one's own reads and returns (docs/judges.md, "Your own judge")
    "VerifyRequest",
    "VerifyResult",
    "Judgement",
    "DecomposeResult",
    "Claim",
    # what a report holds
    "Report",
    "ClaimVerdict",
    "Evidence",
    "Label",
    "Span",
    "Sentence",
    "Cost",
    # what the guard returns
    "GuardedAnswer",
    # what can be caught
    "Rt4chartError",
    "InvalidInput",
    "JudgeError",
    "InvalidReply",
    "JudgeUnavailable",
    "ModelNotAvailable",
    "MissingExtra",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``GaspDetector``, imported when first asked for: GASP's scorer and its numerics are most of
    what importing the package would cost, and a trained-judge user never needs them."""
    if name == "GaspDetector":
        from rt4chart_plugins.gasp import GaspDetector

        globals()[name] = GaspDetector
        return GaspDetector
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _report_card(report: Report) -> str:
    """A notebook's view of a Report: the audit page's card, loaded when first shown."""
    from rt4chart_plugins.audit.html import report_card

    return report_card(report)


set_html_view(_report_card)
