"""Edit kinds that change a value: number, date, time, unit.

A wrong figure is the most frequent contradiction in summaries and answers, and the hardest for a
judge that matches words, so each edit keeps the value's surface (its format, separators and
unit) and changes only what it says. Values under a bound ("more than 50", "over 5 years") are
left alone: moving a bound can keep the claim true. Approximate values ("about 50") move far.
"""

from __future__ import annotations

import random
import re

from .registry import ContextInfo, edit_kind, pick
from .text import CALENDAR, FUNCTION_WORDS, MONTHS, WEEKDAYS, match_case, replace, tokens

_NUMBER = re.compile(
    r"(?<![\w.,/:\-])(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<dec>\.\d+)?"
    r"(?P<suf>%|bn|km|kg|mm|cm|ft|lbs|lb|mph|m|k|g)?(?![\w/:])(?![.,]\d)"
)
_YEAR = re.compile(r"(?<![\w.,$£€\-/:])(?P<year>1\d\d\d|20\d\d)(?![\w%]|[.,]\d|[\-–/]\d\d\b)")
_CLOCK = re.compile(
    r"(?<![\w:.])(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?![\w:]|\.\d)(?P<ap>\s?(?:[ap]\.m\.|[AP]\.M\.|[ap]m\b|[AP]M\b))?"
)
_AMPM = re.compile(r"(?<![\w:.])(?P<h>\d{1,2})(?P<ap>\s?(?:[ap]\.m\.|[AP]\.M\.|[ap]m\b|[AP]M\b))")
_BOUND = re.compile(
    r"\b(?:(?:more|fewer|less|greater|higher|lower)\s+than|at least|at most|up to|over|under|above|"
    r"below|exceeding|upwards of|in excess of|as many as|as much as|as few as|nearly|almost|beyond|"
    r"within)\s*$",
    re.IGNORECASE,
)
_APPROX = re.compile(
    r"\b(about|around|approximately|roughly|some|an estimated|estimated|circa|ca\.|~)\s*$", re.IGNORECASE
)
_NUMBER_WORDS = {
    w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}


def _bounded(before: str) -> bool:
    """The value is a bound or an approximation from below ("more than", "over", "nearly")."""
    tail = re.sub(r"[$£€]\s*$", "", before.rstrip()).rstrip()
    return bool(_BOUND.search(tail[-40:]))


def _approx(before: str) -> bool:
    tail = re.sub(r"[$£€]\s*$", "", before.rstrip()).rstrip()
    return bool(_APPROX.search(tail[-30:]))


def _name_before(before: str) -> bool:
    """The number follows a name-like capitalized word ("Windows 10", "Chapter 11", "G 20")."""
    toks = tokens(before)
    if not toks:
        return False
    last = toks[-1]
    return last.is_word and last.is_cap and last.low not in FUNCTION_WORDS and last.low not in CALENDAR


def _new_amount(scaled: int, decimals: int, rng: random.Random, *, far: bool, percent: bool) -> int | None:
    """A different plausible amount, in units of 10**-decimals, rounded like the original."""
    if decimals == 0 and scaled <= 10 and not far:
        choices = [x for x in range(max(2, scaled - 3), scaled + 4) if x != scaled]
        return rng.choice(choices) if scaled >= 2 else None
    if scaled <= 0:
        return None
    zeros = len(str(scaled)) - len(str(scaled).rstrip("0"))
    step = 10 ** min(zeros, len(str(scaled)) - 1)
    factors = [0.25, 0.4, 2.5, 3.0] if far else [0.5, 0.6, 0.75, 1.25, 1.5, 2.0]
    for _ in range(12):
        new = int(round(scaled * rng.choice(factors) / step)) * step
        if new > 0 and new != scaled and not (percent and new > 100 * 10**decimals):
            return new
    return None


def _format(amount: int, decimals: int, commas: bool) -> str:
    whole, frac = divmod(amount, 10**decimals)
    text = f"{whole:,}" if commas else str(whole)
    return text + ("." + str(frac).zfill(decimals) if decimals else "")


