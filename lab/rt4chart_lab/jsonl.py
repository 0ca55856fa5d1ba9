"""Reading the JSONL files the lab's long jobs append to (bench predictions, GASP features, reader
labels): a job killed mid-write leaves its last line cut short, and that line must cost only
its own record, never the file."""

from __future__ import annotations

import json
from pathlib import Path


def records(path: Path) -> list[dict]:
    """The file's records in order: the lines that are a JSON object with an ``id``. A line cut
    short (or anything else) is skipped, so its item is done again; a missing file has none."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "id" in record:
            out.append(record)
    return out
