"""The checks of a structured record, together: yes/no fields (:mod:`.fields`) and opening hours
(:mod:`.hours`).

A contradiction by either makes the claim CON, whatever confirms it; otherwise a sentence of
nothing but hours, or of nothing but yes/no attributes, each as the record has it, is confirmed
(ENT): on generated records such sentences were faithful every time (docs/design.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from rt4chart_plugins.rules.finding import Finding, RuleName
from rt4chart_plugins.rules.records.fields import RecordField, YesNoFields
from rt4chart_plugins.rules.records.hours import OpeningHours
from rt4chart_plugins.types import Label


class RecordChecks:
    """The yes/no fields and the opening hours of one context, read once; what they say of a
    claim is kept, since a clause and its sentence often ask about the same words."""

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

    def check(self, claim: str) -> Finding | None:
        """:class:`Finding` protocol: CON citing the fields the claim states otherwise, ENT citing
        those that confirm it, else None."""
        contradicted, confirmed = self.read(claim)
        fields = contradicted or confirmed
        if not fields:
            return None
        said = ", ".join(map(str, fields))
        kind = "opening hours" if all(f.path.startswith("hours.") for f in fields) else "yes/no field"
        units = tuple(dict.fromkeys(f.unit for f in fields))
        if contradicted:
            reason = f"The record says {said}; the claim says otherwise."
            return Finding("records", kind, Label.CON, units, reason, context_says=said)
        return Finding("records", kind, Label.ENT, units, f"The record says {said}.", context_says=said)


class RecordRule:
    """The record checks as a :class:`~rt4chart_plugins.rules.finding.Rule`: they decide any
    label, since a field is unambiguous where the judge reads a record as prose."""

    name: RuleName = "records"
    overrules = frozenset(Label)
    by_sentence = True

    def read(self, units: Sequence[str], context: str, question: str | None) -> RecordChecks:
        return RecordChecks(units)
