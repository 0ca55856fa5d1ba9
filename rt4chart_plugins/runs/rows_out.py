"""A run's lines out, one way for the local loop and the Ray job: what an earlier run left and which
of it still holds, each row's line written once and counted, and the summary.

**Resume.** Each line carries ``fingerprint``: a hash of the row's context, question and answer
and of the run's settings (:mod:`rt4chart_plugins.runs.spec`, and the action's own: the guard's
options). A re-run into the same output keeps a line only when the input still has its id with
the same fingerprint and the row was done; a row whose input or settings changed is done again, a
failed row is retried, and the lines of rows this input no longer has are removed. So the output
always ends as an uninterrupted run of this input would write it, and the summary counts this
input's rows only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from rt4chart_plugins.detector import describe_error
from rt4chart_plugins.runs.rows_in import InputRow, jsonl_lines
from rt4chart_plugins.text.english import clean_text
from rt4chart_plugins.types import BatchRow, Report


class Line(NamedTuple):
    """One row's output: its JSON line, whether the row was done, and the row itself (for a view
    that renders it: a CSV or text view reads it, never the JSON again; None on the Ray driver,
    which splices the workers' JSON)."""

    id: str
    text: str
    ok: bool
    row: BaseModel | None = None


#: what a line of an earlier run says: its id, whether that row was done, its fingerprint; None: a broken line
LineState = tuple[str, bool, str | None]


def outcome(result: Report | BaseException) -> tuple[bool, str | None]:
    """Whether a row was scored, and if not why, worded by
    :func:`~rt4chart_plugins.detector.describe_error`: a ``failed`` report's error, or the
    exception that kept the row from being verified."""
    if isinstance(result, BaseException):
        return False, describe_error(result)
    if result.state == "failed":
        return False, result.error or "verification failed"
    return True, None


def result_line(
    row_id: str,
    ok: bool,
    *,
    report: Report | str | None = None,
    error: str | None = None,
    fingerprint: str | None = None,
) -> tuple[str, bool]:
    """One verify output line (:class:`BatchRow`'s JSON) and whether it is a scored row. ``report``
    may be the report's JSON text (the Ray job's rows), spliced in rather than parsed again. A
    report that cannot be written makes the row a failed one saying why, so that the batch goes on."""
    try:
        text = report.model_dump_json() if isinstance(report, Report) else report
    except Exception as exc:  # noqa: BLE001 - the row must still be written
        ok, text = False, None
        error = clean_text(f"the report could not be written: {type(exc).__name__}: {exc}")
    head = BatchRow(id=clean_text(row_id), ok=ok, error=error, fingerprint=fingerprint).model_dump_json()
    if text is None:
        return head, ok
    marker = ',"report":null,'  # the id before it is escaped JSON, so this is the field itself
    at = head.index(marker)
    return head[:at] + ',"report":' + text + "," + head[at + len(marker) :], ok


def verify_line(row: InputRow, result: Report | BaseException) -> Line:
    """A verified row's line: its report, or the error that kept it from being verified."""
    ok, error = outcome(result)
    report = result if isinstance(result, Report) else None
    text, ok = result_line(row.id, ok, report=report, error=error, fingerprint=row.fingerprint)
    return Line(row.id, text, ok, BatchRow(id=row.id, ok=ok, report=report, error=error))


def verify_line_state(line: str) -> LineState | None:
    """A verify line's id, whether it was scored, its fingerprint. A line marked ok that holds no
    report is never done (scored again: a row counts as done only with its verdicts)."""
    try:
        row = BatchRow.model_validate_json(line)
    except ValidationError:
        return None
    return row.id, row.ok and row.report is not None, row.fingerprint


class Earlier(NamedTuple):
    """What an earlier run's output holds that this input can keep."""

    lines: dict[str, str]  # id → line, of the rows kept (done, same fingerprint)
    replaced: int  # rows of this input an earlier run did from another input or settings
    dropped: int  # rows of an earlier input that this one does not have, removed


