"""The audit as one self-contained HTML page: the summary of a run on top, then every answer with
its claims marked in the answer and their evidence in the context.

Every piece of text that came from a context, a question, an answer, a judge or an input row goes
through :func:`html.escape` here, once; the page's script only toggles classes, and a
Content-Security-Policy allows no request and no script but the page's own. The rows are plain
markup, so the page is a complete static list without JavaScript; with it, filters, search,
paging and keyboard navigation work on that markup.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

from rt4chart_plugins.audit.assets import CSP, CSS, HEAD_JS, JS
from rt4chart_plugins.audit.rows import AuditRow, as_rows
from rt4chart_plugins.audit.summary import Summary, summarize
from rt4chart_plugins.types import ClaimVerdict, Label, Report, Sentence, Span

#: a label in words, as the auditor reads it
IN_WORDS = {Label.ENT: "Entailed by the context", Label.CON: "Contradicted by the context",
            Label.NIC: "Not in the context (baseless)", None: "Not judged"}
_FLAGGED = (Label.CON, Label.NIC)


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


def _claim(c: ClaimVerdict, ev_ids: list[str], report: Report, risk_scale: float) -> str:
    label = c.label if c.judged else None
    cls = label.value if label else "unjudged"
    flagged = " flagged" if label in _FLAGGED else ""
    words = IN_WORDS[label] + (f", {_confidence(c)}" if _confidence(c) else "")
    parts = [f'<li class="claim {cls}{flagged}" tabindex="0" data-claim="{c.id}" data-ev="{e(" ".join(ev_ids))}">',
             f'<span class="badge {cls}">{e(label.value if label else "UNJUDGED")}</span> {e(c.text)}',
             f'<div class="why"><span class="words">{e(words)}.</span>']
    if c.grounding is not None:
        width = max(2, min(120, int(60 + 30 * c.grounding.risk / risk_scale)))
        parts.append(f' <span class="risk" style="width:{width}px"></span>')
        chunk = c.grounding.supporting_chunk
        if chunk is not None and chunk < len(report.windows):
            w = report.windows[chunk]
            parts.append(f" The chunk that mattered: {chunk} (context sentences {w.first}–{w.last}).")
    if c.phrase_span is not None:
        parts.append(f' Phrase: “{e(c.phrase_span.text)}”.')
    if c.reason:
        reason = c.reason.rstrip()
        parts.append(f' <span class="reason">{e(reason if reason.endswith((".", "!", "?")) else reason + ".")}</span>')
    if c.error:
        parts.append(f' <span class="error">{e(c.error)}</span>')
    if c.unsupported_facts:
        parts.append(f' Not in the context: {e(", ".join(c.unsupported_facts))}.')
    if c.evidence:
        cites = "; ".join(f"[{x.sentence_id}] “{e(x.text)}”" for x in c.evidence)
        parts.append(f'<br>Evidence: {cites}')
    elif label in _FLAGGED and c.grounding is None:
        parts.append(" No context sentence is cited.")
    parts.append("</div></li>")
    return "".join(parts)


def _field_value(s: Sentence) -> str:
    prefix = f"{s.field}: "
    return s.text[len(prefix):] if s.field and s.text.startswith(prefix) else s.text


def _context(report: Report, prefix: str, cited: set[int]) -> str:
    sents = report.context_sentences
    if not sents:
        return ""
    out = ['<div class="ctx"><b>Context</b>']
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


def render_row(row: AuditRow, index: int) -> str:
    """One answer as an ``<article>``: verdict, question, marked answer, claims, context."""
    r = row.report
    labels = " ".join(sorted({c.label.value for c in r.claims if c.label and c.judged})) if r else ""
    state = (r.state if r else "failed") if row.ok else "failed"
    meta = "".join(f"{k}={v}\n" for k, v in row.meta.items())
    attrs = (f'class="row" id="{e(anchor(row.id))}" data-h="{1 if r is not None and r.hallucinated else 0}" '
             f'data-state="{e(state)}" data-labels=" {e(labels)} " data-meta="\n{e(meta)}"')
    verdict = (r.label.value if r and r.label else state.upper())
    head = [f'<article {attrs}><h2><a class="perma" href="#{e(anchor(row.id))}" title="permalink">#</a>{e(row.id)} ',
            f'<span class="badge {e(verdict)}">{e(verdict)}</span> <span class="muted">']
    if r is not None:
        head.append(e(f"score {r.score:.2f} · {r.state} · {r.judge or r.method}" +
                      (f" · risk {r.risk:.2f}" if r.risk is not None else "")))
    head.append("</span></h2>")
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
    known = {s.id for s in r.context_sentences}
    cited = {x.sentence_id for c in r.claims for x in c.evidence}
    if r.claims:
        scale = max((abs(c.grounding.risk) for c in r.claims if c.grounding), default=1.0) or 1.0
        body.append('<ol class="claims" start="0">')
        for c in r.claims:
            ev = [f"{prefix}{x.sentence_id}" for x in c.evidence if x.sentence_id in known]
            if c.grounding is not None and c.grounding.supporting_chunk is not None and not ev \
                    and c.grounding.supporting_chunk < len(r.windows):
                ev = [f"{prefix}{i}" for i in r.windows[c.grounding.supporting_chunk].ids if i in known]
            body.append(_claim(c, ev, r, scale))
        body.append("</ol>")
    body.append(_context(r, prefix, cited))
    extra = [f"note: {n}" for n in r.notes] + [f"correction (claim {c.claim_id}): {c.kind} {c.detail}"
                                              for c in r.corrections]
    cost = r.cost
    extra.append(f"cost: {cost.judge_calls} judge calls, {cost.cache_hits} cache hits, {cost.prompt_tokens} prompt + "
                 f"{cost.completion_tokens} completion tokens, {cost.seconds:.2f} s")
    body.append("<details><summary>notes, corrections, cost</summary><ul>" +
                "".join(f"<li>{e(x)}</li>" for x in extra) + "</ul></details>")
    return "".join(body) + "</article>"


# --- the page -----------------------------------------------------------------------------------

def histogram_svg(summary: Summary) -> str:
    """The answers' scores as an inline SVG bar chart, each bar titled with its count."""
    counts, (lo, hi) = summary.histogram, summary.histogram_range
    top, w, h = max(counts, default=0) or 1, 24, 60
    bars = []
    for i, n in enumerate(counts):
        bh = round(h * n / top)
        a, b = lo + (hi - lo) * i / len(counts), lo + (hi - lo) * (i + 1) / len(counts)
        bars.append(f'<rect x="{i * w + 1}" y="{h - bh}" width="{w - 2}" height="{bh}"><title>{n} answers with '
                    f'{e(summary.histogram_of)} in [{a:.2f}, {b:.2f})</title></rect>')
    total = len(counts) * w
    return (f'<svg class="hist" role="img" width="{total}" height="{h + 14}" viewBox="0 0 {total} {h + 14}" '
            f'aria-label="{e(summary.histogram_of)}">' + "".join(bars) +
            f'<text x="0" y="{h + 12}" font-size="10">{lo:.2f}</text>'
            f'<text x="{total}" y="{h + 12}" font-size="10" text-anchor="end">{hi:.2f}</text></svg>')


