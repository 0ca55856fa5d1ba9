"""``RT4ChartMetric``: the verifier as a deepeval ``BaseMetric``, for ``deepeval.evaluate`` and
``assert_test``, with the claim-level report in ``verbose_logs`` and a failed row as the metric's
``error`` (deepeval's own channel for a metric that could not score), so the run goes on.
"""

from __future__ import annotations

import json
import os
from typing import Any

from deepeval.metrics import BaseMetric
from deepeval.metrics.utils import construct_verbose_logs
from deepeval.test_case import LLMTestCase, SingleTurnParams
from deepeval.test_case.llm_test_case import RetrievedContextData
from rt4chart_plugins.adapters.common.failure import RowFailure
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report, report_from_payload, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row
from rt4chart_plugins.adapters.common.verifier import build_verifier, judge_from
from rt4chart_plugins.adapters.deepeval.judge import DeepEvalJudge, resolve_judge, wrap

from rt4chart_plugins.detector import Detector, run_sync
from rt4chart_plugins.judges.kit import ChatJudge
from rt4chart_plugins.types import Report
from rt4chart_plugins.verifier import Verifier

#: what deepeval calls a test case's context and answer, as a failed row's reason names them
FIELDS = Fields(context="retrieval_context", answer="actual_output")


def _row_deadline() -> float | None:
    """Seconds this metric gives a row inside ``deepeval.evaluate``: a little less than what
    deepeval's per-task timeout (``DEEPEVAL_PER_TASK_TIMEOUT_SECONDS_OVERRIDE``, 180 s by default)
    leaves it, so that a slow row fails as this metric's error and the run goes on. Cut by deepeval
    itself, the row would stop the whole run under deepeval's default ``ErrorConfig``. None
    outside ``evaluate`` (``measure`` called directly has no timeout), when deepeval's timeouts
    are off, or when this deepeval does not say how much time is left."""
    from deepeval.config.settings import get_settings

    if get_settings().DEEPEVAL_DISABLE_TIMEOUTS:
        return None
    try:  # the budget deepeval's evaluate() set for this task: its own count, started before ours
        from deepeval.models.retry_policy import _remaining_budget
    except ImportError:  # pragma: no cover - depends on the deepeval release
        return None
    left = _remaining_budget()
    return None if left is None else max(0.1, left - max(0.5, 0.02 * left))


def report_from_metric_data(metric_data: Any) -> dict[str, Any] | None:
    """The claim-level report (label, score, state, claims with spans, evidence, reasons) from a
    deepeval ``MetricData`` of this metric, as found in ``evaluate(...).test_results[i].metrics_data``."""
    logs = getattr(metric_data, "verbose_logs", None)
    if not logs:
        return None
    try:
        return json.loads(logs)
    except ValueError:
        return None


