"""A framework's LLM as an RT4CHART judge: what the four adapters' judges share.

Each adapter's judge is a :class:`ChatJudge` that only says how to send one request through its
framework's LLM; reading that framework's reply into JSON text, naming the judge (the name is part
of the cache key) and recognising the framework's LLM objects are the same job in all four.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rt4chart_plugins.judges.kit import RESPONSE_MODELS, Judge, extract_json_text

__all__ = ["RESPONSE_MODELS", "as_json_text", "llm_wrap", "message_text", "model_label"]


def llm_wrap(judge_class: Callable[..., Judge], accepts: type | tuple[type, ...]) -> Callable[..., Judge | None]:
    """The ``wrap`` that :func:`rt4chart_plugins.adapters.common.verifier.build_verifier` takes, for
    one framework: an LLM object of the ``accepts`` classes becomes a ``judge_class`` (the adapter's
    ``judge_kwargs`` passed on); any other object is not this framework's LLM (None), which
    ``build_verifier`` refuses with the choices there are."""

    def wrap(llm: Any, **kwargs: Any) -> Judge | None:
        return judge_class(llm, **kwargs) if isinstance(llm, accepts) else None

    return wrap


def as_json_text(value: Any) -> str:
    """A framework's result (pydantic object, dict, list, or reply text) as JSON text."""
    if value is None:
        return ""
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return extract_json_text(str(value))


def message_text(content: Any) -> str:
    """The text of a chat message's content: a string, or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") in (None, "text") and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "".join(parts)
    return "" if content is None else str(content)


def model_label(obj: Any, framework: str) -> str:
    """``framework:Class:model`` — the judge's name, in reports and in the cache key."""
    model = None
    for attr in ("model_name", "model", "model_id", "name"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            model = value
            break
    return f"{framework}:{type(obj).__name__}" + (f":{model}" if model else "")
