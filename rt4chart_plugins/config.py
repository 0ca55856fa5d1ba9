"""Pipeline settings, validated once so that a bad setting fails before any judge call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from rt4chart_plugins.errors import InvalidInput, unknown_options

Options = TypeVar("Options", bound=BaseModel)

#: the method's W (docs/configuration.md): context sentences per local window, for a judge that reads a
#: window as it is given
METHOD_WINDOW_SIZE = 25

#: how an answer becomes claims: ``clauses`` (each clause of a sentence, split by rule: no model),
#: ``llm`` (the judge splits each sentence, an LLM judge with a prompt), ``sentence`` (one claim per
#: sentence), ``holistic`` (the judge decomposes the answer as a whole)
Decomposition = Literal["llm", "clauses", "sentence", "holistic"]


class PipelineConfig(BaseModel):
    """Knobs of the RT4CHART backward program (docs/configuration.md). Unknown knobs are refused."""

    model_config = ConfigDict(extra="forbid")

    decomposition: Decomposition | None = Field(
        None,
        description="how answer sentences become claims; None: the judge's own (its registry entry's: clauses "
        "for the trained verifier, llm for LLM judges; llm, its own decompose, for a Judge given as is)",
    )
    window_size: int | None = Field(
        None,
        ge=1,
        description="W: sentences per local window; None leaves it to the judge: the method's 25, or "
        "the whole context as one window for the trained verifier (Judge.one_window)",
    )
    window_overlap: int = Field(10, ge=0, description="O: sentences shared by consecutive windows")
    global_verification: bool = True
    sub_sentence_spans: bool = Field(True, description="ask the judge for the unsupported phrase of unfaithful claims")
    fact_check: bool = Field(
        True, description="overrule ENT when a claim states a number or name the context lacks (rules/facts.py)"
    )
    record_checks: bool = Field(
        True,
        description="on structured (JSON) contexts, overrule ENT when a claim flips a yes/no field or gives "
        "other opening hours (rules/records, written for business records)",
    )
    contrast_check: bool = Field(
        True,
        description="overrule ENT when a claim reuses a context sentence's words with another negation, "
        "quantifier, modality, direction, state, roles, amount, date or price (rules/contrast/)",
    )
    deadline: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="seconds one row may take; past them the row fails with the reason and its work stops (None: no "
        "deadline, though a caller's own timeout still stops the work)",
    )
    max_context_chars: int = Field(
        2_000_000, ge=1, description="contexts longer than this are rejected rather than silently cut"
    )

    @model_validator(mode="after")
    def _overlap_below_size(self) -> PipelineConfig:
        size = self.window_size if self.window_size is not None else METHOD_WINDOW_SIZE
        if self.window_overlap >= size:
            given = f"{size}" if self.window_size is not None else f"{size}, the method's, when it is left unset"
            raise ValueError(
                f"window_overlap ({self.window_overlap}) must be smaller than window_size "
                f"({given}); otherwise windows never advance"
            )
        return self


def options_model(model: type[Options], options: Mapping[str, Any], group: str) -> Options:
    """The ``group`` options (``"pipeline"``, ``"guard"``) given as keywords, as one checked
    ``model``, before any work: an unknown option (``decompositon``) named beside those that exist,
    a bad value as one line in its check's words. Pydantic's raw error list would bury the one
    word the user needs."""
    if error := unknown_options(options, model.model_fields, f"the {group}"):
        raise error
    try:
        return model(**options)
    except ValidationError as exc:
        raise InvalidInput(f"invalid {group} options: {_in_words(exc)}") from None


def _in_words(exc: ValidationError) -> str:
    """Each problem of a validation as its check words it, after the option it concerns unless
    the words name it already (a model-level check has no option; pydantic prefixes a check's own
    message with "Value error, ")."""
    problems = []
    for error in exc.errors(include_url=False):
        where = ".".join(map(str, error["loc"]))
        message = error["msg"].removeprefix("Value error, ")
        problems.append(message if not where or where in message else f"{where}: {message}")
    return "; ".join(problems)


#: what the options outside the pipeline take: rows or requests in flight, retries, seconds, a
#: threshold (a whole number is not a bool, and no number is NaN or infinite)
AtLeastOne = Annotated[int, Field(ge=1, strict=True)]
AtLeastZero = Annotated[int, Field(ge=0, strict=True)]
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
SecondsOrNone = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Finite = Annotated[float, Field(allow_inf_nan=False)]
#: a threshold on a probability (P(ENT), a gate's P): outside [0, 1] it would make every claim one label
Probability = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


def wanted(kind: Any) -> str:
    """What a value of ``kind`` (one of the types above) must be, in words."""
    return _WANTED.get(kind, "valid")


def checked(name: str, value: Any, kind: Any) -> Any:
    """``value`` if it is a ``kind`` (one of the types above), else :class:`InvalidInput` naming
    the option: a bad option must fail where it is given, not as a ``ValueError`` from asyncio or
    a NaN in a report later."""
    try:
        return _ADAPTERS[kind].validate_python(value)
    except ValidationError:
        raise InvalidInput(f"{name} must be {wanted(kind)}, got {value!r}") from None


_WANTED = {
    AtLeastOne: "a whole number of at least 1",
    AtLeastZero: "a whole number of at least 0",
    Seconds: "a number of seconds above 0",
    SecondsOrNone: "a number of seconds of at least 0",
    Finite: "a finite number",
    Probability: "a number in [0, 1] (a probability)",
}
_ADAPTERS: dict[Any, TypeAdapter[Any]] = {kind: TypeAdapter(kind) for kind in _WANTED}
