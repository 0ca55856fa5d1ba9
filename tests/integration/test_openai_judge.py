"""The OpenAI-compatible judge against a real server (llama-cpp-python's, on loopback)."""

import pytest

from policy_example import POLICY_ANSWER, POLICY_CONTEXT
from rt4chart_plugins import Label, Verifier
from rt4chart_plugins.judges.openai_compat import OpenAIJudge

pytestmark = [pytest.mark.model, pytest.mark.server]


def test_structured_verdicts_over_http_and_cache(openai_server):
    judge = OpenAIJudge("qwen-judge", base_url=openai_server, api_key="none", timeout=300)
    report = Verifier(judge, decomposition="sentence").verify(context=POLICY_CONTEXT, answer=POLICY_ANSWER)
    assert report.state == "verified", report.claims
    assert len(report.claims) == 3 and all(c.label in Label for c in report.claims)
    assert report.hallucinated  # two of the three sentences are unfaithful
    assert report.cost.judge_calls >= 1 and report.cost.prompt_tokens > 0 and report.cost.completion_tokens > 0
    # llama-cpp-python's server answers json_schema with a 500 naming response_format, and takes
    # its own form, a json_object with a schema, which it enforces with a grammar
    assert judge._schema_mode == "json_object_schema" and "response_format" in judge.fallback_reason
    for c in report.claims:
        assert all(0 <= e.sentence_id < len(POLICY_CONTEXT) for e in c.evidence)
        if c.label == Label.NIC:
            assert c.evidence == []
    again = Verifier(OpenAIJudge("qwen-judge", base_url=openai_server, api_key="none"), decomposition="sentence").verify(
        context=POLICY_CONTEXT, answer=POLICY_ANSWER)
    assert again.cost.judge_calls == 0 and again.cost.cache_hits >= 1
    assert [c.label for c in again.claims] == [c.label for c in report.claims]


def test_a_judge_that_times_out_gives_a_failed_report_not_a_crash(openai_server):
    judge = OpenAIJudge("qwen-judge", base_url=openai_server, api_key="none", timeout=0.01, max_retries=1,
                        backoff=0.01, cache=False)
    report = Verifier(judge, decomposition="sentence").verify(context=POLICY_CONTEXT, answer="The free trial lasts 14 days.")
    assert report.state == "failed" and report.label is None
    assert "Timeout" in report.error or "timed out" in report.error.lower()


def test_an_unreachable_endpoint_is_reported_per_row():
    judge = OpenAIJudge("x", base_url="http://127.0.0.1:9/v1", api_key="none", max_retries=1, backoff=0.01, cache=False)
    reports = Verifier(judge, decomposition="sentence").verify_many(
        [{"context": POLICY_CONTEXT, "answer": "The free trial lasts 14 days."}, {"context": POLICY_CONTEXT, "answer": ""}])
    assert reports[0].state == "failed" and "Connection" in reports[0].error
    assert reports[1].state == "no_claims"
