"""The reader's labels on disk: JSONL shards in one folder, one reading a line, appended as they come.

Kept apart from the job that writes them (:mod:`.reader_labels`) because the fit
(:mod:`.fit_reader`) and the training's ``reader`` source (:mod:`rt4chart_lab.training.data`)
read them too, and the job itself builds its pairs with the training's code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from rt4chart_lab import jsonl
from rt4chart_plugins.errors import InvalidInput

#: where the committed labels live
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "reader_labels"
SHARD_SIZE = 400


def read_labels(folder: Path = DEFAULT_OUT) -> list[dict]:
    """Every reading committed in ``folder``'s shards, in shard order."""
    return [r for path in sorted(Path(folder).glob("labels-*.jsonl")) for r in jsonl.records(path)]


def reader_model(rows: list[dict]) -> str:
    """The one reader model ``rows`` were read by. Labels of two readers are refused: a fit or a
    training run over both would learn two calibrations at once."""
    models = sorted({r["model"] for r in rows})
    if len(models) != 1:
        raise InvalidInput(f"reader labels from {len(models)} models ({', '.join(models)}); use one at a time")
    return models[0]


class LabelShards:
    """The JSONL shards of one output folder: which ids they hold, and appending to the last one."""

    def __init__(self, folder: Path, shard_size: int = SHARD_SIZE):
        self.folder, self.shard_size = Path(folder), shard_size
        self.folder.mkdir(parents=True, exist_ok=True)
        self.done: set[str] = set()
        self._lines_in_last = 0
        self._last: Path | None = None
        for path in self.shards():
            read = jsonl.records(path)  # a line cut short by a kill is skipped: its pair is read again
            self.done.update(r["id"] for r in read)
            self._last, self._lines_in_last = path, len(read)

    def shards(self) -> list[Path]:
        return sorted(self.folder.glob("labels-*.jsonl"))

    def _path(self) -> Path:
        """The shard the next line goes to: the last one, or a new one once it is full."""
        if self._last is None or self._lines_in_last >= self.shard_size:
            self._last = self.folder / f"labels-{len(self.shards()):03d}.jsonl"
            self._lines_in_last = 0
        return self._last

    def append(self, record: dict) -> None:
        """Append one line and flush it to disk. The shard is opened for each line, not held open:
        a git checkout, stash or merge replaces the file under a job that runs for days, and a
        held handle would go on writing into the replaced file, where its lines are lost."""
        path = self._path()
        tail_ok = not path.exists() or path.stat().st_size == 0 or path.read_bytes()[-1:] == b"\n"
        with path.open("a", encoding="utf-8") as fh:
            if not tail_ok:
                fh.write("\n")  # a line cut short: start the next one on its own line
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._lines_in_last += 1
        self.done.add(record["id"])

    def close(self) -> None:
        """Nothing is held open between lines (kept so that callers may say they are done)."""
