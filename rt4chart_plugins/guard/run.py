"""One answer verified and guarded: what ``Verifier.guard`` and ``Verifier.aguard`` run.

Any detector's report can be guarded (the adapters guard the reports they verified themselves);
this is the path from a (context, answer, question) to a :class:`GuardedAnswer`, with a failure
to verify turned into a failed report, so that ``on_error`` decides what the caller gets.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rt4chart_plugins.detector import Detector, failed_report
from rt4chart_plugins.guard.options import GuardOptions, given
from rt4chart_plugins.guard.policies import guard_report
from rt4chart_plugins.guard.result import GuardedAnswer


async def aguard(
    detector: Detector,
    context: str | list[str],
    answer: str,
    question: str | None = None,
    *,
    options: GuardOptions | None = None,
    **keywords: Any,
) -> GuardedAnswer:
    """Verify the answer with ``detector``, then guard it (:func:`guard_report`) under ``options``
    (a :class:`GuardOptions`, or its keywords). They are checked before any work, so a misspelt
    policy is an error, not an unguarded answer."""
    options = given(options, keywords)
    error: BaseException | None = None
    try:
        report = await detector.averify(context=context, answer=answer, question=question)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - a row that cannot be verified is a failed report; on_error decides
        report = failed_report({"answer": answer}, exc)
        error = exc
    return guard_report(report, options, passages=context if isinstance(context, list) else None, error=error)
