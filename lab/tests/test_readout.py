"""The hidden-state readout (route 1 of the trained verifier): the probe's arithmetic and its
artifact checks without a model, then hidden states, the training command and the detector with
a real small ChatML model (SmolLM2-135M through llama.cpp)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_lab.logistic import fit_multinomial, softmax
from rt4chart_lab.readout.probe import Readout, features, load_readout
from rt4chart_plugins.types import Label

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
HAS_DATA = (DATA / "ragtruth" / "ragtruth.jsonl").is_file()

# ---- no model ----------------------------------------------------------------------------------


def _readout(dim: int = 4, **kw) -> Readout:
    r = Readout(model="m", dim=dim, mean=[0.0] * dim, std=[1.0] * dim, weights=[[0.1] * dim] * 3,
                bias=[0.0, 0.0, 0.0], components=2, l2=0.1, threshold=0.5, prompt_threshold=0.5, **kw)
    r.sha256 = r.digest()
    return r


def test_fit_multinomial_separates_three_classes():
    rng = np.random.default_rng(0)
    centers = np.array([[2.0, 0, 0], [0, 2.0, 0], [0, 0, 2.0]])
    y = rng.integers(0, 3, 600)
    x = centers[y] + rng.normal(0, 0.7, (600, 3))
    w, b = fit_multinomial(x, y, l2=0.01, free_last=True)
    accuracy = float((softmax(x @ w.T + b).argmax(axis=1) == y).mean())
    assert accuracy > 0.85
    p = softmax(x @ w.T + b)
    assert np.allclose(p.sum(axis=1), 1.0) and np.isfinite(p).all()


def test_features_append_the_yes_log_odds_and_stay_finite_at_the_extremes():
    x = features(np.zeros((3, 2)), np.array([0.0, 0.5, 1.0]))
    assert x.shape == (3, 3) and np.isfinite(x).all()
    assert x[1, 2] == pytest.approx(0.0) and x[0, 2] < -10 < 10 < x[2, 2]


def test_readout_artifact_round_trip_and_checksum(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(_readout().model_dump_json(), encoding="utf-8")
    loaded = load_readout("m", tmp_path)
    probs = loaded.probs(np.ones((2, 3)), np.array([0.2, 0.9]))
    assert probs.shape == (2, 3) and np.allclose(probs.sum(axis=1), 1.0)
    corrupted = json.loads(path.read_text())
    corrupted["weights"][0][0] = 5.0
    path.write_text(json.dumps(corrupted), encoding="utf-8")
    with pytest.raises(ModelNotAvailable, match="checksum.*rt4chart readout-fit --model m"):
        load_readout("m", tmp_path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelNotAvailable, match="unreadable.*rt4chart readout-fit"):
        load_readout("m", tmp_path)
    with pytest.raises(ModelNotAvailable, match="no hidden-state readout.*rt4chart readout-fit --model other"):
        load_readout("other", tmp_path)


def test_shipped_readout_for_the_embedded_judge_passes_its_checksum():
    readout = load_readout("qwen2.5-coder-1.5b")
    assert readout.dim == 1536 + 1 and len(readout.weights) == 3
    assert 0.0 < readout.threshold < 1.0 and "RAGTruth train" in readout.fitted_on


# ---- a real model ------------------------------------------------------------------------------

CONTEXT = ["The Harlow Bay school opened in 1998.", "It has forty pupils and three teachers.",
           "Lessons start at 8:30 every weekday.", "The head teacher is Maria Lopez."]


def test_prefix_reuse_gives_the_states_of_an_independent_pass(smollm2):
    from rt4chart_plugins.judges import prompts
    from rt4chart_plugins.pipeline.segment import segment_context
    from rt4chart_lab.readout.states import StateReader, chatml_prefix, chatml_question

    reader = StateReader(smollm2)
    prefix = reader.tokenize(chatml_prefix(prompts.readout_context(segment_context(CONTEXT), None)))
    questions = [reader.tokenize(chatml_question(s)) for s in (CONTEXT[1], "It has ninety pupils.", "It sells bread.")]
    together = reader.read(prefix, questions)
    assert together.hidden.shape == (3, reader.dim) and together.passes == 4
    assert together.tokens_read == len(prefix) + sum(map(len, questions))
    for k, q in enumerate(questions):
        alone = reader.read(prefix, [q])
        assert np.allclose(alone.hidden[0], together.hidden[k], atol=1e-3)
        assert alone.p_yes[0] == pytest.approx(together.p_yes[k], abs=1e-4)
    assert not np.allclose(together.hidden[0], together.hidden[1], atol=1e-2)


@pytest.fixture(scope="module")
def fitted(smollm2, tmp_path_factory):
    """The training command, end to end on a tiny slice: 6 RAGTruth train rows and 2 records."""
    if not HAS_DATA:
        pytest.skip("no ../shared/data")
    from rt4chart_plugins import cli

    out = tmp_path_factory.mktemp("readout")
    assert cli.main(["readout-fit", "--model", "smollm2-135m", "--rows", "6", "--records", "2",
                     "--cache", str(out / "cache"), "--out", str(out / "art"), "--quiet"]) == 0
    return out


def test_training_command_writes_a_checked_readout_from_train_rows_only(fitted, capsys):
    readout = load_readout("smollm2-135m", fitted / "art")
    assert readout.dim == 576 + 1 and readout.sha256 == readout.digest()
    assert "6 RAGTruth train answers + 2 generated records" in readout.fitted_on
    assert all(math.isfinite(v) for v in readout.bias) and readout.l2 > 0
    cached = list((fitted / "cache" / "smollm2-135m").glob("*.npz"))
    assert len(cached) == 8


def test_training_only_reads_train_rows(tmp_path):
    if not HAS_DATA:
        pytest.skip("no ../shared/data")
    from rt4chart_lab.readout.fit import documents

    split = {json.loads(line)["id"]: json.loads(line)["split"] for line in (DATA / "ragtruth" / "ragtruth.jsonl").open()}
    docs = documents(400, 0, None)
    assert docs and all(split[d.row_id] == "train" for d in docs)
    assert {k for d in docs for _, _, k in d.statements} == {"real", "edit", "foreign"}


def test_detector_end_to_end_with_cache_and_prompt_only_variant(fitted, tmp_path):
    from rt4chart_lab.readout import ReadoutDetector

    cache = tmp_path / "states.sqlite"
    detector = ReadoutDetector("smollm2-135m", readout=fitted / "art", cache=cache)
    answer = f"{CONTEXT[3]} The school has a swimming pool."
    report = detector.verify(context=CONTEXT, answer=answer, question="Who runs the school?")
    assert report.method == "readout" and report.judge == "readout:smollm2-135m" and report.state == "verified"
    assert len(report.claims) == 2 and report.cost.judge_calls == 3 and report.cost.prompt_tokens > 0
    for c in report.claims:
        p = c.probs
        assert sum(p.values()) == pytest.approx(1.0) and all(math.isfinite(v) for v in p.values())
        assert (c.label == Label.ENT) == (1 - p[Label.ENT] <= detector.threshold)
        assert c.answer_span.text in answer and "readout P(not ENT)" in c.reason
        assert (c.evidence == []) == (c.label == Label.NIC)
    assert report.risk == pytest.approx(max(1 - c.probs[Label.ENT] for c in report.claims))
    again = detector.verify(context=CONTEXT, answer=answer, question="Who runs the school?")
    assert again.cost.judge_calls == 0 and [c.probs for c in again.claims] == [c.probs for c in report.claims]
    prompt = ReadoutDetector("smollm2-135m", readout=fitted / "art", cache=cache, prompt_only=True)
    yes = prompt.verify(context=CONTEXT, answer=answer, question="Who runs the school?")
    assert yes.judge == "prompt-yes:smollm2-135m" and yes.cost.judge_calls == 0
    assert all(c.label in (Label.ENT, Label.NIC) for c in yes.claims)


def test_detector_edge_cases(fitted, tmp_path):
    from rt4chart_plugins.errors import InvalidInput
    from rt4chart_lab.readout import ReadoutDetector

    detector = ReadoutDetector("smollm2-135m", readout=fitted / "art", cache=tmp_path / "c.sqlite", n_ctx=512)
    empty = detector.verify(context=[], answer=CONTEXT[0])
    assert empty.hallucinated and empty.claims[0].label == Label.NIC and empty.cost.prompt_tokens == 0
    assert detector.verify(context=CONTEXT, answer=" ").state == "no_claims"
    long = detector.verify(context=CONTEXT * 20, answer=CONTEXT[0])
    assert long.state == "verified" and any("context truncated to its first" in n for n in long.notes)
    with pytest.raises(InvalidInput):
        detector.verify(context=[1], answer="x")  # type: ignore[list-item]
    good, bad = detector.verify_many([{"context": CONTEXT, "answer": CONTEXT[0]}, {"context": 3, "answer": "x"}])
    assert good.state == "verified" and bad.state == "failed"


@pytest.mark.model
def test_shipped_readout_on_hand_made_pairs(embedded_model_path, tmp_path):
    """The shipped readout on the embedded judge: a copied sentence is supported, and a changed
    number or a sentence about something else ranks as less supported than the copy."""
    from rt4chart_lab.readout import ReadoutDetector

    detector = ReadoutDetector(model_path=embedded_model_path, cache=tmp_path / "s.sqlite")
    answer = ("It has forty pupils and three teachers. It has ninety pupils and three teachers. "
              "The school canteen serves vegetarian food on Fridays.")
    report = detector.verify(context=CONTEXT, answer=answer)
    copied, changed, foreign = report.claims
    assert copied.label == Label.ENT and copied.evidence and copied.evidence[0].text == CONTEXT[1]
    assert copied.probs[Label.ENT] > changed.probs[Label.ENT]
    assert copied.probs[Label.ENT] > foreign.probs[Label.ENT]
    assert report.judge.startswith("readout:")
