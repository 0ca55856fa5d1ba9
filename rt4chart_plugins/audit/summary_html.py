"""The summary of a run as the audit page's header: its counts, its cost and settings, the
scores' histogram, the table by input field, a bench run's metrics and the rows that failed."""

from __future__ import annotations

from typing import Any

from rt4chart_plugins.audit.chart import histogram_svg
from rt4chart_plugins.audit.markup import anchor, e
from rt4chart_plugins.audit.summary import Summary


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
