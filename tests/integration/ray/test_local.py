"""``verify_dataset`` and ``rt4chart verify --engine ray`` on a local Ray cluster of 2 CPUs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ray_helpers import RAY_ARGS, comparable, read_output, write_jsonl

ray = pytest.importorskip("ray", reason="needs the [ray] extra")
pytestmark = pytest.mark.ray

from rt4chart_plugins.distributed import verify_dataset  # noqa: E402
from rt4chart_plugins.errors import InvalidInput  # noqa: E402

RT4CHART = Path(sys.executable).parent / "rt4chart"


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, **RAY_ARGS)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def by_id(results: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in results}


def test_verify_dataset_equals_verify_many_row_for_row(cluster, rows, reference):
    import json

    out = verify_dataset(ray.data.from_items([{"id": r["id"], "input": json.dumps(r)} for r in rows]),
                         workers=2).take_all()
    assert sorted(r["id"] for r in out) == sorted(reference)  # every row, once
    for row in out:
        assert row["ok"] is True and row["error"] is None, row
        assert comparable(json.loads(row["report"])) == reference[row["id"]], row["id"]


def test_columns_in_bad_rows_out_as_rows(cluster, rows):
    """A row without an answer and a row over the context limit come back ok=false with their
    error; the others are scored."""
    import json

    items = [{"id": r["id"], "context": r["context"] if isinstance(r["context"], str) else " ".join(r["context"]),
              "answer": r["answer"]} for r in rows[:6]]
    items[1]["answer"] = None
    items[2]["context"] = "x" * 50
    out = by_id(verify_dataset(ray.data.from_items(items), workers=1, max_context_chars=40).take_all())
    assert set(out) == {i["id"] for i in items}
    assert out[items[1]["id"]]["ok"] is False and out[items[1]["id"]]["report"] is None
    assert "answer" in out[items[1]["id"]]["error"]
    assert out[items[2]["id"]]["ok"] is False and "max_context_chars" in out[items[2]["id"]]["error"]
    assert json.loads(out[items[2]["id"]]["report"])["state"] == "failed"


def test_a_failing_judge_gives_failed_rows_and_the_job_finishes(cluster, rows):
    """The openai judge at an endpoint nobody listens on, through the shared rate limit: every
    row ok=false with the judge's error, and the job finishes."""
    import json

    out = verify_dataset(ray.data.from_items([{"id": r["id"], "input": json.dumps(r)} for r in rows[:4]]),
                         judge="openai", workers=1, decomposition="sentence", rate_limit=50, burst=5,
                         judge_kwargs={"base_url": "http://127.0.0.1:9/v1", "api_key": "none", "model": "m",
                                       "max_retries": 0, "cache": False}).take_all()
    assert len(out) == 4
    for row in out:
        assert row["ok"] is False and json.loads(row["report"])["state"] == "failed"
        assert "openai" in row["error"] and "Connection" in row["error"], row["error"]


def test_every_request_of_a_judge_takes_a_token(cluster, rows):
    """Each attempt the judge sends, retries included, reserves a token of the bucket first."""
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.distributed.rate_limit import bucket_actor, limit_requests
    from rt4chart_plugins.judges.openai_compat import OpenAIJudge

    judge = OpenAIJudge("m", base_url="http://127.0.0.1:9/v1", api_key="none", max_retries=2, backoff=0.01,
                        cache=False)
    bucket = bucket_actor(100.0, burst=10)
    limit_requests(judge, bucket)
    report = Verifier(judge, decomposition="sentence").verify(context="The sky is blue.", answer="The sky is green.")
    assert report.state == "failed"
    assert ray.get(bucket.stats.remote())["granted"] == 3  # one request, two retries
    with pytest.raises(InvalidInput, match="calls none"):
        limit_requests(Verifier().judge, bucket)


def test_actors_share_one_rate(cluster):
    """Two actors draw 30 tokens each from one bucket of 20 a second: the 60 requests take about
    (60 - burst) / 20 s, not half of that as two private buckets would allow."""
    from rt4chart_plugins.distributed.rate_limit import bucket_actor

    bucket = bucket_actor(20.0, burst=2)

    @ray.remote(num_cpus=1)
    def client(handle, n):
        import time as t

        for _ in range(n):
            t.sleep(ray.get(handle.reserve.remote()))
        return t.monotonic()

    start = time.monotonic()
    ends = ray.get([client.remote(bucket, 30), client.remote(bucket, 30)])
    assert max(ends) - start >= (60 - 2) / 20.0 * 0.95
    assert ray.get(bucket.stats.remote())["granted"] == 60


