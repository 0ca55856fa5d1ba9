"""The audit as one self-contained HTML page: the summary of a run on top, then every answer with
its claims marked in the answer and their evidence in the context.

Every piece of text that came from a context, a question, an answer, a judge or an input row goes
through :func:`html.escape` here, once; the page's script only moves the markup made here and
toggles classes, and a Content-Security-Policy allows no request and no script but the page's
own. Up to ``pack.PLAIN_LIMIT`` rows the page is a complete static list without JavaScript; a
larger run keeps its first page as markup and the rest compressed (``pack.py``). With the script,
filters, sorting, search, paging and keyboard navigation work on every row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rt4chart_plugins.audit.assets import CSP, CSS, HEAD_JS, JS
from rt4chart_plugins.audit.chart import histogram_svg
from rt4chart_plugins.audit.pack import rows_section
from rt4chart_plugins.audit.rows import AuditRow, as_rows
from rt4chart_plugins.audit.summary import Summary, summarize
from rt4chart_plugins.types import ClaimVerdict, Label, Report, Sentence, Span, score_text

#: a label in words, as the auditor reads it
IN_WORDS = {
    Label.ENT: "Entailed by the context",
    Label.CON: "Contradicted by the context",
    Label.NIC: "Not in the context (baseless)",
    None: "Not judged",
}
_FLAGGED = (Label.CON, Label.NIC)

if TYPE_CHECKING:
    from rt4chart_plugins.audit.diff import RowDiff


def e(value: Any) -> str:
    """Text as markup: ``<``, ``>``, ``&`` and both quotes escaped, so it is safe in an attribute too."""
    return escape("" if value is None else str(value), quote=True)


def anchor(row_id: str) -> str:
    """The element id of a row, and its permalink ``#row-ID`` (whitespace, invalid in ids, as ``_``)."""
    return "row-" + re.sub(r"\s", "_", row_id)


# --- one answer ---------------------------------------------------------------------------------


def _unfaithful(report: Report) -> list[ClaimVerdict]:
    return [c for c in report.claims if c.judged and c.label in _FLAGGED]


def _overlaps(span: Span | None, start: int, end: int) -> bool:
    return span is not None and span.start < end and start < span.end


def marked_answer(report: Report) -> str:
    """The answer with one ``<mark>`` per unfaithful span of the report, coloured CON where a
    contradicted claim lies in it, else NIC; named phrases underlined inside it."""
    text, out, cursor = report.answer, [], 0
    flagged = _unfaithful(report)
    for span in sorted(report.unfaithful_spans, key=lambda s: s.start):
        start, end = max(span.start, cursor), min(span.end, len(text))
        if start >= end:
            continue
        inside = [c for c in flagged if _overlaps(c.answer_span, start, end) or _overlaps(c.phrase_span, start, end)]
        label = Label.CON if any(c.label == Label.CON for c in inside) else Label.NIC
        out.append(e(text[cursor:start]))
        ids = " ".join(str(c.id) for c in inside)
        out.append(f'<mark class="{label.value}" data-claims="{e(ids)}" title="{e(IN_WORDS[label])}">')
        pos = start
        for p in sorted({(c.phrase_span.start, c.phrase_span.end) for c in inside if c.phrase_span}):
            a, b = max(p[0], pos), min(p[1], end)
            if a < b and (a, b) != (start, end):
                out.append(e(text[pos:a]) + f'<span class="phrase">{e(text[a:b])}</span>')
                pos = b
        out.append(e(text[pos:end]) + "</mark>")
        cursor = end
    out.append(e(text[cursor:]))
    return "".join(out)


def _confidence(c: ClaimVerdict) -> str:
    if c.grounding is not None:
        g = c.grounding
        return f"risk {g.risk:.2f} (flagged above {g.threshold:.2f})"
    if c.probs and c.label in c.probs:
        return f"confidence {c.probs[c.label]:.0%}"
    return ""


