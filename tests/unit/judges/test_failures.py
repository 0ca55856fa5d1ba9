"""A failed request is read the same whichever client raised it: the real exception types of
openai and httpx, wrapped the way frameworks wrap them (raised from, or a tenacity RetryError)."""

from __future__ import annotations

import asyncio

import pytest

from rt4chart_plugins.judges import failures

httpx = pytest.importorskip("httpx")
openai = pytest.importorskip("openai")

REQUEST = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")


def response(status: int, **headers: str):
    return httpx.Response(status, headers=headers, request=REQUEST, json={"error": {"message": "x"}})


def openai_error(status: int, **headers: str) -> Exception:
    resp = response(status, **headers)
    cls = {401: openai.AuthenticationError, 404: openai.NotFoundError, 429: openai.RateLimitError,
           500: openai.InternalServerError}.get(status, openai.APIStatusError)
    return cls("x", response=resp, body=None)


def wrapped(inner: Exception) -> Exception:
    """What a framework raises: its own type, raised from the client's error."""
    class FrameworkError(Exception):
        pass
    try:
        try:
            raise inner
        except Exception as exc:
            raise FrameworkError("the LLM call failed") from exc
    except FrameworkError as outer:
        return outer


@pytest.mark.parametrize("status,fatal,transient", [
    (401, True, False), (403, True, False), (404, True, False), (400, False, False), (422, False, False),
    (408, False, True), (409, False, True), (429, False, True), (500, False, True), (503, False, True),
])
def test_the_status_decides_whatever_wraps_it(status, fatal, transient):
    for exc in (openai_error(status), wrapped(openai_error(status)),
                httpx.HTTPStatusError("x", request=REQUEST, response=response(status))):
        assert failures.status_of(exc) == status
        assert (failures.is_fatal(exc), failures.is_transient(exc)) == (fatal, transient), exc


def test_transport_failures_without_a_status_are_transient():
    for exc in (openai.APIConnectionError(request=REQUEST), openai.APITimeoutError(request=REQUEST),
                httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), asyncio.TimeoutError(),
                ConnectionResetError(), wrapped(httpx.ConnectError("refused"))):
        assert failures.is_transient(exc) and not failures.is_fatal(exc), exc
    assert not failures.is_transient(ValueError("bad json")) and not failures.is_fatal(ValueError("x"))


def test_retry_after_is_read_from_the_wrapped_response_in_each_form():
    assert failures.retry_after(wrapped(openai_error(429, **{"Retry-After": "3"}))) == 3.0
    assert failures.retry_after(openai_error(429, **{"retry-after-ms": "250"})) == 0.25
    assert failures.retry_after(openai_error(503, **{"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    for bad in ("soon", "nan", "inf", "-inf"):
        assert failures.retry_after(openai_error(429, **{"Retry-After": bad})) is None, bad
    assert failures.retry_after(openai_error(429)) is None
    assert failures.retry_after(ValueError("no response")) is None


def test_a_tenacity_retry_error_is_read_through_its_last_attempt():
    tenacity = pytest.importorskip("tenacity")

    @tenacity.retry(stop=tenacity.stop_after_attempt(1))
    def call():
        raise openai_error(401)

    with pytest.raises(tenacity.RetryError) as info:
        call()
    assert failures.is_fatal(info.value)


def test_a_cycle_of_causes_ends():
    a, b = ValueError("a"), ValueError("b")
    a.__cause__, b.__cause__ = b, a
    assert [type(e) for e in failures.causes(a)] == [ValueError, ValueError]
    assert failures.status_of(a) is None


def test_a_5xx_after_a_structured_request_is_not_blamed_on_the_transport():
    """llama.cpp's server answers an unsupported response format with a 500: the adapters then
    ask for JSON in the prompt instead of retrying the same request."""
    assert not failures.is_rate_limit_or_transport(openai_error(500))
    assert not failures.is_rate_limit_or_transport(wrapped(openai_error(400)))
    assert failures.is_rate_limit_or_transport(openai_error(429))
    assert failures.is_rate_limit_or_transport(openai.APIConnectionError(request=REQUEST))
    assert failures.is_rate_limit_or_transport(wrapped(httpx.ReadTimeout("slow")))