def replace_lines(path: Path, lines: Iterable[str]) -> None:
    """Write ``path`` at once: a reader (or a re-run after a kill) sees the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        for line in lines:  # one at a time: joined first, 100,000 rows' lines were copied twice over
            fh.write(line)
            fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def resume(
    files: Sequence[Path],
    rows: Sequence[InputRow],
    *,
    keep_lines: bool = True,
    state: Callable[[str], LineState | None] = verify_line_state,
) -> Earlier:
    """Read what earlier runs wrote to ``files`` and rewrite each without the lines that no longer
    hold: a line cut by an interruption, a failed row (retried), a row whose input or settings
    changed (done again), a row this input does not have, a second line for an id. ``state``
    reads a line (the action's). ``keep_lines`` False keeps only the ids (the Ray job, which never
    rewrites in order)."""
    wanted = {r.id: r.fingerprint for r in rows}
    kept: dict[str, str] = {}
    replaced: set[str] = set()
    dropped: set[str] = set()
    for path in files:
        if not path.exists():
            continue
        keep: list[str] = []
        changed = False
        for raw in jsonl_lines(path.read_bytes()):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = ""
            read = state(line) if line.strip() else None
            if read is None:
                changed = changed or bool(raw.strip())  # a line cut by an interruption
                continue
            row_id, done, mark = read
            if row_id not in wanted:
                dropped.add(row_id)
            elif done and row_id not in kept:
                if mark is not None and mark == wanted[row_id]:
                    kept[row_id] = line if keep_lines else ""
                    keep.append(line)
                    continue
                replaced.add(row_id)
            changed = True
        if changed:
            replace_lines(path, keep)
    return Earlier(kept, len(replaced - kept.keys()), len(dropped))


class BatchSummary(BaseModel):
    """What a run did, counted over this input's rows only."""

    total: int  # rows in the input
    skipped: int  # already done by an earlier run, with the same input and settings
    ok: int
    failed: int
    failed_ids: list[str] = []
    replaced: int = 0  # of the rows done, those an earlier run had done from another input or settings
    dropped: int = 0  # rows of an earlier input, not in this one, removed from the output
    duplicates_dropped: int = 0  # rows handed back twice (a batch Ray ran again), written once
    left: int = 0  # not done because the run stopped (re-run to do them)
    stopped: str | None = None  # why the run stopped early, if it did
    seconds: float = 0.0  # the whole run
    rewrite_seconds: float = 0.0  # of which the final rewrite in input order (and the CSV or text view)

    def report_lines(self, where: str, *, shown: int = 20) -> list[str]:
        """What the command prints when the run ends: the counts, the failed ids (the first
        ``shown``), why it stopped."""
        lines = [f"{self.total} rows: {self.skipped} already done, {self.ok} scored, {self.failed} failed → {where}"]
        if self.replaced:
            lines.append(f"{self.replaced} row(s) scored again: their input or the detector's settings changed")
        if self.dropped:
            lines.append(f"{self.dropped} row(s) of an earlier input removed from {where}: this input has no such id")
        if self.failed_ids:
            more = len(self.failed_ids) - shown
            lines.append(
                f"failed ids: {', '.join(self.failed_ids[:shown])}"
                + (f" and {more} more" if more > 0 else "")
                + ' (their errors are in the "ok":false lines; a re-run retries them)'
            )
        if self.stopped:
            lines.append(f"rt4chart: stopped with {self.left} row(s) left to do: {self.stopped}")
        return lines


class BatchWriter:
    """Each row's line written once through ``sink(index, line)`` (``index``: its place in the
    input) and counted, with a progress bar."""

    def __init__(self, rows: Sequence[InputRow], earlier: Earlier, sink: Callable[[int, Line], None]):
        self.rows, self.earlier, self.sink = rows, earlier, sink
        self.index = {r.id: i for i, r in enumerate(rows)}
        self.written: set[str] = set(earlier.lines)
        self.ok = self.failed = self.duplicates = 0
        self.failed_ids: list[str] = []
        self._bar: Any = None

    def todo(self) -> list[tuple[int, InputRow]]:
        """The rows to do, with their places in the input."""
        return [(i, r) for i, r in enumerate(self.rows) if r.id not in self.written]

    def start(self, progress: bool, desc: str = "verify") -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=len(self.rows) - len(self.written), desc=desc, unit="row", disable=not progress)

    def write(self, line: Line) -> bool:
        """Write one row's line unless its id is written already; whether it was written."""
        if line.id in self.written:
            self.duplicates += 1
            return False
        self.sink(self.index.get(line.id, -1), line)
        self.written.add(line.id)
        if line.ok:
            self.ok += 1
        else:
            self.failed += 1
            self.failed_ids.append(line.id)
        if self._bar is not None:
            self._bar.update(1)
        return True

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def summary(self, **extra: Any) -> BatchSummary:
        done = self.ok + self.failed
        return BatchSummary(
            total=len(self.rows),
            skipped=len(self.earlier.lines),
            ok=self.ok,
            failed=self.failed,
            failed_ids=self.failed_ids,
            replaced=self.earlier.replaced,
            dropped=self.earlier.dropped,
            duplicates_dropped=self.duplicates,
            left=len(self.rows) - len(self.earlier.lines) - done,
            **extra,
        )


__all__ = [
    "BatchSummary",
    "BatchWriter",
    "Earlier",
    "Line",
    "LineState",
    "outcome",
    "replace_lines",
    "result_line",
    "resume",
    "verify_line",
    "verify_line_state",
]
