"""Clauses of an answer sentence, and the one that holds a contrast's words: the phrase an auditor
reads for a contradicted claim, whichever judge gave the verdict."""

import pytest

from rt4chart_plugins.claims import clause_spans, clause_with, with_subject


def test_the_clause_with_a_contrasts_words_is_found_by_its_words_not_its_letters():
    text = "The pass covers all museums, and no booking is needed for the tower."
    spans = clause_spans(text)
    assert clause_with(text, spans, "all") == "The pass covers all museums"
    assert clause_with(text, spans, "no booking") == "and no booking is needed for the tower"
    # "all" inside "small" is not the word: only the clause where it stands alone is the phrase
    smaller = "The pass covers the small museums, and no booking is needed for the tower."
    assert clause_with(smaller, clause_spans(smaller), "all") is None
    both = "The pass covers the small museums, and all of them open at noon."
    assert clause_with(both, clause_spans(both), "all") == "and all of them open at noon"
    assert clause_with("The pass covers all museums.", clause_spans("The pass covers all museums."), "all") is None
    assert clause_with(text, spans, "") is None


def test_an_amount_written_in_words_is_never_cut_into_two_clauses():
    # "three" alone is a number the context lacks: cut here, the first half read as baseless
    text = "Lantern Robotics raised three and a half million dollars in its seed round."
    assert [text[a:b] for a, b in clause_spans(text)] == [text[:-1]]
    two = "It costs 5 and 6 dollars and ships in 3 days."
    assert [two[a:b] for a, b in clause_spans(two)] == ["It costs 5 and 6 dollars", "and ships in 3 days"]


def test_every_clause_holding_alone_lets_the_weakest_take_the_blame_only_when_the_sentence_is_wrong():
    from rt4chart_plugins.claims import held_alone

    assert held_alone([0.8, 0.4, 0.6], 0.3, weakest_falls=True) == [True, False, True]
    assert held_alone([0.8, 0.4, 0.6], 0.3, weakest_falls=False) == [True, True, True]
    # one clause below the bar already carries the blame: nothing more falls
    assert held_alone([0.8, 0.2, 0.6], 0.3, weakest_falls=True) == [True, False, True]
    # of equals, the first falls; an empty sentence has no clause to blame
    assert held_alone([0.5, 0.5], 0.3, weakest_falls=True) == [False, True]
    assert held_alone([], 0.3, weakest_falls=True) == []


def test_a_clause_judge_gets_the_clauses_and_an_llm_judge_is_asked_whatever_the_sentence():
    import asyncio

    from scripted_judge import ScriptedJudge

    from rt4chart_plugins import Judge, VerifyResult
    from rt4chart_plugins.claims import clause_claims
    from rt4chart_plugins.pipeline.claims import decompose
    from rt4chart_plugins.types import Sentence

    text = "The pass covers all museums, and no booking is needed for the tower."
    sentences = [Sentence(id=0, text=text, start=0, end=len(text)), Sentence(id=1, text="I hope this helps!", start=70, end=88)]
    assert clause_claims(sentences[:1]) == [(0, "The pass covers all museums"), (0, "and no booking is needed for the tower")]

    class ClauseJudge(Judge):  # decomposes as Judge does by default
        clause_claims = True

        async def verify(self, request, *, cost):
            return VerifyResult()

    by_clause = asyncio.run(decompose(sentences, "llm", ClauseJudge()))
    assert [c.text for c in by_clause.claims] == [t for _, t in clause_claims(sentences[:1])]
    assert by_clause.cost.judge_calls == 0  # the claims stage cut them: the judge was not asked
    assert by_clause.notes == ["1 answer sentence(s) carry no claim (1 closing)"]
    asked = asyncio.run(decompose(sentences, "llm", ScriptedJudge(split_on=", and ")))
    assert [c.text for c in asked.claims] == ["The pass covers all museums", "no booking is needed for the tower"]
    assert asked.cost.judge_calls == 1
    whole = asyncio.run(decompose(sentences, "holistic", ClauseJudge()))
    assert [c.text for c in whole.claims] == [text]  # Judge.decompose's default: one claim per sentence


@pytest.mark.parametrize("sentence, clause, reads", [
    ("The free trial lasts 14 days and includes unlimited storage.", "and includes unlimited storage",
     "The free trial includes unlimited storage"),
    ("Trial accounts can export up to 5 reports and get priority support.", "and get priority support",
     "Trial accounts get priority support"),
    ("The museum opened in 2010 and attracts many visitors.", "and attracts many visitors",
     "The museum attracts many visitors"),
    # a clause with its own subject reads as written, without its joining word
    ("The free trial lasts 14 days, and verified new users can extend it once by 7 days.",
     "and verified new users can extend it once by 7 days", "verified new users can extend it once by 7 days"),
    # a relative clause is about the words before it, not the sentence's subject
    ("The bus stops at Elm Street, which offers free parking.", "which offers free parking", "offers free parking"),
    # the first clause is the sentence's own start
    ("The free trial lasts 14 days and includes unlimited storage.", "The free trial lasts 14 days",
     "The free trial lasts 14 days"),
])
def test_a_clause_reads_on_its_own_with_the_subject_it_shares(sentence, clause, reads):
    assert with_subject(sentence, clause) == reads
