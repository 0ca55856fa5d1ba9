"""Systems that are not RT4CHART, run for real on the same judge model through an OpenAI-compatible
endpoint: the frameworks' own faithfulness metrics, and the paper's single "direct" prompt.

With ``--judge local`` the bench starts llama-cpp-python's OpenAI-compatible server on the embedded
model (:func:`rt4chart_lab.serving.llama_server`), so every system reads the same weights. A row whose
metric raises or returns NaN is recorded as not judged, with the error: that is part of the comparison.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from collections.abc import Awaitable, Callable

from pydantic import BaseModel

from rt4chart_plugins.errors import JudgeError, MissingExtra
from rt4chart_plugins.judges.chat.replies import extract_json_text
from rt4chart_lab.serving import Endpoint


_QUIET = {"DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "DEEPEVAL_DISABLE_DOTENV": "1", "DEEPEVAL_UPDATE_WARNING_OPT_IN": "NO",
          "RAGAS_DO_NOT_TRACK": "true", "ANONYMIZED_TELEMETRY": "False", "LANGCHAIN_TRACING_V2": "false"}


def _quiet() -> None:
    """A benchmark sends nothing anywhere: the frameworks' telemetry is off (unless the user set it)."""
    for key, value in _QUIET.items():
        os.environ.setdefault(key, value)


def _client(ep: Endpoint):
    try:
        from openai import AsyncOpenAI
    except ImportError as exc:
        raise MissingExtra("openai", "openai") from exc
    return AsyncOpenAI(base_url=ep.base_url, api_key=ep.api_key, timeout=600, max_retries=2)


async def _chat(ep: Endpoint, prompt: str, *, json_mode: bool) -> str:
    extra = {"response_format": {"type": "json_object"}} if json_mode else {}
    async with _client(ep) as client:  # closed on this loop: each row runs on its own loop
        resp = await client.chat.completions.create(
            model=ep.model, messages=[{"role": "user", "content": prompt}], temperature=0,
            max_tokens=ep.max_tokens, **extra)
    return resp.choices[0].message.content or ""


# ---- the systems: each maps a RAGTruth row to (hallucinated, score, spans) ----------------------

class Outcome(BaseModel):
    hallucinated: bool
    score: float  # higher = more likely hallucinated
    spans: list[list[int]] = []
    detail: str | None = None


async def ragas_faithfulness(ep: Endpoint, context: str, question: str | None, answer: str) -> Outcome:
    _quiet()
    try:
        from langchain_openai import ChatOpenAI
        from ragas import SingleTurnSample
        from ragas.llms import LangchainLLMWrapper
        from ragas.metrics import Faithfulness
    except ImportError as exc:
        raise MissingExtra("ragas", "ragas") from exc
    llm = LangchainLLMWrapper(ChatOpenAI(base_url=ep.base_url, api_key=ep.api_key, model=ep.model,
                                         temperature=0, max_tokens=ep.max_tokens, timeout=600))
    metric = Faithfulness(llm=llm)
    score = await metric.single_turn_ascore(
        SingleTurnSample(user_input=question or "", response=answer, retrieved_contexts=[context]))
    if score is None or math.isnan(score):
        raise JudgeError("Ragas Faithfulness returned NaN")
    return Outcome(hallucinated=score < 1.0, score=1.0 - float(score), detail=f"faithfulness={score:.3f}")


def _deepeval_model(ep: Endpoint):
    from deepeval.models import DeepEvalBaseLLM

    class EndpointModel(DeepEvalBaseLLM):
        """deepeval's custom-model hook, answering on the bench's endpoint in JSON mode."""

        def __init__(self):
            super().__init__(model=ep.model)

        def load_model(self):
            return self

        def get_model_name(self) -> str:
            return ep.model

        def generate(self, prompt: str, schema=None):
            return asyncio.run(self.a_generate(prompt, schema))

        async def a_generate(self, prompt: str, schema=None):
            text = await _chat(ep, prompt, json_mode=schema is not None)
            if schema is None:
                return text
            from json_repair import repair_json

            return schema.model_validate(json.loads(repair_json(extract_json_text(text) or text)))

    return EndpointModel()


async def deepeval_faithfulness(ep: Endpoint, context: str, question: str | None, answer: str) -> Outcome:
    _quiet()
    try:
        from deepeval.metrics import FaithfulnessMetric
        from deepeval.test_case import LLMTestCase
    except ImportError as exc:
        raise MissingExtra("deepeval", "deepeval") from exc
    metric = FaithfulnessMetric(model=_deepeval_model(ep), threshold=1.0, async_mode=True, include_reason=False)
    await metric.a_measure(LLMTestCase(input=question or "", actual_output=answer, retrieval_context=[context]),
                           _show_indicator=False)
    score = metric.score
    if score is None or math.isnan(score):
        raise JudgeError(f"DeepEval FaithfulnessMetric gave no score ({metric.error or 'NaN'})")
    return Outcome(hallucinated=score < 1.0, score=1.0 - float(score), detail=f"faithfulness={score:.3f}")


