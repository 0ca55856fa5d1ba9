"""What a claim says a named thing is, between commas: an apposition, read so that a description the
context never gives is a missing fact.

"St Anne's Hall, a converted 19th-century church, hosts the concert." adds a property to a name the
context gives, and the encoder reads the sentence as supported on the rest of its words. The
description follows the name after a comma, opens with "a" or "an" and ends at a comma or at the
end of the claim (a clause the claims stage cut off: "The library, a three-storey building"); a
sentence-initial connective ("However, a reviewer said …") is no name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_APPOSITION = re.compile(
    r"(?P<name>\b[A-Z][\w'’.-]*(?:\s+(?:of\s+|the\s+)?[A-Z0-9][\w'’.-]*)*),\s+(?P<what>(?:a|an)\s+[^,;.()]{2,80}?)"
    r"(?:,|\s*[.!?]?\s*$)"
)


def appositions(text: str, is_name: Callable[[str], bool]) -> list[str]:
    """The descriptions ``text`` gives a name between commas ("a converted 19th-century church"),
    where ``is_name`` holds for a word of the name before them (the names check's reading of a
    capitalized word, so that "However" or "Yes" is none)."""
    return [m.group("what") for m in _APPOSITION.finditer(text) if any(is_name(w) for w in m.group("name").split())]
