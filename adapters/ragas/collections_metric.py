"""``RT4ChartFaithfulnessV2``: the verifier as a ragas collections-style metric, what ``@experiment``
functions call: ``ascore`` returns a ``MetricResult`` whose reason names the failing claims, and a
row that cannot be scored is a NaN value with its reason, never an exception.
"""

from __future__ import annotations

from typing import Any

from ragas.metrics.collections.base import BaseMetric as CollectionsBaseMetric
from ragas.metrics.result import MetricResult
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import averify_row
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from
from rt4chart_plugins.adapters.ragas.judge import wrap
from rt4chart_plugins.adapters.ragas.metric import FIELDS

from rt4chart_plugins.detector import Detector, run_sync


class RT4ChartFaithfulnessV2(CollectionsBaseMetric):
    """The collections-style metric: ``await metric.ascore(user_input=..., response=...,
    retrieved_contexts=...)`` -> ``MetricResult(value, reason, traces)``, with the typed report
    as ``result.report``. Same ``judge`` choices as :class:`RT4ChartFaithfulness` (a ragas LLM
    from ``llm_factory`` included); extra keyword arguments are pipeline options.
    """

    def __init__(
        self,
        judge: Any = None,
        *,
        llm: Any = None,
        name: str = "rt4chart_faithfulness",
        judge_kwargs: dict[str, Any] | None = None,
        concurrency: int = 4,
        timeout: float | None = None,
        **options: Any,
    ):
        # not stored as `llm`: the collections base would then demand an InstructorLLM
        judge = judge_from(judge, llm=llm)
        self.judge = judge
        self.timeout = check_timeout(timeout)  # seconds a row may take: ascore has no timeout of its own
        self._verifier = build_verifier(judge, wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)
        super().__init__(name=name, allowed_values=(0.0, 1.0))

    @property
    def verifier(self) -> Detector:
        return self._verifier

    async def ascore(
        self,
        user_input: str | None = None,
        response: str | None = None,
        retrieved_contexts: list[str] | None = None,
        **_: Any,
    ) -> MetricResult:
        report = await averify_row(
            self._verifier, retrieved_contexts, response, user_input, FIELDS, timeout=self.timeout
        )
        value = float("nan") if report.state == "failed" else float(report.score)
        result = MetricResult(
            value=value,
            reason=reason_text(report),
            traces={
                "input": {"user_input": user_input, "response": response, "retrieved_contexts": retrieved_contexts},
                "output": report_payload(report),
            },
        )
        result.report = report
        return result

    @staticmethod
    def reports_dataframe(results: Any) -> Any:
        """The claim table of the ``MetricResult`` s this metric returned (one, or a list of them,
        e.g. an ``@experiment``'s): one pandas row per claim, ``row_id`` the position in the list."""
        items = [results] if isinstance(results, MetricResult) else list(results)
        return claim_table(
            [
                (str(i), getattr(r, "report", None) or missing_report("not an RT4CHART result"))
                for i, r in enumerate(items)
            ]
        )

    def score(self, **kwargs: Any) -> MetricResult:
        """Sync scoring; works inside a running loop too (ragas' own raises there)."""
        return run_sync(self.ascore(**kwargs))
