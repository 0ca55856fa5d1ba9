"""What a framework's judge is built on: the one module of the judges the adapters import.

A framework's adapter wraps that framework's LLM object into a :class:`ChatJudge` that only says
how to send one request (:class:`ChatReply` is what it hands back, :func:`prompt_messages` the
chat messages of a prompt); it reads the framework's reply into JSON text
(:func:`extract_json_text`), offers the framework the lenient structured-output models
(:data:`RESPONSE_MODELS`), tells a rate limit or a dropped connection, which the retry loop
takes, from a rejected request (:func:`is_rate_limit_or_transport`), and tells a judge's name
from the framework's model name (:func:`is_judge_name`, :data:`JUDGE_NAMES`, :func:`offered`).
Everything else under ``rt4chart_plugins.judges`` is the judges' own and may move; what is named
here stays, so a new framework's adapter is written against this module and the package's public
façade alone (tests/unit/test_layers.py holds the adapters to it).
"""

from __future__ import annotations

from pydantic import BaseModel

from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, extract_json_text, prompt_messages
from rt4chart_plugins.judges.failures import is_rate_limit_or_transport
from rt4chart_plugins.judges.registry import JUDGES, is_judge_name, offered
from rt4chart_plugins.judges.schema import LENIENT

#: the structured-output models a framework LLM is asked to fill, by schema name (``claims``,
#: ``verdicts``): loosely typed, so a small model's "SUPPORTED" or "3" still yields a verdict
RESPONSE_MODELS: dict[str, type[BaseModel]] = LENIENT
#: the judges a string names (``hf:REPO`` is ``hf``; :func:`is_judge_name` says whether a string is one)
JUDGE_NAMES: tuple[str, ...] = tuple(JUDGES)

__all__ = [
    "JUDGE_NAMES",
    "RESPONSE_MODELS",
    "ChatJudge",
    "ChatReply",
    "Judge",
    "extract_json_text",
    "is_judge_name",
    "is_rate_limit_or_transport",
    "offered",
    "prompt_messages",
]
