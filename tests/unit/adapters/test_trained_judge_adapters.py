"""judge="trained" through every adapter: the packaged cross-encoder, real ONNX inference."""

from __future__ import annotations

import pytest

from rt4chart_plugins.types import Label

CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
QUESTION = "What are the terms of the free trial?"
ANSWER = "The free trial lasts 14 days. The trial also includes priority email support."


def _check(report) -> None:
    assert report.judge.startswith("trained-minilm"), report.judge
    assert report.state == "verified"
    assert [c.label for c in report.claims] == [Label.ENT, Label.NIC]
    assert report.claims[0].evidence and report.claims[0].evidence[0].text == CONTEXT[3]
    assert report.hallucinated and report.score == pytest.approx(0.5)


def test_ragas():
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, SingleTurnSample, evaluate

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    metric = RT4ChartFaithfulness(judge="trained")
    sample = SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
    result = evaluate(EvaluationDataset(samples=[sample]), metrics=[metric], show_progress=False)
    _check(metric.reports_for(result)[0])


def test_deepeval():
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(threshold=0.8, judge="trained")
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    _check(metric.report)
    assert metric.success is False and "NIC claim 1" in metric.reason


def test_langchain():
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    _check(RT4ChartVerifier(judge="trained").invoke({"context": CONTEXT, "question": QUESTION, "answer": ANSWER}))


def test_llama_index():
    pytest.importorskip("llama_index.core")
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    result = RT4ChartEvaluator(judge="trained").evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    _check(result.report)
    assert result.passing is False
