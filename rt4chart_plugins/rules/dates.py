"""Calendar dates read out of a text ("Thursday 3 April", "May 12, 2025", "the 3rd of April"), so
that a claim's date compares with the context's as a date and not as its words.

Three readings use them. The contrast rule: a date that the context gives one day of the week
and the claim another ("booked for Tuesday 3 April" against "Thursday 3 April") is the same date
said otherwise, whatever the other words share. The lengths a text states by the two ends of a
stay ("starts on 12 May … ends on 15 May" states three days, :func:`days_between`), which an
answer that says so restates. And the days and months a source gives, however it writes them
(:func:`days_known`, :func:`months_known`): the fact check names a claim's date or month that the
source never gives.

A date without a year is taken in one year, a later month in the same one: the texts read here
are schedules and notices, not chronologies.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from rt4chart_plugins.rules.quantities import TIME_OF_DAY, Quantity, quantities
from rt4chart_plugins.text.english import strip_markers

MONTHS = "january february march april may june july august september october november december".split()
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: capitalized, as English writes them: "may 3" is no date
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
#: "Thursday 3 April", "Thursday, 3 April 2025", "the 3rd of April", "April 3", "Oct. 4" (a
#: short month's full stop, as news writes it); "Thu" is not read
_DATE = re.compile(
    rf"(?:\b(?P<weekday>{_WEEKDAY}),?\s+(?:[Tt]he\s+)?)?"
    rf"(?:\b(?P<day>{_DAY})(?:\s+of)?\s+(?P<month>{_MONTH})(?![\w])(?:\.(?=,?\s+(?:1[6-9]|20)\d\d\b))?"
    rf"|\b(?P<month2>{_MONTH})\.?\s+(?P<day2>{_DAY})\b(?!:|\.\d))"
    r"(?:,?\s+(?P<year>(?:1[6-9]|20)\d\d)\b)?"
)
#: a month written in full, as a claim names one: "Jan" or "Mar" may be a name or a word
_MONTH_IN_FULL = re.compile(rf"\b(?:{'|'.join(m.capitalize() for m in MONTHS)})\b")
#: a month set in capitals, in full or short: "30 JUN 2018"
_MONTH_IN_CAPITALS = re.compile(rf"\b(?:{'|'.join(m.upper() for m in MONTHS + [m[:3] for m in MONTHS] + ['sept'])})\b")
#: "May" as a month: beside a number, or after a preposition of time
_MAY_AS_MONTH = re.compile(
    r"\d(?:st|nd|rd|th)?\s+(?:of\s+)?May\b|\bMay\s+\d"
    r"|\b(?:in|of|since|until|till|by|from|to|through|during|before|after|early|mid|late|last|next|this)[\s-]+May\b",
    re.IGNORECASE,
)
#: months a text gives in digits: "2024-11-30", "30/11/2024" (either order: 3/4 is March or April)
_ISO_DATE = re.compile(r"\b(?:1[6-9]|20)\d\d-(\d\d?)-(\d\d?)\b")
_SLASHED_DATE = re.compile(r"\b(\d\d?)[/.](\d\d?)[/.](?:\d\d){1,2}\b")
#: a span of months, each one between its ends meant: "from March to May", "between June and August"
_MONTH_SPAN = re.compile(rf"\b({_MONTH})\.?\s*(?:to|until|till|through|and|-|–|—)\s*({_MONTH})\b")
#: days of one month given by their two ends: "12 to 15 May", "12-15 May", "May 12-15"
_JOIN = r"\s*(?:-|–|—|to|until|till|through|and)\s*"
_DAY_SPAN = re.compile(
    rf"\b(?P<first>{_DAY}){_JOIN}(?P<last>{_DAY})\s+(?:of\s+)?(?P<month>{_MONTH})\b"
    rf"|\b(?P<month2>{_MONTH})\.?\s+(?P<first2>{_DAY}){_JOIN}(?P<last2>{_DAY})\b(?!:)"
)
#: a sentence's end, which a stay's two dates do not cross ("12 May … 15 May." is one stay)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
#: the longest stay read from its two ends; a text's dates further apart are events, not a stay
LONGEST_STAY = 366
#: the longest span of days whose every day a text is read to give ("from 28 June to 2 July"):
#: "from 12 May to 14 November" gives two dates, not the half year between them
LONGEST_DAY_SPAN = 62


@dataclass(frozen=True)
class Date:
    """A day of a month (1-based both), the year and the day of the week when written (weekday
    0 is Monday), and the words as written."""

    day: int
    month: int
    year: int | None
    weekday: int | None
    text: str
    start: int


def dates(text: str) -> list[Date]:
    """Every calendar date written in ``text``, in order."""
    out = []
    for m in _DATE.finditer(strip_markers(text)):
        month = _month_of(m.group("month") or m.group("month2"))
        day = int((m.group("day") or m.group("day2")).rstrip("stndrh"))
        if day > _days_in(month):
            continue
        weekday = WEEKDAYS.index(m.group("weekday").lower()) if m.group("weekday") else None
        year = int(m.group("year")) if m.group("year") else None
        out.append(Date(day, month, year, weekday, m.group(0).strip(), m.start()))
    return out


def _days_in(month: int) -> int:
    return 29 if month == 2 else 30 if month in (4, 6, 9, 11) else 31


def other_weekday(claim: str, context: str) -> tuple[Date, Date] | None:
    """The first date of ``claim`` written with a day of the week that ``context`` writes with
    another day of the week (the same day and month, and the same year where both give one), as
    (the claim's, the context's); None if there is none."""
    theirs = [d for d in dates(context) if d.weekday is not None]
    for mine in dates(claim):
        if mine.weekday is None:
            continue
        for other in theirs:
            same_year = mine.year is None or other.year is None or mine.year == other.year
            if (mine.day, mine.month) == (other.day, other.month) and same_year and mine.weekday != other.weekday:
                return mine, other
    return None


def days_between(text: str) -> list[Quantity]:
    """The length of each stay ``text`` gives by two dates of one sentence: "starts on 12 May and
    ends on 15 May" states three days (and 72 hours). A sentence that gives no time of day counts
    the days both ends included as well: a festival "from 12 to 14 May" lasts three days, while a
    hire "from 28 June at 09:00 to 2 July at 09:00" lasts four. Read as stated, like a span of
    hours (:func:`~rt4chart_plugins.rules.quantities.durations_between`): never a length another
    amount contradicts."""
    out = []
    for sentence, pairs in _stays(strip_markers(text)):
        clocked = any(q.kind == TIME_OF_DAY for q in quantities(sentence))
        for a, b, start, end in pairs:
            days = (end - start).days
            for length in (days,) if clocked else (days, days + 1):
                if 0 < length <= LONGEST_STAY:
                    out.append(Quantity(float(length), "day", "[time]", f"{a.text}–{b.text}"))
    return out


def _stays(text: str) -> list[tuple[str, list[tuple[Date, Date, date, date]]]]:
    """Each sentence of ``text`` that writes two dates or more, with each two that follow each
    other as (first, second, and the days they fall on): a date without a year is taken in a year
    without 29 February, and a second date before the first in the next year ("29 December to
    3 January")."""
    out = []
    for sentence in _SENTENCE_END.split(text):
        found = dates(sentence)
        pairs = []
        for a, b in zip(found, found[1:]):
            year = a.year or b.year or 2001
            second_year = b.year or (year + 1 if (b.month, b.day) < (a.month, a.day) and not a.year else year)
            pairs.append((a, b, _in_year(a, year), _in_year(b, second_year)))
        if pairs:
            out.append((sentence, pairs))
    return out


def _in_year(d: Date, year: int) -> date:
    """``d`` in ``year``; 29 February in a year without one is read as the 28th (:func:`dates`
    keeps no day past its month's longest)."""
    return date(year, d.month, min(d.day, calendar.monthrange(year, d.month)[1]))


def months_named(text: str) -> dict[int, str]:
    """The months ``text`` names in full (1-based), each with its words as written; "May" only
    beside a number or after a preposition ("12 May", "May 2015", "in May"): "May improve" and a
    list's "6. May reduce" are the verb."""
    text = strip_markers(text)
    out = {}
    for m in _MONTH_IN_FULL.finditer(text):
        if m.group(0) == "May" and not _MAY_AS_MONTH.search(text[max(0, m.start() - 12) : m.end() + 6]):
            continue
        out[_month_of(m.group(0))] = m.group(0)
    return out


def months_known(text: str) -> set[int]:
    """Every month ``text`` gives: by its name or short name, in a date written in digits (in
    either order of day and month), or inside a span of months it gives by its two ends."""
    text = _months_titled(strip_markers(text))
    out = {_month_of(m.group(0)) for m in re.finditer(rf"\b{_MONTH}\b", text)}
    out.update(int(m.group(1)) for m in _ISO_DATE.finditer(text))
    out.update(int(n) for m in _SLASHED_DATE.finditer(text) for n in m.groups())
    for m in _MONTH_SPAN.finditer(text):
        first, last = _month_of(m.group(1)), _month_of(m.group(2))
        out.update((first - 1 + k) % 12 + 1 for k in range((last - first) % 12 + 1))
    return {n for n in out if 1 <= n <= 12}


def _month_of(word: str) -> int:
    return next(i for i, name in enumerate(MONTHS, 1) if name.startswith(word.lower()[:3]))


def days_known(text: str) -> set[tuple[int, int]]:
    """Every (day, month) ``text`` gives: as a date, in digits (either order), or inside a span
    of days it gives by its two ends ("12 to 15 May", "from 28 June to 2 July", in one sentence)."""
    text = _months_titled(strip_markers(text))
    out = {(d.day, d.month) for d in dates(text)}
    for m in _ISO_DATE.finditer(text):
        out.add((int(m.group(2)), int(m.group(1))))
    for m in _SLASHED_DATE.finditer(text):
        a, b = int(m.group(1)), int(m.group(2))
        out.update({(a, b), (b, a)})
    for m in _DAY_SPAN.finditer(text):
        month = _month_of(m.group("month") or m.group("month2"))
        ends = (m.group("first") or m.group("first2"), m.group("last") or m.group("last2"))
        first, last = (int(g.rstrip("stndrh")) for g in ends)
        out.update((day, month) for day in range(first, last + 1))
    for _, pairs in _stays(text):
        for _, _, start, end in pairs:
            if 0 <= (end - start).days <= LONGEST_DAY_SPAN:  # a stay, not two events of a year
                out.update(((day := start + timedelta(k)).day, day.month) for k in range((end - start).days + 1))
    return {(d, m) for d, m in out if 1 <= m <= 12}


def _months_titled(text: str) -> str:
    """``text`` with its months written in capitals ("30 JUN 2018", a page's dateline) written as
    a name is, so that a source's dates are read however it sets them."""
    return _MONTH_IN_CAPITALS.sub(lambda m: m.group(0).title(), text)


def gives_a_span_of_days(text: str) -> bool:
    """Whether ``text`` gives days by their two ends ("from 12 to 14 June", "from 28 June to 2
    July"): each end is then a bound to compare, not a day said to fall inside another span."""
    text = _months_titled(strip_markers(text))
    return bool(_DAY_SPAN.search(text) or _stays(text))


#: a day of the week, singular or plural; a span of them, "weekdays", "weekends", every day, and
#: the vague groups that name no days ("most days")
_A_WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")s?"
_DAY_GROUP = re.compile(
    rf"\b(?P<range>{_A_WEEKDAY}\s*(?:-|–|through|thru|to|until|till)\s*{_A_WEEKDAY})\b"
    rf"|\b(?P<day>{_A_WEEKDAY})\b"
    r"|\b(?P<weekdays>weekdays|week\s?days)\b"
    r"|\b(?P<weekends>weekends?)\b"
    r"|\b(?P<all>every\s+day(?:\s+of\s+the\s+week)?|daily|(?:seven|7)\s+days\s+a\s+week|all\s+week(?:\s+long)?)\b"
    r"|\b(?P<vague>most\s+days|other\s+days|some\s+days|the\s+rest\s+of\s+the\s+week|weeknights?|certain\s+days)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DayGroup:
    """Days of the week a text speaks of together, where it writes them (``start``, ``end``).
    ``days``: Monday 0; None for a vague group ("most days")."""

    start: int
    end: int
    days: tuple[int, ...] | None


def _weekday_index(word: str) -> int:
    return WEEKDAYS.index(word.lower().removesuffix("s"))  # every day name ends in "y"


def day_groups(text: str) -> list[DayGroup]:
    """The days of the week ``text`` names, in groups: a day, a span ("Monday to Friday",
    "Friday–Sunday"), "weekdays", "weekends", every day, and lists ("Fridays and Saturdays",
    "Monday, Tuesday") merged into one group. Only full day names count."""
    found: list[DayGroup] = []
    for m in _DAY_GROUP.finditer(text):
        if m.group("range"):
            first, last = (_weekday_index(w) for w in re.findall(_A_WEEKDAY, m.group("range"), re.IGNORECASE))
            days: tuple[int, ...] | None = tuple((first + k) % 7 for k in range((last - first) % 7 + 1))
        elif m.group("day"):
            days = (_weekday_index(m.group("day")),)
        elif m.group("weekdays"):
            days = (0, 1, 2, 3, 4)
        elif m.group("weekends"):
            days = (5, 6)
        elif m.group("all"):
            days = tuple(range(7))
        else:
            days = None
        prev = found[-1] if found else None
        if (
            prev
            and prev.days is not None
            and days is not None
            and re.fullmatch(r"\s*(?:,|and|&)?\s*(?:and\s+)?(?:on\s+)?", text[prev.end : m.start()], re.IGNORECASE)
        ):
            found[-1] = DayGroup(prev.start, m.end(), prev.days + days)
        else:
            found.append(DayGroup(m.start(), m.end(), days))
    return found
