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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

from rt4chart_plugins.adapters.common.llm import as_json_text, llm_wrap, message_text, model_label
from rt4chart_plugins.adapters.common.payload import claim_table, missing_report
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput, MissingExtra
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, prompt_messages
from rt4chart_plugins.types import ClaimVerdict, Label, Report, Span

try:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.bridge.pydantic import Field
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
    from llama_index.core.llms import LLM
    from llama_index.core.prompts.mixin import PromptDictType
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingExtra("llama-index-core", "llama-index") from exc

__all__ = ["LlamaIndexJudge", "RT4ChartEvaluationResult", "RT4ChartEvaluator"]

#: what LlamaIndex's evaluators call the context and the answer, as a failed row's reason names them
FIELDS = Fields(context="contexts", answer="response")


class RT4ChartEvaluationResult(EvaluationResult):
    """An ``EvaluationResult`` with RT4CHART's claim-level verdict as typed fields.

    ``passing``: not hallucinated (None when the result is invalid); ``score``: the fraction of
    judged claims that the context entails; ``feedback``: the failing claims with their spans and
    evidence; ``claims``: every claim's label, answer span, evidence and reason.
    """

    label: Label | None = Field(default=None, description="ENT, CON (contradicted) or NIC (baseless); None: no claims")
    hallucinated: bool | None = Field(default=None, description="True when any judged claim is CON or NIC")
    state: str | None = Field(default=None, description="verified, partial, no_claims or failed")
    claims: list[ClaimVerdict] = Field(default_factory=list, description="every claim's verdict, span and evidence")
    unfaithful_spans: list[Span] = Field(default_factory=list, description="answer spans of CON/NIC claims")
    report: Report | None = Field(default=None, description="the full RT4CHART report")

    @property
    def failing_claims(self) -> list[ClaimVerdict]:
        return [c for c in self.claims if c.label in (Label.CON, Label.NIC)]


# ---- a LlamaIndex LLM as the judge ------------------------------------------------------------


class LlamaIndexJudge(ChatJudge):
    """Any LlamaIndex ``LLM`` as an RT4CHART judge: ``achat`` with the JSON schema in the system
    prompt (the reply is parsed leniently; caching, retries, salvage come from ChatJudge)."""

    def __init__(self, llm: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(llm, LLM):
            raise InvalidInput(f"LlamaIndexJudge needs a llama_index LLM, got {type(llm).__name__}")
        self.llm = llm
        model = getattr(getattr(llm, "metadata", None), "model_name", None)
        default = f"llama-index:{type(llm).__name__}:{model}" if model else model_label(llm, "llama-index")
        super().__init__(name=name or default, **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        prompt_system, prompt_user = prompt_messages(system, user, schema)
        messages = [
            ChatMessage(role=MessageRole.SYSTEM, content=prompt_system),
            ChatMessage(role=MessageRole.USER, content=prompt_user),
        ]
        resp = await self.llm.achat(messages)
        usage = _usage(getattr(resp, "raw", None))
        return ChatReply(as_json_text(message_text(resp.message.content)), *usage)


def _usage(raw: Any) -> tuple[int, int]:
    usage = raw.get("usage") if isinstance(raw, dict) else getattr(raw, "usage", None)
    if usage is None:
        return 0, 0
    get = usage.get if isinstance(usage, dict) else lambda k, d=None: getattr(usage, k, d)
    return int(get("prompt_tokens", 0) or 0), int(get("completion_tokens", 0) or 0)


def _report_of(result: Any) -> Report:
    """The typed report of one result, or a stand-in saying why there is none."""
    report = getattr(result, "report", None)
    if isinstance(report, Report):
        return report
    if isinstance(result, EvaluationResult) and result.invalid_result:
        return missing_report(result.invalid_reason or "invalid result")
    return missing_report(f"not an RT4CHART result: {type(result).__name__}")


#: a LlamaIndex ``LLM`` as the judge; anything else is not LlamaIndex's
_wrap = llm_wrap(LlamaIndexJudge, LLM)


# ---- the evaluator ------------------------------------------------------------------------------


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
        self._verifier = build_verifier(judge, _wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)

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
        report = await averify_row(self._verifier, contexts, response, query, FIELDS, timeout=self.timeout)
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
                # no context given is not an empty context, which would make every claim baseless
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
        return cast(RT4ChartEvaluationResult, super().evaluate_response(query=query, response=response, **kwargs))

    async def aevaluate_response(
        self, query: str | None = None, response: Any = None, **kwargs: Any
    ) -> RT4ChartEvaluationResult:
        return cast(
            RT4ChartEvaluationResult, await super().aevaluate_response(query=query, response=response, **kwargs)
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
        return [(rid, _report_of(r)) for rid, r in items]

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
        )
