"""The pytest idiom: a faithfulness regression fails a test, and the failure names the claims.

    # conftest.py
    pytest_plugins = ["rt4chart_plugins.audit.pytest_plugin"]

    # test_faithfulness.py
    def test_no_answer_got_worse(rt4chart_gate):
        rt4chart_gate("baseline.jsonl", "results.jsonl", max_score_drop=0.05)

The fixture compares the two audits (:func:`~rt4chart_plugins.audit.diff.diff_reports`), fails
the test with the gate's message (each answer that broke, each claim newly unfaithful with its
evidence) and records the diff's counts as JUnit properties. It is enabled per suite, in a
conftest, not through an entry point that would load the package into every pytest run.
"""

from __future__ import annotations

from typing import Any

import pytest


def _record(record_property: Any, diff: Any) -> None:
    s = diff.summary
    for key, value in (
        ("rt4chart_newly_hallucinated", s.count_of("newly_hallucinated")),
        ("rt4chart_fixed", s.count_of("fixed")),
        ("rt4chart_mean_score_before", s.mean_score_before),
        ("rt4chart_mean_score_after", s.mean_score_after),
    ):
        record_property(key, value)


@pytest.fixture
def rt4chart_gate(record_property: Any):
    """``rt4chart_gate(before, after, *, fail_on=("new-hallucinations",), max_score_drop=None, **diff_kwargs)``:
    fails the test when the gate fails, else returns the :class:`~rt4chart_plugins.audit.diff.AuditDiff`."""

    def gate(
        before: Any,
        after: Any,
        *,
        fail_on: tuple[str, ...] | list[str] = ("new-hallucinations",),
        max_score_drop: float | None = None,
        **diff_kwargs: Any,
    ):
        from rt4chart_plugins.audit.gate import FaithfulnessRegression, assert_no_regression

        try:
            diff = assert_no_regression(before, after, fail_on=fail_on, max_score_drop=max_score_drop, **diff_kwargs)
        except FaithfulnessRegression as exc:
            _record(record_property, exc.diff)
            pytest.fail(str(exc), pytrace=False)
        _record(record_property, diff)
        return diff

    return gate
