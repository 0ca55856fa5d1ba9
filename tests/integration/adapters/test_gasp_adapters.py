"""method="gasp" through every adapter: a real small scorer (SmolLM2-135M via llama.cpp) and the
framework's own entry point; the copied sentence must come out grounded, the invented one not."""

from __future__ import annotations

import pytest

from rt4chart_plugins.types import Label

pytestmark = pytest.mark.model  # a 98 MB scorer that `rt4chart model pull` fetches: not in the fast run

CONTEXT = [
    "Harlow Bay is a fishing village on the north coast of Veldra.",
    "The village harbour was rebuilt in 1987 after a winter storm destroyed the old pier.",
    "Every August the village holds a regatta in which crews race wooden rowing boats to Gull Island.",
]
COPIED = "The village harbour was rebuilt in 1987 after a winter storm destroyed the old pier."
INVENTED = "The mayor collects antique clocks and breeds silver pheasants in his garden."
ANSWER = f"{COPIED} {INVENTED}"
QUESTION = "Tell me about Harlow Bay."
# the threshold is set (the calibrated one is tuned for RAGTruth's subtle errors, see docs/gasp.md),
# so the invented sentence's flag does not hang on a refit
GASP = {"method": "gasp", "model": "smollm2-135m", "threshold": 0.0}


@pytest.fixture(scope="module", autouse=True)
def _scorer():
    pytest.importorskip("llama_cpp", reason="needs the [local] extra")
    from rt4chart_plugins import models

    try:
        models.locate("smollm2-135m", pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"GASP test scorer not available ({exc}); run `rt4chart model pull smollm2-135m` first")


def _check(report) -> None:
    assert report.method == "gasp" and report.judge == "gasp:smollm2-135m"
    assert report.state == "verified" and len(report.claims) == 2
    copied, invented = report.claims
    assert copied.grounding.risk < invented.grounding.risk
    assert copied.grounding.supporting_chunk == 1 and copied.evidence[0].text == CONTEXT[1]
    assert copied.label == Label.ENT and invented.label == Label.NIC and report.hallucinated
    assert invented.grounding.threshold == 0.0 and invented.phrase_span is None


def test_ragas():
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, SingleTurnSample, evaluate
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    metric = RT4ChartFaithfulness(options=GASP)
    sample = SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
    result = evaluate(EvaluationDataset(samples=[sample]), metrics=[metric], show_progress=False)
    report = metric.reports_for(result)[0]
    _check(report)
    assert result.to_pandas()["rt4chart_faithfulness"].iloc[0] == pytest.approx(report.score)


def test_deepeval():
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(threshold=0.8, options=GASP)  # threshold= is deepeval's own pass mark
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    _check(metric.report)
    assert metric.evaluation_model == "gasp:smollm2-135m"
    assert metric.success is False and "answer sentences grounded (GASP)" in metric.reason


def test_langchain():
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    _check(RT4ChartVerifier(**GASP).invoke({"context": CONTEXT, "question": QUESTION, "answer": ANSWER}))


def test_llama_index():
    pytest.importorskip("llama_index.core")
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    result = RT4ChartEvaluator(**GASP).evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    _check(result.report)
    assert result.passing is False


def test_gasp_takes_no_judge():
    from rt4chart_plugins.adapters.common.verifier import build_verifier

    from rt4chart_plugins.errors import InvalidInput

    with pytest.raises(InvalidInput, match="uses no judge"):
        build_verifier("local", method="gasp")
    with pytest.raises(InvalidInput, match="unknown method"):
        build_verifier(None, method="selfcheck")