@edit_kind("number", "CON")
def number(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Change one number (not a year, not part of a name) by a plausible amount, same format.

    Small counts move by 1-3 (never to or from 1, which would break "1 person"/"3 people"); larger
    amounts are scaled and re-rounded to the original's precision; percentages stay <= 100.
    """
    cands: list[str] = []
    for m in _NUMBER.finditer(sentence):
        int_part, dec, suf = m.group("int"), m.group("dec") or "", m.group("suf") or ""
        digits = int_part.replace(",", "")
        before = sentence[: m.start()]
        if len(digits) > 7 or (len(digits) > 1 and digits.startswith("0")) or len(dec) > 4:
            continue
        if not dec and not suf and "," not in int_part and 1000 <= int(digits) <= 2099:
            continue  # a year: the date edit's business
        if _bounded(before) or _name_before(before) or before.rstrip().endswith(("#", "No.", "no.")):
            continue
        if not before.strip() and re.match(r"[.)]", sentence[m.end() :]):
            continue  # a list marker ("8) The document ...", "2. Use a thermometer"), not a value
        decimals = len(dec) - 1 if dec else 0
        scaled = int(digits + dec[1:])
        percent = suf == "%" or bool(re.match(r"\s*(percent|per cent)\b", sentence[m.end() :]))
        new = _new_amount(scaled, decimals, rng, far=_approx(before), percent=percent)
        if new is None:
            continue
        text = _format(new, decimals, "," in int_part) + suf
        cands.append(replace(sentence, m.start(), m.end(), text))
    for tok in tokens(sentence):
        value = _NUMBER_WORDS.get(tok.low)
        if value is None or value < 2 or tok.text[:1].isupper() and tok.start > 0:
            continue
        if _bounded(sentence[: tok.start]):
            continue
        choices = [w for w, n in _NUMBER_WORDS.items() if 2 <= n <= 12 and n != value and abs(n - value) <= 3]
        cands.append(replace(sentence, tok.start, tok.end, match_case(rng.choice(choices), tok.text)))
    return pick(rng, cands)


_MONTH_CUES = frozenset("in of early late mid since until by last next this from to during through".split())


@edit_kind("date", "CON")
def date(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Move a year by 1-5, or swap a month or a weekday for another.

    Dates anchor events, and a date one year off reads just like the right one. "May" and
    "March" are months only where a date cue says so (a day number, "in", "since", ...).
    """
    cands: list[str] = []
    for m in _YEAR.finditer(sentence):
        year = int(m.group("year"))
        new = year + rng.choice([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5])
        if 1000 <= new <= 2099:
            cands.append(replace(sentence, m.start(), m.end(), str(new)))
    toks = tokens(sentence)
    for i, tok in enumerate(toks):
        prev = toks[i - 1].low if i > 0 else ""
        nxt = toks[i + 1].text if i + 1 < len(toks) else ""
        if tok.text in MONTHS:
            dated = nxt[:1].isdigit() or prev in _MONTH_CUES or prev[:1].isdigit()
            if tok.text in {"May", "March"} and not dated:
                continue
            if i == 0 and not dated:
                continue
            cands.append(replace(sentence, tok.start, tok.end, rng.choice([x for x in MONTHS if x != tok.text])))
        elif tok.text in WEEKDAYS:
            cands.append(replace(sentence, tok.start, tok.end, rng.choice([x for x in WEEKDAYS if x != tok.text])))
    return pick(rng, cands)


@edit_kind("time", "CON")
def time(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Move a clock time ("10:30", "7 pm") by 1-4 hours, keeping its notation."""
    cands: list[str] = []
    for pattern in (_CLOCK, _AMPM):
        for m in pattern.finditer(sentence):
            hour, ap = int(m.group("h")), m.group("ap")
            if pattern is _AMPM and re.match(r"[:.]\d", sentence[m.end("h") :]):
                continue
            if _name_before(sentence[: m.start()]):
                continue  # "John 3:16"
            delta = rng.choice([-4, -3, -2, -1, 1, 2, 3, 4])
            if ap:
                if not 1 <= hour <= 12:
                    continue
                new = (hour - 1 + delta) % 12 + 1
            else:
                if hour > 23:
                    continue
                new = (hour + delta) % 24
            text = str(new).zfill(len(m.group("h"))) if m.group("h").startswith("0") else str(new)
            cands.append(replace(sentence, m.start("h"), m.end("h"), text))
    return pick(rng, cands)


#: Swaps within one family of units; singular to singular, plural to plural.
_UNITS = {
    "second": ["minute"], "seconds": ["minutes"], "minute": ["second", "hour"], "minutes": ["seconds", "hours"],
    "hour": ["minute", "day"], "hours": ["minutes", "days"], "day": ["week", "hour"], "days": ["weeks", "hours"],
    "week": ["month", "day"], "weeks": ["months", "days"], "month": ["year", "week"], "months": ["years", "weeks"],
    "year": ["month", "decade"], "years": ["months", "decades"], "decades": ["years", "centuries"],
    "km": ["miles"], "kilometres": ["miles"], "kilometers": ["miles"], "kilometre": ["mile"], "kilometer": ["mile"],
    "miles": ["kilometres"], "mile": ["kilometre"], "metres": ["feet"], "meters": ["feet"], "feet": ["metres"],
    "centimetres": ["inches"], "centimeters": ["inches"], "cm": ["inches"], "inches": ["centimetres"],
    "kg": ["pounds"], "kilograms": ["pounds"], "kilos": ["pounds"], "lbs": ["kg"], "grams": ["ounces"],
    "ounces": ["grams"], "tonnes": ["kilograms"], "tons": ["kilograms"],
    "million": ["billion", "thousand"], "billion": ["million", "trillion"], "thousand": ["million"],
    "trillion": ["billion"], "millions": ["billions", "thousands"], "billions": ["millions"],
    "thousands": ["millions", "hundreds"], "hundreds": ["thousands"],
    "celsius": ["Fahrenheit"], "fahrenheit": ["Celsius"],
    "kb": ["MB"], "mb": ["GB"], "gb": ["MB", "TB"], "tb": ["GB"], "kw": ["MW"], "mw": ["kW"],
}
_UNIT_WORDS = "|".join(sorted(_UNITS, key=len, reverse=True))
_SPELLED = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|several|dozens"
_AFTER_NUMBER = re.compile(
    rf"(?P<num>(?<![\w.])\d[\d,.]*|\b(?:{_SPELLED}))(?P<sep>\s|-|\s?°\s?)(?P<unit>{_UNIT_WORDS})\b", re.IGNORECASE
)
_MAGNITUDE_OF = re.compile(r"\b(?P<unit>millions|billions|thousands|hundreds)(?=\s+of\b)", re.IGNORECASE)
_MONEY_SUFFIX = re.compile(r"(?<=[$£€])(?P<num>\d[\d,.]*)(?P<unit>m|bn|k)\b")
_MONEY_SWAP = {"m": ["bn", "k"], "bn": ["m"], "k": ["m"]}


@edit_kind("unit", "CON")
def unit(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Swap a unit for another of its family: km <-> miles, minutes <-> hours, million <-> billion.

    The number stays, so the claim looks as precise as before and states a different quantity.
    Only units after a number ("5 km", "$3bn", "18-year-old") or "millions of" are touched; the
    percent/percentage-point swap is left out because judges rarely treat it as a contradiction.
    """
    cands: list[str] = []
    for m in _AFTER_NUMBER.finditer(sentence):
        if _bounded(sentence[: m.start()]):
            continue
        word = m.group("unit")
        options = _UNITS[word.lower()]
        new = rng.choice(options)
        if word.lower() not in {"kb", "mb", "gb", "tb", "kw", "mw", "celsius", "fahrenheit"}:
            new = match_case(new, word) if not (len(word) > 1 and word.isupper()) else new.upper()
        cands.append(replace(sentence, m.start("unit"), m.end("unit"), new))
    for m in _MAGNITUDE_OF.finditer(sentence):
        word = m.group("unit")
        cands.append(replace(sentence, m.start(), m.end(), match_case(rng.choice(_UNITS[word.lower()]), word)))
    for m in _MONEY_SUFFIX.finditer(sentence):
        if _bounded(sentence[: m.start() - 1]):
            continue
        cands.append(replace(sentence, m.start("unit"), m.end("unit"), rng.choice(_MONEY_SWAP[m.group("unit")])))
    return pick(rng, cands)
