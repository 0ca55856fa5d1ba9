"""A judge behind any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, Ollama…).

Structured output is requested as a JSON schema; a server that rejects ``json_schema`` is asked
for JSON in the prompt instead (remembered, so it is rejected once per judge), with exactly the
request that the frameworks' clients send (:func:`rt4chart_plugins.judges.prompts.prompt_messages`).
Temperature 0 and a fixed seed make runs repeatable where the server honours them; the cache makes
them free.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from typing import Any

from rt4chart_plugins.config import AtLeastOne, Seconds, checked
from rt4chart_plugins.errors import InvalidReply, MissingExtra
from rt4chart_plugins.judges.chat import ChatJudge
from rt4chart_plugins.judges.chat.transport import ChatReply, within
from rt4chart_plugins.judges.prompts import prompt_messages

#: (base URL, model) pairs whose server rejected a ``json_schema`` response format
_REJECTS_JSON_SCHEMA: set[tuple[str | None, str]] = set()


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
        self.timeout = checked("timeout", timeout, Seconds)
        self.max_tokens = checked("max_tokens", max_tokens, AtLeastOne)
        # "prompt" once the server has rejected a response format; remembered per endpoint and model
        # for the process, since frameworks re-create their metrics (and so this judge) per row
        self._schema_mode = "prompt" if self._endpoint() in _REJECTS_JSON_SCHEMA else "json_schema"
        self.fallback_reason: str | None = (  # why it did
            "this server rejected json_schema response formats earlier in this process"
            if self._schema_mode == "prompt"
            else None
        )
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        super().__init__(name=f"openai:{self.model}@{self.base_url or 'api.openai.com'}", **kwargs)

    def _endpoint(self) -> tuple[str | None, str]:
        return self.base_url, self.model

    def _client(self) -> Any:
        # An AsyncOpenAI client binds to the loop it was first used on; frameworks such as
        # llama-index run us on fresh loops, so keep one client per loop.
        import openai

        loop = asyncio.get_running_loop()
        if loop not in self._clients:
            # openai's DefaultAsyncHttpxClient passed in: the client openai makes itself closes
            # itself from __del__ by scheduling a task on whatever loop runs then, which fails
            # ("Event loop is closed") once its loop is gone. openai builds it on whichever HTTP
            # library that release depends on (httpx until 2.x, httpx2 from 3.0).
            self._clients[loop] = openai.AsyncOpenAI(
                base_url=self.base_url,
                api_key=self.api_key,
                timeout=self.timeout,
                max_retries=0,
                http_client=openai.DefaultAsyncHttpxClient(timeout=self.timeout),
            )
        return self._clients[loop]

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        import openai

        while True:
            if self._schema_mode == "json_schema":
                messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
                fmt: dict[str, Any] = {
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {"name": schema_name, "schema": schema, "strict": True},
                    }
                }
            else:  # the JSON-in-the-prompt request that every framework client sends too
                prompt_system, prompt_user = prompt_messages(system, user, schema)
                messages = [{"role": "system", "content": prompt_system}, {"role": "user", "content": prompt_user}]
                fmt = {}
            try:
                # a total deadline: the client's timeout bounds each read, so a reply trickled a byte
                # at a time never ends; past the deadline the request is a timeout, and retried
                resp = await within(
                    self.timeout,
                    self._client().chat.completions.create(
                        model=self.model,
                        messages=messages,
                        temperature=self.temperature,
                        seed=self.seed,
                        max_tokens=self.max_tokens,
                        **fmt,
                    ),
                )
                break
            except openai.APIStatusError as exc:
                # A server without json_schema support rejects it (llama.cpp's with a 500): learnt
                # once for this judge, which from then on asks for JSON in the prompt, as every
                # framework client does, so one endpoint gives one set of verdicts.
                if self._schema_mode == "json_schema" and "response_format" in str(exc).lower():
                    self._schema_mode = "prompt"
                    _REJECTS_JSON_SCHEMA.add(self._endpoint())
                    self.fallback_reason = f"{type(exc).__name__}: {exc}"[:300]
                    continue
                raise
        choices = getattr(resp, "choices", None)
        if choices is None:  # the client hands back what it could not parse: an HTML page, plain text
            raise InvalidReply(
                f"{self.name}: the endpoint answered with no chat completion "
                f"({type(resp).__name__} {str(resp)[:80]!r}); check the URL"
            )
        if not choices:
            raise InvalidReply(f"{self.name}: the endpoint's completion has no choices")
        usage = getattr(resp, "usage", None)
        return ChatReply(
            text=choices[0].message.content or "",
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
            cut=getattr(choices[0], "finish_reason", None) == "length",
        )
