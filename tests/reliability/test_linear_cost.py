"""Cost that grows with the input, not with a product of its parts: counted, not timed.

Each test counts work that a quadratic reading would repeat (characters a regular expression
scans, Python calls made, passes over the input rows) at two sizes, so that it holds on any
machine and under any load. The times themselves are the scale benchmark's
(``rt4chart bench-scale``, docs/reliability.md).
"""

from __future__ import annotations

import json

from rt4chart_plugins.rules import quantities as quantities_module
from rt4chart_plugins.rules.facts import unsupported_facts


class _Scanned:
    """A compiled pattern that counts the characters its calls may scan."""

    def __init__(self, pattern):
        self.pattern, self.chars = pattern, 0

    def _count(self, string: str, pos: int = 0, endpos: int | None = None) -> tuple[int, int]:
        end = len(string) if endpos is None else min(endpos, len(string))
        self.chars += max(end - pos, 0)
        return pos, end

    def findall(self, string, pos=0, endpos=None):
        return self.pattern.findall(string, *self._count(string, pos, endpos))

    def finditer(self, string, pos=0, endpos=None):
        return self.pattern.finditer(string, *self._count(string, pos, endpos))

    def match(self, string, pos=0, endpos=None):
        return self.pattern.match(string, *self._count(string, pos, endpos))


def _scanned_for(numbers: int, monkeypatch) -> int:
    scanned = _Scanned(quantities_module._WORD)
    monkeypatch.setattr(quantities_module, "_WORD", scanned)
    assert unsupported_facts("It is 12 km long.", json.dumps({"a": [1] * numbers})) == ["12"]
    return scanned.chars


def test_the_fact_check_reads_a_context_of_many_numbers_once(monkeypatch):
    """16,000 numbers took 18 s: each number read the whole text before it for the word it counts."""
    assert _scanned_for(8000, monkeypatch) < 2.5 * _scanned_for(4000, monkeypatch)  # the quadratic reading: 4 times
