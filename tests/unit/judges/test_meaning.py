"""The offline default judges meaning, not word overlap: the shipped trained verifier on the
cases it once passed because every word was in the context (none of them is a training example,
and no rule names their words).

Each case runs with and without a question, which must not change the label. The contrast rule
(rules/contrast/) catches the quantifiers and the negations, the README's policy example among
them; the shipped artifact still calls two of these contradictions ENT: they are marked as known
misses (strict, so the day the judge gets them right the marks must go), and
lab/docs/training.md says why.
"""

from __future__ import annotations

import pytest

from rt4chart_plugins import Label, Verifier

#: a contradiction whose every word the context has, which the shipped artifact still passes
KNOWN_MISS = pytest.mark.xfail(strict=True, reason="the shipped verifier passes a fully covered contradiction "
                               "(lab/docs/training.md, 'Where it fails')")

CASES = [
    # (context, answer sentence, expected label, a question it could come with)
    ("Only employees with a badge may enter the lab after 6 PM.",
     "Anyone can enter the lab after 6 PM.", Label.CON, "Who can enter the lab after 6 PM?"),
    ("Penguins cannot fly, but they are excellent swimmers.",
     "Penguins can fly.", Label.CON, "Can penguins fly?"),
    ("Penguins cannot fly, but they are excellent swimmers.",
     "Penguins are excellent swimmers and can fly short distances.", Label.CON, "What can penguins do?"),
    ("The museum is closed on Mondays. It opens at 10 AM on all other days.",
     "The museum is open every day of the week.", Label.CON, "When is the museum open?"),
    pytest.param("Refunds are issued within 30 days of purchase. Opened software cannot be refunded.",
     "Opened software can be refunded within 30 days.", Label.CON, "Can opened software be refunded?", marks=KNOWN_MISS),
    ("Maria Lopez was elected mayor in 2019. She previously served as a city council member.",
     "Maria Lopez later won a national award for urban design.", Label.NIC, "What did Maria Lopez do?"),
    # the other half of the day: every word and number is the context's
    ("The reading room opens at 8:30 AM and closes at 5 PM.",
     "The reading room opens at 8:30 PM.", Label.CON, "When does the reading room open?"),
    ("The museum is closed on Mondays. It opens at 10 AM on all other days.",
     "The museum opens at 10 AM except on Mondays, when it is closed.", Label.ENT, "When is the museum open?"),
    ("Maria Lopez was elected mayor in 2019. She previously served as a city council member.",
     "Before becoming mayor in 2019, Maria Lopez was a city council member.", Label.ENT, "What did Maria Lopez do?"),
]


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier(decomposition="sentence")


def _id(case) -> str:
    return (case.values if hasattr(case, "values") else case)[1][:40]


@pytest.mark.parametrize("context,answer,expected,question", CASES, ids=[_id(c) for c in CASES])
def test_the_label_follows_the_meaning_with_or_without_a_question(verifier, context, answer, expected, question):
    for q in (None, question):
        claim = verifier.verify(context, answer, question=q).claims[0]
        assert claim.label == expected, (q, claim.reason)
        # the label is the one its own probabilities give
        assert max(claim.probs, key=claim.probs.get) == expected or (
            expected == Label.ENT and claim.probs[Label.ENT] >= verifier.judge.threshold)
        if expected == Label.CON:  # a contradiction cites the context sentence that refutes it
            assert claim.evidence and all(context[e.start:e.end] == e.text for e in claim.evidence)


POLICY_QUESTION = "Who can get the free trial, and what does it include?"


def test_the_policy_example_is_read_for_what_it_says():
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "examples" / "policy"
    context, answer = (root / "context.txt").read_text(), (root / "answer.txt").read_text()
    for q in (None, POLICY_QUESTION):
        report = Verifier().verify(context, answer, question=q)
        # one claim per clause, each on its own words: "…applies to all users" | "and no
        # verification is needed" | "The free trial lasts 14 days" | "and verified new users can
        # extend it once by 7 days" | "The trial also includes priority email support."
        first, no_check, lasts, extend, third = report.claims
        assert first.label == Label.CON, first.reason
        assert [e.text for e in first.evidence] == [
            "Only new users whose identity has been verified are eligible for the trial."]
        assert "The context says" in first.reason  # what it states instead, in words
        assert "all users" in answer[first.answer_span.start:first.answer_span.end]
        assert no_check.label == Label.CON and no_check.answer_span.text == "and no verification is needed"
        assert lasts.label == extend.label == Label.ENT, (lasts.reason, extend.reason)
        assert third.label == Label.NIC, third.reason
