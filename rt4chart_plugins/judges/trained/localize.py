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

#: a word as written, in any script: "café" is one word, not "caf" and a stray letter
_WORD_SPAN = re.compile(r"[^\W_]+(?:[.:,'’][^\W_]+)*")


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


def weakest_clauses(claim: str, clauses: list[tuple[int, int]], supports: list[float], threshold: float) -> str | None:
    """The stretch from the first to the last clause whose support is below ``threshold``; None
    when no clause or every clause is (then the sentence as a whole is the span)."""
    low = [span for span, s in zip(clauses, supports) if s < threshold]
    if not low or len(low) == len(clauses):
        return None
    return claim[low[0][0] : low[-1][1]]
