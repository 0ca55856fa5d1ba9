"""RT4CHART as a DeepEval metric: evaluate() and assert_test(), with claim-level reasons.

Run (offline, on the default judge, the trained verifier; no model download):
    pip install "rt4chart-plugins[deepeval]"
    python examples/deepeval_example.py              # deepeval.evaluate(...)
    deepeval test run examples/deepeval_example.py   # or pytest: the test_* functions use assert_test
"""

import os

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")  # before importing deepeval

from deepeval import assert_test, evaluate  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402
from rt4chart_plugins.adapters.deepeval import RT4ChartMetric, report_from_metric_data  # noqa: E402

CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Trial accounts can export up to 5 reports per month.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
HALLUCINATED = LLMTestCase(
    input="Who can get the free trial?",
    actual_output=(
        "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
        "and verified new users can extend it once by 7 days. The trial also includes priority email support."
    ),
    retrieval_context=CONTEXT,
)
FAITHFUL = LLMTestCase(input="How long is the trial?", actual_output="The free trial lasts 14 days.",
                       retrieval_context=CONTEXT)

# The judge: None is the trained verifier (offline, shipped); "local" the embedded LLM. A deepeval model works too
# (judge=GPTModel(...) / any DeepEvalBaseLLM, or a model name such as judge="gpt-4.1"), and so
# does an OpenAI-compatible server: judge="openai", judge_kwargs={"base_url": ..., "model": ...}.
# decomposition="sentence" (one claim per answer sentence) keeps the offline judge fast.
metric = RT4ChartMetric(threshold=0.8, decomposition="sentence")


def test_faithful_answer_passes():
    assert_test(FAITHFUL, [metric])


if __name__ == "__main__":
    result = evaluate(test_cases=[HALLUCINATED, FAITHFUL], metrics=[metric])
    for test_result in result.test_results:
        data = test_result.metrics_data[0]
        print(f"\n{test_result.input!r}: score={data.score} success={data.success}")
        print(data.reason)
        report = report_from_metric_data(data)  # the claim JSON from verbose_logs
        for claim in report["claims"]:
            print("  ", claim["label"], claim["answer_span"]["text"], "<-", [e["text"] for e in claim["evidence"]])
