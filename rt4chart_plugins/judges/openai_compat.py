"""A judge behind any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, Ollama…).

Structured output is asked for in the form each server takes, best first (:data:`FORMATS`):
OpenAI's ``json_schema``; llama.cpp's ``json_object`` with a ``schema``, which its server turns
into a grammar; vLLM's ``guided_json`` and Ollama's ``format`` (sent in the request body, where
servers that do not know them ignore them); plain JSON mode; and last JSON asked for in the prompt
alone, the request every framework client sends
(:func:`rt4chart_plugins.judges.prompts.prompt_messages`). A server that rejects a form (an HTTP
400, 422 or 501 that is not about the prompt's length, or a 500 that names the form) is asked in
the next one, and the
form it took is remembered per base URL and model for the process: frameworks re-create their
metrics, and so this judge, per row. A small local model asked for JSON in the prompt alone often
writes none; held to a grammar it always does. Every form but ``json_schema`` also carries the
schema in the prompt, so a model held to a grammar knows what each field means.

Temperature 0 and a fixed seed make runs repeatable where the server honours them; the cache makes
them free. The public API needs a key: without one (no ``api_key``, no ``$OPENAI_API_KEY``) and
no ``base_url`` the judge is refused when it is built, instead of failing every row after its
retries.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Mapping
from typing import Any, Literal

from rt4chart_plugins.config import AtLeastOne, Seconds, checked
from rt4chart_plugins.errors import InvalidInput, InvalidReply, MissingExtra
from rt4chart_plugins.judges.base import VerifyRequest, VerifyResult
from rt4chart_plugins.judges.chat import ChatJudge
from rt4chart_plugins.judges.chat.transport import ChatReply, content_text, token_count, within
from rt4chart_plugins.judges.openai_readout import TOP_LOGPROBS, verify_by_premise, yes_probability
from rt4chart_plugins.judges.prompts import prompt_messages
from rt4chart_plugins.types import Cost

#: how the judge reads a claim: the verdict the model writes in JSON, or the premise read's
#: Yes/No probabilities (:mod:`.openai_readout`)
READS = ("reply", "premise")
#: the structured-output forms, asked in this order until a server takes one
FORMATS = ("json_schema", "json_object_schema", "guided", "json_object", "prompt")
#: (base URL, model) → the form its server took (or the next one to try, after a rejection)
_LEARNT: dict[tuple[str | None, str], str] = {}
#: statuses with which a server rejects a request form it does not support (llama.cpp: 500)
_REJECTING = frozenset({400, 422, 500, 501})
#: words with which a 500 names the request's form (llama-cpp-python's: a validation error of response_format)
_FORM_WORDS = ("response_format", "json_schema", "schema", "grammar", "guided", "format")
#: words of a rejection that is about the prompt, not the form: another form would not help
_NOT_THE_FORM = ("context length", "context_length", "maximum context", "too long", "too many tokens", "n_ctx")
NO_KEY = (
    "the openai judge needs an API key for api.openai.com: set OPENAI_API_KEY or pass --api-key "
    "(api_key=...), or point it at your own server with --base-url (base_url=...)"
)


def refused_options(options: Mapping[str, Any]) -> InvalidInput | None:
    """The registry's check, when a verifier is built: the public API with no key would fail
    every row, after its retries, with a 401 that does not say which setting is missing."""
    base_url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL")
    key = options.get("api_key") or os.environ.get("OPENAI_API_KEY")
    return InvalidInput(NO_KEY) if not base_url and not key else None


def request_form(form: str, system: str, user: str, schema: dict, schema_name: str) -> tuple[list[dict], dict]:
    """The messages and the extra request fields of one structured-output form."""
    if form == "json_schema":
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        json_schema = {"name": schema_name, "schema": schema, "strict": True}
        return messages, {"response_format": {"type": "json_schema", "json_schema": json_schema}}
    prompt_system, prompt_user = prompt_messages(system, user, schema)
    messages = [{"role": "system", "content": prompt_system}, {"role": "user", "content": prompt_user}]
    if form == "json_object_schema":  # llama.cpp's server (and llama-cpp-python's): a grammar from the schema
        return messages, {"response_format": {"type": "json_object", "schema": schema}}
    if form == "guided":  # vLLM's guided decoding; Ollama's format
        return messages, {"extra_body": {"guided_json": schema, "format": schema}}
    if form == "json_object":
        return messages, {"response_format": {"type": "json_object"}}
    return messages, {}


def rejects_form(exc: BaseException) -> bool:
    """Whether an error says the server does not take the request's form (rather than the key,
    the model, a rate limit, a gateway that is down, or a prompt too long). A 500 counts only when
    it names the form: llama-cpp-python's names ``response_format``, while a bare 500 is a server
    failing, retried as one, which must not cost the endpoint its grammar."""
    status = getattr(exc, "status_code", None)
    text = str(exc).lower()
    if status not in _REJECTING or any(w in text for w in _NOT_THE_FORM):
        return False
    return status != 500 or any(w in text for w in _FORM_WORDS)


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
        read: Literal["reply", "premise"] = "reply",
        **kwargs: Any,
    ):
        try:
            import openai  # noqa: F401
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise MissingExtra("openai", "openai") from exc
        self.model = model or os.environ.get("RT4CHART_OPENAI_MODEL") or "gpt-4o-mini"
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        if error := refused_options({"base_url": base_url, "api_key": api_key}):
            raise error
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self.temperature = temperature
        self.seed = seed
        self.timeout = checked("timeout", timeout, Seconds)
        self.max_tokens = checked("max_tokens", max_tokens, AtLeastOne)
        if read not in READS:
            raise InvalidInput(f"read must be one of {', '.join(map(repr, READS))} (got {read!r})")
        self.read = read
        if read == "premise":  # the premise read judges each sentence's clauses within it, on one window
            self.one_window = self.clause_claims = True
        # the structured-output form to ask in: the one this endpoint took earlier in this process
        self._schema_mode = _LEARNT.get(self._endpoint(), FORMATS[0])
        self.fallback_reason: str | None = (  # why it is not the first form
            f"this server rejected the forms before {self._schema_mode} earlier in this process"
            if self._schema_mode != FORMATS[0]
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

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        """``read="reply"``: the verdicts the model writes in JSON (:class:`ChatJudge`);
        ``read="premise"``: the premise read off its log probabilities (:mod:`.openai_readout`)."""
        if self.read == "reply":
            return await super().verify(request, cost=cost)
        return await verify_by_premise(
            self._p_yes,
            request,
            cost,
            name=f"{self.name}+premise-read",
            cache=self.cache,
            concurrency=self.concurrency,
        )

    async def _p_yes(self, system: str, user: str, cost: Cost) -> float:
        """One Yes/No question, one token long, with its retries: P(Yes) against P(No)."""
        return await self._retrying(lambda: self._yes_no(system, user, cost))

    async def _yes_no(self, system: str, user: str, cost: Cost) -> float:
        resp = await within(
            self.timeout,
            self._client().chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                temperature=0.0,
                seed=self.seed,
                max_tokens=1,
                logprobs=True,
                top_logprobs=TOP_LOGPROBS,
            ),
        )
        choice = _first_choice(self.name, resp)
        used = getattr(resp, "usage", None)  # counts read as every reply's are: a NaN or a negative one is 0
        cost.prompt_tokens += token_count(getattr(used, "prompt_tokens", 0))
        cost.completion_tokens += token_count(getattr(used, "completion_tokens", 0))
        content = getattr(getattr(choice, "logprobs", None), "content", None) or []
        first = (getattr(content[0], "top_logprobs", None) or []) if content else []
        top = [(str(t.token), float(t.logprob)) for t in first]
        return yes_probability(top, content_text(choice.message.content))

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        import openai

        while True:
            form = self._schema_mode
            messages, fmt = request_form(form, system, user, schema, schema_name)
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
                # A server that does not take this form (llama.cpp's answers json_schema with a
                # 500) is asked in the next one: learnt once per endpoint and model, so one
                # endpoint gives one set of verdicts.
                if form == FORMATS[-1] or not rejects_form(exc):
                    raise
                if self._schema_mode == form:  # not moved on already by a request beside this one
                    self._schema_mode = FORMATS[FORMATS.index(form) + 1]
                    _LEARNT[self._endpoint()] = self._schema_mode
                    self.fallback_reason = f"{form}: {type(exc).__name__}: {exc}"[:300]
        choice = _first_choice(self.name, resp)
        usage = getattr(resp, "usage", None)
        return ChatReply(
            text=choice.message.content or "",
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
            cut=getattr(choice, "finish_reason", None) == "length",
        )


def _first_choice(name: str, resp: Any) -> Any:
    """The completion's first choice; :class:`InvalidReply` when the endpoint answered with none."""
    choices = getattr(resp, "choices", None)
    if choices is None:  # the client hands back what it could not parse: an HTML page, plain text
        raise InvalidReply(
            f"{name}: the endpoint answered with no chat completion "
            f"({type(resp).__name__} {str(resp)[:80]!r}); check the URL"
        )
    if not choices:
        raise InvalidReply(f"{name}: the endpoint's completion has no choices")
    return choices[0]
