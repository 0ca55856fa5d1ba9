"""One place that turns (method, judge, options) into a detector: a :class:`Verifier` with its
judge, or a :class:`GaspDetector`.

The CLI, the adapters and the Ray job build their detector here, and ``Verifier(...)`` checks its
judge with the same registry (:mod:`rt4chart_plugins.judges.registry`), so a bad method, judge
name or option reads the same wherever it is given, and fails when the detector is built: nothing
is loaded here, so the Ray driver can build one to check a spec before any worker starts.
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any

from rt4chart_plugins.config import PipelineConfig
from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput, unknown_options
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.registry import sends_requests as registry_sends_requests
from rt4chart_plugins.verifier import Verifier

#: rt4chart: claims judged against the context; gasp: a small LM re-reads the answer, no judge
METHODS = ("rt4chart", "gasp")


def check_method(method: str) -> str:
    if method not in METHODS:
        close = difflib.get_close_matches(str(method), METHODS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise InvalidInput(f"unknown method {method!r}{hint}: use one of {', '.join(map(repr, METHODS))}")
    return method


def make_detector(
    method: str = "rt4chart",
    judge: Judge | str | None = None,
    *,
    judge_kwargs: dict[str, Any] | None = None,
    concurrency: int | None = None,
    pipeline: PipelineConfig | None = None,
    **options: Any,
) -> Detector:
    """The detector of ``method``. RT4CHART: ``judge`` is a :class:`Judge` or a registry name
    (``None``: ``$RT4CHART_JUDGE``, else the default), ``judge_kwargs`` its options, ``options``
    the pipeline's (or ``pipeline``, a :class:`PipelineConfig`: the same options as one value).
    GASP: no judge; ``options`` are GASP's (``model``, ``chunks``, ``threshold``,
    …). ``concurrency``: rows in flight (None: the detector's default). Every name and option is
    checked now; nothing loads until the first row (or ``prepare()``)."""
    # the defaults are the detectors' own: 4 rows in flight for RT4CHART; GASP scores one at a time
    if check_method(method) == "gasp":
        if judge is not None or judge_kwargs:
            raise InvalidInput("method='gasp' uses no judge: it scores with its own LM; drop the judge and its options")
        if pipeline is not None:
            raise InvalidInput("method='gasp' runs no RT4CHART pipeline: drop pipeline=, give GASP's own options")
        # GASP (and its llama.cpp path) loads here, when a GASP detector is built: not for the
        # adapters, the Ray workers or the CLI that build an RT4CHART one
        from rt4chart_plugins.gasp import GaspDetector

        if error := unknown_options(options, _gasp_options(GaspDetector), "GASP"):
            raise error
        return GaspDetector(**options, concurrency=1 if concurrency is None else concurrency)
    rows = 4 if concurrency is None else concurrency
    return Verifier(judge, judge_kwargs=judge_kwargs, concurrency=rows, pipeline=pipeline, **options)


def _gasp_options(gasp: type[Detector]) -> tuple[str, ...]:
    """What GASP takes besides its ``concurrency``, read off its constructor."""
    return tuple(p for p in inspect.signature(gasp.__init__).parameters if p not in ("self", "concurrency"))


def sends_requests(method: str, judge: Judge | str | None) -> bool:
    """Whether the detector's judge calls an API over the network (what a shared rate limit is for)."""
    return check_method(method) == "rt4chart" and registry_sends_requests(judge)
