"""The compare view: two audits on one page, each answer before | after, its changed claims
marked, the answers that broke first.

It is the single-run page's layout (``html.py``) with two columns per answer; the header says
what changed (answers newly hallucinated, fixed, unchanged; claims newly unfaithful; the mean
score), per input field, and draws the score changes as a histogram. The same script filters,
sorts, pages and steps (``j`` / ``k``) through the changed claims.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rt4chart_plugins.audit.answer_html import (
    claim_item,
    context_block,
    evidence_ids,
    index_entry,
    marked_answer,
    risk_scale,
)
from rt4chart_plugins.audit.chart import histogram_svg
from rt4chart_plugins.audit.diff_types import (
    CLAIM_WORDS,
    ROW_WORDS,
    AuditDiff,
    ClaimChange,
    ClaimDiff,
    DiffSummary,
    RowChange,
    RowDiff,
    Side,
)
from rt4chart_plugins.audit.html import PAGE_END, field_options, nav_tail, options, page_head, write_parts
from rt4chart_plugins.audit.markup import anchor, e
from rt4chart_plugins.audit.pack import rows_section
from rt4chart_plugins.audit.rows import AuditRow
from rt4chart_plugins.types import Report, score_text

#: the claims ``j`` / ``k`` step through: each changed pair once, on the side after (else before)
STEP = "li.claim.step"
_CHANGED = (
    ClaimChange.NEW_UNFAITHFUL,
    ClaimChange.CHANGED_LABEL,
    ClaimChange.FIXED,
    ClaimChange.ADDED,
    ClaimChange.REMOVED,
)
#: the score-change histogram's bins: losses, no change, gains
_BINS = [
    (-1.0, -0.75),
    (-0.75, -0.5),
    (-0.5, -0.25),
    (-0.25, 0.0),
    (0.0, 0.0),
    (0.0, 0.25),
    (0.25, 0.5),
    (0.5, 0.75),
    (0.75, 1.0),
]


def _bin(delta: float) -> int:
    if abs(delta) < 1e-9:
        return 4
    if delta < 0:
        return max(0, min(3, int((delta + 1.0) / 0.25)))
    return min(8, 5 + int(delta / 0.25 - 1e-9))


def change_histogram(diff: AuditDiff) -> str:
    counts = [0] * len(_BINS)
    for row in diff.rows:
        if row.score_change is not None:
            counts[_bin(row.score_change)] += 1
    labels = [
        "−1 to −.75",
        "−.75 to −.5",
        "−.5 to −.25",
        "−.25 to 0",
        "no change",
        "0 to .25",
        ".25 to .5",
        ".5 to .75",
        ".75 to 1",
    ]
    titles = [f"{n} answers with a score change of {label}" for n, label in zip(counts, labels)]
    ticks = ["−1…−.75", "−.75…−.5", "−.5…−.25", "−.25…0", "0", "0….25", ".25….5", ".5….75", ".75…1"]
    return histogram_svg(
        counts,
        ticks,
        caption="answers by score change (after − before)",
        bar_titles=titles,
        x_title="score change (after − before)",
        classes=["loss"] * 4 + ["same"] + ["gain"] * 4,
    )


def _mean(v: float | None) -> str:
    return "—" if v is None else f"{v:.3f}"


def summary_header(diff: AuditDiff, title: str) -> str:
    s: DiffSummary = diff.summary
    change = s.mean_score_change
    rows = [
        ("runs", f"{e(s.before)} → {e(s.after)}"),
        ("answers", f"{s.rows} ({s.matched} in both runs, {s.scored_in_both} scored in both)"),
        (
            "changes",
            ", ".join(f'<span class="chg {e(k)}">{e(ROW_WORDS[RowChange(k)])}</span> {n}' for k, n in s.changes.items())
            or "—",
        ),
        (
            "claims",
            ", ".join(
                f'<span class="chg {e(k)}">{e(CLAIM_WORDS[ClaimChange(k)])}</span> {n}'
                for k, n in s.claim_changes.items()
            )
            or "—",
        ),
        (
            "mean score",
            f"{_mean(s.mean_score_before)} → {_mean(s.mean_score_after)}"
            f" ({'—' if change is None else format(change, '+.3f')})",
        ),
        ("hallucinated", f"{s.hallucinated_before} → {s.hallucinated_after} (of the answers scored in both)"),
    ]
    cells = "".join(f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    out = [
        f'<header class="top"><h1>{e(title)}</h1><div class="stats"><table>{cells}</table>',
        f'<figure><figcaption class="muted">answers by score change</figcaption>{change_histogram(diff)}</figure>'
        "</div>",
    ]
    if s.groups:
        out.append(
            '<table class="groups"><caption>by input field</caption><tr><th>field = value</th><th>answers</th>'
            "<th>newly hallucinated</th><th>fixed</th><th>still hallucinated</th><th>mean score before</th>"
            "<th>after</th></tr>"
        )
        for g in s.groups:
            out.append(
                f"<tr><td>{e(g.field)} = {e(g.value)}</td><td>{g.rows}</td>"
                f"<td>{g.changes.get('newly_hallucinated', 0)}</td><td>{g.changes.get('fixed', 0)}</td>"
                f"<td>{g.changes.get('still_hallucinated', 0)}</td><td>{_mean(g.mean_score_before)}</td>"
                f"<td>{_mean(g.mean_score_after)}</td></tr>"
            )
        out.append("</table>")
    out.append("</header>")
    return "".join(out)


def controls(diff: AuditDiff) -> str:
    s = diff.summary
    kinds = options([(k, f"{ROW_WORDS[RowChange(k)]} ({n})") for k, n in s.changes.items()])
    sorts = options(
        [
            ("change", "change, worst first"),
            ("delta", "score change, largest drop first"),
            ("score", "score after, lowest first"),
            ("conf", "confidence after, least sure first"),
        ]
    )
    tail = nav_tail().replace("next / previous flagged claim", "next / previous changed claim")
    return (
        '<nav class="controls">'
        f'<label>change <select id="f-change"><option value="">any</option>{kinds}</select></label>'
        '<label><input type="checkbox" id="f-h"> hallucinated after</label>'
        f'<label>field <select id="f-meta"><option value="">any</option>'
        f"{field_options([r.meta for r in diff.rows])}</select></label>"
        f'<label>sort <select id="f-sort">{sorts}</select></label>' + tail
    )


def _side(
    report: Report | None,
    side: Side | None,
    which: str,
    claims: dict[int, ClaimDiff],
    prefix: str,
    *,
    pair_ids: dict[int, int],
) -> str:
    """One column: the run's verdict, its answer with the unfaithful spans marked, its claims each
    with its change, or why there is nothing to show."""
    error = side.error if side is not None and side.score is None else None
    if report is None:
        why = f'<p class="error">{e(error or "failed")}</p>' if side is not None else f"not in the run {which}"
        return f'<section class="side {which} absent"><h3>{which.capitalize()}</h3>{why}</section>'
    verdict = report.label.value if report.label else report.state.upper()
    out = [
        f'<section class="side {which}"><h3>{which.capitalize()} <span class="badge {e(verdict)}">{e(verdict)}'
        f'</span> <span class="muted">'
        f"{e(f'score {score_text(report.score)} · {report.state} · {report.judge or report.method}')}"
        "</span></h3>"
    ]
    if error:
        out.append(f'<p class="error">{e(error)}</p>')
    if report.answer:
        out.append(f'<div class="answer"><p>{marked_answer(report)}</p></div>')
    if report.claims:
        scale = risk_scale(report)
        out.append('<ol class="claims" start="0">')
        for c in report.claims:
            d = claims.get(c.id)
            extra, badge, attrs = "", "", ""
            if d is not None:
                attrs = f' data-pair="p{pair_ids[id(d)]}"'
                if d.change in _CHANGED:
                    # the change is named once: on the claim after, or on the claim before that has none
                    named = which == "after" or d.after is None
                    extra = f" changed {d.change.value}" + (" step" if named else "")
                    if named:
                        badge = f' <span class="chg {e(d.change.value)}">{e(CLAIM_WORDS[d.change])}</span>'
            out.append(
                claim_item(c, evidence_ids(c, report, prefix), report, scale, extra=extra, badge=badge, attrs=attrs)
            )
        out.append("</ol>")
    out.append("</section>")
    return "".join(out)


def render_pair(row: RowDiff, index: int) -> str:
    """One answer before | after, with the context once (twice when the two runs' differ)."""
    b, a = row.before_report, row.after_report
    delta = f" ({row.score_change:+.2f})" if row.score_change is not None else ""
    sb, sa = row.before, row.after
    scores = (
        f"score {sb.score:.2f} → {sa.score:.2f}{delta}"
        if sb and sa and sb.score is not None and sa.score is not None
        else ""
    )
    out = [
        f'<article class="row diff {e(row.change.value)}" id="{e(anchor(row.id))}"><h2>'
        f'<a class="perma" href="#{e(anchor(row.id))}" title="permalink">#</a>{e(row.id)} '
        f'<span class="chg {e(row.change.value)}">{e(ROW_WORDS[row.change])}</span> '
        f'<span class="muted">{e(scores)}</span></h2>'
    ]
    if row.meta:
        out.append('<div class="muted">' + e(" · ".join(f"{k}: {v}" for k, v in row.meta.items())) + "</div>")
    notes = (
        [f"matched by context and question (ids {sb.id} and {sa.id})"]
        if row.matched_by == "context_question" and sb and sa
        else []
    ) + row.warnings
    if notes:
        out.append('<p class="warn">' + e(" · ".join(notes)) + "</p>")
    shown = a or b
    question = shown.question if shown else None
    if question:
        out.append(f'<div class="q"><b>Question</b> {e(question)}</div>')
    same_context = bool(a and b and [s.text for s in a.context_sentences] == [s.text for s in b.context_sentences])
    pb, pa = (f"s{index}-", f"s{index}-") if same_context else (f"s{index}b-", f"s{index}a-")
    pair_ids = {id(d): k for k, d in enumerate(row.claims)}
    before_claims = {d.before.id: d for d in row.claims if d.before is not None}
    after_claims = {d.after.id: d for d in row.claims if d.after is not None}
    out.append('<div class="pair-sides">')
    out.append(_side(b, sb, "before", before_claims, pb, pair_ids=pair_ids))
    out.append(_side(a, sa, "after", after_claims, pa, pair_ids=pair_ids))
    out.append("</div>")
    both = a is not None and b is not None
    for report, prefix, label in ((a, pa, "after"), (b, pb, "before")):
        if report is None or (same_context and label == "before"):
            continue
        readers = [r for r in (a, b) if r is not None] if same_context else [report]
        cited = {x.sentence_id for r in readers for c in r.claims for x in c.evidence}
        out.append(
            context_block(report, prefix, cited, title=f"Context ({label})" if both and not same_context else "Context")
        )
    out.append("</article>")
    return "".join(out)


def _entry(row: RowDiff) -> dict[str, Any]:
    """The index entry of a row: its facts after (a row only before has none), and its change."""
    after = AuditRow(id=row.id, ok=row.after.ok if row.after else True, report=row.after_report, meta=row.meta)
    return index_entry(after, sum(1 for c in row.claims if c.change in _CHANGED), row)


def compare_parts(diff: AuditDiff, *, title: str | None = None, compress: bool | None = None) -> Iterator[str]:
    title = title or f"RT4CHART diff: {diff.summary.before} → {diff.summary.after}"
    yield page_head(title)
    yield summary_header(diff, title)
    yield controls(diff)
    entries: list[dict[str, Any]] = []

    def markups() -> Iterator[str]:
        for i, row in enumerate(diff.rows):
            entries.append(_entry(row))
            yield render_pair(row, i)

    yield from rows_section(markups(), entries, len(diff.rows), step=STEP, compress=compress)
    yield PAGE_END


def render_compare_html(diff: AuditDiff, *, title: str | None = None, compress: bool | None = None) -> str:
    """The compare page as a string: the diff's rows, worst change first."""
    return "".join(compare_parts(diff, title=title, compress=compress))


def write_compare_html(
    diff: AuditDiff, path: str | Path, *, title: str | None = None, compress: bool | None = None
) -> Path:
    """Write the compare page to ``path`` (UTF-8), part by part."""
    return write_parts(compare_parts(diff, title=title, compress=compress), path)