def row_confidence(report: Report | None) -> float | None:
    """How sure the judge is of the answer: its least sure judged claim's probability for its
    label (None when the judge gives none, as GASP and the LLM judges' text replies)."""
    if report is None:
        return None
    probs = [c.probs[c.label] for c in report.claims if c.judged and c.label and c.probs and c.label in c.probs]
    return round(min(probs), 4) if probs else None


def claim_item(
    c: ClaimVerdict,
    ev_ids: list[str],
    report: Report,
    risk_scale: float,
    *,
    extra: str = "",
    badge: str = "",
    attrs: str = "",
) -> str:
    """One claim as a list item: its label, text, the verdict in words and its evidence.
    ``extra``: more classes; ``badge``: markup after the label (the compare view's change);
    ``attrs``: more attributes."""
    label = c.label if c.judged else None
    cls = label.value if label else "unjudged"
    flagged = " flagged" if label in _FLAGGED else ""
    words = IN_WORDS[label] + (f", {_confidence(c)}" if _confidence(c) else "")
    parts = [
        f'<li class="claim {cls}{flagged}{extra}" tabindex="0" data-claim="{c.id}" data-ev="{e(" ".join(ev_ids))}"'
        f"{attrs}>",
        f'<span class="badge {cls}">{e(label.value if label else "UNJUDGED")}</span>{badge} {e(c.text)}',
        f'<div class="why"><span class="words">{e(words)}.</span>',
    ]
    if c.grounding is not None:
        width = max(2, min(120, int(60 + 30 * c.grounding.risk / risk_scale)))
        parts.append(f' <span class="risk" style="width:{width}px"></span>')
        chunk = c.grounding.supporting_chunk
        if chunk is not None and chunk < len(report.windows):
            w = report.windows[chunk]
            parts.append(f" The chunk that mattered: {chunk} (context sentences {w.first}–{w.last}).")
    if c.phrase_span is not None:
        parts.append(f" Phrase: “{e(c.phrase_span.text)}”.")
    if c.reason:
        reason = c.reason.rstrip()
        parts.append(f' <span class="reason">{e(reason if reason.endswith((".", "!", "?")) else reason + ".")}</span>')
    if c.rule is not None:
        said = f"; the judge had said {c.rule.judge_label.value}" if c.rule.judge_label else ""
        parts.append(f' <span class="rule">Decided by the {e(c.rule.rule)} check ({e(c.rule.kind)}){e(said)}.</span>')
    if c.error:
        parts.append(f' <span class="error">{e(c.error)}</span>')
    if c.unsupported_facts:
        parts.append(f" Not in the context: {e(', '.join(c.unsupported_facts))}.")
    if c.evidence:
        cites = "; ".join(f"[{x.sentence_id}] “{e(x.text)}”" for x in c.evidence)
        parts.append(f"<br>Evidence: {cites}")
    elif label in _FLAGGED and c.grounding is None:
        parts.append(" No context sentence is cited.")
    parts.append("</div></li>")
    return "".join(parts)


def _field_value(s: Sentence) -> str:
    prefix = f"{s.field}: "
    return s.text[len(prefix) :] if s.field and s.text.startswith(prefix) else s.text


def context_block(report: Report, prefix: str, cited: set[int], *, title: str = "Context") -> str:
    """The context, each sentence an element ``{prefix}{id}`` that a claim's selection lights."""
    sents = report.context_sentences
    if not sents:
        return ""
    out = [f'<div class="ctx"><b>{e(title)}</b>']
    if all(s.field for s in sents):  # a JSON record: one row per field
        out.append('<table class="fields">')
        for s in sents:
            cls = "sent cited" if s.id in cited else "sent"
            out.append(f'<tr class="{cls}" id="{prefix}{s.id}"><th>{e(s.field)}</th><td>{e(_field_value(s))}</td></tr>')
        out.append("</table>")
    else:
        passages: dict[int, list[Sentence]] = {}
        for s in sents:
            passages.setdefault(s.passage, []).append(s)
        for number, group in passages.items():
            out.append('<p class="passage">')
            if len(passages) > 1:
                out.append(f'<span class="pn">passage {number}</span>')
            for s in group:
                cls = "sent cited" if s.id in cited else "sent"
                out.append(f'<span class="{cls}" id="{prefix}{s.id}"><sup>{s.id}</sup>{e(s.text)}</span> ')
            out.append("</p>")
    out.append("</div>")
    return "".join(out)


