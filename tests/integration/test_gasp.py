"""GASP: the feature arithmetic on constructed arrays, then the detector end to end with a real
small scorer (SmolLM2-135M through llama.cpp), never a fake model."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
from rt4chart_plugins.gasp.features import (
    balanced_chunks,
    risk,
    sentence_features,
    token_anchors,
)
from rt4chart_plugins.gasp.scorer import Conditions, jsd_rows, log_softmax
from rt4chart_plugins.types import Label

# ---- arithmetic, no model --------------------------------------------------------------------


def test_balanced_chunks_cover_every_unit_once_in_order():
    for sizes in ([5] * 12, [1, 30, 2, 2, 2, 40, 1], [3], [0, 0, 0]):
        for k in (1, 2, 5, 9):
            bounds = balanced_chunks(sizes, k)
            assert len(bounds) == min(k, len(sizes))
            flat = [i for a, b in bounds for i in range(a, b + 1)]
            assert flat == list(range(len(sizes)))
    assert balanced_chunks([10] * 10, 5) == [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
    assert balanced_chunks([], 5) == []


def test_jsd_is_zero_for_equal_bounded_and_finite_under_underflow():
    rng = np.random.default_rng(0)
    a = log_softmax(rng.normal(size=(4, 50)).astype(np.float32))
    b = log_softmax(rng.normal(size=(4, 50)).astype(np.float32))
    assert np.allclose(jsd_rows(a, a), 0.0, atol=1e-6)
    d = jsd_rows(a, b)
    assert np.all(d > 0) and np.all(d <= math.log(2) + 1e-6)
    # near-one-hot distributions whose tails underflow to exactly 0 in float32
    sharp_a = log_softmax(np.array([[0.0, -500.0, -500.0]], dtype=np.float32))
    sharp_b = log_softmax(np.array([[-500.0, 0.0, -500.0]], dtype=np.float32))
    out = jsd_rows(sharp_a, sharp_b)
    assert np.isfinite(out).all() and out[0] == pytest.approx(math.log(2), abs=1e-4)


def test_sentence_features_average_tokens_and_pick_the_chunk_that_hurts_most():
    answer = "Alpha beta. Gamma delta."
    spans = [(0, 5), (5, 10), (10, 11), (11, 17), (17, 23), (23, 24)]
    anchors = token_anchors(answer, spans)
    assert list(anchors) == [0, 6, 10, 12, 18, 23]
    full = np.array([-1.0, -1.0, -1.0, -2.0, -2.0, -2.0])
    cond = Conditions(full=full, empty=full - np.array([2, 2, 2, 0.1, 0.1, 0.1]), jsd_empty=np.full(6, 0.3),
                      loo=[full - 0.05, full - np.array([1.5, 1.5, 1.5, 0, 0, 0])],
                      jsd_loo=[np.full(6, 0.01), np.full(6, 0.2)])
    first, second = sentence_features(cond, anchors, [(0, 11), (12, 24)])
    assert first.gap == pytest.approx(2.0) and first.drop == pytest.approx(1.5)
    assert first.supporting_chunk == 1 and first.tokens == 3
    assert second.gap == pytest.approx(0.1) and second.drop == pytest.approx(0.05) and second.supporting_chunk == 0
    mean, std = [0.0] * 4, [1.0] * 4  # risk on the raw features: less grounding, more risk
    assert risk(second, mean, std) > risk(first, mean, std)


def test_a_sentence_without_scored_tokens_has_no_features():
    cond = Conditions(full=np.array([-1.0]), empty=np.array([-1.0]), jsd_empty=np.array([0.0]))
    assert sentence_features(cond, np.array([0]), [(0, 3), (10, 20)])[1] is None


def test_shipped_calibrations_are_valid():
    for model in ("smollm2-135m", "qwen2.5-coder-0.5b"):
        cal = load_calibration(model)
        assert cal.model == model and cal.chunks == 5 and all(s > 0 for s in cal.std)
        assert "train" in cal.fitted_on and math.isfinite(cal.threshold)


# ---- the detector with a real scorer -------------------------------------------------------------

CONTEXT = [
    "Harlow Bay is a fishing village on the north coast of Veldra.",
    "The village harbour was rebuilt in 1987 after a winter storm destroyed the old pier.",
    "Its lighthouse, painted red and white, stands on a granite outcrop east of the harbour.",
    "Every August the village holds a regatta in which crews race wooden rowing boats to Gull Island.",
    "The school of Harlow Bay has forty pupils and two teachers.",
]
COPIED = "Every August the village holds a regatta in which crews race wooden rowing boats to Gull Island."
INVENTED = "The mayor collects antique clocks and breeds silver pheasants in his garden."


@pytest.fixture(scope="module")
def detector(smollm2):
    from rt4chart_plugins.gasp import GaspDetector

    return GaspDetector("smollm2-135m", chunks=5)


def test_copied_sentence_is_grounded_and_points_at_its_chunk(detector):
    report = detector.verify(context=CONTEXT, answer=f"{COPIED} {INVENTED}")
    assert report.method == "gasp" and report.state == "verified" and len(report.claims) == 2
    copied, invented = (c.grounding for c in report.claims)
    assert copied.gap > invented.gap and copied.drop > invented.drop
    assert copied.risk < invented.risk
    assert report.risk == pytest.approx(invented.risk)
    assert copied.supporting_chunk == 3  # five sentences, five chunks: the fourth is the copied one
    evidence = report.claims[0].evidence
    assert [e.text for e in evidence] == [CONTEXT[3]] and (evidence[0].passage, evidence[0].start) == (3, 0)
    assert len(report.windows) == 5
    assert report.cost.prompt_tokens > 0 and any("without reusing shared prefixes" in n for n in report.notes)
    for c in report.claims:
        assert c.label == (Label.NIC if c.grounding.risk > c.grounding.threshold else Label.ENT)
        assert c.answer_span.text in (COPIED, INVENTED)


def test_prefix_reuse_gives_the_same_likelihoods_as_independent_passes(detector):
    scorer = detector.scorer
    head = scorer.tokenize("Context:\n", bos=True)
    chunks = [scorer.tokenize(s + "\n") for s in CONTEXT[:3]]
    tail = scorer.tokenize("\nAnswer:\n")
    answer = scorer.tokenize(CONTEXT[1])
    cond = scorer.score(head, chunks, tail, answer)
    for k in range(3):  # left-out chunk k, scored from scratch as a one-chunk-less full context
        alone = scorer.score(head, chunks[:k] + chunks[k + 1:], tail, answer)
        assert np.allclose(cond.loo[k], alone.full, atol=2e-2)
    nothing = scorer.score(head, [], tail, answer)
    assert np.allclose(cond.empty, nothing.full, atol=2e-2)
    assert cond.tokens_read < cond.tokens_naive
    assert cond.loo[1].mean() < cond.full.mean()  # the answer copies chunk 1: leaving it out hurts


def test_more_chunks_than_context_sentences(detector):
    from rt4chart_plugins.gasp import GaspDetector

    report = GaspDetector("smollm2-135m", chunks=9).verify(context=CONTEXT[:2], answer=CONTEXT[1])
    assert len(report.windows) == 2 and report.state == "verified"
    assert any("2 chunk(s) instead of 9" in n for n in report.notes)
    g = report.claims[0].grounding
    assert all(math.isfinite(x) for x in (g.gap, g.jsd_empty, g.drop, g.jsd_loo, g.risk))


def test_one_sentence_context_uses_the_empty_pass_as_its_leave_one_out(detector):
    report = detector.verify(context="Harlow Bay has forty pupils.", answer="Harlow Bay has forty pupils.")
    g = report.claims[0].grounding
    assert len(report.windows) == 1 and report.cost.judge_calls == 2
    assert g.drop == pytest.approx(g.gap) and g.supporting_chunk == 0


def test_empty_context_flags_every_sentence_without_running_the_model(detector):
    report = detector.verify(context=[], answer=f"{COPIED} {INVENTED}")
    assert report.hallucinated and [c.label for c in report.claims] == [Label.NIC, Label.NIC]
    assert report.cost.prompt_tokens == 0 and report.risk is None
    assert "context is empty" in report.notes[0]


def test_empty_answer_and_bad_input(detector):
    from rt4chart_plugins.errors import InvalidInput

    report = detector.verify(context=CONTEXT, answer="  ")
    assert report.state == "no_claims" and not report.hallucinated and report.score == 1.0
    with pytest.raises(InvalidInput):
        detector.verify(context=[1, 2], answer="x")  # type: ignore[list-item]
    rows = [{"context": CONTEXT, "answer": COPIED}, {"context": 5, "answer": "x"}]
    good, bad = detector.verify_many(rows)
    assert good.state == "verified" and bad.state == "failed" and "context" in bad.error


def test_context_cut_by_the_window_is_reported(smollm2):
    from rt4chart_plugins.gasp import GaspDetector

    cal = Calibration(model="smollm2-135m", chunks=5, mean=[0.0] * 4, std=[1.0] * 4, threshold=0.0)
    small = GaspDetector("smollm2-135m", n_ctx=256, calibration=cal)
    report = small.verify(context=CONTEXT * 8, answer=COPIED)
    assert report.state == "verified"
    assert any("context truncated to its first" in n for n in report.notes)
    assert report.claims[0].grounding.threshold == 0.0


def test_cli_verify_with_gasp(smollm2, tmp_path, capsys):
    import json

    from rt4chart_plugins import cli

    ctx = tmp_path / "ctx.txt"
    ctx.write_text(" ".join(CONTEXT), encoding="utf-8")
    rc = cli.main(["verify", "--method", "gasp", "--scorer", "smollm2-135m", "--threshold", "0",
                   "--context", str(ctx), "--answer", f"{COPIED} {INVENTED}", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert rc == 0 and report["method"] == "gasp" and report["judge"] == "gasp:smollm2-135m"
    assert [c["label"] for c in report["claims"]] == ["ENT", "NIC"]
