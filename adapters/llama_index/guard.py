"""``RT4ChartGuardQueryEngine``: a LlamaIndex query engine whose answers are guarded.

Why a query-engine wrapper and not a postprocessor: LlamaIndex's postprocessors
(``node_postprocessors``) act on the retrieved nodes before the answer is written, and it has no
hook that rewrites a finished ``Response``. What its users do to change answers is wrap the query
engine (as its own ``RetryQueryEngine`` and ``TransformQueryEngine`` do), so the guard is one: it
takes any query engine, asks it, and guards ``Response.response`` against the response's own
``source_nodes``. Its citations point to those nodes (``node_id`` and their metadata), and the
:class:`GuardedAnswer` rides along in ``response.metadata["rt4chart_guard"]``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from llama_index.core.base.base_query_engine import BaseQueryEngine
from llama_index.core.base.response.schema import AsyncStreamingResponse, Response, StreamingResponse
from llama_index.core.prompts.mixin import PromptMixinType
from llama_index.core.schema import QueryBundle
from rt4chart_plugins.adapters.common.rows import Fields, averify_row, row_error
from rt4chart_plugins.adapters.common.verifier import build_verifier, check_timeout, judge_from
from rt4chart_plugins.adapters.llama_index.judge import wrap
from rt4chart_plugins.adapters.llama_index.nodes import cite_nodes

from rt4chart_plugins.detector import run_sync
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard import GuardedAnswer, GuardOptions, guard_report
from rt4chart_plugins.guard.options import given
from rt4chart_plugins.guard.stream import StreamGuard, aguard_stream, guard_stream
from rt4chart_plugins.types import Report

#: where the guarded answer rides in the returned response's metadata
METADATA_KEY = "rt4chart_guard"
FIELDS = Fields(context="source_nodes", answer="response")


class RT4ChartGuardQueryEngine(BaseQueryEngine):
    """Any LlamaIndex query engine, its answers guarded before they are returned.

    ``policy``: ``"drop"`` (default: the clauses its source nodes contradict or lack taken out),
    ``"flag"`` (marked inline) or ``"refuse"`` (``message`` instead); ``cite=True``: ``[n]``
    markers, ``n`` standing for a source node. The judge options are :class:`RT4ChartEvaluator`'s.
    An answer that cannot be verified raises with its failed report as ``.report``
    (``on_error="raise"``, default); ``"pass"`` returns it marked ``[unverified]``; ``"report"``
    returns a response whose ``response`` is None; the guard's options may come whole instead, as
    ``guard_options=GuardOptions(...)``. A streaming engine's answer streams guarded:
    each sentence once it is judged (:meth:`guard_stream`); :meth:`guard_response` reads a
    streaming response to its end and returns a plain ``Response``.
    """

    def __init__(
        self,
        query_engine: BaseQueryEngine,
        judge: Any = None,
        *,
        llm: Any = None,
        judge_kwargs: dict[str, Any] | None = None,
        guard_options: GuardOptions | None = None,
        timeout: float | None = None,
        concurrency: int = 4,
        **options: Any,
    ):
        if not isinstance(query_engine, BaseQueryEngine):
            raise InvalidInput(f"query_engine must be a LlamaIndex query engine, got {type(query_engine).__name__}")
        guard = {k: options.pop(k) for k in list(options) if k in GuardOptions.model_fields}
        #: the guard's options as one value, handed whole to every answer and stream it guards
        self.guard_options = given(guard_options, guard, on_error="raise")
        self.query_engine = query_engine
        self.timeout = check_timeout(timeout)
        self._verifier = build_verifier(
            judge_from(judge, llm=llm), wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options
        )
        super().__init__(callback_manager=query_engine.callback_manager)

    def _get_prompt_modules(self) -> PromptMixinType:
        return {"query_engine": self.query_engine}

    def _query(self, query_bundle: QueryBundle) -> Response | StreamingResponse:
        response = self.query_engine.query(query_bundle)
        if isinstance(response, StreamingResponse):
            return self.guard_stream(response, query_bundle.query_str)
        return run_sync(self.aguard_response(response, query_bundle.query_str))

    async def _aquery(self, query_bundle: QueryBundle) -> Response | StreamingResponse | AsyncStreamingResponse:
        response = await self.query_engine.aquery(query_bundle)
        if isinstance(response, AsyncStreamingResponse):
            return self.aguard_stream(response, query_bundle.query_str)
        if isinstance(response, StreamingResponse):
            return self.guard_stream(response, query_bundle.query_str)
        return await self.aguard_response(response, query_bundle.query_str)

    # -- a streaming engine: each sentence shown once judged (rt4chart_plugins.guard.stream) --

    def guard_stream(self, response: StreamingResponse, query: str | None = None) -> StreamingResponse:
        """A streaming response whose text comes out guarded, each sentence once it is judged,
        and adds up to :meth:`guard_response`'s text; the :class:`GuardedAnswer` is in its
        ``metadata["rt4chart_guard"]`` once the stream has ended."""
        nodes = list(response.source_nodes or [])
        metadata = dict(response.metadata or {})
        guard = self._stream_guard(nodes)
        tokens = response.response_gen if response.response_gen is not None else iter([response.response_txt or ""])

        def guarded() -> Iterator[str]:
            try:
                yield from guard_stream(tokens, lambda piece: run_sync(self._apiece(piece, nodes, query)), guard)
            finally:
                if guard.result is not None:
                    metadata[METADATA_KEY] = guard.result

        return StreamingResponse(response_gen=guarded(), source_nodes=nodes, metadata=metadata)

    def aguard_stream(self, response: AsyncStreamingResponse, query: str | None = None) -> AsyncStreamingResponse:
        """:meth:`guard_stream` for an async streaming response."""
        nodes = list(response.source_nodes or [])
        metadata = dict(response.metadata or {})
        guard = self._stream_guard(nodes)

        async def guarded() -> AsyncIterator[str]:
            try:
                async for piece in aguard_stream(
                    response.async_response_gen(), lambda p: self._apiece(p, nodes, query), guard
                ):
                    yield piece
            finally:
                if guard.result is not None:
                    metadata[METADATA_KEY] = guard.result

        return AsyncStreamingResponse(response_gen=guarded(), source_nodes=nodes, metadata=metadata)

    def _stream_guard(self, nodes: list[Any]) -> StreamGuard:
        return StreamGuard(self.guard_options, passages=[n.node.get_content() for n in nodes])

    async def _apiece(self, piece: str, nodes: list[Any], query: str | None) -> Report:
        """One sentence of a streamed answer verified against the response's source nodes."""
        passages = [n.node.get_content() for n in nodes]
        report = await averify_row(self._verifier, passages, piece, query, FIELDS, timeout=self.timeout)
        cite_nodes(report, nodes)
        if report.state == "failed" and self.guard_options.on_error == "raise":
            raise row_error(report)
        return report

    def guard_response(self, response: Any, query: str | None = None) -> Response:
        """A response from anywhere (its ``response`` and ``source_nodes``), guarded."""
        return run_sync(self.aguard_response(response, query))

    async def aguard_response(self, response: Any, query: str | None = None) -> Response:
        if isinstance(response, StreamingResponse):
            response = response.get_response()
        elif isinstance(response, AsyncStreamingResponse):
            response = await response.get_response()
        if not isinstance(response, Response):
            raise InvalidInput(f"the guard reads a Response with a text answer, got {type(response).__name__}")
        nodes = list(response.source_nodes or [])
        passages = [n.node.get_content() for n in nodes]
        report = await averify_row(self._verifier, passages, response.response, query, FIELDS, timeout=self.timeout)
        cite_nodes(report, nodes)
        guarded: GuardedAnswer = guard_report(
            report,
            self.guard_options,
            passages=passages,
            error=row_error(report) if report.state == "failed" else None,
        )
        return Response(
            response=guarded.text,
            source_nodes=nodes,
            metadata={**(response.metadata or {}), METADATA_KEY: guarded},
        )
