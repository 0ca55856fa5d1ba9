"""Why a framework row has no score, typed: the exception the verifier raised, carried to each
adapter's failed-row output beside the reason in words.

A row's reason is written once (:func:`~rt4chart_plugins.detector.describe_error`); its kind is
read off the exception's class, never parsed back out of that text, so an error whose message
happens to start with another class's name keeps its own kind.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.types import Report

FailureKind = Literal["invalid_input", "timeout", "judge"]


class RowFailure(BaseModel):
    """A failed row's error, typed: ``kind`` says what the user does next (fix the row, give it
    more time, look at the judge), ``error_type`` names the class that was raised
    (``InvalidReply``, ``JudgeUnavailable``, ...; ``JudgeError`` when the run itself failed, no
    claim judged), ``message`` is the row's reason as ``report.error`` words it. The exception
    itself rides along (``exception``), left out of any dump."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    kind: FailureKind
    error_type: str
    message: str
    exception: BaseException | None = Field(default=None, exclude=True, repr=False)

    @classmethod
    def of(cls, report: Report) -> RowFailure:
        """The failure a ``failed`` report stands for. One without an exception beside it (every
        claim unjudged, a stand-in) is the judge's failure."""
        message = report.error or "verification failed"
        exc = report._failure
        if exc is None:
            return cls(kind="judge", error_type=JudgeError.__name__, message=message)
        return cls(kind=kind_of(exc), error_type=type(exc).__name__, message=message, exception=exc)

    def error(self) -> Exception:
        """The exception an adapter told to raise (``on_error="raise"``) raises, of the kind's
        class: :class:`InvalidInput` saying the row's reason, the ``TimeoutError`` as raised, or a
        :class:`JudgeError` saying the reason; what was raised is its ``__cause__``."""
        if self.kind == "timeout" and isinstance(self.exception, TimeoutError):
            return self.exception
        raised: Exception
        if self.kind == "invalid_input":  # the row's reason, with what an adapter added to it
            raised = InvalidInput(self.message.removeprefix("InvalidInput: "))
        else:
            raised = JudgeError(self.message)
        raised.__cause__ = self.exception
        return raised


def kind_of(exc: BaseException) -> FailureKind:
    """What kind of failure an exception is: bad input (ours, pydantic's, or one nested too
    deeply, as :func:`~rt4chart_plugins.detector.describe_error` words them), a timeout, or
    anything else the judge or the run raised."""
    if isinstance(exc, (InvalidInput, ValidationError, RecursionError)):
        return "invalid_input"
    if isinstance(exc, TimeoutError):
        return "timeout"
    return "judge"
