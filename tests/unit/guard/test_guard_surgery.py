"""The guard's text surgery: clauses out with their comma or conjunction, emptied sentences gone,
whitespace closed up, and never a character that was not in the answer (but one capital and the
markers)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rt4chart_plugins.guard.surgery import Edit, drop, mark_after
from rt4chart_plugins.pipeline.segment import split_sentences

POLICY = (
    "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
    "and verified new users can extend it once by 7 days. The trial also includes priority email support."
)


def cut(text: str, *pieces: str) -> str:
    spans = []
    for piece in pieces:
        at = text.index(piece)
        spans.append((at, at + len(piece)))
    return drop(text, split_sentences(text), spans).render()


def test_the_policy_answer_loses_its_contradicted_sentence_and_baseless_one():
    assert (
        cut(POLICY, "The trial policy applies to all users", "and no verification is needed",
            "The trial also includes priority email support.")
        == "The free trial lasts 14 days, and verified new users can extend it once by 7 days."
    )


def test_a_later_clause_takes_its_comma_and_conjunction_with_it():
    assert cut(POLICY, "and verified new users can extend it once by 7 days").split(". ")[1] == (
        "The free trial lasts 14 days"
    )


def test_a_first_clause_leaves_the_next_one_opening_the_sentence_capitalized():
    out = cut(POLICY, "The trial policy applies to all users")
    assert out.startswith("No verification is needed. The free trial lasts 14 days,")


def test_an_inserted_clause_goes_with_both_its_commas():
    assert cut("The museum, which opened in 1900, is large.", "which opened in 1900") == "The museum is large."
    assert cut("A, B, and C are here.", "B") == "A and C are here."


def test_a_clause_that_only_qualifies_the_removed_one_goes_with_it():
    assert cut("Paris is big, which makes it famous. Rome is old.", "Paris is big") == "Rome is old."


def test_list_items_and_paragraphs_keep_their_layout():
    assert cut("- First point here.\n- Second point there.\n- Third.", "Second point there.") == (
        "- First point here.\n- Third."
    )
    assert cut("Intro.\n\nPara two is here. Another one.", "Para two is here.") == "Intro.\n\nAnother one."
    assert cut("One here. Two there.", "Two there.") == "One here."


def test_the_sentence_end_stays_when_its_last_clause_goes():
    assert cut("It is free, and it lasts long!", "and it lasts long") == "It is free!"


def test_nothing_to_cut_is_the_answer_unchanged():
    assert cut(POLICY) == POLICY
    assert drop("", [], [(0, 3)]).render() == ""


def test_a_marker_goes_before_the_closing_punctuation():
    edit = Edit("It lasts 14 days.")
    mark_after(edit, 0, 17, "[1]")
    assert edit.render() == "It lasts 14 days [1]."
    edit = Edit("It lasts 14 days")
    mark_after(edit, 0, 16, "[unsupported]")
    assert edit.render() == "It lasts 14 days [unsupported]"


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence bounds by a plain rule, so that these properties test the surgery alone (the
    product's splitter has tests of its own)."""
    return [(m.start(), m.end()) for m in re.finditer(r"[^\s.!?…][^.!?…\n]*[.!?…]*", text)]


def _is_subsequence(small: str, big: str) -> bool:
    it = iter(big)
    return all(ch in it for ch in small)


_WORDS = st.sampled_from(["The", "trial", "lasts", "14", "days", "and", "but", "which", "users", "é", "ß", "it"])
_SEPS = st.sampled_from([" ", ", ", "; ", " - ", ". ", "! ", "\n", "\n\n- ", "? ", ",", "  "])


@st.composite
def answers(draw):
    parts = draw(st.lists(st.tuples(_WORDS, _SEPS), min_size=0, max_size=30))
    return "".join(w + s for w, s in parts) + draw(st.sampled_from(["", ".", "…", "\n"]))


@settings(max_examples=300, deadline=None)
@given(answers(), st.data())
def test_the_output_is_the_answers_characters_in_order(text, data):
    n = len(text)
    spans = data.draw(st.lists(st.tuples(st.integers(-2, n + 2), st.integers(-2, n + 2)), max_size=5))
    edit = drop(text, _sentences(text), spans)
    for a, b in data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=3)):
        mark_after(edit, min(a, b), max(a, b), "[9]")
    out = edit.render()
    bare = out.replace(" [9]", "")
    assert _is_subsequence(bare.lower(), text.lower()) or _is_subsequence(bare, text)
    assert "  " not in bare or "  " in text
    assert not bare.startswith((" ", "\n")) or text.startswith((" ", "\n"))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.lists(st.tuples(st.integers(0, 90), st.integers(0, 90)), max_size=4))
def test_any_text_and_any_spans_never_crash(text, spans):
    out = drop(text, _sentences(text), spans).render()
    assert isinstance(out, str) and len(re.sub(r"\s", "", out)) <= len(re.sub(r"\s", "", text)) + 2


def test_a_clause_on_a_line_of_its_own_leaves_the_sentence_closed_and_the_line_break():
    answer = "The free trial lasts 14 days;\nThe trial lasts 30 days.\nVerified new users can extend it."
    # sentencex reads the first two lines as one sentence: its second clause is the CON one
    assert [answer[a:b] for a, b in split_sentences(answer)][0] == "The free trial lasts 14 days;\nThe trial lasts 30 days."
    assert cut(answer, "The trial lasts 30 days") == "The free trial lasts 14 days.\nVerified new users can extend it."
    assert cut(answer, "The free trial lasts 14 days") == "The trial lasts 30 days.\nVerified new users can extend it."
    assert cut("A is here.\nB is there.\nC is too.", "B is there.") == "A is here.\nC is too."


def test_an_assertion_after_an_abstention_goes_with_its_conjunction():
    # the abstaining clause carries no claim and stays; the assertion goes with the word joining it
    assert cut("The policy does not mention pricing, but the trial costs 500 dollars.", "the trial costs 500 dollars") == (
        "The policy does not mention pricing."
    )
    assert cut("The context gives no price; however, the trial costs 5 dollars.", "the trial costs 5 dollars") == (
        "The context gives no price."
    )
    assert cut("It lasts 14 days and it costs 5 dollars.", "it costs 5 dollars") == "It lasts 14 days."


def test_a_clause_left_alone_drops_the_subordinator_that_tied_it_to_the_one_removed():
    assert cut("Although the leaflet doesn't say, the trial costs 500 dollars.", "the trial costs 500 dollars") == (
        "The leaflet doesn't say."
    )
    assert cut("While the text is silent on it, the room has a sea view.", "the room has a sea view") == (
        "The text is silent on it."
    )
