"""What a failed judge request means, read from whichever client raised it.

The built-in ``openai`` judge and the frameworks' own LLMs (LangChain's ``ChatOpenAI``,
LlamaIndex's ``OpenAILike``, DeepEval's models, a Ragas ``llm_factory`` LLM) all fail with their
own exception types, usually wrapping the HTTP response of an ``openai`` or ``httpx`` client a
level or two down. Importing every framework to ask ``isinstance`` would tie the core to all of
them, so the exception and the ones it was raised from are read by shape instead: an HTTP status
(``status_code``, ``status`` or ``response.status_code``), the response's headers, and the
exception's class name. One reading serves every client, so a 401 stops a batch and a
``Retry-After`` is honoured whichever client the user handed us.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

#: the key, the permission, the model or URL: every other request would get the same answer
FATAL_STATUS = frozenset({401, 403, 404})
#: worth another try: timeout, conflict, rate limit, and any server error
TRANSIENT_STATUS = frozenset({408, 409, 429})
#: class names of transport failures (openai's APIConnectionError/APITimeoutError, httpx's
#: ConnectError/ReadTimeout, aiohttp's ClientConnectionError…) when no status is attached
_TRANSIENT_NAMES = ("timeout", "connect", "connection", "ratelimit", "serviceunavailable", "remoteprotocol")


def causes(exc: BaseException, depth: int = 6, *, shown: bool = False) -> Iterator[BaseException]:
    """The exception, then what it was raised from (``__cause__``, else ``__context__``, else a
    tenacity ``RetryError``'s last attempt), at most ``depth`` deep. ``shown``: only the chain a
    traceback would show (not a context hidden by ``raise … from None``)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and len(seen) < depth and id(current) not in seen:
        seen.add(id(current))
        yield current
        hidden = shown and current.__suppress_context__
        nxt = current.__cause__ or (None if hidden else current.__context__)
        if nxt is None:
            last = getattr(current, "last_attempt", None)  # tenacity.RetryError
            try:
                nxt = last.exception() if last is not None else None
            except Exception:  # noqa: BLE001 - not a tenacity attempt after all
                nxt = None
        current = nxt if isinstance(nxt, BaseException) else None


def _status_of_one(exc: BaseException) -> int | None:
    for owner in (exc, getattr(exc, "response", None)):
        for attr in ("status_code", "status"):
            value = getattr(owner, attr, None)
            if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
                return value
    return None


def status_of(exc: BaseException) -> int | None:
    """The HTTP status the failure carries, from the exception or one it was raised from."""
    for e in causes(exc):
        status = _status_of_one(e)
        if status is not None:
            return status
    return None


def headers_of(exc: BaseException) -> dict[str, str]:
    """The failed response's headers, lower-cased keys; empty when none is attached."""
    for e in causes(exc):
        for owner in (getattr(e, "response", None), e):
            headers = getattr(owner, "headers", None)
            if headers is not None and (isinstance(headers, Mapping) or hasattr(headers, "items")):
                try:
                    return {str(k).lower(): str(v) for k, v in headers.items()}
                except Exception:  # noqa: BLE001 - a headers object we cannot read
                    continue
    return {}


def describe(exc: BaseException) -> str:
    """One line saying what failed: the exception, and the nearest one it was raised from that
    says more. A client's "Connection error." alone does not tell a reset from a refused
    connection, nor from a timeout; what it wraps does ("Server disconnected without sending a
    response.")."""
    outer = f"{type(exc).__name__}: {exc}".strip()
    inner = next(
        (
            f"{type(e).__name__}: {e}"
            for e in list(causes(exc, shown=True))[1:]
            if str(e).strip() and str(e) not in outer and type(e).__name__ != "CancelledError"
        ),
        None,
    )
    return (f"{outer} ({inner})" if inner else outer).replace("\n", " ")


def is_fatal(exc: BaseException) -> bool:
    return status_of(exc) in FATAL_STATUS


def is_transient(exc: BaseException) -> bool:
    """A timeout, a dropped connection, a rate limit or a server error: the same request may
    succeed later. A 4xx other than 408/409/429 is the request's own fault and is not retried."""
    status = status_of(exc)
    if status is not None:
        return status in TRANSIENT_STATUS or status >= 500
    for e in causes(exc):
        if isinstance(e, (TimeoutError, ConnectionError)):
            return True
        name = type(e).__name__.lower()
        if any(part in name for part in _TRANSIENT_NAMES):
            return True
    return False


def is_rate_limit_or_transport(exc: BaseException) -> bool:
    """Transient for a reason that has nothing to do with what was asked: a timeout, a dropped
    connection, 408/409/429. A 5xx is left out: llama.cpp's server answers a response format it
    does not support with a 500, so after a structured request it may mean "not this request"."""
    status = status_of(exc)
    if status is not None:
        return status in TRANSIENT_STATUS
    return is_transient(exc)


def retry_after(exc: BaseException) -> float | None:
    """Seconds the endpoint asked us to wait, if its response said."""
    return retry_after_seconds(headers_of(exc))


def retry_after_seconds(headers: Mapping[str, Any]) -> float | None:
    """The wait a 429/503 asks for: ``retry-after-ms``, else ``Retry-After`` in seconds or as an
    HTTP date (RFC 9110 §10.2.3); None when absent or unreadable. Keys are matched lower-case."""
    lowered = {str(k).lower(): v for k, v in headers.items()}
    ms = _seconds(lowered.get("retry-after-ms"), 1000.0)
    if ms is not None:
        return ms
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _seconds(value, 1.0)
    if seconds is not None:
        return seconds
    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


def _seconds(value: Any, per_second: float) -> float | None:
    """A header's number of (milli)seconds, None when absent, unreadable, NaN or infinite."""
    if value is None:
        return None
    try:
        number = float(value) / per_second
    except (TypeError, ValueError):
        return None
    return max(number, 0.0) if math.isfinite(number) else None
