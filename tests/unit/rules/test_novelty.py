"""What a claim adds to its context: content words by lemma, amounts left to the number check,
rare words weighing more than common ones, a synonym of a context word weighing less."""

from __future__ import annotations

import pytest

from rt4chart_plugins.rules.novelty import Lexicon, content_tokens, novel_words, novelty, rarity

POLICY = (
    "The free trial is available to new customers who sign up for the Basic plan. Only new users whose "
    "identity has been verified are eligible for the trial. Trial accounts can export up to 5 reports per "
    "month. Eligible users may request one extension of the trial by 7 days. The free trial lasts 14 days."
)


@pytest.mark.parametrize("claim, added", [
    ("The free trial lasts 14 days and includes unlimited storage.", ["includes", "unlimited", "storage"]),
    ("Verified users also get a discount on the annual plan.", ["get", "discount", "annual"]),
    ("The trial lasts two weeks.", []),  # an amount is the number check's
    ("New customers who signed up for the Basic plan are eligible.", []),  # "signed" meets "sign"
    ("The trial accounts exported reports.", []),  # "exported" meets "export"
    ("Verification is needed for the trial.", ["needed"]),  # "verification" meets "verified"
])
def test_the_words_a_claim_adds_are_read_by_lemma(claim, added):
    assert novel_words(claim, POLICY) == added


def test_function_words_numbers_and_amount_words_are_not_content():
    assert content_tokens("It lasts for an hour, twice a week, and costs 12 dollars.") == ["lasts", "costs"]


def test_a_rare_word_weighs_more_than_a_common_one():
    assert rarity("storage") > rarity("give") > 0.0
    assert rarity("zzxqv") == 1.0  # a word the table never saw reads as rare


def test_a_synonym_of_a_context_word_weighs_less_than_an_unrelated_word():
    lexicon = Lexicon("Dogs and cats are welcome in every room.")
    assert lexicon.closest("pets") > lexicon.closest("storage")
    assert lexicon.weight(["pets"]) < lexicon.weight(["storage"])


def test_novelty_is_the_share_of_content_words_added():
    claim = "The trial includes unlimited storage."
    assert novelty(claim, novel_words(claim, POLICY)) == pytest.approx(3 / 4)
    assert novelty("The trial.", []) == 0.0
