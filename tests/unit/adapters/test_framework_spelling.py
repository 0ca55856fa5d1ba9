"""Each framework's own spelling of the judge (``model=`` in DeepEval, ``llm=`` in Ragas, LangChain
and LlamaIndex) makes that LLM the judge, and every misspelt option is refused through each
adapter's own constructor. Nothing here calls a model: the judge a metric will ask is read off
its verifier (a client that is never reached)."""

from __future__ import annotations

import pytest

from rt4chart_plugins import InvalidInput, Verifier

UNREACHABLE = "http://127.0.0.1:9/v1"  # the discard port: built, never called


def test_the_verifier_names_the_option_it_did_not_know():
    with pytest.raises(InvalidInput, match=r"takes no option 'decompositon' \(did you mean 'decomposition'\?\)"):
        Verifier(decompositon="sentence")
    with pytest.raises(InvalidInput, match="window_size: Input should be greater than or equal to 1"):
        Verifier(window_size=0)


def test_deepeval_model_is_the_judge():
    pytest.importorskip("deepeval")
    from deepeval.models import LocalModel
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(model=LocalModel(model="qwen-judge", base_url=UNREACHABLE, api_key="x"))
    assert metric.evaluation_model.startswith("deepeval:LocalModel:qwen-judge")
    # the default judge's name, its artifact's version and checksum, known before its model loads
    assert RT4ChartMetric().evaluation_model.startswith("trained-minilm-v")


def test_deepeval_model_name_builds_deepevals_model_or_says_why(monkeypatch):
    pytest.importorskip("deepeval")
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InvalidInput, match="deepeval could not build the judge model 'gpt-4.1'.*API key"):
        RT4ChartMetric(model="gpt-4.1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert "gpt-4.1" in RT4ChartMetric(model="gpt-4.1").evaluation_model


def test_deepeval_recreates_the_metric_with_the_same_judge():
    """deepeval.evaluate() copies a metric by calling __init__ with its same-named attributes."""
    pytest.importorskip("deepeval")
    from deepeval.models import LocalModel
    from deepeval.metrics.utils import copy_metrics
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(model=LocalModel(model="qwen-judge", base_url=UNREACHABLE, api_key="x"))
    (copy,) = copy_metrics([metric])
    assert copy is not metric and copy.evaluation_model == metric.evaluation_model


def test_langchain_llm_is_the_judge():
    pytest.importorskip("langchain_openai")
    from langchain_openai import ChatOpenAI
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    llm = ChatOpenAI(base_url=UNREACHABLE, api_key="x", model="qwen-judge")
    assert RT4ChartVerifier(llm=llm).verifier.name == "langchain:ChatOpenAI:qwen-judge"


def test_llama_index_llm_is_the_judge():
    pytest.importorskip("llama_index.llms.openai_like")
    from llama_index.llms.openai_like import OpenAILike
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    llm = OpenAILike(api_base=UNREACHABLE, api_key="x", model="qwen-judge", is_chat_model=True)
    assert RT4ChartEvaluator(llm=llm).verifier.name == "llama-index:OpenAILike:qwen-judge"


def test_ragas_llm_is_the_judge_of_both_metrics():
    pytest.importorskip("ragas")
    from openai import AsyncOpenAI
    from ragas.llms import llm_factory
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness, RT4ChartFaithfulnessV2

    llm = llm_factory("qwen-judge", client=AsyncOpenAI(base_url=UNREACHABLE, api_key="x"))
    assert RT4ChartFaithfulness(llm=llm).verifier.name == "ragas:InstructorLLM:qwen-judge"
    assert RT4ChartFaithfulnessV2(llm=llm).verifier.name == "ragas:InstructorLLM:qwen-judge"


def _constructors():
    """(name, build(**kwargs)) for every adapter whose framework is installed."""
    out = []
    try:
        from rt4chart_plugins.adapters.deepeval import RT4ChartMetric
        out.append(("deepeval", lambda **kw: RT4ChartMetric(**kw)))
        out.append(("deepeval-options", lambda judge_kwargs=None, **kw: RT4ChartMetric(judge_kwargs=judge_kwargs,
                                                                                    options=kw)))
    except ImportError:
        pass
    try:
        from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness, RT4ChartFaithfulnessV2
        out.append(("ragas", lambda judge_kwargs=None, **kw: RT4ChartFaithfulness(judge_kwargs=judge_kwargs, options=kw)))
        out.append(("ragas-v2", lambda **kw: RT4ChartFaithfulnessV2(**kw)))
    except ImportError:
        pass
    try:
        from rt4chart_plugins.adapters.langchain import RT4ChartVerifier
        out.append(("langchain", lambda **kw: RT4ChartVerifier(**kw)))
    except ImportError:
        pass
    try:
        from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator
        out.append(("llama_index", lambda **kw: RT4ChartEvaluator(**kw)))
    except ImportError:
        pass
    return out


CONSTRUCTORS = _constructors()


@pytest.mark.parametrize("build", [b for _, b in CONSTRUCTORS], ids=[n for n, _ in CONSTRUCTORS])
def test_every_adapter_refuses_a_misspelt_option(build):
    with pytest.raises(InvalidInput, match="'decompositon' .did you mean 'decomposition'"):
        build(decompositon="sentence")
    with pytest.raises(InvalidInput, match="'chunkz' .did you mean 'chunks'"):
        build(method="gasp", chunkz=3)
    with pytest.raises(InvalidInput, match="takes no option 'treshold'"):
        build(judge_kwargs={"treshold": 0.5})


@pytest.mark.parametrize("build", [b for n, b in CONSTRUCTORS if n in ("langchain", "llama_index", "ragas-v2")],
                         ids=[n for n, _ in CONSTRUCTORS if n in ("langchain", "llama_index", "ragas-v2")])
def test_a_judge_given_twice_is_refused(build):
    with pytest.raises(InvalidInput, match=r"the judge is given twice \(judge=, llm=\)"):
        build(judge="trained", llm="local")


def test_a_misspelt_option_of_a_framework_llm_judge_is_refused():
    pytest.importorskip("langchain_openai")
    from langchain_openai import ChatOpenAI
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    llm = ChatOpenAI(base_url=UNREACHABLE, api_key="x", model="qwen-judge")
    with pytest.raises(InvalidInput, match="judge_kwargs for a ChatOpenAI.*'cach'"):
        RT4ChartVerifier(llm=llm, judge_kwargs={"cach": False})
