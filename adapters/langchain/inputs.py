"""A chain's values as the core takes them (a ``Document`` as its text, a chat message as its text),
and the cited documents' metadata carried back onto the evidence, for the Runnable and the
LangSmith evaluator alike."""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from typing import Any

from langchain_core.documents import Document
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable
from rt4chart_plugins.adapters.common.llm import message_text

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import Report


def to_context(value: Any) -> Any:
    """A chain's context as the core takes it: a string, or one string per passage or ``Document``
    (its ``page_content``). What is no text (None, a number) is left as it is, for the row's
    checks to name (:func:`rt4chart_plugins.adapters.common.rows.read_row`)."""
    if isinstance(value, Document):
        return [value.page_content]
    if isinstance(value, (list, tuple)):
        return [_passage_text(item) for item in value]
    return value


def _passage_text(item: Any) -> Any:
    if isinstance(item, Document):
        return item.page_content
    if isinstance(item, Mapping) and isinstance(item.get("page_content"), str):
        return item["page_content"]
    return item


def passage_metadata(value: Any) -> list[dict[str, Any] | None]:
    """Each passage's metadata (a ``Document``'s, or a mapping's ``metadata``), in passage order."""
    items = [value] if isinstance(value, Document) else value if isinstance(value, (list, tuple)) else []
    out: list[dict[str, Any] | None] = []
    for item in items:
        metadata = (
            item.metadata
            if isinstance(item, Document)
            else (item.get("metadata") if isinstance(item, Mapping) else None)
        )
        # JSON-safe, as the report must always serialize: what JSON has no type for becomes its text
        out.append(
            json.loads(json.dumps(metadata, default=str)) if isinstance(metadata, Mapping) and metadata else None
        )
    return out


def cite_documents(report: Report, metadata: list[dict[str, Any] | None]) -> Report:
    """Each evidence sentence carries the metadata of the document it was cited from."""
    for claim in report.claims:
        for evidence in claim.evidence:
            if 0 <= evidence.passage < len(metadata) and metadata[evidence.passage] is not None:
                evidence.metadata = metadata[evidence.passage]
    return report


def to_answer(value: Any) -> Any:
    """A chain's answer as text: a string, or the text of a chat message (anything else is left
    for the row's checks to name)."""
    if isinstance(value, BaseMessage):
        return message_text(value.content)
    return value


def _fixed(source: Any) -> bool:
    return isinstance(source, (str, Document)) or (
        isinstance(source, (list, tuple)) and all(isinstance(i, (str, Document, Mapping)) for i in source)
    )


def check_source(source: Any) -> None:
    """Refuse, when the Runnable is built, a ``context=`` that is none of the kinds it takes."""
    if source is None or _fixed(source) or isinstance(source, Runnable) or callable(source):
        return
    raise InvalidInput(
        "context= takes a retriever (or any Runnable, or a function) asked the question, or the context itself "
        f"(a string, a list of strings or of Documents); got {type(source).__name__}"
    )


async def fetch_context(source: Any, question: Any, owner: str, question_key: str) -> Any:
    """The context from a ``context=`` source: the context itself, or what a retriever (a
    Runnable, a function, sync or async) returns for the question. A source that needs the
    question gets none: one line saying how to bring it."""
    if _fixed(source):
        return list(source) if isinstance(source, tuple) else source
    if isinstance(question, BaseMessage):
        question = message_text(question.content)
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput(
            f"{owner}(context=...) asks its retriever the question, and the input has none: wrap the chain, "
            f"{owner}(context=retriever).around(chain), so that the chain's input is the question, or give the "
            f"input a {question_key!r} key"
        )
    if isinstance(source, Runnable):
        return await source.ainvoke(question)
    out = source(question)
    return await out if inspect.isawaitable(out) else out
