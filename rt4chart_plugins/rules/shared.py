"""One reading of a context's sentences, shared by every reader of that context.

The trained judge applies the contrast and record rules to the window it is given, and the
pipeline applies them again after the judge (``pipeline/overrides.py``); when the window is the
whole context, both would split, align and parse the same sentences. Keeping the last few
contexts' readings, keyed by their sentences, makes the second reading free: on RAGTruth test-150
the rules had taken a third of a batch's CPU time, more than the rest of the pipeline around the
encoder.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")

#: contexts kept per rule: more than the answers a batch has in flight at once
KEPT_CONTEXTS = 32
_EVERY: list[PerContext] = []


class PerContext(Generic[T]):
    """``make(units)`` for the last :data:`KEPT_CONTEXTS` contexts, each made once. What it makes
    is shared between threads, so it must not change after it is made except to memoize."""

    def __init__(self, make: Callable[[tuple[str, ...]], T], size: int = KEPT_CONTEXTS):
        self._make, self._size = make, size
        self._kept: OrderedDict[tuple[str, ...], T] = OrderedDict()
        self._lock = threading.Lock()
        _EVERY.append(self)

    def __call__(self, units: Sequence[str]) -> T:
        key = tuple(units)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        made = self._make(key)  # outside the lock: two threads may both make it, and one is kept
        with self._lock:
            self._kept[key] = made
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return made

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()


def forget_contexts() -> None:
    """Every rule forgets the contexts it read (a benchmark that times the same answers twice
    starts cold)."""
    for kept in _EVERY:
        kept.forget()
