"""The chat judge's defects of the outside fuzz run, each with its reproducer: a verdict addressed to
another claim, a message's content given as a list of parts, a NaN in the usage counts."""

import asyncio
import math

import pytest

from rt4chart_plugins import Label
from rt4chart_plugins.judges.base import VerifyRequest
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.chat import ChatJudge, ChatReply
from rt4chart_plugins.types import Claim, Cost, Sentence

CONTEXT = [Sentence(id=0, text="The free trial lasts 14 days.", start=0, end=29)]
PENGUINS = [Claim(id=3, text="Penguins can fly.", sentence_id=0)]


class Replay(ChatJudge):
    """Replies given in order; a reply may be a ChatReply (its text any shape a client returns)."""

    def __init__(self, replies, **kw):
        super().__init__(name="replay", backoff=0.001, **kw)
        self.replies = list(replies)
        self.calls = 0

    async def _complete(self, system, user, schema, schema_name):
        self.calls += 1
        reply = self.replies.pop(0)
        return reply if isinstance(reply, ChatReply) else ChatReply(text=reply)


def _verify(judge, claims=PENGUINS):
    return asyncio.run(judge.verify(VerifyRequest(mode="local", sentences=CONTEXT, claims=claims), cost=Cost()))


@pytest.mark.parametrize("named", [97, 4, 2, "97"])
def test_a_verdict_naming_another_claim_never_lands_on_the_asked_one_nor_is_cached(tmp_path, named):
    """Defect 1: one claim asked, a verdict for claim 97 (or the asked id off by one) made
    "Penguins can fly." ENT citing the trial sentence, and the cache served it to a clean run."""
    stray = f'{{"verdicts":[{{"claim":{named!r},"label":"ENT","evidence":[0]}}]}}'.replace("'", '"')
    cache = JudgeCache(tmp_path / "c.sqlite")
    judge = Replay([stray, stray], cache=cache)
    result = _verify(judge)
    assert result.judgements == [] and list(result.unjudged) == [3]
    clean = '{"verdicts":[{"claim":3,"label":"NIC","evidence":[]}]}'
    again = Replay([clean, clean], cache=cache)
    result = _verify(again)
    assert again.calls == 1 and [(j.claim_id, j.label) for j in result.judgements] == [(3, Label.NIC)]


def test_a_lone_verdict_naming_no_claim_is_the_lone_claims():
    """The choice docs/judges.md states: with one claim asked, a verdict with no claim number can
    only be about it (small models often leave the number out)."""
    result = _verify(Replay(['{"verdicts":[{"label":"NIC","evidence":[]}]}'], cache=False))
    assert [(j.claim_id, j.label) for j in result.judgements] == [(3, Label.NIC)]


def test_only_the_claims_still_missing_a_verdict_are_asked_again():
    claims = [Claim(id=0, text="The trial lasts 14 days.", sentence_id=0), *PENGUINS]
    asked: list[str] = []

    class Recording(Replay):
        async def _complete(self, system, user, schema, schema_name):
            asked.append(user)
            return await super()._complete(system, user, schema, schema_name)

    first = '{"verdicts":[{"claim":0,"label":"ENT","evidence":[0]}]}'
    second = '{"verdicts":[{"claim":3,"label":"NIC","evidence":[]}]}'
    result = _verify(Recording([first, second], cache=False), claims)
    assert {j.claim_id: j.label for j in result.judgements} == {0: Label.ENT, 3: Label.NIC}
    assert "(0) The trial" in asked[0] and "(0) The trial" not in asked[1] and "(3) Penguins" in asked[1]


def test_content_given_as_a_list_of_parts_is_read_as_its_text():
    """Defect 8: a client whose message content is a list of parts failed the row with
    ``AttributeError: 'list' object has no attribute 'strip'``."""
    parts = [{"type": "text", "text": '{"verdicts":[{"claim":3,'}, {"type": "text", "text": '"label":"CON"}]}'}]
    result = _verify(Replay([ChatReply(text=parts)], cache=False))  # type: ignore[arg-type]
    assert [(j.claim_id, j.label) for j in result.judgements] == [(3, Label.CON)]
    assert ChatReply(text=None).text == "" and ChatReply(text=["a", {"text": "b"}, 7]).text == "ab"  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -5, "12", None, 3.0])
def test_usage_that_is_not_a_count_is_not_counted(bad):
    """Defect 9: ``"usage": {"prompt_tokens": NaN}`` put nan into the int field cost.prompt_tokens."""
    reply = ChatReply(text="{}", prompt_tokens=bad, completion_tokens=bad)  # type: ignore[arg-type]
    want = 3 if bad == 3.0 else 0
    assert (reply.prompt_tokens, reply.completion_tokens) == (want, want)
    assert all(isinstance(v, int) for v in (reply.prompt_tokens, reply.completion_tokens))
    cost = Cost()
    judge = Replay([ChatReply(text='{"verdicts":[{"claim":3,"label":"NIC"}]}', prompt_tokens=bad)], cache=False)
    asyncio.run(judge.verify(VerifyRequest(mode="local", sentences=CONTEXT, claims=PENGUINS), cost=cost))
    assert cost.prompt_tokens == want and not math.isnan(cost.prompt_tokens)
    assert Cost.model_validate_json(cost.model_dump_json()) == cost


def test_a_decomposition_that_cannot_be_read_falls_back_to_the_clauses_and_says_so():
    """19 of 48 rows failed with "the decomposition could not be read" on a small local model."""
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.claims import clause_claims

    answer = [Sentence(id=0, text="The trial lasts 30 days, and all users can extend it.", start=0, end=53)]
    judge = Replay(["Sure! Here are the claims: the trial", "no JSON again"], cache=False)
    result = asyncio.run(judge.decompose(answer, holistic=False, cost=Cost()))
    assert result.claims == clause_claims(answer) and len(result.claims) == 2 and not result.failed
    assert "could not be read" in result.notes[0] and "clauses" in result.notes[0]

    verdicts = '{"verdicts":[{"claim":0,"label":"CON","evidence":[0]},{"claim":1,"label":"NIC","evidence":[]}]}'
    judge = Replay(["not json", "still not json", verdicts], cache=False)
    report = Verifier(judge, decomposition="llm", global_verification=False, sub_sentence_spans=False).verify(
        context="The free trial lasts 14 days.", answer=answer[0].text)
    assert report.state == "verified" and [c.label.value for c in report.claims] == ["CON", "NIC"]
    assert any("clauses" in n for n in report.notes)
