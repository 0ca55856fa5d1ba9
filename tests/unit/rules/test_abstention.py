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
    "I can't tell from the rule sheet.",
    "I don't know, based on the brochure.",
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


# ---- "the context does not say": an answer that reports what its source lacks ---------------

from rt4chart_plugins.claims import asserted_span  # noqa: E402
from rt4chart_plugins.text.abstention import says_source_lacks  # noqa: E402

LACKS = [
    "The policy does not mention student discounts.",
    "The context does not say.",
    "I couldn't find anything about parking in the listing.",
    "That isn't covered.",
    "No information is given about refunds.",
    "There is no information about refunds in the policy.",
    "Student discounts are not mentioned.",
    "Not mentioned in the context.",
    "The trial terms don't mention refunds.",
    "The biography says nothing about her family.",
    "Sorry, the schedule gives no details about paying on board.",
    "Cheques aren't covered anywhere in the fee sheet.",
    "The text is silent on that.",
    "The policy does not mention student discounts, parking, or pets.",
    # the answerer does not know whether, when or who: what it does not know is no claim either
    "I don't know whether it causes drowsiness.",
    "I'm not sure when the shop opens on Sundays.",
    "We do not know who the landlord is.",
    "I can't tell from the page whether there is a café.",
    # the ways of saying it the everyday tuning set found unread, each a form, not a topic
    "Nothing in the booking says whether the car may cross a border.",
    "There's no information about moving an existing number.",
    "That's not something the plan page covers.",
    "The page doesn't cover photography.",
    "The syllabus is silent on attendance.",
    "No software is named in the syllabus.",
    "Nothing about uniforms is mentioned.",
    "The spec sheet doesn't list a fingerprint reader.",
    # every document noun is read by every form that names a source
    "I can't tell from the recipe whether it is vegan.",
    "I'm not sure from the email when it starts.",
    "That's not something the syllabus covers.",
    "Lunch isn't included anywhere in the booking.",
]
STATEMENTS = [  # what a thing is or does, not what a text says: claims
    "The trial does not include unlimited storage.",
    "Towels are not included in the price.",
    "Pets are not allowed in the apartment.",
    "The plan does not cover dental work.",
    "Dental work is not covered by the plan.",
    "The hotel has no pool.",
    "The bus does not stop at Elm Street.",
    "Refunds are not given after 30 days.",
    "The policy does not apply to existing customers.",
    # the same forms, said of a thing or in the past, state a fact
    "The policy does not cover flood damage.",
    "The insurance doesn't cover additional drivers.",
    "The booking doesn't cover additional drivers.",
    "The shop doesn't list prices online.",
    "The company doesn't name a successor.",
    "No refunds are given in the first week.",
    "The minister was silent on the issue.",
    "There's no lift in the building.",
]


@pytest.mark.parametrize("sentence", LACKS)
def test_a_sentence_that_reports_what_the_context_lacks_carries_no_claim(sentence):
    assert says_source_lacks(sentence) and asserted_span(sentence) is None


@pytest.mark.parametrize("sentence", STATEMENTS)
def test_a_statement_about_the_world_is_a_claim(sentence):
    assert not says_source_lacks(sentence) and asserted_span(sentence) == (0, len(sentence))


@pytest.mark.parametrize("sentence, asserted", [
    ("The context does not provide any information about pricing, but the trial costs 500 dollars and includes "
     "a free car.", "the trial costs 500 dollars and includes a free car."),
    ("Although the leaflet doesn't say, the tablets should be taken at night.",
     "the tablets should be taken at night."),
    ("It isn't stated; however, the tablets should be taken at night.", "the tablets should be taken at night."),
    ("The listing doesn't say who the landlord is, but the deposit is one month's rent.",
     "the deposit is one month's rent."),
    ("The trial lasts 14 days, but the policy does not mention extensions.", "The trial lasts 14 days"),
    ("The passages do not provide information about fees, but they mention that the deduction is on Line 29.",
     "they mention that the deduction is on Line 29."),
    ("I don't know whether it causes drowsiness, but it contains caffeine.", "it contains caffeine."),
    ("No price is listed in the brochure, but the tour lasts two hours.", "the tour lasts two hours."),
    ("I don't know whether it causes drowsiness; it does, however, contain caffeine.",
     "it does, however, contain caffeine."),
])
def test_a_sentence_that_abstains_and_then_asserts_is_judged_on_what_it_asserts(sentence, asserted):
    a, b = asserted_span(sentence)
    assert sentence[a:b] == asserted


