"""Every verdict as a table: one row per claim, for pandas, a spreadsheet or a parquet file.

The frameworks' own result tables keep one score per answer; an auditor filtering thousands of
answers wants the claim, its label, where it sits in the answer, and the context sentences that
decided it, in columns. An answer with no claim (a refusal, a failed row) still gets one row with
its state and error, so nothing disappears from the export.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from rt4chart_plugins.audit.rows import AuditRow, as_rows
from rt4chart_plugins.errors import InvalidInput, MissingExtra
from rt4chart_plugins.types import ClaimVerdict, Label


class ClaimRow(BaseModel):
    """One claim of one answer, flat. Evidence columns are lists, one item per cited sentence
    (CSV writes them as JSON); the answer's fields repeat on each of its claims."""

    row_id: str
    ok: bool
    state: str | None  # the answer's state; None when the row has no report (unparseable input)
    answer_label: str | None
    hallucinated: bool | None
    score: float | None
    method: str | None
    judge: str | None
    claim_id: int | None  # None: the answer has no claim (no_claims, failed)
    claim: str | None
    label: str | None  # ENT / CON / NIC; None when unjudged
    judged: bool | None
    span_start: int | None
    span_end: int | None
    span_text: str | None
    phrase_start: int | None
    phrase_end: int | None
    phrase: str | None
    evidence_sentence_ids: list[int] = Field(default_factory=list)
    evidence_passages: list[int] = Field(default_factory=list)
    evidence_starts: list[int] = Field(default_factory=list)
    evidence_ends: list[int] = Field(default_factory=list)
    evidence_fields: list[str | None] = Field(default_factory=list)
    evidence_texts: list[str] = Field(default_factory=list)
    reason: str | None
    p_ent: float | None
    p_con: float | None
    p_nic: float | None
    encoder_ent: float | None  # the trained verifier's signals: its encoder's own softmax
    encoder_con: float | None
    encoder_nic: float | None
    coverage: float | None  # the share of the claim's content words its premise holds
    judged_alone: bool | None  # False: the judge read the claim's whole sentence
    rule: str | None  # the deterministic check that decided the label: records, contrast, facts
    rule_kind: str | None  # "negation", "quantifier", ..., "yes/no field", "number or name"
    judge_label: str | None  # what the judge had said, when the rule changed it
    risk: float | None  # GASP: the sentence's grounding risk
    error: str | None


#: the columns, in order; meta fields of the input rows follow as ``meta.<name>``
COLUMNS = list(ClaimRow.model_fields)


def _claim_fields(c: ClaimVerdict) -> dict[str, Any]:
    probs = c.probs or {}
    encoder = c.signals.encoder if c.signals else {}
    return {
        "claim_id": c.id,
        "claim": c.text,
        "label": c.label.value if c.label else None,
        "judged": c.judged,
        "span_start": c.answer_span.start if c.answer_span else None,
        "span_end": c.answer_span.end if c.answer_span else None,
        "span_text": c.answer_span.text if c.answer_span else None,
        "phrase_start": c.phrase_span.start if c.phrase_span else None,
        "phrase_end": c.phrase_span.end if c.phrase_span else None,
        "phrase": c.phrase_span.text if c.phrase_span else None,
        "evidence_sentence_ids": [e.sentence_id for e in c.evidence],
        "evidence_passages": [e.passage for e in c.evidence],
        "evidence_starts": [e.start for e in c.evidence],
        "evidence_ends": [e.end for e in c.evidence],
        "evidence_fields": [e.field for e in c.evidence],
        "evidence_texts": [e.text for e in c.evidence],
        "reason": c.reason,
        "p_ent": probs.get(Label.ENT),
        "p_con": probs.get(Label.CON),
        "p_nic": probs.get(Label.NIC),
        "encoder_ent": encoder.get(Label.ENT),
        "encoder_con": encoder.get(Label.CON),
        "encoder_nic": encoder.get(Label.NIC),
        "coverage": c.signals.coverage if c.signals else None,
        "judged_alone": c.judged_alone,
        "rule": c.rule.rule if c.rule else None,
        "rule_kind": c.rule.kind if c.rule else None,
        "judge_label": c.rule.judge_label.value if c.rule and c.rule.judge_label else None,
        "risk": c.grounding.risk if c.grounding else None,
        "error": c.error,
    }


