"""The guard's options as one value: what a user may see of an answer is decided by these six,
and their defaults are written here once.

``Verifier.guard``, :class:`~rt4chart_plugins.guard.stream.StreamGuard`, :func:`guard_report`, the
adapters' guards and ``rt4chart guard`` all take the same keywords; each builds one
:class:`GuardOptions` (checked there, before any work) and hands it down whole, so a default or a
check cannot drift between them. A misspelt option or value is one :class:`InvalidInput` naming
what exists, never pydantic's error list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, ValidationError, field_validator

from rt4chart_plugins.errors import InvalidInput, unknown_options
from rt4chart_plugins.guard.result import OnError, Policy

POLICIES: tuple[Policy, ...] = ("drop", "flag", "refuse")
ON_ERROR: tuple[OnError, ...] = ("report", "pass", "raise")
#: what the user reads instead of an answer that is refused (or left with nothing)
DEFAULT_MESSAGE = "I can't answer that from the sources I was given."


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

    @field_validator("policy", mode="before")
    @classmethod
    def _policy(cls, value: Any) -> Any:
        if value not in POLICIES:
            raise ValueError(f"unknown guard policy {value!r}: use one of {', '.join(map(repr, POLICIES))}")
        return value

    @field_validator("on_error", mode="before")
    @classmethod
    def _on_error(cls, value: Any) -> Any:
        if value not in ON_ERROR:
            raise ValueError(f"unknown on_error {value!r}: use one of {', '.join(map(repr, ON_ERROR))}")
        return value

    @field_validator("min_support", mode="before")
    @classmethod
    def _min_support(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ValueError(f"min_support must be a number from 0 to 1, got {value!r}")
        return value

    @field_validator("message", mode="before")
    @classmethod
    def _message(cls, value: Any) -> Any:
        if not isinstance(value, str) or not value.strip():
            raise ValueError("message (what a refused answer reads) must be a non-empty string")
        return value

    @classmethod
    def of(cls, **options: Any) -> GuardOptions:
        """The options from keywords, each checked: an unknown one named beside those that exist,
        a bad value in the words of its check."""
        if error := unknown_options(options, cls.model_fields, "the guard"):
            raise error
        try:
            return cls(**options)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(map(str, first["loc"]))
            message = first["msg"].removeprefix("Value error, ")
            raise InvalidInput(message if where in message else f"{where}: {message}") from None

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
