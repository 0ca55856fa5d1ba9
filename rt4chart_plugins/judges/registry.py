"""Every judge that a name stands for, in one place: the façade, the CLI and the adapters read it.

A name maps to the class that implements it (imported only when that judge is built, so naming a
judge never loads onnxruntime or llama.cpp) and the constructor options it takes. Unknown names
and unknown options are refused with the list of known ones, not ignored.
"""

from __future__ import annotations

import importlib
import inspect
import os
from dataclasses import dataclass
from typing import Any

from rt4chart_plugins.errors import InvalidInput, unknown_options
from rt4chart_plugins.judges.base import Judge

#: the judge when none is named and ``$RT4CHART_JUDGE`` is unset: offline, shipped in the wheel
DEFAULT_JUDGE = "trained"


@dataclass(frozen=True)
class JudgeEntry:
    name: str
    target: str  # "module:Class"
    summary: str

    def load(self) -> type[Judge]:
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(module), cls)


JUDGES: dict[str, JudgeEntry] = {
    e.name: e
    for e in (
        JudgeEntry(
            "trained",
            "rt4chart_plugins.judges.trained:TrainedJudge",
            "the packaged cross-encoder verifier (offline, fast; the default)",
        ),
        JudgeEntry(
            "local",
            "rt4chart_plugins.judges.llama:LlamaCppJudge",
            "the embedded llama.cpp LLM (offline; the [local] extra)",
        ),
        JudgeEntry(
            "openai",
            "rt4chart_plugins.judges.openai_compat:OpenAIJudge",
            "any OpenAI-compatible endpoint (the [openai] extra)",
        ),
        JudgeEntry(
            "auto",
            "rt4chart_plugins.judges.cascade:CascadeJudge",
            "the trained verifier, with the claims it is least sure of judged again by the embedded LLM "
            "(the [local] extra)",
        ),
        JudgeEntry(
            "hf",
            "rt4chart_plugins.judges.hf:HFJudge",
            "a Hugging Face NLI or fact-check model, named hf:REPO or hf:/path/to/folder "
            "(the [hf] extra, or an ONNX export)",
        ),
    )
}

#: judges named together with their model: ``"hf:REPO"`` is the ``hf`` judge with ``model="REPO"``
PREFIXED = {"hf": "model"}


def split_name(name: str | None) -> tuple[str | None, dict[str, Any]]:
    """A prefixed name (``"hf:REPO"``) as the judge's name and the option it carries."""
    head, sep, rest = (name or "").partition(":")
    if sep and head in PREFIXED:
        return head, {PREFIXED[head]: rest}
    return name, {}


class JudgeChoices(list):
    """The judge names for argparse's ``choices``: each registered name, and any prefixed one."""

    def __contains__(self, value: object) -> bool:
        return super().__contains__(value) or (isinstance(value, str) and split_name(value)[1] != {})


def judge_name(judge: str | None) -> str:
    """The judge a name stands for: the name itself, else ``$RT4CHART_JUDGE``, else the default."""
    return judge or os.environ.get("RT4CHART_JUDGE") or DEFAULT_JUDGE


def entry(name: str | None) -> JudgeEntry:
    resolved = judge_name(split_name(name)[0])
    if resolved not in JUDGES:
        raise InvalidInput(f"unknown judge {resolved!r}: use one of {', '.join(map(repr, JUDGES))} or a Judge instance")
    return JUDGES[resolved]


def judge_options(name: str | None) -> list[str]:
    """The keyword options a named judge's constructor accepts, following ``**kwargs`` that a
    constructor hands on to its base class's."""
    options: list[str] = []
    for cls in entry(name).load().__mro__:
        if "__init__" not in vars(cls) or cls is Judge or cls is object:
            continue
        params = inspect.signature(vars(cls)["__init__"]).parameters.values()
        options += [
            p.name
            for p in params
            if p.name != "self" and p.name not in options and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    return options


def make_judge(judge: Judge | str | None = None, **kwargs: Any) -> Judge:
    """A judge from a name (see :data:`JUDGES`; ``$RT4CHART_JUDGE`` overrides the default), or the
    given :class:`Judge` itself. Options the judge does not take are refused."""
    if isinstance(judge, Judge):
        if kwargs:
            raise InvalidInput(
                f"judge options {sorted(kwargs)} were given with a Judge instance; configure the instance"
            )
        return judge
    check_judge_options(judge, kwargs)
    name, carried = split_name(judge)
    if set(carried) & set(kwargs):
        raise InvalidInput(f"the judge {judge!r} names its {', '.join(carried)} already; do not pass it again")
    return entry(name).load()(**carried, **kwargs)


def check_judge_options(judge: str | None, kwargs: dict[str, Any]) -> None:
    """Refuse options the named judge does not take (its class is imported, not built)."""
    if error := unknown_options(kwargs, judge_options(judge), f"the {judge_name(judge)!r} judge"):
        raise error
