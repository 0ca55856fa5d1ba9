"""An answer that only says it does not know carries no claim: ``no_claims``, not an ENT claim."""

from __future__ import annotations

import pytest

from rt4chart_plugins import Verifier
from rt4chart_plugins.text.abstention import is_abstention

ABSTENTIONS = [
    "I don't know.",
    "I don't know the answer to that based on the provided context.",
    "I do not know the answer to this question.",
    "I’m not sure.",
    "Sorry, I do not have enough information to answer that.",
    "I do not have the information to answer this question based on the context.",
    "I cannot say for sure from the given passages.",
    "I have no idea.",
]
CLAIMS = [
    "I don't know why, but the trial lasts 14 days.",
    "I know the trial lasts 14 days.",
    "I don't know Python.",
    "We do not know how long the trial lasts, but it is free.",
    "The trial lasts 14 days.",
]


@pytest.mark.parametrize("sentence", ABSTENTIONS)
def test_an_abstention_is_recognised(sentence):
    assert is_abstention(sentence)


@pytest.mark.parametrize("sentence", CLAIMS)
def test_a_sentence_with_content_is_not_an_abstention(sentence):
    assert not is_abstention(sentence)


@pytest.mark.parametrize("answer", ABSTENTIONS[:2])
def test_an_answer_that_only_abstains_has_no_claims(answer):
    report = Verifier().verify(context=["The free trial lasts 14 days."], answer=answer)
    assert report.state == "no_claims" and report.label is None and not report.hallucinated
    assert report.claims == [] and "carry no claim" in report.notes[0]


def test_an_abstention_beside_a_claim_leaves_the_claim():
    report = Verifier().verify(context=["The free trial lasts 14 days."],
                               answer="I don't know. The free trial lasts 14 days.")
    assert [c.text for c in report.claims] == ["The free trial lasts 14 days."]
