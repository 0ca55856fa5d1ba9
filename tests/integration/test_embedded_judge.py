"""The embedded offline judge's window read, for real: the pinned Qwen2.5-Coder-1.5B GGUF via llama-cpp-python."""

import pytest

from policy_example import POLICY_ANSWER, POLICY_CONTEXT
from rt4chart_plugins import Label, Verifier

pytestmark = pytest.mark.model


def _claim(report, needle):
    matches = [c for c in report.claims if needle in c.text.lower()]
    assert matches, f"no claim mentions {needle!r}: {[c.text for c in report.claims]}"
    return matches[0]


@pytest.fixture(scope="module")
def policy_report(embedded_model_path):
    return Verifier("local", judge_kwargs={"read": "window"}).verify(context=" ".join(POLICY_CONTEXT), answer=POLICY_ANSWER)


def test_policy_example_claims_labels_and_evidence(policy_report):
    r = policy_report
    assert r.label == Label.CON and r.hallucinated and r.state == "verified"
    all_users = _claim(r, "all users")
    assert all_users.label == Label.CON and 1 in [e.sentence_id for e in all_users.evidence]
    verification = _claim(r, "verification")
    assert verification.label == Label.CON and 1 in [e.sentence_id for e in verification.evidence]
    lasts = _claim(r, "14 days")
    assert lasts.label == Label.ENT and 4 in [e.sentence_id for e in lasts.evidence]
    extend = _claim(r, "extend")
    assert extend.label == Label.ENT and len(extend.evidence) >= 2 and 3 in [e.sentence_id for e in extend.evidence]
    email = _claim(r, "email")
    assert email.label == Label.NIC and email.evidence == []


def test_policy_example_spans_point_into_the_answer(policy_report):
    r = policy_report
    for c in r.claims:
        assert POLICY_ANSWER[c.answer_span.start : c.answer_span.end] == c.answer_span.text
    flagged = {s.text for s in r.unfaithful_spans}
    assert flagged == {r.answer_sentences[0].text, r.answer_sentences[2].text}
    evidence = _claim(r, "all users").evidence[0]
    assert " ".join(POLICY_CONTEXT)[evidence.start : evidence.end] == POLICY_CONTEXT[1]


def test_report_carries_its_cost_and_reruns_hit_the_cache(policy_report, embedded_model_path):
    cost = policy_report.cost
    assert cost.judge_calls > 0 and cost.prompt_tokens > 0 and cost.seconds > 0
    again = Verifier("local", judge_kwargs={"read": "window"}).verify(context=" ".join(POLICY_CONTEXT), answer=POLICY_ANSWER)
    assert again.cost.judge_calls == 0 and again.cost.cache_hits >= cost.judge_calls
    assert [c.label for c in again.claims] == [c.label for c in policy_report.claims]


def test_prefix_reuse_reads_the_window_once(embedded_model_path):
    """Claims of one window share the KV-cached prefix: the context is not re-read per claim."""
    from rt4chart_plugins.judges.base import VerifyRequest
    from rt4chart_plugins.judges.llama.judge import LlamaCppJudge
    from rt4chart_plugins.pipeline.segment import segment_context
    from rt4chart_plugins.types import Claim, Cost

    import asyncio

    judge = LlamaCppJudge(cache=False, evidence=False)
    sentences = segment_context(" ".join(POLICY_CONTEXT * 4))
    claims = [Claim(id=i, text=t, sentence_id=0) for i, t in enumerate(
        ["The free trial lasts 14 days.", "Trial accounts can export 5 reports.", "The trial is for new users."])]
    one, three = Cost(), Cost()
    asyncio.run(judge.verify(VerifyRequest(mode="local", sentences=sentences, claims=claims[:1]), cost=one))
    judge._llm.n_tokens = 0  # cold cache again
    asyncio.run(judge.verify(VerifyRequest(mode="local", sentences=sentences, claims=claims), cost=three))
    context_tokens = judge.count_tokens(" ".join(POLICY_CONTEXT * 4))
    assert three.prompt_tokens < one.prompt_tokens + context_tokens  # not 3x the context
