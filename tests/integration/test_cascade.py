"""``judge="auto"`` against the real models: the trained verifier on every claim, the embedded LLM
on the claims the fitted gate sends."""

from __future__ import annotations

import pytest

from rt4chart_plugins import Label, Verifier

pytestmark = pytest.mark.model

CONTEXT = ("Only employees with a badge may enter the lab after 6 PM. Visitors must sign in at the front desk. "
           "The lab is closed on public holidays.")


def test_with_no_budget_auto_is_the_trained_verifier(embedded_model_path):
    answer = "Anyone can enter the lab after 6 PM. Visitors sign in at the front desk."
    alone = Verifier("trained").verify(CONTEXT, answer)
    auto = Verifier("auto", judge_kwargs={"budget": 0.0}).verify(CONTEXT, answer)
    assert [(c.label, c.probs) for c in auto.claims] == [(c.label, c.probs) for c in alone.claims]
    assert auto.judge.startswith("auto(trained-") and not any(c.signals.reader.read for c in auto.claims)


def test_the_reader_flags_a_negation_the_trained_verifier_passes(embedded_model_path):
    answer = "Visitors do not need to sign in."
    alone = Verifier("trained").verify(CONTEXT, answer)
    assert alone.claims[0].label == Label.ENT  # word overlap: the verifier's blind spot
    auto = Verifier("auto", judge_kwargs={"cache": False}).verify(CONTEXT, answer)
    claim = auto.claims[0]
    assert auto.hallucinated and claim.label != Label.ENT
    reader = claim.signals.reader
    assert reader.read and reader.trained_label == Label.ENT and reader.p_support < 0.5
    assert "the trained verifier alone: ENT" in claim.reason
    assert [e.sentence_id for e in claim.evidence] == [1] or claim.label == Label.NIC
