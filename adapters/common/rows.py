"""One framework row read, checked and verified, the same way in every adapter.

The checks are the contract of docs/output.md ("In an evaluation framework"): a row that cannot be
verified becomes a ``failed`` report with the reason, never an exception that ends a framework's
run over many rows; each adapter then hands that reason to its framework's own channel.
"""

from __future__ import annotations

import asyncio
from typing import Any, NamedTuple

from rt4chart_plugins.detector import Detector, failed_report
from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.types import Report


class Fields(NamedTuple):
    """What a framework calls the row's context and answer (``retrieved_contexts`` and
    ``response`` in ragas, ``retrieval_context`` and ``actual_output`` in DeepEval, ...), so that a
    row's reason names the field its user filled."""

    context: str
    answer: str


def read_row(context: Any, answer: Any, question: Any, fields: Fields) -> tuple[str | list[str], str, str | None]:
    """A framework row as the core takes it, or :class:`InvalidInput` saying why it cannot be
    verified: the checks every adapter shares (docs/output.md, "In an evaluation framework").

    A missing context is not an empty one, and an empty one is not evidence: verified against
    nothing, every claim would be baseless (NIC) and the row would read as a hallucination. Both
    are a row that cannot be verified, as are a context item that is not a string and a missing
    answer. A question that is not a string is left out (it only helps the judge)."""
    problems = [
        problem
        for problem in (_context_problem(context, fields.context), _answer_problem(answer, fields.answer))
        if problem
    ]
    if problems:
        raise InvalidInput("; ".join(problems))
    return (
        context if isinstance(context, str) else list(context),
        answer,
        question if isinstance(question, str) else None,
    )


def _context_problem(context: Any, field: str) -> str | None:
    if context is None:
        return f"{field} is missing: there is no context to verify the answer against"
    passages = [context] if isinstance(context, str) else context
    if not isinstance(passages, (list, tuple)):
        return f"{field} must be a list of strings, got {type(context).__name__}"
    bad = [
        f"item {i} is {'None' if p is None else type(p).__name__}"
        for i, p in enumerate(passages)
        if not isinstance(p, str)
    ]
    if bad:
        return f"{field} must hold strings: {', '.join(bad[:3])}" + (
            f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        )
    if not any(p.strip() for p in passages):
        return f"{field} is empty: there is no context to verify the answer against"
    return None


def _answer_problem(answer: Any, field: str) -> str | None:
    if answer is None:
        return f"{field} is missing: there is no answer to verify"
    if not isinstance(answer, str):
        return f"{field} must be a string, got {type(answer).__name__}"
    return None


async def averify_row(
    verifier: Detector, context: Any, answer: Any, question: Any, fields: Fields, *, timeout: float | None = None
) -> Report:
    """Verify one framework row (:func:`read_row`'s checks, then the detector, within ``timeout``
    seconds when one is set). Any failure (a row that cannot be verified, a judge that cannot be
    reached, the timeout) becomes a ``failed`` report whose ``error`` is the reason, so a framework
    run over many rows never dies on one of them; each adapter hands that reason to its
    framework's own channel for a row without a score."""
    try:
        context, answer, question = read_row(context, answer, question, fields)
        run = verifier.averify(context=context, answer=answer, question=question)
        return await (asyncio.wait_for(run, timeout) if timeout is not None else run)
    except asyncio.TimeoutError:
        return _failed(answer, question, TimeoutError(f"the row took longer than its timeout of {timeout:g} s"))
    except Exception as exc:  # noqa: BLE001 - a row's failure is its result
        return _failed(answer, question, exc)


def _failed(answer: Any, question: Any, exc: BaseException) -> Report:
    report = failed_report({"answer": answer if isinstance(answer, str) else ""}, exc)
    report.question = question if isinstance(question, str) else None
    return report


def row_error(report: Report) -> Exception:
    """The exception a row's ``failed`` report stands for, for an adapter told to raise
    (``on_error="raise"``): :class:`InvalidInput` for a row that cannot be verified,
    ``TimeoutError`` for one past its timeout, :class:`JudgeError` otherwise; the report rides
    along as ``.report``."""
    error = report.error or "verification failed"
    name, _, rest = error.partition(": ")
    kinds = {"InvalidInput": InvalidInput, "TimeoutError": TimeoutError}
    exc = kinds[name](rest) if name in kinds else JudgeError(error)  # the class says what the prefix said
    exc.report = report  # type: ignore[attr-defined]
    return exc
