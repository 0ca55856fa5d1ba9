"""Any LangChain chat model (or plain LLM) as an RT4CHART judge, so that ``RT4ChartVerifier(llm=...)``
judges with the model a chain already uses, through structured output where the provider takes it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel, BaseLanguageModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from rt4chart_plugins.adapters.common.llm import as_json_text, llm_wrap, message_text, model_label

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.kit import ChatJudge, ChatReply, is_rate_limit_or_transport, prompt_messages


class LangChainJudge(ChatJudge):
    """Any LangChain chat model (or plain LLM) as an RT4CHART judge.

    ``method``: ``"structured"`` asks through ``with_structured_output`` (tool calling / the
    provider's JSON schema mode); ``"json"`` asks for JSON in the prompt and parses the text;
    ``"auto"`` (default) uses structured output when the model implements it and the provider
    accepts the request, JSON in the prompt otherwise (remembered; ``fallback_reason`` says why).
    Caching, retries and salvage of partial JSON come from :class:`ChatJudge`.
    """

    def __init__(
        self,
        llm: Any,
        *,
        method: Literal["auto", "structured", "json"] = "auto",
        name: str | None = None,
        **kwargs: Any,
    ):
        if not isinstance(llm, BaseLanguageModel):
            raise InvalidInput(f"LangChainJudge needs a LangChain language model, got {type(llm).__name__}")
        self.llm = llm
        self.method = method if isinstance(llm, BaseChatModel) else "json"
        self.fallback_reason: str | None = None  # why "auto" fell back to JSON in the prompt
        super().__init__(name=name or model_label(llm, "langchain"), **kwargs)

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        if self.method in ("auto", "structured"):
            try:
                runnable = self.llm.with_structured_output(
                    {"title": schema_name, "description": f"the {schema_name} as JSON", **schema}, include_raw=True
                )
            except NotImplementedError:
                if self.method == "structured":
                    raise
                self.method = "json"  # remembered: this model has no structured output
            else:
                try:
                    out = await runnable.ainvoke([SystemMessage(system), HumanMessage(user)])
                except Exception as exc:
                    # a provider / server that rejects the structured request (e.g. a server without
                    # json_schema response formats, which llama.cpp answers with a 500): ask for JSON
                    # in the prompt from now on. A bad key, a rate limit or a dropped connection is no
                    # rejection: it goes to the retry loop.
                    if self.method == "structured" or self._is_fatal(exc) or is_rate_limit_or_transport(exc):
                        raise
                    self.method = "json"
                    self.fallback_reason = f"{type(exc).__name__}: {exc}"[:300]
                else:
                    raw = out.get("raw") if isinstance(out, Mapping) else None
                    parsed = out.get("parsed") if isinstance(out, Mapping) else out
                    text = as_json_text(parsed) if parsed is not None else _raw_text(raw)
                    return ChatReply(text, *_usage(raw))
        prompt_system, prompt_user = prompt_messages(system, user, schema)
        msg = await self.llm.ainvoke([SystemMessage(prompt_system), HumanMessage(prompt_user)])
        content = msg.content if isinstance(msg, BaseMessage) else msg
        return ChatReply(as_json_text(message_text(content)), *_usage(msg))


def _raw_text(raw: Any) -> str:
    """What a structured call said when the parser could not read it: tool args or the text."""
    if isinstance(raw, BaseMessage):
        calls = getattr(raw, "tool_calls", None) or []
        if calls and isinstance(calls[0], Mapping) and calls[0].get("args") is not None:
            return json.dumps(calls[0]["args"])
        return as_json_text(message_text(raw.content))
    return "" if raw is None else as_json_text(str(raw))


def _usage(msg: Any) -> tuple[int, int]:
    usage = getattr(msg, "usage_metadata", None) or {}
    return int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0)


#: a LangChain language model as the judge; anything else is not LangChain's
wrap = llm_wrap(LangChainJudge, BaseLanguageModel)
