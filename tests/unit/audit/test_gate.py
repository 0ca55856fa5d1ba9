"""The CI gate over a diff: which rules fail, a message that names the claims, JUnit XML that a CI
system reads, and the pytest fixture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from pydantic import ValidationError

from rt4chart_plugins.audit import FaithfulnessRegression, assert_no_regression, diff_reports
from rt4chart_plugins.audit.gate import Gate, check, failure_message, junit_xml

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def diff(runs):
    return diff_reports(*runs)


def test_each_rule_fails_on_its_own_change(diff):
    def hits(**policy):
        return [(v.rule, v.row_id) for v in check(diff, Gate(**policy))]

    assert hits() == [("new-hallucinations", "broke")]
    assert hits(fail_on=["new-unfaithful-claims"]) == [("new-unfaithful-claims", "broke")]
    assert hits(fail_on=["new-failures"]) == [("new-failures", "failing")]
    assert hits(fail_on=["missing-rows"]) == [("missing-rows", "gone")]
    assert hits(fail_on=[]) == []
    # the mean score rose here: no drop to fail on; a diff the other way round drops
    assert hits(fail_on=[], max_score_drop=0.0) == []


def test_a_score_drop_beyond_the_limit_fails_and_says_by_how_much(runs):
    before, after = runs
    reverse = diff_reports(after, before)
    drop = -reverse.summary.mean_score_change
    assert drop > 0.05
    [v] = check(reverse, Gate(fail_on=[], max_score_drop=0.05))
    assert v.rule == "max-score-drop" and f"a drop of {drop:.3f}, more than 0.050" in v.message
    assert check(reverse, Gate(fail_on=[], max_score_drop=round(drop, 3) + 0.001)) == []


def test_the_message_names_the_answer_its_claim_and_the_evidence(diff):
    message = failure_message(diff, check(diff, Gate(fail_on=["new-hallucinations", "new-failures"])))
    lines = message.splitlines()
    assert lines[0] == "faithfulness regressed from before to after: 1 new-hallucinations, 1 new-failures"
    assert "broke: newly hallucinated, score 1.00 → 0.50 [task=QA]" in lines[1]
    assert lines[2].strip() == ('new unfaithful claim 0 [ENT → CON] "The free trial lasts 30 days." '
                                '(was "The free trial lasts 14 days.") — evidence: [0] "The free trial lasts 14 days."')
    assert "failing: newly failed" in message and "after: JudgeError: the endpoint timed out" in message


def test_junit_has_a_case_per_answer_failures_for_the_broken_ones(diff):
    gate = Gate(fail_on=["new-hallucinations", "missing-rows"], max_score_drop=0.5)
    suite = ET.fromstring(junit_xml(diff, gate, check(diff, gate)))
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert suite.get("tests") == str(len(diff.rows) + 1) == str(len(cases))
    assert (suite.get("failures"), suite.get("skipped")) == ("2", "1")
    failure = cases["broke"].find("failure")
    assert failure.get("type") == "new-hallucinations" and "The free trial lasts 30 days." in failure.text
    assert cases["broke"].get("classname") == "rt4chart.diff.QA"
    assert cases["gone"].find("failure") is not None and cases["new"].find("skipped") is not None
    assert cases["mean score"].find("failure") is None and cases["fixed"].find("failure") is None


def test_assert_no_regression_raises_an_assertion_error_or_returns_the_diff(runs):
    before, after = runs
    with pytest.raises(AssertionError, match="new unfaithful claim 0") as info:
        assert_no_regression(before, after)
    assert isinstance(info.value, FaithfulnessRegression) and info.value.violations[0].row_id == "broke"
    passed = assert_no_regression(before, after, fail_on=[], by=[])  # no rule: the diff, whatever changed
    assert passed.summary.count_of("newly_hallucinated") == 1 and passed.summary.groups == []
    assert assert_no_regression(after, after).summary.count_of("newly_hallucinated") == 0


def test_an_unknown_rule_or_limit_is_refused():
    with pytest.raises(ValidationError):
        Gate(fail_on=["new-halucinations"])
    with pytest.raises(ValidationError):
        Gate(max_score_drop=1.5)
    with pytest.raises(ValidationError):
        Gate(fail_on=[], maximum=3)


def test_the_pytest_fixture_fails_a_test_naming_the_claim(pytester, tmp_path, runs):
    before, after = runs
    paths = []
    for name, rows in (("before", before), ("after", after)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(r.model_dump_json(include={"id", "ok", "report", "error"}) + "\n" for r in rows))
        paths.append(path)
    pytester.makeconftest('pytest_plugins = ["rt4chart_plugins.audit.pytest_plugin"]')
    pytester.makepyfile(f"""
        def test_no_regression(rt4chart_gate):
            rt4chart_gate({str(paths[0])!r}, {str(paths[1])!r}, max_score_drop=0.05)

        def test_against_itself(rt4chart_gate):
            diff = rt4chart_gate({str(paths[1])!r}, {str(paths[1])!r})
            assert diff.summary.changes["still_faithful"] >= 1
    """)
    junit = tmp_path / "junit.xml"
    result = pytester.runpytest(f"--junitxml={junit}", "-p", "no:cacheprovider", "-p", "no:asyncio")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*faithfulness regressed from before.jsonl to after.jsonl: 1 new-hallucinations*",
                                 '*new unfaithful claim 0 [[]ENT → CON[]] "The free trial lasts 30 days."*'])
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).iter("property")}
    assert props["rt4chart_newly_hallucinated"] in ("0", "1")
