"""How a chat judge reads what framework LLMs actually reply: an empty but valid verdict list is
no verdict (asked again with a prompt that says what is missing, not answered from the cache), a
CON that cites nothing gets the refuting sentence, ids written as "[1]" or "S1" still count, and
every client sends the same JSON-in-the-prompt request. The replies are canned (the parsing is
what is under test); the real-model tests are in tests/integration/adapters."""

from __future__ import annotations

import contextlib
import json
import sys

import pytest

from rt4chart_plugins import Verifier
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, prompt_messages
from rt4chart_plugins.judges.schema import VERIFY_SCHEMA

CONTEXT = ["The free trial lasts 14 days.", "Only verified new users are eligible for the trial."]
ANSWER = "The free trial lasts 30 days. Verified new users are eligible."
OPTIONS = {"decomposition": "sentence", "global_verification": False, "sub_sentence_spans": False}


class Canned(ChatJudge):
    """Replies from a list, recording every request."""

    def __init__(self, replies: list[str], cache: bool = False):
        super().__init__(name="canned", cache=cache)
        self.replies = list(replies)
        self.requests: list[tuple[str, str]] = []

    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        self.requests.append((system, user))
        return ChatReply(self.replies.pop(0), 10, 5)


def verdict(claim: int, label: str, evidence: list, reason: str = "r") -> dict:
    return {"claim": claim, "label": label, "evidence": evidence, "phrase": None, "reason": reason}


def test_an_empty_verdict_list_is_asked_again_with_a_different_prompt(tmp_path, monkeypatch):
    monkeypatch.setenv("RT4CHART_CACHE_DIR", str(tmp_path))
    judge = Canned([json.dumps({"verdicts": []}),
                    json.dumps({"verdicts": [verdict(0, "CON", [0]), verdict(1, "ENT", [1])]})], cache=True)
    report = Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
    assert len(judge.requests) == 2 and judge.requests[0][1] != judge.requests[1][1]
    assert "one verdict for each claim" in judge.requests[1][1]
    assert [(c.label.value, [e.sentence_id for e in c.evidence]) for c in report.claims] == [("CON", [0]), ("ENT", [1])]
    assert report.cost.judge_calls == 2 and report.cost.prompt_tokens == 20


def test_a_con_that_cites_nothing_gets_the_sentence_sharing_its_words():
    judge = Canned([json.dumps({"verdicts": [
        verdict(0, "CON", [], "The context states that the free trial lasts 14 days."),
        verdict(1, "ENT", ["S1"])]})])
    # the contrast check off: it would cite the sentence itself (below), hiding the back-fill
    report = Verifier(judge, **OPTIONS, contrast_check=False).verify(context=CONTEXT, answer=ANSWER)
    con, ent = report.claims
    assert con.label.value == "CON" and [e.sentence_id for e in con.evidence] == [0]
    assert con.evidence[0].text == CONTEXT[0] and "the judge cited no sentence" in con.reason
    assert [e.sentence_id for e in ent.evidence] == [1]  # "S1" read as sentence 1


def test_the_rules_run_after_a_chat_judge_and_say_what_the_context_says_instead():
    judge = Canned([json.dumps({"verdicts": [verdict(0, "CON", [], "r"), verdict(1, "ENT", [1])]})])
    con, _ = Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER).claims
    assert con.label.value == "CON" and [e.sentence_id for e in con.evidence] == [0]
    assert con.rule is not None and con.rule.rule == "contrast" and con.rule.judge_label is None
    assert con.reason == "The context says \u201cThe free trial lasts 14 days.\u201d, not \u201c30 days\u201d."


def test_a_nic_keeps_no_evidence_and_unrelated_words_cite_nothing():
    judge = Canned([json.dumps({"verdicts": [verdict(0, "NIC", []), verdict(1, "CON", [])]})])
    report = Verifier(judge, **OPTIONS).verify(context=["Cats sleep a lot.", "Dogs bark."], answer=ANSWER)
    assert [c.evidence for c in report.claims] == [[], []]


