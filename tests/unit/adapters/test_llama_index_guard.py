"""LlamaIndex: RT4ChartGuardQueryEngine wraps a query engine and guards its answers against the
response's own source nodes, on the shipped default judge; citations point to the nodes."""

from __future__ import annotations

import asyncio
import re

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.base.response.schema import Response  # noqa: E402
from llama_index.core.query_engine import CustomQueryEngine  # noqa: E402
from llama_index.core.schema import NodeWithScore, TextNode  # noqa: E402
from policy_example import POLICY_ANSWER, POLICY_CONTEXT  # noqa: E402
from rt4chart_plugins.adapters.llama_index import RT4ChartGuardQueryEngine  # noqa: E402

from rt4chart_plugins import InvalidInput, Label  # noqa: E402

NODES = [
    NodeWithScore(node=TextNode(text=p, id_=f"node-{i}", metadata={"file_name": "policy.md"}), score=1.0)
    for i, p in enumerate(POLICY_CONTEXT)
]


class FixedEngine(CustomQueryEngine):
    """A query engine that answers from fixed nodes, as a retriever and an LLM would."""

    answer: str = POLICY_ANSWER
    nodes: list = NODES

    def custom_query(self, query_str: str) -> Response:
        return Response(response=self.answer, source_nodes=self.nodes, metadata={"engine": "fixed"})


def test_the_answer_comes_back_guarded_with_citations_to_nodes():
    engine = RT4ChartGuardQueryEngine(FixedEngine(), cite=True)
    response = engine.query("Who can get the trial?")
    assert response.response == (
        "The free trial lasts 14 days [1], and verified new users can extend it once by 7 days [2][3]."
    )
    guarded = response.metadata["rt4chart_guard"]
    assert response.metadata["engine"] == "fixed" and response.source_nodes == NODES
    assert [(s.marker, s.passage) for s in guarded.sources] == [(1, 4), (2, 1), (3, 3)]
    assert guarded.sources[0].metadata == {"node_id": "node-4", "file_name": "policy.md"}
    assert [r.label for r in guarded.removed] == [Label.CON, Label.CON, Label.NIC]
    aresponse = asyncio.run(engine.aquery("Who can get the trial?"))
    assert aresponse.response == response.response


def test_flag_and_refuse_policies():
    flagged = RT4ChartGuardQueryEngine(FixedEngine(), policy="flag", quote=False).query("q")
    assert flagged.response.count("[contradicted]") == 2 and "[unsupported]" in flagged.response
    refused = RT4ChartGuardQueryEngine(FixedEngine(), policy="refuse", message="Please ask support.").query("q")
    assert refused.response == "Please ask support."


def test_an_answer_without_sources_is_never_passed_silently():
    # no source node is an empty context: every claim is NIC, so nothing of the answer is shown
    bare = RT4ChartGuardQueryEngine(FixedEngine(nodes=[])).query("q")
    assert bare.metadata["rt4chart_guard"].status == "refused"
    assert bare.response != POLICY_ANSWER and "14 days" not in bare.response
    assert {c.label for c in bare.metadata["rt4chart_guard"].report.claims} == {"NIC"}


def test_bad_settings_are_refused():
    with pytest.raises(InvalidInput, match="query engine"):
        RT4ChartGuardQueryEngine(object())  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="policy"):
        RT4ChartGuardQueryEngine(FixedEngine(), policy="block")  # type: ignore[arg-type]


def test_a_streaming_response_is_read_to_its_end_then_guarded():
    from llama_index.core.base.response.schema import AsyncStreamingResponse, StreamingResponse

    engine = RT4ChartGuardQueryEngine(FixedEngine())
    words = [w + " " for w in POLICY_ANSWER.split(" ")]
    streamed = StreamingResponse(response_gen=iter(words), source_nodes=NODES)
    assert engine.guard_response(streamed).response == (
        "The free trial lasts 14 days, and verified new users can extend it once by 7 days."
    )

    async def agen():
        for w in words:
            yield w

    guarded = asyncio.run(engine.aguard_response(AsyncStreamingResponse(response_gen=agen(), source_nodes=NODES)))
    assert guarded.response.startswith("The free trial lasts 14 days")


STREAMED = (
    "The free trial lasts 14 days.\nThe trial lasts 30 days.\n"
    "Eligible users may request one extension of the trial by 7 days.\n"
)


class StreamingEngine(CustomQueryEngine):
    """A streaming query engine (``streaming=True``): its answer comes token by token."""

    answer: str = STREAMED

    def custom_query(self, query_str: str):
        from llama_index.core.base.response.schema import StreamingResponse

        return StreamingResponse(response_gen=(t for t in re.findall(r"\S+\s*", self.answer)), source_nodes=NODES)


@pytest.mark.parametrize("options", [{}, {"policy": "flag"}, {"cite": True}])
def test_a_streaming_engine_streams_guarded_each_sentence_once_judged(options):
    from llama_index.core.base.response.schema import StreamingResponse

    whole = RT4ChartGuardQueryEngine(FixedEngine(answer=STREAMED), **options).query("How long?")
    response = RT4ChartGuardQueryEngine(StreamingEngine(), **options).query("How long?")
    assert isinstance(response, StreamingResponse)
    pieces = list(response.response_gen)
    assert len(pieces) >= 2 and "".join(pieces) == whole.response
    assert "30 days" not in whole.response or options.get("policy") == "flag"
    guarded = response.metadata["rt4chart_guard"]
    assert guarded.text == whole.response and guarded.report.label == Label.CON


def test_an_async_streaming_engine_streams_guarded():
    from llama_index.core.base.response.schema import AsyncStreamingResponse

    class AsyncStreamingEngine(StreamingEngine):
        async def acustom_query(self, query_str: str):
            async def tokens():
                for token in re.findall(r"\S+\s*", self.answer):
                    yield token

            return AsyncStreamingResponse(response_gen=tokens(), source_nodes=NODES)

    async def run():
        response = await RT4ChartGuardQueryEngine(AsyncStreamingEngine(), policy="flag").aquery("How long?")
        assert isinstance(response, AsyncStreamingResponse)
        return [piece async for piece in response.async_response_gen()], response

    pieces, response = asyncio.run(run())
    whole = RT4ChartGuardQueryEngine(FixedEngine(answer=STREAMED), policy="flag").query("How long?").response
    assert len(pieces) >= 2 and "".join(pieces) == whole == response.metadata["rt4chart_guard"].text
