"""The rows of a page as the browser gets them: a small index of every row (what the filters,
the sorting and the paging read), the first rows as markup, the rest compressed.

10,000 answers written as markup made an 80 MB page whose script was ready only once the
browser had parsed every row. Past :data:`PLAIN_LIMIT` rows, the first page of rows stays
markup (it paints at once and reads without JavaScript) and the others are gzip-compressed
chunks of the same markup, base64 in non-executable ``<script type="application/x-rt4chart">``
data blocks; the page's script decompresses a chunk (``DecompressionStream``) only when one of
its rows is shown or searched. The markup is made and escaped here, in Python, either way: the
script only moves it into the page.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterable, Iterator
from typing import Any

#: rows per page of the page's paging; the first page is always markup
PAGE = 50
#: up to this many rows, every row is markup (the page is complete without JavaScript)
PLAIN_LIMIT = 1000
#: rows per compressed chunk: what the script decodes at once to show one of them
CHUNK = 250
#: what the script knows of each row without decoding it: its anchor, hallucinated (0/1), state,
#: claim labels (" CON NIC "), input fields ("\ntask=QA\n"), score, confidence (its least sure
#: claim's probability), claims the j/k keys step through, and against another run: the change,
#: its rank (worst first) and the score change
KEYS = ("a", "h", "s", "l", "m", "sc", "cf", "n", "k", "c", "d")


def _json(value: Any) -> str:
    """JSON that cannot end the data block it sits in: ``<`` is written ``\\u003c``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def data_block(block_id: str, value: Any, *, compressed: bool) -> str:
    """A non-executable data block: JSON, or gzip-compressed JSON in base64."""
    if compressed:
        raw = gzip.compress(
            json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), compresslevel=6, mtime=0
        )
        body, enc = base64.b64encode(raw).decode("ascii"), "gzip"
    else:
        body, enc = _json(value), "json"
    return f'<script type="application/x-rt4chart" id="{block_id}" data-enc="{enc}">{body}</script>'


def packed(n: int, compress: bool | None) -> bool:
    """Whether rows past the first page are compressed: ``None`` (auto) past :data:`PLAIN_LIMIT` rows."""
    return (n > PLAIN_LIMIT if compress is None else compress) and n > PAGE


def rows_section(
    markups: Iterable[str], entries: Iterable[dict[str, Any]], n: int, *, step: str, compress: bool | None = None
) -> Iterator[str]:
    """The ``<main id="rows">`` of a page and its data blocks, as parts to join or write.

    ``markups``: each row's ``<article>``; ``entries``: each row's index fields (:data:`KEYS`),
    in the same order; ``n``: how many; ``step``: the CSS selector of the claims ``j`` / ``k``
    step through."""
    squeeze = packed(n, compress)
    plain = PAGE if squeeze else n
    yield f'<main id="rows" data-step="{step}" data-chunk="{CHUNK}" data-plain="{plain}">'
    chunk: list[str] = []
    number = 0
    for i, markup in enumerate(markups):
        if i < plain:
            yield markup
            if i == plain - 1:
                yield "</main>"
            continue
        chunk.append(markup)
        if len(chunk) == CHUNK:
            yield data_block(f"rt4c-chunk-{number}", chunk, compressed=True)
            chunk, number = [], number + 1
    if plain == 0:
        yield "</main>"
    if squeeze:
        yield (
            f'<noscript><p class="muted">The other {n - plain:,} rows are compressed in this file: open it with '
            "JavaScript on, or write it with every row as markup (<code>rt4chart report --plain</code>).</p>"
            "</noscript>"
        )
    if chunk:
        yield data_block(f"rt4c-chunk-{number}", chunk, compressed=True)
    index = {"keys": list(KEYS), "rows": [[entry.get(k) for k in KEYS] for entry in entries]}
    yield data_block("rt4c-index", index, compressed=squeeze)
