"""A batch's rows in and out, one way for the CLI's batch and the Ray job: input rows read and
named, what an earlier run left and which of it still holds, each result line written once and
counted, and the summary.

**Ids.** A row's id is its ``id``: a string, or an integer written as its digits (``5`` is
``"5"``). Anything else (a float, ``true``, a list) fails that row with the reason. A row without
one (missing, null or blank) is named ``line-N``, N its line in its file; where another row names
itself that, it is ``line-N.1`` (then ``.2``…), so that a name given never takes an id a row
gives. A repeated id fails the repeat (``ID@line-N``, or ``ID@FILE`` across the Ray job's files).
A byte-order mark at the start of any line is dropped (files saved "with BOM", then joined).

**Resume.** Each line carries ``fingerprint``: a hash of the row's context, question and answer
and of the detector's settings (method, judge, pipeline options). A re-run into the same output
keeps a line only when the input still has its id with the same fingerprint and the row was
scored (``ok``); a row whose input or settings changed is scored again, a failed row is retried,
and the lines of rows this input no longer has are removed. So the output always ends as an
uninterrupted run of this input would write it, and the summary counts this input's rows only.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from rt4chart_plugins.detector import Detector, describe_error, read_input
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.text.english import clean_text
from rt4chart_plugins.types import BatchRow, Report, VerifyInput

BOM = b"\xef\xbb\xbf"


class InputRow(NamedTuple):
    """One input row: its id, the row or why it cannot be read, and its fingerprint (None when
    it cannot be read)."""

    id: str
    row: VerifyInput | Exception
    fingerprint: str | None = None


class Read(NamedTuple):
    """One row as read, before it is named: where it is, its id if it gives one (or why its id is
    refused), the row or why it cannot be read."""

    source: Path
    line: int  # its line in its file (a Parquet file's rows are numbered from 1)
    id: str | None
    row: VerifyInput | Exception


def explicit_id(value: object) -> str | None:
    """A row's own id by the one rule: a string (None when blank) or an integer, as its digits;
    :class:`InvalidInput` for anything else."""
    if value is None:
        return None
    if isinstance(value, str):
        return clean_text(value) if value.strip() else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    kind = "a boolean" if isinstance(value, bool) else f"a {type(value).__name__}"
    raise InvalidInput(f"id must be a string or an integer, got {kind} ({json.dumps(value, default=str)})")


def fingerprint(row: VerifyInput, settings: str = "") -> str:
    """What a row's result depends on, hashed: its context, question and answer, and the detector's
    settings (:func:`detector_settings`)."""
    payload = json.dumps([settings, row.context, row.question, row.answer])  # ASCII: lone surrogates too
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:32]


def detector_settings(detector: Detector) -> str:
    """The detector's part of a fingerprint: its method, its judge's name and its pipeline options.
    Call it once the detector is prepared: a judge's name gains its model's version when it loads."""
    config = getattr(detector, "config", None)
    options = config.model_dump(mode="json") if isinstance(config, BaseModel) else None
    return json.dumps({"method": detector.method, "judge": detector.name, "options": options}, sort_keys=True)


# --- reading ------------------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    """JSONL lines: split on ``\\n`` only. ``str.splitlines`` would also split inside a JSON string
    at U+2028, U+2029 or U+0085, which JSON writes unescaped."""
    return data.split(b"\n")


def read_jsonl(path: Path) -> list[Read]:
    """Each non-blank line of a JSONL file: its id and the row, or the error that prevents reading it."""
    reads: list[Read] = []
    path = Path(path)  # once: a Path made per row cost more than the row's JSON
    for number, raw in enumerate(_lines(path.read_bytes()), start=1):
        while raw.startswith(BOM):
            raw = raw[len(BOM) :]
        if not raw.strip():
            continue
        row_id: str | None = None
        row: VerifyInput | Exception
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            row = InvalidInput(f"line {number} is not valid UTF-8 (byte {exc.start}: {exc.reason})")
        else:
            try:
                data = json.loads(line)
                if isinstance(data, dict):
                    row_id = explicit_id(data.get("id"))
                row = read_input(data)  # refuses what is no JSON object, in verify_many's words
            except RecursionError:
                row = InvalidInput(f"line {number} is nested too deeply")
            except (ValueError, ValidationError) as exc:  # InvalidInput is a ValueError
                row = exc
        reads.append(Read(path, number, row_id, row))
    return reads


def name_rows(reads: Iterable[Read], settings: str = "") -> list[tuple[Path, InputRow]]:
    """The rows named by the one rule (the module's docstring), each with its fingerprint."""
    reads = list(reads)
    given = {r.id for r in reads if r.id is not None}
    first: dict[str, Read] = {}
    named: list[tuple[Path, InputRow]] = []
    for read in reads:
        row = read.row
        if read.id is None:
            row_id, k = f"line-{read.line}", 0
            while row_id in given or row_id in first:
                k += 1
                row_id = f"line-{read.line}.{k}"
        else:
            row_id = read.id
            if row_id in first:
                earlier = first[row_id]
                if earlier.source == read.source:
                    row = InvalidInput(f"duplicate id {row_id!r} (line {read.line}): line {earlier.line} has it")
                    row_id = f"{row_id}@line-{read.line}"
                else:
                    row = InvalidInput(f"duplicate id {row_id!r}: also in {earlier.source}")
                    row_id = f"{row_id}@{read.source}"
        first.setdefault(row_id, read)
        mark = fingerprint(row, settings) if isinstance(row, VerifyInput) else None
        named.append((read.source, InputRow(row_id, row, mark)))
    return named


def read_rows(path: Path, settings: str = "") -> list[InputRow]:
    """The rows of one JSONL file, named, with their fingerprints."""
    return [row for _, row in name_rows(read_jsonl(Path(path)), settings)]


# --- result lines -------------------------------------------------------------------------------


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
    """One output line (:class:`BatchRow`'s JSON) and whether it is a scored row. ``report`` may
    be the report's JSON text (the Ray job's rows), spliced in rather than parsed again. A report
    that cannot be written makes the row a failed one saying why, so that the batch goes on."""
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


# --- what an earlier run left -------------------------------------------------------------------


class Earlier(NamedTuple):
    """What an earlier run's output holds that this input can keep."""

    lines: dict[str, str]  # id → line, of the rows kept (scored, same fingerprint)
    replaced: int  # rows of this input an earlier run scored from another input or settings
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


def resume(files: Sequence[Path], rows: Sequence[InputRow], *, keep_lines: bool = True) -> Earlier:
    """Read what earlier runs wrote to ``files`` and rewrite each without the lines that no longer
    hold: a line cut by an interruption, a failed row (retried), a line marked ok that holds no
    report (scored again: a row counts as done only with its verdicts), a row whose input or
    settings changed (scored again), a row this input does not have, a second line for an id. ``keep_lines``
    False keeps only the ids (the Ray job, which never rewrites in order)."""
    wanted = {r.id: r.fingerprint for r in rows}
    kept: dict[str, str] = {}
    replaced: set[str] = set()
    dropped: set[str] = set()
    for path in files:
        if not path.exists():
            continue
        keep: list[str] = []
        changed = False
        for raw in _lines(path.read_bytes()):
            try:
                line = raw.decode("utf-8")
                row = BatchRow.model_validate_json(line)
            except (UnicodeDecodeError, ValidationError):
                changed = changed or bool(raw.strip())  # a line cut by an interruption
                continue
            if row.id not in wanted:
                dropped.add(row.id)
            elif row.ok and row.report is None:
                pass  # marked scored but holding no report: a broken line, never done (scored again)
            elif row.ok and row.id not in kept:
                if row.fingerprint is not None and row.fingerprint == wanted[row.id]:
                    kept[row.id] = line if keep_lines else ""
                    keep.append(line)
                    continue
                replaced.add(row.id)
            changed = True
        if changed:
            replace_lines(path, keep)
    return Earlier(kept, len(replaced - kept.keys()), len(dropped))


# --- writing and counting -----------------------------------------------------------------------


class BatchSummary(BaseModel):
    """What a batch did, counted over this input's rows only."""

    total: int  # rows in the input
    skipped: int  # already done by an earlier run, with the same input and settings
    ok: int
    failed: int
    failed_ids: list[str] = []
    replaced: int = 0  # of the rows scored, those an earlier run had scored from another input or settings
    dropped: int = 0  # rows of an earlier input, not in this one, removed from the output
    duplicates_dropped: int = 0  # rows handed back twice (a batch Ray ran again), written once
    left: int = 0  # not scored because the batch stopped (re-run to do them)
    stopped: str | None = None  # why the batch stopped early, if it did
    seconds: float = 0.0  # the whole run
    rewrite_seconds: float = 0.0  # of which the final rewrite in input order (and the CSV or text view)

    def report_lines(self, where: str, *, shown: int = 20) -> list[str]:
        """What the command prints when the batch ends: the counts, the failed ids (the first
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
    """Each result row of a batch written once through ``sink(index, line)`` (``index``: its
    place in the input) and counted, with a progress bar."""

    def __init__(self, rows: Sequence[InputRow], earlier: Earlier, sink: Callable[[int, str], None]):
        self.rows, self.earlier, self.sink = rows, earlier, sink
        self.index = {r.id: i for i, r in enumerate(rows)}
        self.written: set[str] = set(earlier.lines)
        self.ok = self.failed = self.duplicates = 0
        self.failed_ids: list[str] = []
        self._bar: Any = None

    def todo(self) -> list[tuple[int, InputRow]]:
        """The rows to score, with their places in the input."""
        return [(i, r) for i, r in enumerate(self.rows) if r.id not in self.written]

    def start(self, progress: bool) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=len(self.rows) - len(self.written), desc="verify", unit="row", disable=not progress)

    def write(self, row_id: str, line: str, ok: bool) -> bool:
        """Write one result line unless its id is written already; whether it was written."""
        if row_id in self.written:
            self.duplicates += 1
            return False
        self.sink(self.index.get(row_id, -1), line)
        self.written.add(row_id)
        if ok:
            self.ok += 1
        else:
            self.failed += 1
            self.failed_ids.append(row_id)
        if self._bar is not None:
            self._bar.update(1)
        return True

    def write_result(self, row: InputRow, result: Report | BaseException) -> bool:
        """A row's report, or the error that kept it from being verified, as its line."""
        ok, error = outcome(result)
        report = result if isinstance(result, Report) else None
        line, ok = result_line(row.id, ok, report=report, error=error, fingerprint=row.fingerprint)
        return self.write(row.id, line, ok)

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
    "InputRow",
    "Read",
    "detector_settings",
    "explicit_id",
    "fingerprint",
    "name_rows",
    "outcome",
    "read_jsonl",
    "read_rows",
    "replace_lines",
    "result_line",
    "resume",
]
