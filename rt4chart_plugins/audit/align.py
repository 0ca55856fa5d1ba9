"""The claims of one answer in two runs, paired: same text first, else by wording and place.

Two runs of an audit rarely decompose an answer the same way word for word: a prompt change
rewrites "lasts 14 days" as "lasts 30 days", another judge splits a sentence differently. A claim
that keeps its text is the same claim. The others are paired when their words mostly agree
(difflib's ratio over lower-cased words) and they sit at about the same place in their answers
(the same span when the answer did not change, else the same relative position); what is left
has no partner: a claim the new run added, or one it dropped.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from rt4chart_plugins.text.words import words
from rt4chart_plugins.types import ClaimVerdict

#: below this share of common words two claims are different claims, whatever their place
MIN_WORDING = 0.5
#: claims without text (a bench record keeps offsets only) pair by place alone, from this overlap
MIN_PLACE = 0.5


@dataclass(frozen=True)
class Pair:
    """A claim of the run before and its partner after; either is None when it has none."""

    before: ClaimVerdict | None
    after: ClaimVerdict | None
    match: Literal["text", "aligned"] | None
    similarity: float | None


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _where(c: ClaimVerdict, length: int) -> tuple[float, float] | None:
    """The claim's answer span as a share of its answer, ``(start, end)``."""
    if c.answer_span is None or length <= 0:
        return None
    return c.answer_span.start / length, c.answer_span.end / length


def _extent(claims: list[ClaimVerdict]) -> int:
    return max((c.answer_span.end for c in claims if c.answer_span is not None), default=0)


def _place(b: ClaimVerdict, a: ClaimVerdict, len_b: int, len_a: int) -> float:
    """How well two claims' places agree, 0 to 1: the overlap of their spans when both answers
    are one text, else how close their relative middles are."""
    wb, wa = _where(b, len_b), _where(a, len_a)
    if wb is None or wa is None:
        return 0.0
    if len_b == len_a:
        inter = max(0.0, min(wb[1], wa[1]) - max(wb[0], wa[0]))
        union = max(wb[1], wa[1]) - min(wb[0], wa[0])
        if union > 0:
            return inter / union
    return max(0.0, 1.0 - abs((wb[0] + wb[1]) / 2 - (wa[0] + wa[1]) / 2) * 2)


def similarity(b: ClaimVerdict, a: ClaimVerdict, len_b: int, len_a: int) -> float | None:
    """How alike two claims are (0 to 1), or None when they are too unlike to be one claim."""
    wb, wa = words(b.text), words(a.text)
    place = _place(b, a, len_b, len_a)
    if not wb and not wa:
        return place if place >= MIN_PLACE else None
    wording = SequenceMatcher(None, wb, wa, autojunk=False).ratio()
    if wording < MIN_WORDING:
        return None
    return 0.8 * wording + 0.2 * place


def pair_claims(
    before: list[ClaimVerdict], after: list[ClaimVerdict], *, before_length: int = 0, after_length: int = 0
) -> list[Pair]:
    """Every claim of both lists in exactly one :class:`Pair`, in the order of the answer after
    (claims only before at their place). ``*_length``: the answers' lengths, for the places
    (unknown, as in a bench record that keeps no text: the end of the last span)."""
    before_length = before_length or _extent(before)
    after_length = after_length or _extent(after)
    pairs: list[Pair] = []
    free_after: dict[str, list[ClaimVerdict]] = defaultdict(list)
    for a in after:
        if a.text.strip():
            free_after[_norm(a.text)].append(a)
    rest_before = []
    for b in before:
        same = free_after.get(_norm(b.text)) if b.text.strip() else None
        if same:
            pairs.append(Pair(b, same.pop(0), "text", 1.0))
        else:
            rest_before.append(b)
    taken = {id(p.after) for p in pairs}
    rest_after = [a for a in after if id(a) not in taken]
    scored = []
    for i, b in enumerate(rest_before):
        for j, a in enumerate(rest_after):
            s = similarity(b, a, before_length, after_length)
            if s is not None:
                scored.append((-s, i, j))
    used_b: set[int] = set()
    used_a: set[int] = set()
    for neg, i, j in sorted(scored):
        if i not in used_b and j not in used_a:
            used_b.add(i)
            used_a.add(j)
            pairs.append(Pair(rest_before[i], rest_after[j], "aligned", round(-neg, 3)))
    pairs += [Pair(b, None, None, None) for i, b in enumerate(rest_before) if i not in used_b]
    pairs += [Pair(None, a, None, None) for j, a in enumerate(rest_after) if j not in used_a]
    order_after = {id(a): k for k, a in enumerate(after)}
    order_before = {id(b): k for k, b in enumerate(before)}

    def key(p: Pair) -> tuple[float, int]:
        if p.after is not None:
            return order_after[id(p.after)], 1
        # a claim dropped: just after the claim that followed it before, by its position then
        k = order_before[id(p.before)]
        later = [
            order_after[id(q.after)]
            for q in pairs
            if q.before is not None and q.after is not None and order_before[id(q.before)] > k
        ]
        return (min(later) - 0.5 if later else len(after) + k), 0

    return sorted(pairs, key=key)
