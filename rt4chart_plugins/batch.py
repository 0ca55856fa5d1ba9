"""JSONL in; JSONL, CSV or text out: score a file of samples, resumably, without losing a row.

Each result is appended and flushed as soon as it is ready, so an interrupted run (even ``kill
-9`` in the middle of a line) keeps what it did; a re-run drops a cut last line, skips the rows
already scored and retries the ones that failed. When the run ends the file is rewritten, at once
(a temporary file and a rename), in the input's order. A row that fails (invalid UTF-8, bad JSON,
bad fields, a judge that gave up) is written with its error, and every other row is still scored.

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
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, ValidationError

from rt4chart_plugins.config import AtLeastOne, checked
from rt4chart_plugins.detector import Detector, clean_text, describe_error, failed_report
from rt4chart_plugins.errors import InvalidInput, JudgeUnavailable
from rt4chart_plugins.types import BatchRow, Report, VerifyInput

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


class BatchSummary(BaseModel):
    total: int
    skipped: int  # already done by an earlier run
    ok: int
    failed: int
    left: int = 0  # not scored because the batch stopped (re-run to do them)
    stopped: str | None = None  # why the batch stopped early, if it did
    seconds: float = 0.0  # the whole run
    rewrite_seconds: float = 0.0  # of which the final rewrite in input order (and the CSV or text view)


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


def _lines(data: bytes) -> list[bytes]:
    """JSONL lines: split on ``\\n`` only. ``str.splitlines`` would also split inside a JSON string
    at U+2028, U+2029 or U+0085, which JSON writes unescaped."""
    return data.split(b"\n")


def read_rows(path: Path) -> list[tuple[str, VerifyInput | Exception]]:
    """(id, parsed row or the error that prevents parsing it) for each non-blank line."""
    rows: list[tuple[str, VerifyInput | Exception]] = []
    seen: set[str] = set()
    # a file saved "with BOM" starts with U+FEFF, which JSON does not allow before the first row
    content = Path(path).read_bytes().removeprefix(b"\xef\xbb\xbf")
    for number, raw in enumerate(_lines(content), start=1):
        if not raw.strip():
            continue
        row_id = f"line-{number}"
        parsed: VerifyInput | Exception
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            parsed = InvalidInput(f"line {number} is not valid UTF-8 (byte {exc.start}: {exc.reason})")
        else:
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise InvalidInput("each line must be a JSON object")
                if data.get("id") is not None:
                    row_id = clean_text(str(data["id"]))
                parsed = VerifyInput.model_validate(data)
            except RecursionError:
                parsed = InvalidInput(f"line {number} is nested too deeply")
            except (ValueError, ValidationError) as exc:
                parsed = exc
        if row_id in seen:
            parsed = InvalidInput(f"duplicate id {row_id!r} (line {number})")
            row_id = f"{row_id}@line-{number}"
        seen.add(row_id)
        rows.append((row_id, parsed))
    return rows


def done_rows(state: Path) -> dict[str, str]:
    """The lines of rows already scored, by id; the file is rewritten without its failed rows
    (retried) and without a line cut by an interruption."""
    if not state.exists():
        return {}
    done: dict[str, str] = {}
    for raw in _lines(state.read_bytes()):
        try:
            line = raw.decode("utf-8")
            row = BatchRow.model_validate_json(line)
        except (UnicodeDecodeError, ValidationError):
            continue  # a line cut by an interruption (possibly inside a multi-byte character)
        if row.ok:
            done[row.id] = line
    replace_lines(state, list(done.values()))
    return done


def replace_lines(path: Path, lines: list[str]) -> None:
    """Write ``path`` at once: a reader (or a re-run after a kill) sees the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        for line in lines:  # one at a time: joined first, 100,000 rows' lines were copied twice over
            fh.write(line)
            fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def row_json(row: BatchRow) -> tuple[str, bool]:
    """One output line and whether it is a scored row; a row whose report cannot be written
    becomes a failed row saying why, so that the batch goes on."""
    try:
        return row.model_dump_json(), row.ok
    except Exception as exc:  # noqa: BLE001 - the row must still be written
        error = clean_text(f"the report could not be written: {type(exc).__name__}: {exc}")
        return BatchRow(id=clean_text(row.id), ok=False, error=error).model_dump_json(), False


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
    (default: by the output's extension, else JSONL)."""
    from tqdm import tqdm

    started = time.perf_counter()
    checked("concurrency", concurrency, AtLeastOne)
    fmt = output_format(output_path, format)
    rows = read_rows(Path(input_path))
    to_stdout = str(output_path) == STDOUT
    out_path = Path(output_path)
    state = None if to_stdout else out_path if fmt == "jsonl" else out_path.with_name(out_path.name + ".partial.jsonl")
    done = done_rows(state) if state is not None else {}
    todo = [(i, rid, r) for i, (rid, r) in enumerate(rows) if rid not in done]
    ok = failed = 0
    bar = tqdm(total=len(todo), desc="verify", unit="row", disable=not progress)
    lines: dict[str, str] = dict(done)  # id -> output line, for the final rewrite in input order
    stream = _OrderedStream(rows, fmt, sys.stdout) if to_stdout else None
    sink: IO[str] | None = open(state, "a", encoding="utf-8", newline="") if state is not None else None
    stopped: JudgeUnavailable | None = None
    try:

        def write(row: BatchRow, index: int) -> None:
            nonlocal ok, failed
            line, scored = row_json(row)
            if sink is not None:
                sink.write(line + "\n")
                sink.flush()
            if stream is not None:
                stream.put(index, line)
            lines[row.id] = line
            ok, failed = (ok + 1, failed) if scored else (ok, failed + 1)
            bar.update(1)

        good: list[tuple[int, str, VerifyInput]] = []
        for index, rid, parsed in todo:
            if isinstance(parsed, Exception):
                write(BatchRow(id=rid, ok=False, error=describe_error(parsed)), index)
            else:
                good.append((index, rid, parsed))

        def on_result(k: int, report: Report) -> None:
            index, rid, _ = good[k]
            bad = report.state == "failed"
            write(BatchRow(id=rid, ok=not bad, report=report, error=report.error if bad else None), index)

        if good:
            try:
                verifier.verify_many([r for _, _, r in good], concurrency=concurrency, on_result=on_result, keep=False)
            except JudgeUnavailable as exc:
                stopped = exc
    finally:
        bar.close()
        if sink is not None:
            sink.close()
    left = len(todo) - ok - failed
    rewrite_started = time.perf_counter()
    if state is not None:
        # in input order, then the rows of an earlier run whose ids this input no longer has
        ids = {rid for rid, _ in rows}
        order = [rid for rid, _ in rows if rid in lines] + [rid for rid in lines if rid not in ids]
        ordered = [lines[rid] for rid in order]
        replace_lines(state, ordered)
        if fmt != "jsonl" and stopped is None:
            _write_view(out_path, fmt, ordered)
            state.unlink()
    elif stream is not None:
        stream.flush_all()
    ended = time.perf_counter()
    return BatchSummary(
        total=len(rows),
        skipped=len(done),
        ok=ok,
        failed=failed,
        left=left,
        stopped=str(stopped) if stopped else None,
        seconds=ended - started,
        rewrite_seconds=ended - rewrite_started,
    )


class _OrderedStream:
    """Writes rows to a stream in input order: a row waits until the rows before it are out."""

    def __init__(self, rows: Sequence[tuple[str, object]], fmt: Format, stream: IO[str]):
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