def _llamaindex_llm(ep: Endpoint):
    from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata

    class EndpointLLM(CustomLLM):
        """A LlamaIndex LLM over the bench's endpoint (llama-index-llms-openai-like is not needed)."""

        @property
        def metadata(self) -> LLMMetadata:
            return LLMMetadata(model_name=ep.model, context_window=8192, num_output=ep.max_tokens, is_chat_model=False)

        def complete(self, prompt: str, formatted: bool = False, **kwargs) -> CompletionResponse:
            return CompletionResponse(text=asyncio.run(_chat(ep, prompt, json_mode=False)))

        async def acomplete(self, prompt: str, formatted: bool = False, **kwargs) -> CompletionResponse:
            return CompletionResponse(text=await _chat(ep, prompt, json_mode=False))

        def stream_complete(self, prompt: str, formatted: bool = False, **kwargs):
            raise NotImplementedError("the bench does not stream")

    return EndpointLLM()


async def llamaindex_faithfulness(ep: Endpoint, context: str, question: str | None, answer: str) -> Outcome:
    _quiet()
    try:
        from llama_index.core.evaluation import FaithfulnessEvaluator
    except ImportError as exc:
        raise MissingExtra("llama-index-core", "llama-index") from exc
    result = await FaithfulnessEvaluator(llm=_llamaindex_llm(ep)).aevaluate(
        query=question or "", response=answer, contexts=[context])
    if result.passing is None:
        raise JudgeError(f"LlamaIndex FaithfulnessEvaluator gave no verdict ({result.invalid_reason})")
    return Outcome(hallucinated=not result.passing, score=0.0 if result.passing else 1.0,
                   detail=(result.feedback or "")[:200])


DIRECT_PROMPT = """You check an answer against its source. List every part of the ANSWER that the SOURCE \
does not support (contradicted or not mentioned), copied exactly from the answer.
Reply with JSON only: {{"hallucinated_spans": ["exact text from the answer", ...]}} (an empty list if \
everything is supported).

SOURCE:
{context}
{question}
ANSWER:
{answer}"""


async def direct_prompt(ep: Endpoint, context: str, question: str | None, answer: str) -> Outcome:
    """The paper's "direct" variant: one prompt over (C, Q, A) that returns the unsupported spans."""
    from json_repair import repair_json

    text = await _chat(ep, DIRECT_PROMPT.format(context=context, question=f"QUESTION: {question}\n" if question else "",
                                                answer=answer), json_mode=True)
    data = json.loads(repair_json(extract_json_text(text) or text) or "{}")
    spans = []
    for piece in (data.get("hallucinated_spans") or []) if isinstance(data, dict) else []:
        if isinstance(piece, str) and piece.strip() and (i := answer.find(piece.strip())) >= 0:
            spans.append([i, i + len(piece.strip())])
    return Outcome(hallucinated=bool(spans), score=float(bool(spans)), spans=spans)


EXTERNAL: dict[str, tuple[str, Callable[..., Awaitable[Outcome]]]] = {
    "ragas-faithfulness": ("Ragas Faithfulness (its own code; hallucinated when score < 1)", ragas_faithfulness),
    "deepeval-faithfulness": ("DeepEval FaithfulnessMetric (its own code; hallucinated when score < 1)",
                              deepeval_faithfulness),
    "llamaindex-faithfulness": ("LlamaIndex FaithfulnessEvaluator (its own code; hallucinated when not passing)",
                                llamaindex_faithfulness),
    "direct": ("one direct prompt over (C, Q, A) that returns unsupported spans (the paper's 'direct')", direct_prompt),
}


async def run_external(name: str, ep: Endpoint, row_id: str, context: str, question: str | None, answer: str) -> dict:
    """The prediction record of one row (same shape as RT4CHART's, see runner.record)."""
    started = time.perf_counter()
    try:
        out = await EXTERNAL[name][1](ep, context, question, answer)
        ok, error = True, None
    except MissingExtra:
        raise
    except Exception as exc:  # noqa: BLE001 - a row's failure is its result
        out, ok, error = Outcome(hallucinated=False, score=0.0), False, f"{type(exc).__name__}: {exc}"[:500]
    spans = out.spans or ([[0, len(answer)]] if out.hallucinated else [])
    return {
        "id": row_id, "ok": ok, "error": error, "state": "verified" if ok else "failed",
        "label": None, "hallucinated": out.hallucinated, "score": out.score, "claim_score": None,
        "spans": spans, "phrase_spans": spans, "evidence": [], "claims": [], "detail": out.detail,
        # the frameworks do not report their calls or tokens: only time is recorded, not zeros
        "cost": {"seconds": time.perf_counter() - started},
        "judge": ep.model, "notes": [],
    }
