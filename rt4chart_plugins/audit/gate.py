"""A faithfulness regression as a CI failure: an exit-code policy over a diff, its violations in
words that name the claims, and JUnit XML for the CI systems that read test reports.

A gate that only said "score dropped" would send the engineer back to the page; the message
names each answer that broke and each claim that newly lacks support, with the context sentence
that contradicts it, so the failing job's log is enough to start fixing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rt4chart_plugins.audit.diff import diff_reports
from rt4chart_plugins.audit.diff_types import AuditDiff, ClaimChange, ClaimDiff, RowChange, RowDiff

Rule = Literal["new-hallucinations", "new-unfaithful-claims", "new-failures", "missing-rows"]
#: what each rule of ``--fail-on`` fails on, in words
RULES: dict[str, str] = {
    "new-hallucinations": "an answer faithful before is hallucinated after",
    "new-unfaithful-claims": "a claim is newly CON or NIC, even in an answer already hallucinated",
    "new-failures": "an answer scored before failed after",
    "missing-rows": "a row of the run before is missing after",
}


class Gate(BaseModel):
    """The policy: which changes fail, and how far the mean score may drop."""

    model_config = ConfigDict(extra="forbid")

    fail_on: list[Rule] = ["new-hallucinations"]  # pydantic copies it for each gate
    max_score_drop: float | None = Field(default=None, ge=0.0, le=1.0)


class Violation(BaseModel):
    rule: str
    row_id: str | None = None  # None: a rule about the whole run (the mean score)
    message: str


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def claim_words(c: ClaimDiff) -> str:
    """One changed claim, as a log line: its label before and after, its text, its evidence."""
    now, was = c.after, c.before
    before = c.label_before or ("—" if was is None else "UNJUDGED")
    after = c.label_after or ("—" if now is None else "UNJUDGED")
    head = f"{before} → {after}"
    claim = now or was
    assert claim is not None
    line = f'{str(c.change).replace("_", " ")} claim {claim.id} [{head}] "{_short(claim.text)}"'
    if was is not None and now is not None and was.text != now.text:
        line += f' (was "{_short(was.text)}")'
    if now is not None and now.evidence:
        line += " — evidence: " + "; ".join(f'[{e.sentence_id}] "{_short(e.text, 100)}"' for e in now.evidence)
    return line


def row_words(row: RowDiff) -> str:
    """One answer's change and its changed claims, as indented log lines."""
    b, a = row.before, row.after
    score = f"score {b.score:.2f} → {a.score:.2f}" if b and a and b.score is not None and a.score is not None else ""
    meta = ", ".join(f"{k}={v}" for k, v in row.meta.items())
    lines = [
        f"  {row.id}: {str(row.change).replace('_', ' ')}"
        + (f", {score}" if score else "")
        + (f" [{meta}]" if meta else "")
    ]
    for side in (b, a):
        if side is not None and side.error and not side.ok:
            lines.append(f"    {'before' if side is b else 'after'}: {side.error}")
    lines += [
        f"    {claim_words(c)}"
        for c in row.claims
        if c.change in (ClaimChange.NEW_UNFAITHFUL, ClaimChange.CHANGED_LABEL, ClaimChange.FIXED)
    ]
    return "\n".join(lines)


def check(diff: AuditDiff, gate: Gate) -> list[Violation]:
    """Every violation of the policy, row by row, then the mean score's."""
    out: list[Violation] = []
    rules = set(gate.fail_on)
    for row in diff.rows:
        hit = None
        if "new-hallucinations" in rules and row.change == RowChange.NEWLY_HALLUCINATED:
            hit = "new-hallucinations"
        elif "new-unfaithful-claims" in rules and row.claims_of(ClaimChange.NEW_UNFAITHFUL):
            hit = "new-unfaithful-claims"
        elif "new-failures" in rules and row.change == RowChange.NEWLY_FAILED:
            hit = "new-failures"
        elif "missing-rows" in rules and row.change == RowChange.ONLY_BEFORE:
            hit = "missing-rows"
        if hit:
            out.append(Violation(rule=hit, row_id=row.id, message=row_words(row)))
    s = diff.summary
    drop = -s.mean_score_change if s.mean_score_change is not None else None
    if gate.max_score_drop is not None and drop is not None and drop > gate.max_score_drop + 1e-9:
        out.append(
            Violation(
                rule="max-score-drop",
                message=(
                    f"  mean score {s.mean_score_before:.3f} → {s.mean_score_after:.3f}"
                    f" over {s.scored_in_both} answers: "
                    f"a drop of {drop:.3f}, more than {gate.max_score_drop:.3f}"
                ),
            )
        )
    return out


