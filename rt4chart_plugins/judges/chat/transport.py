"""Sending one request to a chat endpoint until it answers, or until it is clear that it will not.

Kept apart from what is asked and how the reply is read, because the rules of a good client are the
same whatever the request: bounded concurrency (one semaphore per event loop), retries with backoff
that honour the endpoint's ``Retry-After``, a circuit breaker that stops asking an endpoint that is
down, and a total deadline per request (:func:`within`). A subclass says how one request is sent
(:meth:`ChatTransport._complete`); the failures are classified in
:mod:`~rt4chart_plugins.judges.failures`.
"""

from __future__ import annotations

import asyncio
import math
import random
import weakref
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from rt4chart_plugins.config import AtLeastOne, AtLeastZero, SecondsOrNone, checked
from rt4chart_plugins.errors import InvalidReply, JudgeError, JudgeUnavailable
from rt4chart_plugins.judges import failures

T = TypeVar("T")


@dataclass
class ChatReply:
    """One reply as every client hands it over. Clients differ: a message's content may be a list
    of parts (``[{"type": "text", "text": …}]``) or None, and a server's usage counts may be
    missing, negative or NaN. Read here once, so that what follows sees text and whole counts,
    never a list where a string goes nor a NaN in :class:`~rt4chart_plugins.types.Cost`."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cut: bool = False  # the server says it stopped the reply early (OpenAI's finish_reason "length")

    def __post_init__(self) -> None:
        self.text = content_text(self.text)
        self.prompt_tokens = token_count(self.prompt_tokens)
        self.completion_tokens = token_count(self.completion_tokens)


def content_text(content: object) -> str:
    """A message's content as text: a string as is, a list of parts joined (each part a string,
    or a mapping whose ``text`` is one), anything else empty."""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(content_text(p.get("text") if isinstance(p, dict) else p) for p in content)
    text = getattr(content, "text", None)  # a client's own part object
    return text if isinstance(text, str) else ""


def token_count(value: object) -> int:
    """A usage count as a whole number of at least 0; 0 when the server's is missing, negative,
    not a whole number, NaN or infinite (a count that cannot be trusted is not counted)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(value, 0)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return max(int(value), 0)
    return 0


async def within(seconds: float | None, request: Awaitable[T]) -> T:
    """``await request``, cut at ``seconds`` in all: a client's own timeout bounds each read of a
    reply, so a server that trickles its body a byte at a time is never timed out by it. Past the
    deadline the request is cancelled and a :class:`TimeoutError` saying so is raised (transient:
    retried as any timeout)."""
    if seconds is None:
        return await request
    try:
        return await asyncio.wait_for(request, seconds)
    except asyncio.TimeoutError:
        raise TimeoutError(f"no complete reply within {seconds:g} s") from None


class ChatTransport(ABC):
    """One request at a time through :meth:`_send`: subclasses implement :meth:`_complete` (one
    request, no retries). ``name`` names the endpoint in every error."""

    name: str

    def __init__(
        self,
        *,
        concurrency: int = 4,
        max_retries: int = 4,
        backoff: float = 1.0,
        max_retry_after: float = 60.0,
        breaker_after: int = 8,
    ):
        self.concurrency = checked("concurrency", concurrency, AtLeastOne)
        self.max_retries = checked("max_retries", max_retries, AtLeastZero)
        self.backoff = checked("backoff", backoff, SecondsOrNone)
        self.max_retry_after = checked("max_retry_after", max_retry_after, SecondsOrNone)
        self.breaker_after = checked("breaker_after", breaker_after, AtLeastOne)
        #: failed attempts since the last success, across every request (the circuit breaker's count)
        self._failures_in_a_row = 0
        #: set once the endpoint is known unusable: every later request fails at once, unsent
        self._unavailable: JudgeUnavailable | None = None
        #: requests sent, retries included (what the endpoint saw)
        self.attempts = 0
        # one semaphore per event loop, dropped with its loop: frameworks run us on fresh loops
        self._semaphores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @abstractmethod
    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        """Send one request; raise on failure (``_is_transient`` decides whether to retry)."""

    def _is_transient(self, exc: BaseException) -> bool:
        """Worth retrying: a timeout, a dropped connection, 408/409/429 or a 5xx, whichever client
        raised it (:mod:`~rt4chart_plugins.judges.failures`)."""
        return failures.is_transient(exc)

    def _is_fatal(self, exc: BaseException) -> bool:
        """A failure no other request can avoid (401/403/404: bad key, no such model): stop asking."""
        return failures.is_fatal(exc)

    def _retry_after(self, exc: BaseException) -> float | None:
        """Seconds the endpoint asked us to wait before retrying (``Retry-After``), if it said."""
        return failures.retry_after(exc)

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if loop not in self._semaphores:
            self._semaphores[loop] = asyncio.Semaphore(self.concurrency)
        return self._semaphores[loop]

    async def _send(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        """One JSON request (:meth:`_complete`) with its retries (:meth:`_retrying`)."""
        return await self._retrying(lambda: self._complete(system, user, schema, schema_name))

    async def _retrying(self, request: Callable[[], Awaitable[T]]) -> T:
        """``await request()`` with its retries: transient failures wait (the endpoint's
        ``Retry-After`` when it gives one, else exponential backoff with jitter) and try again, up
        to ``max_retries`` times. A fatal failure (401/403/404), or ``breaker_after`` failed
        attempts in a row across all requests (the endpoint is down), raises
        :class:`JudgeUnavailable`; from then on every request fails at once without being sent."""
        attempt = 0
        while True:
            if self._unavailable is not None:
                raise self._unavailable
            try:
                async with self._semaphore():
                    if self._unavailable is not None:  # opened while this request waited its turn
                        raise self._unavailable
                    self.attempts += 1
                    reply = await request()
                self._failures_in_a_row = 0
                return reply
            except (JudgeUnavailable, InvalidReply):
                raise
            except Exception as exc:  # noqa: BLE001 - classified below
                attempt += 1
                what = failures.describe(exc)
                if self._is_fatal(exc):
                    self._unavailable = JudgeUnavailable(
                        f"{self.name} refused the request ({what}); check the key, the model name and the "
                        f"URL. No further request was sent; re-run to score the rows left"
                    )
                    raise self._unavailable from exc
                if not self._is_transient(exc):
                    raise JudgeError(f"{self.name}: {what}") from exc
                self._failures_in_a_row += 1
                if self._failures_in_a_row >= self.breaker_after:
                    self._unavailable = JudgeUnavailable(
                        f"{self.name} failed {self._failures_in_a_row} attempts in a row (last: {what}); the "
                        f"endpoint looks down, so the rest were not sent. Re-run to resume once it is back"
                    )
                    raise self._unavailable from exc
                if attempt > self.max_retries:
                    raise JudgeError(f"{self.name}: {what} (after {attempt} attempts)") from exc
                await asyncio.sleep(self._delay(exc, attempt))

    def _delay(self, exc: BaseException, attempt: int) -> float:
        asked = self._retry_after(exc)
        if asked is not None:
            return min(max(asked, 0.0), self.max_retry_after)
        return self.backoff * (2 ** (attempt - 1)) * (0.5 + random.random())
