"""The lab's GASP commands end to end on a real scorer: gasp-fit on train rows, then bench and
bench-combine."""

import pytest

from rt4chart_plugins.gasp import load_calibration

pytestmark = pytest.mark.model

DATA = __import__("pathlib").Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


@pytest.mark.skipif(not (DATA / "ragtruth" / "ragtruth.jsonl").is_file(), reason="no ../shared/data")
def test_gasp_fit_writes_a_calibration_from_train_rows_only(smollm2, tmp_path, capsys):
    import json

    from rt4chart_lab.gasp_fit import main

    assert main(["--model", "smollm2-135m", "--rows", "2", "--cache", str(tmp_path / "cache"),
                 "--out", str(tmp_path / "cal"), "--quiet"]) == 0
    cal = load_calibration("smollm2-135m", tmp_path / "cal")
    assert cal.train_metrics["rows"] == 2 and all(s > 0 for s in cal.std) and "train rows" in cal.fitted_on
    cached = [json.loads(line) for line in (tmp_path / "cache" / "smollm2-135m-k5.jsonl").read_text().splitlines()]
    rows = {json.loads(line)["id"]: json.loads(line) for line in (DATA / "ragtruth" / "ragtruth.jsonl").open()}
    assert len(cached) == 2 and all(rows[c["id"]]["split"] == "train" for c in cached)
    assert "| smollm2-135m | 2 |" in capsys.readouterr().out


@pytest.mark.skipif(not (DATA / "ragtruth" / "ragtruth.jsonl").is_file(), reason="no ../shared/data")
def test_bench_gasp_and_combine_end_to_end(smollm2, tmp_path, capsys):
    """GASP and the trained judge through rt4chart bench on 3 test rows, then bench-combine fitted
    on 3 train rows of gasp-fit's cache: every table row is printed with numbers."""
    from rt4chart_lab.bench.combine import main as combine_main
    from rt4chart_lab.bench.main import run_benchmark
    from rt4chart_lab.gasp_fit import main as fit_main

    _summary, table, stats = run_benchmark(dataset="ragtruth", split="test", limit=3, systems="gasp,rt4chart",
                                           judge="trained", run="e2e", out=tmp_path, progress=False)
    assert [s.failed for s in stats] == [0, 0] and "| gasp | 3 | 0 |" in table
    gasp_records = [__import__("json").loads(line) for line in (tmp_path / "e2e" / "gasp.jsonl").open()]
    assert all(r["sentence_scores"] and r["claims"][0]["grounding"] for r in gasp_records)
    assert fit_main(["--rows", "3", "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "cal"),
                     "--quiet"]) == 0
    capsys.readouterr()
    assert combine_main(["--run", str(tmp_path / "e2e"), "--gasp-cache", str(tmp_path / "cache")]) == 0
    out = capsys.readouterr().out
    assert "fitted on 3 train answers" in out
    for name in ("GASP alone (gasp)", "judge alone (rt4chart)", "GASP + judge (logistic, fitted on train)",
                 "GASP + judge (sum of standardized scores)"):
        assert f"| {name} | 3 |" in out
