"""Amounts compared as amounts: whether two quantities of one kind agree (within 1 %, or 3 % once
converted, since a conversion written out is rounded; a time of day exactly; a count or a price as
written, within its rounding once large), and an index of one text's amounts that answers whether
they state a claim's amount without comparing it with each of them. :mod:`.quantities` reads the
amounts out of the text.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from rt4chart_plugins.rules.quantities import TIME_OF_DAY, Quantity, converted

#: how far a converted amount may be from the one written in the other unit (rounding)
CONVERSION_TOLERANCE = 0.03


def same_amount(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities of one kind agree: within 1 % in one unit, within 3 % once converted."""
    if a.kind != b.kind:
        return False
    if a.kind == TIME_OF_DAY:  # "6:30" is 6:30 a.m. or p.m.; "9 PM" is one of them
        day = 720 if "12h" in (a.unit, b.unit) else 1440
        return a.value % day == b.value % day
    if a.kind == "currency" and a.unit != b.unit:
        return False
    if a.kind.startswith("count:") or a.kind == "currency":
        return rounded_alike(a.value, b.value)
    if a.unit == b.unit:
        return math.isclose(a.value, b.value, rel_tol=0.01, abs_tol=1e-9)
    in_b = converted(a.value, a.unit, b.unit)
    # a conversion written out is rounded: 15 °C is 59 °F, written "60"
    return in_b is not None and math.isclose(in_b, b.value, rel_tol=CONVERSION_TOLERANCE, abs_tol=1e-9)


#: below this, a count or a price is written exactly ("founded in 1887", "12 biscuits", "£3.60")
ROUNDED_FROM = 10_000


def _place(value: float) -> float:
    """The place of a number's last non-zero digit: 1,000 for 40,000, 0.1 for 2.5."""
    if value == 0 or not math.isfinite(value):
        return 1.0
    place = 1.0
    if float(value).is_integer():
        while place < 1e15 and value % (place * 10) == 0:
            place *= 10
        return place
    while place > 1e-6 and not math.isclose(round(value / place) * place, value, rel_tol=1e-9):
        place /= 10
    return place


def rounded_alike(a: float, b: float) -> bool:
    """Whether two counts or prices agree as written: exactly below :data:`ROUNDED_FROM` (a year
    within 1 % of another, "1878" against "1887", is another year), and above it within the
    rounding of the less precise one ("2.5 million" against "2,512,000", "about 40,000" against
    "40,200", not "40,000" against "48,000")."""
    if max(abs(a), abs(b)) < ROUNDED_FROM:
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return abs(a - b) < max(_place(a), _place(b)) / 2 + 1e-9


def comparable(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities measure one thing: one kind, and for a currency one currency or
    for a physical unit any unit of that dimension ("12 miles" against "12 kilometres")."""
    return a.kind == b.kind


def supported(claim: Quantity, context: list[Quantity]) -> bool:
    """Whether the context states the claim's amount, in any unit of its kind."""
    return any(same_amount(claim, c) for c in context)


class AmountIndex:
    """The amounts of one text, kept so that whether they state a claim's amount is looked up
    rather than compared with each of them: a long context holds thousands of amounts, and each
    claim's amounts are asked about. ``supports(q)`` is ``supported(q, amounts)``, exactly."""

    def __init__(self, amounts: list[Quantity]):
        self._clock: set[float] = set()  # minutes after midnight of the times written on one clock, mod 1440
        self._half_day: set[float] = set()  # every time of day, mod 720
        self._either_half: set[float] = set()  # the times that may be a.m. or p.m. ("6:30"), mod 720
        self._counted: dict[tuple[str, str], list[float]] = {}  # counts and prices by (kind, currency), sorted
        self._measured: dict[str, list[Quantity]] = {}  # physical amounts by kind, compared one by one
        for q in amounts:
            if q.kind == TIME_OF_DAY:
                self._half_day.add(q.value % 720)
                (self._either_half.add(q.value % 720) if q.unit == "12h" else self._clock.add(q.value % 1440))
            elif q.kind.startswith("count:") or q.kind == "currency":
                self._counted.setdefault(_counted_key(q), []).append(q.value)
            else:
                self._measured.setdefault(q.kind, []).append(q)
        for values in self._counted.values():
            values.sort()

    def supports(self, claim: Quantity) -> bool:
        """Whether one of the amounts states the claim's amount (:func:`same_amount`)."""
        if claim.kind == TIME_OF_DAY:
            if claim.unit == "12h":
                return claim.value % 720 in self._half_day
            return claim.value % 1440 in self._clock or claim.value % 720 in self._either_half
        if claim.kind.startswith("count:") or claim.kind == "currency":
            values = self._counted.get(_counted_key(claim), [])
            # the values that :func:`rounded_alike` can accept lie within the claim's rounding or
            # within half of their own (their place is at most themselves), give or take 1
            a = claim.value
            spread = max(_place(a), 1.0) / 2
            lo = min(a - spread, 2 * a, 2 * a / 3) - 1
            hi = max(a + spread, 2 * a, 2 * a / 3) + 1
            return any(rounded_alike(a, b) for b in values[bisect_left(values, lo) : bisect_right(values, hi)])
        return supported(claim, self._measured.get(claim.kind, []))


def _counted_key(q: Quantity) -> tuple[str, str]:
    """What a count or a price is compared within: its kind, and a price's currency."""
    return q.kind, q.unit if q.kind == "currency" else ""
