"""The guard: act on a verification, claim by claim, before a user sees the answer.

``Verifier().guard(context, answer)`` takes out what the context contradicts or does not contain
(``policy="drop"``), marks it (``"flag"``) or refuses the answer (``"refuse"``), and with
``cite=True`` cites the sources of what it keeps; :class:`GuardOptions` carries those options
whole. :class:`StreamGuard` (with :func:`guard_stream`
and :func:`aguard_stream`) does the same to an answer that streams, sentence by sentence, for any
framework's guard. See docs/guard.md.
"""

from rt4chart_plugins.guard.citations import Sources
from rt4chart_plugins.guard.options import GuardOptions
from rt4chart_plugins.guard.policies import DEFAULT_MESSAGE, MARKS, guard_report
from rt4chart_plugins.guard.result import Citation, GuardedAnswer, GuardedClaim, OnError, Policy, Source
from rt4chart_plugins.guard.run import aguard
from rt4chart_plugins.guard.stream import CUT_OFF_MARK, StreamGuard, aguard_stream, guard_stream

__all__ = [
    "CUT_OFF_MARK",
    "DEFAULT_MESSAGE",
    "MARKS",
    "Citation",
    "GuardedAnswer",
    "GuardOptions",
    "GuardedClaim",
    "OnError",
    "Policy",
    "Source",
    "Sources",
    "StreamGuard",
    "aguard",
    "aguard_stream",
    "guard_report",
    "guard_stream",
]
