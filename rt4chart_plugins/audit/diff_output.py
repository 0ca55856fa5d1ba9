"""A diff as a terminal table, JSONL (one answer a line) or CSV (one claim a line).

The terminal view is for a person after a run: the summary, then only the answers that changed,
each with the claims that changed. JSONL keeps everything of each answer but the two reports'
texts (``rt4chart report`` has those); CSV is the claim-level table a spreadsheet filters.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rt4chart_plugins.audit.diff_types import (
    CLAIM_WORDS,
    ROW_WORDS,
    AuditDiff,
    ClaimChange,
    DiffSummary,
    RowChange,
    RowDiff,
)
from rt4chart_plugins.audit.gate import claim_words
from rt4chart_plugins.errors import InvalidInput

_STYLE = {
    RowChange.NEWLY_HALLUCINATED: "bold red",
    RowChange.NEWLY_FAILED: "red",
    RowChange.FIXED: "green",
    RowChange.RECOVERED: "green",
    RowChange.STILL_HALLUCINATED: "yellow",
}
#: the rows the terminal lists: what changed, not what stayed as it was
_LISTED = {
    RowChange.NEWLY_HALLUCINATED,
    RowChange.NEWLY_FAILED,
    RowChange.FIXED,
    RowChange.RECOVERED,
    RowChange.ONLY_BEFORE,
    RowChange.ONLY_AFTER,
}


def _num(v: float | None, fmt: str = ".3f") -> str:
    return "—" if v is None else format(v, fmt)


def summary_lines(s: DiffSummary) -> list[str]:
    """The summary in a few lines of words (the terminal, the page's alt text, a CI log)."""
    counts = ", ".join(f"{n} {ROW_WORDS[RowChange(k)]}" for k, n in s.changes.items())
    claims = ", ".join(f"{n} {CLAIM_WORDS[ClaimChange(k)]}" for k, n in s.claim_changes.items())
    change = s.mean_score_change
    return [
        f"{s.before} → {s.after}: {s.rows} answers, {s.matched} in both",
        f"answers: {counts or 'none'}",
        f"claims: {claims or 'none'}",
        f"mean score over the {s.scored_in_both} answers scored in both: {_num(s.mean_score_before)} → "
        f"{_num(s.mean_score_after)} ({'—' if change is None else format(change, '+.3f')}); hallucinated "
        f"{s.hallucinated_before} → {s.hallucinated_after}",
    ]


def print_table(diff: AuditDiff, console: Console | None = None, *, limit: int = 50) -> None:
    """The summary, the groups, then the answers that changed (worst first) with their changed claims."""
    console = console or Console()
    for line in summary_lines(diff.summary):
        console.print(line, highlight=False)
    if diff.summary.groups:
        t = Table(title="by field", title_justify="left")
        for col in ("field", "value", "answers", "newly hallucinated", "fixed", "mean score before", "after"):
            t.add_column(col)
        for g in diff.summary.groups:
            t.add_row(
                g.field,
                g.value,
                str(g.rows),
                str(g.changes.get("newly_hallucinated", 0)),
                str(g.changes.get("fixed", 0)),
                _num(g.mean_score_before),
                _num(g.mean_score_after),
            )
        console.print(t)
    listed = [r for r in diff.rows if r.change in _LISTED or r.claims_of(ClaimChange.NEW_UNFAITHFUL)]
    if not listed:
        console.print("no answer changed its verdict", highlight=False)
        return
    t = Table(title="answers that changed (worst first)", title_justify="left", show_lines=True)
    for col in ("id", "change", "score", "claims that changed"):
        t.add_column(col, overflow="fold")
    for row in listed[:limit]:
        b, a = row.before, row.after
        score = f"{_num(b.score if b else None, '.2f')} → {_num(a.score if a else None, '.2f')}"
        claims = "\n".join(claim_words(c) for c in row.claims if c.change not in (ClaimChange.UNCHANGED,))
        t.add_row(row.id, ROW_WORDS[row.change], score, claims or "; ".join(row.warnings))
        t.rows[-1].style = _STYLE.get(row.change)
    console.print(t)
    if len(listed) > limit:
        console.print(f"and {len(listed) - limit} more: write the diff as .html, .jsonl or .csv", highlight=False)


def to_jsonl(diff: AuditDiff) -> str:
    """One answer a line (:class:`~rt4chart_plugins.audit.diff.RowDiff`), worst change first."""
    return "".join(row.model_dump_json() + "\n" for row in diff.rows)


#: the CSV's columns: the answer's, then one claim pair's
CSV_COLUMNS = [
    "row_id",
    "change",
    "matched_by",
    "score_before",
    "score_after",
    "score_change",
    "label_before",
    "label_after",
    "claim_change",
    "claim_match",
    "claim_similarity",
    "claim_id_before",
    "claim_id_after",
    "claim_before",
    "claim_after",
    "span_start_after",
    "span_end_after",
    "evidence_after",
    "warnings",
]


def _csv_rows(row: RowDiff) -> list[list[Any]]:
    b, a = row.before, row.after
    head: list[Any] = [
        row.id,
        row.change.value,
        row.matched_by or "",
        b.score if b else "",
        a.score if a else "",
        "" if row.score_change is None else row.score_change,
        (b.label or "") if b else "",
        (a.label or "") if a else "",
    ]
    tail = ["; ".join(row.warnings)]
    if not row.claims:
        return [head + [""] * (len(CSV_COLUMNS) - len(head) - 1) + tail]
    out = []
    for c in row.claims:
        span = c.after.answer_span if c.after else None
        evidence = "; ".join(f"[{e.sentence_id}] {e.text}" for e in c.after.evidence) if c.after else ""
        out.append(
            head
            + [
                c.change.value,
                c.match or "",
                "" if c.similarity is None else c.similarity,
                c.before.id if c.before else "",
                c.after.id if c.after else "",
                c.before.text if c.before else "",
                c.after.text if c.after else "",
                span.start if span else "",
                span.end if span else "",
                evidence,
            ]
            + tail
        )
    return out


def to_csv(diff: AuditDiff) -> str:
    """One claim pair a line, the answer's fields repeated; an answer without claims has one line."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS + sorted({k for r in diff.rows for k in r.meta}))
    keys = sorted({k for r in diff.rows for k in r.meta})
    for row in diff.rows:
        for line in _csv_rows(row):
            w.writerow(line + [row.meta.get(k, "") for k in keys])
    return buf.getvalue()


FORMATS = {".jsonl": "jsonl", ".csv": "csv", ".html": "html", ".htm": "html"}


def write_diff(diff: AuditDiff, path: str | Path, *, title: str | None = None) -> Path:
    """Write the diff as its extension says: ``.jsonl``, ``.csv`` or ``.html`` (the compare page)."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InvalidInput(f"{path}: a diff is written as .jsonl, .csv or .html, not {path.suffix or 'no suffix'!r}")
    if fmt == "html":
        from rt4chart_plugins.audit.compare import write_compare_html

        return write_compare_html(diff, path, title=title)
    path.write_text(to_jsonl(diff) if fmt == "jsonl" else to_csv(diff), encoding="utf-8", newline="")
    return path
