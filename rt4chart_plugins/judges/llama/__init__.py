"""The embedded llama.cpp LLM judge, split by job: finding and loading its model (``loading``),
laying out prompts for the KV cache (``prompting``), reading labels off the logits (``scoring``);
its two reads (the premise read, ``premise_judge`` over ``premise_read``, and the window read,
``judge``). The one loaded model per file and settings that it shares with GASP's scorer lives
below both, in :mod:`rt4chart_plugins.llama_runtime`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.llama.judge import LlamaCppJudge
from rt4chart_plugins.judges.llama.premise_judge import PremiseJudge

#: the class each ``read`` builds
READS: dict[str, type] = {"premise": PremiseJudge, "window": LlamaCppJudge}

#: the window read's own options, which the premise read does not take
WINDOW_ONLY = ("n_ctx", "evidence", "support_threshold", "conflict_threshold")
#: the premise read's own options, which the window read does not take
PREMISE_ONLY = ("fit",)


def refused_options(options: Mapping[str, Any]) -> InvalidInput | None:
    """The error for options of the other read than ``options["read"]`` (checked when the
    detector is built, before any model loads), or None."""
    read = options.get("read", "premise")
    if read not in READS:
        return InvalidInput(f"read must be 'premise' or 'window' (got {read!r})")
    refused = [o for o in (WINDOW_ONLY if read == "premise" else PREMISE_ONLY) if o in options]
    if refused:
        other = "window" if read == "premise" else "premise"
        return InvalidInput(f"the local judge's {read} read takes no option {', '.join(refused)}: read={other!r} does")
    return None


def local_judge(*, read: Literal["premise", "window"] = "premise", **options: Any):
    """``judge="local"``: the premise read (:class:`.premise_judge.PremiseJudge`, the default) or
    the window read (:class:`LlamaCppJudge`), each refusing the other's options."""
    if error := refused_options({"read": read, **options}):
        raise error
    return READS[read](**options)


__all__ = ["LlamaCppJudge", "PremiseJudge", "local_judge"]
