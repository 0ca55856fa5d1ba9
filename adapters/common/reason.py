"""A report as the reason text a framework shows beside its score: every failing claim named with
its span and evidence, then the tally, so that a low score says why without opening the trace.
"""

from __future__ import annotations

from rt4chart_plugins.types import ClaimVerdict, Label, Report


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def claim_line(c: ClaimVerdict) -> str:
    """One claim, for a reason text: label, span, claim, evidence and why."""
    span = f"[{c.answer_span.start}:{c.answer_span.end}]" if c.answer_span else "[no span]"
    if not c.judged or c.label is None:
        return f'UNJUDGED claim {c.id} {span} "{_short(c.text)}": {c.error or "not judged"}'
    line = f'{c.label.value} claim {c.id} {span} "{_short(c.text)}"'
    if c.phrase_span is not None:
        line += f' (phrase "{_short(c.phrase_span.text, 80)}")'
    if c.evidence:
        cited = "; ".join(f'[{e.sentence_id}] "{_short(e.text, 120)}"' for e in c.evidence)
        line += f" — evidence: {cited}"
    else:
        line += " — no evidence in the context"
    if c.reason:
        line += f" — {_short(c.reason, 200)}"
    return line


def reason_text(report: Report, *, max_claims: int = 20) -> str:
    """A reason that names every failing claim with its span and evidence, then the tally."""
    if report.state == "failed":
        return f"verification failed: {report.error or 'no claim could be judged'}"
    if report.state == "no_claims":
        return "the answer makes no verifiable claim (nothing to check): not hallucinated"
    judged = [c for c in report.claims if c.judged and c.label is not None]
    bad = [c for c in report.claims if c.label in (Label.CON, Label.NIC)]
    unjudged = [c for c in report.claims if not c.judged or c.label is None]
    n_ent = sum(1 for c in judged if c.label == Label.ENT)
    what = "answer sentences grounded (GASP)" if report.method == "gasp" else "judged claims entailed"
    head = (
        f"{report.label.value if report.label else 'no label'}: {n_ent} of {len(judged)} {what} "
        f"(score {report.score:.2f})"
    )
    if unjudged:
        head += f"; {len(unjudged)} claim(s) could not be judged"
    lines = [head + "."]
    for c in (bad + unjudged)[:max_claims]:
        lines.append(claim_line(c))
    if len(bad) + len(unjudged) > max_claims:
        lines.append(f"… and {len(bad) + len(unjudged) - max_claims} more")
    return "\n".join(lines)
