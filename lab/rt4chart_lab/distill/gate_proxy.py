"""Cheap signals that a (claim, premise) pair is one the reader should see: the order in which the
labelling job works through its pairs (:mod:`.reader_labels`).

Not the product's gate (that one is to be fitted on dev sets); a hand-set proxy that only orders
work, so that the pairs a meaning gate would send are labelled first:

- a number or name of the claim that the premise lacks;
- low word coverage of the claim by the premise;
- a claim that aligns closely with one premise sentence yet differs from it in a negation,
  quantifier, modal, comparative or amount word.
"""

from __future__ import annotations

import re

from rt4chart_plugins.judges.trained.premise import coverage, words
from rt4chart_plugins.rules.facts import unsupported_facts

#: words whose presence on one side only of a closely aligned pair changes its meaning
CUE_WORDS = frozenset(
    """not no never none nor cannot can't don't doesn't didn't isn't aren't wasn't weren't won't without
    all every each some any most many few several both either neither only always sometimes often rarely
    may might must should could can will would shall likely possibly probably perhaps
    more less fewer most least higher lower larger smaller greater before after first last than
    increase decrease rise fall""".split()
)
_TOKEN = re.compile(r"[a-z']+|\d+(?:[.,]\d+)?")
#: the claim's content words a premise sentence must share to count as aligned with it
ALIGNED = 0.6
LOW_COVERAGE = 0.7


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


def aligned_difference(claim: str, premise: str) -> bool:
    """Whether some premise line shares most of the claim's content words while a cue word or a
    number is on one side only."""
    mine = set(words(claim))
    if not mine:
        return False
    claim_tokens = _tokens(claim)
    for line in re.split(r"(?<=[.!?])\s+|\n", premise):
        theirs = set(words(line))
        if len(mine & theirs) < ALIGNED * len(mine):
            continue
        differ = claim_tokens ^ _tokens(line)
        if differ & CUE_WORDS or any(t[0].isdigit() for t in differ):
            return True
    return False


def gate_score(claim: str, premise: str) -> int:
    """0 to 4: how many of the proxy's signals fire (a missing fact counts twice)."""
    score = 2 if unsupported_facts(claim, premise) else 0
    score += coverage(claim, premise) < LOW_COVERAGE
    score += aligned_difference(claim, premise)
    return score
