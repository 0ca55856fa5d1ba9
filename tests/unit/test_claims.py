"""Clauses of an answer sentence, and the one that holds a contrast's words: the phrase an auditor
reads for a contradicted claim, whichever judge gave the verdict."""

from rt4chart_plugins.claims import clause_spans, clause_with


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
