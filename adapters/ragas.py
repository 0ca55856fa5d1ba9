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

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from rt4chart_plugins.adapters.common.llm import RESPONSE_MODELS, as_json_text, llm_wrap, model_label
from rt4chart_plugins.adapters.common.openai_chat import ask_openai, openai_client
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from

from rt4chart_plugins.detector import Detector, failed_report
from rt4chart_plugins.errors import InvalidInput, JudgeError, MissingExtra
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, prompt_messages
from rt4chart_plugins.types import Report

try:
    from langchain_core.outputs import Generation, LLMResult
    from langchain_core.prompt_values import StringPromptValue
    from ragas.callbacks import ChainType, new_group
    from ragas.dataset_schema import SingleTurnSample
    from ragas.llms.base import BaseRagasLLM, InstructorBaseRagasLLM
    from ragas.metrics.base import MetricOutputType, MetricType, SingleTurnMetric
    from ragas.metrics.collections.base import BaseMetric as CollectionsBaseMetric
    from ragas.metrics.result import MetricResult
    from ragas.run_config import RunConfig
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingExtra("ragas", "ragas") from exc

__all__ = ["TRACE_NAME", "RT4ChartFaithfulness", "RT4ChartFaithfulnessV2", "RagasJudge", "reports_from_result"]

#: name of the child run that carries the claim-level report in ragas traces
TRACE_NAME = "rt4chart_report"
#: what ragas calls a row's context and answer, as a failed row's reason names them
FIELDS = Fields(context="retrieved_contexts", answer="response")

logger = logging.getLogger(__name__)


# ---- a ragas LLM as the judge -----------------------------------------------------------------


