"""``judge="openai", read="premise"`` against a real HTTP server: what it asks, how it reads the
replies' log probabilities, and what it does with replies that carry none or say neither.

The server (:class:`FaultServer`) answers each one-token question with the probabilities a test
sets for that statement, as llama.cpp's server returns them (``choices[0].logprobs.content[0]
.top_logprobs``); the labels come from the shipped fitted decision, as the local premise read's do.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rt4chart_plugins import Verifier
from rt4chart_plugins.errors import InvalidReply
from rt4chart_plugins.judges.openai_readout import yes_probability
from tests.reliability.fault_server import Act, FaultServer

CONTEXT = "The free trial lasts 14 days. Refunds are issued within 30 days of purchase. The office is in Lyon."
STATEMENT = re.compile(r"Statement: (.*)\n")


def completion(word: str, top: list[tuple[str, float]] | None) -> str:
    """A one-token chat completion, with its top log probabilities when given."""
    choice = {"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": word}}
    if top is not None:
        content = [{"token": word, "logprob": top[0][1], "bytes": None,
                    "top_logprobs": [{"token": t, "logprob": lp, "bytes": None} for t, lp in top]}]
        choice["logprobs"] = {"content": content}
    return json.dumps({"id": "r", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice],
                       "usage": {"prompt_tokens": 40, "completion_tokens": 1, "total_tokens": 41}})


def reader(readings: dict[str, tuple[float, float]]):
    """A server fault answering each statement's two questions with P(Yes) from ``readings``
    (support, compatible), spread over " Yes", "yes", "No" and an unrelated token."""

    def fault(n: int, payload: dict) -> Act:
        user = payload["messages"][-1]["content"]
        p = readings[STATEMENT.search(user).group(1)][0 if "support" in user else 1]
        top = [("Yes", math.log(max(p * 0.9, 1e-9))), (" yes", math.log(max(p * 0.1, 1e-9))),
               ("No", math.log(max((1 - p) * 0.8, 1e-9))), ("Maybe", math.log(0.2))]
        top.sort(key=lambda t: -t[1])
        return Act(body=completion(top[0][0], top))

    return fault


def served(url: str, **options) -> Verifier:
    return Verifier("openai", judge_kwargs={"base_url": url, "model": "m", "read": "premise", "max_retries": 1,
                                            "backoff": 0.01, **options})


@given(st.lists(st.tuples(st.sampled_from(["Yes", " yes", "YES", "No", "no ", "Maybe", "The"]),
                          st.floats(min_value=-1e4, max_value=0.0)), min_size=1, max_size=20))
def test_a_reading_is_a_probability_of_yes_against_no(top):
    yes = sum(math.exp(lp) for t, lp in top if t.strip().lower() == "yes")
    no = sum(math.exp(lp) for t, lp in top if t.strip().lower() == "no")
    if yes + no > 0:
        assert yes_probability(top, "Maybe") == pytest.approx(yes / (yes + no))
    else:  # nothing of either among them: the word written, or no reading at all
        assert yes_probability(top, "No") == 0.0
        with pytest.raises(InvalidReply):
            yes_probability(top, "Maybe")


def expected_reading(p: float) -> float:
    """P(Yes) against P(No) among the tokens :func:`reader` returns for a set P(Yes) of ``p``."""
    return p / (p + (1 - p) * 0.8)


def test_each_sentence_is_asked_two_one_token_questions_and_decided_on_its_readings():
    readings = {
        "The free trial lasts 14 days.": (0.97, 0.99),
        "The office is in Paris.": (0.02, 0.01),
        "The trial includes a free laptop.": (0.03, 0.97),
    }
    with FaultServer(reader(readings)) as server:
        report = served(server.url, cache=False, concurrency=1).verify(CONTEXT, " ".join(readings))
    assert report.state == "verified", report.notes
    assert report.cost.judge_calls == 3  # a call is a sentence's reading, as the local premise read counts it
    assert (report.cost.prompt_tokens, report.cost.completion_tokens) == (6 * 40, 6 * 1)
    for claim, (support, compatible) in zip(report.claims, readings.values()):
        assert claim.reason == (
            f"P(supported)={expected_reading(support):.2f}, P(both can be true)={expected_reading(compatible):.2f}"
        )
        assert claim.probs is not None and sum(claim.probs.values()) == pytest.approx(1.0)
    assert [c.label.value for c in report.claims][0] == "ENT"
    assert [e.sentence_id for e in report.claims[0].evidence] == [0]
    assert all(c.label.value != "ENT" for c in report.claims[1:])
    asked = [p for _, p in server.log]
    assert len(asked) == 6
    assert all(p["max_tokens"] == 1 and p["logprobs"] is True and p["top_logprobs"] == 20 for p in asked)
    # one sentence at a time, its two questions together: a server's KV cache keeps the premise
    assert ["support" in p["messages"][-1]["content"] for p in asked] == [True, False] * 3
    assert [STATEMENT.search(p["messages"][-1]["content"]).group(1) for p in asked][::2] == list(readings)


def test_a_server_without_log_probabilities_is_read_by_the_word_it_wrote():
    def fault(n: int, payload: dict) -> Act:
        user = payload["messages"][-1]["content"]
        return Act(body=completion("Yes" if "14 days" in user else "No", None))

    with FaultServer(fault) as server:
        report = served(server.url, cache=False).verify(CONTEXT, "The free trial lasts 14 days. It costs 9 euros.")
    assert [c.label.value for c in report.claims][:1] == ["ENT"]
    assert report.claims[1].label.value != "ENT"


def test_a_reply_that_says_neither_leaves_its_claims_unjudged_and_is_not_cached(tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    broken = {"on": True}

    def fault(n: int, payload: dict) -> Act:
        if broken["on"]:
            return Act(body=completion("Perhaps", None))
        return reader({"The free trial lasts 14 days.": (0.97, 0.99)})(n, payload)

    with FaultServer(fault) as server:
        first = served(server.url, cache=cache).verify(CONTEXT, "The free trial lasts 14 days.")
        broken["on"] = False
        second = served(server.url, cache=cache).verify(CONTEXT, "The free trial lasts 14 days.")
    assert first.state == "failed" or not first.claims[0].judged, first
    assert "neither" in (first.claims[0].error or " ".join(first.notes) or first.error or "")
    assert second.claims[0].label.value == "ENT" and second.claims[0].judged


def test_a_rate_limited_question_is_asked_again_after_retry_after():
    fine = reader({"The free trial lasts 14 days.": (0.97, 0.99)})

    def fault(n: int, payload: dict) -> Act:
        return Act(status=429, headers={"Retry-After": "0"}, body="{}") if n == 0 else fine(n, payload)

    with FaultServer(fault) as server:
        report = served(server.url, cache=False).verify(CONTEXT, "The free trial lasts 14 days.")
    assert report.claims[0].label.value == "ENT"
    assert len(server.log) == 3


def test_read_takes_reply_or_premise():
    from rt4chart_plugins.errors import InvalidInput

    with pytest.raises(InvalidInput, match="read"):
        Verifier("openai", judge_kwargs={"base_url": "http://127.0.0.1:9/v1", "read": "window"})
