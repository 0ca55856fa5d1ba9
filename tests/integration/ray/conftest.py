"""What the Ray tests share: the corpus, plain ``verify_many`` as the reference, and how to read
an output folder. Every test module here starts real Ray processes: each is marked ``ray`` (left out of the fast
unit run) and skipped without the ``[ray]`` extra."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from corpus import corpus  # noqa: E402

#: Ray's processes on 2 shared cores: no dashboard, a small object store, quiet logs
RAY_ARGS = {"include_dashboard": False, "object_store_memory": 150 * 1024**2, "log_to_driver": False}
os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway cluster on loopback
os.environ.setdefault("RAY_DEDUP_LOGS", "0")


def comparable(report: dict) -> dict:
    """A report without what differs from run to run: its timing."""
    report = json.loads(json.dumps(report))
    report.get("cost", {}).pop("seconds", None)
    return report


@pytest.fixture(scope="session")
def rows() -> list[dict]:
    return corpus(200)


@pytest.fixture(scope="session")
def reference(rows) -> dict[str, dict]:
    """Plain ``verify_many`` on the same rows with the same (default, trained) judge."""
    from rt4chart_plugins import Verifier

    reports = Verifier().verify_many(rows)
    return {r["id"]: comparable(rep.model_dump(mode="json")) for r, rep in zip(rows, reports)}


def read_output(folder: Path) -> list[dict]:
    """Every line of every shard, parsed (duplicates kept: the tests count them)."""
    return [json.loads(line) for shard in sorted(folder.glob("*.jsonl"))
            for line in shard.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, rows: list[dict], extra_lines: tuple[str, ...] = ()) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "".join(x + "\n" for x in extra_lines),
                    encoding="utf-8")
    return path
