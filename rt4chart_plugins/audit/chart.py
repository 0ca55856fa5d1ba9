"""A histogram as inline SVG that reads without hovering: each bar's count above it, a count axis
with its ticks, and the bins' edges under the bars.

Inline, so the page stays one file with no request; drawn in ``currentColor`` and the page's
theme colours, so it reads on a light and a dark background alike.
"""

from __future__ import annotations

from html import escape

BAR = 34  # px per bar
HEIGHT = 80  # px of the tallest bar
LEFT = 30  # px for the count axis
TOP = 14  # px above the tallest bar, for its count
BOTTOM = 30  # px under the bars, for the bin labels and the axis title


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _ticks(top: int) -> list[int]:
    """0, the top, and a middle tick when it is a whole number distinct from both."""
    mid = top // 2 if top >= 2 and top % 2 == 0 else None
    return [0] + ([mid] if mid else []) + ([top] if top else [])


def histogram_svg(
    counts: list[int],
    edges: list[str],
    *,
    caption: str,
    x_title: str,
    bar_titles: list[str],
    classes: list[str] | None = None,
) -> str:
    """Bars for ``counts``; ``edges``: one label per bar boundary (``len(counts) + 1``), or one
    per bar (``len(counts)``, its range, slanted under it); ``bar_titles``: each bar's tooltip;
    ``classes``: a CSS class per bar (the compare view colours losses and gains)."""
    top = max(counts, default=0)
    width = LEFT + BAR * len(counts) + 8
    total_h = TOP + HEIGHT + BOTTOM + (0 if len(edges) == len(counts) + 1 else 18)
    out = [
        f'<svg class="hist" role="img" width="{width}" height="{total_h}" viewBox="0 0 {width} {total_h}" '
        f'aria-label="{_e(caption)}"><title>{_e(caption)}</title>'
    ]
    base = TOP + HEIGHT
    for t in _ticks(top):
        y = base - (HEIGHT * t / top if top else 0)
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}"></line>'
            f'<text class="tick" x="{LEFT - 4}" y="{y + 3:.1f}" text-anchor="end">{t}</text>'
        )
    out.append(
        f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{base}"></line>'
        f'<line class="axis" x1="{LEFT}" x2="{width - 8}" y1="{base}" y2="{base}"></line>'
    )
    for i, n in enumerate(counts):
        h = round(HEIGHT * n / top) if top else 0
        x = LEFT + i * BAR
        cls = f' class="{_e(classes[i])}"' if classes else ""
        out.append(
            f'<rect{cls} x="{x + 3}" y="{base - h}" width="{BAR - 6}" height="{h}"><title>{_e(bar_titles[i])}'
            f'</title></rect><text class="count" x="{x + BAR / 2}" y="{base - h - 3}" '
            f'text-anchor="middle">{n}</text>'
        )
    between = len(edges) == len(counts) + 1
    for i, label in enumerate(edges):
        if between:  # the bins' edges, every other inner one: labels need room
            if 0 < i < len(edges) - 1 and i % 2:
                continue
            anchor = "middle" if 0 < i < len(edges) - 1 else ("start" if i == 0 else "end")
            out.append(
                f'<text class="tick" x="{LEFT + i * BAR}" y="{base + 12}" text-anchor="{anchor}">{_e(label)}</text>'
            )
        else:  # a range under each bar, slanted to fit
            lx, ly = LEFT + i * BAR + BAR / 2 + 3, base + 10
            out.append(
                f'<text class="tick" x="{lx}" y="{ly}" text-anchor="end" transform="rotate(-35 {lx} {ly})">'
                f"{_e(label)}</text>"
            )
    title_y = base + (26 if between else 44)
    out.append(
        f'<text class="axis-title" x="{LEFT + BAR * len(counts) / 2}" y="{title_y}" '
        f'text-anchor="middle">{_e(x_title)}</text></svg>'
    )
    return "".join(out)