def _counts(d: dict[str, int]) -> str:
    return e(", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "—")


def render_summary(summary: Summary, title: str) -> str:
    s = summary
    share = f"{s.hallucinated_share:.1%}" if s.hallucinated_share is not None else "—"
    c = s.cost
    rows = [("rows", f"{s.rows} ({s.scored} scored)"), ("hallucinated", f"{s.hallucinated} ({share} of scored)"),
            ("answer labels", None, _counts(s.answer_labels)), ("claim labels", None, _counts(s.claim_labels)),
            ("states", None, _counts(s.states)), ("judge", None, _counts(s.judges)),
            ("method", None, _counts(s.methods)),
            ("cost", f"{c.judge_calls} judge calls, {c.cache_hits} cache hits, {c.prompt_tokens} prompt + "
                     f"{c.completion_tokens} completion tokens, {c.seconds:.1f} s")]
    cells = "".join(f"<tr><th>{e(r[0])}</th><td>{r[2] if len(r) == 3 else e(r[1])}</td></tr>" for r in rows)
    if s.settings:
        cells += "<tr><th>settings</th><td>" + e(", ".join(f"{k}={v}" for k, v in s.settings.items())) + "</td></tr>"
    out = [f'<header class="top"><h1>{e(title)}</h1><div class="stats"><table>{cells}</table>',
           f'<figure><figcaption class="muted">{e(s.histogram_of)}</figcaption>{histogram_svg(s)}</figure></div>']
    if s.metrics:
        keys = list(s.metrics[0])
        out.append('<table class="metrics"><tr>' + "".join(f"<th>{e(k)}</th>" for k in keys) + "</tr>")
        for m in s.metrics:
            out.append("<tr>" + "".join(f"<td>{e(f'{m[k]:.3f}' if isinstance(m[k], float) else m[k])}</td>"
                                        for k in keys) + "</tr>")
        out.append("</table>")
    if s.problems:
        shown = s.problems[:200]
        out.append(f'<details class="problems" open><summary>{len(s.problems)} failed or partial rows</summary><ul>')
        out.extend(f'<li><a href="#{e(anchor(p.id))}">{e(p.id)}</a> ({e(p.state)}): <span class="error">'
                   f'{e(p.error)}</span></li>' for p in shown)
        if len(s.problems) > len(shown):
            out.append(f"<li>and {len(s.problems) - len(shown)} more (filter by state)</li>")
        out.append("</ul></details>")
    out.append("</header>")
    return "".join(out)


def _controls(rows: list[AuditRow], summary: Summary) -> str:
    labels = "".join(f'<option value="{x}">{x}</option>' for x in ("CON", "NIC", "ENT"))
    states = "".join(f'<option value="{e(x)}">{e(x)}</option>' for x in sorted(summary.states))
    pairs = sorted({f"{k}={v}" for r in rows for k, v in r.meta.items() if len(v) <= 80})[:500]
    metas = "".join(f'<option value="{e(p)}">{e(p)}</option>' for p in pairs)
    return ('<nav class="controls"><label><input type="checkbox" id="f-h"> hallucinated only</label>'
            f'<label>claim label <select id="f-label"><option value="">any</option>{labels}</select></label>'
            f'<label>state <select id="f-state"><option value="">any</option>{states}</select></label>'
            f'<label>field <select id="f-meta"><option value="">any</option>{metas}</select></label>'
            '<input type="search" id="f-q" placeholder="search (/)" aria-label="search">'
            '<button id="prev" type="button">‹ page</button><button id="next" type="button">page ›</button>'
            '<span id="count" class="muted"></span>'
            '<span class="keys">j / k: next / previous flagged claim · click a claim for its evidence</span></nav>')


def render_html(reports: Any, *, title: str = "RT4CHART audit", settings: dict[str, Any] | None = None,
                metrics: list[dict[str, Any]] | None = None) -> str:
    """The whole page as a string. ``reports``: anything :func:`~rt4chart_plugins.audit.rows.as_rows`
    takes (Reports, ``(id, Report)`` pairs, a mapping, batch or audit rows); ``settings``: what the
    run was made with, shown in the header; ``metrics``: a bench run's table."""
    rows = as_rows(reports)
    summary = summarize(rows, settings=settings, metrics=metrics)
    parts = ['<!DOCTYPE html><html lang="en" class="rt4c"><head><meta charset="utf-8">',
             f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}</title><style>{CSS}</style><script>{HEAD_JS}</script></head><body>",
             render_summary(summary, title), _controls(rows, summary), '<main id="rows">']
    parts.extend(render_row(row, i) for i, row in enumerate(rows))
    parts.append(f"</main><script>{JS}</script></body></html>\n")
    return "".join(parts)


def write_html(reports: Any, path: str | Path, **kwargs: Any) -> Path:
    """Write :func:`render_html` to ``path`` (UTF-8) and return the path."""
    path = Path(path)
    path.write_text(render_html(reports, **kwargs), encoding="utf-8")
    return path


def report_card(report: Report) -> str:
    """One report as a static card (no script) for a notebook's inline view: ``Report._repr_html_``."""
    row = AuditRow(id="report", ok=report.state != "failed", report=report,
                   error=report.error if report.state == "failed" else None)
    return f'<div class="rt4c"><style>{CSS}</style>{render_row(row, 0)}</div>'


__all__ = ["render_html", "write_html", "report_card", "render_row", "marked_answer", "anchor"]
