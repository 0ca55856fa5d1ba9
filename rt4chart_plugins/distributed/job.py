"""``rt4chart verify IN -o OUT --engine ray``: files in, a folder of JSONL shards out, resumable.

IN is a JSONL file, a folder (its ``*.jsonl`` and ``*.parquet`` files, recursively) or a glob of
them. The driver reads them: JSONL with the local batch's own reader, so ids, duplicate ids and
unreadable lines mean the same as in a local run; Parquet with pyarrow (an ``id`` column is
required). A row that does not validate is written as a failed row there and then; the others
go to the cluster, each as its JSON text (Arrow wants one type per column, and a context is a
string in one row and a list of passages in another). Results stream back to the driver, which
writes them to ``OUT/part-<run>-<k>.jsonl`` shards (the local batch's line format), flushed line
by line. The driver holds the inputs in memory: for a corpus larger than that, read it on the
cluster with Ray Data and call :func:`~rt4chart_plugins.distributed.verify_dataset`.

Resume: the ids OUT holds with ``ok=true`` are skipped; its failed rows are removed from their
shards and scored again. Each id is written once: a row Ray hands back twice (a batch run again
after its actor died) is dropped at write time.
"""

from __future__ import annotations

import glob
import logging
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from rt4chart_plugins.batch import done_rows, read_rows, replace_lines
from rt4chart_plugins.distributed.ray_engine import import_ray, map_spec
from rt4chart_plugins.distributed.rows import INPUT_COLUMN, batch_line, error_text, parse_record, result_row
from rt4chart_plugins.distributed.spec import DetectorSpec
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import VerifyInput

SUFFIXES = (".jsonl", ".parquet")
#: output lines per shard, so that no one file grows without bound on a long run
ROWS_PER_SHARD = 10_000


class JobSummary(BaseModel):
    total: int
    skipped: int  # already done by an earlier run
    ok: int
    failed: int
    failed_ids: list[str]
    duplicates_dropped: int  # rows handed back twice by a retried batch, written once
    seconds: float


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
    """The output folder: what is done in it, and new result lines appended to fresh shards."""

    def __init__(self, folder: Path, run: str):
        self.folder = folder
        self.run = run
        folder.mkdir(parents=True, exist_ok=True)
        self.written = self._done_ids()
        self._fh: Any = None
        self._count = 0
        self._shard = 0
        self.duplicates = 0

    def _done_ids(self) -> set[str]:
        """Ids scored ok by earlier runs; each shard is rewritten without its failed rows (and a
        line an interruption cut), which are then retried, as the local batch resumes
        (:func:`~rt4chart_plugins.batch.done_rows`); an id in two shards stays in the first."""
        done: set[str] = set()
        for shard in sorted(self.folder.glob("*.jsonl")):
            rows = done_rows(shard)
            if done.intersection(rows):
                replace_lines(shard, [line for rid, line in rows.items() if rid not in done])
            done.update(rows)
        return done

    def write(self, row: dict[str, Any]) -> bool:
        """Append one result row unless its id is already written; whether it was written."""
        if row["id"] in self.written:
            self.duplicates += 1
            return False
        if self._fh is None or self._count >= ROWS_PER_SHARD:
            self.close()
            self._shard += 1
            self._fh = open(self.folder / f"part-{self.run}-{self._shard:05d}.jsonl", "a", encoding="utf-8")
            self._count = 0
        self._fh.write(batch_line(row) + "\n")
        self._fh.flush()
        self._count += 1
        self.written.add(row["id"])
        return True

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _collect(
    rows: Any, path: Path, done: set[str], seen: dict[str, Path], items: list[dict], failed: list[dict]
) -> int:
    """Sort one file's (id, parsed row or error) into items to score and failed result rows;
    an id another file already has is a failed row. Returns the rows read."""
    total = 0
    for rid, parsed in rows:
        total += 1
        if rid in seen and seen[rid] != path:
            parsed = ValueError(f"duplicate id {rid!r}: also in {seen[rid]}")
            rid = f"{rid}@{path}"
        seen.setdefault(rid, path)
        if rid in done:
            continue
        if isinstance(parsed, VerifyInput):
            items.append({"id": rid, INPUT_COLUMN: parsed.model_dump_json()})
        else:
            failed.append(result_row(rid, error=error_text(parsed)))
    return total


def _jsonl_items(files: list[Path], done: set[str], seen: dict[str, Path]) -> tuple[int, list[dict], list[dict]]:
    """(rows read, items to score, failed result rows) of the JSONL files, read as the local batch reads them."""
    items: list[dict] = []
    failed: list[dict] = []
    total = sum(_collect(read_rows(path), path, done, seen, items, failed) for path in files)
    return total, items, failed


