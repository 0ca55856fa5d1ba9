"""Evidence is settled in one stage, after the judges have spoken: the judging stages hand on what
the judge said, and the evidence stage alone checks it and writes the corrections."""

from __future__ import annotations

import asyncio

from scripted_judge import ScriptedJudge

from rt4chart_plugins import PipelineConfig, Verifier
from rt4chart_plugins.pipeline.evidence import settle_evidence
from rt4chart_plugins.pipeline.state import RunState
from rt4chart_plugins.pipeline.stages import STAGES
from rt4chart_plugins.types import Judgement, Label

CONTEXT = "The trial lasts 14 days. It costs 5 dollars. Support is by mail."


class LostIds(ScriptedJudge):
    """Finds every claim supported, citing only a sentence that does not exist."""

    async def verify(self, request, *, cost):
        result = await super().verify(request, cost=cost)
        result.judgements = [
            Judgement(claim_id=j.claim_id, label=Label.ENT, evidence=[99], phrase="lasts") for j in result.judgements
        ]
        return result


def _judged(judge, **config) -> RunState:
    """The run state after every stage before the evidence stage."""
    state = RunState(
        context=CONTEXT, answer="The trial lasts 14 days.", question=None, judge=judge, config=PipelineConfig(**config)
    )
    for step in STAGES[: [s.run for s in STAGES].index(settle_evidence)]:
        state.merge(asyncio.run(step.run(state)))
    return state


def test_the_judging_stages_hand_on_the_judges_word_unchecked():
    state = _judged(ScriptedJudge({"14 days": ("lasts 14 days", None)}, extra_evidence=[9]), window_size=2, window_overlap=1)
    assert state.corrections == [] and state.final == {}
    assert state.said_locally[0].judgement.evidence == [0, 9]
    assert state.local[0].evidence == []  # not settled yet
    part = asyncio.run(settle_evidence(state))
    assert part.local[0].evidence == [0] and part.final[0].evidence == [0]
    assert [c.kind for c in part.corrections] == ["evidence_out_of_range", "evidence_out_of_range"]  # local, global


def test_supported_with_nothing_to_show_is_baseless_once():
    report = Verifier(LostIds(), decomposition="sentence", global_verification=False).verify(
        CONTEXT, "The trial lasts 14 days."
    )
    (claim,) = report.claims
    assert claim.label == Label.NIC and claim.evidence == [] and claim.phrase_span is None
    assert claim.reason.startswith("the judge found it supported but cited no sentence of the context")
    assert claim.local.label == Label.ENT  # the window's verdict, as it was
    missing = [c for c in report.corrections if c.kind == "evidence_missing"]
    assert [c.detail for c in missing] == ["ENT with no existing context sentence cited: reported NIC"]
    assert [c.kind for c in report.corrections] == ["evidence_out_of_range", "evidence_missing"]
