"""Any LlamaIndex ``LLM`` as an RT4CHART judge, so that ``RT4ChartEvaluator(llm=Settings.llm)`` judges
with the LLM an index already uses, as LlamaIndex's own evaluators do."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.llms import LLM
from rt4chart_plugins.adapters.common.llm import as_json_text, llm_wrap, message_text, model_label

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.kit import ChatJudge, ChatReply, prompt_messages


class LlamaIndexJudge(ChatJudge):
    """Any LlamaIndex ``LLM`` as an RT4CHART judge: ``achat`` with the JSON schema in the system
    prompt (the reply is parsed leniently; caching, retries, salvage come from ChatJudge)."""

    def __init__(self, llm: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(llm, LLM):
            raise InvalidInput(f"LlamaIndexJudge needs a llama_index LLM, got {type(llm).__name__}")
        self.llm = llm
        model = getattr(getattr(llm, "metadata", None), "model_name", None)
        default = f"llama-index:{type(llm).__name__}:{model}" if model else model_label(llm, "llama-index")
        super().__init__(name=name or default, **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        prompt_system, prompt_user = prompt_messages(system, user, schema)
        messages = [
            ChatMessage(role=MessageRole.SYSTEM, content=prompt_system),
            ChatMessage(role=MessageRole.USER, content=prompt_user),
        ]
        resp = await self.llm.achat(messages)
        usage = _usage(getattr(resp, "raw", None))
        return ChatReply(as_json_text(message_text(resp.message.content)), *usage)


def _usage(raw: Any) -> tuple[int, int]:
    usage = raw.get("usage") if isinstance(raw, dict) else getattr(raw, "usage", None)
    if usage is None:
        return 0, 0
    get = usage.get if isinstance(usage, dict) else lambda k, d=None: getattr(usage, k, d)
    return int(get("prompt_tokens", 0) or 0), int(get("completion_tokens", 0) or 0)


#: a LlamaIndex ``LLM`` as the judge; anything else is not LlamaIndex's
wrap = llm_wrap(LlamaIndexJudge, LLM)
