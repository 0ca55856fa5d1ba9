"""Amounts with their units, read out of a text, so that they compare as amounts: "12,000 metres"
is "12 kilometres", "12 miles" is not (the comparing is :mod:`.amounts`').

The number/name check (:mod:`.facts`) compares bare numbers, so "The path is 12 miles long"
passes against "The path is 12 kilometres long" (12 is in the context), and "The tank holds two
cubic metres" fails against "The tank holds 2,000 litres" (2 is not). Here a quantity is a number
(digits, or number words: "forty thousand", "half a") with what it counts: a unit that pint
knows (lengths, masses, volumes, areas, durations, temperatures, speeds, energies, data sizes,
percentages), a currency, a time of day ("9 PM", "22:40", "noon"), or else the noun it counts
("48 members") or, failing that, the word it belongs to ("a population of about 40,000").

pint's registry costs about a second to build, so it is built the first time a number is
followed by a word that could be a unit.
"""

from __future__ import annotations

import math
import re
import threading
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.text.english import CARDINALS, CLOCK_12H, hour_24, strip_markers
from rt4chart_plugins.text.words import STOPWORDS

_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_VALUES = {**CARDINALS, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9}
_CURRENCY_SIGNS = {"$": "$", "€": "€", "£": "£"}
_CURRENCY_WORDS = {
    "dollar": "$",
    "dollars": "$",
    "usd": "$",
    "euro": "€",
    "euros": "€",
    "eur": "€",
    "gbp": "£",
    "sterling": "£",
}
#: words pint reads as units that in running text are something else ("in", "at", "a", "pm")
_NOT_UNITS = STOPWORDS | frozenset("pm am point points are percentile tonight min mil".split())
_SPELLED_UNITS = {
    "degrees celsius": "degC",
    "degree celsius": "degC",
    "degrees fahrenheit": "degF",
    "degree fahrenheit": "degF",
    "°c": "degC",
    "°f": "degF",
    "kb": "kilobyte",
    "percent": "percent",
    "per cent": "percent",
    "%": "percent",
}
_NUMBER = re.compile(
    r"(?P<sign>[$€£])?\s?(?:(?<![\w.,])(?<![A-Za-z]-)(?P<digits>"
    + _DIGITS
    + r")(?![.,]?\d|-[A-Za-z])|(?P<words>(?:(?:"
    + "|".join(_WORD_VALUES)
    + r")(?:[\s-]+(?:and\s+a\s+half|"
    + "|".join(_WORD_VALUES)
    + r"))*)))"
    r"(?:\s+(?P<scale>" + "|".join(_SCALES) + r"))?\b(?P<pct>\s?%)?",
    re.IGNORECASE,
)
_WORD = re.compile(r"°\s?[CF]\b|[A-Za-z][A-Za-z/]*")
#: the second end of a range: "15-20 minutes", "10 to 12 minutes", "60-75°F"
_RANGE_END = re.compile(r"\s*(?:-|–|to)\s*(?:" + _DIGITS + r")(?=\s?°|\s|%|$|[,.;)])")


#: a time of day on the 24-hour clock ("22:40", "06:10"), or one that the 12-hour clock could also
#: mean ("6:30"); two-digit minutes, so that a score ("3:1") or a record's "17:0" is not one
_CLOCK_24H = re.compile(r"(?<![\w.:])([01]?\d|2[0-3]):([0-5]\d)(?![\w:]|[.,]\d)")
#: a range of hours on the 24-hour clock, as records write them: "16:45-20:0" is 16:45 to 20:00
_RANGE_24H = re.compile(r"(?<![\w.:])([01]?\d|2[0-3]):([0-5]?\d)\s*[-–]\s*([01]?\d|2[0-3]):([0-5]?\d)(?![\w:]|[.,]\d)")
#: an hour that only the 24-hour clock writes ("17:0", "21:30", "06:10"): a text that has one
#: writes "10:30" for the morning
_ONLY_24H = re.compile(r"(?<![\w.:])(?:0\d|1[3-9]|2[0-3]):\d{1,2}(?!\d)")
_NOON = re.compile(r"\b(noon|midday|midnight)\b", re.IGNORECASE)
#: the kind of a time of day; its unit says how it was written: ``clock`` on the 24-hour clock or
#: with a.m./p.m., ``12h`` without them and before 13:00, so that it meets either half of the day
TIME_OF_DAY = "time of day"


@dataclass(frozen=True)
class Quantity:
    """``value`` in ``unit`` (a pint unit, a currency sign, or "" for a count); ``kind`` is what is
    measured, and only quantities of one kind are compared."""

    value: float
    unit: str
    kind: str
    text: str

    def __str__(self) -> str:
        return self.text


_REGISTRY: list = []
#: pint's registry fills caches as it reads units; the trained judge compares from worker threads
_LOCK = threading.RLock()


