"""Fixtures for the framework adapter tests.

Every framework's telemetry is off, deepeval reads no ``.env`` file, and the judge cache lives in a
fresh directory for the session (set before any judge is built), so no test passes from a cache
written by an earlier run. The real-model tests use the embedded judge (``@pytest.mark.model``).
"""

from __future__ import annotations

import os
import tempfile

import pytest

# Set at import, before any framework or judge is imported: deepeval reads its settings at import.
os.environ.setdefault("RT4CHART_CACHE_DIR", tempfile.mkdtemp(prefix="rt4chart-adapter-cache-"))
os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] = "YES"
os.environ["DEEPEVAL_DISABLE_DOTENV"] = "1"
os.environ["DEEPEVAL_UPDATE_WARNING_OPT_IN"] = "NO"
os.environ["DEEPEVAL_GRPC_LOGGING"] = "NO"
os.environ["RAGAS_DO_NOT_TRACK"] = "true"
os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ["LANGSMITH_TRACING"] = "false"

from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult  # noqa: E402
from rt4chart_plugins.types import Cost, Judgement, Label, Sentence  # noqa: E402

QUESTION = "Who can get the free trial, and what does it include?"
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


@pytest.fixture
def scripted() -> ScriptedJudge:
    return ScriptedJudge()


@pytest.fixture(scope="session")
def embedded_judge():
    """The embedded judge (Qwen2.5-Coder-1.5B via llama.cpp), loaded once for the session."""
    pytest.importorskip("llama_cpp", reason="needs the [local] extra")
    from rt4chart_plugins import make_judge, models

    try:
        models.locate(models.DEFAULT_MODEL, pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"embedded judge model not available ({exc}); run `rt4chart model pull` first")
    return make_judge("local")


def scripted_reply(prompt: str) -> dict:
    """What a scripted framework LLM answers to one RT4CHART chat prompt (system + user text):
    the claims of each numbered answer sentence, or a verdict per claim by the default rules.
    For unit tests of the LLM wrappers (request and reply plumbing) only."""
    import re

    if "Claims:" in prompt:  # a verification request: "(id) claim" lines
        rules = ScriptedJudge().rules
        verdicts = []
        for cid, text in re.findall(r"^\((\d+)\) (.+)$", prompt.split("Claims:")[-1], flags=re.M):
            label, evidence = next(((lab, ev) for key, (lab, ev) in rules.items() if key in text), ("ENT", [4]))
            verdicts.append({"claim": int(cid), "label": label, "evidence": evidence, "phrase": None,
                             "reason": f"scripted {label}"})
        return {"verdicts": verdicts}
    sentences = re.findall(r"^\[(\d+)\] (.+)$", prompt.split("Answer sentences:")[-1], flags=re.M)
    return {"claims": [{"sentence": int(i), "text": t} for i, t in sentences]}


def check_scripted_report(report) -> None:
    """A report made through a scripted framework LLM: CON on sentence 0 citing context 1, ENT,
    NIC with no evidence."""
    assert [c.label.value for c in report.claims] == ["CON", "ENT", "NIC"], report.claims
    assert [e.sentence_id for e in report.claims[0].evidence] == [1]
    assert report.claims[2].evidence == []
    assert report.claims[0].answer_span.text == SENTENCES[0]
    assert report.label.value == "CON" and report.cost.judge_calls >= 1