def test_the_judge_cache_takes_writes_from_many_workers(cluster, tmp_path):
    """Two worker processes write 300 keys each into one SQLite cache at once: every key is
    there, nothing raised."""
    path = str(tmp_path / "cache.sqlite")

    @ray.remote(num_cpus=1)
    def writer(k):
        from rt4chart_plugins.judges.cache import JudgeCache

        cache = JudgeCache(path)
        for i in range(300):
            cache.put(f"{k}-{i}", {"worker": k, "i": i})
        return os.getpid()

    pids = ray.get([writer.remote(0), writer.remote(1)])
    assert pids[0] != pids[1]
    from rt4chart_plugins.judges.cache import JudgeCache

    cache = JudgeCache(path)
    assert all(cache.get(f"{k}-{i}") == {"worker": k, "i": i} for k in (0, 1) for i in range(300))


def test_unknown_options_are_refused_before_anything_runs(cluster):
    ds = ray.data.from_items([{"id": "a", "context": "c", "answer": "a"}])
    with pytest.raises(InvalidInput, match="window_sise"):
        verify_dataset(ds, window_sise=3)
    with pytest.raises(InvalidInput, match="temperature"):
        verify_dataset(ds, judge_kwargs={"temperature": 0.0})  # the trained judge has none
    with pytest.raises(InvalidInput, match="rate_limit"):
        verify_dataset(ds, rate_limit=5)  # the trained judge calls no API
    with pytest.raises(InvalidInput, match="columns"):
        verify_dataset(ray.data.from_items([{"context": "c", "answer": "a"}]))


def test_cli_reads_jsonl_and_parquet_resumes_and_names_failed_ids(cluster, rows, reference, tmp_path):
    import pandas as pd

    src = tmp_path / "in"
    src.mkdir()
    write_jsonl(src / "a.jsonl", rows[:120], extra_lines=("{not json", '{"id": "no-answer", "context": "c"}'))
    part = [{**r, "context": r["context"] if isinstance(r["context"], str) else " ".join(r["context"]),
             "question": r.get("question")} for r in rows[120:]]
    pd.DataFrame(part).to_parquet(src / "b.parquet")
    out = tmp_path / "out"
    cmd = [str(RT4CHART), "verify", str(src), "-o", str(out), "--engine", "ray", "--address", cluster,
           "--workers", "2", "-q"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "202 rows: 0 already done, 200 scored, 2 failed" in done.stderr
    assert "failed ids: line-121, no-answer" in done.stderr
    lines = read_output(out)
    assert len(lines) == len({x["id"] for x in lines}) == 202
    got = {x["id"]: x for x in lines}
    for r in rows[:120]:
        assert comparable(got[r["id"]]["report"]) == reference[r["id"]]
    for r in rows[120:]:  # the same sentences, as one string: same verdicts
        assert [c["label"] for c in got[r["id"]]["report"]["claims"]] == \
               [c["label"] for c in reference[r["id"]]["claims"]]

    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 1
    assert "202 rows: 200 already done, 0 scored, 2 failed" in again.stderr
    lines = read_output(out)
    assert len(lines) == len({x["id"] for x in lines}) == 202  # the failed rows replaced, not added

    # a changed row is scored again; the rows the input no longer has leave OUT and the counts
    changed = {**rows[0], "answer": "Nobody visits it."}
    write_jsonl(src / "a.jsonl", [changed, *rows[1:118]])
    third = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert third.returncode == 0, third.stderr
    assert "198 rows: 197 already done, 1 scored, 0 failed" in third.stderr
    assert "1 row(s) scored again" in third.stderr and "4 row(s) of an earlier input removed" in third.stderr
    got = {x["id"]: x for x in read_output(out)}
    assert len(got) == len(read_output(out)) == 198
    assert got[rows[0]["id"]]["report"]["answer"] == "Nobody visits it."


def test_a_row_has_the_same_fingerprint_on_ray_as_in_a_local_run(cluster, rows, tmp_path):
    """The fingerprint's settings come from one place (``runs/spec.py``): a Ray run and a local run
    of the same flags agree on what each row's result depends on."""
    src = write_jsonl(tmp_path / "in.jsonl", rows[:6])
    flags = ["--decomposition", "sentence", "--window-size", "20", "-q"]
    local = tmp_path / "local.jsonl"
    done = subprocess.run([str(RT4CHART), "verify", str(src), "-o", str(local), *flags],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    done = subprocess.run([str(RT4CHART), "verify", str(src), "-o", str(out), "--engine", "ray", "--address", cluster,
                           "--workers", "1", *flags], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    on_ray = {x["id"]: x["fingerprint"] for x in read_output(out)}
    here = {x["id"]: x["fingerprint"] for x in map(json.loads, local.read_text().splitlines())}
    assert len(here) == 6 and None not in here.values() and on_ray == here
