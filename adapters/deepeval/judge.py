"""A deepeval model as an RT4CHART judge, so that ``RT4ChartMetric(model=...)`` judges with a model
named or built as deepeval's own metrics take it (``"gpt-4.1"``, a ``DeepEvalBaseLLM``)."""

from __future__ import annotations

from typing import Any

from deepeval.models import DeepEvalBaseLLM
from pydantic import BaseModel
from rt4chart_plugins.adapters.common.llm import RESPONSE_MODELS, as_json_text, llm_wrap
from rt4chart_plugins.adapters.common.openai_chat import ask_openai, openai_client

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.kit import ChatJudge, ChatReply, is_judge_name, is_rate_limit_or_transport, prompt_messages


class DeepEvalJudge(ChatJudge):
    """A deepeval model (``DeepEvalBaseLLM``: ``a_generate(prompt, schema=...)``) as an RT4CHART
    judge. The schema is passed as a pydantic class where the model takes one; a model that
    returns text (or ``(result, cost)``) is parsed leniently, and a structured call that the model
    (or deepeval's strict JSON check) fails is asked again for plain text, parsed leniently."""

    def __init__(self, model: Any, *, name: str | None = None, **kwargs: Any):
        if not isinstance(model, DeepEvalBaseLLM):
            raise InvalidInput(f"DeepEvalJudge needs a deepeval DeepEvalBaseLLM, got {type(model).__name__}")
        self.model = model
        self.schema_failures = 0  # structured calls that failed and were asked again as text
        self._client_unusable = False
        try:
            model_name = model.get_model_name()
        except Exception:  # noqa: BLE001 - a custom model may not implement it well
            model_name = None
        super().__init__(
            name=name or f"deepeval:{type(model).__name__}" + (f":{model_name}" if model_name else ""), **kwargs
        )

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        client = self._model_client()
        if client is not None:
            return await self._complete_openai(client, system, user, schema)
        prompt = "\n\n".join(prompt_messages(system, user, schema))
        response_model = RESPONSE_MODELS.get(schema_name)
        generate = getattr(self.model, "a_generate_with_schema", None)
        result = None
        if response_model is not None and generate is not None:
            try:
                result = await generate(prompt, schema=response_model)
            except Exception as exc:
                # deepeval's own parsing rejects JSON that RT4CHART can still salvage (a verdict list
                # cut short, prose around it), and a server may refuse the schema (llama.cpp: a 500):
                # ask again for plain text and parse it leniently. A bad key, a rate limit or a
                # dropped connection goes to the retry loop instead.
                if self._is_fatal(exc) or is_rate_limit_or_transport(exc):
                    raise
                self.schema_failures += 1
            else:
                if _is_empty(result):
                    # a valid but empty VerdictsOut(verdicts=[]): the lenient model's defaults
                    # filled in for a reply it could not read; the reply itself may still hold verdicts
                    self.schema_failures += 1
                    result = None
        if result is None:
            result = await self.model.a_generate(prompt)
        if isinstance(result, tuple) and len(result) == 2:  # native models: (result, cost)
            result = result[0]
        return ChatReply(as_json_text(result))

    def _model_client(self) -> Any:
        """The openai client of deepeval's OpenAI-backed models (``LocalModel``, ``GPTModel``, ...),
        built by the model itself from its own settings (base URL, key, timeout). Asked directly,
        it sends the shared two-message request and returns the token usage that the model's
        ``a_generate`` drops."""
        if self._client_unusable:
            return None
        try:
            client = openai_client(self.model.load_model(async_mode=True), sync=False)
        except Exception:  # noqa: BLE001 - not an OpenAI-backed model
            client = None
        if client is None or not isinstance(getattr(self.model, "name", None), str):
            self._client_unusable = True
            return None
        return client

    async def _complete_openai(self, client: Any, system: str, user: str, schema: dict) -> ChatReply:
        params: dict[str, Any] = dict(getattr(self.model, "generation_kwargs", None) or {})
        temperature = getattr(self.model, "temperature", None)
        if temperature is not None and getattr(self.model, "supports_temperature", lambda: True)() is not False:
            params.setdefault("temperature", temperature)
        try:
            return await ask_openai(client, self.model.name, system, user, schema, params)
        finally:
            await client.close()

    def usd(self, prompt_tokens: int, completion_tokens: int) -> float:
        """What these tokens cost, as deepeval prices this model (0.0 for a model it has no price
        for, such as a ``LocalModel``)."""
        calculate = getattr(self.model, "calculate_cost", None)
        if not callable(calculate):
            return 0.0
        try:
            return float(calculate(prompt_tokens, completion_tokens) or 0.0)
        except Exception:  # noqa: BLE001 - no price known
            return 0.0


def _is_empty(result: Any) -> bool:
    """A structured result whose every list is empty (no claim, no verdict)."""
    if isinstance(result, tuple) and len(result) == 2:
        result = result[0]
    if not isinstance(result, BaseModel):
        return False
    lists = [v for v in result.model_dump().values() if isinstance(v, list)]
    return bool(lists) and not any(lists)


#: a ``DeepEvalBaseLLM`` as the judge; anything else is not deepeval's
wrap = llm_wrap(DeepEvalJudge, DeepEvalBaseLLM)


def resolve_judge(judge: Any) -> Any:
    """deepeval model names ("gpt-4.1", ...) become deepeval's own model objects."""
    if isinstance(judge, str) and not is_judge_name(judge):
        from deepeval.metrics.utils import initialize_model

        try:
            model, _native = initialize_model(judge)
        except Exception as exc:  # noqa: BLE001 - deepeval's own errors (no API key, unknown name)
            raise InvalidInput(f"deepeval could not build the judge model {judge!r}: {exc}") from None
        return model
    return judge
