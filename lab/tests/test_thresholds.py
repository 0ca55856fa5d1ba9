"""The threshold and standardization fits on constructed risks (no model, no data)."""

import numpy as np
import pytest

from rt4chart_lab.thresholds import balanced_threshold, best_threshold, standardization


def test_best_threshold_maximises_f1():
    t, f1 = best_threshold([0.1, 0.2, 0.9, 1.0], [False, False, True, True])
    assert 0.2 < t < 0.9 and f1 == 1.0


def test_the_balanced_threshold_flags_a_rare_class_that_the_f1_threshold_passes():
    """Two positives among twelve: F1 is best flagging only the one far out (2/3 against 4/7),
    while the balanced point flags both (TPR 1 at FPR 3/10 beats TPR 1/2 at FPR 0)."""
    risks = [-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 3.5, 5.0]
    gold = [False] * 7 + [True, False, False, False, True]
    assert best_threshold(risks, gold)[0] > 3.5
    t, j = balanced_threshold(risks, gold)
    assert 1.0 < t < 2.0 and j == pytest.approx(1 - 3 / 10)
    assert balanced_threshold([0.1, 0.2], [True, True]) == (0.0, 0.0)  # nothing to balance
    assert balanced_threshold([], []) == (0.0, 0.0)


def test_standardization_gives_a_constant_feature_unit_spread():
    mean, std = standardization(np.array([[1.0, 0.3], [3.0, 0.3]]))
    assert mean == [2.0, 0.3] and std == [1.0, 1.0]
