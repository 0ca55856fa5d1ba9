"""The judge cache against what goes wrong with it: replies that failed, and a file it cannot open.
Through ``verify_many`` against a real misbehaving server on 127.0.0.1, with the cache on."""

from __future__ import annotations

import pytest

from fault_matrix import CLEAN_REQUESTS, JUDGE, ROWS, every_verify
from fault_server import Act, FaultServer, free_port, good_content

from rt4chart_plugins import Verifier
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.openai_compat import OpenAIJudge

pytest.importorskip("openai")


def _run(server: FaultServer, cache) -> tuple[list, OpenAIJudge]:
    judge = OpenAIJudge("m", base_url=server.url, api_key="k", cache=cache, **JUDGE)
    return Verifier(judge).verify_many(ROWS, concurrency=2), judge


def _labels(reports) -> list:
    return [[c.label.value if c.label else None for c in r.claims] for r in reports]


@pytest.mark.parametrize("reply", [
    lambda p: Act(content='{"results": [{"id": 0, "verdict": "ENT"}]}'),  # the wrong keys
    lambda p: Act(content=good_content(p)[: len(good_content(p)) // 2]),  # cut off
], ids=["wrong keys", "cut off"])
def test_a_reply_that_failed_is_not_cached_so_the_rows_recover_once_the_endpoint_is_fixed(tmp_path, reply):
    port = free_port()  # the endpoint, fixed, comes back at the same URL: the judge's name, in the key
    with FaultServer(every_verify(reply), port=port) as broken:
        failed, _ = _run(broken, JudgeCache(tmp_path / "cache.sqlite"))
    assert all(r.state == "failed" for r in failed)
    with FaultServer(port=port) as fixed:
        reports, judge = _run(fixed, JudgeCache(tmp_path / "cache.sqlite"))
    assert all(r.state == "verified" for r in reports) and _labels(reports) == [["ENT", "NIC"]] * len(ROWS)
    assert judge.attempts == len(ROWS)  # the verifications; the decompositions had validated, and came from the cache
    with FaultServer(port=port) as again:
        reports, judge = _run(again, JudgeCache(tmp_path / "cache.sqlite"))
    assert judge.attempts == 0 and all(r.cost.cache_hits == 2 for r in reports)  # now every reply is cached
    assert CLEAN_REQUESTS == 2 * len(ROWS)


def _damage(path, how: str) -> None:
    import random

    if how == "garbage":
        path.write_bytes(b"this is no database " * 50)
        return
    if how == "folder is a file":
        path.parent.rmdir()
        path.parent.write_text("a file where the cache's folder should be")
        return
    cache = JudgeCache(path)
    for i in range(500):
        cache.put(f"k{i}", {"verdicts": ["x" * 200]})
    cache.close()
    data = bytearray(path.read_bytes())
    if how == "truncated":
        data = data[: len(data) // 3]
    else:  # bits flipped all over the file, its header's among them
        rng = random.Random(0)
        for at in [3] + [rng.randrange(len(data)) for _ in range(300)]:
            data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["garbage", "truncated", "bits flipped", "folder is a file"])
def test_a_cache_that_cannot_be_opened_is_moved_aside_with_one_warning_and_every_row_is_scored(tmp_path, how):
    """A damaged cache file failed every row."""
    path = tmp_path / "cache" / "judge-cache.sqlite"
    path.parent.mkdir()
    _damage(path, how)
    port = free_port()
    with pytest.warns(RuntimeWarning) as warned:
        with FaultServer(port=port) as server:
            reports, _ = _run(server, str(path))
    assert all(r.state == "verified" for r in reports) and _labels(reports) == [["ENT", "NIC"]] * len(ROWS)
    assert len([w for w in warned if "judge cache" in str(w.message)]) == 1
    if how != "folder is a file":
        assert list(path.parent.glob("judge-cache.sqlite.corrupt-*")), "the damaged file was not kept aside"
        with FaultServer(port=port) as server:  # the new cache holds this run's replies
            reports, judge = _run(server, str(path))
        assert judge.attempts == 0


@pytest.mark.parametrize("value", [None, b"\xff\xfe not text", 7, "{\"cut"], ids=["NULL", "bytes", "a number", "cut JSON"])
def test_a_value_damaged_in_place_is_a_miss_and_the_rows_are_scored_again(tmp_path, value):
    """``UPDATE cache SET value = NULL`` failed every row with a TypeError, on every later run,
    and sent no request. A value that is no JSON text, whatever its type, is a miss like a cut one."""
    import sqlite3

    path = tmp_path / "cache.sqlite"
    with FaultServer() as server:
        first, judge = _run(server, JudgeCache(path))
        sent = judge.attempts
        with sqlite3.connect(path) as db:
            db.execute("UPDATE cache SET value = ?", (value,))
        db.close()
        again, judge = _run(server, JudgeCache(path))
    assert all(r.state == "verified" for r in first + again) and _labels(again) == _labels(first)
    assert judge.attempts == sent  # every reply asked again, and stored over the damaged value
    assert JudgeCache(path).get(next(iter(_keys(path)))) is not None


def _keys(path) -> list[str]:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return [k for (k,) in db.execute("SELECT key FROM cache")]
    finally:
        db.close()
