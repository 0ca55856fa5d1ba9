"""Two audits compared (``rt4chart_plugins.audit.diff``): rows matched, claims paired and marked,
the summary counted, on real reports of the shipped trained verifier."""

from __future__ import annotations

import json

import pytest

from rt4chart_plugins.audit import ClaimChange, RowChange, diff_reports
from rt4chart_plugins.audit.align import pair_claims
from rt4chart_plugins.audit.rows import AuditRow
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.types import BatchRow, ClaimVerdict, Label, Span
from audit_samples import CON_CONTEXT


@pytest.fixture(scope="module")
def diff(runs):
    return diff_reports(*runs)


def _row(diff, row_id):
    return next(r for r in diff.rows if r.id == row_id)


def test_each_answer_gets_its_change_worst_first(diff):
    changes = {r.id: r.change for r in diff.rows}
    assert changes == {"broke": RowChange.NEWLY_HALLUCINATED, "failing": RowChange.NEWLY_FAILED,
                       "policy": RowChange.STILL_HALLUCINATED, "gone": RowChange.ONLY_BEFORE,
                       "new": RowChange.ONLY_AFTER, "fixed": RowChange.FIXED, "same": RowChange.STILL_FAITHFUL,
                       "r-new": RowChange.STILL_FAITHFUL}
    ranks = [r.rank for r in diff.rows]
    assert ranks == sorted(ranks) and diff.rows[0].id == "broke"
    broke = _row(diff, "broke")
    assert (broke.before.score, broke.after.score, broke.score_change) == (1.0, 0.5, -0.5)
    assert broke.before.label == "ENT" and broke.after.label == "CON" and broke.after.hallucinated
    failing = _row(diff, "failing")
    assert failing.after.score is None and failing.after.error == "JudgeError: the endpoint timed out"
    assert failing.claims == [] and failing.score_change is None


def test_rows_match_by_id_else_by_context_and_question(diff):
    renamed = _row(diff, "r-new")
    assert renamed.matched_by == "context_question" and (renamed.before.id, renamed.after.id) == ("r-old", "r-new")
    assert _row(diff, "broke").matched_by == "id"
    assert _row(diff, "gone").matched_by is None and _row(diff, "gone").after is None
    assert _row(diff, "new").before is None


def test_claims_are_paired_by_text_else_by_wording_and_marked(diff):
    broke = _row(diff, "broke")
    first, second = broke.claims
    assert (first.change, first.match, first.label_before, first.label_after) == (
        ClaimChange.NEW_UNFAITHFUL, "aligned", "ENT", "CON")
    assert first.before.text == "The free trial lasts 14 days." and first.after.text == "The free trial lasts 30 days."
    assert first.after.evidence[0].text == CON_CONTEXT[0]  # the sentence that contradicts it
    assert (second.change, second.match) == (ClaimChange.UNCHANGED, "text")
    fixed = _row(diff, "fixed").claims
    assert [(c.change, c.label_before, c.label_after) for c in fixed] == [(ClaimChange.FIXED, "CON", "ENT")]
    # the policy answer lost its baseless last sentence: that claim is fixed, by its absence (the
    # four before it are the clauses of the first two sentences)
    policy = _row(diff, "policy").claims
    assert [c.change for c in policy] == [ClaimChange.UNCHANGED] * 4 + [ClaimChange.FIXED]
    assert policy[4].after is None and policy[4].label_before == "NIC"


def test_the_summary_counts_answers_claims_scores_and_tasks(diff):
    s = diff.summary
    assert s.rows == 8 and s.matched == 6 and s.scored_in_both == 5
    assert s.changes == {"newly_hallucinated": 1, "newly_failed": 1, "still_hallucinated": 1, "only_before": 1,
                         "only_after": 1, "fixed": 1, "still_faithful": 2}
    assert s.claim_changes == {"new_unfaithful": 1, "fixed": 2, "unchanged": 7}
    scored = [r for r in diff.rows if r.score_change is not None]
    assert s.mean_score_before == pytest.approx(sum(r.before.score for r in scored) / 5)
    assert s.mean_score_change == pytest.approx(sum(r.score_change for r in scored) / 5)
    assert (s.hallucinated_before, s.hallucinated_after) == (2, 2)
    groups = {(g.field, g.value): g for g in s.groups}
    assert set(groups) == {("task", "QA"), ("task", "Summary")}
    assert groups["task", "QA"].changes["newly_hallucinated"] == 1 and groups["task", "Summary"].changes["fixed"] == 1
    assert groups["task", "QA"].rows + groups["task", "Summary"].rows == 8


def test_the_json_of_a_row_carries_its_claims_not_the_reports_texts(diff):
    data = json.loads(_row(diff, "broke").model_dump_json())
    assert "before_report" not in data and "after_report" not in data
    assert data["claims"][0]["after"]["label"] == "CON" and data["change"] == "newly_hallucinated"


