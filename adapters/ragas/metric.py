"""``RT4ChartFaithfulness``: the verifier as a legacy ragas ``SingleTurnMetric``, the only kind
``ragas.evaluate()`` takes, with the claim-level report carried in ragas' own traces and token count.

A row that cannot be scored raises inside the metric, so that ``evaluate()`` scores it NaN as it
does for its own metrics; the metric keeps every typed report (``reports_for(result)``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from langchain_core.outputs import Generation, LLMResult
from ragas.callbacks import ChainType, new_group
from ragas.dataset_schema import SingleTurnSample
from ragas.metrics.base import MetricOutputType, MetricType, SingleTurnMetric
from ragas.run_config import RunConfig
from rt4chart_plugins.adapters.common.failure import RowFailure
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, failed_row
from rt4chart_plugins.adapters.common.verifier import build_verifier, judge_from
from rt4chart_plugins.adapters.ragas.judge import wrap

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.types import Report

#: name of the child run that carries the claim-level report in ragas traces
TRACE_NAME = "rt4chart_report"
#: what ragas calls a row's context and answer, as a failed row's reason names them
FIELDS = Fields(context="retrieved_contexts", answer="response")

#: the decompositions only an LLM judge writes: a metric built with one and no judge waits for ragas' llm
_LLM_DECOMPOSITIONS = ("llm", "holistic")

#: the adapter's logger, under the name users configure: ``rt4chart_plugins.adapters.ragas``
logger = logging.getLogger(__package__)


def _key(question: Any, answer: Any, contexts: Any) -> str:
    """A sample's identity among the reports, whatever its fields hold."""
    return json.dumps([question, answer, contexts], default=repr)


def _evaluate_frame() -> Any:
    """The locals of the ``ragas.evaluate()`` (or ``aevaluate()``) that is starting, or None:
    ragas calls ``init()`` from inside ``aevaluate``."""
    frame = inspect.currentframe()
    try:
        caller = frame.f_back if frame is not None else None
        while caller is not None:
            if caller.f_code.co_name == "aevaluate" and caller.f_globals.get("__name__") == "ragas.evaluation":
                return dict(caller.f_locals)
            caller = caller.f_back
        return None
    finally:
        del frame


def _row_indices(dataset: Any) -> dict[str, list[int]]:
    """Each sample's identity in the dataset being evaluated, to the indices of its rows, so that a
    failed row is named by its index in the result (ragas scores rows out of order)."""
    out: dict[str, list[int]] = {}
    for i, sample in enumerate(getattr(dataset, "samples", None) or []):
        data = sample.model_dump() if hasattr(sample, "model_dump") else {}
        question = data.get("user_input") if isinstance(data.get("user_input"), str) else None
        out.setdefault(_key(question, data.get("response"), data.get("retrieved_contexts")), []).append(i)
    return out


def _evaluate_llm() -> Any:
    """The ``llm=`` given to the ``ragas.evaluate()`` (or ``aevaluate()``) that is starting, or None.

    ragas hands that LLM only to ``MetricWithLLM`` metrics, which this metric cannot be (with no
    LLM given, ``evaluate()`` would then build an OpenAI client for it); ragas calls ``init()``
    from inside ``aevaluate``, so it is read from that frame. When ragas had to make its own
    default LLM there for another metric (``client`` is then set), nothing was given."""
    evaluating = _evaluate_frame()
    if evaluating is None or "client" in evaluating:
        return None
    return evaluating.get("llm")


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
        judge = judge_from(self.judge, llm=self.llm)
        #: why this metric cannot score without ``evaluate(llm=...)``: built with no judge, and with
        #: options only an LLM judge takes (``decomposition="llm"``), it waits for ragas' llm
        self._needs_llm: InvalidInput | None = None
        build = functools.partial(
            build_verifier, wrap=wrap, judge_kwargs=self.judge_kwargs, concurrency=self.concurrency
        )
        try:
            self._verifier = build(judge, **self.options)
        except InvalidInput as exc:
            if judge is not None or self.options.get("decomposition") not in _LLM_DECOMPOSITIONS:
                raise
            # every other option checked now, on the offline default; the decomposition when ragas' llm comes
            self._verifier = build(None, **{k: v for k, v in self.options.items() if k != "decomposition"})
            self._needs_llm = InvalidInput(f"{exc}; or give this metric an LLM: evaluate(llm=...), or judge=/llm=")
        self._reports: dict[str, Report] = {}
        #: the rows of the current ``evaluate()`` that scored NaN: no claim could be judged, the
        #: row could not be verified, or ragas cut it at ``RunConfig.timeout``
        self.failed_rows: list[dict[str, Any]] = []
        self._rows: dict[str, list[int]] = {}  # a sample's identity to its row indices in this evaluate()
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
        evaluating = _evaluate_frame()
        self._rows = _row_indices(evaluating.get("dataset")) if evaluating else {}
        llm = _evaluate_llm()
        if llm is None:
            if self._needs_llm is not None:
                raise self._needs_llm
            return
        if self.judge is None and self.llm is None and self.options.get("method", "rt4chart") == "rt4chart":
            self._run_verifier = build_verifier(
                llm, wrap, judge_kwargs=self.judge_kwargs, concurrency=self.concurrency, **self.options
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
        if self._run_verifier is None and self._needs_llm is not None:
            raise self._needs_llm
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
            report = failed_row(answer, question, TimeoutError(f"ragas cut the row at {limit} s"))
            self._reports[key] = report
            self._fail(key, question, report)
            rm.on_chain_end({"output": report_payload(report)})
            raise
        self._reports[key] = report
        _record_tokens(rm, report, self._judge_label())
        rm.on_chain_end({"output": report_payload(report)})
        if report.state == "failed":
            # ragas' convention for a row that cannot be scored: raise; evaluate() logs it and
            # scores the row NaN (or re-raises with raise_exceptions=True)
            failure = self._fail(key, question, report)
            raise JudgeError(f"{self.name}: {failure.message}") from failure.exception
        return float(report.score)

    def _fail(self, key: str, question: str | None, report: Report) -> RowFailure:
        """Count a row that will score NaN, with its index in the result (``row``; None outside
        ``evaluate()``); the running count tells the user, when the run ends, how many NaNs are
        rows this metric could not score, and why."""
        taken = {r["row"] for r in self.failed_rows}
        row = next((i for i in self._rows.get(key, []) if i not in taken), None)
        failure = RowFailure.of(report)
        self.failed_rows.append(
            {"row": row, "user_input": question, "error": report.error, "error_type": failure.error_type}
        )
        logger.warning(
            "%s: %d row(s) of this evaluate() scored NaN (metric.failed_rows lists them); latest: %s",
            self.name,
            len(self.failed_rows),
            report.error,
        )
        return failure

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
