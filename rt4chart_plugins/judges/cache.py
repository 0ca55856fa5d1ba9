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
import time
import warnings
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

_LOCK_WAIT_S = 30.0


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    """SQLite's busy answers: another connection holds the lock."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def default_cache_dir() -> Path:
    """``$RT4CHART_CACHE_DIR`` or the platform's user cache dir (``~/.cache/rt4chart``)."""
    env = os.environ.get("RT4CHART_CACHE_DIR")
    return Path(env) if env else Path(user_cache_dir("rt4chart"))


def cache_key(*parts: object) -> str:
    """A stable digest of everything that determines a judge's answer."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ForeignLayout(sqlite3.DatabaseError):
    """A SQLite file whose ``cache`` is not this cache's table: another program's database, another
    layout, or a view. Every read of it would miss and every write fail, turning the cache off
    without a word, so it is treated as a damaged file: moved aside, with a warning."""


#: the columns of the cache table, as ``PRAGMA table_info`` lists them: (name, type, primary key)
_LAYOUT = [("key", "TEXT", 1), ("value", "TEXT", 0)]


def _check_layout(db: sqlite3.Connection) -> None:
    """Raise :class:`ForeignLayout` unless ``cache`` is a table of exactly :data:`_LAYOUT`."""
    kind = db.execute("SELECT type FROM sqlite_master WHERE name = 'cache'").fetchone()
    if kind is None or kind[0] != "table":
        raise ForeignLayout(f"its 'cache' is a {kind[0] if kind else 'missing table'}, not a table")
    columns = [(row[1], str(row[2]).upper(), row[5]) for row in db.execute("PRAGMA table_info(cache)")]
    if columns != _LAYOUT:
        names = ", ".join(c[0] for c in columns)
        raise ForeignLayout(f"its table 'cache' has the columns {names}, not key, value")


class JudgeCache:
    """get/put of JSON-serializable values. ``path=None`` means the default location.

    A file that is not a SQLite database, whose pages are damaged (truncated, bits flipped), or
    whose ``cache`` is not this table (another layout, a view: :class:`ForeignLayout`), is moved
    aside (``NAME.corrupt-TIME``) and a new one is started, with one warning: a cache only saves
    work, so losing it must cost no row. A cache that cannot be made at all (its
    folder is a file, or not writable) is left off, with one warning."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else default_cache_dir() / "judge-cache.sqlite"
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        with self._lock:
            self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
        except sqlite3.OperationalError as exc:  # cannot open it at all (a folder, no permission), or locked
            self._off(exc)
        except sqlite3.DatabaseError as exc:  # not a database: a file of something else, or a damaged one
            self._move_aside(exc)
        except OSError as exc:  # the folder cannot be made: a file has its name
            self._off(exc)

    def _connect(self) -> sqlite3.Connection:
        """Open the file, in WAL mode, with its table.

        Switching a new file to WAL takes SQLite's exclusive lock without waiting on the busy
        timeout, so processes that open one file at the same moment see "database is locked" at
        once: that, and only that, is tried again (with a growing pause, up to the same 30 s a
        write waits) instead of turning the cache off for the process that lost the race."""
        deadline = time.monotonic() + _LOCK_WAIT_S
        pause = 0.01
        while True:
            db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=_LOCK_WAIT_S)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT)")
                db.commit()
                _check_layout(db)
                return db
            except sqlite3.OperationalError as exc:
                db.close()
                if not _is_locked(exc) or time.monotonic() + pause > deadline:
                    raise
            except sqlite3.DatabaseError:
                db.close()
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _off(self, exc: BaseException) -> None:
        self._db = None
        warnings.warn(
            f"the judge cache {self.path} cannot be used ({type(exc).__name__}: {exc}); running without it",
            RuntimeWarning,
            stacklevel=4,
        )

    def _move_aside(self, exc: BaseException) -> None:
        """Put a damaged file (and its WAL) aside and start a new one. Called with the lock held."""
        if self._db is not None:
            self._db.close()
            self._db = None
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            for suffix in ("", "-wal", "-shm"):
                part = self.path.with_name(self.path.name + suffix)
                if part.exists():
                    part.replace(aside.with_name(aside.name + suffix))
            self._db = self._connect()
        except (OSError, sqlite3.DatabaseError) as again:
            self._off(again)
            return
        what = f"is not a judge cache ({exc})" if isinstance(exc, ForeignLayout) else "was damaged"
        if not isinstance(exc, ForeignLayout):
            what += f" ({type(exc).__name__}: {exc})"
        warnings.warn(
            f"the judge cache {self.path} {what}; it was moved to {aside.name} and a new one started",
            RuntimeWarning,
            stacklevel=4,
        )

    def get(self, key: str) -> Any:
        """The value put under ``key``, read back from its JSON; None on a miss."""
        with self._lock:
            if self._db is None:
                return None
            try:
                row = self._db.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
            except sqlite3.OperationalError:  # locked past the timeout by other processes: a miss
                return None
            except sqlite3.DatabaseError as exc:  # a damaged page
                self._move_aside(exc)
                return None
        try:
            return None if row is None else json.loads(row[0])
        except (ValueError, TypeError):  # a value damaged in place (cut, NULL): a miss, the next put replaces it
            return None

    def put(self, key: str, value: object) -> None:
        with self._lock:
            for _ in range(2):  # once more on a new file, if this one turns out to be damaged
                if self._db is None:
                    return
                try:
                    self._db.execute(
                        "INSERT OR REPLACE INTO cache (key, value) VALUES (?, ?)",
                        (key, json.dumps(value, ensure_ascii=False)),
                    )
                    self._db.commit()
                    return
                except sqlite3.OperationalError:  # locked past the timeout by other processes: not stored
                    self._db.rollback()
                    return
                except sqlite3.DatabaseError as exc:
                    self._move_aside(exc)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def cache_from_setting(setting: JudgeCache | str | Path | bool | None) -> JudgeCache | None:
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
