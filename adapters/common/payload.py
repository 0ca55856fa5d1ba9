"""A report as JSON for a framework's trace or log (and back), and many reports as the claim table.

A framework keeps what it is handed as JSON (ragas' traces, DeepEval's ``verbose_logs``, a
LangSmith evaluator's ``metadata``), so the report travels in one JSON shape that rebuilds the
typed report; the claim table is the audit's, so an adapter's table reads like ``rt4chart export``.
"""

from __future__ import annotations

from typing import Any

from rt4chart_plugins.adapters.common.failure import RowFailure

from rt4chart_plugins.types import Report


def claims_payload(report: Report) -> list[dict[str, Any]]:
    """Every claim, JSON-ready and whole, as the typed report has it: label, answer span, phrase
    span, evidence with offsets, reason, probabilities, the facts the rules found unsupported."""
    return [c.model_dump(mode="json") for c in report.claims]


#: the report's fields that a trace or a log leaves out: the context and answer dumps
_BULK = {"answer_sentences", "context_sentences", "windows"}


def report_payload(report: Report) -> dict[str, Any]:
    """The report as JSON without its sentence and window dumps: what a trace or a log carries,
    and enough to rebuild the typed report (:func:`report_from_payload`). A failed row's also
    names the class of its error (``error_type``, :class:`~.failure.RowFailure`)."""
    payload = report.model_dump(mode="json", exclude=_BULK)
    payload["claims"] = claims_payload(report)
    if report.state == "failed":  # the class that failed the row, beside the reason in words
        payload["error_type"] = RowFailure.of(report).error_type
    return payload


def report_from_payload(payload: dict[str, Any] | None) -> Report | None:
    """The typed :class:`Report` back from :func:`report_payload`'s JSON (a trace, a log)."""
    if not isinstance(payload, dict):
        return None
    return Report.model_validate(payload)


def claim_table(reports: list[tuple[str, Report]]) -> Any:
    """One row per claim (pandas), the audit's table: :func:`rt4chart_plugins.audit.reports_to_dataframe`."""
    from rt4chart_plugins.audit import reports_to_dataframe

    return reports_to_dataframe(reports)


def missing_report(what: str) -> Report:
    """The stand-in for a row of a framework's result that this adapter has no report for, so the
    claim table still has one row per answer and says why that one is empty."""
    return Report(label=None, hallucinated=None, score=None, state="failed", error=what)
