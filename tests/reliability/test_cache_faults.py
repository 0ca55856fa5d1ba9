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
