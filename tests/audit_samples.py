"""Real reports for the audit's tests (tests/unit/audit, tests/browser), made by the shipped
trained verifier (no model download, a fraction of a second each): a CON, a NIC with a phrase, a
refusal, a JSON record and a row that failed, as ``rt4chart verify`` writes them for a batch.
The two fixtures are imported by both folders' conftest.py."""

from __future__ import annotations

import pytest

from rt4chart_plugins import Verifier
from rt4chart_plugins.audit.rows import AuditRow
from rt4chart_plugins.types import BatchRow
from policy_example import POLICY_ANSWER, POLICY_CONTEXT

CON_CONTEXT = ["The free trial lasts 14 days.", "Only verified users are eligible."]
RECORD = '{"name": "Harbor Diner", "city": "Philadelphia", "attributes": {"HasTV": "False", "WiFi": "free"}}'
XSS_CONTEXT = ['<script>window.pwned=1</script> The office opens at 9 AM.',
               '<img src=x onerror="window.pwned=2"> See <a href="javascript:window.pwned=3">the hours</a>.']
XSS_ANSWER = 'The office opens at 10 AM. <script>window.pwned=4</script>'


def batch_rows(verifier: Verifier) -> list[BatchRow]:
    reports = {
        "policy": verifier.verify(context=POLICY_CONTEXT, answer=POLICY_ANSWER, question="Who can get the trial?"),
        "con": verifier.verify(context=CON_CONTEXT, answer="The free trial lasts 30 days."),
        "refusal": verifier.verify(context=CON_CONTEXT, answer="I cannot answer that."),
        "record": verifier.verify(context=RECORD, answer="Harbor Diner in Philadelphia has TVs and free WiFi."),
    }
    rows = [BatchRow(id=k, ok=True, report=r) for k, r in reports.items()]
    rows.append(BatchRow(id="broken", ok=False, error="ValidationError: answer: Field required"))
    return rows


@pytest.fixture(scope="session")
def verifier() -> Verifier:
    return Verifier("trained")


@pytest.fixture(scope="session")
def audit_rows(verifier) -> list[BatchRow]:
    """What ``rt4chart verify`` writes for a batch of five samples, one of which failed."""
    return batch_rows(verifier)


# --- two runs of the same questions, for the diff (tests/unit/audit/test_diff*.py, tests/browser) ----

#: (id, task, context, answer before, answer after); None: the row is missing from that run
CHANGES = [
    ("same", "QA", CON_CONTEXT, "The free trial lasts 14 days.", "The free trial lasts 14 days."),
    ("broke", "QA", CON_CONTEXT, "The free trial lasts 14 days. Only verified users are eligible.",
     "The free trial lasts 30 days. Only verified users are eligible."),
    ("fixed", "Summary", CON_CONTEXT, "The free trial lasts 30 days.", "The free trial lasts 14 days."),
    ("policy", "Summary", POLICY_CONTEXT, POLICY_ANSWER, POLICY_ANSWER.rsplit(" The trial also", 1)[0]),
    ("gone", "QA", CON_CONTEXT, "The free trial lasts 14 days.", None),
    ("new", "QA", CON_CONTEXT, None, "Only verified users are eligible."),
]


def diff_runs(verifier: Verifier) -> tuple[list[AuditRow], list[AuditRow]]:
    """Two real runs: one answer broke, one was fixed, one lost its baseless claim, one failed
    after, one row is in each run only, and one is renamed (matched by context and question)."""
    before: list[AuditRow] = []
    after: list[AuditRow] = []
    for row_id, task, context, old, new in CHANGES:
        for run, answer in ((before, old), (after, new)):
            if answer is not None:
                report = verifier.verify(context=context, answer=answer, question=f"What does {row_id} say?")
                run.append(AuditRow(id=row_id, ok=True, report=report, meta={"task": task}))
    before.append(AuditRow(id="failing", ok=True, meta={"task": "QA"},
                           report=verifier.verify(context=CON_CONTEXT, answer="The trial lasts 14 days.")))
    after.append(AuditRow(id="failing", ok=False, error="JudgeError: the endpoint timed out", meta={"task": "QA"}))
    for run, row_id in ((before, "r-old"), (after, "r-new")):
        run.append(AuditRow(id=row_id, ok=True, meta={"task": "QA"}, report=verifier.verify(
            context=["Support is by email only."], answer="Support is by email only.", question="How is support given?")))
    return before, after


@pytest.fixture(scope="session")
def runs(verifier) -> tuple[list[AuditRow], list[AuditRow]]:
    return diff_runs(verifier)
