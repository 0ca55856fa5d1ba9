"""``RT4ChartGuard``: the guard as the last step of a LangChain chain, so that what the chain
returns is what the context supports (``chain | RT4ChartGuard()``).

Its input is :class:`RT4ChartVerifier`'s (``{context, question, answer}``, the keys settable) and
it is built the same way; its output is the guarded text, or with ``output="result"`` the
:class:`~rt4chart_plugins.GuardedAnswer`. After ``prompt | llm | StrOutputParser()`` its input
is the answer alone: ``context=`` says where the context comes from, and ``.around(chain)`` hands
it the chain's question (:meth:`RT4ChartVerifier.around`). When the chain before it streams,
``stream`` and ``astream`` show each sentence once it is judged
(:mod:`rt4chart_plugins.guard.stream` holds the sentence-by-sentence logic).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, PrivateAttr
from rt4chart_plugins.adapters.common.rows import row_error
from rt4chart_plugins.adapters.langchain.inputs import to_answer, to_context
from rt4chart_plugins.adapters.langchain.runnable import RT4ChartVerifier

from rt4chart_plugins.detector import run_sync
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard import GuardedAnswer, GuardOptions, guard_report
from rt4chart_plugins.guard.options import forwarded, given
from rt4chart_plugins.guard.stream import CUT_OFF_MARK, StreamGuard, aguard_stream, guard_stream
from rt4chart_plugins.types import Report

__all__ = ["CUT_OFF_MARK", "RT4ChartGuard"]


class RT4ChartGuard(RT4ChartVerifier):
    """The answer of a RAG chain as the context supports it, as a LangChain Runnable.

    ``policy``: ``"drop"`` (default: the clauses the context contradicts or lacks taken out),
    ``"flag"`` (marked inline) or ``"refuse"`` (``message`` instead, when a claim is contradicted
    or fewer than ``min_support`` of them are supported); ``cite=True`` adds ``[n]`` markers (for
    the documents of a list context). ``output``: ``"text"`` (a ``str``) or ``"result"`` (the
    :class:`GuardedAnswer`). The judge and pipeline options are :class:`RT4ChartVerifier`'s; the
    guard's may come whole instead, as ``guard_options=GuardOptions(...)``.

    A row that cannot be verified raises with the reason and the failed report as ``.report``
    (``on_error="raise"``, the default); ``on_error="pass"`` passes the answer on marked
    ``[unverified]``; ``on_error="report"`` (with ``output="result"``) returns a result whose
    ``text`` is None.

    ``stream``, ``astream`` and a streaming chain show each sentence once it is judged, and give
    at the end the same text as ``invoke`` (:class:`~rt4chart_plugins.guard.stream.StreamGuard`);
    ``output="result"`` yields one result at the end.
    """

    output: Literal["text", "result"] = "text"
    on_error: Literal["raise", "pass", "report"] = "raise"
    #: the guard's options as one value, handed whole to every row and stream it guards
    guard_options: GuardOptions = GuardOptions(on_error="raise")

    _checked: bool = PrivateAttr(default=False)

    def __init__(
        self,
        judge: Any = None,
        *,
        guard_options: GuardOptions | None = None,
        output: Literal["text", "result"] = "text",
        **options: Any,
    ):
        guard = {k: options.pop(k) for k in list(options) if k in GuardOptions.model_fields}
        checked = given(guard_options, guard, on_error="raise")
        if output not in ("text", "result"):
            raise InvalidInput(f"unknown output {output!r}: use 'text' (a str) or 'result' (a GuardedAnswer)")
        if checked.on_error == "report" and output == "text":
            raise InvalidInput("on_error='report' gives no text for a row that fails: use output='result' with it")
        super().__init__(judge, on_error=checked.on_error, **options)
        self.output = output
        self.guard_options = checked

    # the options as they were read before they travelled as one value (on_error is a field)
    policy = forwarded("policy")
    cite = forwarded("cite")
    message = forwarded("message")
    min_support = forwarded("min_support")
    quote = forwarded("quote")

    # -- schemas ------------------------------------------------------------------------------

    @property
    def OutputType(self) -> Any:  # noqa: N802 - LangChain's name
        return str if self.output == "text" else GuardedAnswer

    def get_output_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        if self.output == "result":
            return GuardedAnswer
        return super(RT4ChartVerifier, self).get_output_schema(config)

    # -- one row ------------------------------------------------------------------------------

    def _guarded(self, report: Report, value: Mapping) -> GuardedAnswer:
        context = to_context(value.get(self.context_key))
        return guard_report(
            report,
            self.guard_options,
            passages=context if isinstance(context, list) else None,
            error=row_error(report) if report.state == "failed" else None,
        )

    async def aguard_row(self, value: Any) -> GuardedAnswer:
        """One input verified and guarded: a mapping, or the answer alone with ``context=``."""
        row = await self._row(value)
        return self._guarded(await self._report(row), row)

    def _out(self, result: GuardedAnswer) -> Any:
        return result if self.output == "result" else result.text

    def _guard(self, value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> Any:
        return self._out(run_sync(self.aguard_row(value)))

    async def _aguard(self, value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig) -> Any:
        return self._out(await self.aguard_row(value))

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:  # noqa: A002
        return self._call_with_config(self._guard, input, config, run_type="chain")

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:  # noqa: A002
        return await self._acall_with_config(self._aguard, input, config, run_type="chain")

    # -- a stream -----------------------------------------------------------------------------

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[Any]:  # noqa: A002
        yield from self.transform(iter([input]), config, **kwargs)

    def transform(self, input: Iterator[Any], config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[Any]:  # noqa: A002
        yield from self._transform_stream_with_config(input, self._sync_stream, config, run_type="chain")

    async def astream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> AsyncIterator[Any]:  # noqa: A002
        async def one() -> AsyncIterator[Any]:
            yield input

        async for chunk in self.atransform(one(), config, **kwargs):
            yield chunk

    async def atransform(
        self,
        input: AsyncIterator[Any],  # noqa: A002
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        async for chunk in self._atransform_stream_with_config(input, self._async_stream, config, run_type="chain"):
            yield chunk

    def _sync_stream(self, chunks: Iterator[Any]) -> Iterator[Any]:
        row = _StreamRow(self)
        guard = self._stream_guard()
        pieces = guard_stream(
            row.texts(chunks), lambda piece: run_sync(row.verify(piece, guard)), guard, row.check_answered
        )
        yield from self._streamed(pieces, guard)

    async def _async_stream(self, chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
        row = _StreamRow(self)
        guard = self._stream_guard()
        pieces = aguard_stream(row.atexts(chunks), lambda piece: row.verify(piece, guard), guard, row.check_answered)
        if self.output == "text":
            async for piece in pieces:
                yield piece
            return
        cut: Exception | None = None
        try:
            async for _ in pieces:
                pass
        except Exception as exc:  # noqa: BLE001 - said after the result, by _result_then
            cut = exc
        for result in _result_then(guard, cut):
            yield result

    def _streamed(self, pieces: Iterator[str], guard: StreamGuard) -> Iterator[Any]:
        if self.output == "text":
            yield from pieces
            return
        cut: Exception | None = None
        try:
            for _ in pieces:
                pass
        except Exception as exc:  # noqa: BLE001 - said after the result, by _result_then
            cut = exc
        yield from _result_then(guard, cut)

    def _stream_guard(self) -> StreamGuard:
        return StreamGuard(self.guard_options)


def _result_then(guard: StreamGuard, cut: Exception | None) -> Iterator[Any]:
    """What a result-mode stream ends with, sync or async: the result; or, when the stream was
    cut or failed, the result of what was judged (if any), then the error."""
    if cut is None or guard.result is not None:
        yield guard.result
    if cut is not None:
        raise cut


class _StreamRow:
    """One streamed input as the guard reads it: the answer's text as it comes (a string, a chat
    message chunk, or the answer key of a mapping chunk, whose other keys are kept), and each piece
    verified against the row's context, fetched once."""

    def __init__(self, owner: RT4ChartGuard):
        self.owner = owner
        self.value: dict[str, Any] = {}
        self.context: Any = None
        self.answered = False

    def _text(self, chunk: Any) -> Iterator[Any]:
        key = self.owner.answer_key
        if isinstance(chunk, Mapping):
            for name, item in chunk.items():
                if name == key:
                    self.answered = True
                    yield to_answer(item)
                else:
                    self.value[name] = item
        else:
            self.answered = True
            yield to_answer(chunk)

    def texts(self, chunks: Iterator[Any]) -> Iterator[Any]:
        for chunk in chunks:
            yield from self._text(chunk)

    async def atexts(self, chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for chunk in chunks:
            for text in self._text(chunk):
                yield text

    def check_answered(self) -> None:
        """A stream of mappings that never held the answer key is a chain wired wrong: say so."""
        if not self.answered and self.value:
            self.owner._check_shape(self.value)

    async def verify(self, piece: str, guard: StreamGuard) -> Report:
        owner = self.owner
        if self.context is None:
            row = await owner._row({**self.value, owner.answer_key: piece})
            owner._check_shape(row)
            self.context = row[owner.context_key]
            passages = to_context(self.context)
            guard.passages = passages if isinstance(passages, list) else None
        report = await owner._report({**self.value, owner.context_key: self.context, owner.answer_key: piece})
        if report.state == "failed" and owner.on_error == "raise":
            raise row_error(report)
        return report
