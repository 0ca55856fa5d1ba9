"""``RT4ChartEvaluationResult``: a LlamaIndex ``EvaluationResult`` that also carries the claim-level
verdict as typed fields, so that code reading ``passing`` and ``score`` keeps working and code that
wants the claims needs no second lookup; and any result back as a report, for the claim table.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.bridge.pydantic import Field
from llama_index.core.evaluation import EvaluationResult
from rt4chart_plugins.adapters.common.payload import missing_report

from rt4chart_plugins.types import ClaimVerdict, Label, Report, Span


class RT4ChartEvaluationResult(EvaluationResult):
    """An ``EvaluationResult`` with RT4CHART's claim-level verdict as typed fields.

    ``passing``: not hallucinated (None when the result is invalid); ``score``: the fraction of
    judged claims that the context entails; ``feedback``: the failing claims with their spans and
    evidence; ``claims``: every claim's label, answer span, evidence and reason.
    """

    label: Label | None = Field(default=None, description="ENT, CON (contradicted) or NIC (baseless); None: no claims")
    hallucinated: bool | None = Field(default=None, description="True when any judged claim is CON or NIC")
    state: str | None = Field(default=None, description="verified, partial, no_claims or failed")
    claims: list[ClaimVerdict] = Field(default_factory=list, description="every claim's verdict, span and evidence")
    unfaithful_spans: list[Span] = Field(default_factory=list, description="answer spans of CON/NIC claims")
    report: Report | None = Field(default=None, description="the full RT4CHART report")
    error_type: str | None = Field(
        default=None, description="an invalid result's error class: InvalidInput, TimeoutError, JudgeError, ..."
    )

    @property
    def failing_claims(self) -> list[ClaimVerdict]:
        return [c for c in self.claims if c.label in (Label.CON, Label.NIC)]


def report_of(result: Any) -> Report:
    """The typed report of one result, or a stand-in saying why there is none."""
    report = getattr(result, "report", None)
    if isinstance(report, Report):
        return report
    if isinstance(result, EvaluationResult) and result.invalid_result:
        return missing_report(result.invalid_reason or "invalid result")
    return missing_report(f"not an RT4CHART result: {type(result).__name__}")
