"""The detector behind an adapter, and the checks of the settings an adapter is built with.

Every adapter builds its detector here, so that the judge choices (a name, a :class:`Judge`, a
ready detector, the framework's own LLM) and their refusals read the same in all four, and a bad
setting fails when the metric is built, not in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rt4chart_plugins.detector import Detector
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.factory import check_method, make_detector
from rt4chart_plugins.judges.kit import JUDGE_NAMES, Judge, offered

__all__ = ["JUDGE_NAMES", "build_verifier", "check_timeout", "judge_from"]


def build_verifier(
    judge: Any,
    wrap: Callable[..., Judge | None] | None = None,
    *,
    judge_kwargs: dict[str, Any] | None = None,
    concurrency: int = 4,
    **options: Any,
) -> Detector:
    """The detector behind an adapter: RT4CHART (a :class:`Verifier`) unless ``method="gasp"``,
    built by :func:`rt4chart_plugins.factory.make_detector`, the factory of the Python API, the CLI
    and the Ray job, so a bad name or option is refused with the same words as there.

    ``judge`` may be a :class:`Verifier` or any other :class:`Detector` such as a
    :class:`GaspDetector` (used as is), a :class:`Judge`, ``None`` or a judge name of the registry
    (``"trained"``, the offline default, ``"local"``, ``"openai"``, ``"auto"``, …, configured by
    ``judge_kwargs``), or a framework's own LLM object, which ``wrap`` turns into a :class:`Judge`
    (``wrap`` returns None for objects it does not know; ``judge_kwargs`` then go to that
    ChatJudge: ``cache``, ``concurrency``, ``max_retries``, ``name``).
    ``options`` are the pipeline knobs (``decomposition``, ``window_size``, ...), validated here so
    that a bad setting fails when the metric is built, not in the middle of a run. With
    ``method="gasp"`` they are GASP's instead (``model``, ``chunks``, ``threshold``, ...) and no
    judge is used: GASP scores with a small local LM.
    """
    method = options.pop("method", "rt4chart")
    if isinstance(judge, Detector):
        if options or judge_kwargs:
            raise InvalidInput(
                f"options {sorted({**options, **(judge_kwargs or {})})} were given with a ready "
                f"{type(judge).__name__}: configure that instance instead"
            )
        return judge
    if judge is not None and not isinstance(judge, (str, Judge)) and check_method(method) == "rt4chart":
        try:
            wrapped = wrap(judge, **(judge_kwargs or {})) if wrap is not None else None
        except TypeError as exc:  # a misspelt judge_kwargs key: refused, with Python's naming of it
            raise InvalidInput(f"judge_kwargs for a {type(judge).__name__}: {exc}") from None
        if wrapped is None:
            raise InvalidInput(
                f"cannot use a {type(judge).__module__}.{type(judge).__name__} as the judge: pass one of "
                f"{offered()}, a rt4chart_plugins.Judge, or this framework's LLM object"
            )
        judge, judge_kwargs = wrapped, None
    # GASP scores one row at a time, whatever the adapter's concurrency
    return make_detector(
        method, judge, judge_kwargs=judge_kwargs, concurrency=concurrency if method != "gasp" else 1, **options
    )


def judge_from(judge: Any, **framework_names: Any) -> Any:
    """The judge, given under RT4CHART's name (``judge=``) or under the framework's own spelling
    (DeepEval's ``model=``, ``llm=`` in Ragas, LangChain and LlamaIndex). The framework's
    spelling is honoured, never ignored: its LLM becomes the judge. Both at once is refused."""
    given = {name: value for name, value in framework_names.items() if value is not None}
    if not given:
        return judge
    if judge is not None or len(given) > 1:
        names = ["judge"] * (judge is not None) + sorted(given)
        raise InvalidInput(f"the judge is given twice ({', '.join(n + '=' for n in names)}): pass one")
    return next(iter(given.values()))


def check_timeout(timeout: float | None) -> float | None:
    """A row timeout as given to an adapter: None, or seconds above 0."""
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0):
        raise InvalidInput(f"timeout must be a number of seconds above 0, or None; got {timeout!r}")
    return timeout
