"""The fault matrix through ``verify_many``: for every fault of a real misbehaving endpoint on
127.0.0.1, no crash, no NaN, every row reported (scored, partial or failed with a readable
error), the endpoint asked no more than it should be, ``Retry-After`` honoured, fatal errors and
a dead endpoint stopping the batch with one error, and a transient fault followed by success
giving exactly the clean run's reports."""

import pytest

from fault_matrix import FAULTS, check, run

pytest.importorskip("openai")


@pytest.fixture(scope="module")
def clean():
    outcome = run(FAULTS[0])
    assert outcome.error is None and len(outcome.reports) == 4
    assert {c.label.value for r in outcome.reports for c in r.claims} == {"ENT", "NIC"}
    return outcome.reports


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault(fault, clean):
    outcome = run(fault)
    assert check(outcome, clean) == []
    if fault.expect == "unjudged":  # a readable reason, not a traceback
        errors = {c.error for r in outcome.reports for c in r.claims if not c.judged}
        assert errors and all("Traceback" not in e for e in errors)


def test_a_fatal_error_sends_no_request_for_the_other_rows():
    outcome = run(next(f for f in FAULTS if f.name == "401 unauthorized"))
    assert "401" in outcome.error and "key" in outcome.error
    assert outcome.attempts <= 2 and all(r is None for r in outcome.reports)

