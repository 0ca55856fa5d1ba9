"""The one loop: a file of rows in, one line per row out, on this machine, with an action (verify or
guard, :mod:`rt4chart_plugins.runs.actions`).

Each line is appended and flushed as soon as its row is done, so an interrupted run (even ``kill
-9`` in the middle of a line) keeps what it did; a re-run drops a cut last line, skips the rows
already done from the same input and settings, does again a row whose input changed, retries the
ones that failed and removes the rows the input no longer has (:mod:`~rt4chart_plugins.runs.rows_out`,
which the Ray job shares). When the run ends the file is rewritten, at once, in the input's order. A
row that fails (invalid UTF-8, bad JSON, bad fields, a judge that gave up) is written with its
error, and every other row is still done. An endpoint that cannot serve any row
(:class:`~rt4chart_plugins.errors.JudgeUnavailable`) stops the run: the rows done are kept, the rest
are left for the re-run, and the summary says why it stopped.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rt4chart_plugins.errors import InvalidInput, JudgeUnavailable
from rt4chart_plugins.runs.actions import Action
from rt4chart_plugins.runs.formats import STDOUT, FileSink, StreamSink, output_format
from rt4chart_plugins.runs.rows_in import InputRow, read_rows
from rt4chart_plugins.runs.rows_out import BatchSummary, BatchWriter, Earlier, resume


def run_file(
    action: Action,
    input_path: Path | str,
    output_path: Path | str,
    *,
    format: str | None = None,
    progress: bool = True,
) -> BatchSummary:
    """Do ``action`` to every row of the JSONL ``input_path`` into ``output_path`` (``"-"``:
    stdout) as ``format`` (default: by the output's extension, else JSONL)."""
    started = time.perf_counter()
    fmt = output_format(output_path, format)
    if fmt not in action.formats:
        raise InvalidInput(f"{action.name} writes {' or '.join(action.formats)}; not {fmt}")
    rows = read_rows(Path(input_path), action.settings)
    sink: FileSink | StreamSink
    if str(output_path) == STDOUT:
        earlier = Earlier({}, 0, 0)
        sink = StreamSink(rows, fmt, sys.stdout)
    else:
        earlier = resume([FileSink.state_of(Path(output_path), fmt)], rows, state=action.state)
        sink = FileSink(Path(output_path), fmt, earlier.lines, action.parse)
    writer = BatchWriter(rows, earlier, sink.put)
    stopped: JudgeUnavailable | None = None
    writer.start(progress, action.name)
    try:
        good: list[InputRow] = []
        for _, row in writer.todo():
            if isinstance(row.row, Exception):
                writer.write(action.failed(row, row.row))
            else:
                good.append(row)
        if good:
            try:
                action.run(good, writer.write)
            except JudgeUnavailable as exc:
                stopped = exc
    finally:
        writer.close()
        sink.close()
    rewrite_started = time.perf_counter()
    sink.finish(rows, complete=stopped is None)
    ended = time.perf_counter()
    return writer.summary(
        stopped=str(stopped) if stopped else None,
        seconds=ended - started,
        rewrite_seconds=ended - rewrite_started,
    )


__all__ = ["run_file"]
