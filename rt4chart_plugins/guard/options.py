"""The guard's options as one value: what a user may see of an answer is decided by these six,
and their defaults are written here once.

``Verifier.guard``, :class:`~rt4chart_plugins.guard.stream.StreamGuard`, :func:`guard_report`, the
adapters' guards and ``rt4chart guard`` all take the same keywords; each builds one
:class:`GuardOptions` (checked there, before any work) and hands it down whole, so a default or a
check cannot drift between them. A misspelt option or value is one :class:`InvalidInput` naming
what exists, never pydantic's error list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, ValidationInfo, field_validator

from rt4chart_plugins.config import options_model
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard.result import OnError, Policy

POLICIES: tuple[Policy, ...] = ("drop", "flag", "refuse")
ON_ERROR: tuple[OnError, ...] = ("report", "pass", "raise")
#: what the user reads instead of an answer that is refused (or left with nothing)
DEFAULT_MESSAGE = "I can't answer that from the sources I was given."


def _listed(choices: tuple[str, ...]) -> str:
    return ", ".join(map(repr, choices))


#: each option's own check, written once: whether a value passes, and what is wrong when it does
#: not (``{value}``: the value given); a type pydantic checks itself (``cite``) needs none
_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "policy": (lambda v: v in POLICIES, f"unknown guard policy {{value!r}}: use one of {_listed(POLICIES)}"),
    "on_error": (lambda v: v in ON_ERROR, f"unknown on_error {{value!r}}: use one of {_listed(ON_ERROR)}"),
    "min_support": (
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0,
        "min_support must be a number from 0 to 1, got {value!r}",
    ),
    "message": (
        lambda v: isinstance(v, str) and bool(v.strip()),
        "message (what a refused answer reads) must be a non-empty string",
    ),
}


class GuardOptions(BaseModel):
    """How the guard acts on a verification (docs/guard.md).

    ``policy``: ``drop`` takes out what the context contradicts or lacks, ``flag`` marks it,
    ``refuse`` answers ``message`` when a claim is contradicted or fewer than ``min_support`` of
    them are supported. ``cite``: ``[n]`` markers for the sources of what is kept. ``quote``: under
    ``flag``, the context sentence a contradicted claim goes against, quoted after the answer.
    ``on_error``: what an answer that could not be verified becomes (``report``: no text and the
    failed report; ``pass``: the answer marked unverified; ``raise``: the error).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    policy: Policy = "drop"
    cite: StrictBool = False
    on_error: OnError = "report"
    message: str = DEFAULT_MESSAGE
    min_support: float = 0.5
    quote: StrictBool = True

    @field_validator(*_CHECKS, mode="before")
    @classmethod
    def _checked(cls, value: Any, info: ValidationInfo) -> Any:
        passes, words = _CHECKS[info.field_name or ""]
        if not passes(value):
            raise ValueError(words.format(value=value))
        return value

    @classmethod
    def of(cls, **options: Any) -> GuardOptions:
        """The options from keywords, each checked: an unknown one named beside those that exist,
        a bad value in the words of its check."""
        return options_model(cls, options, "guard")

    def but(self, **changes: Any) -> GuardOptions:
        """These options with some changed, checked again."""
        return GuardOptions.of(**{**self.model_dump(), **changes})


def given(options: GuardOptions | None, keywords: Mapping[str, Any], **defaults: Any) -> GuardOptions:
    """The options a guard was handed: whole (``options=``), or as the keywords every guard takes
    (``policy="flag"``), over ``defaults`` (a stream guard raises by default); not both at once."""
    if options is None:
        return GuardOptions.of(**{**defaults, **keywords})
    if not isinstance(options, GuardOptions):
        raise InvalidInput(f"options must be a GuardOptions, got {type(options).__name__}")
    if keywords:
        raise InvalidInput(f"give the guard's options whole (options=) or as keywords, not both: {sorted(keywords)}")
    return options


def forwarded(name: str) -> Any:
    """A read-only attribute that reads option ``name`` of its owner's ``guard_options``: a guard
    that carries the options whole still answers ``guard.policy`` as it did when each option was
    an attribute of its own. (A ``property``, which pydantic models leave alone.)"""
    if name not in GuardOptions.model_fields:
        raise AttributeError(f"the guard has no option {name!r}")
    return property(lambda owner: getattr(owner.guard_options, name), doc=f"the guard's ``{name}`` option")
