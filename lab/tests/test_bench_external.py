"""The frameworks' own faithfulness metrics and the direct prompt, run for real through their own
code against a real OpenAI-compatible server on the embedded model (one tiny row each)."""

from __future__ import annotations

import asyncio

import pytest

from rt4chart_lab.bench.external import EXTERNAL, Endpoint, run_external

pytestmark = [pytest.mark.model, pytest.mark.server]

CONTEXT = "The museum opens at 9 AM and closes at 5 PM. Entry is free on Sundays."
ANSWER = "The museum opens at 9 AM. Entry costs 20 dollars on Sundays."


@pytest.fixture(scope="module")
def endpoint(openai_server) -> Endpoint:
    return Endpoint(base_url=openai_server, model="qwen-judge", max_tokens=512)


@pytest.mark.parametrize("name", sorted(EXTERNAL))
def test_external_system_yields_a_record_never_a_crash(endpoint, name):
    rec = asyncio.run(run_external(name, endpoint, "row-1", CONTEXT, "When is the museum open?", ANSWER))
    assert rec["id"] == "row-1" and rec["cost"]["seconds"] > 0
    if rec["ok"]:
        assert isinstance(rec["hallucinated"], bool) and 0.0 <= rec["score"] <= 1.0
        for start, end in rec["spans"]:
            assert 0 <= start < end <= len(ANSWER)
    else:  # a metric that errors or returns NaN is counted, with its reason
        assert rec["error"] and rec["state"] == "failed"


def test_external_systems_fail_cleanly_when_the_endpoint_is_down():
    dead = Endpoint(base_url="http://127.0.0.1:9/v1", model="none")
    rec = asyncio.run(run_external("direct", dead, "row-2", CONTEXT, None, ANSWER))
    assert not rec["ok"] and "Connection" in rec["error"]
