"""LangChain: the verifier as a Runnable that post-processes a RAG chain.

    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    verifier = RT4ChartVerifier()                      # embedded offline judge
    verifier = RT4ChartVerifier(judge=ChatOpenAI(...))  # any LangChain chat model as the judge
    report = verifier.invoke({"context": docs, "question": q, "answer": ai_message})
    chain = rag_chain | RunnablePassthrough.assign(verification=verifier)

Input: a mapping with ``context`` (a string, a list of strings or a list of ``Document``),
``question`` (optional) and ``answer`` (a string or a chat message); the key names are settable.
Output: the typed :class:`rt4chart_plugins.Report` (label, score, claims with answer spans,
evidence and reasons; an evidence sentence cited from a ``Document`` carries its ``metadata``).
``invoke``, ``ainvoke``, ``batch``, ``abatch``, ``stream`` and callbacks / tracing all go through
LangChain's own machinery (``_call_with_config``).

A row that cannot be verified (no context, no answer, a judge that fails, past its
``timeout``) raises with the reason, as a failing Runnable does: ``batch(...,
return_exceptions=True)`` keeps the other rows, each failure carrying its failed report as
``.report``; ``on_error="report"`` returns the failed report instead. An input without the
context or answer key is how the chain is wired: it raises at once, whatever ``on_error`` says.
``RT4ChartVerifier.reports_dataframe(reports)`` is the claim table of a batch's reports.

``RT4ChartGuard`` takes the same input and returns the answer as the context supports it (the
unsupported clauses taken out, or marked, or the answer refused; ``cite=True`` for ``[n]``
markers): ``rag_chain | RT4ChartGuard()``; its ``astream`` streams the guarded text at most one
sentence behind (docs/guard.md).

For LangSmith / openevals, ``create_rt4chart_evaluator()`` returns an evaluator function
``(inputs, outputs, reference_outputs) -> {"key", "score", "comment", "metadata"}`` with the claims
and their evidence in ``metadata``, for ``langsmith.evaluate(app, data=..., evaluators=[...])``.
"""

from rt4chart_plugins.adapters.common.extras import require_framework

require_framework(
    "langchain-core",
    "langchain",
    (
        "langchain_core.callbacks",
        "langchain_core.documents",
        "langchain_core.language_models",
        "langchain_core.messages",
        "langchain_core.runnables",
    ),
)

from rt4chart_plugins.adapters.langchain.evaluator import create_rt4chart_evaluator  # noqa: E402
from rt4chart_plugins.adapters.langchain.guard import RT4ChartGuard  # noqa: E402
from rt4chart_plugins.adapters.langchain.inputs import cite_documents, passage_metadata, to_answer, to_context  # noqa: E402
from rt4chart_plugins.adapters.langchain.judge import LangChainJudge  # noqa: E402
from rt4chart_plugins.adapters.langchain.runnable import RT4ChartVerifier  # noqa: E402

__all__ = [
    "LangChainJudge",
    "RT4ChartGuard",
    "RT4ChartVerifier",
    "cite_documents",
    "create_rt4chart_evaluator",
    "passage_metadata",
    "to_answer",
    "to_context",
]
