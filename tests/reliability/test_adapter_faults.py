"""The fault matrix's columns for the four adapters: each framework's entry point with
judge="openai" against the misbehaving server. Per row: no crash, the clean run's report after a
transient fault, a readable error when the judge's replies cannot be read, and after a 401 no
request beyond the first ones, whatever the framework then shows."""

from __future__ import annotations


import pytest

from fault_matrix import comparable, every_verify
from fault_server import Act, FaultServer

pytest.importorskip("openai")

CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]
QUESTION = "How long is the trial?"
ANSWER = "The trial lasts 14 days. It costs 5 dollars."
JUDGE = {"api_key": "k", "model": "m", "cache": False, "max_retries": 2, "backoff": 0.05, "timeout": 1.0,
         "breaker_after": 6}


def ragas(kwargs):
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, SingleTurnSample, evaluate

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    metric = RT4ChartFaithfulness(judge="openai", judge_kwargs=kwargs, options={"decomposition": "sentence"})
    sample = SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
    result = evaluate(EvaluationDataset(samples=[sample]), metrics=[metric], show_progress=False,
                      raise_exceptions=False)
    return metric.reports_for(result)[0]


def deepeval(kwargs):
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(judge="openai", judge_kwargs=kwargs, decomposition="sentence")
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    return metric.report


def langchain(kwargs):
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    # the matrix reads every row's report: by default a failed row raises, its report as .report
    verifier = RT4ChartVerifier(judge="openai", judge_kwargs=kwargs, decomposition="sentence", on_error="report")
    return verifier.invoke({"context": CONTEXT, "question": QUESTION, "answer": ANSWER})


def llama_index(kwargs):
    pytest.importorskip("llama_index.core")
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    evaluator = RT4ChartEvaluator(judge="openai", judge_kwargs=kwargs, decomposition="sentence")
    return evaluator.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT).report


ADAPTERS = {"ragas": ragas, "deepeval": deepeval, "langchain": langchain, "llama_index": llama_index}


def score(adapter, fault):
    with FaultServer(fault) as server:
        try:
            report = ADAPTERS[adapter]({**JUDGE, "base_url": server.url})
            error = None
        except Exception as exc:  # noqa: BLE001 - recorded, then judged by each test
            report, error = None, exc
        return report, error, len(server.log)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_transient_fault_gives_the_clean_report(adapter):
    clean, error, attempts = score(adapter, None)
    assert error is None and clean.state == "verified" and attempts == 1
    assert [c.label.value for c in clean.claims] == ["ENT", "NIC"]
    flaky, error, attempts = score(adapter, lambda n, p: Act(status=503, headers={"Retry-After": "0.2"}) if n == 0 else None)
    assert error is None and attempts == 2
    assert {**comparable(flaky), "judge": None} == {**comparable(clean), "judge": None}


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_unreadable_replies_give_a_failed_report_with_its_reason(adapter):
    report, error, _ = score(adapter, every_verify(lambda p: Act(content="Looks fine to me.")))
    assert error is None, error
    assert report.state == "failed" and "reply holds no JSON (asked 2 times)" in report.error
    assert report.score is None and report.hallucinated is None  # no score, never NaN or a 0.0 hallucination


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_401_sends_one_request_and_says_so(adapter):
    report, error, attempts = score(adapter, lambda n, p: Act(status=401, body='{"error": {"message": "bad key"}}'))
    assert attempts == 1
    said = str(error) if error is not None else report.error
    assert "401" in said and "refused the request" in said


# ---- the frameworks' own LLM clients -----------------------------------------------------------
#
# The same guarantees when the judge is the user's framework LLM (``llm=`` / ``model=``) instead
# of judge="openai": each client raises its own exception types, and RT4CHART's judge reads the
# status and Retry-After through them. The clients' own retries are switched off where they have
# a switch, so that what waits and what stops is RT4CHART's judge.

OWN = {"cache": False, "max_retries": 2, "backoff": 0.05, "breaker_after": 6}


def own_ragas(url):
    pytest.importorskip("ragas")
    from openai import AsyncOpenAI
    from ragas.llms import llm_factory

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulnessV2

    llm = llm_factory("m", client=AsyncOpenAI(base_url=url, api_key="k", max_retries=0, timeout=2.0))
    return RT4ChartFaithfulnessV2(llm=llm, judge_kwargs=OWN, decomposition="sentence").score(
        user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT).report


def own_deepeval(url):
    pytest.importorskip("deepeval")
    from deepeval.models import LocalModel
    from deepeval.test_case import LLMTestCase

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(model=LocalModel(model="m", base_url=url, api_key="k", temperature=0),
                            judge_kwargs=OWN, decomposition="sentence")
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    return metric.report


def own_langchain(url):
    pytest.importorskip("langchain_openai")
    from langchain_openai import ChatOpenAI

    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    llm = ChatOpenAI(base_url=url, api_key="k", model="m", max_retries=0, timeout=2.0)
    return RT4ChartVerifier(llm=llm, judge_kwargs=OWN, decomposition="sentence").invoke(
        {"context": CONTEXT, "question": QUESTION, "answer": ANSWER})


def own_llama_index(url):
    pytest.importorskip("llama_index.llms.openai_like")
    from llama_index.llms.openai_like import OpenAILike

    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    llm = OpenAILike(api_base=url, api_key="k", model="m", is_chat_model=True, max_retries=0, timeout=2.0)
    return RT4ChartEvaluator(llm=llm, judge_kwargs=OWN, decomposition="sentence").evaluate(
        query=QUESTION, response=ANSWER, contexts=CONTEXT).report


OWN_LLMS = {"ragas": own_ragas, "deepeval": own_deepeval, "langchain": own_langchain, "llama_index": own_llama_index}


def score_own(adapter, fault):
    with FaultServer(fault) as server:
        try:
            report, error = OWN_LLMS[adapter](server.url), None
        except Exception as exc:  # noqa: BLE001 - recorded, then judged by each test
            report, error = None, exc
        return report, error, server.times


@pytest.mark.parametrize("adapter", OWN_LLMS)
def test_a_framework_llm_honours_retry_after_and_gives_the_clean_report(adapter):
    clean, error, times = score_own(adapter, None)
    assert error is None and clean.state == "verified", (error, clean and clean.error)
    sent = len(times)
    limited, error, times = score_own(adapter, lambda n, p: Act(status=429, headers={"Retry-After": "1"}) if n == 0 else None)
    assert error is None and limited.state == "verified", (error, limited and limited.error)
    assert len(times) == sent + 1 and times[1] - times[0] >= 0.95  # asked again once, after the wait asked for
    assert [c.label for c in limited.claims] == [c.label for c in clean.claims]


@pytest.mark.parametrize("adapter", OWN_LLMS)
def test_a_framework_llm_stops_at_a_401(adapter):
    report, error, times = score_own(adapter, lambda n, p: Act(status=401, body='{"error": {"message": "bad key"}}'))
    assert len(times) == 1, len(times)  # no retry, no fallback request, no second claim's request
    said = str(error) if error is not None else report.error
    assert "refused the request" in said, said
