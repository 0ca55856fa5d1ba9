"""What a worker builds its detector from, checked on the driver before anything is scheduled.

A cluster job that dies an hour in because of a misspelt option wastes the hour, so the spec is
checked here by building its detector once with :func:`rt4chart_plugins.factory.make_detector`,
the one factory the CLI and the adapters use: nothing loads (judges load on their first row), and
every refusal reads as it would locally. The spec is small and picklable: each worker builds its own
detector (and loads its judge) from it once.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.factory import make_detector
from rt4chart_plugins.factory import sends_requests as _sends_requests
from rt4chart_plugins.judges.base import Judge


class DetectorSpec(BaseModel):
    """The detector every worker builds: RT4CHART with a judge, or GASP."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, frozen=True)

    method: Literal["rt4chart", "gasp"] = "rt4chart"
    #: a judge name of the registry (``trained``, ``local``, ``openai``, ``auto``, …; None: the
    #: default), or a picklable :class:`Judge` instance, of which each worker gets its own copy
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
        self.build()

    def sends_requests(self) -> bool:
        """Whether the judge calls an API (the ones a shared rate limit applies to)."""
        return _sends_requests(self.method, self.judge)

    def build(self) -> Detector:
        return make_detector(
            self.method,
            self.judge,
            judge_kwargs=dict(self.judge_kwargs),
            concurrency=self.concurrency,
            **self.options,
        )
