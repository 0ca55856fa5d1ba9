"""What the guard returns: the text a user may see, and why it is that text.

Everything the guard did is in the result, so an auditor can tell a removed clause from one that
never was: each claim taken out (or marked) with its span in the original answer, its label and
the reason; each kept claim with the ``[n]`` markers it got and the sources they stand for; the
full verification report.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rt4chart_plugins.types import Evidence, Label, Report, Span

#: what the guard does with the claims the context does not support
Policy = Literal["drop", "flag", "refuse"]
#: what it does with an answer it could not verify: ``report`` gives no text and the failed
#: report, ``pass`` the answer as it came, marked unverified, ``raise`` the error
OnError = Literal["report", "pass", "raise"]
#: ``guarded``: the text is the guard's; ``refused``: the configured message replaced the answer;
#: ``unverified``: the answer could not be verified and was passed as it came (``on_error="pass"``);
#: ``failed``: it could not be verified, and there is no text
Status = Literal["guarded", "refused", "unverified", "failed"]


class GuardedClaim(BaseModel):
    """A claim the guard took out or marked, where it stood in the answer and why."""

    claim_id: int
    label: Label | None  # None: the claim could not be judged
    span: Span | None  # in the original answer; None when the claim maps to no span of it
    reason: str


class Source(BaseModel):
    """What a ``[n]`` marker stands for: a passage of a list-of-passages context, or a sentence."""

    marker: int
    passage: int
    sentence_id: int | None = None  # None: the marker is the whole passage
    text: str
    metadata: dict[str, Any] | None = None  # the passage's metadata where the caller gave some


class Citation(BaseModel):
    """A kept span of the answer with the markers it got and the evidence behind them."""

    claim_ids: list[int]
    span: Span  # in the original answer
    markers: list[int]
    evidence: list[Evidence] = Field(default_factory=list)


class GuardedAnswer(BaseModel):
    """An answer after the guard: ``text`` is what a user may see (None: nothing may be shown,
    the answer could not be verified), ``report`` the full verification behind it."""

    text: str | None
    status: Status
    policy: Policy
    report: Report
    removed: list[GuardedClaim] = Field(default_factory=list)
    flagged: list[GuardedClaim] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: True when the answer stopped before its last sentence ended (a stream cut off)
    cut_off: bool = False

    @property
    def changed(self) -> bool:
        """Whether the user sees something else than the answer as it came."""
        return self.text != self.report.answer