def evidence_ids(c: ClaimVerdict, report: Report, prefix: str) -> list[str]:
    """The element ids of the context sentences a claim's selection lights: its evidence, or for
    a GASP sentence without evidence, the chunk whose removal hurt it most."""
    known = {s.id for s in report.context_sentences}
    ev = [f"{prefix}{x.sentence_id}" for x in c.evidence if x.sentence_id in known]
    g = c.grounding
    if g is not None and g.supporting_chunk is not None and not ev and g.supporting_chunk < len(report.windows):
        ev = [f"{prefix}{i}" for i in report.windows[g.supporting_chunk].ids if i in known]
    return ev


def risk_scale(report: Report) -> float:
    return max((abs(c.grounding.risk) for c in report.claims if c.grounding), default=1.0) or 1.0


def facts(row: AuditRow) -> tuple[str, str, str]:
    """A row's state, its claims' labels (`` CON NIC ``) and its input fields (``\\ntask=QA\\n``),
    as the filters match them."""
    r = row.report
    labels = " ".join(sorted({c.label.value for c in r.claims if c.label and c.judged})) if r else ""
    state = (r.state if r else "failed") if row.ok else "failed"
    return state, f" {labels} ", "\n" + "".join(f"{k}={v}\n" for k, v in row.meta.items())


def row_attrs(row: AuditRow) -> str:
    """The row's facts as attributes (a reader of the markup, and the tests, see them too)."""
    state, labels, meta = facts(row)
    return (
        f'class="row" id="{e(anchor(row.id))}" data-h="{1 if row.report and row.report.hallucinated else 0}" '
        f'data-state="{e(state)}" data-labels="{e(labels)}" data-meta="{e(meta)}"'
    )


def index_entry(row: AuditRow, steps: int, change: RowDiff | None = None) -> dict[str, Any]:
    """What the page's script knows of a row without its markup (``pack.KEYS``)."""
    r = row.report
    state, labels, meta = facts(row)
    scored = r if row.ok and r is not None and r.state != "failed" else None
    return {
        "a": anchor(row.id),
        "h": 1 if r is not None and r.hallucinated else 0,
        "s": state,
        "l": labels,
        "m": meta,
        "sc": round(scored.score, 4) if scored and scored.score is not None else None,
        "cf": row_confidence(scored) if scored else None,
        "n": steps,
        "k": change.change.value if change else None,
        "c": change.rank if change else None,
        "d": change.score_change if change else None,
    }


def _against(change: RowDiff) -> str:
    """A row's header against the run before: the change and the score it had."""
    from rt4chart_plugins.audit.diff import ROW_WORDS

    b = change.before
    was = f" · was {b.score:.2f}" if b is not None and b.score is not None else ""
    delta = f" ({change.score_change:+.2f})" if change.score_change else ""
    return (
        f' <span class="chg {e(change.change.value)}">{e(ROW_WORDS[change.change])}</span>'
        f'<span class="muted">{e(was + delta)}</span>'
    )


