"""Each stage reads the run state and returns its part; only the stage loop writes the state."""

from __future__ import annotations

import asyncio
import copy

from scripted_judge import ScriptedJudge

from rt4chart_plugins import PipelineConfig
from rt4chart_plugins.pipeline.state import Part, RunState
from rt4chart_plugins.pipeline.stages import STAGES, run_stages
from rt4chart_plugins.types import Correction, Cost


def _state(**config) -> RunState:
    judge = ScriptedJudge({"14 days": ("lasts 14 days", None), "free": (None, "costs 5 dollars")}, extra_evidence=[9])
    return RunState(
        context="The trial lasts 14 days. It costs 5 dollars. Support is by mail.",
        answer="The trial lasts 14 days and it is free.",
        question=None,
        judge=judge,
        config=PipelineConfig(**config),
    )


def test_no_stage_writes_the_state_it_reads():
    state = _state(window_size=2, window_overlap=1)
    for step in STAGES:
        before = copy.deepcopy({k: v for k, v in vars(state).items() if k not in ("judge", "readings")})
        part = asyncio.run(step.run(state))
        after = {k: v for k, v in vars(state).items() if k not in ("judge", "readings")}
        assert after == before, f"{step.doing} wrote the state"
        assert isinstance(part, Part)
        state.merge(part)
    labels = [v.label.value for v in state.verdicts]
    assert labels == ["ENT", "CON"]
    # what the stages returned was merged: the judge's calls, the oracle's fix of the made-up id 9
    assert state.cost.judge_calls >= 3
    assert any(c.kind == "evidence_out_of_range" for c in state.corrections)


def test_the_loop_merges_notes_corrections_and_cost_in_stage_order():
    state = _state()
    state.notes.append("before")
    asyncio.run(run_stages(state))
    assert state.notes[0] == "before"
    assert any("global verification skipped" in n for n in state.notes)
    merged = _state()
    merged.merge(Part(notes=["a"], corrections=[Correction(claim_id=0, kind="quote_matched", detail="d")], cost=Cost(judge_calls=2)))
    merged.merge(Part(notes=["b"], cost=Cost(judge_calls=1), failed="stop"))
    merged.merge(Part(failed="later"))
    assert merged.notes == ["a", "b"] and merged.cost.judge_calls == 3 and len(merged.corrections) == 1
    assert merged.failed == "stop"  # the first failure is the one the report gives
