"""The checks of a structured record, together: yes/no fields (:mod:`.fields`) and opening hours
(:mod:`.hours`).

The trained judge and the pipeline's fact check both apply them, and must combine them the same
way: a contradiction by either rule makes the claim CON, whatever confirms it; otherwise a
sentence of nothing but hours, or of nothing but yes/no attributes, each as the record has it,
is confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rt4chart_plugins.rules.records.fields import RecordField, YesNoFields
from rt4chart_plugins.rules.records.hours import OpeningHours
from rt4chart_plugins.rules.shared import PerContext


class RecordChecks:
    """The yes/no fields and the opening hours of one context, read once; what they say of a
    claim is kept, since the judge and the pipeline's rules ask about the same claims."""

    def __init__(self, units: Sequence[str]):
        self.fields, self.hours = YesNoFields(units), OpeningHours(units)
        self._read: dict[str, tuple[list[RecordField], list[RecordField] | None]] = {}

    def read(self, claim: str) -> tuple[list[RecordField], list[RecordField] | None]:
        """(the fields the claim states otherwise, the fields that confirm it). The second is None
        when the first is not empty, or when the claim says anything besides hours or besides
        yes/no attributes. The lists are shared: read them, do not change them."""
        if claim not in self._read:
            self._read[claim] = self._check(claim)
        return self._read[claim]

    def _check(self, claim: str) -> tuple[list[RecordField], list[RecordField] | None]:
        contradicted = self.fields.contradicted(claim) + self.hours.contradicted(claim)
        if contradicted:
            return contradicted, None
        return contradicted, self.hours.confirmed(claim) or self.fields.confirmed(claim)


#: the record checks of a context, read once for the judge and the pipeline's rules (:mod:`..shared`)
records_of: PerContext[RecordChecks] = PerContext(RecordChecks)