def _registry():
    with _LOCK:
        if not _REGISTRY:
            import pint

            registry = pint.UnitRegistry()
            registry.define("KB = kilobyte")
            _REGISTRY.append(registry)
    return _REGISTRY[0]


def converted(value: float, unit: str, to: str) -> float | None:
    """``value`` in ``unit`` as an amount in ``to`` (pint's units), or None when one is not
    the other's kind after all (pint's dimensionless units)."""
    registry = _registry()
    try:
        with _LOCK:
            return float(registry.Quantity(value, unit).to(to).magnitude)
    except Exception:  # noqa: BLE001 - pint raises several kinds for units that do not convert
        return None


@lru_cache(maxsize=4096)
def _unit(word: str) -> tuple[str, str] | None:
    """(pint unit, kind) for a unit word, or None. Only kinds that text measures things in."""
    low = word.lower()
    name = _SPELLED_UNITS.get(low, word)
    if low in _NOT_UNITS or (len(low) == 1 and low not in "gml"):
        return None
    registry = _registry()
    with _LOCK:
        try:
            unit = registry.parse_units(name.replace("cubic ", "").replace("square ", ""))
        except Exception:  # pint raises several unrelated types for words it cannot read
            return None
        power = 3 if name.startswith("cubic ") else 2 if name.startswith("square ") else 1
        unit = unit**power
        dims = registry.Quantity(1, unit).dimensionality
        root = str(registry.Quantity(1, unit).to_root_units().units)
    if not dims:  # bytes and percent are both dimensionless to pint: tell them apart by their root
        return (str(unit), "data") if root == "bit" else (str(unit), "percent") if str(unit) == "percent" else None
    return str(unit), str(dims)


def unit_of(word: str) -> bool:
    """Whether ``word`` names a unit that text measures things in ("hour", "kg", "dollars")."""
    return _unit(singular(word)) is not None or _unit(word) is not None


def _value(m: re.Match) -> float | None:
    if m.group("digits"):
        value = float(m.group("digits").replace(",", ""))
    else:
        parts = re.split(r"[\s-]+", m.group("words").lower())
        value, i = 0.0, 0
        while i < len(parts):
            if parts[i : i + 3] == ["and", "a", "half"]:
                value += 0.5
                i += 3
                continue
            v = _WORD_VALUES.get(parts[i])
            if v is None:
                return None
            value = value * v if v == 100 and value else value + v
            i += 1
    if m.group("scale"):
        value *= _SCALES[m.group("scale").lower()]
    return value if math.isfinite(value) else None


#: a fraction of one unit, or one unit and a half, written in words: "half a gigabyte", "a quarter
#: of an hour", "three quarters of an hour", "an hour and a half" (the number is read as digits)
_FRACTION_OF_ONE = re.compile(
    r"\b(?:(?P<part>half|(?:a|one)\s+quarter\s+of|three\s+quarters\s+of)\s+an?\s+(?=[a-z])"
    r"|(?:an?|one)\s+(?P<unit>[a-z]+)\s+and\s+a\s+half\b)",
    re.IGNORECASE,
)
_PARTS = {"half": "0.5", "quarter": "0.25", "quarters": "0.75"}
#: "an hour-long visit", "a half-hour one": one unit of time, or half of one, as an adjective
_UNIT_LONG = re.compile(
    r"\b(?:an?\s+)?(?:half-(?P<half>second|minute|hour|day|week|month|year)|"
    r"(?P<one>second|minute|hour|day|week|month|year)-long)\b",
    re.IGNORECASE,
)
#: a number joined to the word after it by a hyphen: "30-minute", "12-month", "COVID-19" is not one
_DIGITS_UNIT = re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?)-([A-Za-z]+)\b")


def fractions_as_digits(text: str) -> str:
    """``text`` with each fraction of one unit written as its number: "an hour and a half" is
    "1.5 hour", "a quarter of an hour" "0.25 hour", "an hour-long visit" "1 hour visit", and a
    number joined to its unit by a hyphen is written apart from it ("a 30-minute visit" reads 30
    minutes). The number check reads numbers after this too, so that the "half" of "an hour and
    a half" is not a number the context must state."""
    text = _FRACTION_OF_ONE.sub(_fraction_of_one, text)
    text = _UNIT_LONG.sub(lambda m: f"0.5 {m.group('half')}" if m.group("half") else f"1 {m.group('one')}", text)
    return _DIGITS_UNIT.sub(lambda m: m.group(1) + (" " if unit_of(m.group(2)) else "-") + m.group(2), text)


def _fraction_of_one(m: re.Match) -> str:
    if m.group("unit"):
        return f"1.5 {m.group('unit')}"
    return _PARTS[m.group("part").split()[-2 if m.group("part").endswith("of") else -1].lower()] + " "


