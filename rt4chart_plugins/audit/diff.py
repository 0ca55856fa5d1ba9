"""Two audits of the same questions, compared: which answers got worse, which claims newly lack
support, which were fixed.

Users re-run an audit after every change of prompt, retriever, model or chunking; averages hide
that one answer broke while another was fixed. So rows are matched (by id, else by context and
question), each answer's verdict and score are set side by side, and its claims are paired
(``align.py``) and marked new-unfaithful, fixed, changed label or unchanged. The result is typed
(pydantic), so the CLI, the CI gate, the page and a test read the same numbers.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rt4chart_plugins.audit.align import Pair, pair_claims
from rt4chart_plugins.audit.diff_types import (
    CLAIM_RANK,
    CLAIM_WORDS,
    ROW_RANK,
    ROW_WORDS,
    AuditDiff,
    ClaimChange,
    ClaimDiff,
    DiffSummary,
    Group,
    MatchedBy,
    RowChange,
    RowDiff,
    Side,
    label_of,
)
from rt4chart_plugins.audit.rows import AuditRow, as_rows, load_results, read_meta
from rt4chart_plugins.audit.summary import fields_to_group
from rt4chart_plugins.types import Report

#: the typed result is :mod:`~rt4chart_plugins.audit.diff_types`'s, named here too
__all__ = [
    "RowChange",
    "ClaimChange",
    "ROW_WORDS",
    "CLAIM_WORDS",
    "ROW_RANK",
    "CLAIM_RANK",
    "MatchedBy",
    "Side",
    "ClaimDiff",
    "RowDiff",
    "Group",
    "DiffSummary",
    "AuditDiff",
    "diff_reports",
    "diff_row",
    "match_rows",
    "read_run",
]


# --- reading the two runs ------------------------------------------------------------------------


def read_run(source: Any) -> list[AuditRow]:
    """A run's rows: a path to ``rt4chart verify`` batch output or bench records, or anything
    :func:`~rt4chart_plugins.audit.rows.as_rows` takes (Reports, ``(id, Report)`` pairs, a mapping)."""
    if isinstance(source, (str, Path)):
        return load_results(source)
    return as_rows(source)


def _scored(row: AuditRow | None) -> Report | None:
    """The row's report when the row was scored (a report that did not fail), else None."""
    if row is None or not row.ok or row.report is None or row.report.state == "failed":
        return None
    return row.report


def _side(row: AuditRow) -> Side:
    r, scored = row.report, _scored(row)
    return Side(
        id=row.id,
        ok=row.ok,
        state=(r.state if r else "failed") if row.ok else "failed",
        label=scored.label.value if scored and scored.label else None,
        hallucinated=scored.hallucinated if scored else None,
        score=scored.score if scored else None,
        claims=len(r.claims) if r else 0,
        error=row.error or (r.error if r else None),
        judge=(r.judge or r.method) if r else "",
    )


def _context_key(report: Report | None) -> str | None:
    if report is None or not report.context_sentences:
        return None
    text = "\x1e".join(f"{s.passage}\x1f{s.text}" for s in report.context_sentences)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _content_key(row: AuditRow) -> tuple[str | None, str | None] | None:
    """What identifies a row without its id: its context and question (None when it has neither)."""
    r = row.report
    key = (_context_key(r), r.question if r else None)
    return None if key == (None, None) else key


def match_rows(
    before: list[AuditRow], after: list[AuditRow]
) -> list[tuple[AuditRow | None, AuditRow | None, MatchedBy | None]]:
    """Rows paired by id; the rest by context and question (in order, when several share them)."""
    after_by_id: dict[str, AuditRow] = {}
    for row in after:
        after_by_id.setdefault(row.id, row)
    pairs: list[tuple[AuditRow | None, AuditRow | None, MatchedBy | None]] = []
    used: set[int] = set()
    rest: list[AuditRow] = []
    for row in before:
        partner = after_by_id.get(row.id)
        if partner is not None and id(partner) not in used:
            used.add(id(partner))
            pairs.append((row, partner, "id"))
        else:
            rest.append(row)
    by_content: dict[tuple, list[AuditRow]] = defaultdict(list)
    for row in after:
        if id(row) not in used and (key := _content_key(row)) is not None:
            by_content[key].append(row)
    for row in rest:
        key = _content_key(row)
        candidates = by_content.get(key) if key is not None else None
        if candidates:
            partner = candidates.pop(0)
            used.add(id(partner))
            pairs.append((row, partner, "context_question"))
        else:
            pairs.append((row, None, None))
    pairs += [(None, row, None) for row in after if id(row) not in used]
    return pairs


