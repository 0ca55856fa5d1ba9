"""Initialisms and mixed-case names a claim writes ("HDMI", "Wi-Fi", "CDs"), and whether its source
knows them: the fact check names one the source never writes, spells out or means.

The names check reads capitalized words of three letters or more; an initialism passes it by. An
invented "Free Wi-Fi is available on board." shares every other word with a ferry's timetable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property

from rt4chart_plugins.rules.novelty import Lexicon
from rt4chart_plugins.rules.records.regions import REGIONS
from rt4chart_plugins.text.english import strip_markers

#: a word that writes two or more capitals and no digit, alone or in a hyphenated word: an initialism
#: or a product's name ("HDMI", "SMS", "CDs", "Wi-Fi", "iPhone"), which the names check, reading
#: capitalized words, passes by
_INITIALISM = re.compile(r"(?<![\w.'’-])(?=(?:[a-z-]*[A-Z]){2})[A-Za-z]+(?:-[A-Za-z]+)*(?![\w-]|\.\w|['’](?!s\b))")
#: a hyphenated word of capitalized words ("Coca-Cola"), which the names check reads word by word
_NAME_WORDS = re.compile(r"[A-Z][a-z]{2,}(?:-[A-Z][a-z]{2,})*")
_ROMAN = re.compile(r"[IVXLC]+")
#: the cosine of two words' static vectors at which an initialism means a word of the source: unrelated
#: words of the everyday sets come to at most 0.45 ("UK" against a museum's words), a synonym to
#: 0.73 ("RAM" against "memory")
SAME_MEANING = 0.6
#: the words an initialism may leave out of what it spells ("EU" for "the European Union", "BA" for
#: "Bachelor of Arts")
_SMALL_WORDS = frozenset({"of", "and", "the", "for", "&", "a", "in", "on", "to"})


def initialisms(text: str) -> list[str]:
    """The initialisms and mixed-case names ``text`` writes, as written, less Roman numerals and
    what follows a number (a unit or a clock's letters: "20 GB", "9 PM"), in text that is not
    written in capitals throughout."""
    text = strip_markers(text)
    letters = [c for c in text if c.isalpha()]
    if not letters or _capitals(text) > len(letters) / 2:
        return []
    out = []
    for m in _INITIALISM.finditer(text):
        word = _core(m.group(0))
        bare = word[:-1] if word.endswith("s") and word[:-1].isupper() else word  # "CDs"
        after_number = re.search(r"\d\s?$", text[: m.start()]) is not None  # "9 PM", "20 GB": an amount's
        if after_number or _ROMAN.fullmatch(bare) or _NAME_WORDS.fullmatch(word):
            continue
        out.append(word)
    return list(dict.fromkeys(out))


def _capitals(word: str) -> int:
    return sum(c.isupper() for c in word)


def _core(word: str) -> str:
    """A hyphenated word's initialism without the words it is joined to ("Ex-FBI", "FBI-led"), where
    what is left still writes two capitals ("Wi-Fi" and "USB-C" stay whole)."""
    parts = word.split("-")
    while len(parts) > 1 and len(parts[0]) > 1 and _capitals(parts[0]) <= 1 and _capitals("".join(parts[1:])) >= 2:
        parts = parts[1:]
    while len(parts) > 1 and len(parts[-1]) > 1 and _capitals(parts[-1]) <= 1 and _capitals("".join(parts[:-1])) >= 2:
        parts = parts[:-1]
    return "-".join(parts)


def spelled_out(letters: str, words: Sequence[str]) -> bool:
    """Whether ``letters`` (an initialism in lower case) is spelled by a run of ``words``, each giving
    the first letter or letters of its word in turn, small words given or left out: "eu" by "the
    European Union", "apha" by "American Pharmacists Association", "isil" by "Islamic State in
    Iraq and the Levant"."""

    def spells(rest: str, j: int, used: int) -> bool:
        if not rest:
            return used >= 2
        if j >= len(words) or used > 8:
            return False
        w = words[j]
        if w in _SMALL_WORDS and spells(rest, j + 1, used):
            return True
        return any(
            rest[:p] == w[:p] and spells(rest[p:], j + 1, used + 1) for p in range(1, min(len(w), len(rest)) + 1)
        )

    return any(w[0] == letters[0] and w not in _SMALL_WORDS and spells(letters, i, 0) for i, w in enumerate(words))


class SpelledSource:
    """A source (a context and its question) read for initialisms once: its words, and its
    run-together words apart."""

    def __init__(self, source: str):
        self.source = source
        self.lowered = source.lower()

    @cached_property
    def words(self) -> list[str]:
        """The source's words in lower case, read when a claim first writes an initialism."""
        return re.findall(r"[a-z&]+", self.lowered)

    @cached_property
    def words_apart(self) -> str:
        """The source in lower case with its run-together words apart: a record's "HasTV" as "has tv"."""
        return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", self.source).lower()

    def knows(self, word: str, lexicon: Lexicon) -> bool:
        """Whether the source writes ``word`` in any case, with or without hyphens, stops or spaces
        between its letters ("Wi-Fi" as "wifi", "US" as "U.S.", "TV" in a record's "HasTV"), in
        either number ("CDs" as "CD", "DVD" as "DVDs"), or spells it out (:func:`spelled_out`), or
        writes it less its last letter ("LGBT" for "LGBTQ"), or the state a postal code stands for;
        or when a word of the source means what it does ("RAM" for "memory",
        "TV" for "television"), by the static word vectors the added-words signal reads
        (``lexicon``, the source's: :mod:`.novelty`), at a cosine of :data:`SAME_MEANING`."""
        for form in dict.fromkeys((word, word[:-1] if word.endswith("s") else word)):
            squashed = re.sub(r"[^a-z]", "", form.lower())
            gaps = r"[\s.\-]?".join(map(re.escape, squashed))
            if re.search(rf"(?<![a-z0-9]){gaps}(?:s|['’]s)?(?![a-z0-9])", self.words_apart) or spelled_out(
                squashed, self.words
            ):
                return True
        # a state's postal code the source spells out ("WI" for "Wisconsin"), or a known initialism
        # with a letter more ("LGBTQ" where the source writes "LGBT")
        if word in REGIONS and re.search(rf"\b{REGIONS[word].lower()}\b", self.lowered):
            return True
        if len(word) >= 4 and word.isupper() and re.search(rf"(?<![A-Za-z]){word[:-1]}(?![A-Za-z])", self.source):
            return True
        return lexicon.closest(word.lower()) >= SAME_MEANING
