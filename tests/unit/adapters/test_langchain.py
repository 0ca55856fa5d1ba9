"""LangChain adapter: RT4ChartVerifier as a Runnable (invoke, ainvoke, batch, stream, callbacks)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("langchain_core")

from adapter_helpers import (  # noqa: E402
    ANSWER,
    CONTEXT,
    FAST,
    QUESTION,
    SENTENCES,
    ScriptedJudge,
    check_claims,
    check_scripted_report,
    scripted_reply,
)
from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.messages import AIMessage  # noqa: E402
from langchain_core.runnables import RunnableLambda, RunnablePassthrough  # noqa: E402
from rt4chart_plugins.adapters.langchain import LangChainJudge, RT4ChartVerifier  # noqa: E402

from rt4chart_plugins import InvalidInput, JudgeError, Report  # noqa: E402

ROW = {"context": CONTEXT, "question": QUESTION, "answer": ANSWER}


class Recorder(BaseCallbackHandler):
    def __init__(self):
        self.starts: list[tuple[str, object]] = []
        self.ends: list[object] = []

    def on_chain_start(self, serialized, inputs, *, name=None, **kwargs):
        self.starts.append((name or (serialized or {}).get("name"), inputs))

    def on_chain_end(self, outputs, **kwargs):
        self.ends.append(outputs)


def _labels(report: Report) -> list[str | None]:
    return [c.label.value if c.label else None for c in report.claims]


# ---- mapping logic, with a scripted judge --------------------------------------------------------


@pytest.mark.parametrize("context", [
    CONTEXT,
    [Document(page_content=c, metadata={"source": i}) for i, c in enumerate(CONTEXT)],
])
def test_invoke_maps_documents_and_messages(scripted, context):
    verifier = RT4ChartVerifier(scripted, decomposition="sentence")
    report = verifier.invoke({"context": context, "question": QUESTION, "answer": AIMessage(content=ANSWER)})
    assert isinstance(report, Report)
    assert _labels(report) == ["CON", "ENT", "NIC"]
    assert report.claims[0].evidence[0].passage == 1
    assert report.claims[0].evidence[0].text == CONTEXT[1]
    assert report.question == QUESTION


def test_string_context_and_custom_keys(scripted):
    verifier = RT4ChartVerifier(scripted, decomposition="sentence", context_key="docs", answer_key="output",
                                question_key="input")
    report = verifier.invoke({"docs": " ".join(CONTEXT), "input": QUESTION, "output": ANSWER})
    assert _labels(report) == ["CON", "ENT", "NIC"]
    schema = verifier.get_input_schema().model_json_schema()
    assert set(schema["properties"]) == {"docs", "input", "output"}
    assert set(schema["required"]) == {"docs", "output"}
    assert verifier.get_output_schema() is Report


def test_passthrough_assign_in_a_chain(scripted):
    rag_chain = RunnableLambda(lambda q: {"context": CONTEXT, "question": q, "answer": AIMessage(ANSWER)})
    chain = rag_chain | RunnablePassthrough.assign(verification=RT4ChartVerifier(scripted, decomposition="sentence"))
    out = chain.invoke(QUESTION)
    assert out["answer"].content == ANSWER
    assert out["verification"].label.value == "CON"
    assert out["verification"].unfaithful_spans[0].text == SENTENCES[0]


async def test_ainvoke_abatch_and_astream(scripted):
    verifier = RT4ChartVerifier(scripted, decomposition="sentence")
    report = await verifier.ainvoke(ROW)
    assert _labels(report) == ["CON", "ENT", "NIC"]
    reports = await verifier.abatch([ROW, {"context": CONTEXT, "answer": SENTENCES[1]}])
    assert [r.label.value for r in reports] == ["CON", "ENT"]
    chunks = [c async for c in verifier.astream(ROW)]
    assert len(chunks) == 1 and chunks[0].label.value == "CON"


def test_batch_keeps_going_past_a_bad_row(scripted):
    """LangChain's own channel for a failed step: the row's exception, with the reason and the
    failed report, in place of its output; the other rows are scored."""
    verifier = RT4ChartVerifier(scripted, decomposition="sentence")
    out = verifier.batch([ROW, {"context": 42, "answer": ANSWER}], return_exceptions=True)
    assert isinstance(out[0], Report) and out[0].label.value == "CON"
    assert isinstance(out[1], InvalidInput) and "context must be a string or a list of strings, got int" in str(out[1])
    assert out[1].report.state == "failed"
    with pytest.raises(InvalidInput, match="context"):
        verifier.invoke({"context": 42, "answer": ANSWER})
    reporting = RT4ChartVerifier(scripted, decomposition="sentence", on_error="report")
    reports = reporting.batch([ROW, {"context": 42, "answer": ANSWER}])
    assert reports[0].label.value == "CON"
    assert reports[1].state == "failed" and "context" in reports[1].error


def test_stream_and_callbacks_see_the_run(scripted):
    verifier = RT4ChartVerifier(scripted, decomposition="sentence")
    recorder = Recorder()
    chunks = list(verifier.stream(ROW, config={"callbacks": [recorder], "run_name": "verify-answer"}))
    assert len(chunks) == 1 and chunks[0].label.value == "CON"
    assert ("verify-answer", ROW) in recorder.starts
    assert isinstance(recorder.ends[-1], Report) and recorder.ends[-1].label.value == "CON"


def test_judge_failure_raises_with_the_failed_report_or_returns_it():
    with pytest.raises(JudgeError, match="scripted judge failure") as raised:
        RT4ChartVerifier(ScriptedJudge(fail=True), decomposition="sentence").invoke(ROW)
    assert raised.value.report.state == "failed"
    assert (raised.value.report.score, raised.value.report.hallucinated) == (None, None)  # not 0.0 and False
    report = RT4ChartVerifier(ScriptedJudge(fail=True), decomposition="sentence", on_error="report").invoke(ROW)
    assert report.state == "failed" and "scripted judge failure" in report.error


def test_evidence_keeps_the_cited_documents_metadata(scripted):
    documents = [Document(page_content=c, metadata={"source": f"policy-{i}.md", "page": i})
                 for i, c in enumerate(CONTEXT)]
    report = RT4ChartVerifier(scripted, decomposition="sentence").invoke({**ROW, "context": documents})
    cited = report.claims[0].evidence[0]
    assert cited.passage == 1 and cited.metadata == {"source": "policy-1.md", "page": 1}
    assert json.loads(report.model_dump_json())["claims"][0]["evidence"][0]["metadata"]["source"] == "policy-1.md"
    plain = RT4ChartVerifier(scripted, decomposition="sentence").invoke(ROW)  # strings: no metadata
    assert plain.claims[0].evidence[0].metadata is None


def test_unknown_judge_is_rejected_up_front():
    with pytest.raises(ValueError, match="judge"):
        RT4ChartVerifier(judge=object())
    with pytest.raises(ValueError, match="judge"):
        RT4ChartVerifier(judge="gpt-5")


# ---- a LangChain chat model as the judge (scripted model: the plumbing only) ---------------------


def test_chat_model_judge_json_mode(tmp_path):
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    class ScriptedChat(GenericFakeChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            from langchain_core.outputs import ChatGeneration, ChatResult

            prompt = "\n".join(str(m.content) for m in messages)
            assert "JSON schema" in prompt  # json mode puts the schema in the system prompt
            return ChatResult(generations=[ChatGeneration(message=AIMessage(json.dumps(scripted_reply(prompt))))])

    llm = ScriptedChat(messages=iter([]))
    verifier = RT4ChartVerifier(judge=llm, decomposition="llm")
    assert isinstance(verifier.verifier.judge, LangChainJudge)
    assert verifier.verifier.judge.name.startswith("langchain:ScriptedChat")
    report = verifier.invoke(ROW)
    check_scripted_report(report)
    assert verifier.verifier.judge.method == "json"  # no tool calling: fell back to JSON mode


def test_chat_model_judge_structured_output():
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.outputs import ChatGeneration, ChatResult

    seen: list[dict] = []

    class ToolChat(GenericFakeChatModel):
        tools: list = []

        def bind_tools(self, tools, **kwargs):
            seen.append(tools[0])
            return self.model_copy(update={"tools": tools})

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            prompt = "\n".join(str(m.content) for m in messages)
            name = self.tools[0]["title"]
            call = {"name": name, "args": scripted_reply(prompt), "id": "call-1", "type": "tool_call"}
            msg = AIMessage(content="", tool_calls=[call], usage_metadata={"input_tokens": 10, "output_tokens": 5,
                                                                          "total_tokens": 15})
            return ChatResult(generations=[ChatGeneration(message=msg)])

    verifier = RT4ChartVerifier(judge=ToolChat(messages=iter([])), decomposition="llm")
    report = verifier.invoke(ROW)
    check_scripted_report(report)
    assert verifier.verifier.judge.method == "auto"
    assert {s["title"] for s in seen} == {"claims", "verdicts"}
    assert report.cost.prompt_tokens >= 10


# ---- the real embedded judge, through LangChain's own entry points -------------------------------


@pytest.mark.model
def test_real_judge_invoke_and_batch(embedded_judge):
    verifier = RT4ChartVerifier(judge=embedded_judge, **FAST)
    rag_chain = RunnableLambda(lambda q: {
        "context": [Document(page_content=c) for c in CONTEXT], "question": q, "answer": AIMessage(content=ANSWER),
    })
    chain = rag_chain | RunnablePassthrough.assign(verification=verifier)
    out = chain.invoke(QUESTION)
    report = out["verification"]
    assert isinstance(report, Report) and report.state == "verified"
    assert report.cost.judge_calls > 0 and report.cost.cache_hits == 0  # judged now, not cached
    assert report.label.value == "CON" and report.hallucinated
    check_claims([c.model_dump(mode="json") for c in report.claims])
    assert [s.text for s in report.unfaithful_spans] == [SENTENCES[0], SENTENCES[2]]

    short = {"context": CONTEXT, "question": QUESTION, "answer": "The free trial lasts 14 days."}
    reports = verifier.batch([ROW, short])
    check_claims([c.model_dump(mode="json") for c in reports[0].claims])
    assert reports[1].label.value == "ENT" and not reports[1].hallucinated
    assert 4 in [e.sentence_id for e in reports[1].claims[0].evidence]  # "lasts 14 days"


def test_a_wrong_input_key_is_one_clear_error_not_a_failed_report_per_row(scripted):
    """How the chain is wired is the same for every row: a batch with ``contexts`` for ``context``
    raises once, naming the key and the setting that reads it."""
    verifier = RT4ChartVerifier(scripted, decomposition="sentence")
    rows = [{"contexts": CONTEXT, "question": QUESTION, "answer": ANSWER}] * 3
    with pytest.raises(InvalidInput, match=r"no 'context' key .*context_key='contexts'"):
        verifier.batch(rows)
    with pytest.raises(InvalidInput, match="no 'context' key"):
        verifier.invoke(rows[0])
    report = RT4ChartVerifier(scripted, decomposition="sentence", context_key="contexts").invoke(rows[0])
    assert report.state == "verified"


def test_the_claim_table_of_a_batch(scripted):
    pytest.importorskip("pandas")
    verifier = RT4ChartVerifier(scripted, decomposition="sentence", on_error="report")
    reports = verifier.batch([ROW, {"context": 42, "answer": ANSWER}])
    table = RT4ChartVerifier.reports_dataframe(reports)
    assert list(table["row_id"]) == ["0", "0", "0", "1"]
    assert list(table["label"][:3]) == ["CON", "ENT", "NIC"] and table["evidence_sentence_ids"][0] == [1]
    assert table["state"][3] == "failed" and "context" in table["error"][3]
