"""JSONL in; JSONL, CSV or text out: score a file of samples, resumably, without losing a row.

Each result is appended and flushed as soon as it is ready, so an interrupted run (even ``kill
-9`` in the middle of a line) keeps what it did; a re-run drops a cut last line, skips the rows
already scored from the same input and settings, scores again a row whose input changed, retries
the ones that failed and removes the rows the input no longer has (:mod:`~rt4chart_plugins.batch_rows`,
which the Ray job shares). When the run ends the file is rewritten, at once (a temporary file and
a rename), in the input's order. A row that fails (invalid UTF-8, bad JSON, bad fields, a judge
that gave up) is written with its error, and every other row is still scored.

CSV and text are views of the same rows: while the batch runs its resumable state is the JSONL
file ``OUTPUT.partial.jsonl``, turned into the view when every row is done. To stdout (``-`` as
the output) rows are written in input order as soon as the rows before them are done; nothing
is resumed there.

An endpoint that cannot serve any row (:class:`~rt4chart_plugins.errors.JudgeUnavailable`: a
401, or the circuit breaker) stops the batch: the rows done are kept, the rest are left for the
re-run, and the summary says why it stopped.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Literal

from rt4chart_plugins.batch_rows import (
    BatchSummary,
    BatchWriter,
    Earlier,
    InputRow,
    detector_settings,
    read_rows,
    replace_lines,
    resume,
)
from rt4chart_plugins.config import AtLeastOne, checked
from rt4chart_plugins.detector import Detector, failed_report
from rt4chart_plugins.errors import InvalidInput, JudgeUnavailable
from rt4chart_plugins.types import BatchRow, Report

Format = Literal["jsonl", "csv", "text"]
#: what an output file's extension says it holds
EXTENSIONS: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".txt": "text"}
#: the columns of the CSV view: one row per input row
CSV_COLUMNS = (
    "id",
    "ok",
    "state",
    "label",
    "hallucinated",
    "score",
    "claims",
    "flagged",
    "unfaithful_spans",
    "judge",
    "error",
)
STDOUT = "-"


def output_format(output: str | Path, requested: str | None) -> Format:
    """The format to write: the one asked for, else the output's extension's, else JSONL. A
    format that contradicts a known extension (``--format csv -o r.jsonl``) is refused rather
    than writing a file whose name lies about it."""
    name = str(output)
    by_ext = EXTENSIONS.get(Path(name).suffix.lower()) if name != STDOUT else None
    if requested is None:
        return by_ext or "jsonl"
    if requested not in ("jsonl", "csv", "text"):
        raise InvalidInput(f"unknown batch format {requested!r}: use jsonl, csv or text")
    if by_ext is not None and by_ext != requested:
        raise InvalidInput(
            f"--format {requested} contradicts the output's extension ({name} holds {by_ext}); "
            f"name the file .{'txt' if requested == 'text' else requested} or drop --format"
        )
    return requested  # type: ignore[return-value]


def run_batch(
    verifier: Detector,
    input_path: Path,
    output_path: Path | str,
    *,
    concurrency: int = 2,
    progress: bool = True,
    format: str | None = None,
) -> BatchSummary:
    """Score every row of ``input_path`` into ``output_path`` (``"-"``: stdout) as ``format``
    (default: by the output's extension, else JSONL). The rows, their ids, what an earlier run
    left and the counts are :mod:`rt4chart_plugins.batch_rows`'s, as in the Ray job."""
    started = time.perf_counter()
    checked("concurrency", concurrency, AtLeastOne)
    fmt = output_format(output_path, format)
    verifier.prepare()  # a judge's name (part of each row's fingerprint) names its model once it is loaded
    rows = read_rows(Path(input_path), detector_settings(verifier))
    to_stdout = str(output_path) == STDOUT
    out_path = Path(output_path)
    state = None if to_stdout else out_path if fmt == "jsonl" else out_path.with_name(out_path.name + ".partial.jsonl")
    earlier = resume([state], rows) if state is not None else Earlier({}, 0, 0)
    lines: dict[str, str] = dict(earlier.lines)  # id -> output line, for the final rewrite in input order
    stream = _OrderedStream(rows, fmt, sys.stdout) if to_stdout else None
    sink: IO[str] | None = open(state, "a", encoding="utf-8", newline="") if state is not None else None

    def put(index: int, line: str) -> None:
        if sink is not None:
            sink.write(line + "\n")
            sink.flush()
        if stream is not None:
            stream.put(index, line)
        lines[rows[index].id] = line

    writer = BatchWriter(rows, earlier, put)
    todo = writer.todo()
    stopped: JudgeUnavailable | None = None
    writer.start(progress)
    try:
        good: list[InputRow] = []
        for _, row in todo:
            if isinstance(row.row, Exception):
                writer.write_result(row, row.row)
            else:
                good.append(row)

        def on_result(k: int, report: Report) -> None:
            writer.write_result(good[k], report)

        if good:
            try:
                verifier.verify_many(
                    [r.row for r in good],  # type: ignore[misc]
                    concurrency=concurrency,
                    on_result=on_result,
                    keep=False,
                )
            except JudgeUnavailable as exc:
                stopped = exc
    finally:
        writer.close()
        if sink is not None:
            sink.close()
    rewrite_started = time.perf_counter()
    if state is not None:
        ordered = [lines[r.id] for r in rows if r.id in lines]  # in input order
        replace_lines(state, ordered)
        if fmt != "jsonl" and stopped is None:
            _write_view(out_path, fmt, ordered)
            state.unlink()
    elif stream is not None:
        stream.flush_all()
    ended = time.perf_counter()
    return writer.summary(
        stopped=str(stopped) if stopped else None,
        seconds=ended - started,
        rewrite_seconds=ended - rewrite_started,
    )


class _OrderedStream:
    """Writes rows to a stream in input order: a row waits until the rows before it are out."""

    def __init__(self, rows: Sequence[object], fmt: Format, stream: IO[str]):
        self.fmt, self.stream = fmt, stream
        self.pending: dict[int, str] = {}
        self.next = 0
        self.count = len(rows)
        if fmt == "csv":
            self.stream.write(csv_line(CSV_COLUMNS))

    def put(self, index: int, line: str) -> None:
        self.pending[index] = line
        while self.next < self.count and self.next in self.pending:
            self.stream.write(_render_line(self.fmt, self.pending.pop(self.next)))
            self.next += 1
        self.stream.flush()

    def flush_all(self) -> None:
        """What is left when the batch stopped early: the done rows, in order, gaps skipped."""
        for index in sorted(self.pending):
            self.stream.write(_render_line(self.fmt, self.pending.pop(index)))
        self.stream.flush()


def _write_view(path: Path, fmt: Format, lines: list[str]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        if fmt == "csv":
            fh.write(csv_line(CSV_COLUMNS))
        for line in lines:
            fh.write(_render_line(fmt, line))
    tmp.replace(path)


def _render_line(fmt: Format, line: str) -> str:
    if fmt == "jsonl":
        return line + "\n"
    row = BatchRow.model_validate_json(line)
    if fmt == "csv":
        return csv_line(csv_cells(row))
    return text_view(row)


def csv_cells(row: BatchRow) -> tuple:
    """One CSV row for one input row (the claims' own table is the report's JSON)."""
    r = row.report
    if r is None:
        return (row.id, False, "failed", "", "", "", 0, 0, "[]", "", row.error or "")
    flagged = sum(1 for c in r.claims if c.label is not None and c.label.value != "ENT")
    spans = json.dumps([[s.start, s.end] for s in r.unfaithful_spans])
    return (
        row.id,
        row.ok,
        r.state,
        r.label.value if r.label else "",
        "" if r.hallucinated is None else r.hallucinated,
        "" if r.score is None else f"{r.score:.4f}",
        len(r.claims),
        flagged,
        spans,
        r.judge,
        row.error or r.error or "",
    )


def csv_line(cells: tuple) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    return buf.getvalue()


def text_view(row: BatchRow) -> str:
    """The terminal view of one row, as plain text (no colour), headed by its id."""
    from rich.console import Console

    from rt4chart_plugins.render import render

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False, color_system=None, width=120)
    console.print(f"== {row.id} ==", markup=False, highlight=False)
    if row.report is not None:
        render(row.report, console)
    else:
        console.print(f"failed: {row.error}", markup=False, highlight=False)
    return buf.getvalue() + "\n"


__all__ = ["run_batch", "read_rows", "BatchSummary", "failed_report", "output_format"]