def _parquet_items(files: list[Path], done: set[str], seen: dict[str, Path]) -> tuple[int, list[dict], list[dict]]:
    """The same for Parquet files, which need an ``id`` column; a row that does not validate is a failed row."""
    import pyarrow.parquet as pq

    items: list[dict] = []
    failed: list[dict] = []
    total = 0
    for path in files:
        table = pq.read_table(path)
        if "id" not in table.column_names:
            raise InvalidInput(f"{path}: a Parquet input needs an id column; it has {', '.join(table.column_names)}")
        total += _collect((parse_record(r) for r in table.to_pylist()), path, done, seen, items, failed)
    return total, items, failed


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
) -> JobSummary:
    from tqdm import tqdm

    started = time.perf_counter()
    ray = import_ray()  # before OUT is touched: without the extra, nothing changes
    files = input_files(input_spec)
    writer = ShardWriter(output, time.strftime("%Y%m%dT%H%M%S"))
    done = set(writer.written)
    jsonl = [f for f in files if f.suffix == ".jsonl"]
    parquet = [f for f in files if f.suffix == ".parquet"]
    seen: dict[str, Path] = {}
    total, items, failed_rows = _jsonl_items(jsonl, done, seen)
    ok = failed = 0
    failed_ids: list[str] = []

    def record(row: dict[str, Any]) -> None:
        nonlocal ok, failed
        if writer.write(row):
            if row["ok"]:
                ok += 1
            else:
                failed += 1
                failed_ids.append(row["id"])
            bar.update(1)

    if parquet:
        more_total, more_items, more_failed = _parquet_items(parquet, done, seen)
        total += more_total
        items += more_items
        failed_rows += more_failed
    todo = len(items) + len(failed_rows)
    if items:
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        logging.getLogger("ray.data").setLevel(logging.WARNING)  # our bar, not Ray Data's logs and bars
        ray.data.DataContext.get_current().enable_progress_bars = False
    bar = tqdm(total=todo, desc="verify", unit="row", disable=not progress)
    try:
        for row in failed_rows:
            record(row)
        if items:
            results = map_spec(
                ray.data.from_items(items), spec, workers=workers, batch_size=batch_size, rate_limit=rate_limit
            )
            for row in results.iter_rows():
                record({k: row[k] for k in ("id", "ok", "error", "report")})
    finally:
        bar.close()
        writer.close()
    return JobSummary(
        total=total,
        skipped=total - todo,
        ok=ok,
        failed=failed,
        failed_ids=failed_ids,
        duplicates_dropped=writer.duplicates,
        seconds=time.perf_counter() - started,
    )


#: failed ids printed at most; the rest are in OUT (``"ok":false``)
SHOWN_FAILED = 20


def spec_from_args(args: Any, judge_kwargs: dict[str, Any]) -> DetectorSpec:
    """The detector that ``rt4chart verify``'s flags describe, as a spec for the workers, checked by
    the factory the local run uses; ``judge_kwargs``: the judge options the CLI read from its
    judge flags (:func:`rt4chart_plugins.cli.judge_kwargs`)."""
    if args.method == "gasp":
        options = {
            k: v
            for k, v in (("model", args.scorer), ("chunks", args.chunks), ("threshold", args.threshold))
            if v is not None
        }
        return DetectorSpec.create(method="gasp", judge=args.judge, options=options, concurrency=args.concurrency)
    options = {
        "window_size": args.window_size,
        "window_overlap": args.window_overlap,
        "global_verification": not args.no_global,
    }
    if args.decomposition:
        options["decomposition"] = args.decomposition
    if getattr(args, "deadline", None) is not None:
        options["deadline"] = args.deadline
    return DetectorSpec.create(
        judge=args.judge, judge_kwargs=judge_kwargs, options=options, concurrency=args.concurrency
    )


def cli_main(args: Any, judge_kwargs: dict[str, Any]) -> int:
    """``rt4chart verify IN -o OUT --engine ray``: exit 1 when a row failed, naming the failed ids.
    The CLI passes the judge options it read, so that this module needs nothing from it."""
    import sys

    if getattr(args, "format", None) not in (None, "json", "jsonl"):
        raise InvalidInput(f"--engine ray writes JSONL shards; --format {args.format} is for the local engine")
    if args.output == "-" or Path(args.output).is_file():
        raise InvalidInput(f"--engine ray writes a folder of shards; -o {args.output} is not a folder")
    summary = run_job(
        spec_from_args(args, judge_kwargs),
        args.input,
        Path(args.output),
        address=args.address,
        workers=args.workers,
        rate_limit=args.rate_limit,
        progress=not args.quiet,
    )
    print(
        f"{summary.total} rows: {summary.skipped} already done, {summary.ok} scored, {summary.failed} failed "
        f"→ {args.output}/ ({summary.seconds:.1f} s)",
        file=sys.stderr,
    )
    if summary.failed:
        shown = ", ".join(summary.failed_ids[:SHOWN_FAILED])
        more = len(summary.failed_ids) - SHOWN_FAILED
        print(
            f"failed ids: {shown}"
            + (f" and {more} more" if more > 0 else "")
            + ' (their errors are in the shards\' "ok":false lines; a re-run retries them)',
            file=sys.stderr,
        )
    return 1 if summary.failed else 0
