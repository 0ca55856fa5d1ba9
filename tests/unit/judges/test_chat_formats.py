"""The openai judge's structured-output forms against loopback servers that each take some of them,
as llama.cpp's, vLLM's, Ollama's and OpenAI's do: the best form a server takes is found, learnt
once per base URL and model, and never given up for a failure that is not about the form."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading

import pytest

from rt4chart_plugins import JudgeUnavailable, Verifier

pytest.importorskip("openai")

from rt4chart_plugins.judges import openai_compat  # noqa: E402
from rt4chart_plugins.judges.openai_compat import FORMATS, OpenAIJudge, request_form  # noqa: E402

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible."]
ANSWER = "The free trial lasts 30 days."
OPTIONS = {"decomposition": "sentence", "global_verification": False, "sub_sentence_spans": False}
REPLY = json.dumps({"verdicts": [{"claim": 0, "label": "CON", "evidence": [0], "phrase": "30 days", "reason": "r"}]})


def form_of(body: dict) -> str:
    """Which of the judge's forms a request body is."""
    fmt = body.get("response_format")
    if fmt is None:
        return "guided" if "guided_json" in body and "format" in body else "prompt"
    if fmt.get("type") == "json_schema":
        return "json_schema"
    return "json_object_schema" if "schema" in fmt else "json_object"


@contextlib.contextmanager
def server(takes: set[str], seen: list[str], *, status: int = 500, message: str = "unsupported response format"):
    """A chat-completions endpoint that answers the forms in ``takes`` with a verdict and the
    others with ``status`` (llama.cpp's server answers json_schema with a 500)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            form = form_of(body)
            seen.append(form)
            if form in takes:
                message_ = {"role": "assistant", "content": REPLY}
                payload, code = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                 "choices": [{"index": 0, "finish_reason": "stop", "message": message_}],
                                 "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}, 200
            else:
                payload, code = {"error": {"message": message}}, status
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()


def _labels(url: str, **kw) -> tuple[list[str], OpenAIJudge]:
    judge = OpenAIJudge("m", base_url=url, cache=False, max_retries=0, **kw)
    report = Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
    assert report.state == "verified", report.error
    return [c.label.value for c in report.claims], judge


@pytest.mark.parametrize("takes,found", [
    ({"json_schema", "json_object_schema", "json_object", "prompt"}, "json_schema"),  # OpenAI
    ({"json_object_schema", "json_object", "prompt"}, "json_object_schema"),  # llama.cpp's server
    ({"guided", "json_object", "prompt"}, "guided"),  # vLLM, Ollama (unknown fields ignored)
    ({"json_object", "prompt"}, "json_object"),
    ({"prompt"}, "prompt"),
])
def test_the_best_form_a_server_takes_is_found_and_learnt_once_per_endpoint(takes, found):
    seen: list[str] = []
    with server(takes, seen) as url:
        labels, judge = _labels(url)
        assert labels == ["CON"] and judge._schema_mode == found
        assert seen == list(FORMATS[: FORMATS.index(found) + 1])  # each rejected form asked once
        assert (judge.fallback_reason is None) == (found == FORMATS[0])
        seen.clear()
        labels, again = _labels(url)  # frameworks re-create the judge per row
        assert labels == ["CON"] and seen == [found] and again._schema_mode == found


@pytest.mark.parametrize("status,message", [
    (429, "rate limited"), (401, "bad key"), (503, "unavailable"),
    (400, "this model's maximum context length is 4096 tokens"), (500, "oops"),  # a bare 500: the server failing
])
def test_a_failure_that_is_not_about_the_form_keeps_the_form(status, message):
    seen: list[str] = []
    with server(set(), seen, status=status, message=message) as url:
        judge = OpenAIJudge("other", base_url=url, cache=False, max_retries=0, breaker_after=100)
        if status == 401:  # the key: the verification stops, whatever the form
            with pytest.raises(JudgeUnavailable):
                Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
        else:
            assert Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER).state == "failed"
    assert judge._schema_mode == "json_schema" and set(seen) == {"json_schema"}
    assert openai_compat._LEARNT.get((url, "other")) is None


def test_every_form_but_openai_s_carries_the_schema_in_the_prompt():
    """A small model held to a grammar still needs to know what each field means."""
    schema = {"type": "object"}
    for form in FORMATS:
        messages, extra = request_form(form, "SYSTEM", "USER", schema, "verdicts")
        assert messages[1] == {"role": "user", "content": "USER"}
        assert ('{"type":"object"}' in messages[0]["content"]) == (form != "json_schema"), form
    assert request_form("json_object_schema", "s", "u", schema, "v")[1] == {
        "response_format": {"type": "json_object", "schema": schema}}
    assert request_form("guided", "s", "u", schema, "v")[1] == {"extra_body": {"guided_json": schema, "format": schema}}
    assert request_form("prompt", "s", "u", schema, "v")[1] == {}
