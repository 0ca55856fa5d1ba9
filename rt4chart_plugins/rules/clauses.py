"""Where an answer sentence divides into clauses, and which clause holds given words.

A flagged sentence is often wrong in one clause only ("…, which makes it the most visited museum
in Europe"); a contrast is about the clause that holds its words ("Anyone may park on Elm Street,
which is close to the station"). The trained verifier scores clauses to find the first, and both
it and the pipeline's rules find the second here, so the mark an auditor reads is the clause the
reason is about, whichever judge gave the verdict.
"""

from __future__ import annotations

import re

from rt4chart_plugins.rules.quantities import number_spans
from rt4chart_plugins.types import Sentence

#: Where a sentence divides into clauses: commas, semicolons, dashes and the usual conjunctions
#: and relative pronouns. The separator stays with the clause it opens.
_CLAUSE_BREAK = re.compile(
    r"[,;]\s+|\s+[–—-]\s+|\s+(?=(?:and|but|while|whereas|which|who|although|though|because|so that|as well as)\s)",
    re.IGNORECASE,
)
MIN_CLAUSE_WORDS = 4


def clause_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the clauses of ``text``, whitespace and trailing punctuation trimmed; a piece
    shorter than :data:`MIN_CLAUSE_WORDS` words joins the clause before it (or after it, when first)."""
    numbers = number_spans(text)  # "three and a half million" is one amount, not two clauses
    cuts = (
        [0]
        + [m.end() for m in _CLAUSE_BREAK.finditer(text) if not any(a < m.start() < b for a, b in numbers)]
        + [len(text)]
    )
    pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]
    merged: list[list[int]] = []
    for a, b in pieces:
        if merged and (
            len(text[a:b].split()) < MIN_CLAUSE_WORDS
            or len(text[merged[-1][0] : merged[-1][1]].split()) < MIN_CLAUSE_WORDS
        ):
            merged[-1][1] = b
        else:
            merged.append([a, b])
    out = []
    for a, b in merged:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip().rstrip(",;.!?–—- ")
        if body:
            out.append((a + lead, a + lead + len(body)))
    return out


def clause_claims(sentences: list[Sentence]) -> list[tuple[int, str]]:
    """(answer sentence id, claim) for each clause of each sentence, in the answer's own words (so a
    claim's span is where they stand): the ``clauses`` decomposition, which asks no model. A
    one-clause sentence is one claim, whole."""
    claims: list[tuple[int, str]] = []
    for s in sentences:
        spans = clause_spans(s.text)
        claims += [(s.id, s.text[a:b]) for a, b in spans] if len(spans) > 1 else [(s.id, s.text)] * len(spans)
    return claims


def clause_with(claim: str, clauses: list[tuple[int, int]], words_said: str) -> str | None:
    """The one clause of ``claim`` in which ``words_said`` stand (a contrast's words: "all",
    "no verification"); None when the claim is a single clause, or the words are not found in one
    clause (then the other ways of finding the phrase apply)."""
    if len(clauses) < 2 or not words_said.strip():
        return None
    starts = [m.start() for m in re.finditer(_words_pattern(words_said), claim, re.IGNORECASE)]
    hits = {(a, b) for a, b in clauses for i in starts if a <= i < b}
    if len(hits) != 1:
        return None
    a, b = hits.pop()
    return claim[a:b]


def holds_words(text: str, words_said: str) -> bool:
    """Whether ``text`` writes ``words_said`` (a contrast's words), whatever the spacing and
    punctuation between them."""
    return bool(words_said.strip()) and re.search(_words_pattern(words_said), text, re.IGNORECASE) is not None


def _words_pattern(words_said: str) -> str:
    return r"\b" + r"\W+".join(map(re.escape, words_said.split())) + r"\b"
