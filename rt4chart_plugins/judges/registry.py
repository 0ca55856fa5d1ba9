"""Every judge that a name stands for, in one place: the façade, the CLI, the adapters and the Ray
job read it, so a judge is added, named, configured and refused the same way everywhere.

An entry says, for one name: how to build the judge (``module:Class``, imported only when the judge
is built, so naming a judge never loads onnxruntime or llama.cpp), the options its constructor takes
and their types, the CLI flags that set them, whether it sends requests over the network (a Ray
job's shared rate limit applies to those), and how an answer becomes claims for it unless the user
says otherwise (the ``decomposition`` default). Everything is checked when a detector is built, not
at its first row (:func:`choose`, which the façade, the adapters and the Ray driver all go
through): an unknown name, an unknown option, an option of the wrong type or given to a judge
that does not take it, each fails with one :class:`InvalidInput` that names what exists; a
required option missing, a model folder that is not there, a missing extra, and a pipeline option
the judge would ignore fail the same way (:mod:`rt4chart_plugins.judges.ready`).

A name may carry its main option after a colon: ``"hf:org/model"`` is the entry ``hf`` with
``model="org/model"`` (the entry's ``prefix_option``), the same as ``Verifier("hf",
judge_kwargs={"model": "org/model"})``.

How to add a judge: :mod:`rt4chart_plugins.judges.entries` (what each field of an entry means).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from rt4chart_plugins.config import (
    AtLeastOne,
    AtLeastZero,
    Finite,
    Probability,
    Seconds,
    SecondsOrNone,
)
from rt4chart_plugins.errors import InvalidInput, unknown_options
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.entries import Extra, Flag, Holds, Ignored, JudgeChoice, JudgeEntry, Nested
from rt4chart_plugins.judges.flags import either, flags_of, options_set
from rt4chart_plugins.judges.option_kinds import check_value
from rt4chart_plugins.judges.ready import check_honoured, check_ready

#: the judge when none is named and ``$RT4CHART_JUDGE`` is unset: offline, shipped in the wheel
DEFAULT_JUDGE = "trained"


_PATH = str | Path | None
_CACHE = JudgeCache | str | Path | bool | None
_CHAT = {  # ChatJudge's own options, which OpenAIJudge hands on to it
    "cache": _CACHE,
    "concurrency": AtLeastOne,
    "max_retries": AtLeastZero,
    "backoff": SecondsOrNone,
    "max_retry_after": SecondsOrNone,
    "breaker_after": AtLeastOne,
    "context_tokens": AtLeastOne,
}
_NO_CACHE = "do not read or write the judge cache"
#: what a judge that reads each sentence's clauses within it (and writes no claim) would ignore
CLAUSES_ONLY = Ignored(
    "decomposition",
    ("llm",),
    "it judges each sentence's clauses, and writes no claim: use clauses or sentence",
)
#: an artifact folder as ``rt4chart train-verifier --out DIR`` writes it
_ARTIFACT = Holds(
    ("manifest.json", "model.onnx", "tokenizer.json"), "build one with `rt4chart train-verifier --out DIR`"
)
_GGUF = Holds(fix="a GGUF file (`rt4chart model pull` fetches the pinned one)")
_LLAMA = Extra("llama_cpp", "llama-cpp-python", "local")

JUDGES: dict[str, JudgeEntry] = {
    e.name: e
    for e in (
        JudgeEntry(
            "trained",
            "rt4chart_plugins.judges.trained:TrainedJudge",
            "the packaged cross-encoder verifier (offline, fast; the default)",
            options={"artifact_dir": _PATH, "threshold": Probability | None, "threads": AtLeastOne | None},
            paths={"artifact_dir": _ARTIFACT},
            ignores=(CLAUSES_ONLY,),
            flags=(
                Flag(
                    "--model-path",
                    "artifact_dir",
                    "a verifier's artifact folder (model.onnx, tokenizer.json, manifest.json)",
                ),
                Flag(
                    "--threshold",
                    "threshold",
                    "the support at or above which a claim is ENT (default: the artifact's, fitted on train rows)",
                    float,
                ),
            ),
            decomposition="clauses",
        ),
        JudgeEntry(
            "local",
            "rt4chart_plugins.judges.llama:local_judge",
            "the embedded llama.cpp LLM (offline; the [local] extra): each sentence against its premise, "
            "off the logits (read='window': whole windows, with LLM claims)",
            options={
                "read": Literal["premise", "window"],
                "model_path": _PATH,
                "model": str | None,
                "n_threads": AtLeastZero | None,  # 0 or None: every core
                "seed": int,
                "cache": _CACHE,
                "fit": _PATH,  # the premise read's
                "n_ctx": AtLeastOne,  # the window read's, and the three below
                "evidence": bool,
                "support_threshold": Probability,
                "conflict_threshold": Probability,
            },
            paths={"model_path": _GGUF},
            extra=_LLAMA,
            # the premise read judges clauses within their sentence; the window read writes claims
            ignores=(replace(CLAUSES_ONLY, when=lambda options: options.get("read", "premise") == "premise"),),
            flags=(
                Flag("--model-path", "model_path", "any ChatML GGUF file instead of the pinned default"),
                Flag("--no-cache", "cache", _NO_CACHE, None, const=False),
                Flag(
                    "--read",
                    "read",
                    "premise: each sentence against the premise the trained verifier picks (default); "
                    "window: whole windows, with the LLM's own claims",
                ),
            ),
            decomposition="clauses",
            decomposition_by=lambda options: "llm" if options.get("read") == "window" else "clauses",
            refuse="rt4chart_plugins.judges.llama:refused_options",
        ),
        JudgeEntry(
            "openai",
            "rt4chart_plugins.judges.openai_compat:OpenAIJudge",
            "any OpenAI-compatible endpoint (the [openai] extra)",
            options={
                "model": str | None,
                "base_url": str | None,
                "api_key": str | None,
                "temperature": Finite,
                "seed": int,
                "timeout": Seconds,
                "max_tokens": AtLeastOne,
                "read": Literal["reply", "premise"],
                **_CHAT,
            },
            extra=Extra("openai", "openai", "openai"),
            ignores=(replace(CLAUSES_ONLY, when=lambda options: options.get("read") == "premise"),),
            flags=(
                Flag("--base-url", "base_url", "endpoint URL (default $OPENAI_BASE_URL)"),
                Flag("--api-key", "api_key", "key (default $OPENAI_API_KEY)"),
                Flag("--model", "model", "model name (default $RT4CHART_OPENAI_MODEL, else gpt-4o-mini)"),
                Flag("--no-cache", "cache", _NO_CACHE, None, const=False),
                Flag("--timeout", "timeout", "seconds one request may take before it is retried (default 120)", float),
                Flag("--max-retries", "max_retries", "retries of a request that failed transiently (default 4)", int),
                Flag(
                    "--read",
                    "read",
                    "reply: the verdicts the model writes in JSON (default); premise: each sentence against the "
                    "premise the trained verifier picks, read off the endpoint's log probabilities",
                ),
            ),
            sends_requests=True,
            decomposition="llm",
            decomposition_by=lambda options: "clauses" if options.get("read") == "premise" else "llm",
            refuse="rt4chart_plugins.judges.openai_compat:refused_options",
        ),
        JudgeEntry(
            "auto",
            "rt4chart_plugins.judges.cascade:CascadeJudge",
            "the trained verifier, with the claims a fitted gate says it may have wrong read again by the "
            "embedded LLM (the [local] extra)",
            options={
                "gate_threshold": Probability | None,
                "budget": Finite,
                "max_reads": AtLeastZero | None,
                "trained": (Nested("trained"), None),
                "model_path": _PATH,
                "model": str | None,
                "n_threads": AtLeastZero | None,
                "cache": _CACHE,
                "fit": _PATH,
            },
            paths={"model_path": _GGUF},
            extra=_LLAMA,
            ignores=(CLAUSES_ONLY,),
            flags=(
                Flag("--model-path", "model_path", "the embedded LLM's GGUF file"),
                Flag("--threshold", "trained.threshold", "the trained verifier's threshold", float),
                Flag("--no-cache", "cache", "the embedded LLM reads and writes no judge cache", None, const=False),
                Flag(
                    "--gate-threshold",
                    "gate_threshold",
                    "the gate's P(the trained verifier is wrong) at or above which a claim is read "
                    "(default: the fit's)",
                    float,
                ),
                Flag(
                    "--budget",
                    "budget",
                    "the largest share of an answer's judged sentences the embedded LLM reads "
                    "(default 1: all the gate sends)",
                    float,
                ),
                Flag(
                    "--max-reads",
                    "max_reads",
                    "the most sentences of one answer the embedded LLM reads, the likeliest errors first",
                    int,
                ),
            ),
            # the trained verifier's clauses; the LLM reads the sentence a clause was judged within
            decomposition="clauses",
        ),
        JudgeEntry(
            "hf",
            "rt4chart_plugins.judges.hf:HFJudge",
            "a Hugging Face NLI or fact-check model, hf:REPO or hf:/path/to/folder (the [hf] extra, or an ONNX export)",
            options={
                "model": str | Path | None,
                "kind": str,
                "labels": dict[str, str] | list[str] | None,
                "threshold": Probability | None,
                "runtime": str,
                "device": str | None,
                "max_length": AtLeastOne | None,
                "premise_tokens": AtLeastOne | None,
                "batch_size": AtLeastOne,
                "prompt": str | None,
                "verdict_tokens": tuple[str, str] | list[str],
            },
            required=("model",),
            ignores=(CLAUSES_ONLY,),
            flags=(
                Flag(
                    "--threshold",
                    "threshold",
                    "the support at or above which a claim is ENT (default: the hf judge's)",
                    float,
                ),
            ),
            decomposition="clauses",
            prefix_option="model",
            refuse="rt4chart_plugins.judges.hf.checks:refused_options",
        ),
    )
}


def judge_name(judge: str | None) -> str:
    """The judge a name stands for: the name itself, else ``$RT4CHART_JUDGE``, else the default."""
    return judge or os.environ.get("RT4CHART_JUDGE") or DEFAULT_JUDGE


def offered() -> str:
    """The judges as the refusals list them."""
    return ", ".join(repr(e.spelling) for e in JUDGES.values())


def is_judge_name(name: str) -> bool:
    """Whether ``name`` is one of the registry's (``hf:REPO`` counts as ``hf``): an adapter
    reads any other string as its framework's model name."""
    head, colon, _ = name.partition(":")
    return head in JUDGES and (not colon or JUDGES[head].prefix_option is not None)


