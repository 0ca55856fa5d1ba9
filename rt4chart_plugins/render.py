"""The terminal view of a Report: what an auditor reads.

The verdict first, then the answer with its unfaithful spans marked (in colour on a terminal, and
with ``[[…]]{LABEL}`` brackets so the marks survive a pipe or a log file), then each claim with its
label, reason and the quoted evidence, then what the run cost and every correction the oracle made.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rt4chart_plugins.types import Label, Report, score_text

_STYLE = {Label.ENT: "green", Label.CON: "bold red", Label.NIC: "bold yellow", None: "dim"}


def marked_answer(report: Report) -> Text:
    """The answer with each unfaithful claim's span bracketed and coloured by its label."""
    marks: list[tuple[int, int, Label]] = []
    for c in report.claims:
        if c.label in (Label.CON, Label.NIC):
            span = c.phrase_span or c.answer_span
            if span is not None:
                marks.append((span.start, span.end, c.label))
    # one mark per range; CON wins over NIC where two claims mark the same range
    best: dict[tuple[int, int], Label] = {}
    for start, end, label in marks:
        if best.get((start, end)) != Label.CON:
            best[(start, end)] = label
    text = Text()
    cursor = 0
    for (start, end), label in sorted(best.items()):
        if start < cursor:  # overlapping marks: keep the first, never garble the text
            continue
        text.append(report.answer[cursor:start])
        text.append("[[" + report.answer[start:end] + "]]{" + label.value + "}", style=_STYLE[label])
        cursor = end
    text.append(report.answer[cursor:])
    return text


def render(report: Report, console: Console | None = None) -> None:
    console = console or Console()
    label = report.label.value if report.label else report.state.upper()
    head = Text.assemble(
        ("Verdict: ", "bold"),
        (label, _STYLE.get(report.label, "bold")),
        f"   hallucinated: {'–' if report.hallucinated is None else 'yes' if report.hallucinated else 'no'}",
        f"   score: {score_text(report.score)}   state: {report.state}   judge: {report.judge}",
        f"   risk: {report.risk:.2f}" if report.risk is not None else "",
    )
    console.print(head)
    if report.error:
        console.print(Text(f"error: {report.error}", style="red"))
    if report.answer:
        console.print(Panel(marked_answer(report), title="Answer (unfaithful spans marked)", title_align="left"))
    if report.claims:
        table = Table(show_lines=True, expand=True)
        table.add_column("#", justify="right", width=3)
        table.add_column("label", width=7)
        table.add_column("claim (answer sentence)", ratio=2)
        table.add_column("evidence from the context", ratio=3)
        table.add_column("reason", ratio=2)
        for c in report.claims:
            lab = c.label.value if c.label else "UNJUDGED"
            evidence = (
                "\n".join(
                    f"[{e.sentence_id}] “{e.text}”"
                    + (f"  (passage {e.passage})" if len(set(x.passage for x in report.context_sentences)) > 1 else "")
                    for e in c.evidence
                )
                or "—"
            )
            claim = f"{c.text}\n(sentence {c.sentence_id})" if c.sentence_id >= 0 else c.text
            table.add_row(
                str(c.id), Text(lab, style=_STYLE.get(c.label, "dim")), claim, evidence, c.reason or c.error or ""
            )
        console.print(table)
    cost = report.cost
    if report.method == "gasp":
        console.print(f"cost: {cost.judge_calls} scoring passes over {cost.prompt_tokens} tokens, {cost.seconds:.1f} s")
    else:
        console.print(
            f"cost: {cost.judge_calls} judge calls, {cost.cache_hits} cache hits, {cost.prompt_tokens} prompt + "
            f"{cost.completion_tokens} completion tokens, {cost.seconds:.1f} s"
        )
    if report.corrections:
        counts = Counter(c.kind for c in report.corrections)
        console.print("evidence-oracle corrections: " + ", ".join(f"{k} ×{n}" for k, n in sorted(counts.items())))
    for note in report.notes:
        console.print(Text(f"note: {note}", style="dim"))
