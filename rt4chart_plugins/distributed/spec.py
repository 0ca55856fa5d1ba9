"""What a worker builds its detector from, checked on the driver before anything is scheduled.

A cluster job that dies an hour in because of a misspelt option wastes the hour, so every option
is checked here, without loading a model: pipeline options against :class:`PipelineConfig`, judge
options against the named judge's constructor, GASP's against :class:`GaspDetector`'s. The spec
is small and picklable: each worker builds its own detector (and loads its judge) from it once.
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.chat import ChatJudge
from rt4chart_plugins.judges.registry import judge_name, judge_options


class DetectorSpec(BaseModel):
    """The detector every worker builds: RT4CHART with a judge, or GASP."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, frozen=True)

    method: Literal["rt4chart", "gasp"] = "rt4chart"
    #: a judge name (``trained``, ``local``, ``openai``, ``auto``; None: the default), or a picklable
    #: :class:`Judge` instance, of which each worker gets its own copy
    judge: str | Judge | None = None
    judge_kwargs: dict[str, Any] = Field(default_factory=dict)
    #: RT4CHART's pipeline options, or GASP's detector options (``model``, ``chunks``, ``threshold``, …)
    options: dict[str, Any] = Field(default_factory=dict)
    #: rows one worker has in flight at once (its judge calls overlap; the trained judge batches)
    concurrency: int = Field(default=4, ge=1)

    @classmethod
    def create(cls, **fields: Any) -> DetectorSpec:
        try:
            spec = cls(**fields)
        except ValidationError as exc:
            raise InvalidInput(f"invalid options: {exc.errors(include_url=False)}") from None
        spec.check()
        return spec

    def check(self) -> None:
        """Refuse what a worker would refuse, on the driver, without loading a model."""
        if self.method == "gasp":
            if self.judge is not None or self.judge_kwargs:
                raise InvalidInput("method='gasp' takes no judge: it scores with its own LM")
            from rt4chart_plugins.gasp import GaspDetector

            known = [p for p in inspect.signature(GaspDetector.__init__).parameters if p not in ("self", "concurrency")]
            unknown = sorted(set(self.options) - set(known))
            if unknown:
                raise InvalidInput(f"GASP takes no option {', '.join(map(repr, unknown))}; it takes {', '.join(known)}")
            return
        from rt4chart_plugins.verifier import Verifier

        Verifier(None, **self.options)  # the pipeline options checked as a local run checks them; loads nothing
        if isinstance(self.judge, Judge):
            if self.judge_kwargs:
                raise InvalidInput("judge_kwargs were given with a Judge instance; configure the instance")
            return
        known = judge_options(self.judge)  # refuses an unknown judge name
        unknown = sorted(set(self.judge_kwargs) - set(known))
        if unknown:
            raise InvalidInput(
                f"the {judge_name(self.judge)!r} judge takes no option {', '.join(map(repr, unknown))}; "
                f"it takes {', '.join(known) or 'none'}"
            )

    def sends_requests(self) -> bool:
        """Whether the judge calls an API (the ones a shared rate limit applies to)."""
        if self.method == "gasp":
            return False
        if isinstance(self.judge, Judge):
            return isinstance(self.judge, ChatJudge)
        return judge_name(self.judge) == "openai"

    def build(self) -> Detector:
        if self.method == "gasp":
            from rt4chart_plugins.gasp import GaspDetector

            return GaspDetector(**self.options, concurrency=self.concurrency)
        from rt4chart_plugins.verifier import Verifier

        return Verifier(self.judge, judge_kwargs=dict(self.judge_kwargs), concurrency=self.concurrency, **self.options)
