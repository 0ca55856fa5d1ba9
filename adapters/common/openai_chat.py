"""The judge's request sent through the OpenAI client that a framework's LLM already holds.

Ragas' ``llm_factory`` LLMs and DeepEval's OpenAI-backed models wrap an ``openai`` client; asked
through it directly, the judge sends the same two-message request as every other chat judge (the
framework's own call would wrap the schema in its prompt) and gets the token usage back (which the
framework's call drops). ``openai`` is imported only when a judge gets this far.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rt4chart_plugins.judges.kit import ChatReply, prompt_messages


def openai_client(candidate: Any, *, sync: bool = True) -> Any:
    """``candidate`` when it is an OpenAI client (``AsyncOpenAI``, or ``OpenAI`` too when ``sync``),
    else None; None as well when ``openai`` is not installed."""
    try:
        import openai
    except ImportError:  # pragma: no cover - the frameworks that hold one depend on it
        return None
    kinds = (openai.OpenAI, openai.AsyncOpenAI) if sync else (openai.AsyncOpenAI,)
    return candidate if isinstance(candidate, kinds) else None


async def ask_openai(
    client: Any, model: str, system: str, user: str, schema: dict, params: dict[str, Any]
) -> ChatReply:
    """The shared two-message request (:func:`prompt_messages`) to ``model`` through ``client``, with
    the framework LLM's own model arguments ``params``; a sync client is called in a thread."""
    import openai

    prompt_system, prompt_user = prompt_messages(system, user, schema)
    request = dict(
        model=model,
        messages=[{"role": "system", "content": prompt_system}, {"role": "user", "content": prompt_user}],
        **params,
    )
    create = client.chat.completions.create
    resp = (
        await create(**request)
        if isinstance(client, openai.AsyncOpenAI)
        else await asyncio.to_thread(create, **request)
    )
    usage = resp.usage
    return ChatReply(
        resp.choices[0].message.content or "",
        getattr(usage, "prompt_tokens", 0) or 0,
        getattr(usage, "completion_tokens", 0) or 0,
    )
