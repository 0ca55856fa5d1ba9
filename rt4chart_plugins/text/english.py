"""Text helpers that every rule and the judges share, defined once: number words, clock times,
field names, list markers and text no encoder accepts (the words themselves: :mod:`.words`).

They are deliberately simple (regular expressions over English text): they serve to compare a
claim's words with a context's, not to parse either.
"""

from __future__ import annotations

import re

#: number words and their values, as both the number check and the amount reader read them
CARDINALS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "dozen": 12,
}

#: ordinal words and the numbers they stand for ("on the second floor", "the fifth time")
ORDINALS = dict(
    zip("first second third fourth fifth sixth seventh eighth ninth tenth".split(), range(1, 11), strict=True)
)

#: a 12-hour clock time ("10 PM", "5:30 p.m.", "9am"): groups hour, minutes (or None), a/p
CLOCK_12H = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
#: the same, as a pattern without groups, for building larger expressions
CLOCK_12H_PATTERN = r"\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\b\.?"

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def split_camel(text: str) -> str:
    """Field names read as words: "RestaurantsTakeOut" → "Restaurants Take Out", "HasTV" → "Has TV",
    "TVShow" → "TV Show"."""
    return _CAMEL.sub(" ", text)


def hour_24(match: re.Match) -> int:
    """The 24-hour hour of a :data:`CLOCK_12H` match ("10 PM" → 22, "12 am" → 0)."""
    return int(match.group(1)) % 12 + (12 if match.group(3).lower() == "p" else 0)


#: lone UTF-16 surrogates: Python strings may hold them (``"\\ud800"``, a pair split by a bad
#: decoder), but no UTF-8 encoder, tokenizer or JSON writer accepts them
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD. One code point for one, so every
    offset into the caller's text stays valid, and the report can always be written as JSON."""
    return _SURROGATE.sub("\ufffd", text)


#: list numbering and references to the passages are structure, not facts: "3.", "Step 4:",
#: "4  Serve with rice." (a step number and two spaces), "(Passage 2)"
_MARKERS = re.compile(
    r"(?im)^\s*(?:[*\-•]\s*)?(?:\d+[.)](?!\d)|\d+\s{2,}(?=[A-Z])|step\s+\d+\s*:?|question\s+\d+\s*:?|answer\s*:)"
    r"|\(?\bpassages?\s+\d+(?:\s*(?:,|and|&)\s*\d+)*\)?"
)


def strip_markers(text: str) -> str:
    """``text`` with list numbering and passage references blanked out."""
    return _MARKERS.sub(" ", text)
