"""A failed row keeps its error's class in every adapter: the exception travels with the report,
so no adapter reads the class back out of the reason's text.

The judge raises an :class:`InvalidReply` (a :class:`JudgeError`) whose message names another
class: the class each adapter reports is the one raised.
"""

from __future__ import annotations

import pytest
from adapter_helpers import ANSWER, CONTEXT, QUESTION
from rt4chart_plugins.adapters.common.failure import RowFailure
from rt4chart_plugins.adapters.common.payload import report_payload
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from scripted_judge import ScriptedJudge

from rt4chart_plugins import InvalidInput, InvalidReply, JudgeError, Verifier
from rt4chart_plugins.detector import run_sync

MESSAGE = "TimeoutError: the reply was cut off"


class CutOffJudge(ScriptedJudge):
    """Every verification raises a judge error worded like a timeout."""

    async def verify(self, request, *, cost):
        raise InvalidReply(MESSAGE)


def _failed_report():
    verifier = Verifier(CutOffJudge(), decomposition="sentence")
    return run_sync(averify_row(verifier, CONTEXT, ANSWER, QUESTION, Fields("context", "answer")))


def test_the_failure_is_read_off_the_exception_not_the_text():
    report = _failed_report()
    assert report.state == "failed" and report.error == f"InvalidReply: {MESSAGE}"
    failure = RowFailure.of(report)
    assert (failure.kind, failure.error_type) == ("judge", "InvalidReply")
    assert isinstance(failure.exception, InvalidReply)
    assert "exception" not in failure.model_dump()  # the record dumps; the exception stays in memory
    raised = row_error(report)
    assert type(raised) is JudgeError and isinstance(raised.__cause__, InvalidReply) and raised.report is report
    assert report_payload(report)["error_type"] == "InvalidReply"


def test_bad_input_and_timeouts_keep_their_classes():
    verifier = Verifier(ScriptedJudge(), decomposition="sentence")
    bad = run_sync(averify_row(verifier, [42], ANSWER, None, Fields("contexts", "answer")))
    assert RowFailure.of(bad).kind == "invalid_input" and type(row_error(bad)) is InvalidInput

    class Slow(ScriptedJudge):
        async def verify(self, request, *, cost):
            import asyncio

            await asyncio.sleep(5)

    late = run_sync(averify_row(Verifier(Slow(), decomposition="sentence"), CONTEXT, ANSWER, None,
                                Fields("contexts", "answer"), timeout=0.05))
    assert RowFailure.of(late).error_type == "TimeoutError" and type(row_error(late)) is TimeoutError


def test_a_run_that_judged_nothing_is_the_judges_failure():
    report = Verifier(ScriptedJudge(fail_claims={"trial"}, split_on=None), decomposition="sentence").verify(
        CONTEXT, "The trial lasts 14 days."
    )
    assert report.state == "failed"
    assert (RowFailure.of(report).kind, RowFailure.of(report).error_type) == ("judge", "JudgeError")


def test_ragas_failed_rows_name_the_class():
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, SingleTurnSample, evaluate
    from ragas.run_config import RunConfig
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    metric = RT4ChartFaithfulness(judge=CutOffJudge(), options={"decomposition": "sentence"})
    sample = SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
    evaluate(EvaluationDataset(samples=[sample]), metrics=[metric], show_progress=False,
             run_config=RunConfig(timeout=900, max_workers=1))
    assert [r["error_type"] for r in metric.failed_rows] == ["InvalidReply"]


def test_deepeval_metric_names_the_class():
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(judge=CutOffJudge(), decomposition="sentence", async_mode=False)
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    assert metric.error == f"InvalidReply: {MESSAGE}" and metric.error_type == "InvalidReply"
    assert '"error_type": "InvalidReply"' in metric.verbose_logs  # the payload DeepEval logs


def test_llama_index_result_and_raise_keep_the_class():
    pytest.importorskip("llama_index.core")
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    result = RT4ChartEvaluator(CutOffJudge(), decomposition="sentence").evaluate(
        query=QUESTION, response=ANSWER, contexts=CONTEXT
    )
    assert result.invalid_result and result.error_type == "InvalidReply"
    with pytest.raises(JudgeError) as raised:
        RT4ChartEvaluator(CutOffJudge(), decomposition="sentence", on_error="raise").evaluate(
            query=QUESTION, response=ANSWER, contexts=CONTEXT
        )
    assert isinstance(raised.value.__cause__, InvalidReply)


def test_langchain_runnable_and_evaluator_keep_the_class():
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier, create_rt4chart_evaluator

    row = {"context": CONTEXT, "question": QUESTION, "answer": ANSWER}
    with pytest.raises(JudgeError) as raised:
        RT4ChartVerifier(CutOffJudge(), decomposition="sentence").invoke(row)
    assert type(raised.value) is JudgeError and isinstance(raised.value.__cause__, InvalidReply)
    report = RT4ChartVerifier(CutOffJudge(), decomposition="sentence", on_error="report").invoke(row)
    assert RowFailure.of(report).error_type == "InvalidReply"
    out = create_rt4chart_evaluator(judge=CutOffJudge(), decomposition="sentence")(
        inputs={"question": QUESTION, "context": CONTEXT}, outputs={"answer": ANSWER}
    )
    assert out["score"] is None and out["metadata"]["error_type"] == "InvalidReply"
