"""Opening hours a claim states differently from a structured record, or exactly as it does.

A business record says ``"hours": {"Friday": "11:0-22:0", "Saturday": "11:0-23:0"}``; the answer
says "it serves until midnight on Fridays and Saturdays". The number check passes such a claim
whenever the wrong hour appears anywhere in the premise (another day closes at midnight), and the
encoder reads hours as a bag of numbers. This rule reads which days a claim speaks of and which
times it gives them, and compares with the record's hours for those days.

It is built for precision, like the yes/no field check (:mod:`.fields`):

- only full day names count ("Monday", "Mondays"), plus "weekdays", "weekends" and "every day";
  a vague group ("most days", "the rest of the week") blocks the times next to it;
- a time pairs with the day group right after it ("from 4 PM on Saturdays") or, failing that,
  the one before it in the same sentence ("on Saturdays it opens at 4 PM"); anything else is
  skipped, and so is a day group that two time ranges pair with (split shifts);
- a group is contradicted only when *no* day of it that the record lists has the stated time: "open
  Tuesday through Sunday from 7:30 AM to 7:30 PM, with extended hours on Saturday" is a summary,
  not an error;
- "closed on Sundays" is contradicted when the record gives Sunday hours. A day the record does
  not list, or lists as ``0:0-0:0`` (Yelp's "unknown or 24 hours"), is never held against a claim.

The other way round, a sentence that states nothing but opening hours, each exactly as the record
has them, is confirmed (:meth:`OpeningHours.confirmed`). The encoder and the name check otherwise
read "closed on Wednesdays" as baseless, since a closed day is one the record does not list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rt4chart_plugins.rules.dates import WEEKDAYS, DayGroup, day_groups
from rt4chart_plugins.rules.records.fields import RecordField
from rt4chart_plugins.text.english import CLOCK_12H_PATTERN

_TIME = rf"(?:{CLOCK_12H_PATTERN}|noon|midnight)"
_TIMES = re.compile(rf"(?P<a>{_TIME})(?:\s*(?:-|–|—|to|until|till|and)\s*(?P<b>{_TIME}))?", re.IGNORECASE)
_OPEN_CUE = re.compile(
    r"(?:\bfrom|\bopens?\s+at|\bopening\s+at|\bstarting\s+at|\bas\s+early\s+as|\bbetween)\s*$", re.IGNORECASE
)
_CLOSE_CUE = re.compile(r"(?:\buntil|\btill|\bto|\bclos(?:es|ing|e)\s+at|\bas\s+late\s+as)\s*$", re.IGNORECASE)
_CLOSED = re.compile(r"\bclosed\s+(?:all\s+day\s+)?(?:on\s+)?$", re.IGNORECASE)
_HOURS_VALUE = re.compile(r"^\s*(\d{1,2}):(\d{1,2})\s*-\s*(\d{1,2}):(\d{1,2})\s*$")
#: text between a time and the day group after it that still binds them ("from 4 PM on Saturdays")
_BINDS_AFTER = re.compile(r"^\s*(?:on|every|each|for)?\s*$", re.IGNORECASE)
#: text between a day group and a later time that may not lie between them
_SEPARATES = re.compile(r"[.;!?]")
REACH_BEFORE = 60  # characters from a day group to a later time of it ("On Mondays it is open from …")
DAY = 24 * 60


def _minutes(text: str) -> int | None:
    """Minutes after midnight of a clock time that _TIME matched; None for one it cannot read."""
    t = re.sub(r"[\s.]+", "", text.lower())  # "5 p.m.", "5\tPM" and "5pm" alike
    if t == "noon":
        return 12 * 60
    if t == "midnight":
        return 0
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?([ap])m", t)
    if m is None:
        return None
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0)
    return (hour * 60 + int(m.group(2) or 0)) % DAY


@dataclass(frozen=True)
class _Times:
    start: int
    end: int
    open: int | None  # minutes after midnight
    close: int | None


def _times(claim: str) -> list[_Times]:
    out = []
    for m in _TIMES.finditer(claim):
        a = _minutes(m.group("a"))
        b = _minutes(m.group("b")) if m.group("b") else None
        if a is None or (m.group("b") and b is None):
            continue
        if m.group("b"):
            out.append(_Times(m.start(), m.end(), a, b))
            continue
        before = claim[max(0, m.start() - 20) : m.start()]
        if _CLOSE_CUE.search(before):
            out.append(_Times(m.start(), m.end(), None, a))
        elif _OPEN_CUE.search(before):
            out.append(_Times(m.start(), m.end(), a, None))
    return out


def _closed(claim: str, groups: list[DayGroup]) -> list[DayGroup]:
    """The groups the claim calls closed ("closed on Sundays")."""
    return [g for g in groups if g.days is not None and _CLOSED.search(claim[max(0, g.start - 25) : g.start])]


def _pairs(claim: str, groups: list[DayGroup], times: list[_Times]) -> list[tuple[DayGroup, _Times]]:
    pairs: list[tuple[DayGroup, _Times]] = []
    for t in times:
        after = next((g for g in groups if g.start >= t.end), None)
        before = next((g for g in reversed(groups) if g.end <= t.start), None)
        if after and _BINDS_AFTER.match(claim[t.end : after.start]):
            pairs.append((after, t))
        elif (
            before
            and t.start - before.end <= REACH_BEFORE
            and not _SEPARATES.search(claim[before.end : t.start])
            and not any(before.end <= o.start < t.start for o in times)
        ):
            pairs.append((before, t))
    counts: dict[int, int] = {}
    for g, _ in pairs:
        counts[g.start] = counts.get(g.start, 0) + 1
    return [(g, t) for g, t in pairs if g.days is not None and counts[g.start] == 1]


#: words a sentence that only states opening hours may use besides its days and times
_HOURS_WORDS = frozenset(
    "it is are its the and also both on from to until till through thru between open opens opening closed "
    "closes closing close hours daily every day days week weekdays weekend weekends s".split()
)


class OpeningHours:
    """The opening hours of one context (units rendered ``path.hours.Monday: 11:0-22:0``), read
    once, against which many claims are checked."""

    def __init__(self, units: Sequence[str]):
        self.hours: dict[int, tuple[int, int, str, str, int]] = {}  # day -> (open, close, path, value, unit)
        self.unknown: set[int] = set()  # days listed as 0:0-0:0
        self.name_words: set[str] = set()
        for i, unit in enumerate(units):
            path, sep, value = unit.partition(": ")
            if sep and path == "name":
                self.name_words = set(re.findall(r"[a-z]+", value.lower()))
            parts = path.rsplit(".", 2)
            if not sep or len(parts) < 2 or parts[-1].lower() not in WEEKDAYS or "hour" not in parts[-2].lower():
                continue
            value = value.strip().strip("'\"")
            m = _HOURS_VALUE.match(value)
            if not m:
                continue
            oh, om, ch, cm = (int(x) for x in m.groups())
            opens, closes = (oh * 60 + om) % DAY, (ch * 60 + cm) % DAY
            if opens == closes:  # "0:0-0:0": unknown, or open around the clock
                self.unknown.add(WEEKDAYS.index(parts[-1].lower()))
                continue
            self.hours[WEEKDAYS.index(parts[-1].lower())] = (opens, closes, path, value, i)

    def confirmed(self, claim: str) -> list[RecordField] | None:
        """The record's hours fields that confirm a claim which states nothing but opening hours,
        every one of which the record bears out ("It is open from 11 AM to 9 PM Sunday through
        Thursday and closed on Fridays and Saturdays"); None otherwise.

        Stricter than :meth:`contradicted`: every day of every group must be listed with exactly
        the stated time (or, for "closed", be absent from hours the record does list), every time
        must pair with a group, and no word may be left that is not about hours ("open late", "for
        brunch" and "cash only" all leave one)."""
        if not self.hours:
            return None
        groups, times = day_groups(claim), _times(claim)
        pairs, closed = _pairs(claim, groups, times), _closed(claim, groups)
        paired = {g.start for g, _ in pairs}
        if (
            (not pairs and not closed)
            or len(pairs) != len(times)
            or any(g.days is None or (g.start not in paired and g not in closed) for g in groups)
        ):
            return None
        for g, t in pairs:
            for d in g.days or ():
                if (
                    d not in self.hours
                    or (t.open is not None and t.open != self.hours[d][0])
                    or (t.close is not None and t.close != self.hours[d][1])
                ):
                    return None
        if any(d in self.hours or d in self.unknown for g in closed for d in g.days or ()):
            return None
        rest = claim
        for start, end in sorted([(g.start, g.end) for g in groups] + [(t.start, t.end) for t in times], reverse=True):
            rest = rest[:start] + " " + rest[end:]
        if set(re.findall(r"[a-z]+", rest.lower())) - _HOURS_WORDS - self.name_words:
            return None
        days = [d for g, _ in pairs for d in g.days or ()] if pairs else []
        return [self._field(d) for d in dict.fromkeys(days or sorted(self.hours))]

    def _field(self, day: int) -> RecordField:
        _, _, path, value, unit = self.hours[day]
        return RecordField(path, value, unit)  # quoted as the record has it: "10:0-0:0"

    def contradicted(self, claim: str) -> list[RecordField]:
        """The record's hours for the days the claim gives other times for, or says are closed."""
        if not self.hours:
            return []
        out: list[RecordField] = []
        groups = day_groups(claim)
        for group, t in _pairs(claim, groups, _times(claim)):
            listed = [d for d in dict.fromkeys(group.days or ()) if d in self.hours]
            if listed and not any(
                (t.open is None or t.open == self.hours[d][0]) and (t.close is None or t.close == self.hours[d][1])
                for d in listed
            ):
                out.extend(self._field(d) for d in listed)
        for g in _closed(claim, groups):
            out.extend(self._field(d) for d in dict.fromkeys(g.days or ()) if d in self.hours)
        return list(dict.fromkeys(out))
