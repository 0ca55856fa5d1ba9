"""Each framework's own LLM client as the judge, against a real model (the embedded Qwen behind
llama.cpp's OpenAI-compatible server). The 1.5B model is a weak chat judge (the embedded judge
reads labels off logits instead), so these tests check that the verification really ran through
the framework's client and flagged the hallucinated answer, not every label."""

from __future__ import annotations

import pytest
from adapter_helpers import ANSWER, CONTEXT, QUESTION

pytestmark = [pytest.mark.model, pytest.mark.server]

OPTIONS = {"decomposition": "sentence", "sub_sentence_spans": False, "global_verification": False}


def check_real_report(report, judge_prefix: str) -> None:
    assert report.judge.startswith(judge_prefix), report.judge
    assert report.state == "verified", (report.state, report.error, [c.error for c in report.claims])
    assert report.cost.judge_calls > 0
    assert len(report.claims) == 3 and all(c.judged and c.label is not None for c in report.claims)
    assert report.hallucinated  # "no verification is needed" / "priority email support" are not in C
    for c in report.claims:
        assert c.answer_span is not None and ANSWER[c.answer_span.start:c.answer_span.end] == c.answer_span.text
        assert all(e.text == CONTEXT[e.passage] for e in c.evidence)


def test_langchain_chat_openai_as_judge(llama_server):
    langchain_openai = pytest.importorskip("langchain_openai")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    llm = langchain_openai.ChatOpenAI(base_url=llama_server, api_key="not-needed", model="qwen-judge",
                                      temperature=0, max_tokens=600, timeout=300)
    verifier = RT4ChartVerifier(judge=llm, **OPTIONS)
    report = verifier.invoke({"context": CONTEXT, "question": QUESTION, "answer": ANSWER})
    check_real_report(report, "langchain:ChatOpenAI:qwen-judge")
    # llama.cpp's server rejects json_schema response formats: the judge fell back to JSON in the prompt
    assert verifier.verifier.judge.method == "json" and "json_schema" in verifier.verifier.judge.fallback_reason


def test_ragas_llm_factory_as_judge(llama_server):
    pytest.importorskip("ragas")
    from openai import AsyncOpenAI
    from ragas.llms import llm_factory
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulnessV2

    llm = llm_factory("qwen-judge", client=AsyncOpenAI(base_url=llama_server, api_key="not-needed"),
                      max_tokens=600, temperature=0)
    result = RT4ChartFaithfulnessV2(llm, **OPTIONS).score(user_input=QUESTION, response=ANSWER,
                                                            retrieved_contexts=CONTEXT)
    check_real_report(result.report, "ragas:InstructorLLM:qwen-judge")
    assert result.value == result.report.score < 1.0


def test_deepeval_local_model_as_judge(llama_server, tmp_path, monkeypatch):
    pytest.importorskip("deepeval")
    monkeypatch.chdir(tmp_path)
    from deepeval.models import LocalModel
    from deepeval.test_case import LLMTestCase
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    model = LocalModel(model="qwen-judge", base_url=llama_server, api_key="not-needed", temperature=0)
    metric = RT4ChartMetric(threshold=0.8, judge=model, **OPTIONS)
    metric.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=CONTEXT))
    assert metric.error is None, metric.error
    check_real_report(metric.report, "deepeval:LocalModel:qwen-judge")
    assert metric.success is False


def test_llama_index_llm_as_judge(llama_server):
    """llama-index-core ships no OpenAI-compatible LLM (that is the llama-index-llms-openai-like
    package): a minimal CustomLLM over the same server stands in for it."""
    pytest.importorskip("llama_index.core")
    from llama_index.core.base.llms.types import ChatMessage, ChatResponse
    from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
    from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
    from openai import OpenAI
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    class ServerLLM(CustomLLM):
        base_url: str

        @property
        def metadata(self) -> LLMMetadata:
            return LLMMetadata(model_name="qwen-judge", is_chat_model=True)

        def _client(self) -> OpenAI:
            return OpenAI(base_url=self.base_url, api_key="not-needed", timeout=300)

        @llm_chat_callback()
        def chat(self, messages, **kwargs) -> ChatResponse:
            resp = self._client().chat.completions.create(
                model="qwen-judge", temperature=0, max_tokens=600,
                messages=[{"role": m.role.value, "content": m.content} for m in messages])
            return ChatResponse(message=ChatMessage(role="assistant", content=resp.choices[0].message.content),
                                raw=resp.model_dump())

        @llm_completion_callback()
        def complete(self, prompt: str, formatted: bool = False, **kwargs) -> CompletionResponse:
            return CompletionResponse(text=self.chat([ChatMessage(role="user", content=prompt)]).message.content)

        @llm_completion_callback()
        def stream_complete(self, prompt: str, formatted: bool = False, **kwargs):
            raise NotImplementedError

    evaluator = RT4ChartEvaluator(judge=ServerLLM(base_url=llama_server), **OPTIONS)
    result = evaluator.evaluate(query=QUESTION, response=ANSWER, contexts=CONTEXT)
    assert not result.invalid_result, result.invalid_reason
    check_real_report(result.report, "llama-index:ServerLLM:qwen-judge")
    assert result.passing is False and result.report.cost.prompt_tokens > 0
