"""A batch file as people write it, through the CLI's batch runner with the trained verifier."""

from __future__ import annotations

import json

import rt4chart_plugins.batch as batch
from rt4chart_plugins import Verifier
from rt4chart_plugins.batch import run_batch


def _written(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class _CountedRows(list):
    """The input rows, counting the passes made over them."""

    passes = 0

    def __iter__(self):
        type(self).passes += 1
        return super().__iter__()


_READ_ROWS = batch.read_rows


def _passes(tmp_path, n: int, monkeypatch) -> int:
    monkeypatch.setattr(batch, "read_rows", lambda path: _CountedRows(_READ_ROWS(path)))
    _CountedRows.passes = 0
    inp, out = tmp_path / f"in{n}.jsonl", tmp_path / f"out{n}.jsonl"
    inp.write_text("".join(json.dumps({"id": f"r{i}", "answer": 1}) + "\n" for i in range(n)))  # every row fails
    summary = run_batch(Verifier("trained"), inp, out, progress=False)
    assert summary.failed == n and len(_written(out)) == n
    return _CountedRows.passes


def test_the_final_rewrite_reads_the_rows_a_fixed_number_of_times(tmp_path, monkeypatch):
    """The rewrite in input order rebuilt a dict of every row for each row: 10,000 rows took 66 s,
    20,000 six minutes, and a 120,022-row input never got there."""
    assert _passes(tmp_path, 400, monkeypatch) == _passes(tmp_path, 100, monkeypatch)