def render_row(row: AuditRow, index: int, change: RowDiff | None = None) -> str:
    """One answer as an ``<article>``: verdict, question, marked answer, claims, context.
    ``change``: the row against another run, shown in its header."""
    r = row.report
    state = (r.state if r else "failed") if row.ok else "failed"
    verdict = r.label.value if r and r.label else state.upper()
    head = [
        f'<article {row_attrs(row)}><h2><a class="perma" href="#{e(anchor(row.id))}" title="permalink">#</a>'
        f'{e(row.id)} <span class="badge {e(verdict)}">{e(verdict)}</span> <span class="muted">'
    ]
    if r is not None:
        head.append(
            e(
                f"score {score_text(r.score)} · {r.state} · {r.judge or r.method}"
                + (f" · risk {r.risk:.2f}" if r.risk is not None else "")
            )
        )
    head.append("</span>" + (_against(change) if change is not None else "") + "</h2>")
    body = ["".join(head)]
    if row.meta:
        body.append('<div class="muted">' + e(" · ".join(f"{k}: {v}" for k, v in row.meta.items())) + "</div>")
    error = row.error or (r.error if r else None)
    if error:
        body.append(f'<p class="error">{e(error)}</p>')
    if r is None:
        return "".join(body) + "</article>"
    if r.question:
        body.append(f'<div class="q"><b>Question</b> {e(r.question)}</div>')
    if r.answer:
        body.append(f'<div class="answer"><b>Answer</b><p>{marked_answer(r)}</p></div>')
    elif row.source == "bench":
        body.append('<p class="muted">The bench record keeps the verdicts and offsets, not the texts.</p>')
    prefix = f"s{index}-"
    cited = {x.sentence_id for c in r.claims for x in c.evidence}
    if r.claims:
        scale = risk_scale(r)
        body.append('<ol class="claims" start="0">')
        body.extend(claim_item(c, evidence_ids(c, r, prefix), r, scale) for c in r.claims)
        body.append("</ol>")
    body.append(context_block(r, prefix, cited))
    extra = [f"note: {n}" for n in r.notes] + [
        f"correction (claim {c.claim_id}): {c.kind} {c.detail}" for c in r.corrections
    ]
    cost = r.cost
    extra.append(
        f"cost: {cost.judge_calls} judge calls, {cost.cache_hits} cache hits, {cost.prompt_tokens} prompt + "
        f"{cost.completion_tokens} completion tokens, {cost.seconds:.2f} s"
    )
    body.append(
        "<details><summary>notes, corrections, cost</summary><ul>"
        + "".join(f"<li>{e(x)}</li>" for x in extra)
        + "</ul></details>"
    )
    return "".join(body) + "</article>"


# --- the page -----------------------------------------------------------------------------------


def score_histogram(summary: Summary) -> str:
    """The answers' scores (GASP: risks) as a histogram with its counts and axes."""
    counts, (lo, hi) = summary.histogram, summary.histogram_range
    n = len(counts)
    edges = [f"{lo + (hi - lo) * i / n:.1f}" for i in range(n + 1)]
    titles = [
        f"{c} answers with {summary.histogram_of} in [{lo + (hi - lo) * i / n:.2f}, "
        f"{lo + (hi - lo) * (i + 1) / n:.2f}{']' if i == n - 1 else ')'}"
        for i, c in enumerate(counts)
    ]
    return histogram_svg(
        counts,
        edges,
        caption=f"answers by {summary.histogram_of}",
        bar_titles=titles,
        x_title=summary.histogram_of.split(" (")[0],
    )


