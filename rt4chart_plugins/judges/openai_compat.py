"""A judge behind any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, Ollama…).

Structured output is requested as a JSON schema; servers that reject ``json_schema`` are asked
again with ``json_object`` and remembered. Temperature 0 and a fixed seed make runs repeatable
where the server honours them; the cache makes them free.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from typing import Any

from rt4chart_plugins.errors import MissingExtra
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply


class OpenAIJudge(ChatJudge):
    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        seed: int = 0,
        timeout: float = 120.0,
        max_tokens: int = 2048,
        **kwargs: Any,
    ):
        try:
            import openai  # noqa: F401
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise MissingExtra("openai", "openai") from exc
        self.model = model or os.environ.get("RT4CHART_OPENAI_MODEL") or "gpt-4o-mini"
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self.temperature = temperature
        self.seed = seed
        self.timeout = timeout
        self.max_tokens = max_tokens
        self._schema_mode = "json_schema"
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        super().__init__(name=f"openai:{self.model}@{self.base_url or 'api.openai.com'}", **kwargs)

    def _client(self) -> Any:
        # An AsyncOpenAI client binds to the loop it was first used on; frameworks such as
        # llama-index run us on fresh loops, so keep one client per loop.
        import openai

        loop = asyncio.get_running_loop()
        if loop not in self._clients:
            self._clients[loop] = openai.AsyncOpenAI(
                base_url=self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=0
            )
        return self._clients[loop]

    def _is_transient(self, exc: BaseException) -> bool:
        import openai

        if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError,
                            openai.InternalServerError)):
            return True
        if isinstance(exc, openai.APIStatusError) and exc.status_code in (408, 409, 429) or (
            isinstance(exc, openai.APIStatusError) and exc.status_code >= 500
        ):
            return True
        return super()._is_transient(exc)

    def _response_format(self, schema: dict, schema_name: str) -> dict:
        if self._schema_mode == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": schema_name, "schema": schema, "strict": True}}
        return {"type": "json_object", "schema": schema}

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        import openai

        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        while True:
            try:
                resp = await self._client().chat.completions.create(
                    model=self.model,
                    messages=messages,
                    temperature=self.temperature,
                    seed=self.seed,
                    max_tokens=self.max_tokens,
                    response_format=self._response_format(schema, schema_name),
                )
                break
            except openai.APIStatusError as exc:
                # Servers without json_schema support reject it, some with a 500 (llama.cpp's
                # server): fall back to json_object with the schema, as they document.
                if self._schema_mode == "json_schema" and "response_format" in str(exc).lower():
                    self._schema_mode = "json_object"
                    continue
                raise
        usage = resp.usage
        return ChatReply(
            text=resp.choices[0].message.content or "",
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
        )
