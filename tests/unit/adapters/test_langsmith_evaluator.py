"""The LangSmith/openevals-style evaluator: ``(inputs, outputs, reference_outputs) -> {key, score,
comment, metadata}``, as a plain function and inside ``langsmith.evaluate`` (which runs offline
with ``upload_results=False`` and a list of examples). The judge is the default trained verifier."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("langchain_core")

from rt4chart_plugins import InvalidInput  # noqa: E402
from rt4chart_plugins.adapters.langchain import create_rt4chart_evaluator  # noqa: E402

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible for the trial."]
QUESTION = "How long is the free trial?"
GOOD = "The free trial lasts 14 days."


def test_a_plain_evaluator_call():
    evaluator = create_rt4chart_evaluator()
    out = evaluator(inputs={"question": QUESTION, "context": CONTEXT}, outputs={"answer": GOOD},
                    reference_outputs=None)
    assert out["key"] == "rt4chart_faithfulness" and out["score"] == 1.0
    assert out["comment"].startswith("ENT: 1 of 1 judged claims entailed")
    claim = out["metadata"]["claims"][0]
    assert claim["label"] == "ENT" and claim["evidence"][0]["text"] == CONTEXT[0] and "probs" in claim


def test_context_from_the_outputs_answer_as_a_string_and_missing_keys():
    evaluator = create_rt4chart_evaluator(key="faith", context_key="documents")
    out = evaluator(inputs={"question": QUESTION}, outputs=GOOD, reference_outputs={"documents": CONTEXT})
    assert out["key"] == "faith" and out["score"] == 1.0
    with pytest.raises(InvalidInput, match="no 'documents' in outputs, inputs or reference_outputs"):
        evaluator(inputs={"question": QUESTION, "context": CONTEXT}, outputs={"answer": GOOD})


def test_a_row_that_cannot_be_verified_scores_none_with_the_reason():
    out = create_rt4chart_evaluator()(inputs={"context": [42]}, outputs={"answer": GOOD})
    assert out["score"] is None and out["comment"].startswith("verification failed")
    assert "context must hold strings: item 0 is int" in out["metadata"]["error"]


def test_inside_langsmith_evaluate_offline(monkeypatch):
    langsmith = pytest.importorskip("langsmith")
    from langsmith.schemas import Example

    monkeypatch.setenv("LANGSMITH_TRACING", "false")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "http://127.0.0.1:9")  # nothing leaves the machine
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    examples = [Example(id=uuid.uuid4(), dataset_id=uuid.uuid4(), created_at="2026-01-01T00:00:00Z",
                        inputs={"question": QUESTION, "context": CONTEXT}, outputs={})]

    def rag_app(inputs: dict) -> dict:
        return {"answer": "The free trial lasts 30 days."}

    results = langsmith.evaluate(rag_app, data=examples, evaluators=[create_rt4chart_evaluator()],
                                 upload_results=False)
    (row,) = list(results)
    (feedback,) = row["evaluation_results"]["results"]
    assert feedback.key == "rt4chart_faithfulness" and feedback.score < 1.0
    assert feedback.metadata["claims"][0]["text"] == "The free trial lasts 30 days."
    assert feedback.comment.startswith(feedback.metadata["label"])
