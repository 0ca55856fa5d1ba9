"""What the Ray tests share besides fixtures: Ray's settings on 2 shared cores, and how to
compare reports and read an output folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

#: Ray's processes on 2 shared cores: no dashboard, a small object store, quiet logs
RAY_ARGS = {"include_dashboard": False, "object_store_memory": 150 * 1024**2, "log_to_driver": False}
os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway cluster on loopback
os.environ.setdefault("RAY_DEDUP_LOGS", "0")


def comparable(report: dict) -> dict:
    """A report without what differs from run to run: its timing."""
    report = json.loads(json.dumps(report))
    report.get("cost", {}).pop("seconds", None)
    return report


def read_output(folder: Path) -> list[dict]:
    """Every line of every shard, parsed (duplicates kept: the tests count them)."""
    return [json.loads(line) for shard in sorted(folder.glob("*.jsonl"))
            for line in shard.read_text(encoding="utf-8").splitlines()]


def count_written(folder: Path) -> int:
    """The lines written so far, while a job still writes: a line longer than the writer's
    buffer reaches the file in pieces, so only lines that end in a newline count."""
    return sum(shard.read_text(encoding="utf-8").count("\n") for shard in folder.glob("*.jsonl"))


def write_jsonl(path: Path, rows: list[dict], extra_lines: tuple[str, ...] = ()) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "".join(x + "\n" for x in extra_lines),
                    encoding="utf-8")
    return path