def _split(name: str | None) -> tuple[JudgeEntry, dict[str, Any]]:
    """The entry a name stands for and the option its suffix sets; an unknown name refused with
    the nearest known ones."""
    resolved = judge_name(name)
    head, colon, suffix = resolved.partition(":")
    found = JUDGES.get(head)
    if found is None or (colon and found.prefix_option is None):
        close = difflib.get_close_matches(head, list(JUDGES), n=3, cutoff=0.5)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        if found is not None:
            hint = f" (the {head!r} judge takes no ':' suffix)"
        raise InvalidInput(f"unknown judge {resolved!r}{hint}: use one of {offered()}, or a Judge instance")
    if colon and not suffix:
        raise InvalidInput(f"judge {resolved!r} names no {found.prefix_option}: write {found.spelling}")
    return found, ({found.prefix_option: suffix} if colon and found.prefix_option else {})


def entry(name: str | None) -> JudgeEntry:
    """The entry a judge name stands for (``$RT4CHART_JUDGE`` or the default when None)."""
    return _split(name)[0]


def judge_options(name: str | None) -> list[str]:
    """The options a named judge takes."""
    return list(entry(name).options)


def check_options(name: str, options: Mapping[str, Any], *, within: str | None = None) -> None:
    """Refuse an option the entry ``name`` does not take (naming the nearest, and the judges that
    do take it), one of the wrong type, and options it could not run with
    (:func:`~rt4chart_plugins.judges.ready.check_ready`)."""
    found = JUDGES[name]
    what = within or f"the {name!r} judge"
    if error := unknown_options(options, found.options, what):
        takers = {
            o: [e.name for e in JUDGES.values() if o in e.options] for o in sorted(options) if o not in found.options
        }
        note = "; ".join(f"{o} is an option of the {either(t)} judge" for o, t in takers.items() if t)
        raise InvalidInput(f"{error}" + (f" ({note})" if note else ""))
    for option, value in options.items():
        check_value(name, option, found.options[option], value, _nested)
    check_ready(found, options)