# --- one row -------------------------------------------------------------------------------------


def claim_change(pair: Pair) -> ClaimChange:
    lb, la = label_of(pair.before), label_of(pair.after)
    flagged_b, flagged_a = lb in ("CON", "NIC"), la in ("CON", "NIC")
    if pair.before is None:
        return ClaimChange.NEW_UNFAITHFUL if flagged_a else ClaimChange.ADDED
    if pair.after is None:
        return ClaimChange.FIXED if flagged_b else ClaimChange.REMOVED
    if lb == la:
        return ClaimChange.UNCHANGED
    if flagged_a and not flagged_b:
        return ClaimChange.NEW_UNFAITHFUL
    if flagged_b and la == "ENT":
        return ClaimChange.FIXED
    return ClaimChange.CHANGED_LABEL


def row_change(before: AuditRow | None, after: AuditRow | None) -> RowChange:
    if before is None:
        return RowChange.ONLY_AFTER
    if after is None:
        return RowChange.ONLY_BEFORE
    rb, ra = _scored(before), _scored(after)
    if rb is None:
        return RowChange.RECOVERED if ra is not None else RowChange.FAILED
    if ra is None:
        return RowChange.NEWLY_FAILED
    hb, ha = rb.hallucinated, ra.hallucinated
    if hb and ha:
        return RowChange.STILL_HALLUCINATED
    if ha:
        return RowChange.NEWLY_HALLUCINATED
    return RowChange.FIXED if hb else RowChange.STILL_FAITHFUL


def _warnings(before: AuditRow, after: AuditRow) -> list[str]:
    b, a = before.report, after.report
    if b is None or a is None:
        return []
    out = []
    if b.question != a.question:
        out.append("the questions differ")
    kb, ka = _context_key(b), _context_key(a)
    if kb and ka and kb != ka:
        out.append("the contexts differ")
    # an empty context grounds nothing: its claims are NIC, so an answer is hallucinated by it
    # (docs/output.md, "An empty context"); the row says so, as the reason for its change
    for run, report in (("before", b), ("after", a)):
        if any(note.startswith("the context is empty") for note in report.notes):
            out.append(f"the context is empty {run}")
    return out


def diff_row(before: AuditRow | None, after: AuditRow | None, matched_by: MatchedBy | None = None) -> RowDiff:
    """One answer across the two runs. Its claims are paired only when both runs scored it."""
    change = row_change(before, after)
    claims: list[ClaimDiff] = []
    rb, ra = _scored(before), _scored(after)
    if rb is not None and ra is not None:
        for pair in pair_claims(rb.claims, ra.claims, before_length=len(rb.answer), after_length=len(ra.answer)):
            claims.append(
                ClaimDiff(
                    change=claim_change(pair),
                    match=pair.match,
                    similarity=pair.similarity,
                    before=pair.before,
                    after=pair.after,
                )
            )
    sb = _side(before) if before is not None else None
    sa = _side(after) if after is not None else None
    delta = (sa.score - sb.score) if sa and sb and sa.score is not None and sb.score is not None else None
    meta = {**(before.meta if before else {}), **(after.meta if after else {})}
    row = after if after is not None else before
    assert row is not None, "a row in neither run"
    return RowDiff(
        id=row.id,
        matched_by=matched_by,
        change=change,
        before=sb,
        after=sa,
        score_change=round(delta, 6) if delta is not None else None,
        claims=claims,
        meta=meta,
        warnings=_warnings(before, after) if before and after else [],
        before_report=before.report if before else None,
        after_report=after.report if after else None,
    )


