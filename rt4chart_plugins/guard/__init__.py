"""The guard: act on a verification, claim by claim, before a user sees the answer.

``Verifier().guard(context, answer)`` takes out what the context contradicts or does not contain
(``policy="drop"``), marks it (``"flag"``) or refuses the answer (``"refuse"``), and with
``cite=True`` cites the sources of what it keeps. See docs/guard.md.
"""

from rt4chart_plugins.guard.citations import Sources
from rt4chart_plugins.guard.policies import DEFAULT_MESSAGE, MARKS, guard_report
from rt4chart_plugins.guard.result import Citation, GuardedAnswer, GuardedClaim, OnError, Policy, Source
from rt4chart_plugins.guard.run import aguard

__all__ = [
    "DEFAULT_MESSAGE",
    "MARKS",
    "Citation",
    "GuardedAnswer",
    "GuardedClaim",
    "OnError",
    "Policy",
    "Source",
    "Sources",
    "aguard",
    "guard_report",
]
