"""The rule-family measurement: a family switched off finds nothing, and its marginal effect is
counted against the gold of each set."""

from types import SimpleNamespace as NS

from rt4chart_plugins.rules.contrast.align import Contrasts
from rt4chart_plugins.types import Label, Span
from rt4chart_lab.bench.rule_families import marginal, without

CONTEXT = ["The museum is open on Mondays."]
CLAIM = "The museum is not open on Mondays."


def test_a_family_switched_off_finds_nothing_and_the_rule_is_restored_after():
    assert Contrasts(CONTEXT).find(CLAIM).kind == "negation"
    with without("contrast:negation") as options:
        assert Contrasts(CONTEXT).find(CLAIM) is None
        assert options == {"fact_check": True}
    with without("contrast:quantifier"):  # another kind leaves this one alone
        assert Contrasts(CONTEXT).find(CLAIM).kind == "negation"
    with without("facts") as options:
        assert options == {"fact_check": False}
    assert Contrasts(CONTEXT).find(CLAIM).kind == "negation"


def _claim(label, start, end):
    return NS(label=label, answer_span=Span(start=start, end=end, text="x" * (end - start)))


def test_catches_and_false_alarms_are_counted_against_the_gold():
    rows = [{"hallucinated": True}, {"hallucinated": False}, {"hallucinated": True}]
    on = [NS(hallucinated=True, claims=[]), NS(hallucinated=True, claims=[]), NS(hallucinated=True, claims=[])]
    off = [NS(hallucinated=False, claims=[]), NS(hallucinated=False, claims=[]), NS(hallucinated=True, claims=[])]
    assert marginal(rows, on, off, per_claim=False) == {"catch": 1, "false alarm": 1}
    # per claim: a flagged claim overlapping a gold span is a catch, one outside any is a false alarm
    row = {"spans": [(0, 10)]}
    on = [NS(claims=[_claim(Label.CON, 0, 5), _claim(Label.NIC, 20, 30), _claim(Label.ENT, 40, 50)])]
    off = [NS(claims=[_claim(Label.ENT, 0, 5), _claim(Label.ENT, 20, 30), _claim(Label.ENT, 40, 50)])]
    assert marginal([row], on, off, per_claim=True) == {"catch": 1, "false alarm": 1}
