"""The rule stage's treatment of clauses that took their sentence's verdict: when a rule
contradicts the sentence, each is read alone (the judge's ``support_alone``), and only the ones
that hold alone keep their support; the real rules and the real trained judge decide the policy
example end to end."""

from __future__ import annotations

from collections import Counter

from policy_example import POLICY_ANSWER, POLICY_CONTEXT

from rt4chart_plugins import Label, Verifier
from rt4chart_plugins.pipeline.rules import Doubt, settle
from rt4chart_plugins.rules.finding import Finding
from rt4chart_plugins.types import ClaimVerdict, Sentence

UNITS = [Sentence(id=0, text="Only verified new users are eligible for the trial.", start=0, end=52)]
FOUND = Finding(
    rule="contrast",
    kind="quantifier",
    label=Label.CON,
    units=(0,),
    reason="The context says \u201cOnly verified new users are eligible for the trial.\u201d, not \u201call\u201d.",
    claim_says="all",
)


def clause(i: int, text: str) -> ClaimVerdict:
    return ClaimVerdict(id=i, text=text, sentence_id=0, label=Label.ENT, judged_alone=False, reason="r")


def test_a_sibling_that_holds_alone_keeps_its_support_and_one_that_does_not_is_contradicted():
    keeps, falls = clause(1, "and the trial lasts 14 days"), clause(2, "and no verification is needed")
    changed: Counter = Counter()
    settle([Doubt([keeps, falls], FOUND, whole=False)], [0.2, -0.3], UNITS, changed)
    assert keeps.label == Label.ENT and keeps.rule is None
    assert falls.label == Label.CON and [e.sentence_id for e in falls.evidence] == [0]
    assert falls.reason.startswith("Its sentence, read as a whole, is contradicted. The context says")
    assert falls.rule is not None and falls.rule.judge_label == Label.ENT and falls.rule.claim_says == ""
    assert falls.phrase_span is None  # the whole clause is the mark
    assert changed == Counter({("contrast", Label.CON): 1})


def test_a_finding_about_the_whole_sentence_falls_on_its_weakest_clause_when_every_clause_holds():
    strong, weak = clause(1, "The trial applies to new users"), clause(2, "who sign up")
    settle([Doubt([strong, weak], FOUND, whole=True)], [0.3, 0.05], UNITS, Counter())
    assert (strong.label, weak.label) == (Label.ENT, Label.CON)
    assert weak.reason == FOUND.reason  # about the sentence itself: no "read as a whole" preface


def test_no_clause_is_singled_out_when_another_clause_of_the_sentence_is_contradicted_already():
    a, b = clause(1, "The trial applies to new users"), clause(2, "who sign up")
    settle([Doubt([a, b], FOUND, whole=True, answered=True)], [0.3, 0.05], UNITS, Counter())
    assert (a.label, b.label) == (Label.ENT, Label.ENT)


def test_a_judge_that_cannot_read_a_clause_alone_leaves_every_sibling_contradicted():
    a, b = clause(1, "The trial applies to new users"), clause(2, "who sign up")
    settle([Doubt([a, b], FOUND, whole=False)], None, UNITS, Counter())
    assert (a.label, b.label) == (Label.CON, Label.CON)


def test_the_policy_examples_second_clause_falls_with_its_sentence_on_the_trained_judge():
    claims = Verifier().verify(context=POLICY_CONTEXT, answer=POLICY_ANSWER).claims
    first, second = claims[0], claims[1]
    assert first.rule is not None and first.rule.claim_says == "all" and first.label == Label.CON
    # "and no verification is needed" took its sentence's verdict; read alone it does not hold
    assert second.label == Label.CON and second.reason.startswith("Its sentence, read as a whole")


def test_a_clause_with_no_verb_of_its_own_is_not_read_alone_and_keeps_its_verdict():
    from rt4chart_plugins.pipeline.rules import apply_rules
    from rt4chart_plugins.rules.contrast import ContrastRule

    context = "Only verified new users are eligible for the trial, which includes priority support."
    sentence = "All users are eligible for the trial, which includes priority support, and email and chat help."
    units = [Sentence(id=0, text=context, start=0, end=len(context))]
    answer = [Sentence(id=0, text=sentence, start=0, end=len(sentence))]
    first = clause(0, "All users are eligible for the trial")
    verb = clause(1, "which includes priority support")
    verbless = clause(2, "and email and chat help")
    rule = ContrastRule()
    doubts = apply_rules(
        [first, verb, verbless], [(rule, rule.read([context], context, None))], units, answer, Counter()
    )
    assert first.label == Label.CON and first.rule is not None and first.rule.claim_says == "All"
    # the clause with a verb took the sentence's verdict and is read alone; the verbless conjunct
    # says nothing alone, so it is not put in doubt
    assert [(d.whole, [v.id for v in d.clauses]) for d in doubts] == [(False, [1])]
    assert verbless.label == Label.ENT and verbless.rule is None