#: the kind of an age ("a 10-year-old", "6 months old"): a time, but no length of time, so never
#: compared with one ("every six hours")
AGE = "age"
_OLD = re.compile(r"\bold\b", re.IGNORECASE)


def quantities(text: str) -> list[Quantity]:
    """Every quantity stated in ``text``, in order. "half a gigabyte" is 0.5 GB.

    Each number reads a few dozen characters after it, and the word before it from an index of
    the text's words built once: reading the whole text before each number instead made a
    context of 16,000 numbers take 18 s, 32,000 a minute."""
    checkpoint()
    text = fractions_as_digits(strip_markers(text))
    text, found = _times_of_day(text)
    before = _WordsBefore(text)
    for m in _NUMBER.finditer(text):
        if m.group("digits") or m.group("words"):
            q = _amount(m, text, before)
            if q is not None:
                found.append((m.start(), q))
    return [q for _, q in sorted(found, key=lambda at_q: at_q[0])]


#: what joins the two times of a span of time: "from 11:00 to 12:30", "between 9 am and 5 pm", "9:00-17:00"
_SPAN_JOIN = re.compile(r"\s*(?:to|until|till|and|through|[-–—])\s*", re.IGNORECASE)
_SPAN_OPEN = re.compile(r"(?:from|between)\s*$", re.IGNORECASE)


def durations_between(text: str) -> list[Quantity]:
    """The length of each span of time ``text`` gives by its two ends: "from 11:00 to 12:30" states
    that something lasts 90 minutes, "shifts are from 6 am to 10 am" that a shift lasts four hours.
    An answer that says so restates the text; the number check and the contrast rule read these
    lengths as stated, never as a length another amount contradicts."""
    text = strip_markers(text)
    _, found = _times_of_day(text)
    out = []
    for (a, start), (b, end) in zip(found, found[1:]):
        gap = text[a + len(start.text) : b]
        opened = _SPAN_OPEN.search(text[max(0, a - 12) : a])  # "from 6 am to 10 am", or a dash: "9:00-17:00"
        if not _SPAN_JOIN.fullmatch(gap) or not (opened or gap.strip() in ("-", "–", "—")):
            continue
        minutes = (end.value - start.value) % 1440
        if minutes > 720 and "12h" in (start.unit, end.unit):  # "9 to 5" on one 12-hour clock
            minutes -= 720
        if minutes:
            out.append(Quantity(minutes, "minute", "[time]", f"{start.text}–{end.text}"))
    return out


