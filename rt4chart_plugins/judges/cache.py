"""A persistent judge cache keyed by model + prompt, so that a re-run costs nothing.

SQLite because it is in the standard library, survives crashes mid-write, and is safe to share
between the threads the judges run in (one connection behind a lock).

Several processes (the workers of a Ray job on one node) may share one file: WAL mode lets them
read while one writes, and SQLite's file lock makes writers take turns, each waiting up to 30 s.
Two workers that write the same key write the same value (judges run at temperature 0) and the
later one stays. A cache is an optimization, so a read or write that still finds the file locked
is given up (a miss, or a value not stored) instead of failing the row that asked. Keep the file
on a local disk: SQLite's locks are unreliable on network file systems.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

from platformdirs import user_cache_dir


def default_cache_dir() -> Path:
    """``$RT4CHART_CACHE_DIR`` or the platform's user cache dir (``~/.cache/rt4chart``)."""
    env = os.environ.get("RT4CHART_CACHE_DIR")
    return Path(env) if env else Path(user_cache_dir("rt4chart"))


def cache_key(*parts: object) -> str:
    """A stable digest of everything that determines a judge's answer."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class JudgeCache:
    """get/put of JSON-serializable values. ``path=None`` means the default location."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else default_cache_dir() / "judge-cache.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT)")
            self._db.commit()

    def get(self, key: str) -> object | None:
        try:
            with self._lock:
                row = self._db.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:  # locked past the timeout by other processes: a miss
            return None
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: object) -> None:
        with self._lock:
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO cache (key, value) VALUES (?, ?)",
                    (key, json.dumps(value, ensure_ascii=False)),
                )
                self._db.commit()
            except sqlite3.OperationalError:  # locked past the timeout by other processes: not stored
                self._db.rollback()

    def close(self) -> None:
        with self._lock:
            self._db.close()


def cache_from_setting(setting: "JudgeCache | str | Path | bool | None") -> JudgeCache | None:
    """``True``/``None`` → default cache (unless ``RT4CHART_CACHE=0``), ``False`` → none."""
    if isinstance(setting, JudgeCache):
        return setting
    if setting is False:
        return None
    if setting is None or setting is True:
        if os.environ.get("RT4CHART_CACHE", "1") in ("0", "false", "no"):
            return None
        return JudgeCache()
    return JudgeCache(setting)
