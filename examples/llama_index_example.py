"""RT4CHART as a LlamaIndex evaluator: check a query engine's answers claim by claim.

Run (offline, on the default judge, the trained verifier; no model download):
    pip install "rt4chart-plugins[llama-index]"
    python examples/llama_index_example.py
"""

from typing import Any

from llama_index.core import Document, SummaryIndex
from llama_index.core.evaluation import BatchEvalRunner
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
from llama_index.core.llms.callbacks import llm_completion_callback
from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

DOCS = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Trial accounts can export up to 5 reports per month.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]


class CannedLLM(CustomLLM):
    """Stand-in for your LLM (OpenAI, Ollama, ...): it gives a canned, partly wrong answer."""

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="canned")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=(
            "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
            "and verified new users can extend it once by 7 days. The trial also includes priority email support."
        ))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any):
        yield self.complete(prompt)


index = SummaryIndex.from_documents([Document(text=t) for t in DOCS])  # no embeddings needed
query_engine = index.as_query_engine(llm=CannedLLM())

# The judge: None is the trained verifier (offline, shipped); "local" the embedded LLM. Any LlamaIndex LLM works too, e.g.
# RT4ChartEvaluator(judge=Settings.llm), or an OpenAI-compatible server:
# RT4ChartEvaluator(judge="openai", judge_kwargs={"base_url": "http://localhost:8000/v1", "model": "qwen"}).
# decomposition="sentence" (one claim per answer sentence) keeps the offline judge fast.
evaluator = RT4ChartEvaluator(decomposition="sentence")

if __name__ == "__main__":
    question = "Who can get the free trial?"
    response = query_engine.query(question)
    result = evaluator.evaluate_response(query=question, response=response)
    print("answer:", response.response)
    print(f"passing={result.passing}  score={result.score:.2f}  label={result.label}")
    print(result.feedback)
    for claim in result.claims:  # typed ClaimVerdict objects
        print(" ", claim.label, claim.answer_span.text if claim.answer_span else "",
              "<-", [e.text for e in claim.evidence])

    # Over many queries: BatchEvalRunner. A failed verification is an invalid_result, never an
    # exception (which BatchEvalRunner would retry with a slow backoff).
    runner = BatchEvalRunner({"rt4chart": evaluator}, workers=1)
    results = runner.evaluate_queries(query_engine, queries=[question])
    for r in results["rt4chart"]:
        print("batch:", r.label, r.score, r.invalid_result, r.invalid_reason)
