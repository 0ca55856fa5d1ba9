"""Where in an unfaithful claim the trained verifier puts the blame: a clause, or a stretch of words.

RAGTruth's gold spans are phrases and clauses, while the verifier judges whole answer sentences;
marking the whole sentence costs span precision whenever one trailing clause is the baseless part
("…, which can help reduce the risk of heart disease"). So a flagged sentence is split into
clauses, each clause is scored against its own premise, and the clauses that fall below the
threshold are the span. This only narrows the span: the sentence's verdict is unchanged (scoring
clauses for the verdict ranks answers worse; lab/docs/training.md).
"""

from __future__ import annotations

import re

from rt4chart_plugins.judges.trained.premise import words

_WORD_SPAN = re.compile(r"[A-Za-z0-9]+(?:[.:,'’][A-Za-z0-9]+)*")
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
    cuts = [0] + [m.end() for m in _CLAUSE_BREAK.finditer(text)] + [len(text)]
    pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]
    merged: list[list[int]] = []
    for a, b in pieces:
        if merged and (len(text[a:b].split()) < MIN_CLAUSE_WORDS or len(text[merged[-1][0]:merged[-1][1]].split()) < MIN_CLAUSE_WORDS):
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


def unsupported_phrase(claim: str, premise: str) -> str | None:
    """The claim's stretch from its first to its last content word that the premise lacks; None
    when every content word is there (the claim is wrong as a whole) or when it is most of it."""
    known = set(words(premise))
    spans = [m.span() for m in _WORD_SPAN.finditer(claim) if (w := words(m.group())) and w[0] not in known]
    if not spans:
        return None
    start, end = spans[0][0], spans[-1][1]
    if end - start > 0.7 * len(claim.strip()):
        return None
    return claim[start:end]


def clause_with(claim: str, clauses: list[tuple[int, int]], words_said: str) -> str | None:
    """The one clause of ``claim`` in which ``words_said`` stand (a contrast's words: "all",
    "no verification"); None when the claim is a single clause, or the words are not found in one
    clause (then the other ways of finding the phrase apply)."""
    if len(clauses) < 2 or not words_said.strip():
        return None
    pattern = r"\b" + r"\W+".join(map(re.escape, words_said.split())) + r"\b"
    starts = [m.start() for m in re.finditer(pattern, claim, re.IGNORECASE)]
    hits = {(a, b) for a, b in clauses for i in starts if a <= i < b}
    if len(hits) != 1:
        return None
    a, b = hits.pop()
    return claim[a:b]


def weakest_clauses(claim: str, clauses: list[tuple[int, int]], supports: list[float], threshold: float) -> str | None:
    """The stretch from the first to the last clause whose support is below ``threshold``; None
    when no clause or every clause is (then the sentence as a whole is the span)."""
    low = [span for span, s in zip(clauses, supports) if s < threshold]
    if not low or len(low) == len(clauses):
        return None
    return claim[low[0][0]:low[-1][1]]
