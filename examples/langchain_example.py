"""RT4CHART in a LangChain RAG chain: verify every answer, claim by claim, as a chain step.

Run (offline, on the default judge, the trained verifier; no model download):
    pip install "rt4chart-plugins[langchain]"
    python examples/langchain_example.py

The chain is ordinary LCEL: retriever -> prompt -> chat model, then
`RunnablePassthrough.assign(verification=RT4ChartVerifier(...))` adds the typed report.
"""

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

DOCS = [
    Document(page_content="The free trial is available to new customers who sign up for the Basic plan."),
    Document(page_content="Only new users whose identity has been verified are eligible for the trial."),
    Document(page_content="Trial accounts can export up to 5 reports per month."),
    Document(page_content="Eligible users may request one extension of the trial by 7 days."),
    Document(page_content="The free trial lasts 14 days."),
]


def retrieve(question: str) -> list[Document]:
    """Stand-in for your retriever (vector store, BM25, ...): here, every document."""
    return DOCS


# Stand-in for your chat model (ChatOpenAI, ChatOllama, ...): it gives a canned, partly wrong answer.
llm = FakeListChatModel(responses=[
    "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
    "and verified new users can extend it once by 7 days. The trial also includes priority email support."
])
prompt = ChatPromptTemplate.from_messages([
    ("system", "Answer from the context only.\n\nContext:\n{context}"),
    ("human", "{question}"),
])

rag_chain = (
    {"context": RunnableLambda(retrieve), "question": RunnablePassthrough()}
    | RunnablePassthrough.assign(
        answer=(lambda x: {"context": "\n".join(d.page_content for d in x["context"]), "question": x["question"]})
        | prompt | llm | StrOutputParser()
    )
)

# The judge: None is the trained verifier (offline, shipped); "local" the embedded LLM. Any LangChain chat model works too,
# e.g. RT4ChartVerifier(judge=ChatOpenAI(model="gpt-4o-mini")), or an OpenAI-compatible server:
# RT4ChartVerifier(judge="openai", judge_kwargs={"base_url": "http://localhost:8000/v1", "model": "qwen"}).
# decomposition="sentence" (one claim per answer sentence) keeps the offline judge fast.
verifier = RT4ChartVerifier(decomposition="sentence")

chain = rag_chain | RunnablePassthrough.assign(verification=verifier)

if __name__ == "__main__":
    out = chain.invoke("Who can get the free trial?")
    report = out["verification"]
    print("answer:", out["answer"])
    print(f"verdict: {report.label}  hallucinated={report.hallucinated}  score={report.score:.2f}")
    for claim in report.claims:
        span = f"[{claim.answer_span.start}:{claim.answer_span.end}]" if claim.answer_span else ""
        evidence = "; ".join(f"[{e.sentence_id}] {e.text}" for e in claim.evidence) or "no evidence"
        print(f"  {claim.label} {span} {claim.text!r}\n      <- {evidence}\n      {claim.reason}")

    # batch / abatch / stream work as for any Runnable; a row that cannot be verified raises, with its
    # reason and failed report: return_exceptions=True keeps the other rows
    reports = verifier.batch([
        {"context": DOCS, "question": "How long is the trial?", "answer": "The free trial lasts 14 days."},
        {"context": DOCS, "question": "How long is the trial?", "answer": "The free trial lasts 30 days."},
        {"context": [], "question": "How long is the trial?", "answer": "The free trial lasts 30 days."},
    ], return_exceptions=True)
    print("batch:", [(r.label.value if r.label else None, round(r.score, 2)) if not isinstance(r, Exception)
                     else f"{type(r).__name__}: {r}" for r in reports])
