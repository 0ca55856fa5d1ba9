"""Real reports for the audit's tests (tests/unit/audit, tests/browser), made by the shipped
trained verifier (no model download, a fraction of a second each): a CON, a NIC with a phrase, a
refusal, a JSON record and a row that failed, as ``rt4chart verify`` writes them for a batch.
The two fixtures are imported by both folders' conftest.py."""

from __future__ import annotations

import pytest

from rt4chart_plugins import Verifier
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
