"""One framework row read, checked and verified, the same way in every adapter.

The checks are the contract of docs/output.md ("In an evaluation framework"), worded as
``verify()`` and a batch word them: a row that cannot be verified becomes a ``failed`` report
with the reason, never an exception that ends a framework's run over many rows; each adapter
then hands that reason to its framework's own channel.
"""

from __future__ import annotations

import asyncio
from typing import Any, NamedTuple

from rt4chart_plugins.adapters.common.failure import RowFailure

from rt4chart_plugins.detector import Detector, failed_report, input_problems
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import Report


class Fields(NamedTuple):
    """What a framework calls the row's context and answer (``retrieved_contexts`` and
    ``response`` in ragas, ``retrieval_context`` and ``actual_output`` in DeepEval, ...), so that a
    row's reason names the field its user filled."""

    context: str
    answer: str


def read_row(context: Any, answer: Any, question: Any, fields: Fields) -> tuple[str | list[str], str, str | None]:
    """A framework row as the core takes it, or :class:`InvalidInput` saying why it cannot be
    verified, in the words ``verify()`` and a batch use
    (:func:`~rt4chart_plugins.detector.input_problems`), with the framework's names for the fields.

    A missing context is a row that cannot be verified, as are a context item that is not a
    string and a missing answer. An empty context is not missing: it grounds nothing, so the
    answer's claims are baseless (NIC), as in ``verify()`` and the CLI (docs/output.md, "An empty
    context"). A question that is not a string is left out (it only helps the judge)."""
    question = question if isinstance(question, str) else None
    problems = input_problems(context, answer, question, context_field=fields.context, answer_field=fields.answer)
    if problems:
        raise InvalidInput("; ".join(problems))
    return context if isinstance(context, str) else list(context), answer, question


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
        return failed_row(answer, question, TimeoutError(f"the row took longer than its timeout of {timeout:g} s"))
    except Exception as exc:  # noqa: BLE001 - a row's failure is its result
        return failed_row(answer, question, exc)


def failed_row(answer: Any, question: Any, exc: BaseException) -> Report:
    """The ``failed`` report of a row that raised ``exc``, with the exception carried beside it."""
    report = failed_report({"answer": answer if isinstance(answer, str) else ""}, exc)
    report.question = question if isinstance(question, str) else None
    report._failure = exc  # the class travels with the report: no adapter reads it back from the text
    return report


def row_error(report: Report) -> Exception:
    """The exception a row's ``failed`` report stands for, for an adapter told to raise
    (``on_error="raise"``): :class:`InvalidInput` for a row that cannot be verified,
    ``TimeoutError`` for one past its timeout, :class:`JudgeError` otherwise
    (:meth:`RowFailure.error`, from the exception the row raised, carried with the report);
    the report rides along as ``.report``."""
    failure = RowFailure.of(report)
    exc = failure.error()
    exc.report = report
    return exc
