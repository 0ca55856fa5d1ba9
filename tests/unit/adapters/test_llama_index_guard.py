"""LlamaIndex: RT4ChartGuardQueryEngine wraps a query engine and guards its answers against the
response's own source nodes, on the shipped default judge; citations point to the nodes."""

from __future__ import annotations

import asyncio

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
