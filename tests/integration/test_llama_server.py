"""The embedded model behind llama.cpp's OpenAI-compatible server answers a repeated request
exactly as it answered it the first time, when asked to (``fresh_prompts=True``).

llama-cpp-python's server keeps the previous request's KV cache; a repeated prompt then has only
its last token read, alone instead of in one batch with the rest, and the logits move in their
last bits (here the first token's log-probability, -0.1524 on a fresh read, -0.1504 on a reused
one): enough to flip a near tie between two clients that sent the same request. The log-probs of
the reply show it at once, without waiting for a flip.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = [pytest.mark.model, pytest.mark.server]

REQUEST = {"model": "m", "temperature": 0, "max_tokens": 4, "logprobs": True, "top_logprobs": 3,
           "messages": [{"role": "system", "content": "You answer in one word."},
                        {"role": "user", "content": "The free trial lasts 14 days. Is a 30-day trial offered? "
                                                    "Answer yes or no and why, in detail."}]}


def ask(base_url: str) -> tuple[str, list[float]]:
    request = urllib.request.Request(base_url + "/chat/completions", data=json.dumps(REQUEST).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        choice = json.load(response)["choices"][0]
    return choice["message"]["content"], [token["logprob"] for token in choice["logprobs"]["content"]]


def test_a_repeated_request_gets_the_same_reply_to_the_last_bit(embedded_model_path):
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from rt4chart_lab.serving import llama_server

    with llama_server(embedded_model_path, n_ctx=2048, alias="m", fresh_prompts=True) as endpoint:
        replies = [ask(endpoint.base_url) for _ in range(3)]
    assert replies[0][1], replies  # log-probs came back
    assert replies[1] == replies[0] and replies[2] == replies[0], replies
