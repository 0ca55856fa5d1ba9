"""LangChain: the verifier as a Runnable that post-processes a RAG chain.

    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    verifier = RT4ChartVerifier()                      # embedded offline judge
    verifier = RT4ChartVerifier(judge=ChatOpenAI(...))  # any LangChain chat model as the judge
    report = verifier.invoke({"context": docs, "question": q, "answer": ai_message})
    chain = rag_chain | RunnablePassthrough.assign(verification=verifier)

Input: a mapping with ``context`` (a string, a list of strings or a list of ``Document``),
``question`` (optional) and ``answer`` (a string or a chat message); the key names are settable.
Output: the typed :class:`rt4chart_plugins.Report` (label, score, claims with answer spans,
evidence and reasons; an evidence sentence cited from a ``Document`` carries its ``metadata``).
``invoke``, ``ainvoke``, ``batch``, ``abatch``, ``stream`` and callbacks / tracing all go through
LangChain's own machinery (``_call_with_config``).

A row that cannot be verified (no or empty context, no answer, a judge that fails, past its
``timeout``) raises with the reason, as a failing Runnable does: ``batch(...,
return_exceptions=True)`` keeps the other rows, each failure carrying its failed report as
``.report``; ``on_error="report"`` returns the failed report instead. An input without the
context or answer key is how the chain is wired: it raises at once, whatever ``on_error`` says.
``RT4ChartVerifier.reports_dataframe(reports)`` is the claim table of a batch's reports.

For LangSmith / openevals, ``create_rt4chart_evaluator()`` returns an evaluator function
``(inputs, outputs, reference_outputs) -> {"key", "score", "comment", "metadata"}`` with the claims
and their evidence in ``metadata``, for ``langsmith.evaluate(app, data=..., evaluators=[...])``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

from rt4chart_plugins.adapters.common.llm import as_json_text, llm_wrap, message_text, model_label
from rt4chart_plugins.adapters.common.payload import claim_table, report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from

from rt4chart_plugins.detector import Detector, run_sync
from rt4chart_plugins.errors import InvalidInput, MissingExtra
from rt4chart_plugins.judges import failures
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, prompt_messages
from rt4chart_plugins.types import Report

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForChainRun,
        CallbackManagerForChainRun,
    )
    from langchain_core.documents import Document
    from langchain_core.language_models import BaseChatModel, BaseLanguageModel
    from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
    from langchain_core.runnables import RunnableConfig, RunnableSerializable
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingExtra("langchain-core", "langchain") from exc

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, create_model

__all__ = [
    "LangChainJudge",
    "RT4ChartVerifier",
    "cite_documents",
    "create_rt4chart_evaluator",
    "passage_metadata",
    "to_answer",
    "to_context",
]


# ---- a LangChain model as the judge ------------------------------------------------------------


class LangChainJudge(ChatJudge):
    """Any LangChain chat model (or plain LLM) as an RT4CHART judge.

    ``method``: ``"structured"`` asks through ``with_structured_output`` (tool calling / the
    provider's JSON schema mode); ``"json"`` asks for JSON in the prompt and parses the text;
    ``"auto"`` (default) uses structured output when the model implements it and the provider
    accepts the request, JSON in the prompt otherwise (remembered; ``fallback_reason`` says why).
    Caching, retries and salvage of partial JSON come from :class:`ChatJudge`.
    """

    def __init__(
        self,
        llm: Any,
        *,
        method: Literal["auto", "structured", "json"] = "auto",
        name: str | None = None,
        **kwargs: Any,
    ):
        if not isinstance(llm, BaseLanguageModel):
            raise InvalidInput(f"LangChainJudge needs a LangChain language model, got {type(llm).__name__}")
        self.llm = llm
        self.method = method if isinstance(llm, BaseChatModel) else "json"
        self.fallback_reason: str | None = None  # why "auto" fell back to JSON in the prompt
        super().__init__(name=name or model_label(llm, "langchain"), **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        if self.method in ("auto", "structured"):
            try:
                runnable = self.llm.with_structured_output(
                    {"title": schema_name, "description": f"the {schema_name} as JSON", **schema}, include_raw=True
                )
            except NotImplementedError:
                if self.method == "structured":
                    raise
                self.method = "json"  # remembered: this model has no structured output
            else:
                try:
                    out = await runnable.ainvoke([SystemMessage(system), HumanMessage(user)])
                except Exception as exc:
                    # a provider / server that rejects the structured request (e.g. a server without
                    # json_schema response formats, which llama.cpp answers with a 500): ask for JSON
                    # in the prompt from now on. A bad key, a rate limit or a dropped connection is no
                    # rejection: it goes to the retry loop.
                    if self.method == "structured" or self._is_fatal(exc) or failures.is_rate_limit_or_transport(exc):
                        raise
                    self.method = "json"
                    self.fallback_reason = f"{type(exc).__name__}: {exc}"[:300]
                else:
                    raw = out.get("raw") if isinstance(out, Mapping) else None
                    parsed = out.get("parsed") if isinstance(out, Mapping) else out
                    text = as_json_text(parsed) if parsed is not None else _raw_text(raw)
                    return ChatReply(text, *_usage(raw))
        prompt_system, prompt_user = prompt_messages(system, user, schema)
        msg = await self.llm.ainvoke([SystemMessage(prompt_system), HumanMessage(prompt_user)])
        content = msg.content if isinstance(msg, BaseMessage) else msg
        return ChatReply(as_json_text(message_text(content)), *_usage(msg))


def _raw_text(raw: Any) -> str:
    """What a structured call said when the parser could not read it: tool args or the text."""
    if isinstance(raw, BaseMessage):
        calls = getattr(raw, "tool_calls", None) or []
        if calls and isinstance(calls[0], Mapping) and calls[0].get("args") is not None:
            return json.dumps(calls[0]["args"])
        return as_json_text(message_text(raw.content))
    return "" if raw is None else as_json_text(str(raw))


def _usage(msg: Any) -> tuple[int, int]:
    usage = getattr(msg, "usage_metadata", None) or {}
    return int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0)


#: a LangChain language model as the judge; anything else is not LangChain's
_wrap = llm_wrap(LangChainJudge, BaseLanguageModel)


# ---- input conversion --------------------------------------------------------------------------


def to_context(value: Any) -> Any:
    """A chain's context as the core takes it: a string, or one string per passage or ``Document``
    (its ``page_content``). What is no text (None, a number) is left as it is, for the row's
    checks to name (:func:`rt4chart_plugins.adapters.common.rows.read_row`)."""
    if isinstance(value, Document):
        return [value.page_content]
    if isinstance(value, (list, tuple)):
        return [_passage_text(item) for item in value]
    return value


def _passage_text(item: Any) -> Any:
    if isinstance(item, Document):
        return item.page_content
    if isinstance(item, Mapping) and isinstance(item.get("page_content"), str):
        return item["page_content"]
    return item


def passage_metadata(value: Any) -> list[dict[str, Any] | None]:
    """Each passage's metadata (a ``Document``'s, or a mapping's ``metadata``), in passage order."""
    items = [value] if isinstance(value, Document) else value if isinstance(value, (list, tuple)) else []
    out: list[dict[str, Any] | None] = []
    for item in items:
        metadata = (
            item.metadata
            if isinstance(item, Document)
            else (item.get("metadata") if isinstance(item, Mapping) else None)
        )
        # JSON-safe, as the report must always serialize: what JSON has no type for becomes its text
        out.append(
            json.loads(json.dumps(metadata, default=str)) if isinstance(metadata, Mapping) and metadata else None
        )
    return out


def cite_documents(report: Report, metadata: list[dict[str, Any] | None]) -> Report:
    """Each evidence sentence carries the metadata of the document it was cited from."""
    for claim in report.claims:
        for evidence in claim.evidence:
            if 0 <= evidence.passage < len(metadata) and metadata[evidence.passage] is not None:
                evidence.metadata = metadata[evidence.passage]
    return report


def to_answer(value: Any) -> Any:
    """A chain's answer as text: a string, or the text of a chat message (anything else is left
    for the row's checks to name)."""
    if isinstance(value, BaseMessage):
        return message_text(value.content)
    return value


# ---- the Runnable ------------------------------------------------------------------------------


class RT4ChartVerifier(RunnableSerializable[dict, Report]):
    """Claim-level RAG faithfulness (RT4CHART) as a LangChain Runnable: ``{context, question,
    answer}`` in, :class:`rt4chart_plugins.Report` out.

    ``judge``: ``None``/``"trained"`` (the packaged cross-encoder verifier, the offline default),
    ``"local"`` (the embedded LLM judge), ``"openai"`` (an
    OpenAI-compatible endpoint; ``judge_kwargs={"base_url": ..., "model": ...}``), a
    :class:`rt4chart_plugins.Judge`, or any LangChain chat model (``llm=`` is the same, spelt as
    LangChain chains spell it; both at once is refused). Other keyword arguments are
    pipeline options (``decomposition``, ``window_size``, ``window_overlap``,
    ``global_verification``, ``sub_sentence_spans``).

    A row that cannot be verified (no context, an empty one, a context item that is no text, no
    answer, a judge that fails, a row past ``timeout`` seconds) raises, as any Runnable whose step
    fails does: :class:`rt4chart_plugins.InvalidInput`, ``TimeoutError`` or
    :class:`rt4chart_plugins.JudgeError`, with the reason and the failed report as ``.report``;
    ``batch(..., return_exceptions=True)`` keeps the other rows. ``on_error="report"`` returns
    that failed report instead (``state="failed"``: its score is no measurement).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    judge: Any = None
    judge_kwargs: dict[str, Any] | None = None
    concurrency: int = 4
    context_key: str = "context"
    question_key: str = "question"
    answer_key: str = "answer"
    on_error: Literal["raise", "report"] = "raise"
    timeout: float | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    _verifier: Detector = PrivateAttr()

    def __init__(
        self,
        judge: Any = None,
        *,
        llm: Any = None,
        judge_kwargs: dict[str, Any] | None = None,
        concurrency: int = 4,
        context_key: str = "context",
        question_key: str = "question",
        answer_key: str = "answer",
        on_error: Literal["raise", "report"] = "raise",
        timeout: float | None = None,
        options: dict[str, Any] | None = None,
        **pipeline_options: Any,
    ):
        opts = {**(options or {}), **pipeline_options}
        judge = judge_from(judge, llm=llm)
        super().__init__(
            judge=judge,
            judge_kwargs=judge_kwargs,
            concurrency=concurrency,
            context_key=context_key,
            question_key=question_key,
            answer_key=answer_key,
            on_error=on_error,
            timeout=check_timeout(timeout),
            options=opts,
        )
        self._verifier = build_verifier(judge, _wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **opts)

    @property
    def verifier(self) -> Detector:
        return self._verifier

    # -- schemas, so that LangChain (and LangServe / LangSmith) know what goes in and comes out --

    @property
    def InputType(self) -> type:  # noqa: N802 - LangChain's name
        return dict

    @property
    def OutputType(self) -> type[Report]:  # noqa: N802 - LangChain's name
        return Report

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        return create_model(  # type: ignore[call-overload]
            "RT4ChartVerifierInput",
            **{
                self.context_key: (str | list[str] | list[Document], ...),
                self.question_key: (str | None, None),
                self.answer_key: (str | BaseMessage, ...),
            },
        )

    def get_output_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        return Report

    # -- the work -----------------------------------------------------------------------------

    def _check_shape(self, value: Any) -> None:
        """Raise, whatever ``on_error`` says, when the input is not a mapping with the context and
        answer keys: that is how the chain is wired, the same for every row, so one clear error
        (naming the key to set) beats a failed report per row."""
        if not isinstance(value, Mapping):
            raise InvalidInput(
                f"{type(self).__name__} takes a mapping with keys {self.context_key!r}, {self.question_key!r}, "
                f"{self.answer_key!r}; got {type(value).__name__}"
            )
        missing = [k for k in (self.context_key, self.answer_key) if k not in value]
        if missing:
            has = sorted(map(str, value))
            hints = []
            for key, setting in ((self.context_key, "context_key"), (self.answer_key, "answer_key")):
                close = difflib.get_close_matches(key, has, n=1, cutoff=0.6) if key in missing else []
                if close:
                    hints.append(f"{setting}={close[0]!r}")
            hint = (
                f"; to read it from {', '.join(h.split('=')[1] for h in hints)}, pass "
                f"{type(self).__name__}({', '.join(hints)})"
                if hints
                else ""
            )
            raise InvalidInput(
                f"{type(self).__name__}: the input has no {' or '.join(map(repr, missing))} key (it has {has}){hint}"
            )

    async def _arow(self, value: Any) -> Report:
        """One input mapping verified as the contract says (:func:`averify_row`), its evidence
        carrying the cited documents' metadata; a failed row raises unless ``on_error="report"``."""
        self._check_shape(value)
        question = value.get(self.question_key)
        if isinstance(question, BaseMessage):
            question = message_text(question.content)
        context = value[self.context_key]
        report = await averify_row(
            self._verifier,
            to_context(context),
            to_answer(value[self.answer_key]),
            question,
            Fields(context=self.context_key, answer=self.answer_key),
            timeout=self.timeout,
        )
        if report.state == "failed" and self.on_error == "raise":
            raise row_error(report)
        return cite_documents(report, passage_metadata(context))

    def _verify(self, value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> Report:
        return run_sync(self._arow(value))

    async def _averify(
        self, value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> Report:
        return await self._arow(value)

    @staticmethod
    def reports_dataframe(reports: Any) -> Any:
        """The claim table of this Runnable's outputs (a Report, a list from ``batch``, or the
        ``verification`` values of a chain's outputs): one pandas row per claim (label, answer
        span, evidence, reason, probabilities), as the audit builds it."""
        items = [reports] if isinstance(reports, Report) else list(reports)
        return claim_table([(str(i), r) for i, r in enumerate(items)])

    def invoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> Report:  # noqa: A002
        return self._call_with_config(self._verify, input, config, run_type="chain")

    async def ainvoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> Report:  # noqa: A002
        return await self._acall_with_config(self._averify, input, config, run_type="chain")


# ---- LangSmith / openevals: an evaluator function ----------------------------------------------


def create_rt4chart_evaluator(
    judge: Any = None,
    *,
    llm: Any = None,
    key: str = "rt4chart_faithfulness",
    context_key: str = "context",
    question_key: str = "question",
    answer_key: str = "answer",
    judge_kwargs: dict[str, Any] | None = None,
    concurrency: int = 4,
    **options: Any,
) -> Callable[..., dict[str, Any]]:
    """An evaluator in LangSmith's and openevals' shape: ``evaluator(inputs=..., outputs=...,
    reference_outputs=...) -> {"key", "score", "comment", "metadata"}``, for ``langsmith.evaluate``
    (or any code that calls openevals evaluators). langchain-core has no evaluator class; this is
    how LangChain users evaluate.

    Each of ``context`` / ``question`` / ``answer`` is read from ``outputs`` first (a RAG chain
    returns what it retrieved), then ``inputs``, then ``reference_outputs``; ``outputs`` may also be
    the answer itself (a string or a chat message). ``score`` is the fraction of judged claims the
    context entails, ``comment`` names every failing claim with its span and evidence, and
    ``metadata`` is the claim-level report as JSON (claims, evidence, probabilities, cost). A row
    that cannot be verified scores None with the error as the comment; a missing key raises.
    The judge choices and options are :class:`RT4ChartVerifier`'s.
    """
    verifier = build_verifier(
        judge_from(judge, llm=llm), _wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options
    )
    fields = Fields(context=context_key, answer=answer_key)

    def pick(name: str, *sources: Any) -> Any:
        for source in sources:
            if isinstance(source, Mapping) and name in source:
                return source[name]
        return _MISSING

    def rt4chart_evaluator(
        inputs: dict | None = None, outputs: Any = None, reference_outputs: dict | None = None, **_: Any
    ) -> dict[str, Any]:
        answer = (
            outputs if isinstance(outputs, (str, BaseMessage)) else pick(answer_key, outputs, inputs, reference_outputs)
        )
        context = pick(context_key, outputs, inputs, reference_outputs)
        missing = [k for k, v in ((context_key, context), (answer_key, answer)) if v is _MISSING]
        if missing:
            raise InvalidInput(
                f"{key}: no {' or '.join(map(repr, missing))} in outputs, inputs or reference_outputs "
                f"(set context_key= / answer_key= to the names your data uses)"
            )
        question = pick(question_key, inputs, outputs, reference_outputs)
        report = run_sync(
            averify_row(
                verifier, to_context(context), to_answer(answer), None if question is _MISSING else question, fields
            )
        )
        report = cite_documents(report, passage_metadata(context))
        scored = report.state != "failed"
        return {
            "key": key,
            "score": report.score if scored else None,
            "comment": reason_text(report),
            "metadata": report_payload(report),
        }

    rt4chart_evaluator.verifier = verifier  # type: ignore[attr-defined]
    return rt4chart_evaluator


_MISSING = object()
