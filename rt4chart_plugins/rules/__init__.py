"""Deterministic checks that need no model, below both the judges and the pipeline stages.

Each family reads a context once and checks claims against that reading through one interface
(:mod:`.finding`): ``records`` reads structured (JSON) records (yes/no fields, opening hours,
region codes; written for business records of the kind RAGTruth's Data2txt task has);
``contrast`` finds a claim that reuses a context sentence's words with another negation,
quantifier, modality, direction, state, roles, amount, date or price; ``facts`` finds the numbers and names of a
claim that the context lacks. The word-level helpers they share are the text kit,
:mod:`rt4chart_plugins.text`.
The pipeline runs them after the judge in the order of :data:`RULES`; the first finding decides.
"""

from rt4chart_plugins.rules.contrast import ContrastRule
from rt4chart_plugins.rules.facts import FactRule
from rt4chart_plugins.rules.finding import Finding, Reading, Rule
from rt4chart_plugins.rules.records import RecordRule

#: the families in the order they decide: a record field is the surest reading, a confirmed
#: record stops the rest; a contrast says what the context says instead; a missing fact last
RULES: tuple[Rule, ...] = (RecordRule(), ContrastRule(), FactRule())

__all__ = ["RULES", "Finding", "Reading", "Rule"]
