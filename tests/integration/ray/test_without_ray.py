"""The engine's Ray-free parts, run without starting Ray (and without the extra): the output
line, a batch of rows with bad ones among them, the token bucket's arithmetic, the checks on
the driver, and the error that names the extra."""

from __future__ import annotations

import json
import sys

import pytest

from rt4chart_plugins import InvalidInput, MissingExtra, Verifier
from rt4chart_plugins.distributed.rate_limit import TokenBucket
from rt4chart_plugins.distributed.rows import batch_line, score_records
from rt4chart_plugins.runs.spec import DetectorSpec
from rt4chart_plugins.types import BatchRow, Report


@pytest.fixture(scope="module")
def verifier():
    return Verifier()


def test_result_rows_are_the_local_batch_lines(verifier, rows):
    records = [dict(rows[0]), {"id": 'q"uo\\te é', "context": "c"}, {"id": "n", "input": json.dumps(rows[3])}]
    out = score_records(verifier, records)
    assert out["id"] == [rows[0]["id"], 'q"uo\\te é', "n"]
    assert out["ok"] == [True, False, True]
    assert out["report"][1] is None and "answer" in out["error"][1]
    for i in range(3):
        row = {k: out[k][i] for k in out}
        report = Report.model_validate_json(row["report"]) if row["report"] else None
        assert batch_line(row) == BatchRow(id=row["id"], ok=row["ok"], report=report, error=row["error"]).model_dump_json()


def test_arrow_cells_are_read_as_json_values(verifier, rows):
    """Ray Data hands lists over as numpy arrays and missing values as NaN."""
    np = pytest.importorskip("numpy")
    passages = rows[0]["context"]
    assert isinstance(passages, list)
    out = score_records(verifier, [{"id": "a", "context": np.array(passages, dtype=object), "answer": rows[0]["answer"],
                                    "question": float("nan")}])
    assert out["ok"] == [True]
    assert json.loads(out["report"][0])["question"] is None


def test_the_bucket_spaces_reservations_at_its_rate():
    bucket = TokenBucket(10.0, burst=2)
    waits = [bucket.reserve() for _ in range(5)]
    assert waits[:2] == [0.0, 0.0]
    assert waits[2:] == pytest.approx([0.1, 0.2, 0.3], abs=0.02)
    with pytest.raises(InvalidInput):
        TokenBucket(0.0)


def test_the_driver_refuses_what_a_worker_would():
    with pytest.raises(InvalidInput, match="window_sise"):
        DetectorSpec.create(options={"window_sise": 3})
    with pytest.raises(InvalidInput, match="nope"):
        DetectorSpec.create(judge="nope")
    with pytest.raises(InvalidInput, match="temperature"):
        DetectorSpec.create(judge="trained", judge_kwargs={"temperature": 0})
    with pytest.raises(InvalidInput, match="chunkz"):
        DetectorSpec.create(method="gasp", options={"chunkz": 3})
    with pytest.raises(InvalidInput, match="no judge"):
        DetectorSpec.create(method="gasp", judge="trained")
    assert DetectorSpec.create(judge="openai", judge_kwargs={"model": "m", "base_url": "http://127.0.0.1:9/v1"}).sends_requests()
    assert not DetectorSpec.create().sends_requests()


def test_without_the_extra_the_error_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without Ray gives `import ray`
    from rt4chart_plugins.distributed import verify_dataset

    with pytest.raises(MissingExtra, match=r"rt4chart-plugins\[ray\]"):
        verify_dataset(object())


def test_engine_flags_need_the_ray_engine(tmp_path):
    from rt4chart_plugins.cli import main

    src = tmp_path / "in.jsonl"
    src.write_text('{"id": "a", "context": "c", "answer": "a"}\n', encoding="utf-8")
    assert main(["verify", str(src), "-o", str(tmp_path / "out.jsonl"), "--workers", "2"]) == 2
    # and what the ray engine cannot honour is refused, not ignored
    assert main(["verify", str(src), "-o", str(tmp_path / "out"), "--engine", "ray", "--format", "csv"]) == 2
    assert main(["verify", str(src), "-o", str(src), "--engine", "ray"]) == 2  # a file, not a folder
