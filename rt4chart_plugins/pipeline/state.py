"""What one verification knows as it goes: the run state that each stage reads, and the part
each stage returns.

The stages (:data:`rt4chart_plugins.pipeline.stages.STAGES`) pass nothing to each other but this
object: a stage reads the fields it needs and returns a :class:`Part`, which the stage loop merges
into the state (:meth:`RunState.merge`). So the façade is a loop, what a stage needs is visible in
the fields it reads, and what it adds in the part it returns: no stage appends to lists it was
handed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import NamedTuple

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
    Unclaimed,
    Window,
)


class Spoken(NamedTuple):
    """What a judge said of one claim, as it said it, and the context sentences it was shown:
    the evidence stage (:func:`~rt4chart_plugins.pipeline.evidence.settle_evidence`) settles
    its evidence against them."""

    judgement: Judgement
    shown: frozenset[int]


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
    unclaimed: list[Unclaimed] = field(default_factory=list)
    # local verification: the windows, each sentence's tokens, the OR-joined verdicts, the
    # judgement of the window that decided each claim, and the claims no window could judge
    windows: list[Window] = field(default_factory=list)
    sentence_costs: list[int] = field(default_factory=list)
    local: dict[int, LocalVerdict] = field(default_factory=dict)
    said_locally: dict[int, Spoken] = field(default_factory=dict)
    unjudged: dict[int, str] = field(default_factory=dict)
    # global verification: its judgements, in the order the judge gave them
    said_globally: list[Spoken] = field(default_factory=list)
    # the evidence settled: the judgement that decides each claim, its evidence checked
    final: dict[int, Judgement] = field(default_factory=dict)
    # verdicts, then the rules
    verdicts: list[ClaimVerdict] = field(default_factory=list)
    #: set by a stage after which nothing can be judged; the report fails with it
    failed: str | None = None

    def merge(self, part: Part) -> None:
        """A stage's part into the state: its notes and corrections after those before it, its cost
        added, its failure kept, and each of its own fields set on the state."""
        self.notes.extend(part.notes)
        self.corrections.extend(part.corrections)
        self.cost.add(part.cost)
        self.failed = self.failed or part.failed
        for f in fields(part):
            if f.name not in _COMMON:
                setattr(self, f.name, getattr(part, f.name))

    @property
    def global_pass(self) -> bool:
        """Whether the global pass runs: asked for, and the context read in more than one window."""
        return runs_global(self.config, self.windows)


def runs_global(config: PipelineConfig, windows: list[Window]) -> bool:
    """Whether the global pass runs over these windows: asked for, and the context read in more than one."""
    return config.global_verification and len(windows) > 1


@dataclass
class Part:
    """What a stage adds to the run: what every stage may add (notes, corrections of the judge's
    output, the judge's cost, a failure that ends the run); a stage's own part adds fields named
    as the :class:`RunState` fields they set."""

    notes: list[str] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    cost: Cost = field(default_factory=Cost)
    #: the run cannot go on: the report fails with this
    failed: str | None = None


_COMMON = frozenset(f.name for f in fields(Part))


@dataclass
class Texts(Part):
    """The segment stage's part."""

    answer_sentences: list[Sentence] = field(default_factory=list)
    context_sentences: list[Sentence] = field(default_factory=list)


@dataclass
class Claims(Part):
    """The claims stage's part: the claims, and the stretches of the answer that carry none."""

    claims: list[Claim] = field(default_factory=list)
    unclaimed: list[Unclaimed] = field(default_factory=list)


@dataclass
class Judged(Part):
    """The local stage's part: the windows, each context sentence's tokens, the OR-joined verdicts
    (their evidence not yet settled), the deciding window's judgement of each claim as the judge
    gave it, and the claims no window could judge."""

    windows: list[Window] = field(default_factory=list)
    sentence_costs: list[int] = field(default_factory=list)
    local: dict[int, LocalVerdict] = field(default_factory=dict)
    said_locally: dict[int, Spoken] = field(default_factory=dict)
    unjudged: dict[int, str] = field(default_factory=dict)


@dataclass
class Rejudged(Part):
    """The global stage's part: its judgements as the judge gave them, in order."""

    said_globally: list[Spoken] = field(default_factory=list)


@dataclass
class Settled(Part):
    """The evidence stage's part: the local verdicts with their evidence, and each claim's
    deciding judgement (the global pass's where it gave one) with its evidence settled."""

    local: dict[int, LocalVerdict] = field(default_factory=dict)
    final: dict[int, Judgement] = field(default_factory=dict)


@dataclass
class Verdicts(Part):
    """The verdicts stage's part, and the rule stage's: each claim's verdict as the report shows it."""

    verdicts: list[ClaimVerdict] = field(default_factory=list)
