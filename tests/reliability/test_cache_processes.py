"""The judge cache shared by processes on one machine (a Ray job's workers, parallel CLI runs):
processes that open one new file at the same moment each keep their cache and lose no write."""

from __future__ import annotations

import multiprocessing
import warnings

from rt4chart_plugins.judges.cache import JudgeCache

WRITERS = 3
KEYS = 100


def _writer(path: str, k: int, start, out) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start.wait()  # every process opens the file at once: the race a Ray job's workers run
        cache = JudgeCache(path)
        for i in range(KEYS):
            cache.put(f"{k}-{i}", {"worker": k, "i": i})
    out.put([str(w.message) for w in caught])


def test_processes_that_open_one_new_file_at_once_all_write_into_it(tmp_path):
    ctx = multiprocessing.get_context("fork")
    for trial in range(16):  # before the fix, about one start in four lost the race
        path = str(tmp_path / f"cache-{trial}.sqlite")
        start, out = ctx.Barrier(WRITERS), ctx.Queue()
        procs = [ctx.Process(target=_writer, args=(path, k, start, out)) for k in range(WRITERS)]
        for p in procs:
            p.start()
        warned = [out.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        assert warned == [[]] * WRITERS, warned
        cache = JudgeCache(path)
        assert all(cache.get(f"{k}-{i}") == {"worker": k, "i": i} for k in range(WRITERS) for i in range(KEYS))
