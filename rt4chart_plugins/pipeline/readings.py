"""What the rules read of a context, kept for the next answers about the same context."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from rt4chart_plugins.rules import Reading, Rule


class ContextReadings:
    """The readings of the last few contexts, owned by one verifier: the answers of a batch often
    share a context (RAGTruth gives each six), and reading a long one is most of a rule's cost."""

    def __init__(self, size: int = 32):
        self._size = size
        self._kept: OrderedDict[tuple, Reading] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, rule: Rule, units: Sequence[str], context: str, question: str | None) -> Reading:
        key = (rule.name, tuple(units), context, question)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        reading = rule.read(units, context, question)  # two threads may both read it; one is kept
        with self._lock:
            self._kept[key] = reading
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return reading
