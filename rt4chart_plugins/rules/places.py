"""Where a claim puts something: a place phrase, read so that a place the context never names is a
missing fact.

An answer invents a place as often as a number ("The practice is on the first floor, opposite the
pharmacy.", "The depot is next to the motorway junction."), and the encoder reads such a sentence
as supported on the words it shares with the context. A place is read after a preposition that
only places, before a determiner ("next to the town hall"), or as a floor ("on the second floor").
"""

from __future__ import annotations

import re

from rt4chart_plugins.text.english import ORDINALS

#: the prepositions that say where something is and little else. Those that also measure against a
#: level or a time ("above the average", "below the poverty line", "near the end of the year",
#: "close to the deal") or make idioms ("behind the scenes", "in front of a judge") are left out:
#: on WiCE, "below the surface" was a supported claim's wording for what its article said otherwise
_WHERE = r"(?:next\s+to|adjacent\s+to|across\s+from|opposite|beside)"
#: the words that end a place's noun phrase: a conjunction, a relative or another preposition
_ENDS = r"(?:and|or|but|which|where|that|who|with|in|on|at|for|from|to|of|by|since|while|so|because|when)"
_PLACE = re.compile(
    rf"\b{_WHERE}\s+(?P<where>(?:the|a|an)\s+(?:(?!{_ENDS}\b)[\w'’-]+\s+){{0,3}}?(?!{_ENDS}\b)[\w'’-]+)"
    rf"(?=\s*(?:[,.;:!?)]|$|\s+{_ENDS}\b))",
    re.IGNORECASE,
)
_FLOOR = re.compile(r"\bon\s+the\s+(?P<where>\w+(?:\s+\w+)?\s+floor)\b", re.IGNORECASE)


def places(text: str) -> list[tuple[str, str]]:
    """(the place phrase as written, its noun phrase) for each place ``text`` gives: "next to the
    town hall" with "the town hall", "on the second floor" with "second floor"."""
    found = sorted([*_PLACE.finditer(text), *_FLOOR.finditer(text)], key=lambda m: m.start())
    return [(m.group(0), m.group("where")) for m in found]


def floor_named(where: str, source: str) -> bool | None:
    """For a floor ("second floor"), whether ``source`` names that floor: by its words before
    "floor", or by its number in either form ("2nd floor", "second floor", "floor 2"); None for a
    place that is no floor. A building's floors share their words, so a floor is not held word by
    word as other places are: "on the second floor" is not held by "the ground floor" and "every
    second Saturday"."""
    words = where.lower().split()
    if words[-1] != "floor":
        return None
    said = [re.escape(" ".join(words[:-1])) + r"\s+floor"]
    digits = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", words[-2])
    level = int(digits.group(1)) if digits else ORDINALS.get(words[-2])
    if level is not None:
        spelled = [w for w, n in ORDINALS.items() if n == level]
        said += [rf"(?:{'|'.join([*spelled, rf'{level}(?:st|nd|rd|th)'])})\s+floor", rf"floor\s+{level}\b"]
    return any(re.search(rf"\b{p}", source, re.IGNORECASE) for p in said)
