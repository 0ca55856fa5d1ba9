"""What a registry entry says about one judge, as types: the table in
:mod:`rt4chart_plugins.judges.registry` is made of these, and the checks of
:mod:`rt4chart_plugins.judges.ready` and the CLI's flags read them.

Kept apart from the table so that the table holds only the judges, and a reader of an entry finds
what each of its fields means in one short file.

How to add a judge
------------------
1. Write it in its own package, ``judges/<name>/``: a :class:`Judge` subclass whose constructor
   takes keyword options and loads nothing (load in :meth:`Judge.prepare` or on first use). Its
   ``name`` must be known when it is built and stay the same after it loads: reports, caches and
   the Ray job read it before the first row.
2. Add one :class:`JudgeEntry` to :data:`~rt4chart_plugins.judges.registry.JUDGES`: its ``name``, ``target``, a one-line
   ``summary``, its ``options`` (each constructor keyword with a type, checked strictly: ``int``,
   ``float``, ``str``, ``bool``, ``Path``, unions with ``None``, the bounded kinds of
   :mod:`rt4chart_plugins.config`, or :class:`Nested` for a dict of another entry's options),
   its ``flags`` (the CLI flags; a flag several judges share, such as ``--model-path``, is one
   flag whose help joins theirs), ``sends_requests``, ``decomposition`` (``"clauses"`` when the
   judge splits no sentence itself, ``"llm"`` when it asks an LLM to) and, if its name may carry
   an option (``hf:REPO``), ``prefix_option``. What it needs to run is checked when it is built:
   ``required`` options, ``paths`` that must name a file or a folder holding given files, the
   ``extra`` it imports, and the pipeline options it ``ignores`` (refused, not recorded).

Nothing else changes: the CLI builds its flags from the entries, the adapters and the Ray job
accept the new name, and ``tests/unit/judges/test_registry.py`` checks that the declared options
are the constructor's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rt4chart_plugins.config import Decomposition
from rt4chart_plugins.judges.base import Judge


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
class Extra:
    """The optional dependency a judge cannot run without: the module it imports, the package
    that brings it and the extra that installs it. Looked for (not imported) when it is built."""

    module: str
    package: str
    extra: str


@dataclass(frozen=True)
class Holds:
    """What a path option must name when the judge is built: a folder holding ``files`` (each), or,
    with no files, a file; ``fix`` says how to get one."""

    files: tuple[str, ...] = ()
    fix: str = ""


@dataclass(frozen=True)
class Ignored:
    """Values of a pipeline option the judge would silently not honour (``decomposition="llm"``
    for a judge that only reads clauses): refused when it is built, not recorded in a config that
    says what did not happen. ``when``: the judge's options under which it ignores them (None:
    always)."""

    option: str
    values: tuple[Any, ...]
    why: str
    when: Callable[[Mapping[str, Any]], bool] | None = None

    def applies(self, judge_options: Mapping[str, Any], value: Any) -> bool:
        return value in self.values and (self.when is None or self.when(judge_options))


@dataclass(frozen=True)
class JudgeEntry:
    name: str
    target: str  # "module:Class"
    summary: str
    #: each constructor keyword and its type
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the options it cannot be built without (``hf``'s ``model``)
    required: tuple[str, ...] = ()
    #: path options that must name what is there when it is built
    paths: Mapping[str, Holds] = field(default_factory=dict)
    #: the optional dependency it needs, or None: it runs on the package's own
    extra: Extra | None = None
    #: pipeline options it ignores, refused when it is built
    ignores: tuple[Ignored, ...] = ()
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
        decomposes as it does (``llm``: its own ``decompose``; ``clauses`` for one that reads
        only clauses)."""
        if self.entry is None:
            return "clauses" if self.instance is not None and self.instance.clause_claims else "llm"
        by = self.entry.decomposition_by
        return by(self.options) if by else self.entry.decomposition

    @property
    def sends_requests(self) -> bool:
        if self.instance is not None:
            from rt4chart_plugins.judges.chat import ChatJudge

            return isinstance(self.instance, ChatJudge)
        return bool(self.entry and self.entry.sends_requests)

    def build(self) -> Judge:
        """The judge, built from the options checked when it was chosen (not checked again)."""
        if self.instance is not None:
            return self.instance
        assert self.entry is not None
        return self.entry.load()(**self.options)
