"""The ChatJudge machinery (salvage, retries, cache) with replayed replies: transport-free logic."""

import asyncio

import pytest

from rt4chart_plugins import JudgeError, Label
from rt4chart_plugins.judges.base import VerifyRequest
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply, json_is_cut, parse_json_loose
from rt4chart_plugins.types import Claim, Cost, Sentence


class Replay(ChatJudge):
    def __init__(self, replies, **kw):
        super().__init__(name="replay", backoff=0.001, **kw)
        self.replies = list(replies)
        self.calls = 0

    async def _complete(self, system, user, schema, schema_name):
        self.calls += 1
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        return ChatReply(text=reply, prompt_tokens=10, completion_tokens=5)


SENTENCES = [Sentence(id=0, text="The trial lasts 14 days.", start=0, end=24)]
CLAIMS = [Claim(id=0, text="a", sentence_id=0), Claim(id=1, text="b", sentence_id=0)]


def request():
    return VerifyRequest(mode="local", sentences=SENTENCES, claims=CLAIMS)


def test_a_cut_reply_gives_no_verdict_and_is_asked_again():
    """No verdict is built from a reply cut off, however much of it parses: the claim 0 verdict
    before the cut might have been revised by what the judge did not get to write."""
    truncated = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0], "phrase": null, "reason": "ok"}, {"claim": 1, "lab'
    judge = Replay([truncated, truncated], cache=False)
    cost = Cost()
    result = asyncio.run(judge.verify(request(), cost=cost))
    assert result.judgements == [] and set(result.unjudged) == {0, 1}
    assert "cut off" in result.unjudged[0] and "asked 2 times" in result.unjudged[0]
    assert judge.calls == 2 and cost.judge_calls == 2 and cost.prompt_tokens == 20
    ok = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0]}, {"claim": 1, "label": "NIC", "evidence": []}]}'
    result = asyncio.run(Replay([truncated, ok], cache=False).verify(request(), cost=Cost()))
    assert [(j.claim_id, j.label) for j in result.judgements] == [(0, Label.ENT), (1, Label.NIC)]


def test_a_complete_reply_keeps_the_verdicts_that_validate_and_asks_again_for_the_rest():
    partial = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0]}, {"claim": 1, "label": "MAYBE"}]}'
    judge = Replay([partial, "not json at all"], cache=False)
    result = asyncio.run(judge.verify(request(), cost=Cost()))
    assert [(j.claim_id, j.label) for j in result.judgements] == [(0, Label.ENT)]
    assert list(result.unjudged) == [1] and judge.calls == 2


def test_label_spellings_and_string_ids_are_normalized():
    reply = '```json\n{"verdicts": [{"claim": 0, "label": "contradicted", "evidence": ["0"]}, {"claim": 1, "label": "Not in context", "evidence": []}]}\n```'
    result = asyncio.run(Replay([reply], cache=False).verify(request(), cost=Cost()))
    assert {j.claim_id: j.label for j in result.judgements} == {0: Label.CON, 1: Label.NIC}
    assert result.judgements[0].evidence == [0]


def test_transient_errors_are_retried_with_backoff():
    ok = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0]}, {"claim": 1, "label": "NIC", "evidence": []}]}'
    judge = Replay([TimeoutError("slow"), ConnectionError("reset"), ok], cache=False)
    result = asyncio.run(judge.verify(request(), cost=Cost()))
    assert len(result.judgements) == 2 and judge.calls == 3


def test_permanent_errors_mark_claims_unjudged_not_crash():
    judge = Replay([ValueError("bad request")], cache=False)
    result = asyncio.run(judge.verify(request(), cost=Cost()))
    assert result.judgements == [] and set(result.unjudged) == {0, 1}
    assert "bad request" in result.unjudged[0]


def test_retries_give_up_after_the_limit():
    judge = Replay([TimeoutError()] * 3, cache=False, max_retries=2)
    with pytest.raises(JudgeError):
        asyncio.run(judge._ask("s", "u", {}, "x", Cost(), lambda data: None))


def test_persistent_cache_makes_reruns_free(tmp_path):
    ok = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0]}, {"claim": 1, "label": "NIC", "evidence": []}]}'
    path = tmp_path / "c.sqlite"
    first = Replay([ok], cache=JudgeCache(path))
    asyncio.run(first.verify(request(), cost=Cost()))
    second = Replay([], cache=JudgeCache(path))  # a new process would see the same file
    cost = Cost()
    result = asyncio.run(second.verify(request(), cost=cost))
    assert len(result.judgements) == 2 and second.calls == 0
    assert cost.cache_hits == 1 and cost.judge_calls == 0


def test_parse_json_loose():
    assert parse_json_loose('{"a": 1}') == {"a": 1}
    assert parse_json_loose("{'a': 1,}") == {"a": 1}  # complete but malformed: repaired
    assert parse_json_loose("") is None


def test_a_reply_is_cut_when_its_json_is_left_open():
    assert json_is_cut('Sure! {"a": [1, 2') and json_is_cut('{"claims": [{"sentence": 0, "text": "The sto')
    assert json_is_cut('{"a": "}\\"')  # the brace and the escaped quote are inside the string
    assert not json_is_cut('{"a": "}"} and some prose {') and not json_is_cut("no JSON here")


def test_prose_and_fences_around_json_are_cut():
    assert parse_json_loose('Here are the verdicts:\n```json\n{"a": 1}\n```\nHope it helps') == {"a": 1}
    assert parse_json_loose('Sure. {"a": 2}') == {"a": 2}


def test_per_loop_state_is_fresh_on_every_new_loop():
    """Frameworks run us on a new loop per call; a semaphore bound to a closed loop must not leak."""
    ok = '{"verdicts": [{"claim": 0, "label": "ENT", "evidence": [0]}, {"claim": 1, "label": "NIC", "evidence": []}]}'
    judge = Replay([ok, ok, ok], cache=False)
    for _ in range(3):
        result = asyncio.run(judge.verify(request(), cost=Cost()))
        assert len(result.judgements) == 2
    import gc

    gc.collect()
    assert len(judge._semaphores) == 0  # closed loops do not keep their semaphores alive
