"""Shared data and helpers of the adapter tests (the policy example, a scripted judge)."""

from __future__ import annotations

from rt4chart_plugins.judges.base import (
    DecomposeResult,
    Judge,
    VerifyRequest,
    VerifyResult,
)
from rt4chart_plugins.types import Cost, Judgement, Label, Sentence

QUESTION = "Who can get the free trial?"
CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Trial accounts can export up to 5 reports per month.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
SENTENCES = [
    "The trial policy applies to all users, and no verification is needed.",
    "The free trial lasts 14 days, and verified new users can extend it once by 7 days.",
    "The trial also includes priority email support.",
]
ANSWER = " ".join(SENTENCES)
#: what the embedded judge says with decomposition="sentence" (checked on the real model)
EXPECTED = [("CON", [1]), ("ENT", None), ("NIC", [])]

#: pipeline options of the real-model tests: one claim per answer sentence keeps them fast
FAST = {"decomposition": "sentence"}


def span_of(i: int) -> tuple[int, int]:
    start = ANSWER.index(SENTENCES[i])
    return start, start + len(SENTENCES[i])


def check_claims(claims: list[dict]) -> None:
    """The contradicted and the baseless claim, with their spans and evidence, in JSON form
    (``ClaimVerdict.model_dump(mode="json")``) as a framework result carries them."""
    assert len(claims) == 3, claims
    for i, (label, evidence) in enumerate(EXPECTED):
        c = claims[i]
        if evidence is None:  # the entailed claim: its label only
            assert c["label"] == label, c
            continue
        assert c["label"] == label, c
        assert (c["answer_span"]["start"], c["answer_span"]["end"]) == span_of(i), c
        assert c["answer_span"]["text"] == SENTENCES[i]
        assert [e["sentence_id"] for e in c["evidence"]] == evidence, c
        for e in c["evidence"]:
            assert e["text"] == CONTEXT[e["sentence_id"]]
            assert e["passage"] == e["sentence_id"]
        assert c["reason"]


class ScriptedJudge(Judge):
    """A deterministic judge for unit tests of the adapters' mapping logic only: never proof that
    an adapter works with a real model (each framework has a real-model test for that).

    A claim containing a key of ``rules`` gets that (label, evidence ids); others are ENT citing
    sentence 0. ``fail`` makes every verification raise, to exercise the failure idioms.
    """

    def __init__(self, rules: dict[str, tuple[str, list[int]]] | None = None, *, fail: bool = False):
        self.name = "scripted"
        self.rules = rules if rules is not None else {
            "no verification": ("CON", [1]),
            "priority email": ("NIC", []),
        }
        self.fail = fail
        self.calls = 0

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        return DecomposeResult(claims=[(s.id, s.text) for s in sentences])

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        self.calls += 1
        cost.judge_calls += 1
        if self.fail:
            return VerifyResult(unjudged={c.id: "scripted judge failure" for c in request.claims})
        out = VerifyResult()
        for claim in request.claims:
            label, evidence = next(((lab, ev) for key, (lab, ev) in self.rules.items() if key in claim.text),
                                   ("ENT", [0]))
            out.judgements.append(Judgement(claim_id=claim.id, label=Label(label), evidence=evidence,
                                            reason=f"scripted {label}"))
        return out


def scripted_reply(prompt: str) -> dict:
    """What a scripted framework LLM answers to one RT4CHART chat prompt (system + user text):
    the claims of each numbered answer sentence, or a verdict per claim by the default rules.
    For unit tests of the LLM wrappers (request and reply plumbing) only."""
    import re

    if "Claims:" in prompt:  # a verification request: "(id) claim" lines
        rules = ScriptedJudge().rules
        verdicts = []
        for cid, text in re.findall(r"^\((\d+)\) (.+)$", prompt.split("Claims:")[-1], flags=re.MULTILINE):
            label, evidence = next(((lab, ev) for key, (lab, ev) in rules.items() if key in text), ("ENT", [4]))
            verdicts.append({"claim": int(cid), "label": label, "evidence": evidence, "phrase": None,
                             "reason": f"scripted {label}"})
        return {"verdicts": verdicts}
    sentences = re.findall(r"^\[(\d+)\] (.+)$", prompt.split("Answer sentences:")[-1], flags=re.MULTILINE)
    return {"claims": [{"sentence": int(i), "text": t} for i, t in sentences]}


def check_scripted_report(report) -> None:
    """A report made through a scripted framework LLM: CON on sentence 0 citing context 1, ENT,
    NIC with no evidence."""
    assert [c.label.value for c in report.claims] == ["CON", "ENT", "NIC"], report.claims
    assert [e.sentence_id for e in report.claims[0].evidence] == [1]
    assert report.claims[2].evidence == []
    assert report.claims[0].answer_span.text == SENTENCES[0]
    assert report.label.value == "CON" and report.cost.judge_calls + report.cost.cache_hits >= 1
