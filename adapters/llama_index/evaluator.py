"""``RT4ChartEvaluator``: the verifier as a LlamaIndex ``BaseEvaluator``, for ``evaluate``,
``evaluate_response`` (a ``Response`` and its ``source_nodes``) and ``BatchEvalRunner``. A row that
cannot be verified is an ``invalid_result`` with the reason, never an exception that
``BatchEvalRunner`` would retry with backoff.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.prompts.mixin import PromptDictType
from rt4chart_plugins.adapters.common.failure import RowFailure
from rt4chart_plugins.adapters.common.payload import claim_table
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from
from rt4chart_plugins.adapters.llama_index.judge import wrap
from rt4chart_plugins.adapters.llama_index.nodes import cite_nodes
from rt4chart_plugins.adapters.llama_index.result import RT4ChartEvaluationResult, report_of

from rt4chart_plugins.detector import Detector, run_sync
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import Report

#: what LlamaIndex's evaluators call the context and the answer, as a failed row's reason names them
FIELDS = Fields(context="contexts", answer="response")


class RT4ChartEvaluator(BaseEvaluator):
    """Claim-level RAG faithfulness (RT4CHART) as a LlamaIndex evaluator.

    ``judge``: ``None``/``"trained"`` (the packaged cross-encoder verifier, the offline default),
    ``"local"`` (the embedded LLM judge), ``"openai"`` (an
    OpenAI-compatible endpoint; ``judge_kwargs={"base_url": ..., "model": ...}``), a
    :class:`rt4chart_plugins.Judge`, or any LlamaIndex ``LLM`` (``llm=`` is the same, as LlamaIndex's
    own evaluators spell it; both at once is refused). Other keyword arguments are
    pipeline options (``decomposition``, ``window_size``, ...).
    ``on_error``: ``"invalid"`` (default) returns ``invalid_result=True`` with the reason;
    ``"raise"`` raises. ``timeout``: seconds a row may take (LlamaIndex has no timeout of its
    own), past which it is an invalid result too; None (default) waits.
    """

    def __init__(
        self,
        judge: Any = None,
        *,
        llm: Any = None,
        judge_kwargs: dict[str, Any] | None = None,
        concurrency: int = 4,
        on_error: Literal["invalid", "raise"] = "invalid",
        timeout: float | None = None,
        **options: Any,
    ):
        judge = judge_from(judge, llm=llm)
        self.judge = judge
        if on_error not in ("invalid", "raise"):
            raise InvalidInput(f"on_error must be 'invalid' or 'raise', got {on_error!r}")
        self.on_error = on_error
        self.timeout = check_timeout(timeout)
        self._verifier = build_verifier(judge, wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)

    @property
    def verifier(self) -> Detector:
        return self._verifier

    def _get_prompts(self) -> PromptDictType:
        # The prompts live in rt4chart_plugins.judges.prompts (audited in one place), not here.
        return {}

    def _update_prompts(self, prompts_dict: PromptDictType) -> None:
        if prompts_dict:
            raise InvalidInput(
                "RT4ChartEvaluator has no LlamaIndex prompts to update; see rt4chart_plugins.judges.prompts"
            )

    async def aevaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        sleep_time_in_seconds: int = 0,
        **kwargs: Any,
    ) -> RT4ChartEvaluationResult:
        if sleep_time_in_seconds:
            import asyncio

            await asyncio.sleep(sleep_time_in_seconds)
        nodes = kwargs.pop("_source_nodes", None)
        report = await averify_row(self._verifier, contexts, response, query, FIELDS, timeout=self.timeout)
        if nodes:
            cite_nodes(report, nodes)
        base = {
            "query": query if isinstance(query, str) else None,
            "response": response if isinstance(response, str) else None,
            "contexts": list(contexts)
            if isinstance(contexts, (list, tuple)) and all(isinstance(c, str) for c in contexts)
            else None,
        }
        if report.state == "failed":
            reason = report.error or "verification failed"
            if contexts is None:
                # no context given is not an empty context, which is scored: every claim baseless (NIC)
                reason += (
                    "; pass contexts=[...], or use evaluate_response(response=...) so that its source_nodes are read"
                )
                report.error = reason
            return self._invalid(base, reason, report)
        return RT4ChartEvaluationResult(
            **base,
            passing=not report.hallucinated,
            score=report.score,
            feedback=reason_text(report),
            label=report.label,
            hallucinated=report.hallucinated,
            state=report.state,
            claims=report.claims,
            unfaithful_spans=report.unfaithful_spans,
            report=report,
        )

    # -- the same entry points as BaseEvaluator, typed with this evaluator's result ------------

    def evaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> RT4ChartEvaluationResult:
        return cast(
            RT4ChartEvaluationResult, super().evaluate(query=query, response=response, contexts=contexts, **kwargs)
        )

    def evaluate_response(
        self, query: str | None = None, response: Any = None, **kwargs: Any
    ) -> RT4ChartEvaluationResult:
        return cast(
            RT4ChartEvaluationResult, run_sync(self.aevaluate_response(query=query, response=response, **kwargs))
        )

    async def aevaluate_response(
        self, query: str | None = None, response: Any = None, **kwargs: Any
    ) -> RT4ChartEvaluationResult:
        """The response's answer against its ``source_nodes``, as ``BaseEvaluator`` reads them, and
        each evidence sentence carrying its node's ``node_id`` and metadata (the guard's sources
        carry them too)."""
        nodes = list(getattr(response, "source_nodes", None) or []) if response is not None else []
        return await self.aevaluate(
            query=query,
            response=response.response if response is not None else None,
            contexts=[n.get_content() for n in nodes] if response is not None else None,
            _source_nodes=nodes,
            **kwargs,
        )

    @staticmethod
    def reports_dataframe(results: Any) -> Any:
        """The claim table of this evaluator's results: one pandas row per claim (label, answer
        span, evidence, reason, probabilities). ``results``: one result, a list of them, or
        ``BatchEvalRunner``'s ``{name: [results]}`` (``row_id`` is then ``name:index``)."""
        return claim_table(RT4ChartEvaluator.reports(results))

    @staticmethod
    def reports(results: Any) -> list[tuple[str, Report]]:
        """``(row id, Report)`` of each result, as :meth:`reports_dataframe` names them: what
        ``rt4chart_plugins.audit.diff_reports`` compares across two runs."""
        if isinstance(results, EvaluationResult):
            results = [results]
        if isinstance(results, Mapping):
            items = [(f"{name}:{i}", r) for name, rs in results.items() for i, r in enumerate(rs)]
        else:
            items = [(str(i), r) for i, r in enumerate(results)]
        return [(rid, report_of(r)) for rid, r in items]

    def _invalid(self, base: dict, reason: str, report: Report) -> RT4ChartEvaluationResult:
        if self.on_error == "raise":
            raise row_error(report)
        return RT4ChartEvaluationResult(
            **base,
            invalid_result=True,
            invalid_reason=reason,
            feedback=f"verification failed: {reason}",
            state="failed",
            report=report,
            error_type=RowFailure.of(report).error_type,
        )
