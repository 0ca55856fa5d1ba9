"""Every judge that a name stands for, in one place: the façade, the CLI, the adapters and the Ray
job read it, so a judge is added, named, configured and refused the same way everywhere.

An entry says, for one name: how to build the judge (``module:Class``, imported only when the judge
is built, so naming a judge never loads onnxruntime or llama.cpp), the options its constructor takes
and their types, the CLI flags that set them, whether it sends requests over the network (a Ray
job's shared rate limit applies to those), and how an answer becomes claims for it unless the user
says otherwise (the ``decomposition`` default). Everything is checked when a detector is built, not
at its first row: an unknown name, an unknown option, an option of the wrong type or given to a judge
that does not take it, each fails with one :class:`InvalidInput` that names what exists.

A name may carry its main option after a colon: ``"hf:org/model"`` is the entry ``hf`` with
``model="org/model"`` (the entry's ``prefix_option``), the same as ``Verifier("hf",
judge_kwargs={"model": "org/model"})``.

How to add a judge
------------------
1. Write it in its own package, ``judges/<name>/``: a :class:`Judge` subclass whose constructor
   takes keyword options and loads nothing (load in :meth:`Judge.prepare` or on first use). Its
   ``name`` must be known when it is built and stay the same after it loads: reports, caches and
   the Ray job read it before the first row.
2. Add one :class:`JudgeEntry` to :data:`JUDGES` below: its ``name``, ``target``, a one-line
   ``summary``, its ``options`` (each constructor keyword with a type, checked strictly: ``int``,
   ``float``, ``str``, ``bool``, ``Path``, unions with ``None``, the bounded kinds of
   :mod:`rt4chart_plugins.config`, or :class:`Nested` for a dict of another entry's options),
   its ``flags`` (the CLI flags; a flag several judges share, such as ``--model-path``, is one
   flag whose help joins theirs), ``sends_requests``, ``decomposition`` (``"clauses"`` when the
   judge splits no sentence itself, ``"llm"`` when it asks an LLM to) and, if its name may carry
   an option (``hf:REPO``), ``prefix_option``.

Nothing else changes: the CLI builds its flags from the entries, the adapters and the Ray job
accept the new name, and ``tests/unit/judges/test_registry.py`` checks that the declared options
are the constructor's.
"""

from __future__ import annotations

import difflib
import importlib
import os
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, TypeAdapter, ValidationError

from rt4chart_plugins.config import (
    AtLeastOne,
    AtLeastZero,
    Decomposition,
    Finite,
    Probability,
    Seconds,
    SecondsOrNone,
    wanted,
)
from rt4chart_plugins.errors import InvalidInput, unknown_options
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.cache import JudgeCache

#: the judge when none is named and ``$RT4CHART_JUDGE`` is unset: offline, shipped in the wheel
DEFAULT_JUDGE = "trained"


@dataclass(frozen=True)
class Nested:
    """An option that is itself a dict of another entry's options (the ``auto`` judge's
    ``trained`` and ``llm``), checked against that entry."""

    entry: str


@dataclass(frozen=True)
class Flag:
    """A CLI flag that sets one option of a judge. ``option`` may be dotted (``llm.model_path``)
    for a :class:`Nested` option. ``type`` is what argparse converts the value to; ``const`` makes
    a switch (``--no-cache`` sets ``cache=False``); ``negatable`` a ``--x`` / ``--no-x`` pair."""

    flag: str
    option: str
    help: str
    type: type | None = str
    const: Any = None
    negatable: bool = False

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class JudgeEntry:
    name: str
    target: str  # "module:Class"
    summary: str
    #: each constructor keyword and its type
    options: Mapping[str, Any] = field(default_factory=dict)
    flags: tuple[Flag, ...] = ()
    #: whether it calls an API over the network (a Ray job's shared rate limit applies to it)
    sends_requests: bool = False
    #: the decomposition a Verifier uses with it unless told otherwise
    decomposition: Decomposition = "llm"
    #: "module:function" returning the error for options that do not go together, or None
    refuse: str | None = None
    #: the decomposition for these options, where they change it (``local``'s ``read``)
    decomposition_by: Callable[[Mapping[str, Any]], Decomposition] | None = None
    #: the option that ``name:VALUE`` sets to VALUE (``hf:REPO`` → ``model=REPO``); None: no suffix
    prefix_option: str | None = None

    def load(self) -> type[Judge]:
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def spelling(self) -> str:
        """How the name is written where it is offered: ``hf:<model>`` for a name with an option."""
        return f"{self.name}:<{self.prefix_option}>" if self.prefix_option else self.name


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

