"""Amounts a text states by one step of arithmetic on what it writes, which an answer that says
them restates rather than adds:

- the length of a span of time, from its two ends ("from 9 am to 5 pm" is eight hours, "starts
  on 12 May … ends on 15 May" three days);
- a time of day moved by a stated duration ("booked for 08:40 … arrive 10 minutes early": by
  08:30);
- a price's share by a stated percentage ("28 euros … students get 50 percent off": 14 euros);
- the share one amount of a sentence is of another of its kind ("adults pay 12 euros, students
  6 euros": students pay half).

The number check and the contrast rule read these as stated, never as amounts a claim's
contradicts: a text implies them, it does not give them to anything. Each is one step, of amounts
the text gives: two steps ("a 30 % discount on the 12-euro ticket of a group of four") would let
nearly any number pass against a long context. For the same reason the products are bounded
(:data:`MOST_PRODUCTS`), which a schedule or a price list never reaches.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import islice

from rt4chart_plugins.rules.dates import days_between
from rt4chart_plugins.rules.quantities import TIME_OF_DAY, Quantity, converted, durations_between, quantities

#: the most (time, duration) or (price, percentage) pairs read from one text: past that, a text is
#: a table of numbers, and its products would meet a claim's by chance
MOST_PRODUCTS = 400
#: the longest shift of a time of day read (in minutes): "arrive 10 minutes early", "ends 2 hours
#: later"; a stay of days moves no clock
LONGEST_SHIFT = 12 * 60
#: the shares a sentence's two amounts are read as: those that people write in words ("half",
#: "a third", "twice", "three times")
SHARES = (1 / 2, 1 / 3, 2 / 3, 1 / 4, 3 / 4, 1 / 5, 1 / 10, 2, 3, 4, 5, 10)


def implied(texts: Iterable[str], amounts: Sequence[Quantity]) -> list[Quantity]:
    """The amounts a context implies (see the module's docstring): the spans of time read within
    each of ``texts`` (its sentences, or the whole of it), and the products of ``amounts``, the
    amounts it states."""
    spans = [q for t in texts for q in (*durations_between(t), *days_between(t))]
    return [*spans, *_shifted_times(amounts), *_shares_of_prices(amounts)]


def _shifted_times(amounts: Sequence[Quantity]) -> Iterable[Quantity]:
    times = [q for q in amounts if q.kind == TIME_OF_DAY]
    shifts = {m for q in amounts if q.kind == "[time]" and (m := converted(q.value, q.unit, "minute")) is not None}
    shifts = {m for m in shifts if 0 < m <= LONGEST_SHIFT and float(m).is_integer()}
    pairs = ((t, m) for t in times for m in sorted(shifts))
    for t, m in islice(pairs, MOST_PRODUCTS):
        day = 720 if t.unit == "12h" else 1440
        for moved in ((t.value - m) % day, (t.value + m) % day):
            yield Quantity(moved, t.unit, TIME_OF_DAY, f"{t.text} {'-' if moved < t.value else '+'} {m:g} min")


def _shares_of_prices(amounts: Sequence[Quantity]) -> Iterable[Quantity]:
    prices = [q for q in amounts if q.kind == "currency"]
    percents = sorted({q.value for q in amounts if q.kind == "percent" and 0 < q.value < 100})
    for price, pct in islice(((p, c) for p in prices for c in percents), MOST_PRODUCTS):
        for share in (pct, 100 - pct):  # "50 percent off" leaves half; "a 20 % deposit" is a fifth
            value = round(price.value * share / 100, 2)
            yield Quantity(value, price.unit, "currency", f"{share:g} % of {price.text}")


def shares(sentences: Iterable[str]) -> set[float]:
    """The shares, as percentages, that one amount of a sentence is of another of its kind and
    currency ("adults pay 12 euros, students 6 euros": 50.0 and 200.0); only those of :data:`SHARES`.
    Within one sentence only: two sentences' amounts may count different things."""
    out: set[float] = set()
    for sentence in sentences:
        found = [q for q in quantities(sentence) if q.kind == "currency" or q.kind.startswith("count:")]
        for a in found:
            for b in found:
                if a is b or (a.kind, a.unit) != (b.kind, b.unit) or not b.value:
                    continue
                ratio = a.value / b.value
                out.update(round(s * 100, 1) for s in SHARES if math.isclose(ratio, s, rel_tol=1e-3))
    return out
