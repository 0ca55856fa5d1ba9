"""The detector a run builds, from flags or from fields, and the settings a row's result depends on.

``rt4chart verify``, ``rt4chart guard``, the lab's benchmarks and the Ray job all turn their flags
into a :class:`DetectorSpec` here (:func:`spec_from_args`), so a flag means the same to each. The
spec is checked when made by building its detector once with
:func:`rt4chart_plugins.factory.make_detector`, the one factory the CLI and the adapters use:
nothing loads (judges load on their first row), so the Ray driver refuses a misspelt option before
a worker starts, in the words a local run would use. It is small and picklable: each Ray worker
builds its own detector (and loads its judge) from it once. A
row's fingerprint takes the detector's part from :func:`detector_settings` alone, read off the
built detector (its method, its judge's name, its pipeline options as resolved, defaults
included), so a local run and a Ray run of the same flags give a row the same fingerprint, and a
flag spelt out at its default changes nothing.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.factory import make_detector
from rt4chart_plugins.factory import sends_requests as _sends_requests
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.registry import all_flags, options_from_flags


class DetectorSpec(BaseModel):
    """The detector a run builds (on this machine, or on every Ray worker): RT4CHART with a judge,
    or GASP."""

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


def judge_kwargs(args: Any) -> dict[str, Any]:
    """The judge's options from the judge flags given; a flag the judge does not take is refused
    (the registry says which judges take it). GASP takes no judge: none are read."""
    if getattr(args, "method", "rt4chart") == "gasp":
        return {}
    given = {
        flag: value
        for flag, takers in all_flags().items()
        if (value := getattr(args, takers[0][1].dest, None)) is not None
    }
    return options_from_flags(args.judge, given)


def spec_from_args(args: Any) -> DetectorSpec:
    """The detector the flags describe (``--method``, ``--judge`` and its flags, the pipeline
    flags, ``--concurrency``), checked now by the factory every run builds through."""
    fields: dict[str, Any] = {"method": getattr(args, "method", "rt4chart"), "judge": args.judge}
    concurrency = getattr(args, "concurrency", None)
    if concurrency is not None:
        fields["concurrency"] = concurrency
    if fields["method"] == "gasp":
        gasp = (("model", args.scorer), ("chunks", args.chunks), ("threshold", args.threshold))
        return DetectorSpec.create(**fields, options={k: v for k, v in gasp if v is not None})
    options: dict[str, Any] = {
        "window_size": args.window_size,
        "window_overlap": args.window_overlap,
        "global_verification": not args.no_global,
    }
    if args.decomposition:
        options["decomposition"] = args.decomposition
    if getattr(args, "deadline", None) is not None:
        options["deadline"] = args.deadline
    return DetectorSpec.create(**fields, judge_kwargs=judge_kwargs(args), options=options)


def detector_settings(detector: Detector) -> str:
    """The detector's part of a row's fingerprint: its method, its judge's (or GASP scorer's) name
    and its ``config``: RT4CHART's pipeline options as resolved, or GASP's settings (``chunks``,
    ``threshold``, …). Read before the judge loads (the trained judge's name is its artifact's
    version either way), so that the Ray driver, which loads nothing, reads the same."""
    config = getattr(detector, "config", None)
    options = config.model_dump(mode="json") if isinstance(config, BaseModel) else None
    return json.dumps({"method": detector.method, "judge": detector.name, "options": options}, sort_keys=True)


def spec_settings(spec: DetectorSpec) -> str:
    """:func:`detector_settings` of the detector each worker builds from ``spec``."""
    return detector_settings(spec.build())


__all__ = ["DetectorSpec", "detector_settings", "judge_kwargs", "spec_from_args", "spec_settings"]
