"""``RT4ChartGuard``: the guard as the last step of a LangChain chain, so that what the chain
returns is what the context supports (``chain | RT4ChartGuard()``).

Its input is :class:`RT4ChartVerifier`'s (``{context, question, answer}``, the keys settable) and
it is built the same way; its output is the guarded text, or with ``output="result"`` the
:class:`~rt4chart_plugins.GuardedAnswer`. When the chain before it streams, ``astream`` verifies
each sentence as soon as the next one starts, so the guarded text streams at most one sentence
behind the model's.
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
from rt4chart_plugins.guard import DEFAULT_MESSAGE, GuardedAnswer, Policy, Sources, guard_report
from rt4chart_plugins.guard.policies import check_options
from rt4chart_plugins.pipeline.segment import split_sentences
from rt4chart_plugins.types import Report

#: what a stream cut off before its last sentence ended is marked with
CUT_OFF_MARK = "[cut off]"


class RT4ChartGuard(RT4ChartVerifier):
    """The answer of a RAG chain as the context supports it, as a LangChain Runnable.

    ``policy``: ``"drop"`` (default: the clauses the context contradicts or lacks taken out),
    ``"flag"`` (marked inline) or ``"refuse"`` (``message`` instead, when a claim is contradicted
    or fewer than ``min_support`` of them are supported); ``cite=True`` adds ``[n]`` markers (for
    the documents of a list context). ``output``: ``"text"`` (a ``str``) or ``"result"`` (the
    :class:`GuardedAnswer`). The judge and pipeline options are :class:`RT4ChartVerifier`'s.

    A row that cannot be verified raises with the reason and the failed report as ``.report``
    (``on_error="raise"``, the default); ``on_error="pass"`` passes the answer on marked
    ``[unverified]``; ``on_error="report"`` (with ``output="result"``) returns a result whose
    ``text`` is None. In ``astream``, the policy ``refuse`` waits for the whole answer (a
    refusal cannot take back sentences already shown), and ``output="result"`` yields one result
    at the end.
    """

    policy: Policy = "drop"
    cite: bool = False
    output: Literal["text", "result"] = "text"
    message: str = DEFAULT_MESSAGE
    min_support: float = 0.5
    quote: bool = True
    on_error: Literal["raise", "pass", "report"] = "raise"

    _checked: bool = PrivateAttr(default=False)

    def __init__(
        self,
        judge: Any = None,
        *,
        policy: Policy = "drop",
        cite: bool = False,
        output: Literal["text", "result"] = "text",
        message: str = DEFAULT_MESSAGE,
        min_support: float = 0.5,
        quote: bool = True,
        on_error: Literal["raise", "pass", "report"] = "raise",
        **verifier_options: Any,
    ):
        check_options(policy, on_error, min_support, message)
        if output not in ("text", "result"):
            raise InvalidInput(f"unknown output {output!r}: use 'text' (a str) or 'result' (a GuardedAnswer)")
        if on_error == "report" and output == "text":
            raise InvalidInput("on_error='report' gives no text for a row that fails: use output='result' with it")
        super().__init__(judge, on_error=on_error, **verifier_options)
        self.policy = policy
        self.cite = cite
        self.output = output
        self.message = message
        self.min_support = min_support
        self.quote = quote

    # -- schemas ------------------------------------------------------------------------------

    @property
    def OutputType(self) -> Any:  # noqa: N802 - LangChain's name
        return str if self.output == "text" else GuardedAnswer

    def get_output_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        if self.output == "result":
            return GuardedAnswer
        return super(RT4ChartVerifier, self).get_output_schema(config)

    # -- one row ------------------------------------------------------------------------------

    def _guarded(self, report: Report, value: Mapping, sources: Sources | None = None) -> GuardedAnswer:
        context = to_context(value.get(self.context_key))
        return guard_report(
            report,
            policy=self.policy,
            cite_sources=self.cite,
            passages=context if isinstance(context, list) and sources is None else None,
            sources=sources,
            on_error=self.on_error,
            message=self.message,
            min_support=self.min_support,
            quote=self.quote,
            error=row_error(report) if report.state == "failed" else None,
        )

    async def aguard_row(self, value: Any) -> GuardedAnswer:
        """One input mapping verified and guarded."""
        return self._guarded(await self._report(value), value)

    def _out(self, result: GuardedAnswer) -> Any:
        return result if self.output == "result" else result.text

    def _guard(self, value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> Any:
        return self._out(run_sync(self.aguard_row(value)))

    async def _aguard(self, value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig) -> Any:
        return self._out(await self.aguard_row(value))

    def invoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> Any:  # noqa: A002
        return self._call_with_config(self._guard, input, config, run_type="chain")

    async def ainvoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> Any:  # noqa: A002
        return await self._acall_with_config(self._aguard, input, config, run_type="chain")

    # -- a stream -----------------------------------------------------------------------------

    def transform(self, input: Iterator[dict], config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[Any]:  # noqa: A002
        """The sync stream: the whole input gathered, then guarded (``astream`` streams)."""
        value: dict[str, Any] = {}
        for chunk in input:
            self._merge(value, chunk)
        yield self.invoke(value, config)

    async def atransform(
        self,
        input: AsyncIterator[dict],  # noqa: A002
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        async for chunk in self._atransform_stream_with_config(input, self._stream, config, run_type="chain"):
            yield chunk

    async def astream(
        self,
        input: dict,  # noqa: A002
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        async def one() -> AsyncIterator[dict]:
            yield input

        async for chunk in self.atransform(one(), config, **kwargs):
            yield chunk

    def _merge(self, value: dict[str, Any], chunk: Any) -> None:
        """A streamed chunk added to the input so far: the answer's text appended, any other key set."""
        if not isinstance(chunk, Mapping):
            self._check_shape(chunk)  # says what this Runnable takes
        for key, item in chunk.items():
            if key == self.answer_key:
                text = to_answer(item)
                if not isinstance(text, str):
                    value[key] = item  # the row's checks name it
                    continue
                before = value.get(key)
                value[key] = (before if isinstance(before, str) else "") + text
            else:
                value[key] = item

    async def _stream(self, chunks: AsyncIterator[dict]) -> AsyncIterator[Any]:
        """Each sentence guarded once the next one has begun; what is left at the end, guarded
        too; a stream cut off by an error upstream has what arrived guarded, marked
        ``[cut off]``, and the error raised after it."""
        value: dict[str, Any] = {}
        sentence_by_sentence = self.output == "text" and self.policy != "refuse"
        sources: Sources | None = None
        done = 0  # characters of the answer already guarded
        pending = ""  # the whitespace after the last piece shown, shown before the next one
        shown = False
        cut: BaseException | None = None
        try:
            async for chunk in chunks:
                self._merge(value, chunk)
                answer = value.get(self.answer_key)
                if not sentence_by_sentence or not isinstance(answer, str) or self.context_key not in value:
                    continue
                spans = split_sentences(answer[done:])
                if len(spans) < 2:
                    continue
                end = done + spans[-1][0]
                if sources is None:
                    context = to_context(value[self.context_key])
                    sources = Sources(context if isinstance(context, list) else None)
                text, trailing = await self._piece(value, answer[done:end], sources)
                done = end
                if text:
                    yield (pending if shown else "") + text
                    shown, pending = True, trailing
        except Exception as exc:  # noqa: BLE001 - upstream failed mid-answer: guard what arrived, then raise
            cut = exc
        if not sentence_by_sentence:
            if cut is not None and self.answer_key not in value:
                raise cut
            if not value and cut is None:
                return
            result = self._guarded(await self._report(value), value)
            if cut is not None:
                result.cut_off = True
                result.notes.append(f"the answer stopped before it ended ({type(cut).__name__}): guarded what arrived")
                if result.text is not None:
                    result.text = f"{result.text} {CUT_OFF_MARK}"
            yield self._out(result)
            if cut is not None:
                raise cut
            return
        answer = value.get(self.answer_key)
        rest = answer[done:] if isinstance(answer, str) else ""
        if rest.strip() or not shown:
            if sources is None and self.context_key in value:
                context = to_context(value[self.context_key])
                sources = Sources(context if isinstance(context, list) else None)
            if done == 0 and not rest.strip():
                if cut is not None and self.answer_key not in value:
                    raise cut
                text = self._out(self._guarded(await self._report(value), value))  # nothing arrived: say why
                yield text
            else:
                text, _ = await self._piece(value, rest, sources)
                if text:
                    yield (pending if shown else "") + text
                    shown = True
                elif not shown:
                    yield self.message
                    shown = True
        if cut is not None:
            yield (" " if shown else "") + CUT_OFF_MARK
            raise cut

    async def _piece(self, value: dict[str, Any], piece: str, sources: Sources | None) -> tuple[str, str]:
        """One run of whole sentences of the answer, verified and guarded: its text (empty when
        every claim of it went), and the whitespace that followed it."""
        core = piece.rstrip()
        trailing = piece[len(core) :]
        lead = len(core) - len(core.lstrip())
        core = core[lead:]
        if not core:
            return "", trailing
        report = await self._report({**value, self.answer_key: core})
        result = self._guarded(report, value, sources)
        if result.status == "refused":  # under drop: every claim of the piece went
            return "", trailing
        return result.text or "", trailing