class RT4ChartMetric(BaseMetric):
    """Claim-level RAG faithfulness (RT4CHART) as a deepeval metric.

    ``judge``: ``None``/``"trained"`` (the packaged cross-encoder verifier, the offline default),
    ``"local"`` (the embedded LLM judge), ``"openai"`` (an
    OpenAI-compatible endpoint; ``judge_kwargs={"base_url": ..., "model": ...}``), a
    :class:`rt4chart_plugins.Judge`, a ``DeepEvalBaseLLM``, or a deepeval model name.
    ``model``: deepeval's spelling of the same thing (``model="gpt-4.1"`` or a
    ``DeepEvalBaseLLM``): that model becomes the judge; giving both ``judge`` and ``model`` is refused.
    ``options`` / extra keyword arguments: pipeline options (``decomposition``, ``window_size``, ...).
    After ``measure``: ``score``, ``success``, ``reason``, ``verbose_logs`` (JSON), and on the
    instance also ``report`` (the typed :class:`rt4chart_plugins.Report`) and ``claims``; a row
    it could not score sets ``error`` (why) and ``error_type`` (the class of what was raised).
    """

    error: str | None = None  # deepeval's channel for a row this metric could not score
    #: the class of that row's error (``InvalidInput``, ``TimeoutError``, ``InvalidReply``, ...)
    error_type: str | None = None

    _required_params: list[SingleTurnParams] = [SingleTurnParams.ACTUAL_OUTPUT, SingleTurnParams.RETRIEVAL_CONTEXT]

    def __init__(
        self,
        threshold: float = 0.5,
        judge: Any = None,
        model: Any = None,
        judge_kwargs: dict[str, Any] | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        concurrency: int = 4,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ):
        # every __init__ argument under its own name: deepeval.evaluate() re-creates the metric from them
        self.threshold = 1.0 if strict_mode else threshold
        self.judge = judge
        self.model = model  # deepeval's own spelling of the judge: a DeepEvalBaseLLM or a model name
        self.judge_kwargs = judge_kwargs
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.concurrency = concurrency
        self.options = {**(options or {}), **kwargs}
        self._verifier = build_verifier(
            resolve_judge(judge_from(judge, model=model)),
            wrap,
            judge_kwargs=judge_kwargs,
            concurrency=concurrency,
            **self.options,
        )
        self.using_native_model = False
        self.evaluation_model = self._judge_name()
        self.report: Report | None = None
        self.claims: list[dict[str, Any]] = []

    @property
    def verifier(self) -> Detector:
        return self._verifier

    def _judge_name(self) -> str:
        try:
            return self._verifier.name
        except Exception:  # noqa: BLE001 - a judge that cannot be built yet fails at measure time
            return str(self.judge or os.environ.get("RT4CHART_JUDGE") or "trained")

    metric_name = "RT4CHART Faithfulness"

    @property
    def __name__(self) -> str:  # noqa: PLW3201 - deepeval's metric name
        return self.metric_name

    # -- measure ------------------------------------------------------------------------------

    def _row(self, test_case: LLMTestCase) -> tuple[Any, Any, Any]:
        """The test case's context, answer and question, as given. A missing or unusable field is
        not raised as ``MissingTestCaseParamsError``: with deepeval's default ``ErrorConfig`` that
        stops the whole run, where the row alone should fail (``metric.error``, with the reason)."""
        context = test_case.retrieval_context
        if isinstance(context, list):  # deepeval's RetrievedContextData: its text
            context = [
                getattr(item, "context", item) if isinstance(item, RetrievedContextData) else item for item in context
            ]
        return context, test_case.actual_output, test_case.input

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float | None:
        report = run_sync(averify_row(self._verifier, *self._row(test_case), FIELDS, timeout=_row_deadline()))
        return self._apply(report)

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float | None:
        report = await averify_row(self._verifier, *self._row(test_case), FIELDS, timeout=_row_deadline())
        return self._apply(report)

    def _apply(self, report: Report) -> float | None:
        self.report = report
        self.claims = [c for c in report_payload(report)["claims"]]
        self.score_breakdown = {
            "label": report.label.value if report.label else None,
            "state": report.state,
            "claims": len(report.claims),
        }
        self.reason = reason_text(report) if self.include_reason else None
        self.evaluation_cost = self._cost(report)
        if report.state == "failed":
            failure = RowFailure.of(report)
            self.error, self.error_type = failure.message, failure.error_type
            self.score = None
            self.success = False
        else:
            self.error = self.error_type = None
            self.score = report.score
            self.success = report.score is not None and report.score >= self.threshold
        self.verbose_logs = construct_verbose_logs(
            self,
            steps=[
                json.dumps(report_payload(report), ensure_ascii=False, indent=1),
                f"Score: {self.score}\nReason: {self.reason}",
            ],
        )
        return self.score

    def _cost(self, report: Report) -> float | None:
        """The row's judge cost in USD for deepeval's ``evaluation_cost``: a deepeval model's own
        price for the tokens it used (0.0 for a ``LocalModel``), 0.0 for the local judges
        (``trained``, ``local``, ``auto``, GASP), None when the price is unknown (an ``openai``
        endpoint or another chat judge; the tokens are in ``verbose_logs``)."""
        judge = getattr(self._verifier, "judge", None) if isinstance(self._verifier, Verifier) else None
        if isinstance(judge, DeepEvalJudge):
            return judge.usd(report.cost.prompt_tokens, report.cost.completion_tokens)
        if judge is None or not isinstance(judge, ChatJudge):
            return 0.0
        return None

    @staticmethod
    def reports_dataframe(result: Any) -> Any:
        """The claim table of a ``deepeval.evaluate()`` result: one pandas row per claim (label,
        answer span, evidence, reason, probabilities) of this metric's verdict on each test case,
        ``row_id`` the test case's name. A test case this metric did not score keeps one line
        saying why."""
        return claim_table(RT4ChartMetric.reports(result))

    @staticmethod
    def reports(result: Any) -> list[tuple[str, Report]]:
        """``(test case name, Report)`` of each test case of a ``deepeval.evaluate()`` result: what
        ``rt4chart_plugins.audit.diff_reports`` compares across two runs."""
        rows = []
        for i, test_result in enumerate(getattr(result, "test_results", None) or []):
            data = next((m for m in (test_result.metrics_data or []) if m.name == RT4ChartMetric.metric_name), None)
            report = report_from_payload(report_from_metric_data(data)) if data is not None else None
            if report is None:
                report = missing_report(getattr(data, "error", None) or "RT4CHART Faithfulness did not score it")
            rows.append((str(getattr(test_result, "name", None) or i), report))
        return rows

    def is_successful(self) -> bool:
        if self.error is not None or self.score is None:
            self.success = False
        else:
            self.success = self.score >= self.threshold
        return self.success
