"""The trained judge's fitted decision: probabilities that are probabilities, whatever the
logits, and a manifest that names the features it was fitted on."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from rt4chart_plugins.judges.trained.decision import Decision, Logistic, decide
from rt4chart_plugins.judges.trained.encoder import load_manifest

logit = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@given(st.tuples(logit, logit, logit), unit, st.booleans())
def test_the_shipped_decision_gives_three_probabilities_that_sum_to_one(logits, coverage, missing):
    _, manifest = load_manifest(check=False)
    probs = decide(manifest.decision, list(logits), coverage, missing)
    assert all(0.0 <= p <= 1.0 and not math.isnan(p) for p in probs)
    assert sum(probs) == pytest.approx(1.0)


def test_the_shipped_decision_supports_what_the_encoder_supports_and_covers():
    _, manifest = load_manifest(check=False)
    sure, _, _ = decide(manifest.decision, [4.0, -2.0, -2.0], 1.0, False)
    doubtful, _, _ = decide(manifest.decision, [-2.0, -2.0, 4.0], 0.2, True)
    assert sure > manifest.threshold > doubtful
    _, p_con, p_nic = decide(manifest.decision, [-2.0, 4.0, -2.0], 0.8, False)
    assert p_con > p_nic  # the encoder's confident contradiction stays one


def test_a_decision_over_other_features_is_refused():
    other = Logistic(features=("p_ent",), mean=[0.0], scale=[1.0], weights=[1.0], bias=0.0)
    _, manifest = load_manifest(check=False)
    with pytest.raises(ValidationError, match="was expected"):
        Decision(support=other, conflict=manifest.decision.conflict)
    with pytest.raises(ValidationError, match="one entry per feature"):
        Logistic(features=("a", "b"), mean=[0.0], scale=[1.0], weights=[1.0], bias=0.0)
