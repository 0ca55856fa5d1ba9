"""JSONL in; JSONL, CSV or text out: score a file of samples, resumably, without losing a row.

:func:`run_batch` is the ``verify`` action of the one loop (:mod:`rt4chart_plugins.runs.local`):
ids, resume, the formats and the summary are :mod:`rt4chart_plugins.runs`'s, as in ``rt4chart
guard FILE`` and the Ray job. The names below stay importable from here.
"""

from __future__ import annotations

from pathlib import Path

from rt4chart_plugins.detector import Detector, failed_report
from rt4chart_plugins.runs.actions import Verify
from rt4chart_plugins.runs.formats import (
    CSV_COLUMNS,
    EXTENSIONS,
    STDOUT,
    Format,
    csv_cells,
    csv_line,
    output_format,
    text_view,
)
from rt4chart_plugins.runs.local import run_file
from rt4chart_plugins.runs.rows_in import read_rows
from rt4chart_plugins.runs.rows_out import BatchSummary


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
    return run_file(Verify(verifier, concurrency), input_path, output_path, format=format, progress=progress)


__all__ = [
    "CSV_COLUMNS",
    "EXTENSIONS",
    "STDOUT",
    "BatchSummary",
    "Format",
    "csv_cells",
    "csv_line",
    "failed_report",
    "output_format",
    "read_rows",
    "run_batch",
    "text_view",
]
