"""Ragas: the verifier as a metric for ``ragas.evaluate()`` and for ``@experiment`` code.

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness, reports_from_result

    metric = RT4ChartFaithfulness()               # embedded offline judge
    metric = RT4ChartFaithfulness(judge=my_llm)   # a ragas LLM (llm_factory(...) or LangchainLLMWrapper)
    result = ragas.evaluate(dataset, metrics=[metric], run_config=RunConfig(timeout=600))
    result.to_pandas()["rt4chart_faithfulness"]                        # the scores
    result.traces[0]["rt4chart_faithfulness"]["rt4chart_report"]["output"]["claims"]  # claim details
    metric.reports_for(result)                                          # the typed reports, row by row

``RT4ChartFaithfulness`` is a legacy ``SingleTurnMetric`` (the only kind ``ragas.evaluate()``
accepts); it reads ``response``, ``retrieved_contexts`` and, when present, ``user_input``, and
returns the fraction of judged claims that the context entails. The claim-level verdicts (label,
answer span, evidence, reason) travel as a child run ``rt4chart_report`` of the metric's run, so
they appear in ``result.traces`` / ``result.ragas_traces`` and in any LangChain tracer; the metric
also keeps every typed :class:`rt4chart_plugins.Report` (``metric.reports_for(result)``).

``RT4ChartFaithfulnessV2`` is the newer "collections" style: ``await metric.ascore(user_input=...,
response=..., retrieved_contexts=...)`` returns a ``MetricResult`` whose ``value`` is the score,
``reason`` names the failing claims with their evidence, ``traces`` holds the claim-level report,
and ``.report`` the typed report; it is what ``@experiment`` functions call.

Failures follow ragas' conventions, never silently: an answer with nothing verifiable scores 1.0
(state ``no_claims`` in the trace; ragas' own Faithfulness gives NaN there). A row of which not a
single claim could be judged (judge unreachable, bad input) raises inside the metric, so that
``ragas.evaluate`` logs the error and scores that row NaN (or raises with
``raise_exceptions=True``), exactly as it does for its own metrics; the failed report, with its
error, is still in ``metric.reports_for(result)``. ``RT4ChartFaithfulnessV2`` returns
``MetricResult(value=nan, reason="verification failed: ...")`` instead of raising. When only some
claims could be judged, the score uses those and the trace lists the others as unjudged.
"""

from rt4chart_plugins.adapters.common.extras import require_framework

require_framework(
    "ragas",
    "ragas",
    (
        "langchain_core.outputs",
        "langchain_core.prompt_values",
        "ragas.callbacks",
        "ragas.dataset_schema",
        "ragas.llms.base",
        "ragas.metrics.base",
        "ragas.metrics.collections.base",
        "ragas.metrics.result",
        "ragas.run_config",
    ),
)

from rt4chart_plugins.adapters.ragas.collections_metric import RT4ChartFaithfulnessV2  # noqa: E402
from rt4chart_plugins.adapters.ragas.judge import RagasJudge  # noqa: E402
from rt4chart_plugins.adapters.ragas.metric import TRACE_NAME, RT4ChartFaithfulness, reports_from_result  # noqa: E402

__all__ = ["TRACE_NAME", "RT4ChartFaithfulness", "RT4ChartFaithfulnessV2", "RagasJudge", "reports_from_result"]
