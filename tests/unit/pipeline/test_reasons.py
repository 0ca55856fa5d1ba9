"""The reason a person reads for a verdict the judge gave no words for (the trained verifier)."""

from rt4chart_plugins import Verifier, examples
from rt4chart_plugins.pipeline.verdicts import reason_in_words
from rt4chart_plugins.types import Evidence, Judgement, Label, Sentence, Signals

CITED = Evidence.of(Sentence(id=0, text="The free trial lasts 14 days.", start=0, end=29))


def _supported(novel: list[str]) -> Judgement:
    return Judgement(claim_id=0, label=Label.ENT, evidence=[0], signals=Signals(encoder={}, coverage=1.0, novel=novel))


def test_a_supported_claim_that_adds_words_names_them_beside_its_citation():
    claim = "Verified users also get a discount on the annual plan."
    reason = reason_in_words(_supported(["get", "discount", "annual"]), [CITED], None, claim)
    assert reason == "The context says “The free trial lasts 14 days.”, but never mentions “get”, “discount” or “annual”."
    # the rarest three, in the claim's order, and how many more
    claim = "Members get a discount, free parking and a yearly gift voucher."
    reason = reason_in_words(_supported(["get", "discount", "parking", "yearly", "voucher"]), [CITED], None, claim)
    assert reason.endswith("never mentions “discount”, “yearly” or “voucher” (2 more words).")
    # without a citation
    assert reason_in_words(_supported(["discount"]), [], None, "A discount.") == (
        "Supported by the context, which never mentions “discount”."
    )


def test_a_claim_held_by_two_sentences_quotes_the_one_that_holds_most_of_it():
    swim = Evidence.of(Sentence(id=1, text="A single swim costs 6 euros.", start=0, end=28))
    sauna = Evidence.of(Sentence(id=2, text="The sauna costs 4 euros extra.", start=29, end=59))
    reason = reason_in_words(_supported([]), [swim, sauna], None, "The sauna costs 4 euros on top of a swim.")
    assert reason == "The context says “The sauna costs 4 euros extra.”."
    # the rarer words decide: "refund" over "day" and "travel"
    travel = Evidence.of(Sentence(id=3, text="You may travel on any service that day.", start=0, end=39))
    refund = Evidence.of(Sentence(id=4, text="Refunds are given up to 24 hours before departure.", start=40, end=90))
    reason = reason_in_words(_supported([]), [travel, refund], None, "You can get a refund up to a day before you travel")
    assert reason == "The context says “Refunds are given up to 24 hours before departure.”."
    # the first of equals, in document order
    reason = reason_in_words(_supported([]), [swim, sauna], None, "It costs euros.")
    assert reason == "The context says “A single swim costs 6 euros.”."


def test_an_unsupported_claim_with_no_phrase_names_the_words_it_adds():
    unsupported = Judgement(claim_id=0, label=Label.NIC, signals=Signals(encoder={}, coverage=0.0, novel=["class"]))
    assert reason_in_words(unsupported, [], None, "Each class lasts 90 minutes.") == (
        "Nothing in the context states this; it never mentions “class”."
    )
    unsupported.signals.novel = []
    assert reason_in_words(unsupported, [], None, "Each class lasts 90 minutes.") == "Nothing in the context states this."


def test_a_clause_is_not_told_of_the_numbers_its_sentences_other_clause_misses():
    signals = Signals(encoder={}, coverage=0.0, missing=["500"], novel=["car"])
    unsupported = Judgement(claim_id=0, label=Label.NIC, signals=signals)
    assert reason_in_words(unsupported, [], None, "and includes a free car") == (
        "Nothing in the context states this; it never mentions “car”."
    )
    assert reason_in_words(unsupported, [], None, "the trial costs 500 dollars") == "Nothing in the context mentions “500”."
    signals.missing = ["1000"]
    assert reason_in_words(unsupported, [], None, "It costs 1,000 dollars.") == "Nothing in the context mentions “1000”."


def test_only_the_words_the_claim_itself_writes_are_named():
    # a clause judged within its sentence carries its sentence's signals
    reason = reason_in_words(_supported(["email", "addresses"]), [CITED], None, "The free trial lasts two weeks")
    assert reason == "The context says “The free trial lasts 14 days.”."
    assert reason_in_words(_supported([]), [CITED], None, "The trial lasts 14 days.").endswith("14 days.”.")
    no_signals = Judgement(claim_id=0, label=Label.ENT, evidence=[0])
    assert reason_in_words(no_signals, [CITED], None, "x") == "The context says “The free trial lasts 14 days.”."


def test_the_default_verifier_says_what_an_invented_discount_adds():
    context = examples.read("policy/context.txt")
    report = Verifier().verify(context=context, answer="Verified users also get a discount on the annual plan.")
    (claim,) = report.claims
    # the encoder reads it as supported on "verified" and "plan"; if it ever flags it, the trail is
    # a flagged claim's, which names no citation as support
    if claim.label == Label.ENT:
        assert claim.reason.endswith("but never mentions “get”, “discount” or “annual”.")
    else:
        assert "never mentions" not in claim.reason
