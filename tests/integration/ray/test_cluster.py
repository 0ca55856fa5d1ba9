"""``rt4chart verify --engine ray`` on a two-node cluster on this machine (Ray's own
``ray.cluster_utils.Cluster``, one CPU a node): the same results as ``verify_many``, and a worker
killed or a node removed mid-run costs no row and writes none twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ray_helpers import RAY_ARGS, comparable, count_written, read_output, write_jsonl

ray = pytest.importorskip("ray", reason="needs the [ray] extra")
pytestmark = pytest.mark.ray

RT4CHART = Path(sys.executable).parent / "rt4chart"
NODE = {"num_cpus": 1, "object_store_memory": RAY_ARGS["object_store_memory"]}


@pytest.fixture(scope="module")
def two_nodes():
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    worker = cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    yield cluster, worker
    cluster.shutdown()


def start(cluster, src: Path, out: Path) -> subprocess.Popen:
    cmd = [str(RT4CHART), "verify", str(src), "-o", str(out), "--engine", "ray", "--address", cluster.address,
           "--workers", "2", "-q"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen, timeout: float = 240) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"the job did not finish in {timeout} s:\n{err[-3000:]}")
    return proc.returncode, err


def wait_for_lines(out: Path, n: int, proc: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.is_dir() and count_written(out) >= n:
            return
        if proc.poll() is not None:
            pytest.fail(f"the job ended before {n} rows were written: {proc.stderr.read()[-2000:]}")
        time.sleep(0.2)
    pytest.fail(f"fewer than {n} rows written in {timeout} s")


def scoring_actor_pids() -> list[int]:
    """The processes of Ray Data's scoring actors (their title names the map operator)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if b"MapWorker(MapBatches(Scorer))" in title:
                pids.append(int(entry.name))
    return pids


def assert_complete_and_equal(out: Path, reference: dict[str, dict]) -> None:
    lines = read_output(out)
    ids = [x["id"] for x in lines]
    assert len(ids) == len(set(ids)), "an id was written twice"
    assert set(ids) == set(reference), "a row is missing"
    for x in lines:
        assert x["ok"] is True, x
        assert comparable(x["report"]) == reference[x["id"]], x["id"]


def test_two_nodes_give_what_verify_many_gives(two_nodes, rows, reference, tmp_path):
    cluster, _ = two_nodes
    code, err = finish(start(cluster, write_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "out"))
    assert code == 0, err
    assert "200 rows: 0 already done, 200 scored, 0 failed" in err
    assert_complete_and_equal(tmp_path / "out", reference)


def test_a_worker_killed_mid_run_loses_no_row(two_nodes, rows, reference, tmp_path):
    cluster, _ = two_nodes
    out = tmp_path / "out"
    proc = start(cluster, write_jsonl(tmp_path / "in.jsonl", rows), out)
    wait_for_lines(out, 20, proc)
    pids = scoring_actor_pids()
    assert pids, "no scoring actor found"
    os.kill(pids[-1], signal.SIGKILL)
    code, err = finish(proc)
    assert code == 0, err
    assert_complete_and_equal(out, reference)
    assert pids[-1] not in scoring_actor_pids()


def test_a_node_removed_mid_run_loses_no_row(two_nodes, rows, reference, tmp_path):
    """Last in the module: the cluster has one node afterwards."""
    cluster, worker = two_nodes
    out = tmp_path / "out"
    proc = start(cluster, write_jsonl(tmp_path / "in.jsonl", rows), out)
    wait_for_lines(out, 20, proc)
    cluster.remove_node(worker, allow_graceful=False)
    code, err = finish(proc)
    assert code == 0, err
    assert_complete_and_equal(out, reference)