JUDGES: dict[str, JudgeEntry] = {
    e.name: e
    for e in (
        JudgeEntry(
            "trained",
            "rt4chart_plugins.judges.trained:TrainedJudge",
            "the packaged cross-encoder verifier (offline, fast; the default)",
            options={"artifact_dir": _PATH, "threshold": Probability | None, "threads": AtLeastOne | None},
            flags=(
                Flag("--model-path", "artifact_dir", "an artifact directory (`rt4chart train-verifier --out DIR`)"),
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


_STRICT = ConfigDict(strict=True, arbitrary_types_allowed=True)
_VALIDATORS: dict[Any, TypeAdapter[Any]] = {}


def _kinds(kind: Any) -> tuple[Any, ...]:
    """The members of a union (``X | None``, or a tuple of alternatives), else the kind itself."""
    if isinstance(kind, tuple):
        return tuple(type(None) if k is None else k for k in kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return typing.get_args(kind)
    return (kind,)


def _described(kind: Any) -> str:
    words = {str: "a string", Path: "a path", bool: "true or false", int: "a whole number", float: "a number"}
    parts = []
    for k in _kinds(kind):
        if k is type(None):
            parts.append("None")
        elif isinstance(k, Nested):
            parts.append(f"a dict of the {k.entry!r} judge's options")
        elif isinstance(k, type) and k in words:
            parts.append(words[k])
        elif isinstance(k, type):
            parts.append(f"a {k.__name__}")
        else:
            parts.append(wanted(k))
    return " or ".join(dict.fromkeys(parts))


def _check_value(judge: str, option: str, kind: Any, value: Any) -> None:
    for k in _kinds(kind):
        if isinstance(k, Nested):
            if isinstance(value, dict):
                check_options(k.entry, value, within=f"the {judge!r} judge's {option}")
                return
            continue
        if k not in _VALIDATORS:
            _VALIDATORS[k] = TypeAdapter(k, config=_STRICT)
        try:
            _VALIDATORS[k].validate_python(value)
            return
        except ValidationError:
            continue
    raise InvalidInput(
        f"the {judge!r} judge's option {option} must be {_described(kind)}, got {type(value).__name__} {value!r}"
    )


def check_options(name: str, options: Mapping[str, Any], *, within: str | None = None) -> None:
    """Refuse an option the entry ``name`` does not take (naming the nearest, and the judges that
    do take it) or one of the wrong type."""
    found = JUDGES[name]
    what = within or f"the {name!r} judge"
    if error := unknown_options(options, found.options, what):
        takers = {
            o: [e.name for e in JUDGES.values() if o in e.options] for o in sorted(options) if o not in found.options
        }
        note = "; ".join(f"{o} is an option of the {_either(t)} judge" for o, t in takers.items() if t)
        raise InvalidInput(f"{error}" + (f" ({note})" if note else ""))
    for option, value in options.items():
        _check_value(name, option, found.options[option], value)
    if found.refuse:
        module, _, function = found.refuse.partition(":")
        if error := getattr(importlib.import_module(module), function)(options):
            raise error


@dataclass(frozen=True)
class JudgeChoice:
    """A judge chosen and its options checked, not yet built: a given :class:`Judge`, or a
    registry entry with options."""

    entry: JudgeEntry | None
    options: Mapping[str, Any]
    instance: Judge | None = None

    @property
    def decomposition(self) -> Decomposition:
        """The decomposition it needs unless told otherwise; a :class:`Judge` given as is
        decomposes as it does (``llm``: its own ``decompose``)."""
        if self.entry is None:
            return "llm"
        by = self.entry.decomposition_by
        return by(self.options) if by else self.entry.decomposition

    @property
    def sends_requests(self) -> bool:
        if self.instance is not None:
            from rt4chart_plugins.judges.chat import ChatJudge

            return isinstance(self.instance, ChatJudge)
        return bool(self.entry and self.entry.sends_requests)

    def build(self) -> Judge:
        if self.instance is not None:
            return self.instance
        assert self.entry is not None
        return self.entry.load()(**self.options)


def choose(judge: Judge | str | None = None, options: Mapping[str, Any] | None = None) -> JudgeChoice:
    """The judge a name (or ``None``: ``$RT4CHART_JUDGE``, else the default) and options stand
    for, every option checked, nothing built; a :class:`Judge` given as is takes no options."""
    if options is not None and not isinstance(options, Mapping):
        raise InvalidInput(f"judge options must be a dict, got {type(options).__name__} {options!r}")
    options = dict(options or {})
    if isinstance(judge, Judge):
        if options:
            raise InvalidInput(
                f"judge options {sorted(options)} were given with a Judge instance; configure the instance"
            )
        return JudgeChoice(None, {}, judge)
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
    return JudgeChoice(found, options)


def make_judge(judge: Judge | str | None = None, **kwargs: Any) -> Judge:
    """A judge from a name (see :data:`JUDGES`; ``$RT4CHART_JUDGE`` overrides the default), or the
    given :class:`Judge` itself. Options the judge does not take are refused."""
    return choose(judge, kwargs).build()


def sends_requests(judge: Judge | str | None) -> bool:
    """Whether the judge calls an API over the network (the ones a shared rate limit applies to).
    Read off the entry, without its options, whose checks are the verifier's to make."""
    return entry(judge).sends_requests if judge is None or isinstance(judge, str) else choose(judge).sends_requests


# ---- the CLI's judge flags ---------------------------------------------------------------------


def all_flags() -> dict[str, list[tuple[JudgeEntry, Flag]]]:
    """Every judge flag, with the judges that take it, in the order the entries declare them."""
    flags: dict[str, list[tuple[JudgeEntry, Flag]]] = {}
    for e in JUDGES.values():
        for f in e.flags:
            flags.setdefault(f.flag, []).append((e, f))
    return flags


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def options_from_flags(judge: str | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options that the judge flags given (``{"--timeout": 30.0}``) set for the named judge;
    a flag this judge does not take is refused, naming the judges that do."""
    found = entry(judge)
    mine = {f.flag: f for f in found.flags}
    options: dict[str, Any] = {}
    for flag, value in given.items():
        if flag not in mine:
            takers = [e.name for e, _ in all_flags().get(flag, [])]
            raise InvalidInput(
                f"{flag} is for the {_either(takers)} judge, not {found.name!r}"
                + (f"; its flags: {', '.join(mine)}" if mine else "; it takes no flag")
            )
        f = mine[flag]
        path = f.option.split(".")
        target = options
        for part in path[:-1]:
            target = target.setdefault(part, {})
        target[path[-1]] = f.const if f.const is not None else value
    return options
