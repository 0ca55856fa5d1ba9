"""One worker's batch of rows in, one result row per input row out, whatever goes wrong.

Ray-free so that it is the same code the tests compare with ``verify_many``. A result row is
``{id, ok, error, report}`` with ``report`` the report's JSON text; the local batch's rules
decide it (:mod:`rt4chart_plugins.batch_rows`, the error worded by
:func:`~rt4chart_plugins.detector.describe_error`), so it is the line the CLI's batch writes
(:class:`rt4chart_plugins.types.BatchRow`): an input that does not validate gives
``ok=False`` and its error without a report; a report whose state is ``failed`` (the judge gave up)
gives ``ok=False`` with the report and its error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from rt4chart_plugins.batch_rows import explicit_id, outcome, result_line
from rt4chart_plugins.detector import Detector, describe_error, read_input
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import Report, VerifyInput

#: the columns of a result row, in the order of a batch output line
RESULT_COLUMNS = ("id", "ok", "error", "report")
#: a row may carry its input as JSON text in this column instead of as columns: Arrow wants one
#: type per column, and a context is a string in one row and a list of passages in another
INPUT_COLUMN = "input"


def _plain(value: Any) -> Any:
    """A cell as JSON would have it: Arrow's lists come back as numpy arrays, its nulls as NaN."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def parse_record(record: Mapping[str, Any]) -> tuple[str, VerifyInput | Exception]:
    """(id, the validated input or the error that prevents validating it), by the local batch's
    rules: its id rule (:func:`~rt4chart_plugins.batch_rows.explicit_id`, and a row needs one
    here) and its wording of a bad row."""
    data = {k: _plain(v) for k, v in record.items()}
    raw_id = data.get("id")
    row_id = "" if raw_id is None else str(raw_id)
    try:
        row_id = explicit_id(raw_id) or ""
        if isinstance(data.get(INPUT_COLUMN), str):
            loaded = json.loads(data[INPUT_COLUMN])
            data = {**loaded, "id": row_id} if isinstance(loaded, dict) else loaded  # read_input refuses a non-object
        row = read_input(data)
        if not row_id:
            raise InvalidInput("the row has no id")
        return row_id, row
    except (ValueError, ValidationError) as exc:  # InvalidInput is a ValueError
        return row_id, exc


def result_row(row_id: str, report: Report | None = None, error: str | None = None) -> dict[str, Any]:
    """A result row: the report (its JSON text) and whether it was scored, as
    :func:`~rt4chart_plugins.batch_rows.outcome` decides for the local batch."""
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
    """A result row as a line of the CLI's batch output (:func:`~rt4chart_plugins.batch_rows.result_line`):
    the same bytes as ``BatchRow(...).model_dump_json()``, with the report's JSON spliced in rather
    than parsed again (validating a million reports on the driver would cost more than writing them)."""
    line, _ = result_line(
        row["id"],
        bool(row["ok"]),
        report=_plain(row.get("report")),
        error=_plain(row.get("error")),
        fingerprint=fingerprint,
    )
    return line
