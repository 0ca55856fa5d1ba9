"""The claim table: one row per claim, the answers without claims kept, CSV and parquet."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from rt4chart_plugins.audit import claim_rows, load_results, reports_to_dataframe, write_table
from rt4chart_plugins.audit.table import COLUMNS
from rt4chart_plugins.errors import InvalidInput


def test_one_row_per_claim_and_one_per_answer_without_claims(audit_rows):
    rows = claim_rows(audit_rows)
    claims = sum(len(r.report.claims) for r in audit_rows if r.report)
    no_claims = sum(1 for r in audit_rows if r.report is None or not r.report.claims)
    assert len(rows) == claims + no_claims
    broken = [r for r in rows if r.row_id == "broken"]
    assert len(broken) == 1 and not broken[0].ok and "answer" in broken[0].error and broken[0].claim_id is None
    refusal = [r for r in rows if r.row_id == "refusal"]
    assert refusal[0].state == "no_claims" and refusal[0].label is None


def test_a_con_claim_carries_its_span_evidence_and_probabilities(audit_rows):
    frame = reports_to_dataframe(audit_rows)
    assert list(frame.columns) == COLUMNS
    con = frame[frame.row_id == "con"].iloc[0]
    report = next(r.report for r in audit_rows if r.id == "con")
    claim = report.claims[0]
    assert con.label == "CON" and con.claim == claim.text
    assert (con.span_start, con.span_end) == (claim.answer_span.start, claim.answer_span.end)
    assert con.evidence_sentence_ids == [e.sentence_id for e in claim.evidence] != []
    assert con.evidence_texts == [e.text for e in claim.evidence]
    assert con.p_ent + con.p_con + con.p_nic == pytest.approx(1.0)
    assert con.judge == report.judge
    record = frame[frame.row_id == "record"].iloc[0]
    assert record.evidence_fields == ["attributes.HasTV"]


def test_missing_values_are_na_never_a_float_nan(audit_rows):
    frame = reports_to_dataframe(audit_rows)
    broken = frame[frame.row_id == "broken"].iloc[0]
    assert broken.p_ent is pd.NA and broken.claim_id is pd.NA and broken.score is pd.NA
    assert str(frame.p_ent.dtype) == "Float64" and str(frame.claim_id.dtype) == "Int64"


def test_plain_reports_are_numbered_and_pairs_keep_their_ids(audit_rows):
    reports = [r.report for r in audit_rows if r.report]
    assert {r.row_id for r in claim_rows(reports)} == {"1", "2", "3", "4"}
    assert {r.row_id for r in claim_rows([("x", reports[0])])} == {"x"}
    assert {r.row_id for r in claim_rows(reports[1])} == {"1"}
    with pytest.raises(InvalidInput):
        claim_rows([{"label": "ENT"}])
    with pytest.raises(InvalidInput):
        claim_rows("results.jsonl")


def test_csv_and_parquet_round_trip_from_a_batch_file(tmp_path, audit_rows):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(r.model_dump_json() + "\n" for r in audit_rows) + "{cut\n")
    samples = tmp_path / "in.jsonl"
    samples.write_text(json.dumps({"id": "con", "context": "x", "answer": "y", "task": "QA", "meta": {"src": "a"}}) + "\n")
    rows = load_results(results, inputs=samples)
    assert rows[-1].id == "line-6" and not rows[-1].ok and "not JSON" in rows[-1].error
    n = write_table(rows, tmp_path / "claims.csv")
    back = pd.read_csv(tmp_path / "claims.csv")
    assert len(back) == n == len(claim_rows(rows))
    con = back[back.row_id == "con"].iloc[0]
    assert con["meta.task"] == "QA" and con["meta.src"] == "a"
    assert json.loads(con.evidence_sentence_ids) == [0]
    write_table(rows, tmp_path / "claims.parquet")
    pq = pd.read_parquet(tmp_path / "claims.parquet")
    assert len(pq) == n and list(pq[pq.row_id == "con"].iloc[0].evidence_sentence_ids) == [0]
    with pytest.raises(InvalidInput, match=".csv or .parquet"):
        write_table(rows, tmp_path / "claims.xlsx")


def test_the_csv_export_needs_no_pandas_and_writes_what_pandas_wrote(tmp_path, audit_rows):
    """`verify -o x.csv` needed no pandas but `export -o x.csv` did (the [export] extra). The CSV is
    written by the standard library now, the same bytes as pandas' ``to_csv`` of the table."""
    import subprocess
    import sys

    results = tmp_path / "results.jsonl"
    results.write_text("".join(r.model_dump_json() + "\n" for r in audit_rows))
    frame = reports_to_dataframe(load_results(results))
    for column in [c for c in COLUMNS if c.startswith("evidence_")]:
        frame[column] = frame[column].map(json.dumps)
    frame.to_csv(tmp_path / "pandas.csv", index=False)
    blocked = "import sys; sys.modules['pandas'] = None; from rt4chart_plugins.cli import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", blocked, "export", str(results), "-o", str(tmp_path / "x.csv")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "x.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()


def test_a_bench_record_becomes_a_row_per_claim(tmp_path):
    rec = {"id": "r1", "ok": True, "error": None, "state": "verified", "label": "NIC", "hallucinated": True,
           "score": 0.7, "spans": [[0, 10]], "phrase_spans": [], "claims": [
               {"id": 0, "text": "It opens at 9.", "label": "NIC", "judged": True, "span": [0, 10],
                "phrase_span": None, "evidence": [], "evidence_sentence_ids": [], "p_ent": 0.3, "error": None,
                "grounding": None}],
           "cost": {"judge_calls": 1, "cache_hits": 0, "prompt_tokens": 5, "completion_tokens": 0, "seconds": 0.1},
           "judge": "trained-x", "notes": []}
    path = tmp_path / "rt4chart.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    rows = load_results(path)
    assert rows[0].source == "bench"
    [row] = claim_rows(rows)
    assert (row.label, row.span_start, row.span_end, row.p_ent, row.judge) == ("NIC", 0, 10, 0.3, "trained-x")


def test_a_claim_a_rule_decided_names_the_rule_and_keeps_the_verifiers_signals(audit_rows):
    frame = reports_to_dataframe(audit_rows)
    policy = frame[frame.row_id == "policy"]
    first = policy.iloc[0]  # "The trial policy applies to all users": "all" where the context says "Only"
    assert (first.label, first.rule, first.rule_kind) == ("CON", "contrast", "quantifier")
    assert first.encoder_ent + first.encoder_con + first.encoder_nic == pytest.approx(1.0)
    assert 0.0 <= first.coverage <= 1.0
    record = frame[frame.row_id == "record"].iloc[0]  # "has TVs" against "HasTV": "False"
    assert (record.rule, record.rule_kind) == ("records", "yes/no field")
    plain = policy[policy.label == "ENT"].iloc[0]
    assert pd.isna(plain.rule) and pd.isna(plain.judge_label)
