"""Stage 1 (NLI before the task): which sets it may read, its batches, and a tiny real run that
stage 2 starts from."""

from __future__ import annotations

import json
import random

import pytest

from rt4chart_lab.data import nli
from rt4chart_lab.data.datasets import resolve_data_dir
from rt4chart_lab.training import nli_stage


def _nli_dir():
    try:
        path = resolve_data_dir(None) / "nli"
    except Exception:  # noqa: BLE001
        return None
    return path if path.is_dir() else None


def test_no_report_split_is_ever_trained_on():
    trained = {s.name for s in nli.TRAIN}
    reported = {s.name for _, s, _ in nli.REPORT}
    assert not trained & reported
    # the non-commercial and unlicensed sets, and the standard MNLI dev, are never read for training
    for folder in ("anli", "sick", "monli", "rte_glue", "med", "negation_nli", "binary_mnli_docnli"):
        assert not any(s.folder == folder for s in nli.TRAIN), folder
    assert all(s.license for s in nli.TRAIN)


def test_two_way_neutral_is_not_entailed_rather_than_neutral():
    assert nli.label_of("neutral", 2) == nli.NOT_ENT and nli.label_of("contradiction", 2) == nli.NOT_ENT
    assert nli.label_of("neutral", 3) == nli.NIC and nli.label_of("contradiction", 3) == nli.CON
    assert nli.label_of("entailment", 2) == nli.label_of("entailment", 3) == nli.ENT
    with pytest.raises(ValueError):
        nli.label_of("maybe", 3)


def test_batches_group_similar_lengths_and_cover_every_pair_once():
    rng = random.Random(0)
    lengths = [rng.randint(5, 200) for _ in range(1000)]
    plan = nli_stage.batches(lengths, batch_size=16, bucket=10, rng=random.Random(1))
    flat = [i for b in plan for i in b]
    assert sorted(flat) == list(range(1000))
    padded = sum(max(lengths[i] for i in b) * len(b) for b in plan)
    unsorted = [list(range(i, min(i + 16, 1000))) for i in range(0, 1000, 16)]
    assert padded < 0.7 * sum(max(lengths[i] for i in b) * len(b) for b in unsorted)


@pytest.mark.skipif(_nli_dir() is None, reason="needs ../shared/data/nli")
def test_every_training_split_is_readable_and_labelled():
    for split in nli.TRAIN:
        rows = nli.read_split(_nli_dir(), split, rng=random.Random(0))
        assert rows, split.name
        labels = {p.label for p in rows}
        assert labels <= ({nli.ENT, nli.CON, nli.NIC} if split.way == 3 else {nli.ENT, nli.NOT_ENT}), split.name
        if split.cap:
            assert len(rows) <= split.cap


@pytest.mark.slow
@pytest.mark.skipif(_nli_dir() is None, reason="needs ../shared/data/nli")
def test_stage_one_writes_a_model_that_stage_two_starts_from(tmp_path, capsys):
    pytest.importorskip("torch", reason="needs the 'train' extra")
    from rt4chart_plugins.cli import main
    from rt4chart_plugins.judges.trained import encoder

    stage1 = tmp_path / "nli"
    assert main(["train-nli", "--out", str(stage1), "--max-pairs", "64", "--batch-size", "16",
                 "--max-length", "64"]) == 0
    printed = capsys.readouterr().out
    assert "pairs/s" in printed and "monitor 3-way accuracy" in printed
    recipe = json.loads((stage1 / nli_stage.RECIPE).read_text())
    assert recipe["pairs_seen"] == 64 and recipe["licenses"]["snli/dev"]
    # resuming a finished run does no step again and keeps the model
    assert main(["train-nli", "--out", str(stage1), "--max-pairs", "64", "--batch-size", "16",
                 "--max-length", "64", "--resume"]) == 0
    assert "resumed at step 4/4" in capsys.readouterr().out
    # the last saved state exports as the model, as a run still going would
    (stage1 / nli_stage.MODEL_DIR / "config.json").unlink()
    assert main(["train-nli", "--out", str(stage1), "--export"]) == 0
    assert "step 4 of 4" in capsys.readouterr().out and (stage1 / nli_stage.MODEL_DIR / "config.json").exists()

    out = tmp_path / "artifact"
    assert main(["train-verifier", "--out", str(out), "--init-from", str(stage1 / nli_stage.MODEL_DIR),
                 "--sources", "records", "--records", "4", "--max-pairs", "16", "--epochs", "1",
                 "--max-length", "64", "--premise-budget", "48", "--no-quantize"]) == 0
    manifest = json.loads((out / encoder.MANIFEST_FILE).read_text())
    assert manifest["training"]["stage1"]["pairs_seen"] == 64
    assert manifest["training"]["config"]["init_from"].endswith(nli_stage.MODEL_DIR)
