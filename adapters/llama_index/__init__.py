"""LlamaIndex: the verifier as a ``BaseEvaluator``.

    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    evaluator = RT4ChartEvaluator()                    # embedded offline judge
    evaluator = RT4ChartEvaluator(judge=Settings.llm)  # any LlamaIndex LLM as the judge
    result = evaluator.evaluate_response(query=q, response=query_engine.query(q))
    result.passing, result.score, result.label, result.claims[0].evidence

It works with ``evaluate``, ``aevaluate``, ``evaluate_response`` (a ``Response`` and its
``source_nodes``) and ``BatchEvalRunner``. The result is an :class:`RT4ChartEvaluationResult`: a
LlamaIndex ``EvaluationResult`` (``passing``, ``score``, ``feedback``) that also carries the
answer label and every claim as typed fields (label, answer span, evidence, reason) and the full
report. A verification that fails (judge unreachable, bad input) returns ``invalid_result=True``
with ``invalid_reason``, never an exception: ``BatchEvalRunner`` would retry it with backoff.

``RT4ChartGuardQueryEngine(query_engine)`` wraps a query engine so that its answers come back
guarded: the clauses its source nodes do not support taken out (or marked, or the answer
refused), ``[n]`` citations pointing to the nodes (docs/guard.md).
"""

from rt4chart_plugins.adapters.common.extras import require_framework

require_framework(
    "llama-index-core",
    "llama-index",
    (
        "llama_index.core.base.llms.types",
        "llama_index.core.bridge.pydantic",
        "llama_index.core.evaluation",
        "llama_index.core.llms",
        "llama_index.core.prompts.mixin",
        "llama_index.core.base.base_query_engine",
    ),
)

from rt4chart_plugins.adapters.llama_index.evaluator import RT4ChartEvaluator  # noqa: E402
from rt4chart_plugins.adapters.llama_index.guard import RT4ChartGuardQueryEngine  # noqa: E402
from rt4chart_plugins.adapters.llama_index.judge import LlamaIndexJudge  # noqa: E402
from rt4chart_plugins.adapters.llama_index.result import RT4ChartEvaluationResult  # noqa: E402

__all__ = ["LlamaIndexJudge", "RT4ChartEvaluationResult", "RT4ChartEvaluator", "RT4ChartGuardQueryEngine"]
