"""The audit as one self-contained HTML page: the summary of a run on top, then every answer with
its claims marked in the answer and their evidence in the context.

The page is one answer's markup (``answer_html``) per row under the run's summary
(``summary_html``). Every piece of text that came from a context, a question, an answer, a judge
or an input row is escaped once (``markup``); the page's script only moves the markup made there
and toggles classes, and a Content-Security-Policy allows no request and no script but the page's
own. Up to ``pack.PLAIN_LIMIT`` rows the page is a complete static list without JavaScript; a
larger run keeps its first page as markup and the rest compressed (``pack.py``). With the script,
filters, sorting, search, paging and keyboard navigation work on every row.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rt4chart_plugins.audit.answer_html import FLAGGED, index_entry, marked_answer, render_row, row_confidence
from rt4chart_plugins.audit.assets import CSP, CSS, HEAD_JS, JS
from rt4chart_plugins.audit.markup import anchor, e
from rt4chart_plugins.audit.pack import rows_section
from rt4chart_plugins.audit.rows import AuditRow, as_rows
from rt4chart_plugins.audit.summary import Summary, summarize
from rt4chart_plugins.audit.summary_html import render_summary
from rt4chart_plugins.types import Report

if TYPE_CHECKING:
    from rt4chart_plugins.audit.diff_types import RowDiff


def options(pairs: list[tuple[str, str]]) -> str:
    return "".join(f'<option value="{e(v)}">{e(t)}</option>' for v, t in pairs)


#: the single-run page's orders; "change" joins them when the page has a baseline
SORTS = [
    ("", "input order"),
    ("score", "score, lowest first"),
    ("score-desc", "score, highest first"),
    ("conf", "confidence, least sure first"),
]


def field_options(metas: list[dict[str, str]]) -> str:
    pairs = sorted({f"{k}={v}" for m in metas for k, v in m.items() if len(v) <= 80})[:500]
    return options([(p, p) for p in pairs])


def nav_tail() -> str:
    """What every page's control bar ends with: search, paging, the count and the keys."""
    return (
        '<input type="search" id="f-q" placeholder="search (/)" aria-label="search">'
        '<button id="prev" type="button">‹ page</button><button id="next" type="button">page ›</button>'
        '<span id="count" class="muted"></span>'
        '<span class="keys">j / k: next / previous flagged claim · click a claim for its evidence</span></nav>'
    )


def _controls(rows: list[AuditRow], summary: Summary, *, baseline: bool) -> str:
    labels = options([(x, x) for x in ("CON", "NIC", "ENT")])
    states = options([(x, x) for x in sorted(summary.states)])
    sorts = SORTS + (
        [("change", "change, worst first"), ("delta", "score change, largest drop first")] if baseline else []
    )
    return (
        '<nav class="controls"><label><input type="checkbox" id="f-h"> hallucinated only</label>'
        f'<label>claim label <select id="f-label"><option value="">any</option>{labels}</select></label>'
        f'<label>state <select id="f-state"><option value="">any</option>{states}</select></label>'
        f'<label>field <select id="f-meta"><option value="">any</option>'
        f"{field_options([r.meta for r in rows])}</select></label>"
        f'<label>sort <select id="f-sort">{options(sorts)}</select></label>' + nav_tail()
    )


def page_head(title: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en" class="rt4c"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title><style>{CSS}</style><script>{HEAD_JS}</script></head><body>"
    )


PAGE_END = f"<script>{JS}</script></body></html>\n"


@dataclass(frozen=True)
class Page:
    """What a page is made with besides its rows, as one value: :func:`render_html` names each."""

    title: str = "RT4CHART audit"
    settings: dict[str, Any] | None = None
    metrics: list[dict[str, Any]] | None = None
    by: list[str] | None = None
    baseline: Any = None
    compress: bool | None = None


def html_parts(reports: Any, page: Page | None = None, **options: Any) -> Iterator[str]:
    """The page in parts, to join or to write as they come (a large run never sits in memory
    whole). ``page``, or its fields as keywords: see :func:`render_html`."""
    if page is not None and options:
        raise TypeError("html_parts takes a Page or its fields as keywords, not both")
    page = Page(**options) if page is None else page
    rows = as_rows(reports)
    summary = summarize(rows, settings=page.settings, metrics=page.metrics, by=page.by)
    changes: dict[str, RowDiff] = {}
    if page.baseline is not None:
        from rt4chart_plugins.audit.diff import diff_reports

        changes = {d.after.id: d for d in diff_reports(page.baseline, rows).rows if d.after is not None}
    yield page_head(page.title)
    yield render_summary(summary, page.title)
    yield _controls(rows, summary, baseline=page.baseline is not None)
    entries: list[dict[str, Any]] = []

    def markups() -> Iterator[str]:
        for i, row in enumerate(rows):
            steps = sum(1 for c in row.report.claims if c.judged and c.label in FLAGGED) if row.report else 0
            entries.append(index_entry(row, steps, changes.get(row.id)))
            yield render_row(row, i, changes.get(row.id))

    yield from rows_section(markups(), entries, len(rows), step="li.claim.flagged", compress=page.compress)
    yield PAGE_END


def render_html(
    reports: Any,
    *,
    title: str = "RT4CHART audit",
    settings: dict[str, Any] | None = None,
    metrics: list[dict[str, Any]] | None = None,
    by: list[str] | None = None,
    baseline: Any = None,
    compress: bool | None = None,
) -> str:
    """The whole page as a string. ``reports``: anything :func:`~rt4chart_plugins.audit.rows.as_rows`
    takes (Reports, ``(id, Report)`` pairs, a mapping, batch or audit rows); ``settings``: what the
    run was made with, shown in the header; ``metrics``: a bench run's table; ``by``: the input
    fields to aggregate by (default: each with 2 to 30 values); ``baseline``: another run of the
    same rows (what :func:`~rt4chart_plugins.audit.diff.diff_reports` takes): each row then shows
    its change and the page sorts by it; ``compress``: rows past the first page compressed (default:
    past 1,000 rows)."""
    page = Page(title=title, settings=settings, metrics=metrics, by=by, baseline=baseline, compress=compress)
    return "".join(html_parts(reports, page))


def write_parts(parts: Iterator[str], path: str | Path) -> Path:
    path = Path(path)
    with open(path, "w", encoding="utf-8") as fh:
        for part in parts:
            fh.write(part)
    return path


def write_html(reports: Any, path: str | Path, **kwargs: Any) -> Path:
    """Write the page of :func:`render_html` to ``path`` (UTF-8), part by part, and return the path."""
    return write_parts(html_parts(reports, **kwargs), path)


def report_card(report: Report) -> str:
    """One report as a static card (no script) for a notebook's inline view: ``Report._repr_html_``.
    It takes its text colour from the notebook, so it reads on a light and a dark theme."""
    row = AuditRow(
        id="report",
        ok=report.state != "failed",
        report=report,
        error=report.error if report.state == "failed" else None,
    )
    return f'<div class="rt4c card"><style>{CSS}</style>{render_row(row, 0)}</div>'


__all__ = [
    "render_html",
    "write_html",
    "report_card",
    "render_row",
    "marked_answer",
    "anchor",
    "row_confidence",
    "html_parts",
    "Page",
]
