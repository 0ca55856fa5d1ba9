"""One endpoint, five clients, one set of verdicts.

The built-in ``openai`` judge, DeepEval's ``LocalModel``, LangChain's ``ChatOpenAI``, LlamaIndex's
``OpenAILike`` and a Ragas ``llm_factory`` LLM all reach the same llama.cpp server (the embedded
model). Each learns at most once that the server rejects ``json_schema`` and then sends the same
JSON-in-the-prompt request, so each gives the same claims, labels and evidence, a contradicted
claim cites the sentence that refutes it, and each reports the tokens the server counted.

One short sample (two answer sentences against two context sentences) keeps it to one judge call
per client: the 1.5B model runs on the CPU.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.model, pytest.mark.server]

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible for the trial."]
QUESTION = "How long is the free trial?"
ANSWER = "The free trial lasts 30 days. Verified new users are eligible."
OPTIONS = {"decomposition": "sentence", "global_verification": False, "sub_sentence_spans": False}
MODEL = "qwen-judge"


def five_clients(base_url: str) -> dict[str, Any]:
    """name -> a callable returning the typed Report, each through its framework's own entry point."""
    from deepeval.models import LocalModel
    from deepeval.test_case import LLMTestCase
    from langchain_openai import ChatOpenAI
    from llama_index.llms.openai_like import OpenAILike
    from openai import AsyncOpenAI
    from ragas.llms import llm_factory

    from rt4chart_plugins import Verifier
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulnessV2

    nocache = {"cache": False}  # every client really asks the server

    def builtin():
        verifier = Verifier("openai", judge_kwargs={"base_url": base_url, "model": MODEL, "api_key": "x",
                                                    "timeout": 600, **nocache},
                            **OPTIONS)
        return verifier.verify(context=CONTEXT, answer=ANSWER, question=QUESTION), verifier.judge

    def deepeval():
        metric = RT4ChartMetric(model=LocalModel(model=MODEL, base_url=base_url, api_key="x", temperature=0),
                                judge_kwargs=nocache, **OPTIONS)
        metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
        return metric.report, metric.verifier.judge

    def langchain():
        verifier = RT4ChartVerifier(llm=ChatOpenAI(base_url=base_url, api_key="x", model=MODEL, temperature=0,
                                                   max_tokens=600, timeout=600), judge_kwargs=nocache, **OPTIONS)
        return verifier.invoke({"context": CONTEXT, "question": QUESTION, "answer": ANSWER}), verifier.verifier.judge

    def llama_index():
        llm = OpenAILike(api_base=base_url, api_key="x", model=MODEL, is_chat_model=True, temperature=0,
                         max_tokens=600, timeout=600)
        evaluator = RT4ChartEvaluator(llm=llm, judge_kwargs=nocache, **OPTIONS)
        result = evaluator.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
        return result.report, evaluator.verifier.judge

    def ragas():
        llm = llm_factory(MODEL, client=AsyncOpenAI(base_url=base_url, api_key="x", timeout=600),
                          temperature=0, max_tokens=600)
        result = RT4ChartFaithfulnessV2(llm=llm, judge_kwargs=nocache, **OPTIONS).score(
            user_input=QUESTION, response=ANSWER, retrieved_contexts=CONTEXT)
        return result.report, None

    return {"openai": builtin, "deepeval": deepeval, "langchain": langchain, "llama_index": llama_index,
            "ragas": ragas}


def verdicts(report) -> list[tuple[str, str | None, list[int]]]:
    return [(c.text, c.label.value if c.label else None, [e.sentence_id for e in c.evidence]) for c in report.claims]


def test_five_clients_of_one_endpoint_give_one_set_of_verdicts(openai_server):
    for module in ("deepeval", "langchain_openai", "llama_index.llms.openai_like", "ragas"):
        pytest.importorskip(module)
    results = {name: run() for name, run in five_clients(openai_server).items()}
    reports = {name: report for name, (report, _judge) in results.items()}

    for name, report in reports.items():
        assert report.state == "verified", (name, report.state, report.error, [c.error for c in report.claims])
        assert report.cost.judge_calls >= 1 and report.cost.prompt_tokens > 0 and report.cost.completion_tokens > 0, (
            name, report.cost)
    first = verdicts(reports["openai"])
    for name, report in reports.items():
        assert verdicts(report) == first, (name, verdicts(report), first)

    # "30 days" against "lasts 14 days": contradicted, citing sentence 0
    claim = reports["openai"].claims[0]
    assert claim.label is not None and claim.label.value == "CON", first
    assert [e.sentence_id for e in claim.evidence] == [0] and claim.evidence[0].text == CONTEXT[0]

    # the clients that probe for structured output learnt once that this server rejects it
    assert results["openai"][1]._schema_mode == "prompt" and results["openai"][1].fallback_reason
    assert results["langchain"][1].method == "json"
