"""``rt4chart verify --engine ray`` prints its own lines only: Ray's warnings ("Token authentication
is enabled", "Progress bars disabled") and its C++ core's error lines (``[... E ...]
core_worker.cc: ...``) reached the terminal on every run. ``--ray-logs`` shows them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="needs the [ray] extra")
pytestmark = pytest.mark.ray

RT4CHART = Path(sys.executable).parent / "rt4chart"
ROWS = [{"id": "q1", "context": "The free trial lasts 14 days.", "answer": "The free trial lasts 14 days."},
        {"id": "q2", "context": "The free trial lasts 14 days.", "answer": "The free trial lasts 30 days."}]


def run(tmp_path: Path, name: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp_path / "rows.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)  # a cluster started for the run, as a user's first try starts one
    cmd = [str(RT4CHART), "verify", str(src), "-o", str(tmp_path / name), "--engine", "ray", "--workers", "1", "-q",
           *flags]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


def test_the_ray_cli_prints_its_own_lines_and_rays_only_when_asked(tmp_path):
    done = run(tmp_path, "out")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["2 rows: 0 already done, 2 scored, 0 failed → " + str(tmp_path / "out") + "/"]
    loud = run(tmp_path, "loud", "--ray-logs")
    assert loud.returncode == 0, loud.stderr
    assert len(loud.stderr.splitlines()) > 1, loud.stderr  # Ray's own lines, then the summary