def number_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every number ``text`` writes, in digits or in words ("three and a half
    million"), so that a cut between clauses never falls inside one."""
    return [m.span() for m in _NUMBER.finditer(text) if m.group("digits") or m.group("words")]


_OF = re.compile(r"\s+of\b")
_DIGIT_NEXT = re.compile(r"\s+[$€£]?\d")


def _amount(m: re.Match, text: str, before: _WordsBefore) -> Quantity | None:
    """The quantity a match of :data:`_NUMBER` states, with what it counts; None for a number that
    counts nothing ("one of the rooms")."""
    if not m.group(0).strip():
        return None
    value = _value(m)
    at = m.end()  # positions into ``text``, not slices of it: a slice per number copies the text's rest
    if m.group("digits") and not m.group("pct") and (end := _RANGE_END.match(text, at)):
        at = end.end()  # a range's first end takes the unit written after its second
    if value is None or (m.group("words") and (_OF.match(text, at) or _DIGIT_NEXT.match(text, at))):
        return None  # "one of the rooms"; "a half-hour one 15 euros": "one" is a pronoun there
    words = _WORD.findall(text, at, at + 40)
    if m.group("pct"):
        return Quantity(value, "percent", "percent", m.group(0).strip())
    if m.group("sign"):
        return Quantity(value, _CURRENCY_SIGNS[m.group("sign")], "currency", m.group(0).strip())
    found = _read_unit(words)
    if found is not None:
        (unit, kind), used = found
        if kind.startswith("currency:"):
            return Quantity(value, kind.split(":", 1)[1], "currency", f"{m.group(0).strip()} {used}")
        n = len(used.split())
        if kind == "[time]" and [w.lower() for w in words[n : n + 1]] == ["old"]:  # "a 10-year-old", "6 months old"
            old = _OLD.search(text, at)  # the word after the unit
            stop = old.end() if old else at
            return Quantity(value, unit, AGE, text[m.start() : stop].strip())  # as written: "10 year-old"
        return Quantity(value, unit, kind, f"{m.group(0).strip()} {used}")
    noun = next((w.lower() for w in words[:1] if w.lower() not in STOPWORDS), None)
    if noun is None:
        last = before.last_word(m.start())
        noun = "of " + last if last else ""
    return Quantity(value, "", "count:" + singular(noun), m.group(0).strip())


class _WordsBefore:
    """The last word that is not a stopword before any position of one text: what a number
    counts when no noun follows it ("a population of about 40,000"). The text's words are read
    once, when a number first needs one; each question is then a binary search."""

    def __init__(self, text: str):
        self._text = text
        self._starts: list[int] | None = None

    def _index(self) -> None:
        self._starts, self._ends, self._words, self._content = [], [], [], []
        last = -1  # the index of the last word so far that is not a stopword
        for i, w in enumerate(_WORD.finditer(self._text)):
            word = w.group().lower()
            self._starts.append(w.start())
            self._ends.append(w.end())
            self._words.append(word)
            last = i if word not in STOPWORDS else last
            self._content.append(last)

    def last_word(self, position: int) -> str | None:
        """The last non-stopword of ``text[:position]`` as :data:`_WORD` reads it, lower-cased;
        None if there is none. Exactly that reading, without reading the text up to ``position``:
        the words before the cut are the text's own, except near the cut, which is read again
        (a word it cuts, or "°C" that the next letters kept from being read as one)."""
        if self._starts is None or self._ends is None:
            self._index()
        assert self._starts is not None and self._ends is not None  # read by _index
        i = bisect_left(self._starts, position) - 1  # the last word starting before the cut
        if i < 0:
            lo, rest = max(0, position - 4), -1
        elif self._ends[i] <= position:
            lo, rest = max(self._ends[i], position - 4), i
        else:  # the cut goes through word i
            lo, rest = max(self._ends[i - 1] if i else 0, self._starts[i] - 3), i - 1
        for word in reversed(_WORD.findall(self._text, lo, position)):
            if word.lower() not in STOPWORDS:
                return word.lower()
        return self._words[self._content[rest]] if rest >= 0 and self._content[rest] >= 0 else None


def _times_of_day(text: str) -> tuple[str, list[tuple[int, Quantity]]]:
    """The times of day in ``text``, in minutes after midnight, each with its position, and the
    text with them blanked out: the hour of "9 PM" counts no "pm", nor is "22:40" two counts."""
    found: list[tuple[int, Quantity]] = []
    either = not _ONLY_24H.search(text)  # "6:30" is a.m. or p.m., unless the text keeps a 24-hour clock

    def add(at: int, minutes: int, unit: str, written: str) -> None:
        if written.endswith(".") and written[-3:-2] != ".":  # "6 PM." ends a sentence, "6 p.m." does not
            written = written[:-1]
        found.append((at, Quantity(float(minutes), unit, TIME_OF_DAY, written)))

    def on_12h_clock(m: re.Match) -> str:
        if not 1 <= int(m.group(1)) <= 12:  # "0am" is no time: a list number run into one ("1\n0am")
            return m.group(0)
        add(m.start(), hour_24(m) * 60 + int(m.group(2) or 0), "clock", m.group(0).strip())
        return " " * len(m.group(0))

    def on_24h_range(m: re.Match) -> str:
        for k in (1, 3):
            hour, minute = m.group(k), int(m.group(k + 1))
            add(m.start(k), int(hour) * 60 + minute, "clock", f"{hour}:{minute:02d}")
        return " " * len(m.group(0))

    def on_24h_clock(m: re.Match) -> str:
        hour = int(m.group(1))
        add(m.start(), hour * 60 + int(m.group(2)), "12h" if either and 1 <= hour <= 12 else "clock", m.group(0))
        return " " * len(m.group(0))

    def on_word(m: re.Match) -> str:
        add(m.start(), 0 if m.group(1).lower() == "midnight" else 720, "clock", m.group(0))
        return " " * len(m.group(0))

    text = CLOCK_12H.sub(on_12h_clock, text)
    if not either:
        text = _RANGE_24H.sub(on_24h_range, text)
    text = _CLOCK_24H.sub(on_24h_clock, text)
    text = _NOON.sub(on_word, text)
    return text, found


def _read_unit(words: list[str]) -> tuple[tuple[str, str], str] | None:
    """The unit the words after a number start with, as ((pint unit, kind), the words used)."""
    if not words:
        return None
    first = words[0].lower()
    if first in _CURRENCY_WORDS:
        return ("", "currency:" + _CURRENCY_WORDS[first]), words[0]
    if len(words) > 1:
        two = f"{words[0]} {words[1]}"
        if two.lower() in _SPELLED_UNITS or first in ("cubic", "square"):
            found = _unit(two if first in ("cubic", "square") else two.lower())
            if found:
                return found, two
    found = _unit(words[0])
    return (found, words[0]) if found else None


def singular(word: str) -> str:
    """The noun a count counts, as :class:`Quantity` kinds write it ("count:port" of "ports")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
