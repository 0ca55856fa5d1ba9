"""Each framework's result, through its own entry point, with the default judge (the trained
verifier, offline): the claim table in one call, the claim details (probabilities, the facts the
rules found unsupported) in the framework's own logs and traces, tokens and cost in the
framework's own channels, and the rows that could not be scored counted, not silent."""

from __future__ import annotations

import json
import logging

import pytest

from rt4chart_plugins.judges.trained.encoder import load_manifest

#: an ENT claim's support reaches the shipped verifier's threshold: the label agrees with its probabilities
THRESHOLD = load_manifest(check=False)[1].threshold

pytest.importorskip("pandas")

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible for the trial."]
QUESTION = "How long is the free trial?"
GOOD = "The free trial lasts 14 days."
BAD = "The free trial lasts 30 days."
TOO_LONG = ["x" * 2_000_001]  # over max_context_chars: the row fails with InvalidInput


def _check_table(table, row_ids, states):
    assert list(table["row_id"]) == row_ids and list(table["state"]) == states
    for column in ("claim", "label", "span_start", "evidence_sentence_ids", "evidence_texts", "reason", "p_ent"):
        assert column in table.columns


def test_ragas_evaluate_tokens_failures_and_claim_table(caplog):
    pytest.importorskip("ragas")
    from ragas import EvaluationDataset, evaluate
    from ragas.cost import get_token_usage_for_openai
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness, reports_from_result

    data = EvaluationDataset.from_list(
        [
            {"user_input": QUESTION, "response": GOOD, "retrieved_contexts": CONTEXT},
            {"user_input": QUESTION, "response": GOOD, "retrieved_contexts": TOO_LONG},
        ]
    )
    metric = RT4ChartFaithfulness()
    with caplog.at_level(logging.WARNING, logger="rt4chart_plugins.adapters.ragas"):
        result = evaluate(data, metrics=[metric], token_usage_parser=get_token_usage_for_openai, show_progress=False)
    scores = result.to_pandas()["rt4chart_faithfulness"]
    assert scores[0] == 1.0 and scores.isna()[1]
    # the NaN is counted and said, with the judge's reason
    assert len(metric.failed_rows) == 1 and "max_context_chars" in metric.failed_rows[0]["error"]
    assert "1 row(s) of this evaluate() scored NaN" in caplog.text
    # ragas' own token channel: one model, a total (the trained verifier counts its encoder's tokens)
    usage = result.total_tokens()
    assert usage.model == metric.verifier.name and usage.input_tokens > 0 and usage.output_tokens == 0
    # the claim table in one call, and the whole claim in the traces
    table = metric.reports_dataframe(result)
    _check_table(table, ["0", "1"], ["verified", "failed"])
    assert table["label"][0] == "ENT" and table["evidence_sentence_ids"][0] == [0] and table["p_ent"][0] >= THRESHOLD
    claim = reports_from_result(result)[0]["claims"][0]
    assert set(claim) >= {"probs", "unsupported_facts", "evidence", "answer_span"}
    assert claim["probs"]["ENT"] >= THRESHOLD


def test_ragas_v2_results_as_a_claim_table():
    pytest.importorskip("ragas")
    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulnessV2

    metric = RT4ChartFaithfulnessV2()
    results = [metric.score(user_input=QUESTION, response=r, retrieved_contexts=CONTEXT) for r in (GOOD, BAD)]
    table = RT4ChartFaithfulnessV2.reports_dataframe(results)
    _check_table(table, ["0", "1"], ["verified", "verified"])
    assert table["claim"][1] == BAD


def test_deepeval_evaluate_cost_logs_and_claim_table(tmp_path, monkeypatch):
    pytest.importorskip("deepeval")
    monkeypatch.chdir(tmp_path)
    from deepeval import evaluate
    from deepeval.evaluate.configs import DisplayConfig
    from deepeval.test_case import LLMTestCase
    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    cases = [
        LLMTestCase(name="good", input=QUESTION, actual_output=GOOD, retrieval_context=CONTEXT),
        LLMTestCase(name="bad", input=QUESTION, actual_output=BAD, retrieval_context=CONTEXT),
    ]
    result = evaluate(
        cases, [RT4ChartMetric(threshold=0.8)], display_config=DisplayConfig(print_results=False, show_indicator=False)
    )
    data = {t.name: t.metrics_data[0] for t in result.test_results}
    # deepeval's cost channel: the trained verifier runs locally, so it costs 0.0, not "unknown"
    assert data["good"].evaluation_cost == 0.0 and data["bad"].evaluation_cost == 0.0
    logged = json.loads(data["good"].verbose_logs)
    assert logged["claims"][0]["probs"]["ENT"] >= THRESHOLD and "unsupported_facts" in logged["claims"][0]
    # tokens the encoder ran, or pairs it had scored before (another test verified this answer)
    assert logged["cost"]["prompt_tokens"] + logged["cost"]["cache_hits"] > 0
    table = RT4ChartMetric.reports_dataframe(result)
    _check_table(table, sorted(["good", "bad"], key=list(data).index), ["verified", "verified"])
    assert dict(zip(table["row_id"], table["label"]))["good"] == "ENT"


def test_llama_index_typed_results_no_contexts_and_claim_table():
    pytest.importorskip("llama_index.core")
    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluationResult, RT4ChartEvaluator

    evaluator = RT4ChartEvaluator()
    result = evaluator.evaluate(query=QUESTION, response=GOOD, contexts=CONTEXT)
    assert isinstance(result, RT4ChartEvaluationResult) and result.claims[0].label.value == "ENT"
    # no contexts at all is not an empty context: invalid, with the reason, not a 0.0 "hallucination"
    missing = evaluator.evaluate(query=QUESTION, response=GOOD)
    assert missing.invalid_result and missing.score is None and missing.passing is None
    assert "contexts is missing" in missing.invalid_reason
    table = RT4ChartEvaluator.reports_dataframe({"rt4chart": [result, missing]})
    _check_table(table, ["rt4chart:0", "rt4chart:1"], ["verified", "failed"])
    assert "contexts is missing" in table["error"][1]


def test_llama_index_entry_points_are_typed_with_the_evaluators_result():
    """``evaluate`` / ``evaluate_response`` / ``aevaluate_response`` say they return the subclass,
    so ``result.claims`` type-checks."""
    pytest.importorskip("llama_index.core")
    import typing

    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluationResult, RT4ChartEvaluator

    for name in ("evaluate", "aevaluate", "evaluate_response", "aevaluate_response"):
        hints = typing.get_type_hints(getattr(RT4ChartEvaluator, name))
        assert hints["return"] is RT4ChartEvaluationResult, name
