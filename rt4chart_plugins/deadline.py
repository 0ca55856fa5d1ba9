"""A row's deadline, as the CPU-bound work of the row checks it.

An ``await`` can be cut from outside (``asyncio.wait_for``, a framework's own timeout), but work
running in a thread, or between two awaits, cannot: a 1 MB context's rules and premises hold a
thread for seconds, and a framework whose timeout fired would leave that thread running, or find
its event loop blocked until the work ended. So the work asks, at points a fraction of a second
apart (:func:`checkpoint`), whether the row it serves is past its deadline or was cancelled, and
stops there with :class:`DeadlinePassed`.

The row's :class:`Watch` travels in a context variable, which ``asyncio`` copies into the tasks
and ``asyncio.to_thread`` into the threads that the row starts; code outside any row (a
benchmark calling a rule directly) has none and is never stopped.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

from rt4chart_plugins.errors import Rt4chartError


class DeadlinePassed(Rt4chartError):
    """The row's work was stopped: its deadline passed, or whoever awaited it gave up (a
    framework's timeout). Not a :class:`~rt4chart_plugins.errors.JudgeError`: no claim is
    reported unjudged because of it, the row fails as a whole."""


class Watch:
    """One row's deadline (``seconds`` from now; None: none), the stage its work is in, and
    whether it was cancelled."""

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        self.ends = None if seconds is None else time.monotonic() + seconds
        self.stage = "starting"
        self.cancelled = False

    def cancel(self) -> None:
        """Whoever awaited the row gave up: its work stops at its next checkpoint."""
        self.cancelled = True

    @property
    def passed(self) -> bool:
        return self.cancelled or (self.ends is not None and time.monotonic() > self.ends)

    def reason(self) -> str:
        if self.cancelled and not (self.ends is not None and time.monotonic() > self.ends):
            return f"the row was cancelled by its caller while {self.stage}"
        return f"the row passed its deadline of {self.seconds:g} s while {self.stage}"


WATCH: ContextVar[Watch | None] = ContextVar("rt4chart_row_watch", default=None)


def checkpoint() -> None:
    """Raise :class:`DeadlinePassed` if the row this code serves is past its deadline or was
    cancelled; nothing outside a row. Cheap: call it once per sentence, claim or pair."""
    watch = WATCH.get()
    if watch is not None and watch.passed:
        raise DeadlinePassed(watch.reason())


def stage(name: str) -> None:
    """Say what the row's work is doing now, for the reason a deadline gives."""
    watch = WATCH.get()
    if watch is not None:
        watch.stage = name
