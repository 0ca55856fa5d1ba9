"""A claim that says something holds at any time, where its context says when: "Bicycles can be
carried for free at any time" against "… free of charge outside peak hours".

The quantifier check reads "any" against "some" or "only"; a restriction of time holds neither.
A universal of time is read at one of two grains: of the hour ("at any time", "around the clock")
and of the day ("every day", "always"). A sentence restricts the hour with a time of day or a part
of the day ("in the morning", "outside peak hours"), and the day, and so the hour too, with a day
of the week, a month or a season ("on weekdays", "except in August"). A claim that names a time
at the restriction's grain itself restricts it too: "always open on Sundays" says nothing against
"open on Sundays from 10:00 to 16:00", nor "always trains on Mondays" against "on Mondays and Fridays".
"""

from __future__ import annotations

from collections.abc import Sequence

from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.lexicon import (
    ANY_DAY,
    ANY_HOUR,
    DAY_WORDS,
    HOURS_OF,
    PART_OF_DAY,
    TIME_EXCEPTIONS,
    TIME_PREPOSITIONS,
    WEEK_WORDS,
)
from rt4chart_plugins.rules.contrast.reading import Span, is_content, negators, tokens
from rt4chart_plugins.rules.quantities import TIME_OF_DAY, quantities

#: the grains, finer to coarser: a restriction of the day restricts the hour too
HOUR, DAY = 1, 2
#: how far before a day or a part of the day its preposition may stand ("on Mondays and Fridays")
_REACH = 2


def universal(text: str) -> tuple[int, str]:
    """The grain of the universal of time ``text`` says (0 when none) and its words."""
    for grain, pattern in ((HOUR, ANY_HOUR), (DAY, ANY_DAY)):
        m = pattern.search(text)
        if m:
            return grain, m.group(0)
    return 0, ""


def _whole_week(low: Sequence[str]) -> bool:
    """Whether the days ``low`` names make up the week: weekdays and weekends, or Monday and Sunday
    as a span's ends ("Monday to Sunday")."""
    days = set(low)
    return bool(days & {"weekday", "weekdays"} and days & {"weekend", "weekends"}) or {"monday", "sunday"} <= days


def restrictions(low: Sequence[str], text: str, *, said: bool = False) -> set[int]:
    """The grains at which ``low`` (the words of ``text``) says when: which days, which hours. A
    day or a part of the day restricts after a preposition of time or an exception ("on Sundays",
    "outside peak hours"); with ``said``, wherever it stands (what a claim names of a time)."""
    found = set()
    if _whole_week(low):
        low = [t for t in low if t not in DAY_WORDS]  # "on weekdays … and at weekends" is every day
    for j, t in enumerate(low):
        introduced = said or any(w in TIME_PREPOSITIONS or w in TIME_EXCEPTIONS for w in low[max(0, j - _REACH) : j])
        if t in DAY_WORDS and (introduced or t in WEEK_WORDS):
            found.add(DAY)
        elif (t in PART_OF_DAY and introduced) or (t == "hours" and j and low[j - 1] in HOURS_OF):
            found.add(HOUR)
    if any(q.kind == TIME_OF_DAY for q in quantities(text)):
        found.add(HOUR)
    return found


def _when_of(clause: Span) -> bool:
    """Whether ``clause`` opens with an exception or says nothing but when ("Monday to Friday")."""
    if clause.low[:1] and clause.low[0] in TIME_EXCEPTIONS:
        return True
    return bool(clause.words) and all(t in DAY_WORDS or t in PART_OF_DAY for t in clause.low if is_content(t))


def unrestricted(claim: Span, sentence: Span, clauses: list[Span], whole: Span) -> Contrast | None:
    """The claim says at any time, or every day, what the clause of ``sentence`` that shares most
    of its words restricts at that grain or a coarser one, and the claim names no time at that
    grain itself. ``claim`` may be a conjunct of the ``whole`` claim, whose other conjuncts may name
    the time ("open at any time | after 9:00"). A negated claim, and a sentence that gives such a
    universal itself, are left alone."""
    grain, said = universal(claim.text)
    if not grain or negators(whole.low):
        return None
    theirs_too = universal(sentence.text)[0]
    if theirs_too and theirs_too <= grain:
        return None  # "open every day from 9:00 to 17:00" says "every day" as the claim does
    shared = [len(claim.words & c.words) for c in clauses]
    if not shared or max(shared) == 0:
        return None
    best = shared.index(max(shared))
    zone = [clauses[best]]
    # "open every day, except on public holidays", "from 6 am to 10 am, Monday to Friday": an
    # exception, or a when alone, is a clause of its own
    if best + 1 < len(clauses) and _when_of(clauses[best + 1]):
        zone.append(clauses[best + 1])
    theirs = set().union(*(restrictions(c.low, c.text) for c in zone))
    rest = whole.text.replace(said, " ")
    mine = restrictions([t.lower() for t in tokens(rest)], rest, said=True)
    if any(g >= grain and g not in mine for g in theirs):
        return Contrast("quantifier", sentence.unit, sentence.text, said)
    return None
