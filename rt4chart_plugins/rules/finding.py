"""The one interface every deterministic check has: read a context once, check a claim against
that reading, return a :class:`Finding` with its evidence and a reason a person reads.

The pipeline's rule stage (:mod:`rt4chart_plugins.pipeline.rules`) runs the checks after the judge,
for every judge, in the order of :data:`rt4chart_plugins.rules.RULES`; the first finding decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rt4chart_plugins.types import Label, RuleName


@dataclass(frozen=True)
class Finding:
    """What a check found about one claim: the label it sets, the context sentences it cites (by
    index), the claim's words it is about (its clause is the one to mark) and what the context
    says instead, and the reason, in words."""

    rule: RuleName
    kind: str  # "negation", "quantifier", …, "yes/no field", "opening hours", "number or name"
    label: Label
    units: tuple[int, ...]
    reason: str
    claim_says: str = ""  # "" when the finding is about the claim as a whole
    context_says: str | None = None
    missing: tuple[str, ...] = ()  # the numbers and names no context sentence states


class Reading(Protocol):
    """One context as a check has read it."""

    def check(self, claim: str) -> Finding | None: ...


class Rule(Protocol):
    """A family of checks. ``overrules``: the judge labels it may change (the fact check only
    questions a supported claim); ``by_sentence``: a claim that is a clause of its sentence is also
    checked through the sentence, since a clause alone may share too few words with the context."""

    name: RuleName
    overrules: frozenset[Label]
    by_sentence: bool

    def read(self, units: Sequence[str], context: str, question: str | None) -> Reading: ...


def quoted(text: str) -> str:
    return f"\u201c{text.strip()}\u201d"
