"""DeepEval: the verifier as a ``BaseMetric``.

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric

    metric = RT4ChartMetric(threshold=0.8)                  # embedded offline judge
    metric = RT4ChartMetric(threshold=0.8, judge=my_model)   # a DeepEvalBaseLLM (or "gpt-4.1")
    deepeval.evaluate(test_cases=[...], metrics=[metric])   # or assert_test(test_case, [metric])

It reads ``actual_output`` (the answer), ``retrieval_context`` (the context) and ``input`` (the
question). ``score`` is the fraction of judged claims the context entails; ``success`` is
``score >= threshold``; ``reason`` names every contradicted (CON) and baseless (NIC) claim with its
answer span and evidence; ``verbose_logs`` is the claim-level report as JSON
(:func:`report_from_metric_data` reads it back from an evaluation result).

A verification that fails (judge unreachable, bad input) sets ``metric.error`` and
``success=False`` with ``score`` None, as deepeval does for a metric that errored: the run goes on.

``deepeval.evaluate`` re-creates each metric from its attributes named like ``__init__``
parameters, so every parameter is stored under its own name (pipeline options in ``options``).
"""

from rt4chart_plugins.adapters.common.extras import require_framework

require_framework(
    "deepeval",
    "deepeval",
    (
        "deepeval.metrics",
        "deepeval.metrics.utils",
        "deepeval.models",
        "deepeval.test_case",
        "deepeval.test_case.llm_test_case",
    ),
)

from rt4chart_plugins.adapters.deepeval.judge import DeepEvalJudge  # noqa: E402
from rt4chart_plugins.adapters.deepeval.metric import RT4ChartMetric, report_from_metric_data  # noqa: E402

__all__ = ["DeepEvalJudge", "RT4ChartMetric", "report_from_metric_data"]
