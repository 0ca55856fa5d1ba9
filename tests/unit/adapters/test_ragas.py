"""Ragas adapter: RT4ChartFaithfulness in ragas.evaluate(), RT4ChartFaithfulnessV2 in @experiment."""

from __future__ import annotations

import json
import math

import pytest

from rt4chart_plugins import InvalidInput

pytest.importorskip("ragas")

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
from ragas import Dataset, EvaluationDataset, SingleTurnSample, evaluate, experiment  # noqa: E402
from ragas.llms.base import InstructorBaseRagasLLM, LangchainLLMWrapper  # noqa: E402
from ragas.run_config import RunConfig  # noqa: E402
from rt4chart_plugins.adapters.ragas import (  # noqa: E402
    RagasJudge,
    RT4ChartFaithfulness,
    RT4ChartFaithfulnessV2,
    reports_from_result,
)

BAD = SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
GOOD = SingleTurnSample(user_input=QUESTION, response="The free trial lasts 14 days.", retrieved_contexts=CONTEXT)
NAME = "rt4chart_faithfulness"


def _evaluate(metric, samples, **kwargs):
    return evaluate(EvaluationDataset(samples=samples), metrics=[metric], show_progress=False,
                    run_config=RunConfig(timeout=900, max_workers=2), **kwargs)


# ---- mapping logic, with a scripted judge --------------------------------------------------------


def test_evaluate_scores_and_traces(scripted):
    metric = RT4ChartFaithfulness(judge=scripted, options={"decomposition": "sentence"})
    result = _evaluate(metric, [BAD, GOOD])
    scores = result.to_pandas()[NAME].tolist()
    assert scores == [pytest.approx(1 / 3), 1.0]
    # the claim details travel in ragas' own traces
    trace = result.traces[0][NAME]["rt4chart_report"]
    assert trace["input"]["response"] == ANSWER
    claims = trace["output"]["claims"]
    assert [c["label"] for c in claims] == ["CON", "ENT", "NIC"]
    assert claims[0]["evidence"][0]["text"] == CONTEXT[1] and claims[2]["evidence"] == []
    assert claims[2]["answer_span"]["text"] == SENTENCES[2]
    json.dumps(result.traces[0][NAME])  # JSON-ready
    assert [r["label"] for r in reports_from_result(result)] == ["CON", "ENT"]
    # and the typed reports, row by row
    reports = metric.reports_for(result)
    assert [r.label.value for r in reports] == ["CON", "ENT"]
    assert reports[0].claims[0].evidence[0].sentence_id == 1


def test_only_declared_columns_and_question_optional(scripted):
    assert RT4ChartFaithfulness(judge=scripted).required_columns == {"SINGLE_TURN": {"response", "retrieved_contexts"}}
    metric = RT4ChartFaithfulness(judge=scripted, options={"decomposition": "sentence"})
    result = _evaluate(metric, [SingleTurnSample(response=ANSWER, retrieved_contexts=CONTEXT, reference="x")])
    assert result.to_pandas()[NAME].tolist() == [pytest.approx(1 / 3)]
    assert metric.reports[0].question is None


def test_failed_row_is_nan_with_logged_error_not_silent(caplog):
    metric = RT4ChartFaithfulness(judge=ScriptedJudge(fail=True), options={"decomposition": "sentence"})
    result = _evaluate(metric, [BAD, GOOD])  # does not raise
    assert all(math.isnan(s) for s in result.to_pandas()[NAME])
    assert "scripted judge failure" in caplog.text  # ragas logged why
    reports = metric.reports_for(result)
    assert all(r.state == "failed" and "scripted judge failure" in r.error for r in reports)
    assert reports_from_result(result)[0]["state"] == "failed"
    with pytest.raises(Exception, match="scripted judge failure"):
        _evaluate(metric, [BAD], raise_exceptions=True)


def test_no_claims_scores_one_not_nan(scripted):
    metric = RT4ChartFaithfulness(judge=scripted, options={"decomposition": "sentence"})
    refusal = SingleTurnSample(user_input=QUESTION, response="I cannot answer that.", retrieved_contexts=CONTEXT)
    result = _evaluate(metric, [refusal])
    assert result.to_pandas()[NAME].tolist() == [1.0]
    assert metric.reports_for(result)[0].state == "no_claims"


