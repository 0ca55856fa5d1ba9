"""The pipeline, in order: the stages one verification runs through.

Each stage is an async function of the run state (:class:`~rt4chart_plugins.pipeline.state.RunState`):
it reads what the stages before it left and returns its part (:class:`~rt4chart_plugins.pipeline.state.Part`),
which the loop merges into the state. The façade runs the loop and builds the report from the
state (:func:`~rt4chart_plugins.pipeline.aggregate.report_of`); a stage whose part says the run
failed (judging is impossible) stops the loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

from rt4chart_plugins.deadline import stage
from rt4chart_plugins.pipeline.claims import find_claims
from rt4chart_plugins.pipeline.evidence import settle_evidence
from rt4chart_plugins.pipeline.global_ import judge_globally
from rt4chart_plugins.pipeline.local import judge_locally
from rt4chart_plugins.pipeline.rules import check_rules
from rt4chart_plugins.pipeline.segment import read_texts
from rt4chart_plugins.pipeline.state import Part, RunState
from rt4chart_plugins.pipeline.verdicts import build_verdicts


class Stage(NamedTuple):
    doing: str  # what the row is doing while the stage runs: the reason a deadline gives names it
    run: Callable[[RunState], Awaitable[Part]]


STAGES: tuple[Stage, ...] = (
    Stage("reading the context and the answer", read_texts),
    Stage("decomposing the answer", find_claims),
    Stage("judging the claims", judge_locally),
    Stage("judging the claims against the whole context", judge_globally),
    Stage("settling the evidence", settle_evidence),
    Stage("writing the verdicts", build_verdicts),
    Stage("applying the rules", check_rules),
)


async def run_stages(state: RunState) -> None:
    """Every stage in order, each one's part merged into the state, until one fails the run."""
    for step in STAGES:
        if state.failed:
            return
        stage(step.doing)
        state.merge(await step.run(state))
