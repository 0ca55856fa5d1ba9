"""A batch file as people write it: integer ids, a repeated id, a byte-order mark, and many rows.
Through the CLI's batch runner with the trained verifier."""

from __future__ import annotations

import json

import pytest

import rt4chart_plugins.runs.formats as formats
import rt4chart_plugins.runs.local as local
import rt4chart_plugins.runs.rows_out as rows_out
from rt4chart_plugins import Verifier
from rt4chart_plugins.batch import run_batch

CONTEXT = "The trial lasts 14 days. Only verified users are eligible."


@pytest.fixture(scope="module")
def verifier():
    return Verifier("trained")


def _written(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _row(row_id, answer="The trial lasts 14 days.") -> dict:
    return {"id": row_id, "context": CONTEXT, "answer": answer}


def test_an_integer_id_is_read_as_a_string_and_a_duplicate_fails_only_itself(tmp_path, verifier):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_text("\n".join(json.dumps(r) for r in [_row(5), _row("5", "The trial lasts 30 days."), _row(6)]) + "\n")
    summary = run_batch(verifier, inp, out, progress=False)
    rows = _written(out)
    assert [r["id"] for r in rows] == ["5", "5@line-2", "6"]
    assert [r["ok"] for r in rows] == [True, False, True]
    assert rows[0]["report"]["label"] == "ENT" and "duplicate id '5'" in rows[1]["error"]
    assert (summary.ok, summary.failed) == (2, 1)
    assert run_batch(verifier, inp, out, progress=False).skipped == 2  # a re-run keeps the scored rows


def test_a_byte_order_mark_is_skipped(tmp_path, verifier):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_bytes(b"\xef\xbb\xbf" + "\n".join(json.dumps(_row(f"r{i}")) for i in range(2)).encode() + b"\n")
    summary = run_batch(verifier, inp, out, progress=False)
    assert summary.failed == 0 and [r["id"] for r in _written(out)] == ["r0", "r1"]


class _CountedRows(list):
    """The input rows, counting the passes made over them."""

    passes = 0

    def __iter__(self):
        type(self).passes += 1
        return super().__iter__()


_READ_ROWS = local.read_rows


def _passes(tmp_path, n: int, monkeypatch) -> int:
    monkeypatch.setattr(local, "read_rows", lambda *args: _CountedRows(_READ_ROWS(*args)))
    _CountedRows.passes = 0
    inp, out = tmp_path / f"in{n}.jsonl", tmp_path / f"out{n}.jsonl"
    inp.write_text("".join(json.dumps({"id": i, "answer": 1}) + "\n" for i in range(n)))  # every row fails
    summary = run_batch(Verifier("trained"), inp, out, progress=False)
    assert summary.failed == n and len(_written(out)) == n
    return _CountedRows.passes


def test_the_final_rewrite_reads_the_rows_a_fixed_number_of_times(tmp_path, monkeypatch):
    """The rewrite in input order rebuilt a dict of every row for each row: 10,000 rows took 66 s,
    20,000 six minutes, and a 120,022-row input never got there."""
    assert _passes(tmp_path, 400, monkeypatch) == _passes(tmp_path, 100, monkeypatch)


def _short_rows(path, n: int) -> None:
    rows = [("The trial lasts 14 days.", "The trial lasts 14 days."), ("Cats sleep a lot.", "Cats bark.")]
    path.write_text("".join(json.dumps({"id": i, "context": rows[i % 2][0], "answer": rows[i % 2][1]}) + "\n"
                            for i in range(n)))


def test_a_batch_holds_the_reports_in_flight_not_every_report(tmp_path, monkeypatch):
    """Every row's report was kept until the last row was done: 100,000 rows' came to gigabytes."""
    import gc

    from rt4chart_plugins import Report

    _short_rows(tmp_path / "in.jsonl", 300)
    live: list[int] = []
    write_row = rows_out.result_line

    def counting(row_id, ok, **fields):
        if row_id == "250":
            gc.collect()
            live.append(sum(isinstance(o, Report) for o in gc.get_objects()))
        return write_row(row_id, ok, **fields)

    monkeypatch.setattr(rows_out, "result_line", counting)
    run_batch(Verifier("trained"), tmp_path / "in.jsonl", tmp_path / "out.jsonl", progress=False, concurrency=2)
    # the rows in flight and the few a busy machine has finished but not yet let go (17 seen on
    # a loaded 2-core machine, against 10 idle); never the 250 rows done before
    assert live and live[0] <= 40, live


def test_the_final_rewrite_writes_the_lines_without_copying_them_all(tmp_path, monkeypatch):
    import tracemalloc

    _short_rows(tmp_path / "in.jsonl", 600)
    peaks: list[tuple[int, int]] = []
    rewrite = formats.replace_lines

    def measured(path, lines):
        size = sum(len(line) for line in lines)
        tracemalloc.start()
        try:
            rewrite(path, lines)
            peaks.append((size, tracemalloc.get_traced_memory()[1]))
        finally:
            tracemalloc.stop()

    monkeypatch.setattr(formats, "replace_lines", measured)
    run_batch(Verifier("trained"), tmp_path / "in.jsonl", tmp_path / "out.jsonl", progress=False)
    size, peak = peaks[-1]
    assert peak < size / 4, (size, peak)  # the lines joined first: twice their size, and more
