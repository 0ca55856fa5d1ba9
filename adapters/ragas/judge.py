"""A ragas LLM as an RT4CHART judge, so that ``RT4ChartFaithfulness(llm=...)`` judges with the LLM a
ragas user already configured, as ragas' own metrics do."""

from __future__ import annotations

from typing import Any

from langchain_core.prompt_values import StringPromptValue
from ragas.llms.base import BaseRagasLLM, InstructorBaseRagasLLM
from rt4chart_plugins.adapters.common.llm import RESPONSE_MODELS, as_json_text, llm_wrap, model_label
from rt4chart_plugins.adapters.common.openai_chat import ask_openai, openai_client

from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.judges.kit import ChatJudge, ChatReply, prompt_messages


class RagasJudge(ChatJudge):
    """A ragas LLM as an RT4CHART judge.

    ``InstructorBaseRagasLLM`` (from ``ragas.llms.llm_factory``): ``agenerate(prompt,
    response_model)`` with a pydantic model of the verdicts (structured output).
    ``BaseRagasLLM`` (``LangchainLLMWrapper``, ``LlamaIndexLLMWrapper``): ``generate`` with the JSON
    schema in the prompt (ragas' retries and finish check apply), parsed leniently.
    """

    def __init__(self, llm: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(llm, (InstructorBaseRagasLLM, BaseRagasLLM)):
            raise InvalidInput(f"RagasJudge needs a ragas LLM, got {type(llm).__name__}")
        self.llm = llm
        inner = getattr(llm, "langchain_llm", None) or getattr(llm, "llm", None)
        default = model_label(llm, "ragas")
        if inner is not None and default == f"ragas:{type(llm).__name__}":
            default = model_label(inner, f"ragas:{type(llm).__name__}")
        super().__init__(name=name or default, **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        client = _factory_client(self.llm)
        if client is not None:
            return await self._complete_openai(client, system, user, schema)
        prompt = "\n\n".join(prompt_messages(system, user, schema))
        response_model = RESPONSE_MODELS.get(schema_name)
        if isinstance(self.llm, InstructorBaseRagasLLM) and response_model is not None:
            return ChatReply(as_json_text(await self.llm.agenerate(prompt, response_model)))
        if isinstance(self.llm, InstructorBaseRagasLLM):  # pragma: no cover - every schema has a model
            raise JudgeError(f"no response model for schema {schema_name!r}")
        result = await self.llm.generate(StringPromptValue(text=prompt), n=1, temperature=0.0)
        text = result.generations[0][0].text if result.generations and result.generations[0] else ""
        usage = (result.llm_output or {}).get("token_usage") or {}
        tokens = int(usage.get("prompt_tokens", 0) or 0), int(usage.get("completion_tokens", 0) or 0)
        return ChatReply(as_json_text(text), *tokens)

    async def _complete_openai(self, client: Any, system: str, user: str, schema: dict) -> ChatReply:
        """An ``llm_factory`` LLM over an OpenAI client: its client, model and model arguments,
        asked with the shared two-message request (instructor's own request would wrap the schema
        in its prompt, and report no token usage)."""
        mapped = getattr(self.llm, "_map_provider_params", None)
        params = dict(mapped() if callable(mapped) else self.llm.model_args)
        params = {k: v for k, v in params.items() if v is not None}
        return await ask_openai(client, self.llm.model, system, user, schema, params)


def _factory_client(llm: Any) -> Any:
    """The OpenAI client inside an ``llm_factory(..., client=OpenAI(...))`` LLM, or None."""
    if not isinstance(llm, InstructorBaseRagasLLM) or str(getattr(llm, "provider", "")).lower() != "openai":
        return None
    return openai_client(getattr(getattr(llm, "client", None), "client", None))


#: a ragas LLM (``llm_factory``'s, or a ``LangchainLLMWrapper``) as the judge; anything else is not ragas'
wrap = llm_wrap(RagasJudge, (InstructorBaseRagasLLM, BaseRagasLLM))
