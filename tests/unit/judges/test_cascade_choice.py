"""Which claims the cascade (``judge="auto"``) sends to the LLM: pure selection, no model runs."""

from __future__ import annotations

import pytest

from rt4chart_plugins.judges.base import VerifyResult
from rt4chart_plugins.judges.cascade import CascadeJudge
from rt4chart_plugins.types import Judgement, Label


def _result(*p_ent: float) -> VerifyResult:
    return VerifyResult(judgements=[
        Judgement(claim_id=i, label=Label.ENT if p >= 0.45 else Label.NIC,
                  probs={Label.ENT: p, Label.CON: (1 - p) / 2, Label.NIC: (1 - p) / 2})
        for i, p in enumerate(p_ent)])


def _cascade(budget: float, band: float) -> CascadeJudge:
    judge = CascadeJudge(budget=budget, band=band, flag_only=False, trained={"threshold": 0.45})
    assert judge.trained.threshold == 0.45
    return judge


def test_the_nearest_to_the_threshold_go_first_within_the_budget():
    result = _result(0.95, 0.50, 0.30, 0.44, 0.05)
    assert _cascade(0.4, 0.25).uncertain(result, 5) == [3, 1]  # 0.4 of 5 claims: two
    assert _cascade(1.0, 0.25).uncertain(result, 5) == [3, 1, 2]  # 0.95 and 0.05 lie outside the band
    assert _cascade(1.0, 1.0).uncertain(result, 5) == [3, 1, 2, 4, 0]


def test_a_one_claim_answer_can_reach_the_llm_and_no_budget_sends_nothing():
    one = _result(0.60)
    assert _cascade(0.25, 0.25).uncertain(one, 1) == [0]
    assert _cascade(0.0, 1.0).uncertain(one, 1) == []
    assert _cascade(0.25, 0.1).uncertain(one, 1) == []  # 0.15 from the threshold: sure enough


@pytest.mark.parametrize("budget,band", [(-0.1, 0.2), (1.5, 0.2), (0.2, 2.0)])
def test_a_budget_or_band_outside_zero_to_one_is_refused(budget, band):
    from rt4chart_plugins.errors import InvalidInput

    with pytest.raises(InvalidInput, match="budget and band"):
        CascadeJudge(budget=budget, band=band)


def test_flag_only_sends_only_the_claims_found_supported():
    result = _result(0.95, 0.50, 0.30, 0.44, 0.05)
    judge = CascadeJudge(budget=1.0, band=1.0, trained={"threshold": 0.45})  # flag_only is the default
    assert judge.uncertain(result, 5) == [1, 0]  # the ENTs, nearest the threshold first
    judge.band = 0.25
    assert judge.uncertain(result, 5) == [1]
    assert "flag-only" in judge.name
