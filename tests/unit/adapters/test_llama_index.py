"""LlamaIndex adapter: RT4ChartEvaluator (evaluate, aevaluate, evaluate_response, BatchEvalRunner)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("llama_index.core")

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
from llama_index.core import Document, SummaryIndex  # noqa: E402
from llama_index.core.base.response.schema import Response  # noqa: E402
from llama_index.core.evaluation import BatchEvalRunner, EvaluationResult  # noqa: E402
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata  # noqa: E402
from llama_index.core.llms.callbacks import llm_completion_callback  # noqa: E402
from llama_index.core.query_engine import CustomQueryEngine  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import NodeWithScore, TextNode  # noqa: E402
from rt4chart_plugins.adapters.llama_index import (  # noqa: E402
    LlamaIndexJudge,
    RT4ChartEvaluationResult,
    RT4ChartEvaluator,
)

from rt4chart_plugins.types import ClaimVerdict, Label  # noqa: E402


def _response(answer: str = ANSWER) -> Response:
    return Response(response=answer, source_nodes=[NodeWithScore(node=TextNode(text=c), score=1.0) for c in CONTEXT])


class FixedAnswerEngine(CustomQueryEngine):
    """A RAG query engine: a real LlamaIndex retriever, and a generator that always answers ANSWER."""

    retriever: BaseRetriever
    answer: str = ANSWER

    def custom_query(self, query_str: str) -> Response:
        nodes = self.retriever.retrieve(query_str)
        return Response(response=self.answer, source_nodes=nodes)


def _engine() -> FixedAnswerEngine:
    index = SummaryIndex.from_documents([Document(text=c) for c in CONTEXT])
    return FixedAnswerEngine(retriever=index.as_retriever())


# ---- mapping logic, with a scripted judge --------------------------------------------------------


def test_evaluate_carries_typed_claims(scripted):
    evaluator = RT4ChartEvaluator(scripted, decomposition="sentence")
    result = evaluator.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    assert isinstance(result, RT4ChartEvaluationResult) and isinstance(result, EvaluationResult)
    assert result.passing is False and result.invalid_result is False
    assert result.score == pytest.approx(1 / 3)
    assert result.label is Label.CON and result.hallucinated and result.state == "verified"
    assert all(isinstance(c, ClaimVerdict) for c in result.claims)
    assert [c.label for c in result.failing_claims] == [Label.CON, Label.NIC]
    assert result.claims[0].evidence[0].text == CONTEXT[1]
    assert [s.text for s in result.unfaithful_spans] == [SENTENCES[0], SENTENCES[2]]
    assert SENTENCES[0] in result.feedback and CONTEXT[1] in result.feedback
    assert result.report is not None and result.report.claims == result.claims


def test_evaluate_response_and_passing(scripted):
    evaluator = RT4ChartEvaluator(scripted, decomposition="sentence")
    result = evaluator.evaluate_response(query=QUESTION, response=_response())
    assert result.label is Label.CON and result.contexts == CONTEXT
    ok = evaluator.evaluate_response(query=QUESTION, response=_response(SENTENCES[1]))
    assert ok.passing is True and ok.score == 1.0 and ok.label is Label.ENT


async def test_aevaluate(scripted):
    evaluator = RT4ChartEvaluator(scripted, decomposition="sentence")
    result = await evaluator.aevaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    assert result.label is Label.CON


def test_failures_are_invalid_results_and_batch_runner_does_not_retry(scripted):
    failing = RT4ChartEvaluator(ScriptedJudge(fail=True), decomposition="sentence")
    result = failing.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    assert result.invalid_result and "scripted judge failure" in result.invalid_reason
    assert result.passing is None and result.report.state == "failed"

    runner = BatchEvalRunner({"rt4chart": RT4ChartEvaluator(scripted, decomposition="sentence"), "broken": failing},
                             workers=2)
    started = time.perf_counter()
    out = runner.evaluate_responses(queries=[QUESTION, QUESTION], responses=[_response(), Response(response=None)])
    assert time.perf_counter() - started < 3  # a raised exception would be retried with 4-10 s backoff
    good, missing = out["rt4chart"]
    assert good.label is Label.CON and not good.invalid_result
    assert missing.invalid_result and "response is missing" in missing.invalid_reason
    assert all(r.invalid_result for r in out["broken"])

    with pytest.raises(Exception, match="scripted judge failure"):
        RT4ChartEvaluator(ScriptedJudge(fail=True), decomposition="sentence", on_error="raise").evaluate(
            query=QUESTION, response=ANSWER, contexts=CONTEXT)


def test_batch_runner_over_a_query_engine(scripted):
    runner = BatchEvalRunner({"rt4chart": RT4ChartEvaluator(scripted, decomposition="sentence")}, workers=2)
    out = runner.evaluate_queries(_engine(), queries=[QUESTION])
    (result,) = out["rt4chart"]
    assert result.label is Label.CON and sorted(result.contexts) == sorted(CONTEXT)
    assert [c.label for c in result.claims] == [Label.CON, Label.ENT, Label.NIC]


def test_prompts_mixin(scripted):
    evaluator = RT4ChartEvaluator(scripted)
    assert evaluator.get_prompts() == {}
    evaluator.update_prompts({})


# ---- a LlamaIndex LLM as the judge (scripted model: the plumbing only) ---------------------------


class ScriptedLLM(CustomLLM):
    prompts: list = []

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted-llm")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs):
        self.prompts.append(prompt)
        return CompletionResponse(text=json.dumps(scripted_reply(prompt)))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs):
        raise NotImplementedError


def test_llama_index_llm_as_judge():
    llm = ScriptedLLM()
    evaluator = RT4ChartEvaluator(judge=llm, decomposition="llm", sub_sentence_spans=False)
    assert isinstance(evaluator.verifier.judge, LlamaIndexJudge)
    assert evaluator.verifier.judge.name == "llama-index:ScriptedLLM:scripted-llm"
    result = evaluator.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)  # a new loop in a thread
    check_scripted_report(result.report)
    assert any("JSON schema" in p for p in llm.prompts)


# ---- the real embedded judge, through LlamaIndex's own entry points ------------------------------


@pytest.mark.model
def test_real_judge_batch_runner_over_query_engine(embedded_judge):
    evaluator = RT4ChartEvaluator(judge=embedded_judge, **FAST)
    runner = BatchEvalRunner({"faithfulness": evaluator}, workers=1)
    out = runner.evaluate_queries(_engine(), queries=[QUESTION])
    (result,) = out["faithfulness"]
    assert not result.invalid_result, result.invalid_reason
    assert result.report.cost.judge_calls > 0 and result.report.cost.cache_hits == 0  # judged now, not cached
    # the retriever may reorder the passages: map evidence back through the contexts it saw
    order = [CONTEXT.index(c) for c in result.contexts]
    claims = [c.model_dump(mode="json") for c in result.claims]
    for c in claims:
        for e in c["evidence"]:
            e["passage"] = e["sentence_id"] = order[e["passage"]]
    check_claims(claims)
    assert result.label is Label.CON and result.passing is False
    assert "CON claim 0" in result.feedback and "NIC claim 2" in result.feedback

    direct = evaluator.evaluate_response(query=QUESTION, response=_response())
    check_claims([c.model_dump(mode="json") for c in direct.claims])


def test_evaluate_response_evidence_carries_the_source_nodes_metadata():
    policy = ["The free trial lasts 14 days.", "Eligible users may request one extension of the trial by 7 days."]
    nodes = [
        NodeWithScore(node=TextNode(text=t, id_=f"policy-{i}", metadata={"source": "policy.md", "page": i}), score=1.0)
        for i, t in enumerate(policy)
    ]
    response = Response(response="The free trial lasts 14 days. The trial lasts 30 days.", source_nodes=nodes)
    evaluator = RT4ChartEvaluator()
    for result in (evaluator.evaluate_response(query="How long?", response=response),
                   asyncio.run(evaluator.aevaluate_response(query="How long?", response=response))):
        cited = [e for c in result.claims for e in c.evidence]
        assert cited and all(e.metadata == {"node_id": f"policy-{e.passage}", "source": "policy.md", "page": e.passage}
                             for e in cited)
        assert result.report.claims[0].evidence[0].metadata["source"] == "policy.md"
