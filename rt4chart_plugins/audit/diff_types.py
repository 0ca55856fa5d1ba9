"""What a comparison of two audits is, typed (pydantic): each answer's change and its claims'
changes, their words and their order (worst first), and the summary; so the CLI, the CI gate, the
page and a test read the same numbers. :mod:`~rt4chart_plugins.audit.diff` makes them.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from rt4chart_plugins.types import ClaimVerdict, Report


class RowChange(str, Enum):
    """What happened to one answer between the two runs, worst first."""

    NEWLY_HALLUCINATED = "newly_hallucinated"  # faithful before, hallucinated after
    NEWLY_FAILED = "newly_failed"  # scored before, failed after (no verdict any more)
    STILL_HALLUCINATED = "still_hallucinated"
    ONLY_BEFORE = "only_before"  # the row is missing from the run after
    ONLY_AFTER = "only_after"  # a row the run before did not have
    FAILED = "failed"  # failed in both runs
    RECOVERED = "recovered"  # failed before, scored after
    FIXED = "fixed"  # hallucinated before, faithful after
    STILL_FAITHFUL = "still_faithful"

    def __str__(self) -> str:
        return self.value


class ClaimChange(str, Enum):
    """What happened to one claim: its label, or whether it is in the answer at all."""

    NEW_UNFAITHFUL = "new_unfaithful"  # not flagged before (or not there), CON or NIC after
    CHANGED_LABEL = "changed_label"  # CON ↔ NIC, or judged ↔ unjudged
    FIXED = "fixed"  # CON or NIC before, ENT after (or gone from the answer)
    ADDED = "added"  # a new claim, entailed
    REMOVED = "removed"  # an entailed claim the answer no longer makes
    UNCHANGED = "unchanged"

    def __str__(self) -> str:
        return self.value


#: a change in words, for people
ROW_WORDS = {
    RowChange.NEWLY_HALLUCINATED: "newly hallucinated",
    RowChange.NEWLY_FAILED: "newly failed",
    RowChange.STILL_HALLUCINATED: "still hallucinated",
    RowChange.ONLY_BEFORE: "only before",
    RowChange.ONLY_AFTER: "only after",
    RowChange.FAILED: "failed in both",
    RowChange.RECOVERED: "recovered",
    RowChange.FIXED: "fixed",
    RowChange.STILL_FAITHFUL: "still faithful",
}
CLAIM_WORDS = {
    ClaimChange.NEW_UNFAITHFUL: "new unfaithful",
    ClaimChange.CHANGED_LABEL: "changed label",
    ClaimChange.FIXED: "fixed",
    ClaimChange.ADDED: "added",
    ClaimChange.REMOVED: "removed",
    ClaimChange.UNCHANGED: "unchanged",
}
#: how a row of one run found its row in the other: the same id, else the same context and question
MatchedBy = Literal["id", "context_question"]
#: how bad each change is, for sorting the page and the table: lower first
ROW_RANK = {c: i for i, c in enumerate(RowChange)}
CLAIM_RANK = {c: i for i, c in enumerate(ClaimChange)}


class Side(BaseModel):
    """One answer's verdict in one run."""

    id: str
    ok: bool
    state: str  # verified / partial / no_claims / failed
    label: str | None
    hallucinated: bool | None  # None: not scored
    score: float | None  # None: not scored
    claims: int = 0
    error: str | None = None
    judge: str = ""


class ClaimDiff(BaseModel):
    """One claim across the two runs: the claim before and after (either None when the other run's
    answer does not make it), how they were paired and what changed."""

    change: ClaimChange
    match: Literal["text", "aligned"] | None = None  # None: the claim has no partner
    similarity: float | None = None
    before: ClaimVerdict | None = None
    after: ClaimVerdict | None = None

    @property
    def label_before(self) -> str | None:
        return label_of(self.before)

    @property
    def label_after(self) -> str | None:
        return label_of(self.after)


class RowDiff(BaseModel):
    """One answer across the two runs."""

    id: str
    matched_by: MatchedBy | None = None  # None: in one run only
    change: RowChange
    before: Side | None = None
    after: Side | None = None
    score_change: float | None = None  # after − before, when both were scored
    claims: list[ClaimDiff] = Field(default_factory=list)
    meta: dict[str, str] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)  # e.g. matched by id, but the questions differ
    before_report: Report | None = Field(default=None, exclude=True)  # for the page; not in JSON
    after_report: Report | None = Field(default=None, exclude=True)

    def claims_of(self, *changes: ClaimChange) -> list[ClaimDiff]:
        return [c for c in self.claims if c.change in changes]

    @property
    def rank(self) -> int:
        """How bad the change is, for sorting: 0 the worst (:class:`RowChange`'s order)."""
        return ROW_RANK[self.change]


class Group(BaseModel):
    """The summary of the rows that share one value of a field (a task, a model…)."""

    field: str
    value: str
    rows: int
    changes: dict[str, int]
    mean_score_before: float | None
    mean_score_after: float | None


class DiffSummary(BaseModel):
    before: str
    after: str
    rows: int
    matched: int
    changes: dict[str, int]  # RowChange → rows
    claim_changes: dict[str, int]  # ClaimChange → claims
    scored_in_both: int
    hallucinated_before: int  # among the rows scored in both
    hallucinated_after: int
    mean_score_before: float | None  # over the rows scored in both
    mean_score_after: float | None
    groups: list[Group] = Field(default_factory=list)

    @property
    def mean_score_change(self) -> float | None:
        if self.mean_score_before is None or self.mean_score_after is None:
            return None
        return self.mean_score_after - self.mean_score_before

    def count_of(self, change: RowChange | str) -> int:
        """How many answers had this change."""
        return self.changes.get(RowChange(change).value, 0)


class AuditDiff(BaseModel):
    """Two audits compared: a :class:`RowDiff` per answer, worst change first, and the summary."""

    summary: DiffSummary
    rows: list[RowDiff]


def label_of(c: ClaimVerdict | None) -> str | None:
    """A claim's label as a diff compares it: None when it is absent or was not judged."""
    return c.label.value if c is not None and c.judged and c.label is not None else None
