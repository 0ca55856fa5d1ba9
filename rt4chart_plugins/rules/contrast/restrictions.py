"""A claim that says something holds at any time, where its context says when: "Bicycles can be
carried for free at any time" against "… free of charge outside peak hours".

The quantifier check reads "any" against "some" or "only"; a restriction of time holds neither.
A universal of time is read at one of two grains: of the hour ("at any time", "around the clock")
and of the day ("every day", "always"). A sentence restricts the hour with a time of day or a part
of the day ("in the morning", "outside peak hours"), and the day, and so the hour too, with a day
of the week, a month or a season ("on weekdays", "except in August"). A claim that names a time
at the restriction's grain itself restricts it too: "always open on Sundays" says nothing against
"open on Sundays from 10:00 to 16:00", nor "always trains on Mondays" against "on Mondays and Fridays".

A claim that names days of the week says when as well: "open on Sundays" against "open Monday to
Saturday" names a day the sentence leaves out (:func:`other_days`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.lexicon import (
    ANY_DAY,
    ANY_HOUR,
    DAY_WORDS,
    HOURS_OF,
    PART_OF_DAY,
    STATE,
    TIME_EXCEPTIONS,
    TIME_PREPOSITIONS,
    WEEK_WORDS,
)
from rt4chart_plugins.rules.contrast.reading import Span, is_content, negators, tokens
from rt4chart_plugins.rules.dates import day_groups
from rt4chart_plugins.rules.quantities import TIME_OF_DAY, quantities
from rt4chart_plugins.text.words import stem

#: the grains, finer to coarser: a restriction of the day restricts the hour too
HOUR, DAY = 1, 2
#: how far before a day or a part of the day its preposition may stand ("on Mondays and Fridays")
_REACH = 2
#: a day written short ("Mon–Fri", "Sat"): a text that has one is not read for its days
_SHORT_DAY = re.compile(r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b", re.IGNORECASE)


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


def _zone(claim: Span, clauses: list[Span]) -> list[Span]:
    """The clause that shares most of the claim's words (none when none shares any), with the
    clause after it when that one opens with an exception or says nothing but when: "open every
    day, except on public holidays", "from 6 am to 10 am, Monday to Friday"."""
    shared = [len(claim.words & c.words) for c in clauses]
    if not shared or max(shared) == 0:
        return []
    best = shared.index(max(shared))
    zone = [clauses[best]]
    if best + 1 < len(clauses) and _when_of(clauses[best + 1]):
        zone.append(clauses[best + 1])
    return zone


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
    zone = _zone(claim, clauses)
    if not zone:
        return None
    theirs = set().union(*(restrictions(c.low, c.text) for c in zone))
    rest = whole.text.replace(said, " ")
    mine = restrictions([t.lower() for t in tokens(rest)], rest, said=True)
    if any(g >= grain and g not in mine for g in theirs):
        return Contrast("quantifier", sentence.unit, sentence.text, said)
    return None


def days_named(text: str) -> set[int] | None:
    """The days of the week ``text`` names (Monday 0, :func:`~rt4chart_plugins.rules.dates.day_groups`),
    a span's days included ("Monday to Saturday": 0 to 5; "Friday–Sunday": 4 to 6); None when
    it writes a day short ("Mon–Fri") or names vague days ("most days"), which are not read."""
    groups = day_groups(text)
    if _SHORT_DAY.search(text) or any(g.days is None for g in groups):
        return None
    return {d for g in groups for d in g.days or ()}


def _poles(low: Sequence[str]) -> set[tuple[int, int]]:
    """The poles of one-place scales ``low`` says, as (scale, sign): "open" is the first pole of its
    scale, "closed" the second."""
    return {pole for t in low for pole in STATE.get(t, ())}


def other_days(claim: Span, sentence: Span, clauses: list[Span], whole: Span) -> Contrast | None:
    """The claim gives what it says days of the week that the clause of ``sentence`` sharing most
    of its words leaves out: "The shop is open on Sundays" against "open Monday to Saturday",
    "Bus 42 runs on Saturdays" against "every 10 minutes on weekdays and every 20 minutes on
    Sundays". Left alone: a claim with a word the sentence lacks, a day the sentence names
    anywhere, a negated side, an exception or a universal of time on either side, other poles of
    a one-place scale ("closed on Sundays" against "open Monday to Saturday"), and a side that says
    the second pole ("closed on Mondays" excepts Mondays, and "closes at 2 pm on Saturdays" is no
    other day it is closed)."""
    mine = days_named(whole.text)
    if not mine or negators(whole.low) or negators(sentence.low):
        return None
    everywhere = days_named(sentence.text)
    if everywhere is None or mine & everywhere:
        return None
    if universal(whole.text)[0] or universal(sentence.text)[0]:
        return None
    # the claim says nothing but the sentence's words and its days: "The attack happened on
    # Sunday" is not read against "Police said on Monday that the attack …", whose day is the saying's
    if whole.words - {stem(t) for t in whole.low if t in WEEK_WORDS} - sentence.words:
        return None
    zone = _zone(claim, clauses)
    low = [t for c in zone for t in c.low]
    if not days_named(" ".join(c.text for c in zone)) or any(t in TIME_EXCEPTIONS for t in [*low, *whole.low]):
        return None
    poles = _poles(whole.low)
    if poles != _poles(low) or any(sign < 0 for _, sign in poles):
        return None
    # the claim's first day word is what it says otherwise (a list's first day: the clause it stands in)
    first = day_groups(whole.text)[0]
    return Contrast("date", sentence.unit, sentence.text, tokens(whole.text[first.start : first.end])[0])