_NO_CLAIM: dict[str, Any] = {
    name: None
    for name in (
        "claim_id",
        "claim",
        "label",
        "judged",
        "span_start",
        "span_end",
        "span_text",
        "phrase_start",
        "phrase_end",
        "phrase",
        "reason",
        "p_ent",
        "p_con",
        "p_nic",
        "encoder_ent",
        "encoder_con",
        "encoder_nic",
        "coverage",
        "judged_alone",
        "rule",
        "rule_kind",
        "judge_label",
        "risk",
    )
}


def claim_rows(reports: Any) -> list[ClaimRow]:
    """One :class:`ClaimRow` per claim of each report (see :func:`~rt4chart_plugins.audit.rows.as_rows`
    for what ``reports`` may be); one row, without claim fields, for an answer without a claim."""
    out: list[ClaimRow] = []
    for row in as_rows(reports):
        out.extend(_rows_of(row))
    return out


def _rows_of(row: AuditRow) -> list[ClaimRow]:
    r = row.report
    head: dict[str, Any] = {
        "row_id": row.id,
        "ok": row.ok,
        "state": r.state if r else None,
        "answer_label": r.label.value if r and r.label else None,
        "hallucinated": r.hallucinated if r else None,
        "score": r.score if r else None,
        "method": r.method if r else None,
        "judge": r.judge if r else None,
    }
    if r is None or not r.claims:
        return [ClaimRow(**head, **_NO_CLAIM, error=row.error or (r.error if r else None))]
    return [
        ClaimRow(**{**head, **_claim_fields(c), "error": c.error or (row.error if not row.ok else None)})
        for c in r.claims
    ]


def _records(reports: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The table's columns (the input rows' ``meta`` fields last, as ``meta.<name>``) and its rows."""
    records: list[dict[str, Any]] = []
    meta_keys: list[str] = []
    for row in as_rows(reports):
        for key in row.meta:
            if key not in meta_keys:
                meta_keys.append(key)
        for claim in _rows_of(row):
            records.append({**claim.model_dump(), **{f"meta.{k}": row.meta.get(k) for k in meta_keys}})
    return COLUMNS + [f"meta.{k}" for k in meta_keys], records


def _csv_cell(value: Any) -> Any:
    """A cell as pandas writes it: nothing for a missing value, a list as JSON, a float in full."""
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value)
    return repr(value) if isinstance(value, float) else value


def reports_to_dataframe(reports: Any):
    """A pandas DataFrame of :func:`claim_rows`: one row per claim, with the input rows' ``meta``
    fields (when the reports came with them) as ``meta.<name>`` columns."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas comes with the export extra
        raise MissingExtra("pandas", "export") from exc
    columns, records = _records(reports)
    frame = pd.DataFrame.from_records(records, columns=columns)
    # nullable dtypes, so a missing probability or offset reads <NA>, never a float NaN posing as a value
    ints = ["claim_id", "span_start", "span_end", "phrase_start", "phrase_end"]
    floats = ["score", "p_ent", "p_con", "p_nic", "encoder_ent", "encoder_con", "encoder_nic", "coverage", "risk"]
    bools = ["ok", "hallucinated", "judged", "judged_alone"]
    return frame.astype(
        {**{c: "Int64" for c in ints}, **{c: "Float64" for c in floats}, **{c: "boolean" for c in bools}}
    )


def write_table(reports: Any, path: str | Path) -> int:
    """Write the claim table to ``path`` (``.csv`` or ``.parquet``, by its suffix); return its rows.
    In CSV the evidence list columns are JSON arrays."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise InvalidInput(f"{path}: the export is written as .csv or .parquet, not {suffix or 'no suffix'!r}")
    if suffix == ".csv":  # the standard library's writer: a CSV needs no pandas, as `verify -o x.csv` needs none
        columns, records = _records(reports)
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(columns)
            writer.writerows([_csv_cell(rec.get(c)) for c in columns] for rec in records)
        return len(records)
    try:
        import pyarrow  # noqa: F401  (pandas writes parquet through it)
    except ImportError as exc:
        raise MissingExtra("pyarrow", "export") from exc
    frame = reports_to_dataframe(reports)
    frame.to_parquet(path, index=False)
    return len(frame)
