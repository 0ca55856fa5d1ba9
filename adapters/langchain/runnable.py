"""``RT4ChartVerifier``: the verifier as a LangChain Runnable that post-processes a RAG chain
(``{context, question, answer}`` in, the typed report out), through LangChain's own machinery so
that ``batch``, ``stream``, callbacks and tracing work as for any other step of a chain.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage
from langchain_core.runnables import (
    Runnable,
    RunnableConfig,
    RunnableLambda,
    RunnableParallel,
    RunnableSerializable,
)
from langchain_core.runnables.base import coerce_to_runnable
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, create_model
from rt4chart_plugins.adapters.common.llm import message_text
from rt4chart_plugins.adapters.common.payload import claim_table
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from
from rt4chart_plugins.adapters.langchain.inputs import (
    check_source,
    cite_documents,
    fetch_context,
    passage_metadata,
    to_answer,
    to_context,
)
from rt4chart_plugins.adapters.langchain.judge import wrap

from rt4chart_plugins.detector import Detector, run_sync
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import Report


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

    ``context``: where the context comes from when the input carries none, as after
    ``prompt | llm | StrOutputParser()``, whose output is the answer alone: a retriever (or any
    Runnable, or a function), asked the row's question, or the context itself (a string, a list of
    strings or of ``Document``). ``.around(chain)`` runs a chain whose input is the question and
    checks its answer: the retriever is asked that question (see :meth:`around`).

    A row that cannot be verified (no context, a context item that is no text, no
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
    context: Any = None

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
        context: Any = None,
        **pipeline_options: Any,
    ):
        check_source(context)
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
            context=context,
        )
        self._verifier = build_verifier(judge, wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **opts)

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

    def around(self, chain: Any) -> Runnable:
        """``chain`` with this step after it, for a chain whose input is the question (a string,
        or a mapping with the question key) and whose output is the answer, such as
        ``{"context": retriever | format_docs, "question": RunnablePassthrough()} | prompt | llm |
        StrOutputParser()``: the chain's input goes on as the question, its output as the answer,
        and the ``context`` source (a retriever: asked the question again) gives the context.
        ``invoke``, ``batch``, ``stream`` and ``astream`` work on the whole as on the chain."""
        if self.context is None:
            raise InvalidInput(
                f"{type(self).__name__}.around(chain) needs context=: the retriever (or documents) to check the "
                f"chain's answer against, e.g. {type(self).__name__}(context=retriever).around(chain)"
            )
        question = RunnableLambda(self._question_of).with_config(run_name="question")
        return RunnableParallel({self.question_key: question, self.answer_key: coerce_to_runnable(chain)}) | self

    def _question_of(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return value.get(self.question_key)
        return to_answer(value)

    async def _row(self, value: Any) -> Any:
        """The input as a mapping that holds the context: as it came when it has one, else with
        the context from ``context=`` (asked the input's question); an answer alone (a string, a
        chat message) with nowhere to find the context raises, naming the ways to give it."""
        if isinstance(value, Mapping) and self.context_key in value:
            return value
        if self.context is None:
            if isinstance(value, (str, BaseMessage)):
                kind = "a string" if isinstance(value, str) else "a message"
                raise InvalidInput(
                    f"{type(self).__name__} got the answer alone ({kind}) and no context to check it "
                    f"against: give it one, {type(self).__name__}(context=retriever).around(chain) (the retriever is "
                    f"asked the chain's question) or {type(self).__name__}(context=documents), or end the chain with a "
                    f"mapping {{{self.context_key!r}, {self.question_key!r}, {self.answer_key!r}}}"
                )
            return value
        row = dict(value) if isinstance(value, Mapping) else {self.answer_key: value}
        if self.answer_key in row:
            row[self.context_key] = await fetch_context(
                self.context, row.get(self.question_key), f"{type(self).__name__}", self.question_key
            )
        return row

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

    async def _report(self, value: Any) -> Report:
        """One input mapping verified as the contract says (:func:`averify_row`), its evidence
        carrying the cited documents' metadata; a failed row is a failed report (the guard reads it
        too)."""
        value = await self._row(value)
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
        return cite_documents(report, passage_metadata(context))

    async def _arow(self, value: Any) -> Report:
        """:meth:`_report`, raising for a failed row unless ``on_error="report"``."""
        report = await self._report(value)
        if report.state == "failed" and self.on_error == "raise":
            raise row_error(report)
        return report

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
