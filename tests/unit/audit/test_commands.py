"""``rt4chart report``, ``rt4chart export`` and ``rt4chart verify --html`` end to end, with the
shipped trained verifier."""

from __future__ import annotations

import json

import pandas as pd

import rt4chart_plugins.cli as cli
from policy_example import POLICY_ANSWER, POLICY_CONTEXT


def _batch(tmp_path):
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": "p1", "context": POLICY_CONTEXT, "answer": POLICY_ANSWER, "task": "QA"},
        {"id": "p2", "context": POLICY_CONTEXT, "answer": "The free trial lasts 30 days.", "task": "Summary"},
        {"id": "bad", "context": POLICY_CONTEXT},
    ]))
    results = tmp_path / "results.jsonl"
    assert cli.main(["verify", str(samples), "-o", str(results), "--judge", "trained", "-q"]) == 1  # one failed row
    return samples, results


def test_report_and_export_read_a_verify_batch(tmp_path, capsys):
    samples, results = _batch(tmp_path)
    page = tmp_path / "audit.html"
    assert cli.main(["report", str(results), "-o", str(page), "--input", str(samples)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('<article class="row"') == 3 and 'id="row-bad"' in html
    assert 'value="task=Summary"' in html and "1 failed or partial rows" in html
    assert "3 rows (1 failed)" in capsys.readouterr().err

    out = tmp_path / "claims.parquet"
    assert cli.main(["export", str(results), "-o", str(out), "--input", str(samples)]) == 0
    frame = pd.read_parquet(out)
    assert set(frame.row_id) == {"p1", "p2", "bad"} and set(frame["meta.task"].dropna()) == {"QA", "Summary"}
    assert (frame[frame.row_id == "p1"].claim.notna()).all()


def test_export_refuses_an_unknown_format_and_report_a_missing_file(tmp_path, capsys):
    _, results = _batch(tmp_path)
    assert cli.main(["export", str(results), "-o", str(tmp_path / "claims.xlsx")]) == 2
    assert ".csv or .parquet" in capsys.readouterr().err
    assert cli.main(["report", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "a.html")]) == 2
    assert "no such results file" in capsys.readouterr().err


def test_verify_html_writes_the_answers_page_and_refuses_a_batch(tmp_path, capsys):
    ctx = tmp_path / "ctx.txt"
    ctx.write_text(" ".join(POLICY_CONTEXT))
    page = tmp_path / "one.html"
    code = cli.main(["verify", "--context", str(ctx), "--answer", POLICY_ANSWER, "--judge", "trained",
                     "--html", str(page), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and page.read_text(encoding="utf-8").count("<mark") == len(report["unfaithful_spans"]) > 0
    assert "judge" in page.read_text(encoding="utf-8")
    assert cli.main(["verify", str(ctx), "-o", str(tmp_path / "o.jsonl"), "--html", str(page)]) == 2
    assert "rt4chart report" in capsys.readouterr().err


def test_report_of_a_bench_run_carries_its_settings_and_metrics(tmp_path, capsys):
    run = tmp_path / "records-x"
    run.mkdir()
    claim = {"id": 0, "text": "It opens at <b>9</b>.", "label": "CON", "judged": True, "span": [0, 14],
             "phrase_span": None, "evidence": [0], "evidence_sentence_ids": [3], "p_ent": 0.1, "error": None,
             "grounding": None}
    rec = {"id": "r1", "ok": True, "error": None, "state": "verified", "label": "CON", "hallucinated": True,
           "score": 0.9, "spans": [[0, 14]], "phrase_spans": [], "claims": [claim],
           "cost": {"judge_calls": 2, "cache_hits": 0, "prompt_tokens": 9, "completion_tokens": 0, "seconds": 0.2},
           "judge": "trained-x", "notes": []}
    (run / "rt4chart.jsonl").write_text(json.dumps(rec) + "\n")
    (run / "run.json").write_text(json.dumps({"dataset": "records", "judge": "trained", "base_config": {"window_size": 25}}))
    (run / "summary.json").write_text(json.dumps({"systems": {"rt4chart": {"overall": {
        "n": 1, "answer": {"precision": 1.0, "recall": 0.5, "f1": 0.667}, "auc": 0.75, "span": {"f1": 0.25},
        "con_nic_balanced": 0.5}}}}))
    page = tmp_path / "bench.html"
    assert cli.main(["report", str(run / "rt4chart.jsonl"), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "dataset=records" in html and "<td>0.667</td>" in html and "<td>0.750</td>" in html
    assert "It opens at &lt;b&gt;9&lt;/b&gt;." in html and "Cites context sentences 3" in html
    assert "not the texts" in html
