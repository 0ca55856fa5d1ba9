"""What one verification knows as it goes: the run state that each stage reads and fills in.

The stages (:data:`rt4chart_plugins.pipeline.stages.STAGES`) pass nothing to each other but this
object, so the façade is a loop, and what a stage needs is visible in the fields it reads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rt4chart_plugins.config import PipelineConfig
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.pipeline.readings import ContextReadings
from rt4chart_plugins.types import (
    Claim,
    ClaimVerdict,
    Correction,
    Cost,
    Judgement,
    LocalVerdict,
    Sentence,
    Window,
)


@dataclass
class RunState:
    """One (C, Q, A) through the pipeline. The inputs first, then what the stages add, in order."""

    context: str | list[str]
    answer: str
    question: str | None
    judge: Judge
    config: PipelineConfig
    #: the rules' readings of recent contexts: the verifier's own, so a batch reads a shared context once
    readings: ContextReadings = field(default_factory=ContextReadings)
    started: float = field(default_factory=time.perf_counter)
    cost: Cost = field(default_factory=Cost)
    notes: list[str] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    # segment
    answer_sentences: list[Sentence] = field(default_factory=list)
    context_sentences: list[Sentence] = field(default_factory=list)
    # decompose
    claims: list[Claim] = field(default_factory=list)
    # local verification: the windows, each sentence's tokens, the OR-joined verdicts, the
    # judgement that decides each claim so far, and the claims no window could judge
    windows: list[Window] = field(default_factory=list)
    sentence_costs: list[int] = field(default_factory=list)
    local: dict[int, LocalVerdict] = field(default_factory=dict)
    final: dict[int, Judgement] = field(default_factory=dict)
    unjudged: dict[int, str] = field(default_factory=dict)
    # verdicts, then the rules
    verdicts: list[ClaimVerdict] = field(default_factory=list)
    #: set by a stage after which nothing can be judged; the report fails with it
    failed: str | None = None

    @property
    def global_pass(self) -> bool:
        """Whether the global pass runs: asked for, and the context read in more than one window."""
        return self.config.global_verification and len(self.windows) > 1
