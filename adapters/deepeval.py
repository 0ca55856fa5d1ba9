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

from __future__ import annotations

import json
import os
from typing import Any

from pydantic import BaseModel
from rt4chart_plugins.adapters.common.llm import RESPONSE_MODELS, as_json_text, llm_wrap
from rt4chart_plugins.adapters.common.openai_chat import ask_openai, openai_client
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report, report_from_payload, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row
from rt4chart_plugins.adapters.common.verifier import JUDGE_NAMES, build_verifier, judge_from

from rt4chart_plugins.detector import Detector, run_sync
from rt4chart_plugins.errors import InvalidInput, MissingExtra
from rt4chart_plugins.judges import failures
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, prompt_messages
from rt4chart_plugins.types import Report
from rt4chart_plugins.verifier import Verifier

try:
    from deepeval.metrics import BaseMetric
    from deepeval.metrics.utils import construct_verbose_logs
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase, SingleTurnParams
    from deepeval.test_case.llm_test_case import RetrievedContextData
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingExtra("deepeval", "deepeval") from exc

__all__ = ["DeepEvalJudge", "RT4ChartMetric", "report_from_metric_data"]

#: what deepeval calls a test case's context and answer, as a failed row's reason names them
FIELDS = Fields(context="retrieval_context", answer="actual_output")


# ---- a deepeval model as the judge -----------------------------------------------------------


class DeepEvalJudge(ChatJudge):
    """A deepeval model (``DeepEvalBaseLLM``: ``a_generate(prompt, schema=...)``) as an RT4CHART
    judge. The schema is passed as a pydantic class where the model takes one; a model that
    returns text (or ``(result, cost)``) is parsed leniently, and a structured call that the model
    (or deepeval's strict JSON check) fails is asked again for plain text, parsed leniently."""

    def __init__(self, model: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(model, DeepEvalBaseLLM):
            raise InvalidInput(f"DeepEvalJudge needs a deepeval DeepEvalBaseLLM, got {type(model).__name__}")
        self.model = model
        self.schema_failures = 0  # structured calls that failed and were asked again as text
        self._client_unusable = False
        try:
            model_name = model.get_model_name()
        except Exception:  # noqa: BLE001 - a custom model may not implement it well
            model_name = None
        super().__init__(
            name=name or f"deepeval:{type(model).__name__}" + (f":{model_name}" if model_name else ""), **kwargs
        )

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        client = self._model_client()
        if client is not None:
            return await self._complete_openai(client, system, user, schema)
        prompt = "\n\n".join(prompt_messages(system, user, schema))
        response_model = RESPONSE_MODELS.get(schema_name)
        generate = getattr(self.model, "a_generate_with_schema", None)
        result = None
        if response_model is not None and generate is not None:
            try:
                result = await generate(prompt, schema=response_model)
            except Exception as exc:
                # deepeval's own parsing rejects JSON that RT4CHART can still salvage (a verdict list
                # cut short, prose around it), and a server may refuse the schema (llama.cpp: a 500):
                # ask again for plain text and parse it leniently. A bad key, a rate limit or a
                # dropped connection goes to the retry loop instead.
                if self._is_fatal(exc) or failures.is_rate_limit_or_transport(exc):
                    raise
                self.schema_failures += 1
            else:
                if _is_empty(result):
                    # a valid but empty VerdictsOut(verdicts=[]): the lenient model's defaults
                    # filled in for a reply it could not read; the reply itself may still hold verdicts
                    self.schema_failures += 1
                    result = None
        if result is None:
            result = await self.model.a_generate(prompt)
        if isinstance(result, tuple) and len(result) == 2:  # native models: (result, cost)
            result = result[0]
        return ChatReply(as_json_text(result))

    def _model_client(self) -> Any:
        """The openai client of deepeval's OpenAI-backed models (``LocalModel``, ``GPTModel``, ...),
        built by the model itself from its own settings (base URL, key, timeout). Asked directly,
        it sends the shared two-message request and returns the token usage that the model's
        ``a_generate`` drops."""
        if self._client_unusable:
            return None
        try:
            client = openai_client(self.model.load_model(async_mode=True), sync=False)
        except Exception:  # noqa: BLE001 - not an OpenAI-backed model
            client = None
        if client is None or not isinstance(getattr(self.model, "name", None), str):
            self._client_unusable = True
            return None
        return client

    async def _complete_openai(self, client: Any, system: str, user: str, schema: dict) -> ChatReply:
        params: dict[str, Any] = dict(getattr(self.model, "generation_kwargs", None) or {})
        temperature = getattr(self.model, "temperature", None)
        if temperature is not None and getattr(self.model, "supports_temperature", lambda: True)() is not False:
            params.setdefault("temperature", temperature)
        try:
            return await ask_openai(client, self.model.name, system, user, schema, params)
        finally:
            await client.close()

    def usd(self, prompt_tokens: int, completion_tokens: int) -> float:
        """What these tokens cost, as deepeval prices this model (0.0 for a model it has no price
        for, such as a ``LocalModel``)."""
        calculate = getattr(self.model, "calculate_cost", None)
        if not callable(calculate):
            return 0.0
        try:
            return float(calculate(prompt_tokens, completion_tokens) or 0.0)
        except Exception:  # noqa: BLE001 - no price known
            return 0.0


def _is_empty(result: Any) -> bool:
    """A structured result whose every list is empty (no claim, no verdict)."""
    if isinstance(result, tuple) and len(result) == 2:
        result = result[0]
    if not isinstance(result, BaseModel):
        return False
    lists = [v for v in result.model_dump().values() if isinstance(v, list)]
    return bool(lists) and not any(lists)


#: a ``DeepEvalBaseLLM`` as the judge; anything else is not deepeval's
_wrap = llm_wrap(DeepEvalJudge, DeepEvalBaseLLM)


def _resolve_judge(judge: Any) -> Any:
    """deepeval model names ("gpt-4.1", ...) become deepeval's own model objects."""
    if isinstance(judge, str) and judge not in JUDGE_NAMES:
        from deepeval.metrics.utils import initialize_model

        try:
            model, _native = initialize_model(judge)
        except Exception as exc:  # noqa: BLE001 - deepeval's own errors (no API key, unknown name)
            raise InvalidInput(f"deepeval could not build the judge model {judge!r}: {exc}") from None
        return model
    return judge


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


# ---- the metric ---------------------------------------------------------------------------------


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
    instance also ``report`` (the typed :class:`rt4chart_plugins.Report`) and ``claims``.
    """

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
            _resolve_judge(judge_from(judge, model=model)),
            _wrap,
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
            self.error = report.error or "verification failed"
            self.score = None
            self.success = False
        else:
            self.error = None
            self.score = report.score
            self.success = self.score >= self.threshold
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
