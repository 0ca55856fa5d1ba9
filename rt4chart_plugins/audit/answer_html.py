"""One answer of the audit as markup: its verdict, its question, the answer with its claims
marked, each claim with its evidence, and the context with the cited sentences; and what the
page's script knows of the row without its markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rt4chart_plugins.audit.markup import anchor, e
from rt4chart_plugins.audit.rows import AuditRow
from rt4chart_plugins.types import ClaimVerdict, Label, Report, Sentence, Span, score_text

#: a label in words, as the auditor reads it
IN_WORDS = {
    Label.ENT: "Entailed by the context",
    Label.CON: "Contradicted by the context",
    Label.NIC: "Not in the context (baseless)",
    None: "Not judged",
}
FLAGGED = (Label.CON, Label.NIC)

if TYPE_CHECKING:
    from rt4chart_plugins.audit.diff_types import RowDiff

# --- one answer ---------------------------------------------------------------------------------


def _unfaithful(report: Report) -> list[ClaimVerdict]:
    return [c for c in report.claims if c.judged and c.label in FLAGGED]


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
    flagged = " flagged" if label in FLAGGED else ""
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
    elif label in FLAGGED and c.grounding is None:
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
    from rt4chart_plugins.audit.diff_types import ROW_WORDS

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
