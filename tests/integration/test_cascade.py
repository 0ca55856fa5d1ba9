"""``judge="auto"`` against the real models: the trained verifier, and the embedded LLM for the
claims it is least sure of."""

from __future__ import annotations

from rt4chart_plugins import Label, Verifier

CONTEXT = ("Only employees with a badge may enter the lab after 6 PM. Visitors must sign in at the front desk. "
           "The lab is closed on public holidays.")
ANSWER = "Anyone can enter the lab after 6 PM. Visitors sign in at the front desk."


def test_with_no_budget_the_cascade_is_the_trained_verifier(embedded_model_path):
    alone = Verifier("trained", decomposition="sentence").verify(CONTEXT, ANSWER)
    auto = Verifier("auto", judge_kwargs={"budget": 0.0}, decomposition="sentence").verify(CONTEXT, ANSWER)
    assert [(c.label, c.probs) for c in auto.claims] == [(c.label, c.probs) for c in alone.claims]
    assert auto.judge.startswith("auto(trained-") and auto.cost.completion_tokens == 0


def test_the_claims_the_verifier_is_unsure_of_go_to_the_llm(embedded_model_path):
    auto = Verifier("auto", judge_kwargs={"budget": 1.0, "band": 1.0, "flag_only": False,
                                          "llm": {"model_path": str(embedded_model_path)}},
                    decomposition="sentence").verify(CONTEXT, ANSWER)
    assert auto.state == "verified" and len(auto.claims) == 2
    # the LLM's verdicts say whose they are; the contrast rule, after every judge, then decides
    # the "Anyone" claim with its own reason (the LLM's label kept beside it when it differs)
    assert all(c.reason.startswith("embedded LLM (the trained verifier was unsure") for c in auto.claims if not c.rule)
    assert auto.claims[0].rule is not None and auto.claims[0].rule.claim_says == "Anyone"
    assert auto.claims[0].label == Label.CON and auto.claims[0].evidence
    assert auto.cost.completion_tokens > 0 or auto.cost.judge_calls > 2


def test_flag_only_lets_the_llm_flag_a_supported_claim_and_never_clear_a_flag(embedded_model_path):
    alone = Verifier("trained", decomposition="sentence").verify(CONTEXT, ANSWER)
    auto = Verifier("auto", judge_kwargs={"budget": 1.0, "band": 1.0, "llm": {"model_path": str(embedded_model_path)}},
                    decomposition="sentence").verify(CONTEXT, ANSWER)
    assert auto.state == "verified" and "flag-only" in auto.judge
    for before, after in zip(alone.claims, auto.claims):
        if before.label != Label.ENT:  # a flag stays the verifier's, and the LLM is not asked
            assert (after.label, after.probs, after.reason) == (before.label, before.probs, before.reason)
        elif after.label == Label.ENT:  # the LLM was asked and agreed
            assert after.reason.endswith("the embedded LLM agrees")
        else:  # the LLM flagged it: its verdict, said so
            assert after.reason.startswith("embedded LLM (the trained verifier was unsure")
    assert any(c.label == Label.ENT for c in alone.claims)  # so the LLM was asked about one (the loop's last branches)
