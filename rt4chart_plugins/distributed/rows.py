"""One worker's batch of rows in, one result row per input row out, whatever goes wrong.

Ray-free so that it is the same code the tests compare with ``verify_many``. A result row is
``{id, ok, error, report}`` with ``report`` the report's JSON text; the local run's rules
decide it (:mod:`rt4chart_plugins.runs.rows_in` and :mod:`~rt4chart_plugins.runs.rows_out`, the error worded by
:func:`~rt4chart_plugins.detector.describe_error`), so it is the line the CLI's batch writes
(:class:`rt4chart_plugins.types.BatchRow`): an input that does not validate gives
``ok=False`` and its error without a report; a report whose state is ``failed`` (the judge gave up)
gives ``ok=False`` with the report and its error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rt4chart_plugins.detector import Detector, describe_error
from rt4chart_plugins.runs.rows_in import INPUT_COLUMN, parse_record, plain_cell
from rt4chart_plugins.runs.rows_out import outcome, result_line
from rt4chart_plugins.types import Report, VerifyInput

#: the columns of a result row, in the order of a batch output line
RESULT_COLUMNS = ("id", "ok", "error", "report")


def result_row(row_id: str, report: Report | None = None, error: str | None = None) -> dict[str, Any]:
    """A result row: the report (its JSON text) and whether it was scored, as
    :func:`~rt4chart_plugins.runs.rows_out.outcome` decides for the local batch."""
    ok, why = outcome(report) if report is not None else (False, error)
    return {
        "id": row_id,
        "ok": ok,
        "error": why,
        "report": report.model_dump_json() if report is not None else None,
    }


def score_records(
    detector: Detector, records: Iterable[Mapping[str, Any]], *, concurrency: int | None = None
) -> dict[str, list]:
    """Result columns for a batch of input rows, in their order; one bad row never stops the rest."""
    parsed = [parse_record(r) for r in records]
    good = [(i, p) for i, (_, p) in enumerate(parsed) if isinstance(p, VerifyInput)]
    reports = detector.verify_many([p for _, p in good], concurrency=concurrency) if good else []
    by_index = {i: rep for (i, _), rep in zip(good, reports)}
    rows = [
        result_row(rid, report=by_index[i]) if isinstance(p, VerifyInput) else result_row(rid, error=describe_error(p))
        for i, (rid, p) in enumerate(parsed)
    ]
    return {col: [r[col] for r in rows] for col in RESULT_COLUMNS}


def batch_line(row: Mapping[str, Any], fingerprint: str | None = None) -> str:
    """A result row as a line of the CLI's batch output (:func:`~rt4chart_plugins.runs.rows_out.result_line`):
    the same bytes as ``BatchRow(...).model_dump_json()``, with the report's JSON spliced in rather
    than parsed again (validating a million reports on the driver would cost more than writing them)."""
    line, _ = result_line(
        row["id"],
        bool(row["ok"]),
        report=plain_cell(row.get("report")),
        error=plain_cell(row.get("error")),
        fingerprint=fingerprint,
    )
    return line


__all__ = ["INPUT_COLUMN", "RESULT_COLUMNS", "batch_line", "parse_record", "result_row", "score_records"]
