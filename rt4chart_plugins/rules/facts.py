"""Cheap deterministic checks that back up a small judge: numbers and names the context lacks.

A 1.5B judge reads "The trial lasts 30 days" against "The trial lasts 14 days" as supported often
enough to matter; a string comparison does not. A claim is flagged when it states a number (a
count, an amount, a percentage, a year, a time of day) or a proper name that appears nowhere in the
context (nor in the question). Numbers are compared as values, so "5 PM" meets "17:00", "1,000"
meets "1000" and "five" meets "5".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from functools import cached_property

from rt4chart_plugins.rules.amounts import AmountIndex
from rt4chart_plugins.rules.appositions import appositions
from rt4chart_plugins.rules.dates import dates, days_known, months_known, months_named
from rt4chart_plugins.rules.derived import implied, shares
from rt4chart_plugins.rules.finding import Finding, RuleName, quoted
from rt4chart_plugins.rules.initialisms import SpelledSource, initialisms
from rt4chart_plugins.rules.novelty import Lexicon, content_tokens
from rt4chart_plugins.rules.places import floor_named, places
from rt4chart_plugins.rules.quantities import TIME_OF_DAY, fractions_as_digits, quantities, unit_of
from rt4chart_plugins.rules.records.regions import has_code, region_names
from rt4chart_plugins.text.english import CARDINALS, CLOCK_12H, ORDINALS, hour_24, strip_markers
from rt4chart_plugins.types import Label

_WORD_NUMBERS = {
    **CARDINALS,
    "zero": 0,
    "thousand": 1000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "noon": 12,
    "midnight": 0,
    "half": 0.5,
    "once": 1,
    "twice": 2,
    **ORDINALS,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
#: digits, with thousands separators, decimals or an exponent ("1e400"); ordinals' suffixes allowed
_NUMBER = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:st|nd|rd|th)?(?![\w])", re.IGNORECASE
)
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_CAPITALIZED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)*)")
_COMMON_CAPS = frozenset(
    "The This That These Those There Their They It Its In On At For From With However Also Overall Additionally "
    "Furthermore Moreover According Based Passage Passages Unfortunately Yes No Some Many Most While When Where "
    "What Which Who Why How If As An And But Or Not Both Each Other Another Such Our We You Your He She His Her "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August "
    "September October November December I".split()
)


#: a share written in words: "a fifth", "two thirds", "three quarters", "half" (of the grade, the
#: price). "A third customer" is an ordinal; it is read as a share only where the source states
#: that share as a percentage
_FRACTION_OF_WHOLE = re.compile(
    r"\b(?:(?P<count>a|one|two|three|four)\s+(?P<part>thirds?|quarters?|fifths?|tenths?)|(?P<half>half))\b",
    re.IGNORECASE,
)
_DENOMINATORS = {"third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
#: a multiple in words: "twice the child price", "three times as much"
_MULTIPLE = re.compile(r"\b(?:(?P<twice>twice)|(?P<count>two|three|four|five|ten)\s+times)\b", re.IGNORECASE)


def _fraction(m: re.Match) -> Decimal:
    if m.group("half"):
        return Decimal("0.5")
    count = 1 if m.group("count").lower() in ("a", "one") else CARDINALS[m.group("count").lower()]
    return round(Decimal(count) / _DENOMINATORS[m.group("part").lower().rstrip("s")], 4).normalize()


def _as_percent(value: float | Decimal) -> float:
    return round(float(value) * 100, 1)


_LINE_START = re.compile(r"(?m)^\s*(?:[*\-•]\s*)?([A-Z][a-z]+)")
#: a code: one word that mixes letters and digits ("Room C110", "5G", "an A4 sheet", "MP3"), not a
#: part of a hyphenated word ("Under-12s", "19th-century")
_CODE = re.compile(r"(?<![\w-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z\d]{2,}(?![\w-])")
#: what a number's letters make of it that is no code: an ordinal, a plural ("the 1990s"), a.m./p.m.,
#: an exponent ("1e400")
_NUMBER_SUFFIX = re.compile(r"\d+(?:st|nd|rd|th|s|am|pm|a|p|e\d+)", re.IGNORECASE)
_AMOUNT_WORD = re.compile(r"\d+(?:\.\d+)?([A-Za-z]{2,})")


def numbers(text: str, *, as_claim: bool = False) -> set[float | Decimal]:
    """Every numeric value stated in ``text``; a clock time counts as its 24-hour value (and, on
    the context side, also as written, so that either form of the claim finds it).

    Written numbers are read as :class:`~decimal.Decimal`, exact at any size: as floats, every
    number of 309 digits or more is the same infinity, and "1e400" would meet "1e401"."""
    text = fractions_as_digits(strip_markers(text))
    values: set[float | Decimal] = set()
    for m in CLOCK_12H.finditer(text):
        values.add(float(hour_24(m)))
    if as_claim:
        text = CLOCK_12H.sub(lambda m: f" {m.group(2) or ''} ", text)  # minutes stay, the 12-hour hour goes
    for m in _NUMBER.finditer(text):
        values.add(Decimal(m.group(1).replace(",", "")))  # exact: no context rounding
    for w in _WORDS.findall(text.lower()):
        parts = w.split("-")
        if w in _WORD_NUMBERS:
            values.add(float(_WORD_NUMBERS[w]))
        elif len(parts) == 2 and parts[0] in _TENS and CARDINALS.get(parts[1], 10) < 10:  # "twenty-four"
            values.add(float(_TENS[parts[0]] + CARDINALS[parts[1]]))
    return values


def names(text: str) -> set[str]:
    """Capitalized words that are not sentence-initial or common: candidate proper names."""
    text = strip_markers(text)
    line_initial = {m.start(1) for m in _LINE_START.finditer(text)}
    out: set[str] = set()
    for m in _CAPITALIZED.finditer(text):
        if m.start(1) in line_initial or text[: m.start(1)].rstrip().endswith((":", "(", '"', "“")):
            continue
        for word in m.group(1).split():
            if word not in _COMMON_CAPS:
                out.add(word.lower())
    return out


def codes(text: str) -> list[str]:
    """The codes ``text`` writes, as written: words that mix letters and digits, less numbers
    with an ordinal's, a plural's or a clock's letters, and amounts run into their unit ("20GB",
    "5km"), which the number check reads as numbers."""
    out = []
    for m in _CODE.finditer(strip_markers(text)):
        word = m.group(0)
        unit = _AMOUNT_WORD.fullmatch(word)
        if _NUMBER_SUFFIX.fullmatch(word) or (unit and unit_of(unit.group(1))):
            continue
        out.append(word)
    return out


class KnownFacts:
    """The numbers, amounts and words of one source (a context and its question), read once: a
    verification checks every claim of an answer against the same context, and reading a long
    context's numbers again for each claim cost more than the rest of the check.

    ``extended``: whether the readings added after the judges' decisions were fitted are made: a
    claim's dates and months read as such (a date the source gives no day of, a month it never
    names), its initialisms ("HDMI", "Wi-Fi"), its places ("next to the town hall") and the
    descriptions it gives a name between commas ("St Anne's Hall, a converted church, …"). The rule
    stage reads them against the whole context; a judge's decision reads its premise without them,
    as it was fitted: a premise is a few sentences, and a date or an initialism's spelled-out words
    are often in another."""

    def __init__(
        self,
        context: str,
        question: str | None = None,
        units: Sequence[str] | None = None,
        *,
        extended: bool = True,
    ):
        self.source = context + "\n" + (question or "")
        self.extended = extended
        self._units = list(units) if units is not None else context.splitlines()
        self._shares: set[float] | None = None
        self.numbers = numbers(self.source)
        self.lowered = self.source.lower()
        # the source's letters and digits alone: a code is known wherever it is written, "C 110" or "c-110"
        self._squashed = re.sub(r"[^a-z0-9]", "", self.lowered)
        self._amounts: list | None = None
        self._index = AmountIndex([])
        self._stated: set = set()

    def amounts(self) -> list:
        """The source's quantities, read when a claim first states a number the source lacks;
        also indexed, and their values kept, so that a claim's amounts are looked up rather than
        compared with every amount of a long context."""
        if self._amounts is None:
            amounts = quantities(self.source)
            self._index = AmountIndex(amounts + implied([self.source], amounts))
            self._stated = {_value(q.value) for q in amounts if q.kind != TIME_OF_DAY}
            self._amounts = amounts
        return self._amounts

    @cached_property
    def months(self) -> set[int]:
        """The months the source gives, read when a claim first names one."""
        return months_known(self.source)

    @cached_property
    def days(self) -> set[tuple[int, int]]:
        """The (day, month) pairs the source gives, read when a claim first writes a date."""
        return days_known(self.source)

    @cached_property
    def spelled(self) -> SpelledSource:
        """The source read for initialisms, when a claim first writes one."""
        return SpelledSource(self.source)

    @cached_property
    def lexicon(self) -> Lexicon:
        """The source's content words and their meanings, read when a claim first writes an
        initialism the source does not spell, a place or a description of a name."""
        return Lexicon(self.source)

    def shares(self) -> set[float]:
        """The shares, as percentages, that one amount of a context sentence is of another
        (:func:`~rt4chart_plugins.rules.derived.shares`), read when a claim first states one."""
        if self._shares is None:
            self._shares = shares(self._units)
        return self._shares

    def _supported(self, amount) -> bool:
        self.amounts()
        return self._index.supports(amount)

    def missing(self, claim: str) -> list[str]:
        """Numbers and names of the claim found nowhere in the source."""
        claimed = numbers(claim, as_claim=True)
        unknown = claimed - self.numbers
        written: list[str] = []  # amounts the claim states as one ("9 PM"), as it writes them
        mine = quantities(claim) if claimed else []
        # a time of day is known as a time of day, never by a bare number of the source: "It closes at
        # midnight" is not supported by a question of "0", nor "at 9 PM" by "21 tables"; its value
        # counts minutes, which no one writes, so it is named as written ("9 PM", not "21")
        for q in mine:
            if q.kind == TIME_OF_DAY:
                if not self._supported(q):
                    written.append(q.text)
                unknown -= numbers(q.text, as_claim=True)
        mine = [q for q in mine if q.kind != TIME_OF_DAY]
        if unknown:
            # "12,000 metres" against "12 kilometres": the same amount in another unit is known; so is
            # an amount in words whose value the source states ("forty thousand" against "40,000"),
            # though its words' own values ("forty", "thousand") are not
            known = set().union(
                *(numbers(q.text, as_claim=True) for q in mine if self._supported(q) or _value(q.value) in self.numbers)
            )
            # and the other way round: "40,000" against "forty thousand"
            self.amounts()
            unknown = {v for v in unknown - known if v not in self._stated}
            for q in mine:  # named as one amount: "40000", not "40" and "1000"
                parts = numbers(q.text, as_claim=True)
                if len(parts) > 1 and parts <= unknown:
                    unknown = (unknown - parts) | {_value(q.value)}
        # a share in words that the source states as a percentage ("half" as "50 percent", "a fifth"
        # as "20 percent"), or as two amounts of one sentence ("12 euros, students 6 euros": half),
        # is known, and so are its words' numbers ("fifth" read as an ordinal)
        plain = fractions_as_digits(strip_markers(claim))
        for m in _FRACTION_OF_WHOLE.finditer(plain):
            if (share := _as_percent(_fraction(m))) in self.numbers or share in self.shares():
                unknown -= numbers(m.group(0), as_claim=True)
        # and a multiple that two amounts of one sentence state ("8 euros for adults and 4 euros for
        # children": adults pay twice as much)
        for m in _MULTIPLE.finditer(plain):
            times = 2 if m.group("twice") else CARDINALS[m.group("count").lower()]
            if _as_percent(times) in self.shares():
                unknown -= numbers(m.group(0), as_claim=True)
        # a date is known as a date: "13 May" by "from 12 to 15 May", not by a "13" of the source,
        # and "30 December" not by its "30 percent"; one the source lacks is named as written, once,
        # where the source gives its month (a month it lacks is named below)
        for d in dates(claim) if self.extended else ():
            if (d.day, d.month) not in self.days and d.month in self.months:
                written.append(d.text)
            unknown.discard(Decimal(d.day))
        missing = written + [_fmt(v) for v in sorted(unknown) if v not in (0.0, 1.0)]
        missing += [c for c in dict.fromkeys(codes(claim)) if c.lower() not in self._squashed]
        # a month the source never gives, by any name or in digits ("due on 30 November" against a
        # course whose only date is in December); the names check passes months by, as common words
        if self.extended:
            missing += [word for month, word in months_named(claim).items() if month not in self.months]
            missing += [w for w in initialisms(claim) if not self.spelled.knows(w, self.lexicon)]
            # a place with a word the source lacks ("next to the town hall"), a floor it never names
            # ("on the second floor"), and a description of a name none of whose words it holds
            # ("St Anne's Hall, a converted 19th-century church, …"): a description is said in
            # words of the answer's own more often than a place is
            for phrase, where in places(claim):
                if numbered := self._numbers_named(phrase, missing):
                    # named as the place it is, not as its number: "on the fifth floor", not "5"
                    missing = [m for m in missing if m not in numbered] + [phrase]
                elif self._place_unheld(where):
                    missing.append(phrase)
            for what in appositions(claim, _a_name):
                if self._unheld(what) and not self._numbers_named(what, missing):
                    missing.append(what)
        # "Pennsylvania" against a record's "state": "PA" is the same place
        spelled = {w.lower() for name, code in region_names(claim) if has_code(self.source, code) for w in name.split()}
        missing += sorted(
            n
            for n in names(claim)
            if n not in self.lowered and n not in spelled and not _plural_of_known(n, self.lowered)
        )
        return missing

    def _place_unheld(self, where: str) -> bool:
        """Whether the source lacks the place ``where``: a floor it never names, or another place
        with a word it does not hold."""
        floor = floor_named(where, self.source)
        return not floor if floor is not None else self._unheld(where, every=True)

    def _unheld(self, words: str, *, every: bool = False) -> bool:
        """Whether no content word of ``words`` is held by the source; ``every``: whether any is
        not (a place: "next to the harbour car park" is not held by "Harbour House" and "Parking")."""
        held = [self.lexicon.holds(w) for w in content_tokens(words)]
        return bool(held) and not (all(held) if every else any(held))

    @staticmethod
    def _numbers_named(phrase: str, missing: list[str]) -> set[str]:
        """The numbers ``phrase`` holds that are already named missing: "on the fifth floor" is not
        named beside its "5"."""
        return {_fmt(v) for v in numbers(phrase, as_claim=True)} & set(missing)

    def check(self, claim: str) -> Finding | None:
        """:class:`Finding` protocol: NIC naming the claim's numbers and names the source lacks."""
        missing = self.missing(claim)
        if not missing:
            return None
        said = " or ".join(quoted(m) for m in missing)
        return Finding(
            "facts",
            "number or name",
            Label.NIC,
            (),
            f"Nothing in the context mentions {said}.",
            claim_says=", ".join(missing),
            missing=tuple(missing),
        )


