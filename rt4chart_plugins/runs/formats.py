"""Where a run's lines go, as JSONL, CSV or text: sinks fed each row's :class:`Line`.

A CSV or text view is rendered from the row object the action made (:class:`BatchRow`), when the
row is done, never by parsing its JSON line back; only the rows an earlier run left, which exist
as lines on disk, are read once to render them. While the run goes, its resumable state is JSONL
(the output itself, or ``OUTPUT.partial.jsonl`` for a view); when every row is done the output is
written at once (a temporary file and a rename) in the input's order. To stdout (``-``) rows are
written in input order as soon as the rows before them are done; nothing is resumed there.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.runs.rows_in import InputRow
from rt4chart_plugins.runs.rows_out import Line, replace_lines
from rt4chart_plugins.types import BatchRow

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


def render(fmt: Format, line: Line) -> str:
    """One row as ``fmt`` writes it: its JSON line, or its view rendered from the row itself."""
    if fmt == "jsonl":
        return line.text + "\n"
    row = line.row
    if not isinstance(row, BatchRow):
        raise InvalidInput(f"a {fmt} view shows verified rows; write this run as JSONL")
    return csv_line(csv_cells(row)) if fmt == "csv" else text_view(row)


def header(fmt: Format) -> str:
    return csv_line(CSV_COLUMNS) if fmt == "csv" else ""


class FileSink:
    """A run into a file: each line appended (and flushed) to the resumable state as it comes,
    and at the end the output written in input order; a view is left for the end only when the
    run finished (else the state stays, for the re-run)."""

    def __init__(self, path: Path, fmt: Format, earlier: dict[str, str], parse: Callable[[str], BaseModel]):
        self.path, self.fmt = path, fmt
        self.state = self.state_of(path, fmt)
        # id -> what the output holds for it: the JSON line (JSONL), else the rendered view
        self.out: dict[str, str] = {}
        for row_id, text in earlier.items():
            self.out[row_id] = text if fmt == "jsonl" else render(fmt, Line(row_id, text, True, parse(text)))
        self._fh: IO[str] = open(self.state, "a", encoding="utf-8", newline="")  # noqa: SIM115 - closed in finish

    @staticmethod
    def state_of(path: Path, fmt: Format) -> Path:
        """The file a run into ``path`` resumes from: the output itself, or its ``.partial.jsonl``."""
        return path if fmt == "jsonl" else path.with_name(path.name + ".partial.jsonl")

    def put(self, _index: int, line: Line) -> None:
        self._fh.write(line.text + "\n")
        self._fh.flush()
        self.out[line.id] = line.text if self.fmt == "jsonl" else render(self.fmt, line)

    def close(self) -> None:
        self._fh.close()

    def finish(self, rows: Sequence[InputRow], complete: bool) -> None:
        self.close()
        if self.fmt == "jsonl":
            replace_lines(self.state, (self.out[r.id] for r in rows if r.id in self.out))
        elif complete:
            tmp = self.path.with_name(self.path.name + ".tmp")
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                fh.write(header(self.fmt))
                for r in rows:
                    if r.id in self.out:
                        fh.write(self.out[r.id])
            tmp.replace(self.path)
            self.state.unlink()


class StreamSink:
    """Rows to a stream in input order: a row waits until the rows before it are out."""

    def __init__(self, rows: Sequence[object], fmt: Format, stream: IO[str]):
        self.fmt, self.stream = fmt, stream
        self.pending: dict[int, str] = {}
        self.next = 0
        self.count = len(rows)
        self.stream.write(header(fmt))

    def put(self, index: int, line: Line) -> None:
        self.pending[index] = render(self.fmt, line)
        while self.next < self.count and self.next in self.pending:
            self.stream.write(self.pending.pop(self.next))
            self.next += 1
        self.stream.flush()

    def close(self) -> None:
        self.stream.flush()

    def finish(self, rows: Sequence[InputRow], complete: bool) -> None:  # noqa: ARG002 - FileSink's signature
        """What is left when the run stopped early: the done rows, in order, gaps skipped."""
        for index in sorted(self.pending):
            self.stream.write(self.pending.pop(index))
        self.stream.flush()


__all__ = [
    "CSV_COLUMNS",
    "EXTENSIONS",
    "STDOUT",
    "FileSink",
    "Format",
    "StreamSink",
    "csv_cells",
    "csv_line",
    "output_format",
    "render",
    "text_view",
]
