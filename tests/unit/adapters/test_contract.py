"""One contract for every adapter (docs/output.md, "In an evaluation framework"): a row that cannot
be verified reaches the framework's own channel for a row without a score, with the reason, and
the other rows of the run are scored.

The five rows that cannot be verified: no context, a context item that is no text, no answer, a
judge that fails, a row past its timeout. (An empty context can be verified: every claim is NIC;
tests/unit/test_batch_rows.py holds it to that in every path.) Each goes through the framework's own
entry point (``ragas.evaluate``, ``deepeval.evaluate``, a LangChain ``batch``, LlamaIndex's
``BatchEvalRunner``), and the outcome is read where that framework's users read it: never a 0.0
score (it would average in as a hallucination), never a raw pydantic error, always the reason.

The judges are real: the trained verifier for the input rows; the ``openai`` judge against a port
that refuses connections (fails) or one that accepts and never answers (past the timeout). A
framework's sample type refuses some rows itself when it is built (ragas' and DeepEval's a context
item that is no text): such rows are built without that check (``model_construct``), as a row
that reaches the metric another way.
"""

from __future__ import annotations

import math
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible."]
QUESTION = "How long is the trial?"
GOOD = "The free trial lasts 14 days."
#: seconds a row may take: the framework's (ragas, DeepEval) or the adapter's timeout (the others).
#: Short for the row that must pass it, long for the others, which must fail for their own reason
#: however loaded the machine is
TIMEOUT = 2


@dataclass
class Outcome:
    """What a framework shows for one row."""

    channel: str  # "nan", "error", "exception", "invalid": the framework's own way of saying "no score"
    score: Any  # the score that row shows, if any
    reason: str  # where the framework shows why


@dataclass
class Case:
    context: Any
    answer: Any
    reason: str  # a regular expression the reason must match; {context} / {answer}: the field names
    judge: str = "trained"  # "trained", "refused" (a port that refuses) or "silent" (never answers)

    @property
    def timeout(self) -> float:
        return TIMEOUT if self.judge == "silent" else 300


CASES = {
    "no context": Case(None, GOOD, r"{context} is missing: there is no context"),
    "context items that are no text": Case([1, None], GOOD, r"{context} must hold strings: item 0 is int, item 1 is None"),
    "no answer": Case(CONTEXT, None, r"{answer} is missing: there is no answer"),
    "a judge that fails": Case(CONTEXT, GOOD, r"Connection error", judge="refused"),
    "a row past its timeout": Case(CONTEXT, GOOD, r"(?i)time(d)? ?out", judge="silent"),
}


@pytest.fixture(scope="module")
def endpoints() -> Iterator[dict[str, str]]:
    """Two OpenAI-compatible base URLs that cannot serve: one refuses connections, one accepts
    them and never answers."""
    with socket.socket() as refused:
        refused.bind(("127.0.0.1", 0))
        refused_port = refused.getsockname()[1]  # closed when the block ends: nothing listens there
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # the kernel completes the connections; nobody reads or answers
    try:
        yield {"refused": f"http://127.0.0.1:{refused_port}/v1", "silent": f"http://127.0.0.1:{silent.getsockname()[1]}/v1"}
    finally:
        silent.close()


def judge_of(case: Case, endpoints: dict[str, str]) -> dict[str, Any]:
    if case.judge == "trained":
        return {"judge": "trained"}
    return {"judge": "openai", "judge_kwargs": {"base_url": endpoints[case.judge], "model": "m", "api_key": "x",
                                                "max_retries": 0, "cache": False}}


# ---- each framework's run, and where its users read the outcome -------------------------------------


def ragas_run(case: Case, judge: dict[str, Any]) -> tuple[Outcome, list[float]]:
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, SingleTurnSample, evaluate
    from ragas.run_config import RunConfig

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    if isinstance(case.context, list) and not all(isinstance(c, str) for c in case.context):
        pytest.skip("ragas.evaluate() never hands such a row to a metric: it rebuilds each sample as a "
                    "SingleTurnSample first, which refuses it (ragas-collections checks this row)")
    metric = RT4ChartFaithfulness(judge=judge["judge"], judge_kwargs=judge.get("judge_kwargs"))
    bad = SingleTurnSample(user_input=QUESTION, response=case.answer, retrieved_contexts=case.context)
    # a good row first: ragas reads the dataset's columns off its first sample
    rows = ([SingleTurnSample(user_input=QUESTION, response=GOOD, retrieved_contexts=CONTEXT)]
            if case.judge == "trained" else []) + [bad]
    result = evaluate(EvaluationDataset(samples=rows), metrics=[metric], show_progress=False,
                      run_config=RunConfig(timeout=case.timeout, max_retries=1))
    table = metric.to_pandas(result)  # ragas' own table, with the reason beside the score
    assert len(metric.failed_rows) == 1 and metric.failed_rows[0]["error"] in table[f"{metric.name}_reason"].iloc[-1]
    scores = list(table[metric.name])
    return Outcome("nan", scores[-1], metric.failed_rows[0]["error"]), scores[:-1]


