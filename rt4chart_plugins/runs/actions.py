"""What a run does to each row: verify it, or guard it. An action is one small class: the settings
its rows' fingerprints take, the line of a done row and of a row that cannot be read, how it reads
a line an earlier run wrote, and ``run``, which does the good rows and hands each line to ``write``
as soon as it is done. The loop (:mod:`rt4chart_plugins.runs.local`) and everything around it
(ids, resume, the summary, the formats) are the same for every action.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from pydantic import BaseModel

from rt4chart_plugins.config import AtLeastOne, checked
from rt4chart_plugins.detector import Detector, failed_report, run_sync
from rt4chart_plugins.errors import JudgeUnavailable
from rt4chart_plugins.guard import GuardedAnswer, aguard, guard_report
from rt4chart_plugins.guard.options import GuardOptions
from rt4chart_plugins.runs.formats import Format
from rt4chart_plugins.runs.rows_in import InputRow
from rt4chart_plugins.runs.rows_out import Line, LineState, verify_line, verify_line_state
from rt4chart_plugins.runs.spec import detector_settings
from rt4chart_plugins.types import BatchRow, Report, VerifyInput

Write = Callable[[Line], bool]


class Action(Protocol):
    name: str  # the progress bar's word
    formats: tuple[Format, ...]  # what its lines may be written as
    settings: str  # the run's part of each row's fingerprint

    def failed(self, row: InputRow, error: Exception) -> Line: ...

    def state(self, line: str) -> LineState | None: ...

    def parse(self, line: str) -> BaseModel: ...

    def run(self, rows: Sequence[InputRow], write: Write) -> None: ...


class Verify:
    """Each row verified: its line is :class:`BatchRow`'s (the report, or why there is none).
    ``run`` lets :class:`~rt4chart_plugins.errors.JudgeUnavailable` through: the run stops."""

    name = "verify"
    formats: tuple[Format, ...] = ("jsonl", "csv", "text")

    def __init__(self, detector: Detector, concurrency: int = 2):
        self.detector = detector
        self.concurrency = checked("concurrency", concurrency, AtLeastOne)
        self.settings = detector_settings(detector)  # before the judge loads, as the Ray driver reads it

    def failed(self, row: InputRow, error: Exception) -> Line:
        return verify_line(row, error)

    def state(self, line: str) -> LineState | None:
        return verify_line_state(line)

    def parse(self, line: str) -> BaseModel:
        return BatchRow.model_validate_json(line)

    def run(self, rows: Sequence[InputRow], write: Write) -> None:
        self.detector.prepare()  # the model loads now, not in the first row's time

        def on_result(k: int, report: Report) -> None:
            write(verify_line(rows[k], report))

        self.detector.verify_many(
            [r.row for r in rows],  # type: ignore[misc]
            concurrency=self.concurrency,
            on_result=on_result,
            keep=False,
        )


class GuardLine(BaseModel):
    """What resume reads of a guard line: ``{"id": ..., **GuardedAnswer, "fingerprint": ...}``."""

    id: str
    status: str
    fingerprint: str | None = None


class Guard:
    """Each row verified and guarded (:class:`GuardOptions`, passed whole): its line is
    ``{"id": ..., **GuardedAnswer, "fingerprint": ...}``. A row is done when it is guarded or
    refused; one that could not be verified (``failed``, or ``unverified`` under
    ``on_error="pass"``) counts as failed, and a re-run retries it. An endpoint that serves no row
    (:class:`~rt4chart_plugins.errors.JudgeUnavailable`) stops the run, as it stops ``verify``'s."""

    name = "guard"
    formats: tuple[Format, ...] = ("jsonl",)

    def __init__(self, detector: Detector, options: GuardOptions, concurrency: int = 2):
        self.detector = detector
        # a batch writes every row: a row that cannot be verified is its line, never an error
        self.options = options.but(on_error="report") if options.on_error == "raise" else options
        # while it is guarded, such a row raises, so that an endpoint that serves no row stops the run
        self.raising = options.but(on_error="raise")
        self.concurrency = checked("concurrency", concurrency, AtLeastOne)
        self.settings = json.dumps([detector_settings(detector), self.options.model_dump(mode="json")], sort_keys=True)

    def line(self, row: InputRow, guarded: GuardedAnswer) -> Line:
        body = guarded.model_dump_json()
        text = f'{{"id":{json.dumps(row.id)},{body[1:-1]},"fingerprint":{json.dumps(row.fingerprint)}}}'
        return Line(row.id, text, guarded.status in ("guarded", "refused"), guarded)

    def failed(self, row: InputRow, error: Exception) -> Line:
        report = failed_report({}, error)  # worded as verify words a bad row
        return self.line(row, guard_report(report, self.options))

    def state(self, line: str) -> LineState | None:
        try:
            read = GuardLine.model_validate_json(line)
        except ValueError:  # a ValidationError: a line cut by an interruption
            return None
        return read.id, read.status in ("guarded", "refused"), read.fingerprint

    def parse(self, line: str) -> BaseModel:
        return GuardLine.model_validate_json(line)

    async def guard(self, row: VerifyInput) -> GuardedAnswer:
        """One row guarded; :class:`JudgeUnavailable` goes up, to stop the run as ``verify``'s does."""
        try:
            return await aguard(self.detector, row.context, row.answer, row.question, options=self.raising)
        except JudgeUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - the row could not be verified: its options say what it becomes
            report = getattr(exc, "report", None)
            if not isinstance(report, Report):
                report = failed_report({"answer": row.answer}, exc)
            passages = row.context if isinstance(row.context, list) else None
            return guard_report(report, self.options, passages=passages, error=exc)

    def run(self, rows: Sequence[InputRow], write: Write) -> None:
        self.detector.prepare()

        async def worker(queue: Iterator[InputRow]) -> None:
            for row in queue:  # one iterator shared by the workers: each row taken once
                assert isinstance(row.row, VerifyInput)  # run is handed the rows that could be read
                write(self.line(row, await self.guard(row.row)))

        async def all_rows() -> None:
            queue = iter(rows)
            await asyncio.gather(*(worker(queue) for _ in range(min(self.concurrency, len(rows)))))

        run_sync(all_rows())


__all__ = ["Action", "Guard", "GuardLine", "Verify", "Write"]
