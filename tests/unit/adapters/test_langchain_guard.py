"""LangChain: RT4ChartGuard as the last step of a chain, on the shipped default judge: invoke,
batch, ainvoke, a chain's astream sentence by sentence, a stream cut off, a row that fails."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import Document  # noqa: E402
from langchain_core.messages import AIMessage, AIMessageChunk  # noqa: E402
from langchain_core.runnables import RunnableLambda, RunnablePassthrough  # noqa: E402
from policy_example import POLICY_ANSWER, POLICY_CONTEXT  # noqa: E402
from rt4chart_plugins.adapters.langchain import RT4ChartGuard  # noqa: E402

from rt4chart_plugins import GuardedAnswer, InvalidInput, Label  # noqa: E402

DOCS = [Document(page_content=p, metadata={"source": f"policy.md#{i}"}) for i, p in enumerate(POLICY_CONTEXT)]
KEPT = "The free trial lasts 14 days, and verified new users can extend it once by 7 days."


def test_invoke_gives_the_guarded_text_and_result_gives_the_guarded_answer():
    assert RT4ChartGuard().invoke({"context": DOCS, "answer": AIMessage(content=POLICY_ANSWER)}) == KEPT
    result = RT4ChartGuard(output="result", cite=True).invoke({"context": DOCS, "answer": POLICY_ANSWER})
    assert isinstance(result, GuardedAnswer)
    assert result.text == (
        "The free trial lasts 14 days [1], and verified new users can extend it once by 7 days [2][3]."
    )
    assert result.sources[0].metadata == {"source": "policy.md#4"} and result.sources[0].passage == 4
    assert [r.label for r in result.removed] == [Label.CON, Label.CON, Label.NIC]


def test_in_a_chain_with_batch_and_ainvoke():
    chain = RunnableLambda(lambda q: {"context": DOCS, "question": q, "answer": POLICY_ANSWER}) | RT4ChartGuard()
    assert chain.batch(["Who gets the trial?", "How long?"]) == [KEPT, KEPT]
    assert asyncio.run(chain.ainvoke("Who?")) == KEPT
    assert list(chain.stream("Who?")) == [KEPT]
    assert RT4ChartGuard().get_output_schema().model_json_schema()["type"] == "string"
    assert RT4ChartGuard(output="result").get_output_schema() is GuardedAnswer
    flagged = RT4ChartGuard(policy="flag", quote=False).invoke({"context": DOCS, "answer": POLICY_ANSWER})
    assert flagged.count("[contradicted]") == 2 and flagged.endswith("email support [unsupported].")


def _streamed(tokens, events, fail=None):
    async def gen(_):
        for token in tokens:
            events.append(("upstream", token))
            yield AIMessageChunk(content=token)
        if fail:
            raise fail

    return RunnablePassthrough.assign(answer=RunnableLambda(gen))


async def _collect(chain, value, events):
    out = []
    async for chunk in chain.astream(value):
        events.append(("guarded", chunk))
        out.append(chunk)
    return out


def test_astream_guards_each_sentence_once_the_next_begins():
    events: list = []
    tokens = [w + " " for w in POLICY_ANSWER.split(" ")]
    chain = _streamed(tokens, events) | RT4ChartGuard(policy="flag", quote=False)
    out = asyncio.run(_collect(chain, {"context": DOCS}, events))
    # the answer as streamed, its trailing space kept
    assert "".join(out) == RT4ChartGuard(policy="flag", quote=False).invoke({"context": DOCS, "answer": "".join(tokens)})
    assert len(out) == 4 and out[-1] == " "
    # the first sentence came out while the third was still being written
    first = events.index(("guarded", out[0]))
    assert first < events.index(("upstream", "priority "))
    assert events[first - 1][0] == "upstream" and events[first - 1][1].strip()[:1].isupper()


def test_astream_with_drop_and_citations_numbers_sources_across_sentences():
    events: list = []
    answer = (
        "The free trial lasts 14 days. Eligible users may request one extension by 7 days. "
        "The trial also includes priority email support."
    )
    chain = _streamed([w + " " for w in answer.split(" ")], events) | RT4ChartGuard(cite=True)
    out = asyncio.run(_collect(chain, {"context": DOCS}, events))
    assert "".join(out) == "The free trial lasts 14 days [1]. Eligible users may request one extension by 7 days [2]."


def test_a_stream_cut_mid_sentence_shows_what_was_judged_then_the_mark():
    events: list = []
    chain = _streamed(["The free trial lasts 14 days. ", "The trial policy applies to all users, a"], events,
                      fail=ConnectionError("stream lost")) | RT4ChartGuard()
    out: list = []

    async def run():
        async for chunk in chain.astream({"context": DOCS}):
            out.append(chunk)

    with pytest.raises(ConnectionError):
        asyncio.run(run())
    # the unfinished sentence was not judged, so it is not shown
    assert out == ["The free trial lasts 14 days.", " [cut off]"]

    events.clear()
    result_chain = _streamed(["The free trial lasts 14 days. ", "It also"], events, fail=ConnectionError("x")) | (
        RT4ChartGuard(output="result")
    )
    results: list = []

    async def run_result():
        async for chunk in result_chain.astream({"context": DOCS}):
            results.append(chunk)

    with pytest.raises(ConnectionError):
        asyncio.run(run_result())
    assert results[0].cut_off and "stopped before it ended" in results[0].notes[-1]
    assert results[0].text == "The free trial lasts 14 days. [cut off]"


def test_a_row_that_cannot_be_verified_raises_with_its_report_or_passes_marked():
    with pytest.raises(InvalidInput) as info:
        RT4ChartGuard().invoke({"context": [3], "answer": POLICY_ANSWER})  # a context item that is no text
    assert info.value.report.state == "failed"
    assert RT4ChartGuard(on_error="pass").invoke({"context": [3], "answer": "It lasts."}) == "It lasts. [unverified]"
    result = RT4ChartGuard(on_error="report", output="result").invoke({"context": [3], "answer": "It lasts."})
    assert result.text is None and result.status == "failed"
    outcomes = RT4ChartGuard().batch([{"context": [3], "answer": "x"}, {"context": DOCS, "answer": KEPT}],
                                     return_exceptions=True)
    assert isinstance(outcomes[0], InvalidInput) and outcomes[1] == KEPT


def test_bad_settings_are_refused_when_built():
    with pytest.raises(InvalidInput, match="policy"):
        RT4ChartGuard(policy="block")
    with pytest.raises(InvalidInput, match="output"):
        RT4ChartGuard(output="json")
    with pytest.raises(InvalidInput, match="output='result'"):
        RT4ChartGuard(on_error="report")
    with pytest.raises(InvalidInput, match="context"):
        RT4ChartGuard().invoke({"ctx": DOCS, "answer": KEPT})



def test_a_sync_stream_cut_in_result_mode_gives_what_was_judged_then_the_error():
    """transform() ends a result-mode stream as astream() does: the result of what was judged,
    then the error; a whole stream, its result."""
    def chunks(fail):
        yield {"context": DOCS}
        yield {"answer": "The free trial lasts 14 days. "}
        yield {"answer": "It also"}
        if fail:
            raise ConnectionError("x")

    results: list = []
    with pytest.raises(ConnectionError):
        for chunk in RT4ChartGuard(output="result").transform(chunks(fail=True)):
            results.append(chunk)
    assert len(results) == 1 and results[0].cut_off
    assert results[0].text == "The free trial lasts 14 days. [cut off]"
    whole = list(RT4ChartGuard(output="result").transform(chunks(fail=False)))
    assert len(whole) == 1 and not whole[0].cut_off and whole[0].text.startswith("The free trial lasts 14 days.")