def test_collections_metric_in_an_experiment(scripted):
    metric = RT4ChartFaithfulnessV2(scripted, decomposition="sentence")
    rows = Dataset(name="rag-rows", backend="inmemory")
    rows.append({"question": QUESTION, "answer": ANSWER, "contexts": CONTEXT})

    @experiment()
    async def faithfulness_experiment(row):
        result = await metric.ascore(user_input=row["question"], response=row["answer"],
                                     retrieved_contexts=row["contexts"])
        return {**row, "faithfulness": result.value, "reason": result.reason,
                "claims": result.traces["output"]["claims"], "label": result.report.label.value}

    import asyncio

    exp = asyncio.run(faithfulness_experiment.arun(rows, name="rt4chart-exp"))
    (row,) = list(exp)
    assert row["faithfulness"] == pytest.approx(1 / 3) and row["label"] == "CON"
    assert "CON claim 0" in row["reason"] and CONTEXT[1] in row["reason"]
    assert [c["label"] for c in row["claims"]] == ["CON", "ENT", "NIC"]

    failed = RT4ChartFaithfulnessV2(ScriptedJudge(fail=True), decomposition="sentence").score(
        user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
    assert math.isnan(failed.value) and failed.reason.startswith("verification failed")


# ---- a ragas LLM as the judge (scripted models: the plumbing only) -------------------------------


class ScriptedInstructorLLM(InstructorBaseRagasLLM):
    def __init__(self):
        self.model = "scripted-instructor"
        self.models: list = []

    def generate(self, prompt, response_model):
        self.models.append(response_model)
        return response_model.model_validate(scripted_reply(prompt))

    async def agenerate(self, prompt, response_model):
        return self.generate(prompt, response_model)


def test_instructor_llm_as_judge():
    llm = ScriptedInstructorLLM()
    metric = RT4ChartFaithfulness(judge=llm, options={"decomposition": "llm", "sub_sentence_spans": False})
    assert isinstance(metric.verifier.judge, RagasJudge)
    assert metric.verifier.judge.name == "ragas:ScriptedInstructorLLM:scripted-instructor"
    result = _evaluate(metric, [BAD])
    check_scripted_report(metric.reports_for(result)[0])
    assert {m.__name__ for m in llm.models} == {"LenientClaimsOut", "LenientVerdictsOut"}  # structured output
    v2 = RT4ChartFaithfulnessV2(llm, decomposition="llm", sub_sentence_spans=False)
    check_scripted_report(v2.score(user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT).report)


def _scripted_langchain_llm():
    """A ragas LLM over a LangChain chat model that answers from the scripted rules."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class ScriptedChat(GenericFakeChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            prompt = "\n".join(str(m.content) for m in messages)
            return ChatResult(generations=[ChatGeneration(message=AIMessage(json.dumps(scripted_reply(prompt))))])

    return LangchainLLMWrapper(ScriptedChat(messages=iter([])))


def test_langchain_wrapped_llm_as_judge():
    llm = _scripted_langchain_llm()
    metric = RT4ChartFaithfulness(judge=llm, options={"decomposition": "llm", "sub_sentence_spans": False})
    assert metric.verifier.judge.name.startswith("ragas:LangchainLLMWrapper")
    result = _evaluate(metric, [BAD])
    check_scripted_report(metric.reports_for(result)[0])


def test_the_llm_given_to_evaluate_judges_a_metric_built_without_a_judge(caplog):
    """As for ragas' own metrics: ``evaluate(llm=X)`` gives X to a metric that has no LLM of its
    own, for that run; a metric built with its own judge keeps it, and says so once."""
    options = {"decomposition": "llm", "sub_sentence_spans": False}
    metric = RT4ChartFaithfulness(options=options)
    result = _evaluate(metric, [BAD], llm=_scripted_langchain_llm())
    report = metric.reports_for(result)[0]
    assert report.judge.startswith("ragas:LangchainLLMWrapper")
    check_scripted_report(report)
    # no llm given: its own default, the trained verifier, reads clauses: the llm decomposition the
    # options ask for is refused, with what to give, never silently dropped
    with pytest.raises(InvalidInput, match=r"ignores decomposition='llm'.*evaluate\(llm=\.\.\.\)"):
        _evaluate(metric, [GOOD])
    with pytest.raises(InvalidInput, match="window_size"):  # every other option is still checked when built
        RT4ChartFaithfulness(options={**options, "window_size": 0})
    plain = RT4ChartFaithfulness(options={"sub_sentence_spans": False})
    assert _evaluate(plain, [GOOD]).to_pandas()[NAME].tolist() == [1.0]
    assert plain.reports_for(_evaluate(plain, [GOOD]))[0].judge.startswith("trained-")

    own = RT4ChartFaithfulness(judge="trained", options={"sub_sentence_spans": False})
    with caplog.at_level("WARNING", logger="rt4chart_plugins.adapters.ragas"):
        for _ in range(2):
            result = _evaluate(own, [GOOD], llm=_scripted_langchain_llm())
            assert own.reports_for(result)[0].judge.startswith("trained-")
    said = [r.message for r in caplog.records if "does not use the llm given to evaluate()" in r.message]
    assert len(said) == 1 and "trained-" in said[0]


# ---- the real embedded judge, through ragas.evaluate() -------------------------------------------


@pytest.mark.model
def test_real_judge_ragas_evaluate(embedded_judge):
    metric = RT4ChartFaithfulness(judge=embedded_judge, options=FAST)
    result = _evaluate(metric, [BAD])
    (score,) = result.to_pandas()[NAME].tolist()
    assert score == pytest.approx(1 / 3)
    payload = reports_from_result(result)[0]
    assert payload["cost"]["judge_calls"] > 0 and payload["cost"]["cache_hits"] == 0  # judged now, not cached
    assert payload["label"] == "CON" and payload["state"] == "verified"
    check_claims(payload["claims"])
    report = metric.reports_for(result)[0]
    check_claims([c.model_dump(mode="json") for c in report.claims])


def test_failed_rows_name_the_row_of_the_result_they_stand_for():
    broken = SingleTurnSample(user_input=QUESTION, response="The trial lasts.", retrieved_contexts=["x" * 2_000_001])
    other = SingleTurnSample(user_input="Who?", response="Nobody.", retrieved_contexts=["y" * 2_000_001])
    metric = RT4ChartFaithfulness()
    result = _evaluate(metric, [GOOD, broken, GOOD, other])
    scores = result.to_pandas()[NAME]
    assert sorted(r["row"] for r in metric.failed_rows) == [1, 3]
    for row in metric.failed_rows:
        assert math.isnan(scores[row["row"]]) and "max_context_chars" in row["error"]
    assert {r["row"]: r["user_input"] for r in metric.failed_rows} == {1: QUESTION, 3: "Who?"}
    # outside evaluate() a row has no index in a result
    outside = RT4ChartFaithfulness()
    with pytest.raises(Exception):  # noqa: B017 - ragas' convention: a row that cannot be scored raises
        outside.single_turn_score(broken)
    assert outside.failed_rows[0]["row"] is None
