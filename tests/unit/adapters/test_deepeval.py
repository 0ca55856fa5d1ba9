"""DeepEval adapter: RT4ChartMetric in deepeval.evaluate() and assert_test()."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("deepeval")

from adapter_helpers import (  # noqa: E402
    ANSWER,
    CONTEXT,
    FAST,
    QUESTION,
    SENTENCES,
    ScriptedJudge,
    check_claims,
    check_scripted_report,
    scripted_reply,
)
from deepeval import assert_test, evaluate  # noqa: E402
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig  # noqa: E402
from deepeval.metrics.utils import copy_metrics  # noqa: E402
from deepeval.models import DeepEvalBaseLLM  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402
from rt4chart_plugins.adapters.deepeval import (  # noqa: E402
    DeepEvalJudge,
    RT4ChartMetric,
    report_from_metric_data,
)

from rt4chart_plugins import Report  # noqa: E402

QUIET = DisplayConfig(show_indicator=False, print_results=False)
BAD = LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT)
GOOD = LLMTestCase(input=QUESTION, actual_output="The free trial lasts 14 days.", retrieval_context=CONTEXT)


@pytest.fixture(autouse=True)
def _deepeval_cwd(tmp_path, monkeypatch):
    """deepeval writes ./.deepeval/ (and would read ./.env*): keep it in a scratch directory."""
    monkeypatch.chdir(tmp_path)


# ---- mapping logic, with a scripted judge --------------------------------------------------------


@pytest.mark.parametrize("run_async", [True, False])
def test_evaluate_scores_reasons_and_claim_json(scripted, run_async):
    metric = RT4ChartMetric(threshold=0.8, judge=scripted, decomposition="sentence", async_mode=run_async)
    result = evaluate(test_cases=[BAD, GOOD], metrics=[metric], display_config=QUIET,
                      async_config=AsyncConfig(run_async=run_async))
    bad, good = sorted(result.test_results, key=lambda r: r.metrics_data[0].score)
    md = bad.metrics_data[0]
    assert md.name == "RT4CHART Faithfulness" and md.error is None
    assert md.score == pytest.approx(1 / 3) and md.success is False and bad.success is False
    assert md.threshold == 0.8 and md.evaluation_model == "scripted"
    # the reason names the failing claims, their answer spans and their evidence
    assert "CON claim 0 [0:69]" in md.reason and CONTEXT[1] in md.reason
    assert SENTENCES[2] in md.reason and "no evidence" in md.reason
    # verbose_logs carries every claim as JSON
    report = report_from_metric_data(md)
    assert report["label"] == "CON" and [c["label"] for c in report["claims"]] == ["CON", "ENT", "NIC"]
    assert report["claims"][0]["evidence"][0]["text"] == CONTEXT[1]
    assert report["claims"][2]["answer_span"]["text"] == SENTENCES[2]
    assert good.success is True and good.metrics_data[0].score == 1.0


def test_survives_reinstantiation(scripted):
    metric = RT4ChartMetric(threshold=0.7, judge=scripted, judge_kwargs=None, include_reason=False,
                            decomposition="sentence", window_size=8, window_overlap=2)
    (copy,) = copy_metrics([metric])
    assert copy is not metric and isinstance(copy, RT4ChartMetric)
    assert copy.threshold == 0.7 and copy.judge is scripted and copy.include_reason is False
    assert copy.options == {"decomposition": "sentence", "window_size": 8, "window_overlap": 2}
    assert copy.verifier.config.window_size == 8
    copy.measure(BAD)
    assert copy.reason is None and copy.score == pytest.approx(1 / 3)
    assert RT4ChartMetric(strict_mode=True, judge=scripted).threshold == 1.0


def test_measure_sets_the_typed_report(scripted):
    metric = RT4ChartMetric(judge=scripted, decomposition="sentence")
    assert metric.measure(BAD) == pytest.approx(1 / 3)
    assert metric.report.label.value == "CON" and metric.is_successful() is False
    assert [c["label"] for c in metric.claims] == ["CON", "ENT", "NIC"]
    assert json.loads(metric.verbose_logs)["claims"][0]["evidence"][0]["sentence_id"] == 1


def test_judge_failure_sets_metric_error_and_run_goes_on():
    metric = RT4ChartMetric(judge=ScriptedJudge(fail=True), decomposition="sentence")
    result = evaluate(test_cases=[BAD], metrics=[metric], display_config=QUIET)  # does not raise
    md = result.test_results[0].metrics_data[0]
    assert md.success is False and md.score is None and "scripted judge failure" in md.error
    assert report_from_metric_data(md)["state"] == "failed"


def test_assert_test(scripted):
    metric = RT4ChartMetric(threshold=0.8, judge=scripted, decomposition="sentence")
    assert_test(GOOD, [metric])
    with pytest.raises(AssertionError, match="CON claim 0"):
        assert_test(BAD, [metric])


# ---- a deepeval model as the judge (scripted model: the plumbing only) ---------------------------


class ScriptedModel(DeepEvalBaseLLM):
    def __init__(self):
        self.schemas: list = []
        super().__init__(model="scripted-deepeval")

    def load_model(self):
        return self

    def generate(self, prompt: str, schema=None):
        self.schemas.append(schema)
        data = scripted_reply(prompt)
        return schema.model_validate(data) if schema is not None else json.dumps(data)

    async def a_generate(self, prompt: str, schema=None):
        return self.generate(prompt, schema)

    def get_model_name(self):
        return "scripted-deepeval"


def test_deepeval_model_as_judge():
    model = ScriptedModel()
    metric = RT4ChartMetric(threshold=0.5, judge=model, decomposition="llm", sub_sentence_spans=False)
    assert isinstance(metric.verifier.judge, DeepEvalJudge)
    assert metric.evaluation_model == "deepeval:ScriptedModel:scripted-deepeval"
    result = evaluate(test_cases=[BAD], metrics=[metric], display_config=QUIET)
    md = result.test_results[0].metrics_data[0]
    assert md.error is None and md.score == pytest.approx(1 / 3)
    check_scripted_report(Report.model_validate(report_from_metric_data(md)))
    assert {s.__name__ for s in model.schemas} == {"LenientClaimsOut", "LenientVerdictsOut"}  # structured output used


# ---- the real embedded judge, through deepeval's own entry points --------------------------------


@pytest.mark.model
def test_real_judge_evaluate_and_assert_test(embedded_judge):
    metric = RT4ChartMetric(threshold=0.8, judge=embedded_judge, **FAST)
    result = evaluate(test_cases=[BAD], metrics=[metric], display_config=QUIET)
    md = result.test_results[0].metrics_data[0]
    assert md.error is None, md.error
    report = report_from_metric_data(md)
    assert report["cost"]["judge_calls"] > 0 and report["cost"]["cache_hits"] == 0  # judged now, not cached
    check_claims(report["claims"])
    assert report["label"] == "CON" and md.success is False and md.score == pytest.approx(1 / 3)
    assert "CON claim 0" in md.reason and CONTEXT[1] in md.reason and "NIC claim 2" in md.reason

    with pytest.raises(AssertionError, match="NIC claim 2"):
        assert_test(BAD, [metric])
    assert_test(GOOD, [metric])  # "The free trial lasts 14 days." is entailed
