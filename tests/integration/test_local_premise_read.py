"""``judge="local"``'s premise read, for real: the pinned Qwen2.5-Coder-1.5B GGUF reads each answer
sentence against the premise the trained verifier picks, off its logits."""

import pytest

from policy_example import POLICY_ANSWER, POLICY_CONTEXT
from rt4chart_plugins import Label, Verifier
from rt4chart_plugins.errors import InvalidInput

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def policy_report(embedded_model_path):
    return Verifier("local", judge_kwargs={"cache": False}).verify(
        context=" ".join(POLICY_CONTEXT), answer=POLICY_ANSWER
    )


def _claim(report, needle):
    return next(c for c in report.claims if needle in c.text.lower())


def test_the_premise_read_judges_the_policy_example_by_its_clauses(policy_report):
    r = policy_report
    assert r.state == "verified" and r.label == Label.CON and r.judge.endswith("+premise-read")
    assert [c.text for c in r.claims] == [c.text for c in Verifier("trained").verify(
        context=" ".join(POLICY_CONTEXT), answer=POLICY_ANSWER).claims]  # the verifier's clauses
    assert _claim(r, "all users").label == Label.CON
    lasts = _claim(r, "14 days")
    assert lasts.label == Label.ENT and 4 in [e.sentence_id for e in lasts.evidence]
    email = _claim(r, "email")
    assert email.label == Label.NIC and email.evidence == []
    assert "P(supported)=" in email.reason
    assert r.cost.completion_tokens == 0  # nothing generated: every label off the logits


def test_a_rerun_reads_every_pair_from_the_cache(embedded_model_path, tmp_path):
    cache = tmp_path / "cache.sqlite"
    first = Verifier("local", judge_kwargs={"cache": str(cache)}).verify(" ".join(POLICY_CONTEXT), POLICY_ANSWER)
    again = Verifier("local", judge_kwargs={"cache": str(cache)}).verify(" ".join(POLICY_CONTEXT), POLICY_ANSWER)
    assert first.cost.judge_calls > 0 and again.cost.judge_calls == 0 and again.cost.cache_hits >= first.cost.judge_calls
    assert [(c.label, c.probs) for c in again.claims] == [(c.label, c.probs) for c in first.claims]


def test_the_window_reads_options_are_refused_by_the_premise_read():
    with pytest.raises(InvalidInput, match="read='window' does"):
        Verifier("local", judge_kwargs={"n_ctx": 4096})
    with pytest.raises(InvalidInput, match="read='premise' does"):
        Verifier("local", judge_kwargs={"read": "window", "fit": "fit.json"})