class FactRule:
    """The fact check as a :class:`~rt4chart_plugins.rules.finding.Rule`. It only questions a
    claim the judge found supported: a judge that already flagged it has its own reason."""

    name: RuleName = "facts"
    overrules = frozenset({Label.ENT})
    by_sentence = False

    def read(self, units: Sequence[str], context: str, question: str | None) -> KnownFacts:
        return KnownFacts(context, question, units)


def unsupported_facts(claim: str, context: str, question: str | None = None, *, extended: bool = True) -> list[str]:
    """Numbers and names of the claim found nowhere in the context or the question (``extended``:
    see :class:`KnownFacts`)."""
    return KnownFacts(context, question, extended=extended).missing(claim)


def _a_name(word: str) -> bool:
    """Whether a capitalized word can be part of a name: not a common capitalized word ("However")."""
    return word[:1].isupper() and word not in _COMMON_CAPS


def _plural_of_known(name: str, lowered_source: str) -> bool:
    """ "Mondays" against "hours.Monday", "Americans" against "American": the plural of a word the
    source has is not a new name."""
    return (
        len(name) > 3 and name.endswith("s") and re.search(rf"\b{re.escape(name[:-1])}\b", lowered_source) is not None
    )


def _value(value: float) -> float | Decimal:
    """A quantity's value as :func:`numbers` keeps it: a whole number as an exact Decimal."""
    return Decimal(int(value)) if float(value).is_integer() else value


def _fmt(value: float | Decimal) -> str:
    """A value as the claim most likely wrote it: "1000", "2.5", "1E+400"."""
    d = Decimal(value) if isinstance(value, float) else value
    if d == d.to_integral_value() and d.adjusted() < 30:
        # written out digit by digit: quantize() would need the context's 28 digits of precision
        # and raises InvalidOperation on a 29-digit integer
        return format(d.to_integral_value(), "f")
    return str(d)