def failure_message(diff: AuditDiff, violations: list[Violation]) -> str:
    """The violations as one message: a headline per rule, then each answer with its claims."""
    s = diff.summary
    lines = [
        f"faithfulness regressed from {s.before} to {s.after}: "
        + ", ".join(f"{n} {rule}" for rule, n in _by_rule(violations).items())
    ]
    lines += [v.message for v in violations]
    return "\n".join(lines)


def _by_rule(violations: list[Violation]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in violations:
        out[v.rule] = out.get(v.rule, 0) + 1
    return out


def junit_xml(diff: AuditDiff, gate: Gate, violations: list[Violation]) -> str:
    """A JUnit report: one test case per answer (failed when it broke a rule, skipped when it was
    in one run only and no rule covers that) and one for the mean score when a limit is set."""
    by_row = {v.row_id: v for v in violations if v.row_id is not None}
    suite = ET.Element("testsuite", name="rt4chart diff", tests="0", failures="0", skipped="0")
    tests = failures = skipped = 0
    for row in diff.rows:
        group = row.meta.get("task")
        case = ET.SubElement(suite, "testcase", classname="rt4chart.diff" + (f".{group}" if group else ""), name=row.id)
        tests += 1
        v = by_row.get(row.id)
        if v is not None:
            failures += 1
            ET.SubElement(case, "failure", message=f"{v.rule}: {row.change}", type=v.rule).text = v.message
        elif row.change in (RowChange.ONLY_AFTER, RowChange.ONLY_BEFORE):
            skipped += 1
            ET.SubElement(case, "skipped", message=f"{row.change}: nothing to compare")
    if gate.max_score_drop is not None:
        case = ET.SubElement(suite, "testcase", classname="rt4chart.diff", name="mean score")
        tests += 1
        v = next((x for x in violations if x.rule == "max-score-drop"), None)
        if v is not None:
            failures += 1
            ET.SubElement(case, "failure", message="max-score-drop", type="max-score-drop").text = v.message
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


class FaithfulnessRegression(AssertionError):
    """A diff broke the gate; the message names the answers and the claims."""

    def __init__(self, message: str, diff: AuditDiff, violations: list[Violation]):
        super().__init__(message)
        self.diff = diff
        self.violations = violations


def assert_no_regression(
    before: Any,
    after: Any,
    *,
    fail_on: list[str] | tuple[str, ...] = ("new-hallucinations",),
    max_score_drop: float | None = None,
    **diff_kwargs: Any,
) -> AuditDiff:
    """Compare two audits and raise :class:`FaithfulnessRegression` (an ``AssertionError``) when
    the gate fails; return the diff when it passes. ``before`` / ``after``: what
    :func:`~rt4chart_plugins.audit.diff.diff_reports` takes."""
    gate = Gate(fail_on=list(fail_on), max_score_drop=max_score_drop)  # type: ignore[arg-type]
    diff = diff_reports(before, after, **diff_kwargs)
    violations = check(diff, gate)
    if violations:
        raise FaithfulnessRegression(failure_message(diff, violations), diff, violations)
    return diff


__all__ = [
    "Gate",
    "Violation",
    "RULES",
    "check",
    "failure_message",
    "junit_xml",
    "assert_no_regression",
    "FaithfulnessRegression",
]