def test_the_report_lists_each_stretch_that_carries_no_claim_with_its_reason():
    answer = ("I hope this helps! The context does not provide any information about pricing, but the trial "
              "costs 500 dollars. The policy does not mention student discounts.")
    report = Verifier().verify(context=["The free trial lasts 14 days."], answer=answer)
    assert [c.text for c in report.claims] == ["the trial costs 500 dollars."]
    assert report.label == "NIC" and report.hallucinated  # the assertion is judged, and the guard acts on it
    listed = {(u.sentence_id, u.reason, u.span.text) for u in report.unclaimed}
    assert listed == {
        (0, "closing", "I hope this helps!"),
        (1, "abstention", "The context does not provide any information about pricing"),
        (2, "abstention", "The policy does not mention student discounts."),
    }
    for u in report.unclaimed:
        assert answer[u.span.start:u.span.end] == u.span.text
    assert "1 answer sentence(s) abstain and then assert: only what they assert is judged" in report.notes


def test_an_answer_made_only_of_abstentions_is_no_claims_and_says_so():
    report = Verifier().verify(context=["The free trial lasts 14 days."],
                               answer="The policy does not mention student discounts. The context does not say.")
    assert report.state == "no_claims" and not report.hallucinated and report.claims == []
    assert [u.reason for u in report.unclaimed] == ["abstention", "abstention"]
    assert any("only abstains" in n for n in report.notes)


def test_the_guard_removes_what_an_abstaining_sentence_asserts():
    verifier = Verifier()
    guarded = verifier.guard(context=["The free trial lasts 14 days."],
                             answer="The context does not mention the price, but the trial costs 500 dollars.")
    assert "500 dollars" not in guarded.text


@pytest.mark.parametrize("decomposition", ["llm", "sentence", "holistic"])
def test_an_abstention_means_the_same_to_a_judge_that_decomposes(decomposition):
    """The claims stage decides what carries a claim before any judge reads the answer: a decomposing
    LLM judge (openai, local) is never asked about a pure abstention, and decomposes only what an
    abstaining sentence asserts."""
    from scripted_judge import ScriptedJudge

    judge = ScriptedJudge({"14 days": ("14 days", None)})
    verifier = Verifier(judge, decomposition=decomposition)
    report = verifier.verify(context=["The free trial lasts 14 days."], answer="The context does not say.")
    assert report.state == "no_claims" and judge.requests == [] and report.cost.judge_calls == 0
    report = verifier.verify(context=["The free trial lasts 14 days."],
                             answer="The policy does not mention pricing, but the free trial lasts 14 days.")
    assert [c.text.rstrip(".") for c in report.claims] == ["the free trial lasts 14 days"]
    assert report.label == "ENT" and [u.reason for u in report.unclaimed] == ["abstention"]


@pytest.mark.parametrize("sentence", [
    "I don't know; the leaflet doesn't say when the shop opens.",
    "I'm not sure, the listing doesn't mention parking.",
    "The leaflet says nothing about parking; I don't know.",
])
def test_a_sentence_whose_every_clause_abstains_carries_no_claim(sentence):
    # each clause is read without the separator that ends it ("I don't know;" is "I don't know")
    assert asserted_span(sentence) is None


