"""The judge cache shared by processes on one machine (a Ray job's workers, parallel CLI runs):
processes that open one new file at the same moment each keep their cache and lose no write."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import warnings

import pytest

from rt4chart_plugins.judges.cache import JudgeCache

WRITERS = 3
KEYS = 100
TRIALS = 16  # before the fix, about one start in four lost the race


def _writer(folder: str, k: int, start, out) -> None:
    """For each trial, wait until every writer is ready, then open that trial's new file at once
    (the race a Ray job's workers run) and write this writer's keys."""
    for trial in range(TRIALS):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            start.wait()
            cache = JudgeCache(f"{folder}/cache-{trial}.sqlite")
            for i in range(KEYS):
                cache.put(f"{k}-{i}", {"worker": k, "i": i})
        out.put((trial, k, [str(w.message) for w in caught]))


@pytest.mark.slow  # three spawned processes, each importing the package, racing 16 times: the full run's
def test_processes_that_open_one_new_file_at_once_all_write_into_it(tmp_path):
    # spawned, not forked: a fork of a process with threads (a pytest-xdist worker) can hang
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(WRITERS, timeout=120), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), k, start, out)) for k in range(WRITERS)]
    for p in procs:
        p.start()
    try:
        results = [out.get(timeout=120) for _ in range(TRIALS * WRITERS)]
        for p in procs:
            p.join(timeout=60)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
    assert [(t, k, w) for t, k, w in results if w] == []
    assert all(p.exitcode == 0 for p in procs)
    for trial in range(TRIALS):
        cache = JudgeCache(tmp_path / f"cache-{trial}.sqlite")
        assert all(cache.get(f"{k}-{i}") == {"worker": k, "i": i} for k in range(WRITERS) for i in range(KEYS))


def test_a_new_file_whose_write_lock_another_connection_holds_is_waited_for(tmp_path):
    """The race, made certain: another connection holds the new file's write lock while the cache
    switches it to WAL. SQLite answers "database is locked" at once there (waiting could deadlock),
    and the cache must try again rather than run without itself."""
    path = tmp_path / "cache.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE other (x)")
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cache = JudgeCache(path)
            cache.put("key", {"value": 1})
    finally:
        release.join()
        holder.close()
    assert [str(w.message) for w in caught] == []
    assert JudgeCache(path).get("key") == {"value": 1}
