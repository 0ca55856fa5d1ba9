"""A claim's amount read in the context's words before the encoder reads it: the encoder reads
shared words, and "a quarter of an hour" shares none with "15 minutes"."""

from rt4chart_plugins import Verifier
from rt4chart_plugins.judges.trained.premise import Premises

CLINIC = [
    "The clinic runs every Friday in October from 9 am to 1 pm.",
    "Everyone else pays 18 euros.",
    "After the injection, you will be asked to wait 15 minutes before leaving.",
    "The trial lasts 14 days.",
]


def _restated(claim: str, context: list[str] = CLINIC) -> str:
    return Premises(context, [len(t.split()) for t in context], 120).restated(claim)


def test_an_amount_the_context_writes_otherwise_is_read_as_the_context_writes_it():
    assert _restated("You must stay for a quarter of an hour.") == "You must stay for 15 minutes."
    assert _restated("The trial lasts two weeks.") == "The trial lasts 14 days."
    assert _restated("Others pay eighteen euros.") == "Others pay 18 euros."
    assert _restated("It opens at 9:00 on Fridays.") == "It opens at 9 am on Fridays."


def test_a_claim_with_no_such_amount_is_read_as_written():
    for claim in (
        "You must stay for 15 minutes.",  # the context's own words
        "You must stay for half an hour.",  # another amount: the encoder and the rules judge it
        "The trial lasts a fortnight and a half.",  # no amount read
        "You must stay a while.",
    ):
        assert _restated(claim) == claim
    assert _restated("You must stay for a quarter of an hour.", ["No amounts here."]) == (
        "You must stay for a quarter of an hour."
    )


def test_the_report_keeps_the_answers_words_and_cites_the_sentence_of_the_amount():
    context = " ".join(CLINIC)
    # in the context's words but for the amount: "after your jab" adds a word of weight to this
    # short context, and the encoder's P(ENT) for it (0.25) is below the bar that asks for
    answer = "You'll need to stay for a quarter of an hour after the injection."
    (claim,) = Verifier().verify(context=context, answer=answer).claims
    assert claim.text == answer and claim.answer_span.text == answer
    assert claim.label == "ENT"
    assert claim.evidence[0].text == CLINIC[2]
