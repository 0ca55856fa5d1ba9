"""``[n]`` markers for the kept claims, numbered as a reader meets them.

A marker stands for a passage when the context was a list of passages (a retriever's documents:
the reader wants to know which document), else for a context sentence. Markers are numbered in
the order the text first cites them, and one :class:`Sources` can be shared by the pieces of one
answer (a stream guarded sentence by sentence), so that ``[1]`` means the same source throughout.
"""

from __future__ import annotations

from collections.abc import Sequence

from rt4chart_plugins.guard.result import Citation, Source
from rt4chart_plugins.guard.surgery import Edit, mark_after
from rt4chart_plugins.types import ClaimVerdict, Evidence, Span


class Sources:
    """The markers given so far, and what each stands for."""

    def __init__(self, passages: Sequence[str] | None = None):
        #: the passages' texts when the context was a list of them: markers then stand for passages
        self.passages = list(passages) if passages is not None else None
        self.items: list[Source] = []
        self._index: dict[tuple[int, int | None], int] = {}

    def marker(self, evidence: Evidence) -> int:
        """The marker of the source this evidence sentence belongs to, numbered on first use."""
        key: tuple[int, int | None] = (
            (evidence.passage, None) if self.passages is not None else (evidence.passage, evidence.sentence_id)
        )
        if key not in self._index:
            number = len(self.items) + 1
            self._index[key] = number
            in_passages = self.passages is not None and 0 <= evidence.passage < len(self.passages)
            text = self.passages[evidence.passage] if self.passages is not None and in_passages else evidence.text
            self.items.append(
                Source(
                    marker=number,
                    passage=evidence.passage,
                    sentence_id=None if self.passages is not None else evidence.sentence_id,
                    text=text,
                    metadata=evidence.metadata,
                )
            )
        return self._index[key]


def cite(edit: Edit, claims: Sequence[ClaimVerdict], sources: Sources, offset: int = 0) -> list[Citation]:
    """Put a marker group after each kept, supported span of the answer, for the sources of its
    claims' evidence. Claims that share a span (an LLM judge's claims of one sentence) share one
    group. ``offset``: where the edited text starts in the answer the spans index."""
    by_span: dict[tuple[int, int], list[ClaimVerdict]] = {}
    for claim in claims:
        span = claim.answer_span
        if span is None or not claim.evidence:
            continue
        a, b = span.start - offset, span.end - offset
        if a < 0 or b > len(edit.text) or not edit.kept(a, b):
            continue
        by_span.setdefault((span.start, span.end), []).append(claim)
    out: list[Citation] = []
    for (start, end), group in sorted(by_span.items()):
        evidence = [e for c in group for e in c.evidence]
        markers: list[int] = []
        for e in evidence:
            number = sources.marker(e)
            if number not in markers:
                markers.append(number)
        mark_after(edit, start - offset, end - offset, "".join(f"[{m}]" for m in markers))
        span = group[0].answer_span
        assert span is not None
        out.append(
            Citation(
                claim_ids=[c.id for c in group],
                span=Span(start=start, end=end, text=span.text),
                markers=markers,
                evidence=evidence,
            )
        )
    return out