def test_a_row_matched_by_id_with_another_question_says_so(verifier):
    before = [("q", verifier.verify(context=CON_CONTEXT, answer="The free trial lasts 14 days.", question="A?"))]
    after = [("q", verifier.verify(context=CON_CONTEXT[:1], answer="The free trial lasts 14 days.", question="B?"))]
    row = diff_reports(before, after).rows[0]
    assert row.matched_by == "id" and row.warnings == ["the questions differ", "the contexts differ"]


def test_batch_files_and_framework_lists_with_missing_rows_are_read(tmp_path, runs):
    before, after = runs
    paths = []
    for name, rows in (("before", before), ("after", after)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(BatchRow(id=r.id, ok=r.ok, report=r.report, error=r.error).model_dump_json() + "\n"
                                for r in rows) + "not json\n")
        paths.append(path)
    diff = diff_reports(*paths)
    assert diff.summary.before == "before.jsonl" and _row(diff, "broke").change == RowChange.NEWLY_HALLUCINATED
    # a damaged line on both sides is a row that failed in both, not a crash
    assert _row(diff, f"line-{len(before) + 1}").change == RowChange.FAILED
    # a framework's list with a row its metric did not score (ragas' reports_for gives None)
    listed = diff_reports([before[0].report, None], [None, before[0].report])
    assert [r.change for r in listed.rows] == [RowChange.NEWLY_FAILED, RowChange.RECOVERED]


def test_bench_records_without_texts_pair_their_claims_by_span(tmp_path):
    def record(label, p_ent):
        return {"id": "r1", "ok": True, "label": label, "hallucinated": label != "ENT", "state": "verified",
                "claims": [{"id": 0, "label": "ENT", "span": [0, 20], "p_ent": 0.9},
                           {"id": 1, "label": label, "span": [21, 40], "p_ent": p_ent}]}
    b, a = tmp_path / "b.jsonl", tmp_path / "a.jsonl"
    b.write_text(json.dumps(record("ENT", 0.8)) + "\n")
    a.write_text(json.dumps(record("NIC", 0.2)) + "\n")
    row = diff_reports(b, a).rows[0]
    assert row.change == RowChange.NEWLY_HALLUCINATED
    assert [(c.change, c.match) for c in row.claims] == [(ClaimChange.UNCHANGED, "aligned"),
                                                         (ClaimChange.NEW_UNFAITHFUL, "aligned")]


def _claim(i, text, label, start, end):
    return ClaimVerdict(id=i, text=text, sentence_id=i, label=label, answer_span=Span(start=start, end=end, text=text))


def test_pairing_keeps_unlike_claims_apart_and_places_dropped_ones():
    before = [_claim(0, "The office opens at 9 AM.", Label.ENT, 0, 25),
              _claim(1, "Parking is free for visitors.", Label.NIC, 26, 55),
              _claim(2, "The museum closes on Mondays.", Label.ENT, 56, 85)]
    after = [_claim(0, "The office opens at 10 AM.", Label.CON, 0, 26),
             _claim(1, "The museum closes on Mondays.", Label.ENT, 27, 56),
             _claim(2, "Tickets cost twelve euros.", Label.NIC, 57, 83)]
    pairs = pair_claims(before, after, before_length=85, after_length=83)
    got = [(p.before.id if p.before else None, p.after.id if p.after else None, p.match) for p in pairs]
    assert got == [(0, 0, "aligned"), (1, None, None), (2, 1, "text"), (None, 2, None)]


def test_what_is_not_a_run_is_refused(tmp_path):
    with pytest.raises(InvalidInput, match="no such results file"):
        diff_reports(tmp_path / "missing.jsonl", [])
    with pytest.raises(InvalidInput, match="not a Report"):
        diff_reports([42], [])
    empty = diff_reports([], [])
    assert empty.rows == [] and empty.summary.mean_score_before is None and empty.summary.changes == {}


def test_audit_rows_keep_their_meta_and_inputs_join_it_by_id(tmp_path, runs):
    before, after = runs
    stripped = [AuditRow(id=r.id, ok=r.ok, report=r.report, error=r.error) for r in before]
    inputs = tmp_path / "samples.jsonl"
    inputs.write_text("".join(json.dumps({"id": r.id, "context": "x", "answer": "y", "model": "m1" if i % 2 else "m2"})
                              + "\n" for i, r in enumerate(after)))
    diff = diff_reports(stripped, after, inputs=inputs, by=["model"])
    assert {g.value for g in diff.summary.groups} == {"m1", "m2", "(none)"}  # "gone" is in no input row
    assert _row(diff, "broke").meta["model"] in ("m1", "m2") and _row(diff, "broke").meta["task"] == "QA"
