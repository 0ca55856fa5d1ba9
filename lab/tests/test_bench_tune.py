from rt4chart_lab.data.datasets import GoldSpan, RagTruthRow
from rt4chart_lab.bench.tune import main, sweep


def _row(rid, hallucinated, labels=(), split="train"):
    return RagTruthRow(id=rid, task_type="QA", split=split, context="The trial lasts 14 days.", answer="x" * 40,
                       question=None, hallucinated=hallucinated, labels=tuple(labels))


def test_sweep_flags_claims_below_the_threshold_and_by_fact_check():
    rows = {"a": _row("a", True, [GoldSpan(0, 10, "Evident Conflict")]), "b": _row("b", False),
            "c": _row("c", True, [GoldSpan(20, 30, "Evident Baseless Info")])}
    records = [
        {"id": "a", "claims": [{"text": "It lasts 14 days.", "p_ent": 0.40, "span": [0, 10]}]},
        {"id": "b", "claims": [{"text": "It lasts 14 days.", "p_ent": 0.60, "span": [0, 10]}]},
        {"id": "c", "claims": [{"text": "It lasts 30 days.", "p_ent": 0.90, "span": [20, 30]}]},  # fact check
    ]
    by_t = {r["threshold"]: r for r in sweep(records, rows)}
    assert (by_t[0.5]["ans_tp"], by_t[0.5]["ans_fp"], by_t[0.5]["ans_fn"]) == (2, 0, 0)
    assert (by_t[0.65]["ans_tp"], by_t[0.65]["ans_fp"]) == (2, 1)
    assert by_t[0.5]["span_f1"] == 1.0
    no_fact = {r["threshold"]: r for r in sweep(records, rows, fact_check=False)}
    assert no_fact[0.5]["ans_fn"] == 1


def test_tuning_on_test_rows_is_refused(tmp_path, capsys):
    import json

    data = tmp_path / "data" / "ragtruth"
    data.mkdir(parents=True)
    row = {"id": "t1", "source_id": "1", "model": "m", "task_type": "QA", "split": "test", "question": None,
           "context": "c", "answer": "a", "hallucinated": False, "labels": []}
    (data / "ragtruth.jsonl").write_text(json.dumps(row) + "\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "t1", "ok": True, "claims": []}) + "\n")
    assert main([str(preds), "--data-dir", str(tmp_path / "data")]) == 2
    assert "refusing" in capsys.readouterr().err
