"""A context's reading is made once and shared by the judge and the pipeline's rules."""

from rt4chart_plugins.rules.contrast import contrasts_of
from rt4chart_plugins.rules.records import records_of
from rt4chart_plugins.rules.shared import PerContext, forget_contexts

CONTEXT = ["Penguins cannot fly, but they are excellent swimmers.", "They live in the Southern Hemisphere."]


def test_the_same_sentences_get_the_same_reading_and_other_sentences_another():
    first = contrasts_of(CONTEXT)
    assert contrasts_of(tuple(CONTEXT)) is first
    assert contrasts_of(CONTEXT[:1]) is not first
    assert records_of(CONTEXT) is records_of(list(CONTEXT))


def test_a_kept_reading_answers_as_a_fresh_one():
    kept = contrasts_of(CONTEXT)
    claim = "Penguins can fly."
    assert kept.find(claim) is not None and kept.find(claim) is kept.find(claim)
    forget_contexts()
    fresh = contrasts_of(CONTEXT)
    assert fresh is not kept and fresh.find(claim) == kept.find(claim)


def test_only_the_last_contexts_are_kept_and_the_most_recently_read_stays():
    made = []
    kept = PerContext(lambda units: made.append(units) or len(made), size=2)
    assert kept(["a"]) == 1 and kept(["b"]) == 2
    assert kept(["a"]) == 1  # read again: now the most recent
    kept(["c"])  # evicts "b", the least recently read
    assert kept(["a"]) == 1 and kept(["b"]) == 4
    assert made == [("a",), ("b",), ("c",), ("b",)]