@pytest.mark.parametrize("reply", [
    '{"verdicts": [{"claim": "[0]", "label": "contradicted", "evidence": "[0]", "reason": "r"},'
    ' {"claim_id": 1, "label": "SUPPORTED", "evidence": [1.0], "reason": "r"}]}',
    '```json\n{"verdicts": [{"id": "0", "label": "CON", "evidence": ["sentence 0"]},'
    ' {"claim": 1, "label": "ENT", "evidence": [1, 1]}]}\n```',
])
def test_ids_as_small_models_write_them(reply):
    report = Verifier(Canned([reply]), **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
    assert [(c.label.value, [e.sentence_id for e in c.evidence]) for c in report.claims] == [("CON", [0]), ("ENT", [1])]


def test_every_client_sends_the_same_prompt_request():
    system, user = prompt_messages("SYSTEM", "USER", VERIFY_SCHEMA)
    assert system.startswith("SYSTEM") and json.dumps(VERIFY_SCHEMA, separators=(",", ":")) in system
    assert user == "USER"


@contextlib.contextmanager
def chat_server(seen: list[dict]):
    """A chat-completions endpoint on loopback that rejects ``json_schema`` response formats (as
    llama.cpp's server does, with a 500) and answers every other request with two verdicts."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            if "response_format" in body:
                payload, status = {"error": {"message": "response_format json_schema is not supported"}}, 500
            else:
                content = json.dumps({"verdicts": [verdict(0, "CON", [0]), verdict(1, "ENT", [1])]})
                payload, status = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": content}}],
                                   "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}, 200
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


def test_the_openai_judge_learns_once_per_endpoint_that_json_schema_is_rejected():
    """A server that answers every response format with an error is asked in the next form
    (docs/judges.md), by this judge and by every later judge of the same endpoint and model
    (frameworks re-create their metrics per row), so it is rejected once per process."""
    pytest.importorskip("openai")
    from rt4chart_plugins.judges.openai_compat import OpenAIJudge

    seen: list[dict] = []
    with chat_server(seen) as url:
        for _ in range(2):
            judge = OpenAIJudge("m", base_url=url, cache=False, max_retries=0)
            report = Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
            assert [c.label.value for c in report.claims] == ["CON", "ENT"] and report.cost.prompt_tokens == 7
            assert judge._schema_mode == "guided" and judge.fallback_reason
    # json_schema, then llama.cpp's json_object with a schema, both rejected; then the forms sent
    # in the body (vLLM's guided_json, Ollama's format), which this server ignores, as most do
    assert ["response_format" in body for body in seen] == [True, True, False, False]
    # the schema in the system prompt too, so that the model knows what each field means
    assert json.dumps(VERIFY_SCHEMA, separators=(",", ":")) in seen[2]["messages"][0]["content"]


def test_the_openai_judge_needs_no_http_library_of_its_own(monkeypatch):
    """openai 3 is built on httpx2, not httpx: the judge gets its HTTP client from openai
    (``openai.DefaultAsyncHttpxClient``), so it works with whichever library openai brought.
    Here ``import httpx`` fails, as it does in a fresh venv with openai 3; the openai already
    imported keeps the library it was built on."""
    pytest.importorskip("openai")
    from rt4chart_plugins.judges.openai_compat import OpenAIJudge

    monkeypatch.setitem(sys.modules, "httpx", None)  # `import httpx` now raises ImportError
    with chat_server([]) as url:
        judge = OpenAIJudge("m", base_url=url, cache=False, max_retries=0)
        report = Verifier(judge, **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
    assert report.state == "verified", (report.error, [c.error for c in report.claims])
    assert [c.label.value for c in report.claims] == ["CON", "ENT"]


def test_a_reply_of_labelled_lines_instead_of_json_is_read():
    """What the embedded 1.5B model writes, through any client, when asked for JSON in the prompt."""
    reply = ('Mark the context sentences with a number:\n[0] The free trial lasts 14 days.\n'
             '[1] Only verified new users are eligible for the trial.\n\n'
             'Claim (0): The free trial lasts 30 days.\nLabel: CON\nEvidence: [0]\n'
             'Phrase: "30 days"\nReason: The context states that the free trial lasts 14 days.\n\n'
             'Claim (1): Verified new users are eligible.\nLabel: ENT\nEvidence: [1]\n'
             'Reason: The context says so.')
    report = Verifier(Canned([reply]), **OPTIONS).verify(context=CONTEXT, answer=ANSWER)
    assert [(c.label.value, [e.sentence_id for e in c.evidence]) for c in report.claims] == [("CON", [0]), ("ENT", [1])]
    assert report.claims[0].phrase_span.text == "30 days" and "14 days" in report.claims[0].reason