def _nested(name: str, options: Mapping[str, Any], within: str) -> None:
    check_options(name, options, within=within)


def choose(
    judge: Judge | str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    pipeline: Mapping[str, Any] | None = None,
) -> JudgeChoice:
    """The judge a name (or ``None``: ``$RT4CHART_JUDGE``, else the default) and options stand
    for, every option checked and the judge ready to run, nothing built; a :class:`Judge` given as
    is takes no options. ``pipeline``: the pipeline options it will run under, refused where the
    judge would ignore them. Keep the choice: :meth:`JudgeChoice.build` does not check again."""
    if options is not None and not isinstance(options, Mapping):
        raise InvalidInput(f"judge options must be a dict, got {type(options).__name__} {options!r}")
    options = dict(options or {})
    if isinstance(judge, Judge):
        if options:
            raise InvalidInput(
                f"judge options {sorted(options)} were given with a Judge instance; configure the instance"
            )
        choice = JudgeChoice(None, {}, judge)
        if (pipeline or {}).get("decomposition") == "llm" and judge.clause_claims:
            raise InvalidInput(f"the judge {judge.name!r} ignores decomposition='llm': {CLAUSES_ONLY.why}")
        return choice
    if judge is not None and not isinstance(judge, str):
        raise InvalidInput(
            f"cannot use a {type(judge).__module__}.{type(judge).__name__} as the judge: use one of {offered()}, "
            "or a Judge instance"
        )
    found, from_name = _split(judge)
    twice = sorted(set(from_name) & set(options))
    if twice:
        raise InvalidInput(f"{twice[0]} is given twice, in the judge's name and in its options: give it once")
    options.update(from_name)
    check_options(found.name, options)
    check_honoured(found, options, pipeline or {})
    return JudgeChoice(found, options)


def make_judge(judge: Judge | str | None = None, **kwargs: Any) -> Judge:
    """A judge from a name (see :data:`JUDGES`; ``$RT4CHART_JUDGE`` overrides the default), or the
    given :class:`Judge` itself. Options the judge does not take are refused."""
    return choose(judge, kwargs).build()


def sends_requests(judge: Judge | str | None) -> bool:
    """Whether the judge calls an API over the network (the ones a shared rate limit applies to).
    Read off the entry, without its options, whose checks are the verifier's to make."""
    return entry(judge).sends_requests if judge is None or isinstance(judge, str) else choose(judge).sends_requests


# ---- the CLI's judge flags (rt4chart_plugins.judges.flags reads them off the table) ------------


def all_flags() -> dict[str, list[tuple[JudgeEntry, Flag]]]:
    """Every judge flag, with the judges that take it, in the order the entries declare them."""
    return flags_of(JUDGES.values())


def options_from_flags(judge: str | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options that the judge flags given (``{"--timeout": 30.0}``) set for the named judge;
    a flag this judge does not take is refused, naming the judges that do."""
    return options_set(entry(judge), given, JUDGES.values())
