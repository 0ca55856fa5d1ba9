"""``rt4chart verify IN -o OUT --engine ray``: files in, a folder of JSONL shards out, resumable.

IN is a JSONL file, a folder (its ``*.jsonl`` and ``*.parquet`` files, recursively) or a glob of
them. The driver reads them with the local run's reader (:mod:`rt4chart_plugins.runs.rows_in`), so
ids, duplicate ids and unreadable lines mean the same as in a local run (a Parquet file needs an
``id`` column), and fingerprints them with the local run's settings
(:func:`rt4chart_plugins.runs.spec.spec_settings`). A row that does not validate is written as a
failed row there and then; the others
go to the cluster, each as its JSON text (Arrow wants one type per column, and a context is a
string in one row and a list of passages in another). Results stream back to the driver, which
writes them to ``OUT/part-<run>-<k>.jsonl`` shards (the local batch's line format), flushed line
by line. The driver holds the inputs in memory: for a corpus larger than that, read it on the
cluster with Ray Data and call :func:`~rt4chart_plugins.distributed.verify_dataset`.

Resume, ids, the result lines and the counts are the local run's
(:mod:`rt4chart_plugins.runs.rows_out`): the rows OUT holds scored from the same input and settings
are skipped; its failed rows, the rows whose input changed and the rows no input file has any more
are removed from their shards, and the first two are scored again. Each id is written once: a row
Ray hands back twice (a batch run again after its actor died) is dropped at write time.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rt4chart_plugins.distributed.ray_engine import import_ray, map_spec
from rt4chart_plugins.distributed.rows import batch_line
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.runs.rows_in import INPUT_COLUMN, read_inputs
from rt4chart_plugins.runs.rows_out import BatchSummary, BatchWriter, Line, resume, verify_line
from rt4chart_plugins.runs.spec import DetectorSpec, spec_from_args, spec_settings
from rt4chart_plugins.types import VerifyInput

SUFFIXES = (".jsonl", ".parquet")
#: output lines per shard, so that no one file grows without bound on a long run
ROWS_PER_SHARD = 10_000


def input_files(spec: str) -> list[Path]:
    """The JSONL/Parquet files IN names: a file, a folder (searched recursively) or a glob."""
    path = Path(spec)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
    else:
        files = sorted(Path(p) for p in glob.glob(spec, recursive=True) if Path(p).suffix in SUFFIXES)
    odd = [str(f) for f in files if f.suffix not in SUFFIXES]
    if odd:
        raise InvalidInput(f"--engine ray reads .jsonl and .parquet files; got {', '.join(odd)}")
    if not files:
        raise InvalidInput(f"no .jsonl or .parquet file at {spec!r}")
    return files


class ShardWriter:
    """New result lines appended to fresh shards of the output folder, ``ROWS_PER_SHARD`` each."""

    def __init__(self, folder: Path, run: str):
        self.folder = folder
        self.run = run
        self._fh: Any = None
        self._count = 0
        self._shard = 0

    def append(self, line: str) -> None:
        if self._fh is None or self._count >= ROWS_PER_SHARD:
            self.close()
            self._shard += 1
            self._fh = open(self.folder / f"part-{self.run}-{self._shard:05d}.jsonl", "a", encoding="utf-8")
            self._count = 0
        self._fh.write(line + "\n")
        self._fh.flush()
        self._count += 1

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def init_ray(ray: Any, address: str | None, ray_logs: bool = False) -> None:
    """Join or start the cluster for a CLI run; Ray's loggers at its defaults with ``ray_logs``, else
    silent (the run prints its own progress bar and summary)."""
    level = logging.INFO if ray_logs else logging.CRITICAL
    if not ray_logs:
        logging.getLogger("ray").setLevel(level)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=ray_logs, logging_level=level)
    if not ray_logs:
        for name in ("ray", "ray.data"):  # ray.init and Ray Data set their loggers' levels of their own
            logging.getLogger(name).setLevel(level)
    ray.data.DataContext.get_current().enable_progress_bars = False  # our bar, not Ray Data's


#: Ray's last lines shown when a run that hid them fails
RAY_TAIL = 20


@contextlib.contextmanager
def ray_lines_hidden() -> Iterator[None]:
    """Ray's own lines off the terminal for a CLI run: its C++ core writes to file descriptor 2
    (``[... E ...] core_worker.cc: ...``), as do the processes of a cluster started for the run, and
    its Python loggers hold the ``sys.stderr`` of their import. Descriptor 2 goes to a scratch file
    while ``sys.stderr`` keeps the terminal, for the progress bar; when the run raises, Ray's last
    lines are printed before the error. ``--ray-logs`` keeps them all on the terminal instead."""
    sys.stderr.flush()
    original = sys.stderr
    terminal = os.dup(2)
    with tempfile.TemporaryFile() as log:
        sys.stderr = open(  # noqa: SIM115 - closed below, after descriptor 2 is back
            terminal,
            "w",
            buffering=1,
            encoding=getattr(original, "encoding", None) or "utf-8",
            errors="backslashreplace",
            closefd=False,
        )
        os.dup2(log.fileno(), 2)
        try:
            yield
        except BaseException:
            log.seek(0)
            tail = log.read().decode("utf-8", "replace").splitlines()[-RAY_TAIL:]
            if tail:
                print("Ray's last lines (--ray-logs shows them all):\n" + "\n".join(tail), file=sys.stderr)
            raise
        finally:
            sys.stderr.flush()
            sys.stderr.close()
            os.dup2(terminal, 2)
            os.close(terminal)
            sys.stderr = original


def run_job(
    spec: DetectorSpec,
    input_spec: str,
    output: Path,
    *,
    address: str | None = None,
    workers: int | None = None,
    batch_size: int | None = None,
    rate_limit: float | None = None,
    progress: bool = True,
    ray_logs: bool = False,
) -> BatchSummary:
    started = time.perf_counter()
    ray = import_ray()  # before OUT is touched: without the extra, nothing changes
    files = input_files(input_spec)
    rows = read_inputs(files, spec_settings(spec))
    output.mkdir(parents=True, exist_ok=True)
    earlier = resume(sorted(output.glob("*.jsonl")), rows, keep_lines=False)
    shards = ShardWriter(output, time.strftime("%Y%m%dT%H%M%S"))
    writer = BatchWriter(rows, earlier, lambda _index, line: shards.append(line.text))
    todo = [row for _, row in writer.todo()]
    items = [{"id": r.id, INPUT_COLUMN: r.row.model_dump_json()} for r in todo if isinstance(r.row, VerifyInput)]
    if items:
        init_ray(ray, address, ray_logs)
    writer.start(progress)
    try:
        for row in todo:
            if isinstance(row.row, Exception):
                writer.write(verify_line(row, row.row))
        if items:
            results = map_spec(
                ray.data.from_items(items), spec, workers=workers, batch_size=batch_size, rate_limit=rate_limit
            )
            for result in results.iter_rows():
                rid = result["id"]
                mark = rows[writer.index[rid]].fingerprint if rid in writer.index else None
                writer.write(Line(rid, batch_line(result, mark), bool(result["ok"])))
    finally:
        writer.close()
        shards.close()
    return writer.summary(seconds=time.perf_counter() - started)


#: failed ids printed at most; the rest are in OUT (``"ok":false``)
SHOWN_FAILED = 20


def cli_main(args: Any) -> int:
    """``rt4chart verify IN -o OUT --engine ray``: exit 1 when a row failed, naming the failed ids.
    The flags become the workers' spec as they become the local detector
    (:func:`rt4chart_plugins.runs.spec.spec_from_args`)."""
    if getattr(args, "format", None) not in (None, "json", "jsonl"):
        raise InvalidInput(f"--engine ray writes JSONL shards; --format {args.format} is for the local engine")
    if args.output == "-" or Path(args.output).is_file():
        raise InvalidInput(f"--engine ray writes a folder of shards; -o {args.output} is not a folder")
    ray_logs = bool(getattr(args, "ray_logs", False))
    ray = import_ray()
    joined = ray.is_initialized()  # a cluster the caller holds is left up
    with contextlib.nullcontext() if ray_logs else ray_lines_hidden():
        summary = run_job(
            spec_from_args(args),
            args.input,
            Path(args.output),
            address=args.address,
            workers=args.workers,
            rate_limit=args.rate_limit,
            progress=not args.quiet,
            ray_logs=ray_logs,
        )
        if not joined:
            ray.shutdown()  # here, so that the last lines of the cluster it started are hidden too
    for line in summary.report_lines(f"{args.output}/", shown=SHOWN_FAILED):
        print(line, file=sys.stderr)
    return 1 if summary.failed else 0
