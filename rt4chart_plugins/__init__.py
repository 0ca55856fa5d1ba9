"""rt4chart-plugins: claim-level, evidence-backed hallucination detection for RAG (RT4CHART).

The public API is what ``__all__`` names: the two detectors and the judge factory, the judge base
class and what a judge of one's own reads and returns, the pipeline's configuration, the report
and the types it is made of, the guarded answer, and every error the package raises on purpose.
Everything else is importable from its own module and may change.

Each public name is imported when it is first asked for (PEP 562), so ``import rt4chart_plugins``
costs almost nothing: pydantic, the rules and the pipeline load with the first name that needs
them, and GASP's scorer only for ``GaspDetector``. ``from rt4chart_plugins import Verifier`` and
every other documented import work as before.
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from rt4chart_plugins.gasp import GaspDetector
    from rt4chart_plugins.guard import GuardedAnswer
    from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
    from rt4chart_plugins.judges.registry import make_judge
    from rt4chart_plugins.types import Claim, ClaimVerdict, Cost, Evidence, Judgement, Label, Report, Sentence, Span
    from rt4chart_plugins.verifier import Verifier

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

#: the module each public name is defined in, imported when the name is first asked for
_HOMES = {
    "Verifier": "rt4chart_plugins.verifier",
    "GaspDetector": "rt4chart_plugins.gasp",
    "make_judge": "rt4chart_plugins.judges.registry",
    "Judge": "rt4chart_plugins.judges.base",
    "PipelineConfig": "rt4chart_plugins.config",
    "VerifyRequest": "rt4chart_plugins.judges.base",
    "VerifyResult": "rt4chart_plugins.judges.base",
    "Judgement": "rt4chart_plugins.types",
    "DecomposeResult": "rt4chart_plugins.judges.base",
    "Claim": "rt4chart_plugins.types",
    "Report": "rt4chart_plugins.types",
    "ClaimVerdict": "rt4chart_plugins.types",
    "Evidence": "rt4chart_plugins.types",
    "Label": "rt4chart_plugins.types",
    "Span": "rt4chart_plugins.types",
    "Sentence": "rt4chart_plugins.types",
    "Cost": "rt4chart_plugins.types",
    "GuardedAnswer": "rt4chart_plugins.guard",
    "Rt4chartError": "rt4chart_plugins.errors",
    "InvalidInput": "rt4chart_plugins.errors",
    "JudgeError": "rt4chart_plugins.errors",
    "InvalidReply": "rt4chart_plugins.errors",
    "JudgeUnavailable": "rt4chart_plugins.errors",
    "ModelNotAvailable": "rt4chart_plugins.errors",
    "MissingExtra": "rt4chart_plugins.errors",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its home on first use and kept, so the next use is a plain
    attribute read."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names too, before they are loaded (for completion in a shell or notebook)."""
    return sorted({*globals(), *__all__})


def _report_card(report: "Report") -> str:
    """A notebook's view of a Report: the audit page's card, loaded when first shown."""
    from rt4chart_plugins.audit.html import report_card

    return report_card(report)


class _Package(ModuleType):
    """The package's module, which hands ``Report`` its notebook card as soon as the types load.

    The types sit on the lowest floor and import nothing above them, so the drawer is handed in
    (``set_html_view``). The package no longer imports the types itself; the import system sets
    ``rt4chart_plugins.types`` on this module once the types module has loaded, whichever import
    loaded it (the package's face, ``rt4chart_plugins.types`` directly, or any other module)."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "types" and isinstance(value, ModuleType):
            value.set_html_view(_report_card)


sys.modules[__name__].__class__ = _Package
