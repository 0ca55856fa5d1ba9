"""LangChain: the guard and the verifier after the chains users write, on the shipped default
judge: ``prompt | llm | StrOutputParser()`` (the answer alone) with ``context=``, the standard RAG
dict chain wrapped by ``.around(chain)`` with a real retriever, and a sync ``.stream()`` that
streams: each sentence shown once judged, the same text as ``invoke``."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import Document  # noqa: E402
from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage  # noqa: E402
from langchain_core.output_parsers import StrOutputParser  # noqa: E402
from langchain_core.prompts import ChatPromptTemplate  # noqa: E402
from langchain_core.runnables import RunnableGenerator, RunnableLambda, RunnablePassthrough  # noqa: E402
from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402
from rt4chart_plugins.adapters.langchain import RT4ChartGuard, RT4ChartVerifier  # noqa: E402

from rt4chart_plugins import InvalidInput, Report  # noqa: E402

POLICY = [
    "The free trial lasts 14 days.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Eligible users may request one extension of the trial by 7 days.",
]
DOCS = [Document(page_content=p, metadata={"source": f"policy.md#{i}"}) for i, p in enumerate(POLICY)]
#: a plain contradiction between two supported sentences, on lines of their own
ANSWER = (
    "The free trial lasts 14 days.\nThe trial lasts 30 days.\n"
    "Verified new users may request one extension of the trial by 7 days."
)
GUARDED = "The free trial lasts 14 days.\nVerified new users may request one extension of the trial by 7 days."
PROMPT = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])


def model(answer: str = ANSWER) -> GenericFakeChatModel:
    """A scripted chat model that streams ``answer`` token by token, on every call."""
    return GenericFakeChatModel(messages=itertools.repeat(AIMessage(content=answer)))


def retriever():
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=64))
    store.add_documents(DOCS)
    return store.as_retriever(search_kwargs={"k": len(DOCS)})


def rag_chain(answer: str = ANSWER):
    """LangChain's RAG chain as its tutorials write it: the answer alone comes out."""
    return (
        {"context": retriever() | (lambda docs: "\n".join(d.page_content for d in docs)), "question": RunnablePassthrough()}
        | PROMPT
        | model(answer)
        | StrOutputParser()
    )


def test_an_answer_alone_with_no_context_gets_one_line_naming_the_way():
    chain = PROMPT | model() | StrOutputParser()
    for step in (RT4ChartGuard(), RT4ChartVerifier()):
        with pytest.raises(InvalidInput) as info:
            (chain | step).invoke({"context": "x", "question": "How long is the trial?"})
        message = str(info.value)
        assert "\n" not in message and "context=retriever" in message and ".around(chain)" in message
    with pytest.raises(InvalidInput, match=r"around\(chain\)"):  # a retriever needs the question
        (rag_chain() | RT4ChartGuard(context=retriever())).invoke("How long is the trial?")


def test_after_prompt_llm_parser_with_a_fixed_context():
    chain = PROMPT | model() | StrOutputParser()
    inputs = {"context": "\n".join(POLICY), "question": "How long is the trial?"}
    assert (chain | RT4ChartGuard(context=DOCS)).invoke(inputs) == GUARDED
    report = (chain | RT4ChartVerifier(context=DOCS)).invoke(inputs)
    assert isinstance(report, Report) and report.label == "CON"
    assert (chain | RT4ChartGuard(context=" ".join(POLICY))).invoke(inputs) == GUARDED


def test_around_the_standard_rag_chain_with_a_retriever():
    guarded = RT4ChartGuard(context=retriever(), cite=True, output="result").around(rag_chain())
    result = guarded.invoke("How long is the trial?")
    assert result.text.startswith("The free trial lasts 14 days [")
    assert "30 days" not in result.text
    assert {s.metadata["source"] for s in result.sources} <= {d.metadata["source"] for d in DOCS}
    assert result.report.question == "How long is the trial?"
    report = RT4ChartVerifier(context=retriever()).around(rag_chain()).invoke("How long is the trial?")
    assert report.label == "CON"
    texts = RT4ChartGuard(context=retriever()).around(rag_chain()).batch(["How long?", "Who?"])
    assert texts == [GUARDED, GUARDED]
    assert asyncio.run(RT4ChartGuard(context=retriever()).around(rag_chain()).ainvoke("How long?")) == GUARDED


def test_sync_stream_streams_each_sentence_once_judged_and_ends_as_invoke():
    events: list[tuple[str, float, str]] = []

    def watched(chunks):
        for chunk in chunks:
            events.append(("model", time.perf_counter(), chunk))
            yield chunk

    chain = RT4ChartGuard(context=retriever(), policy="flag").around(rag_chain() | RunnableGenerator(watched))
    start = time.perf_counter()
    for piece in chain.stream("How long is the trial?"):
        events.append(("guard", time.perf_counter(), piece))
    pieces = [e[2] for e in events if e[0] == "guard"]
    assert "".join(pieces) == RT4ChartGuard(context=DOCS, policy="flag").invoke(ANSWER)
    assert len(pieces) >= 3  # a piece a sentence, then the quote: not one piece at the end
    first = next(i for i, e in enumerate(events) if e[0] == "guard")
    assert pieces[0] == "The free trial lasts 14 days."
    # shown while the model was still writing: its later tokens came after it
    assert any(e[0] == "model" for e in events[first + 1 :])
    assert events[first][1] - start < events[-1][1] - start


def test_a_stream_that_raises_keeps_what_was_judged_and_re_raises():
    def tokens(_):
        yield "The free trial lasts 14 days. "
        yield "The trial policy applies to all"
        raise ConnectionError("stream lost")

    out: list[str] = []
    with pytest.raises(ConnectionError):
        for piece in (RunnableLambda(tokens) | RT4ChartGuard(context=DOCS)).stream("q"):
            out.append(piece)
    assert out == ["The free trial lasts 14 days.", " [cut off]"]


def test_an_empty_stream_gives_the_refusal_message_and_a_chunk_that_is_no_text_is_refused():
    def nothing(_):
        yield from ()

    guard = RT4ChartGuard(context=DOCS, message="Nothing to show.")
    assert list((RunnableLambda(nothing) | guard).stream("q")) == ["Nothing to show."]

    def numbers(_):
        yield 3

    with pytest.raises(InvalidInput, match="got a chunk of type int"):
        list((RunnableLambda(numbers) | RT4ChartGuard(context=DOCS)).stream("q"))


def test_a_context_source_of_no_known_kind_is_refused_when_built():
    with pytest.raises(InvalidInput, match="context= takes"):
        RT4ChartGuard(context=42)
    with pytest.raises(InvalidInput, match=r"needs context="):
        RT4ChartGuard().around(PROMPT | model())
