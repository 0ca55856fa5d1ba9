"""Amounts with their units, compared as amounts: "12,000 metres" is "12 kilometres", "12 miles" is not.

The number/name check (:mod:`.facts`) compares bare numbers, so "The path is 12 miles long"
passes against "The path is 12 kilometres long" (12 is in the context), and "The tank holds two
cubic metres" fails against "The tank holds 2,000 litres" (2 is not). Here a quantity is a number
(digits, or number words: "forty thousand", "half a") with what it counts: a unit that pint
knows (lengths, masses, volumes, areas, durations, temperatures, speeds, energies, data sizes,
percentages), a currency, or else the noun it counts ("48 members") or, failing that, the word it
belongs to ("a population of about 40,000"). Two quantities of one kind are the same amount when
they agree (within 1 %, or 3 % once converted, since a conversion written out is rounded).

pint's registry costs about a second to build, so it is built the first time a number is
followed by a word that could be a unit.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from rt4chart_plugins.rules.text import CARDINALS, STOPWORDS, strip_markers

_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_VALUES = {**CARDINALS, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9}
_CURRENCY_SIGNS = {"$": "$", "€": "€", "£": "£"}
_CURRENCY_WORDS = {"dollar": "$", "dollars": "$", "usd": "$", "euro": "€", "euros": "€", "eur": "€",
                   "gbp": "£", "sterling": "£"}
#: words pint reads as units that in running text are something else ("in", "at", "a", "pm")
_NOT_UNITS = STOPWORDS | frozenset("pm am point points are percentile tonight min mil".split())
_SPELLED_UNITS = {"degrees celsius": "degC", "degree celsius": "degC", "degrees fahrenheit": "degF",
                  "degree fahrenheit": "degF", "°c": "degC", "°f": "degF", "kb": "kilobyte", "percent": "percent",
                  "per cent": "percent", "%": "percent"}
_NUMBER = re.compile(
    r"(?P<sign>[$€£])?\s?(?:(?<![\w.,])(?<![A-Za-z]-)(?P<digits>" + _DIGITS + r")(?![.,]?\d|-[A-Za-z])|(?P<words>(?:(?:" + "|".join(_WORD_VALUES)
    + r")(?:[\s-]+(?:and\s+a\s+half|" + "|".join(_WORD_VALUES) + r"))*)))"
    r"(?:\s+(?P<scale>" + "|".join(_SCALES) + r"))?\b(?P<pct>\s?%)?",
    re.IGNORECASE,
)
_WORD = re.compile(r"°\s?[CF]\b|[A-Za-z][A-Za-z/]*")
#: the second end of a range: "15-20 minutes", "10 to 12 minutes", "60-75°F"
_RANGE_END = re.compile(r"\s*(?:-|–|to)\s*(?:" + _DIGITS + r")(?=\s?°|\s|%|$|[,.;)])")


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
        unit = unit ** power
        dims = registry.Quantity(1, unit).dimensionality
        root = str(registry.Quantity(1, unit).to_root_units().units)
    if not dims:  # bytes and percent are both dimensionless to pint: tell them apart by their root
        return (str(unit), "data") if root == "bit" else (str(unit), "percent") if str(unit) == "percent" else None
    return str(unit), str(dims)


def _value(m: re.Match) -> float | None:
    if m.group("digits"):
        value = float(m.group("digits").replace(",", ""))
    else:
        parts = re.split(r"[\s-]+", m.group("words").lower())
        value, i = 0.0, 0
        while i < len(parts):
            if parts[i:i + 3] == ["and", "a", "half"]:
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


def quantities(text: str) -> list[Quantity]:
    """Every quantity stated in ``text``, in order. "half a gigabyte" is 0.5 GB."""
    text = re.sub(r"\bhalf an? (?=[a-z])", "0.5 ", strip_markers(text), flags=re.IGNORECASE)
    out: list[Quantity] = []
    for m in _NUMBER.finditer(text):
        if not (m.group("digits") or m.group("words")) or not m.group(0).strip():
            continue
        value = _value(m)
        rest = text[m.end():]
        if m.group("digits") and not m.group("pct") and (end := _RANGE_END.match(rest)):
            rest = rest[end.end():]  # a range's first end takes the unit written after its second
        if value is None or (m.group("words") and re.match(r"\s+of\b", rest)):
            continue  # "one of the rooms" counts nothing
        words = _WORD.findall(rest[:40])
        if m.group("pct"):
            out.append(Quantity(value, "percent", "percent", m.group(0).strip()))
            continue
        if m.group("sign"):
            out.append(Quantity(value, _CURRENCY_SIGNS[m.group("sign")], "currency", m.group(0).strip()))
            continue
        found = _read_unit(words)
        if found is not None:
            (unit, kind), used = found
            if kind.startswith("currency:"):
                out.append(Quantity(value, kind.split(":", 1)[1], "currency", f"{m.group(0).strip()} {used}"))
            else:
                out.append(Quantity(value, unit, kind, f"{m.group(0).strip()} {used}"))
            continue
        noun = next((w.lower() for w in words[:1] if w.lower() not in STOPWORDS), None)
        if noun is None:
            before = [w.lower() for w in _WORD.findall(text[:m.start()]) if w.lower() not in STOPWORDS]
            noun = "of " + before[-1] if before else ""
        out.append(Quantity(value, "", "count:" + _singular(noun), m.group(0).strip()))
    return out


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


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


#: how far a converted amount may be from the one written in the other unit (rounding)
CONVERSION_TOLERANCE = 0.03


def same_amount(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities of one kind agree: within 1 % in one unit, within 3 % once converted."""
    if a.kind != b.kind:
        return False
    if a.kind == "currency" and a.unit != b.unit:
        return False
    if a.kind.startswith("count:") or a.kind == "currency":
        return rounded_alike(a.value, b.value)
    if a.unit == b.unit:
        return math.isclose(a.value, b.value, rel_tol=0.01, abs_tol=1e-9)
    registry = _registry()
    try:
        with _LOCK:
            converted = registry.Quantity(a.value, a.unit).to(b.unit).magnitude
    except Exception:  # incompatible after all (pint's dimensionless units)
        return False
    # a conversion written out is rounded: 15 °C is 59 °F, written "60"
    return math.isclose(converted, b.value, rel_tol=CONVERSION_TOLERANCE, abs_tol=1e-9)


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
