"""JSONL in, JSONL out: score a file of samples, resumably, without losing a row.

Each result is appended and flushed as soon as it is ready, so an interrupted run keeps what it
did; a re-run skips the rows already scored and retries the ones that failed. A row that fails
(bad JSON, bad fields, a judge that gave up) is written with its error, and every other row is
still scored.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ValidationError

from rt4chart_plugins.types import BatchRow, VerifyInput
from rt4chart_plugins.detector import Detector, failed_report


class BatchSummary(BaseModel):
    total: int
    skipped: int  # already done by an earlier run
    ok: int
    failed: int


def read_rows(path: Path) -> list[tuple[str, VerifyInput | Exception]]:
    """(id, parsed row or the error that prevents parsing it) for each non-blank line."""
    rows: list[tuple[str, VerifyInput | Exception]] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            row_id = f"line-{number}"
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise ValueError("each line must be a JSON object")
                if data.get("id") is not None:
                    row_id = str(data["id"])
                parsed: VerifyInput | Exception = VerifyInput.model_validate(data)
            except (ValueError, ValidationError) as exc:
                parsed = exc
            if row_id in seen:
                parsed = ValueError(f"duplicate id {row_id!r} (line {number})")
                row_id = f"{row_id}@line-{number}"
            seen.add(row_id)
            rows.append((row_id, parsed))
    return rows


def _done_ids(output: Path) -> set[str]:
    """Ids already scored; the output is rewritten without its failed rows, which are retried."""
    if not output.exists():
        return set()
    keep: list[str] = []
    done: set[str] = set()
    for line in output.read_text(encoding="utf-8").splitlines():
        try:
            row = BatchRow.model_validate_json(line)
        except ValidationError:
            continue  # a line cut by an interruption
        if row.ok:
            done.add(row.id)
            keep.append(line)
    tmp = output.with_suffix(output.suffix + ".tmp")
    tmp.write_text("".join(k + "\n" for k in keep), encoding="utf-8")
    tmp.replace(output)
    return done


def run_batch(verifier: Detector, input_path: Path, output_path: Path, *, concurrency: int = 2,
              progress: bool = True) -> BatchSummary:
    from tqdm import tqdm

    rows = read_rows(input_path)
    done = _done_ids(output_path)
    todo = [(rid, r) for rid, r in rows if rid not in done]
    ok = failed = 0
    bar = tqdm(total=len(todo), desc="verify", unit="row", disable=not progress)
    with open(output_path, "a", encoding="utf-8") as out:

        def write(row: BatchRow) -> None:
            nonlocal ok, failed
            out.write(row.model_dump_json() + "\n")
            out.flush()
            ok, failed = (ok + 1, failed) if row.ok else (ok, failed + 1)
            bar.update(1)

        good: list[tuple[str, VerifyInput]] = []
        for rid, parsed in todo:
            if isinstance(parsed, Exception):
                write(BatchRow(id=rid, ok=False, error=f"{type(parsed).__name__}: {parsed}"))
            else:
                good.append((rid, parsed))

        def on_result(index: int, report) -> None:
            rid = good[index][0]
            bad = report.state == "failed"
            write(BatchRow(id=rid, ok=not bad, report=report, error=report.error if bad else None))

        if good:
            verifier.verify_many([r for _, r in good], concurrency=concurrency, on_result=on_result)
    bar.close()
    return BatchSummary(total=len(rows), skipped=len(rows) - len(todo), ok=ok, failed=failed)


__all__ = ["run_batch", "read_rows", "BatchSummary", "failed_report"]
