import itertools

import pytest

from rt4chart_plugins import PipelineConfig
from rt4chart_plugins.pipeline.aggregate import and_join, answer_verdict
from rt4chart_plugins.pipeline.local import make_windows, or_join
from rt4chart_plugins.types import ClaimVerdict, Label

E, C, N = Label.ENT, Label.CON, Label.NIC


@pytest.mark.parametrize("labels", [list(p) for r in (1, 2, 3) for p in itertools.product([E, C, N], repeat=r)])
def test_or_join_every_combination(labels):
    expected = C if C in labels else E if E in labels else N
    assert or_join(labels) == expected


@pytest.mark.parametrize("labels", [list(p) for r in (1, 2, 3) for p in itertools.product([E, C, N], repeat=r)])
def test_and_join_every_combination(labels):
    expected = C if C in labels else N if N in labels else E
    assert and_join(labels) == expected


def _verdict(i, label, judged=True):
    return ClaimVerdict(id=i, text="x", sentence_id=0, label=label if judged else None, judged=judged)


def test_answer_verdict_states_and_scores():
    assert answer_verdict([]) == (None, False, 1.0, "no_claims")
    assert answer_verdict([_verdict(0, E), _verdict(1, N)]) == (N, True, 0.5, "verified")
    assert answer_verdict([_verdict(0, E), _verdict(1, None, judged=False)]) == (E, False, 1.0, "partial")
    assert answer_verdict([_verdict(0, None, judged=False)]) == (None, None, None, "failed")


def test_windows_cover_everything_with_the_right_overlap():
    windows = make_windows(60, 25, 10)
    assert [(w.first, w.last) for w in windows] == [(0, 24), (15, 39), (30, 54), (45, 59)]
    covered = set().union(*(set(w.ids) for w in windows))
    assert covered == set(range(60))


def test_window_larger_than_context_is_one_window():
    assert [(w.first, w.last) for w in make_windows(7, 25, 10)] == [(0, 6)]


def test_single_sentence_and_empty_context():
    assert [(w.first, w.last) for w in make_windows(1, 25, 10)] == [(0, 0)]
    assert make_windows(0, 25, 10) == []


def test_overlap_not_below_size_is_rejected():
    with pytest.raises(ValueError):
        make_windows(10, 5, 5)
    with pytest.raises(ValueError, match="window_overlap"):
        PipelineConfig(window_size=10, window_overlap=12)


def test_an_overlap_too_large_for_the_methods_window_is_rejected_when_the_size_is_left_unset():
    with pytest.raises(ValueError, match="25, the method's"):
        PipelineConfig(window_overlap=30)
    assert PipelineConfig(window_overlap=30, window_size=40).window_size == 40
