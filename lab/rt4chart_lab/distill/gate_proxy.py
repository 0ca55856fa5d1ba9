"""Cheap signals that a (claim, premise) pair is one the reader should see: the order in which the
labelling job works through its pairs (:mod:`.reader_labels`).

Not the product's gate (that one is to be fitted on dev sets); a hand-set proxy that only orders
work, so that the pairs a meaning gate would send are labelled first:

- a number or name of the claim that the premise lacks;
- low word coverage of the claim by the premise;
- a claim that aligns closely with one premise sentence yet differs from it in a negation,
  quantifier, modal, comparative or amount word (the product gate's alignment signal).
"""

from __future__ import annotations

from rt4chart_plugins.judges.reader.features import alignment
from rt4chart_plugins.judges.trained.premise import coverage
from rt4chart_plugins.rules.facts import unsupported_facts

#: the claim's content words the best-matching premise sentence must share to count as aligned with it
ALIGNED = 0.6
LOW_COVERAGE = 0.7


def aligned_difference(claim: str, premise: str) -> bool:
    """Whether the premise line that shares most of the claim's content words shares at least
    :data:`ALIGNED` of them while a cue word or a number is on one side only (the product gate's
    own alignment signal, :func:`rt4chart_plugins.judges.reader.features.alignment`)."""
    share, cues, numbers = alignment(claim, premise)
    return share >= ALIGNED and (cues > 0 or numbers > 0)


def gate_score(claim: str, premise: str) -> int:
    """0 to 4: how many of the proxy's signals fire (a missing fact counts twice)."""
    score = 2 if unsupported_facts(claim, premise) else 0
    score += coverage(claim, premise) < LOW_COVERAGE
    score += aligned_difference(claim, premise)
    return score
