"""The rows an audit shows, read from whatever holds reports.

An audit is made from three kinds of source: a list of :class:`Report` from Python, the JSONL
that ``rt4chart verify`` writes for a batch (``BatchRow``: id, ok, error, report) and the
prediction records ``rt4chart bench`` writes (one per row, with each claim's verdict but without
the texts). They all become :class:`AuditRow`, so the page and the table are built one way and a
failed row is shown with its error instead of being dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import AnswerState, BatchRow, ClaimVerdict, Cost, Label, Report, Span

#: the fields of an input row that are the sample itself, not what the auditor filters by
_SAMPLE_FIELDS = {"id", "context", "answer", "question"}


class AuditRow(BaseModel):
    """One answer of an audit: its id, whether it was scored, its report, and the input row's
    other fields (``task``, any ``meta``) that the page filters by."""

    id: str
    ok: bool
    report: Report | None = None
    error: str | None = None
    meta: dict[str, str] = Field(default_factory=dict)
    source: str = "report"  # report | batch | bench: bench records carry no answer or context text


def as_rows(reports: Any) -> list[AuditRow]:
    """Audit rows from a Report, a list of Reports, ``(id, Report)`` pairs, a mapping id → Report,
    ``BatchRow`` s or ``AuditRow`` s. Reports without an id are numbered from 1. ``None`` in a
    list (a row a framework's metric did not score) is a failed row that says so."""
    if isinstance(reports, (Report, BatchRow, AuditRow)):
        reports = [reports]
    elif isinstance(reports, Mapping):
        reports = list(reports.items())
    if not isinstance(reports, Iterable) or isinstance(reports, (str, bytes)):
        raise InvalidInput(
            f"expected Reports (a list, a mapping id → Report or (id, Report) pairs), got {type(reports).__name__}"
        )
    rows: list[AuditRow] = []
    for number, item in enumerate(reports, start=1):
        if isinstance(item, AuditRow):
            rows.append(item)
        elif isinstance(item, BatchRow):
            rows.append(AuditRow(id=item.id, ok=item.ok, report=item.report, error=item.error, source="batch"))
        elif isinstance(item, Report):
            rows.append(_of_report(str(number), item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Report):
            rows.append(_of_report(str(item[0]), item[1]))
        elif item is None or (isinstance(item, tuple) and len(item) == 2 and item[1] is None):
            row_id = str(number) if item is None else str(item[0])
            rows.append(AuditRow(id=row_id, ok=False, error="no report for this row"))
        else:
            raise InvalidInput(f"item {number} is a {type(item).__name__}, not a Report, BatchRow or (id, Report)")
    return rows


def _of_report(row_id: str, report: Report) -> AuditRow:
    failed = report.state == "failed"
    return AuditRow(id=row_id, ok=not failed, report=report, error=report.error if failed else None)


def load_results(path: str | Path, *, inputs: str | Path | None = None) -> list[AuditRow]:
    """The rows of a ``rt4chart verify`` batch output or a ``rt4chart bench`` ``<system>.jsonl``.

    A line that is neither is kept as a failed row naming the line, so a damaged file still gives
    an audit of everything else. ``inputs``: the samples JSONL the results were made from; its
    rows' other fields (``task``, ``meta``…) are joined by id for the page's filters.
    """
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"{path}: no such results file")
    rows: list[AuditRow] = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if line.strip():
                rows.append(_parse_line(line, number))
    if inputs is not None:
        meta = read_meta(inputs)
        rows = [r.model_copy(update={"meta": {**meta.get(r.id, {}), **r.meta}}) for r in rows]
    return rows


def _parse_line(line: str, number: int) -> AuditRow:
    try:
        data = json.loads(line)
    except ValueError as exc:
        return AuditRow(id=f"line-{number}", ok=False, error=f"line {number} is not JSON: {exc}")
    if not isinstance(data, dict) or "id" not in data:
        return AuditRow(id=f"line-{number}", ok=False, error=f"line {number} is not a result row (no id)")
    try:
        if "claims" in data and "report" not in data:  # a bench prediction record
            return AuditRow(
                id=str(data["id"]),
                ok=bool(data.get("ok")),
                report=_of_record(data),
                error=data.get("error"),
                source="bench",
            )
        row = BatchRow.model_validate(data)
    except (ValidationError, ValueError, TypeError, KeyError) as exc:
        return AuditRow(id=str(data["id"]), ok=False, error=f"line {number}: {type(exc).__name__}: {exc}")
    return AuditRow(id=row.id, ok=row.ok, report=row.report, error=row.error, source="batch")


def _span(pair: Any) -> Span | None:
    return Span(start=pair[0], end=pair[1], text="") if pair else None


def _spans(pairs: Any) -> list[Span]:
    return [span for pair in pairs or [] if (span := _span(pair)) is not None]


def _of_record(rec: dict) -> Report:
    """A bench record as a Report: the verdicts, spans and cost it keeps; its texts are not stored
    in the record (the dataset has them), which a note says."""
    claims = []
    for c in rec.get("claims") or []:
        p_ent = c.get("p_ent")
        claims.append(
            ClaimVerdict(
                id=c["id"],
                text=c.get("text") or "",
                sentence_id=-1,
                label=Label(c["label"]) if c.get("label") else None,
                judged=bool(c.get("judged", True)),
                answer_span=_span(c.get("span")),
                phrase_span=_span(c.get("phrase_span")),
                probs={Label.ENT: p_ent} if p_ent is not None else None,
                error=c.get("error"),
                grounding=c.get("grounding"),
                reason=(
                    f"Cites context sentences {', '.join(map(str, c['evidence_sentence_ids']))}"
                    if c.get("evidence_sentence_ids")
                    else None
                ),
            )
        )
    judged = [c for c in claims if c.judged and c.label is not None]
    score = sum(c.label == Label.ENT for c in judged) / len(judged) if judged else 1.0
    state: AnswerState = rec.get("state") or ("verified" if rec.get("ok") else "failed")
    return Report(
        label=Label(rec["label"]) if rec.get("label") else None,
        hallucinated=bool(rec.get("hallucinated")),
        score=score,
        state=state,
        claims=claims,
        unfaithful_spans=_spans(rec.get("spans")),
        phrase_spans=_spans(rec.get("phrase_spans")),
        notes=[
            "a bench record: it keeps the verdicts and offsets, not the answer and context texts",
            *(rec.get("notes") or []),
        ],
        cost=Cost.model_validate(rec.get("cost") or {}),
        judge=rec.get("judge") or "",
        method="gasp" if any(c.grounding for c in claims) else "rt4chart",
        error=rec.get("error"),
    )


def read_meta(path: str | Path) -> dict[str, dict[str, str]]:
    """Per input id, the row's fields other than the sample itself, as text (a nested ``meta``
    object is flattened into its keys). Ids follow the batch runner's: ``line-N`` without one."""
    out: dict[str, dict[str, str]] = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if not isinstance(data, dict):
                continue
            row_id = str(data["id"]) if data.get("id") is not None else f"line-{number}"
            fields: dict[str, str] = {}
            for key, value in data.items():
                if key in _SAMPLE_FIELDS:
                    continue
                items = value.items() if key == "meta" and isinstance(value, dict) else [(key, value)]
                for k, v in items:
                    fields[str(k)] = v if isinstance(v, str) else json.dumps(v)
            out[row_id] = fields
    return out