def ragas_collections_run(case: Case, judge: dict[str, Any]) -> tuple[Outcome, list[float]]:
    pytest.importorskip("ragas")
    import asyncio

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulnessV2

    metric = RT4ChartFaithfulnessV2(judge=judge["judge"], judge_kwargs=judge.get("judge_kwargs"), timeout=case.timeout)
    rows = [(case.context, case.answer)] + ([(CONTEXT, GOOD)] if case.judge == "trained" else [])
    # what an @experiment's row function calls
    results = [asyncio.run(metric.ascore(user_input=QUESTION, response=a, retrieved_contexts=c)) for c, a in rows]
    return Outcome("nan", results[0].value, results[0].reason), [r.value for r in results[1:]]


def deepeval_run(case: Case, judge: dict[str, Any], monkeypatch) -> tuple[Outcome, list[float]]:
    pytest.importorskip("deepeval")
    from deepeval import evaluate
    from deepeval.evaluate.configs import DisplayConfig
    from deepeval.test_case import LLMTestCase

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    monkeypatch.setenv("DEEPEVAL_PER_TASK_TIMEOUT_SECONDS_OVERRIDE", str(case.timeout))
    rows = [LLMTestCase.model_construct(input=QUESTION, actual_output=case.answer, retrieval_context=case.context,
                                        name="bad")]
    if case.judge == "trained":
        rows.append(LLMTestCase(input=QUESTION, actual_output=GOOD, retrieval_context=CONTEXT, name="good"))
    # deepeval's default ErrorConfig: an exception from a metric, or deepeval's own timeout, would stop the run
    result = evaluate(test_cases=rows, metrics=[RT4ChartMetric(**judge)],
                      display_config=DisplayConfig(print_results=False, show_indicator=False))
    by_name = {r.name: r.metrics_data[0] for r in result.test_results}
    bad = by_name["bad"]
    assert bad.success is False
    return Outcome("error", bad.score, bad.error or ""), [by_name[n].score for n in by_name if n != "bad"]


def langchain_run(case: Case, judge: dict[str, Any]) -> tuple[Outcome, list[float]]:
    pytest.importorskip("langchain_core")
    from rt4chart_plugins import Report
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    verifier = RT4ChartVerifier(timeout=case.timeout, **judge)
    rows = [{"context": case.context, "question": QUESTION, "answer": case.answer}]
    if case.judge == "trained":
        rows.append({"context": CONTEXT, "question": QUESTION, "answer": GOOD})
    out = verifier.batch(rows, return_exceptions=True)  # LangChain's channel for a failed step
    assert isinstance(out[0], Exception) and out[0].report.state == "failed", out[0]
    assert all(isinstance(r, Report) for r in out[1:])
    return Outcome("exception", None, str(out[0])), [r.score for r in out[1:]]


def llama_index_run(case: Case, judge: dict[str, Any]) -> tuple[Outcome, list[float]]:
    pytest.importorskip("llama_index.core")
    from llama_index.core.evaluation import BatchEvalRunner
    from llama_index.core.evaluation.notebook_utils import get_eval_results_df

    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    runner = BatchEvalRunner({"rt4chart": RT4ChartEvaluator(timeout=case.timeout, **judge)}, workers=2)
    rows = [(case.answer, case.context)] + ([(GOOD, CONTEXT)] if case.judge == "trained" else [])
    results = runner.evaluate_response_strs(queries=[QUESTION] * len(rows), response_strs=[r[0] for r in rows],
                                            contexts_list=[r[1] for r in rows])["rt4chart"]
    bad = results[0]
    assert bad.invalid_result and bad.passing is None
    table, _mean = get_eval_results_df(["rag"] * len(results), results)  # LlamaIndex's own table
    assert bad.invalid_reason in table["feedbacks"][0]
    return Outcome("invalid", table["scores"][0], bad.invalid_reason), [r.score for r in results[1:]]


ADAPTERS = {
    "ragas": (ragas_run, {"context": "retrieved_contexts", "answer": "response"}),
    "ragas-collections": (ragas_collections_run, {"context": "retrieved_contexts", "answer": "response"}),
    "deepeval": (deepeval_run, {"context": "retrieval_context", "answer": "actual_output"}),
    "langchain": (langchain_run, {"context": "context", "answer": "answer"}),
    "llama_index": (llama_index_run, {"context": "contexts", "answer": "response"}),
}


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("adapter", ADAPTERS, ids=str)
def test_a_row_that_cannot_be_verified_is_the_frameworks_failed_row_with_its_reason(adapter, case, endpoints,
                                                                                     monkeypatch):
    run, fields = ADAPTERS[adapter]
    row = CASES[case]
    judge = judge_of(row, endpoints)
    outcome, others = run(row, judge, monkeypatch) if adapter == "deepeval" else run(row, judge)

    # no score that could average in: None where the framework has it, NaN where it has that
    assert outcome.score is None or math.isnan(outcome.score), outcome
    # the reason, in the framework's words for its fields, never a pydantic dump
    expected = row.reason.format(**fields)
    assert re.search(expected, outcome.reason), (expected, outcome.reason)
    assert "validation error" not in outcome.reason and "type=" not in outcome.reason, outcome.reason
    # the rest of the run is scored
    assert others == [1.0] if row.judge == "trained" else others == [], others