def sort_key(row: RowDiff) -> tuple:
    """Worst first: the change's rank, then the largest score drop, then the most claims newly flagged."""
    new = len(row.claims_of(ClaimChange.NEW_UNFAITHFUL))
    return ROW_RANK[row.change], row.score_change if row.score_change is not None else 0.0, -new


# --- the summary ---------------------------------------------------------------------------------


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _both(rows: list[RowDiff]) -> list[tuple[Side, Side, float, float]]:
    """The rows scored in both runs: each one's two sides and its two scores."""
    return [
        (r.before, r.after, r.before.score, r.after.score)
        for r in rows
        if r.before is not None and r.after is not None and r.before.score is not None and r.after.score is not None
    ]


def _groups(rows: list[RowDiff], by: list[str]) -> list[Group]:
    out = []
    for name in by:
        members: dict[str, list[RowDiff]] = defaultdict(list)
        for r in rows:
            members[r.meta.get(name, "(none)")].append(r)
        for value, group in sorted(members.items()):
            both = _both(group)
            out.append(
                Group(
                    field=name,
                    value=value,
                    rows=len(group),
                    changes=dict(Counter(r.change.value for r in group)),
                    mean_score_before=_mean([score for _, _, score, _ in both]),
                    mean_score_after=_mean([score for _, _, _, score in both]),
                )
            )
    return out


def summarize_diff(
    rows: list[RowDiff], *, before: str = "before", after: str = "after", by: list[str] | None = None
) -> DiffSummary:
    both = _both(rows)
    fields = fields_to_group(r.meta for r in rows) if by is None else by
    return DiffSummary(
        before=before,
        after=after,
        rows=len(rows),
        matched=sum(1 for r in rows if r.matched_by),
        changes={c.value: n for c in RowChange if (n := sum(1 for r in rows if r.change == c))},
        claim_changes={
            c.value: n for c in ClaimChange if (n := sum(1 for r in rows for x in r.claims if x.change == c))
        },
        scored_in_both=len(both),
        hallucinated_before=sum(1 for b, _, _, _ in both if b.hallucinated),
        hallucinated_after=sum(1 for _, a, _, _ in both if a.hallucinated),
        mean_score_before=_mean([score for _, _, score, _ in both]),
        mean_score_after=_mean([score for _, _, _, score in both]),
        groups=_groups(rows, fields),
    )


def diff_reports(
    before: Any,
    after: Any,
    *,
    by: list[str] | None = None,
    names: tuple[str, str] | None = None,
    inputs: str | Path | None = None,
) -> AuditDiff:
    """Compare two audits.

    ``before`` / ``after``: a path to ``rt4chart verify`` batch output or bench records, or
    Reports (a list, a mapping id → Report, ``(id, Report)`` pairs). ``by``: the input fields to
    group the summary by (default: each field with 2 to 30 values, such as ``task``). ``names``:
    what the two runs are called (default: the file names, else "before" and "after").
    ``inputs``: the samples JSONL whose other fields (``task``, ``meta``…) join both runs by id.
    """
    rows_b, rows_a = read_run(before), read_run(after)
    if inputs is not None:
        meta = read_meta(inputs)
        rows_b = [r.model_copy(update={"meta": {**meta.get(r.id, {}), **r.meta}}) for r in rows_b]
        rows_a = [r.model_copy(update={"meta": {**meta.get(r.id, {}), **r.meta}}) for r in rows_a]
    rows = sorted((diff_row(b, a, how) for b, a, how in match_rows(rows_b, rows_a)), key=sort_key)
    default = tuple(
        Path(s).name if isinstance(s, (str, Path)) else n for s, n in ((before, "before"), (after, "after"))
    )
    nb, na = names or default
    if nb == na:
        nb, na = f"{nb} (before)", f"{na} (after)"
    return AuditDiff(summary=summarize_diff(rows, before=nb, after=na, by=by), rows=rows)


__all__ = [
    "AuditDiff",
    "RowDiff",
    "ClaimDiff",
    "Side",
    "DiffSummary",
    "Group",
    "RowChange",
    "ClaimChange",
    "ROW_WORDS",
    "CLAIM_WORDS",
    "diff_reports",
    "diff_row",
    "match_rows",
    "read_run",
    "summarize_diff",
]