def counts_text(d: dict[str, int]) -> str:
    return e(", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "—")


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "—"


def groups_table(summary: Summary) -> str:
    """Per value of each grouping field (a task…): rows, hallucinated share, mean score, claims."""
    if not summary.groups:
        return ""
    out = [
        '<table class="groups"><caption>by input field</caption><tr><th>field = value</th><th>rows</th>'
        "<th>scored</th><th>hallucinated</th><th>mean score</th><th>CON claims</th><th>NIC claims</th></tr>"
    ]
    for g in summary.groups:
        mean = "—" if g.mean_score is None else f"{g.mean_score:.2f}"
        out.append(
            f"<tr><td>{e(g.field)} = {e(g.value)}</td><td>{g.rows}</td><td>{g.scored}</td>"
            f"<td>{g.hallucinated} ({_share(g.hallucinated, g.scored)})</td><td>{mean}</td>"
            f"<td>{g.claim_labels.get('CON', 0)}</td><td>{g.claim_labels.get('NIC', 0)}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)


def problems_list(problems: list[Any]) -> str:
    if not problems:
        return ""
    shown = problems[:200]
    out = [f'<details class="problems" open><summary>{len(problems)} failed or partial rows</summary><ul>']
    out.extend(
        f'<li><a href="#{e(anchor(p.id))}">{e(p.id)}</a> ({e(p.state)}): <span class="error">{e(p.error)}</span></li>'
        for p in shown
    )
    if len(problems) > len(shown):
        out.append(f"<li>and {len(problems) - len(shown)} more (filter by state)</li>")
    out.append("</ul></details>")
    return "".join(out)


def render_summary(summary: Summary, title: str) -> str:
    s = summary
    share = f"{s.hallucinated_share:.1%}" if s.hallucinated_share is not None else "—"
    c = s.cost
    rows = [
        ("rows", f"{s.rows} ({s.scored} scored)"),
        ("hallucinated", f"{s.hallucinated} ({share} of scored)"),
        ("answer labels", None, counts_text(s.answer_labels)),
        ("claim labels", None, counts_text(s.claim_labels)),
        ("states", None, counts_text(s.states)),
        ("judge", None, counts_text(s.judges)),
        ("method", None, counts_text(s.methods)),
        (
            "cost",
            f"{c.judge_calls} judge calls, {c.cache_hits} cache hits, {c.prompt_tokens} prompt + "
            f"{c.completion_tokens} completion tokens, {c.seconds:.1f} s",
        ),
    ]
    cells = "".join(f"<tr><th>{e(r[0])}</th><td>{r[2] if len(r) == 3 else e(r[1])}</td></tr>" for r in rows)
    if s.settings:
        cells += "<tr><th>settings</th><td>" + e(", ".join(f"{k}={v}" for k, v in s.settings.items())) + "</td></tr>"
    out = [
        f'<header class="top"><h1>{e(title)}</h1><div class="stats"><table>{cells}</table>',
        f'<figure><figcaption class="muted">answers by {e(s.histogram_of)}</figcaption>{score_histogram(s)}'
        f"</figure></div>",
        groups_table(s),
    ]
    if s.metrics:
        keys = list(s.metrics[0])
        out.append('<table class="metrics"><tr>' + "".join(f"<th>{e(k)}</th>" for k in keys) + "</tr>")
        for m in s.metrics:
            out.append(
                "<tr>"
                + "".join(f"<td>{e(f'{m[k]:.3f}' if isinstance(m[k], float) else m[k])}</td>" for k in keys)
                + "</tr>"
            )
        out.append("</table>")
    out.append(problems_list(s.problems))
    out.append("</header>")
    return "".join(out)


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


def html_parts(
    reports: Any,
    *,
    title: str = "RT4CHART audit",
    settings: dict[str, Any] | None = None,
    metrics: list[dict[str, Any]] | None = None,
    by: list[str] | None = None,
    baseline: Any = None,
    compress: bool | None = None,
) -> Iterator[str]:
    """The page in parts, to join or to write as they come (a large run never sits in memory
    whole). See :func:`render_html`."""
    rows = as_rows(reports)
    summary = summarize(rows, settings=settings, metrics=metrics, by=by)
    changes: dict[str, RowDiff] = {}
    if baseline is not None:
        from rt4chart_plugins.audit.diff import diff_reports

        changes = {d.after.id: d for d in diff_reports(baseline, rows).rows if d.after is not None}
    yield page_head(title)
    yield render_summary(summary, title)
    yield _controls(rows, summary, baseline=baseline is not None)
    entries: list[dict[str, Any]] = []

    def markups() -> Iterator[str]:
        for i, row in enumerate(rows):
            steps = sum(1 for c in row.report.claims if c.judged and c.label in _FLAGGED) if row.report else 0
            entries.append(index_entry(row, steps, changes.get(row.id)))
            yield render_row(row, i, changes.get(row.id))

    yield from rows_section(markups(), entries, len(rows), step="li.claim.flagged", compress=compress)
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
    return "".join(
        html_parts(
            reports, title=title, settings=settings, metrics=metrics, by=by, baseline=baseline, compress=compress
        )
    )


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


__all__ = ["render_html", "write_html", "report_card", "render_row", "marked_answer", "anchor", "html_parts"]
