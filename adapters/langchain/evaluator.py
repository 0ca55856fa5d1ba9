"""``create_rt4chart_evaluator``: the verifier as an evaluator function in LangSmith's and openevals'
shape, since langchain-core has no evaluator class: ``langsmith.evaluate`` gets a score, the failing
claims as the comment and the claim-level report as metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from rt4chart_plugins.adapters.common.payload import report_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.rows import Fields, averify_row
from rt4chart_plugins.adapters.common.verifier import build_verifier, judge_from
from rt4chart_plugins.adapters.langchain.inputs import cite_documents, passage_metadata, to_answer, to_context
from rt4chart_plugins.adapters.langchain.judge import wrap

from rt4chart_plugins.detector import run_sync
from rt4chart_plugins.errors import InvalidInput


def create_rt4chart_evaluator(
    judge: Any = None,
    *,
    llm: Any = None,
    key: str = "rt4chart_faithfulness",
    context_key: str = "context",
    question_key: str = "question",
    answer_key: str = "answer",
    judge_kwargs: dict[str, Any] | None = None,
    concurrency: int = 4,
    **options: Any,
) -> Callable[..., dict[str, Any]]:
    """An evaluator in LangSmith's and openevals' shape: ``evaluator(inputs=..., outputs=...,
    reference_outputs=...) -> {"key", "score", "comment", "metadata"}``, for ``langsmith.evaluate``
    (or any code that calls openevals evaluators). langchain-core has no evaluator class; this is
    how LangChain users evaluate.

    Each of ``context`` / ``question`` / ``answer`` is read from ``outputs`` first (a RAG chain
    returns what it retrieved), then ``inputs``, then ``reference_outputs``; ``outputs`` may also be
    the answer itself (a string or a chat message). ``score`` is the fraction of judged claims the
    context entails, ``comment`` names every failing claim with its span and evidence, and
    ``metadata`` is the claim-level report as JSON (claims, evidence, probabilities, cost). A row
    that cannot be verified scores None with the error as the comment; a missing key raises.
    The judge choices and options are :class:`RT4ChartVerifier`'s.
    """
    verifier = build_verifier(
        judge_from(judge, llm=llm), wrap, judge_kwargs=judge_kwargs, concurrency=concurrency, **options
    )
    fields = Fields(context=context_key, answer=answer_key)

    def pick(name: str, *sources: Any) -> Any:
        for source in sources:
            if isinstance(source, Mapping) and name in source:
                return source[name]
        return _MISSING

    def rt4chart_evaluator(
        inputs: dict | None = None, outputs: Any = None, reference_outputs: dict | None = None, **_: Any
    ) -> dict[str, Any]:
        answer = (
            outputs if isinstance(outputs, (str, BaseMessage)) else pick(answer_key, outputs, inputs, reference_outputs)
        )
        context = pick(context_key, outputs, inputs, reference_outputs)
        missing = [k for k, v in ((context_key, context), (answer_key, answer)) if v is _MISSING]
        if missing:
            raise InvalidInput(
                f"{key}: no {' or '.join(map(repr, missing))} in outputs, inputs or reference_outputs "
                f"(set context_key= / answer_key= to the names your data uses)"
            )
        question = pick(question_key, inputs, outputs, reference_outputs)
        report = run_sync(
            averify_row(
                verifier, to_context(context), to_answer(answer), None if question is _MISSING else question, fields
            )
        )
        report = cite_documents(report, passage_metadata(context))
        scored = report.state != "failed"
        return {
            "key": key,
            "score": report.score if scored else None,
            "comment": reason_text(report),
            "metadata": report_payload(report),
        }

    rt4chart_evaluator.verifier = verifier  # type: ignore[attr-defined]
    return rt4chart_evaluator


_MISSING = object()