@pytest.mark.parametrize("answer, doubted", [
    ("The page does not mention parking, but the free trial lasts 14 days.", [True]),
    ("The page does not mention parking. The free trial lasts 14 days.", [True]),
    ("I'm not sure whether it includes storage, but the free trial lasts 14 days.", [True]),
    ("The free trial lasts 14 days. The page does not mention parking.", [False]),
    ("The free trial lasts 14 days. It includes email support.", [False, False]),
    ("The page does not mention parking. The trial lasts 14 days. It includes email support.", [True, False]),
    # an abstention after the assertion does not put it, or the sentence after it, in doubt
    ("The free trial lasts 14 days, but the page does not mention parking. It includes email support.",
     [False, False]),
    # nor does a sentence that opens by saying the context gives what follows
    ("The page does not mention parking. It does say that the free trial lasts 14 days.", [False]),
    ("The page does not mention parking, but the page does say that the free trial lasts 14 days.", [True]),
])
def test_a_claim_that_follows_the_answers_own_abstention_is_marked(answer, doubted):
    """The claims stage marks what an answer asserts right after saying the context lacks something
    (in the same sentence or the one before): a judge may ask more of its support."""
    from scripted_judge import ScriptedJudge

    judge = ScriptedJudge({})
    verifier = Verifier(judge, decomposition="sentence")
    verifier.verify(context=["The free trial lasts 14 days.", "It includes email support."], answer=answer)
    assert [c.after_abstention for request in judge.requests for c in request.claims] == doubted


def test_every_clause_of_an_assertion_after_an_abstention_needs_the_floor():
    """Each clause an abstaining sentence asserts answers for itself at the doubt floor: an invented
    thing joined to an invented price ("and includes a free car") is not ENT because it shares
    "trial" and "includes" with the context."""
    from rt4chart_plugins import examples

    report = Verifier().verify(
        context=examples.read("policy/context.txt"),
        answer="The context does not provide any information about pricing, but the trial costs 500 dollars "
               "and includes a free car.",
    )
    assert report.claims and all(c.label.value != "ENT" for c in report.claims), [
        (c.text, c.label, c.probs) for c in report.claims]


@pytest.mark.parametrize("sentence, asserted", [
    ("Based on the given passages, the free trial lasts 30 days.", "the free trial lasts 30 days."),
    ("According to the policy, the free trial lasts 14 days.", "the free trial lasts 14 days."),
    ("As stated in the article, the bridge opened in 1932.", "the bridge opened in 1932."),
    ("The policy states that refunds take 14 days.", "refunds take 14 days."),
    ("It does say that unused data does not roll over.", "unused data does not roll over."),
    ("The leaflet says the tablets should be taken at night.", "the tablets should be taken at night."),
    ("The trial lasts 14 days, according to the policy.", "The trial lasts 14 days"),
    ("The page doesn't mention 5G, but it says that calls are unlimited.", "calls are unlimited."),
    ("According to the policy, yes.", "yes."),  # an answer to the question, read with it
])
def test_an_attribution_to_the_source_is_cut_off_what_a_sentence_asserts(sentence, asserted):
    a, b = asserted_span(sentence)
    assert sentence[a:b] == asserted


@pytest.mark.parametrize("sentence", [
    "According to the Census Bureau, the town has 40,000 people.",  # a source in the world, not the text
    "The shop says that returns are free.",
    "The policy does not state that refunds are possible.",  # a negated one reports a lack
    "The page says so.",  # too little left to be a claim of its own
    "It rained, and the policy states nothing else.",
])
def test_what_only_looks_like_an_attribution_keeps_its_words(sentence):
    span = asserted_span(sentence)
    assert span is None or span[0] == 0


def test_an_attribution_is_listed_as_no_claim_and_its_claim_is_judged_alone():
    answer = "Based on the given passages, the free trial lasts 30 days. According to the policy."
    report = Verifier().verify(context=["The free trial lasts 14 days."], answer=answer)
    assert [(c.text, c.label.value) for c in report.claims] == [("the free trial lasts 30 days.", "CON")]
    assert [(u.sentence_id, u.reason, u.span.text) for u in report.unclaimed] == [
        (0, "preamble", "Based on the given passages"),
        (1, "preamble", "According to the policy."),
    ]
    assert "1 answer sentence(s) attribute what they say to the context: only what they attribute is judged" in (
        report.notes
    )
