"""The shipped GASP threshold: the balanced point of train sentences, bagged over resamples of
the answers so that one row more or less does not move it across a flat stretch."""

import pytest

from rt4chart_lab.gasp_fit import bagged_threshold, fit


def _answers():
    # 30 answers: grounded sentences with risks spread over [-4, 1], one invented sentence in
    # every third answer, at risk 2.0 to 4.0
    out = []
    for k in range(30):
        sentences = [((k * 7 + i * 3) % 6 - 4.0, False) for i in range(4)]
        if k % 3 == 0:
            sentences.append((2.0 + (k % 5) * 0.5, True))
        out.append(sentences)
    return out


def test_the_bagged_threshold_separates_the_invented_sentences_and_is_reproducible():
    answers = _answers()
    threshold, spread = bagged_threshold(answers)
    assert (threshold, spread) == bagged_threshold(answers)  # seeded
    grounded = [r for a in answers for r, g in a if not g]
    invented = [r for a in answers for r, g in a if g]
    assert max(grounded) < threshold < min(invented)
    assert spread >= 0.0


def test_fit_reports_the_threshold_it_ships_and_its_rates_on_the_train_sentences():
    records = []
    for k, answer in enumerate(_answers()):
        # features whose standardized negated sum orders sentences as the risks above do
        records.append({"id": str(k), "hallucinated": any(g for _, g in answer), "seconds": 1.0,
                        "sentences": [{"gold": g, "features": [-r, -r, -r, -r]} for r, g in answer]})
    cal = fit(records, "m", 5, "test rows")
    m = cal.train_metrics
    assert m["sentence_positives"] == 10 and m["sentence_tpr"] == pytest.approx(1.0)
    assert m["sentence_fpr"] == 0.0 and m["sentence_j"] == pytest.approx(1.0) and m["answer_f1"] == 1.0