class RagasJudge(ChatJudge):
    """A ragas LLM as an RT4CHART judge.

    ``InstructorBaseRagasLLM`` (from ``ragas.llms.llm_factory``): ``agenerate(prompt,
    response_model)`` with a pydantic model of the verdicts (structured output).
    ``BaseRagasLLM`` (``LangchainLLMWrapper``, ``LlamaIndexLLMWrapper``): ``generate`` with the JSON
    schema in the prompt (ragas' retries and finish check apply), parsed leniently.
    """

    def __init__(self, llm: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(llm, (InstructorBaseRagasLLM, BaseRagasLLM)):
            raise InvalidInput(f"RagasJudge needs a ragas LLM, got {type(llm).__name__}")
        self.llm = llm
        inner = getattr(llm, "langchain_llm", None) or getattr(llm, "llm", None)
        default = model_label(llm, "ragas")
        if inner is not None and default == f"ragas:{type(llm).__name__}":
            default = model_label(inner, f"ragas:{type(llm).__name__}")
        super().__init__(name=name or default, **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        client = _factory_client(self.llm)
        if client is not None:
            return await self._complete_openai(client, system, user, schema)
        prompt = "\n\n".join(prompt_messages(system, user, schema))
        response_model = RESPONSE_MODELS.get(schema_name)
        if isinstance(self.llm, InstructorBaseRagasLLM) and response_model is not None:
            return ChatReply(as_json_text(await self.llm.agenerate(prompt, response_model)))
        if isinstance(self.llm, InstructorBaseRagasLLM):  # pragma: no cover - every schema has a model
            raise JudgeError(f"no response model for schema {schema_name!r}")
        result = await self.llm.generate(StringPromptValue(text=prompt), n=1, temperature=0.0)
        text = result.generations[0][0].text if result.generations and result.generations[0] else ""
        usage = (result.llm_output or {}).get("token_usage") or {}
        tokens = int(usage.get("prompt_tokens", 0) or 0), int(usage.get("completion_tokens", 0) or 0)
        return ChatReply(as_json_text(text), *tokens)

    async def _complete_openai(self, client: Any, system: str, user: str, schema: dict) -> ChatReply:
        """An ``llm_factory`` LLM over an OpenAI client: its client, model and model arguments,
        asked with the shared two-message request (instructor's own request would wrap the schema
        in its prompt, and report no token usage)."""
        mapped = getattr(self.llm, "_map_provider_params", None)
        params = dict(mapped() if callable(mapped) else self.llm.model_args)
        params = {k: v for k, v in params.items() if v is not None}
        return await ask_openai(client, self.llm.model, system, user, schema, params)


def _factory_client(llm: Any) -> Any:
    """The OpenAI client inside an ``llm_factory(..., client=OpenAI(...))`` LLM, or None."""
    if not isinstance(llm, InstructorBaseRagasLLM) or str(getattr(llm, "provider", "")).lower() != "openai":
        return None
    return openai_client(getattr(getattr(llm, "client", None), "client", None))


#: a ragas LLM (``llm_factory``'s, or a ``LangchainLLMWrapper``) as the judge; anything else is not ragas'
_wrap = llm_wrap(RagasJudge, (InstructorBaseRagasLLM, BaseRagasLLM))


def _key(question: Any, answer: Any, contexts: Any) -> str:
    """A sample's identity among the reports, whatever its fields hold."""
    return json.dumps([question, answer, contexts], default=repr)


def _evaluate_llm() -> Any:
    """The ``llm=`` given to the ``ragas.evaluate()`` (or ``aevaluate()``) that is starting, or None.

    ragas hands that LLM only to ``MetricWithLLM`` metrics, which this metric cannot be (with no
    LLM given, ``evaluate()`` would then build an OpenAI client for it); ragas calls ``init()``
    from inside ``aevaluate``, so it is read from that frame. When ragas had to make its own
    default LLM there for another metric (``client`` is then set), nothing was given."""
    frame = inspect.currentframe()
    try:
        caller = frame.f_back if frame is not None else None
        while caller is not None:
            if caller.f_code.co_name == "aevaluate" and caller.f_globals.get("__name__") == "ragas.evaluation":
                return None if "client" in caller.f_locals else caller.f_locals.get("llm")
            caller = caller.f_back
        return None
    finally:
        del frame


# ---- ragas.evaluate(): a legacy SingleTurnMetric ------------------------------------------------


@dataclass
class RT4ChartFaithfulness(SingleTurnMetric):
    """Claim-level RAG faithfulness (RT4CHART) for ``ragas.evaluate()``.

    ``judge``: ``None``/``"trained"`` (the packaged cross-encoder verifier, the offline default),
    ``"local"`` (the embedded LLM judge), ``"openai"`` (an
    OpenAI-compatible endpoint; ``judge_kwargs={"base_url": ..., "model": ...}``), a
    :class:`rt4chart_plugins.Judge`, or a ragas LLM; ``llm=`` is ragas' spelling of the same
    (both at once is refused). ``options``: pipeline options (``decomposition``, ``window_size``,
    ...). The metric is deliberately not a ``MetricWithLLM``: ``ragas.evaluate`` would then build
    an OpenAI client for it when no ``llm`` is given, instead of using the offline default.
    """

    name: str = "rt4chart_faithfulness"
    _required_columns: dict[MetricType, set[str]] = field(
        default_factory=lambda: {MetricType.SINGLE_TURN: {"user_input:optional", "response", "retrieved_contexts"}}
    )
    output_type: MetricOutputType = MetricOutputType.CONTINUOUS
    judge: Any = None
    #: ragas' spelling of the judge (``Faithfulness(llm=...)``): that LLM becomes the judge
    llm: Any = None
    judge_kwargs: dict[str, Any] | None = None
    concurrency: int = 4
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._verifier = build_verifier(
            judge_from(self.judge, llm=self.llm),
            _wrap,
            judge_kwargs=self.judge_kwargs,
            concurrency=self.concurrency,
            **self.options,
        )
        self._reports: dict[str, Report] = {}
        #: the rows of the current ``evaluate()`` that scored NaN: no claim could be judged, the
        #: row could not be verified, or ragas cut it at ``RunConfig.timeout``
        self.failed_rows: list[dict[str, Any]] = []
        self._run_verifier: Detector | None = None  # the judge of evaluate(llm=...), for that run
        self._run_timeout: float | None = None
        self._said_llm_unused = False

    @property
    def verifier(self) -> Detector:
        return self._verifier

    def init(self, run_config: RunConfig) -> None:
        """A new ``evaluate()`` starts (ragas calls this once per run): its failed rows are counted
        afresh, its ``RunConfig.timeout`` is what a row cut short is told, and an ``llm=`` given
        to it becomes this run's judge when the metric was built without one, as it does for
        ragas' own metrics."""
        self.failed_rows = []
        self._run_timeout = run_config.timeout
        self._run_verifier = None
        llm = _evaluate_llm()
        if llm is None:
            return
        if self.judge is None and self.llm is None and self.options.get("method", "rt4chart") == "rt4chart":
            self._run_verifier = build_verifier(
                llm, _wrap, judge_kwargs=self.judge_kwargs, concurrency=self.concurrency, **self.options
            )
        elif not self._said_llm_unused:
            self._said_llm_unused = True
            logger.warning(
                "%s does not use the llm given to evaluate(): it was built with its own judge (%s), as "
                "a ragas metric built with its own llm keeps it",
                self.name,
                self._judge_label(),
            )

    @property
    def _active(self) -> Detector:
        return self._run_verifier or self._verifier

    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any) -> float:
        question = sample.user_input if isinstance(sample.user_input, str) else None
        contexts, answer = sample.retrieved_contexts, sample.response
        key = _key(question, answer, contexts)
        rm, _group = new_group(
            TRACE_NAME,
            inputs={"data": {"user_input": question, "response": answer, "retrieved_contexts": contexts}},
            callbacks=callbacks,
            metadata={"type": ChainType.RAGAS_PROMPT},
        )
        try:
            report = await averify_row(self._active, contexts, answer, question, FIELDS)
        except asyncio.CancelledError:
            # ragas cancels a row at RunConfig.timeout and scores it NaN: counted as failed, with why
            limit = f"RunConfig(timeout={self._run_timeout:g})" if self._run_timeout else "its timeout"
            report = failed_report(
                {"answer": answer if isinstance(answer, str) else ""}, TimeoutError(f"ragas cut the row at {limit} s")
            )
            self._reports[key] = report
            self._fail(question, report)
            rm.on_chain_end({"output": report_payload(report)})
            raise
        self._reports[key] = report
        _record_tokens(rm, report, self._judge_label())
        rm.on_chain_end({"output": report_payload(report)})
        if report.state == "failed":
            # ragas' convention for a row that cannot be scored: raise; evaluate() logs it and
            # scores the row NaN (or re-raises with raise_exceptions=True)
            self._fail(question, report)
            raise JudgeError(f"{self.name}: {report.error or 'verification failed'}")
        return float(report.score)

    def _fail(self, question: str | None, report: Report) -> None:
        """Count a row that will score NaN; the running count tells the user, when the run ends,
        how many NaNs are rows this metric could not score, and why."""
        self.failed_rows.append({"user_input": question, "error": report.error})
        logger.warning(
            "%s: %d row(s) of this evaluate() scored NaN (metric.failed_rows lists them); latest: %s",
            self.name,
            len(self.failed_rows),
            report.error,
        )

    def _judge_label(self) -> str:
        """One model name for every row's tokens (ragas adds TokenUsage only within one model): the
        judge's name once loaded (a judge may name its artifact only then)."""
        if self._run_verifier is not None:
            return self._run_verifier.name
        if getattr(self, "_token_model", None) is None:
            try:
                self._verifier.prepare()
                self._token_model = self._verifier.name
            except Exception:  # noqa: BLE001 - a judge that cannot be built: its rows fail on their own
                return self.name
        return self._token_model

    # -- the reports, after a run ------------------------------------------------------------

    def report_for(self, sample: SingleTurnSample | dict) -> Report | None:
        """The report of a sample this metric has scored (None if it has not)."""
        data = sample if isinstance(sample, dict) else sample.model_dump()
        question = data.get("user_input") if isinstance(data.get("user_input"), str) else None
        return self._reports.get(_key(question, data.get("response"), data.get("retrieved_contexts")))

    def reports_for(self, result: Any) -> list[Report | None]:
        """The typed report of every row of a ``ragas.evaluate()`` result, in row order."""
        return [self.report_for(sample) for sample in result.dataset]

    @property
    def reports(self) -> list[Report]:
        """Every report this metric has produced, in completion order."""
        return list(self._reports.values())

    def to_pandas(self, result: Any) -> Any:
        """ragas' own table of a ``ragas.evaluate()`` result (``result.to_pandas()``), with this
        metric's reason for each row beside its score in a ``<name>_reason`` column: the failing
        claims with their evidence, or why a NaN row could not be scored. ragas' table has one
        column per metric and no place for a reason of its own."""
        table = result.to_pandas()
        table[f"{self.name}_reason"] = [reason_text(r) if r is not None else None for r in self.reports_for(result)]
        return table

    def reports_dataframe(self, result: Any) -> Any:
        """The claim table of a ``ragas.evaluate()`` result: one pandas row per claim (label, answer
        span, evidence, reason, probabilities), ``row_id`` the result's row index, as
        :func:`rt4chart_plugins.audit.reports_to_dataframe` builds it. A row this metric did not
        score keeps one line saying so."""
        rows = self.reports_for(result)
        return claim_table(
            [
                (str(i), r if r is not None else missing_report(f"{self.name} did not score this row"))
                for i, r in enumerate(rows)
            ]
        )


def _record_tokens(rm: Any, report: Report, model: str) -> None:
    """The row's judge tokens, as an LLM run under the metric's run: ragas'
    ``evaluate(..., token_usage_parser=get_token_usage_for_openai)`` reads them from there
    (``result.total_tokens()``, ``result.total_cost(...)``), as it does for its own metrics. A local
    judge records 0 tokens, so that a run of it still has a (zero) total."""
    usage = {
        "prompt_tokens": report.cost.prompt_tokens,
        "completion_tokens": report.cost.completion_tokens,
        "total_tokens": report.cost.prompt_tokens + report.cost.completion_tokens,
    }
    for llm_run in rm.get_child().on_llm_start({"name": model}, [f"{TRACE_NAME}: {len(report.claims)} claims"]):
        llm_run.on_llm_end(
            LLMResult(generations=[[Generation(text="")]], llm_output={"token_usage": usage, "model_name": model})
        )


def reports_from_result(result: Any, metric_name: str = "rt4chart_faithfulness") -> list[dict[str, Any] | None]:
    """The claim-level report of every row, read from a ``ragas.evaluate()`` result's traces (JSON
    dicts: label, score, state, error, claims with answer spans, evidence and reasons)."""
    out: list[dict[str, Any] | None] = []
    for row in result.traces:
        trace = row.get(metric_name, {}) if isinstance(row, dict) else {}
        entry = trace.get(TRACE_NAME) if isinstance(trace, dict) else None
        out.append(entry.get("output") if isinstance(entry, dict) and entry.get("output") else None)
    return out


# ---- @experiment: the collections style ---------------------------------------------------------


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
        self._verifier = build_verifier(judge, _wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)
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
        result.report = report  # type: ignore[attr-defined]
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
        from rt4chart_plugins.detector import run_sync

        return run_sync(self.ascore(**kwargs))
