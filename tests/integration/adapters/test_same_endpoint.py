"""One endpoint, five clients, one set of verdicts.

The built-in ``openai`` judge, DeepEval's ``LocalModel``, LangChain's ``ChatOpenAI``, LlamaIndex's
``OpenAILike`` and a Ragas ``llm_factory`` LLM all reach the same llama.cpp server (the embedded
model) through a proxy that records every request and reply as the server saw them. What must
hold, and is checked on those bytes:

- each client learns at most once that the server rejects ``json_schema``, then sends the same
  prompt: the same messages, role by role, their contents byte for byte (the model reads the
  same tokens), at temperature 0. The rest of each request is that client's own settings (its
  max tokens, ``stream``, ``top_p``), none of which changes a greedy reply;
- the server answers the same prompt with the same reply: it serves one request at a time, with a
  fixed seed, and reads every prompt from an empty KV cache (``fresh_prompts``; reusing the
  previous request's cache moved the logits enough to flip a near tie between clients);
- one reply gives one set of claims, labels and evidence through every client, and each client
  reports the tokens the server counted.

Which label the 1.5B model gives is not asserted: that is the model's, not the clients'.
One short sample (two answer sentences against two context sentences) keeps it to one judge call
per client: the model runs on the CPU.
"""

from __future__ import annotations

import json
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


@pytest.fixture(scope="module")
def fresh_server(embedded_model_path):
    """The embedded model behind llama.cpp's server, every prompt read from an empty KV cache."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from rt4chart_lab.serving import llama_server

    with llama_server(embedded_model_path, n_ctx=4096, alias=MODEL, fresh_prompts=True) as endpoint:
        yield endpoint.base_url


def answered(exchanges) -> list[tuple[dict, str]]:
    """Each chat request the server answered (status 200), parsed, with the reply's text."""
    out = []
    for exchange in exchanges:
        if exchange.status == 200 and exchange.path.endswith("/chat/completions"):
            reply = json.loads(exchange.response)["choices"][0]["message"]["content"]
            out.append((json.loads(exchange.request), reply))
    return out


def prompt(request: dict) -> list[tuple[str, bytes]]:
    """What the model reads of a request: each message's role and content, as bytes."""
    return [(m["role"], m["content"].encode("utf-8")) for m in request["messages"]]


def test_five_clients_of_one_endpoint_send_one_prompt_and_read_one_reply_alike(fresh_server):
    for module in ("deepeval", "langchain_openai", "llama_index.llms.openai_like", "ragas"):
        pytest.importorskip(module)
    from recording_proxy import recording_proxy

    results, exchanges = {}, {}
    with recording_proxy(fresh_server) as (url, recording):
        for name, run in five_clients(url).items():
            results[name] = run()
            exchanges[name] = recording.take()
    reports = {name: report for name, (report, _judge) in results.items()}
    calls = {name: answered(exchanges[name]) for name in exchanges}

    # the same prompt, byte for byte, at temperature 0, from every client
    first = calls["openai"]
    assert first, exchanges["openai"]
    for name, asked in calls.items():
        assert [prompt(request) for request, _ in asked] == [prompt(request) for request, _ in first], name
        assert all(request.get("temperature") == 0 for request, _ in asked), (name, [r for r, _ in asked])
    # rejected once at most: the probe for json_schema (LangChain's client retries it on its own)
    for name, exchange_list in exchanges.items():
        rejected = [json.loads(e.request) for e in exchange_list if e.status != 200]
        assert all("response_format" in r or "tools" in r for r in rejected), (name, rejected)

    # the same prompt gets the same reply, from every client that asks it the same way: the built-in
    # judge asks for the server's own schema-bound JSON form, so its reply is the JSON the grammar allows
    plain = {name: asked for name, asked in calls.items() if name != "openai"}
    reference = next(iter(plain.values()))
    for name, asked in plain.items():
        assert [reply for _, reply in asked] == [reply for _, reply in reference], name
    assert all(json.loads(reply) for _, reply in first)  # the schema-bound reply is JSON as it stands

    # one reply, one set of verdicts, through every client; the server's tokens reach each report
    expected = verdicts(reports[next(iter(plain))])
    for name, report in reports.items():
        assert report.state in ("verified", "partial") and report.claims, (name, report.state, report.error)
        if name != "openai":
            assert verdicts(report) == expected, (name, verdicts(report), expected)
        assert report.cost.judge_calls >= 1 and report.cost.prompt_tokens > 0 and report.cost.completion_tokens > 0, (
            name, report.cost)
    for claim in reports["openai"].claims:
        assert all(0 <= e.sentence_id < len(CONTEXT) and e.text == CONTEXT[e.sentence_id] for e in claim.evidence)

    # the built-in judge learnt once which structured form this server takes: llama.cpp's json_object
    # with a schema, after its json_schema was rejected
    assert results["openai"][1]._schema_mode == "json_object_schema" and results["openai"][1].fallback_reason
    assert results["langchain"][1].method == "json"
