"""Inputs that used to crash the verifier, each now a well-defined report, through the trained judge."""

import json
import math

import pytest

from rt4chart_plugins import Report, Verifier
from rt4chart_plugins.rules.facts import numbers, unsupported_facts


@pytest.fixture(scope="module")
def verifier():
    return Verifier("trained")


def _roundtrip(report: Report) -> Report:
    back = Report.model_validate_json(report.model_dump_json())
    assert back == report
    assert all(math.isfinite(v) for c in report.claims for v in (c.probs or {}).values())
    return back


@pytest.mark.parametrize("where", ["context", "answer", "question", "empty context"])
def test_a_lone_surrogate_anywhere_gives_a_report_that_serializes(verifier, where):
    context, answer, question = "The sky is blue. Grass is green.", "The sky is blue.", "What colour is the sky?"
    if where == "context":
        context = "The sky \ud800 is blue. Grass is green."
    elif where == "answer":
        answer = "The sky \ud800 is blue."
    elif where == "question":
        question = "What \udfff colour?"
    else:
        context, answer = "", "The sky \ud800 is blue."
    report = _roundtrip(verifier.verify(context=context, answer=answer, question=question))
    assert report.state != "failed" and report.claims
    assert len(report.answer) == len(answer)  # one code point for one: offsets still index the caller's text
    assert "\ud800" not in report.answer
    for c in report.claims:
        assert report.answer[c.answer_span.start:c.answer_span.end] == c.answer_span.text
    if where == "answer":
        assert report.label.value == "ENT"  # the replacement does not change what the claim says


def test_a_json_context_nested_a_thousand_deep_is_read_as_text(verifier):
    deep = '{"a": ' * 1000 + '"The sky is blue."' + "}" * 1000
    report = _roundtrip(verifier.verify(context=deep, answer="The sky is blue."))
    assert report.state == "verified"
    shallow = _roundtrip(verifier.verify(context='{"sky": {"colour": "blue"}}', answer="The sky is blue."))
    assert shallow.context_sentences[0].field == "sky.colour"  # an ordinary record is still split by field


def test_huge_numbers_are_compared_exactly(verifier):
    assert unsupported_facts("The price is " + "9" * 400 + ".", "The price is 5.") == ["9" * 400]
    assert unsupported_facts("The price is 1e400.", "The price is 5.") == ["1E+400"]
    assert unsupported_facts("The price is 1e400.", "It costs 1e400 dollars.") == []
    assert numbers("It is 1e400 or 1e401.") == numbers("1e401 and 1e400")
    assert len(numbers("It is 1e400 or 1e401.")) == 2
    assert numbers("It costs $1,000 for 5 PM to 9:30 pm, twice.") >= {1000.0, 17.0, 21.0, 2.0}
    for answer in ("The price is " + "9" * 400 + ".", "The price is 1e400."):
        report = _roundtrip(verifier.verify(context="The price is 5.", answer=answer))
        assert report.label.value != "ENT", answer


@pytest.mark.parametrize("context,answer", [
    (r'{"k": "\ud800 is open"}', "It is open."),  # an escaped surrogate in a value: the encoder raised TypeError
    (r'{"\ud835": "x"}', ""),  # in a key: the report did not serialize
    (r'{"hours": {"Monday": "9:0-17:0"}, "n\udfffote": "\udc00"}', "It opens on Monday at 9 AM."),
])
def test_a_lone_surrogate_escaped_in_a_json_context_gives_a_report_that_serializes(verifier, context, answer):
    report = _roundtrip(verifier.verify(context=context, answer=answer))
    assert report.state != "failed"
    for s in report.context_sentences:  # the unit keeps its place in the caller's text
        assert 0 <= s.start <= s.end <= len(context) and (s.text + (s.field or "")).encode("utf-8")
    assert any("\ufffd" in s.text for s in report.context_sentences)  # replaced, one code point for one


RECORD = '{"name": "Bob\'s Diner", "attributes": {"HasTV": "False"}, "hours": {"Monday": "9:0-17:0"}}'


@pytest.mark.parametrize("context", [f"Here is the record: {RECORD}", f"{RECORD}\nThat is all we know.",
                                     f"Two records follow. {RECORD} and {RECORD}"])
def test_a_record_with_text_around_it_is_still_read_by_field(verifier, context):
    """Text before or after a JSON record made it read as prose: its contradicted claims became ENT."""
    report = _roundtrip(verifier.verify(context=context, answer="Bob's Diner has TVs."))
    assert report.claims[0].label.value == "CON"
    assert report.claims[0].evidence[0].field == "attributes.HasTV"
    tv = report.claims[0].evidence[0]
    assert context[tv.start:tv.end] == '"HasTV": "False"'


@pytest.mark.parametrize("question", [None, "0", "12", "When does it close? 0 or 24?"])
def test_a_bare_number_in_the_question_states_no_time_of_day(verifier, question):
    """"0" in the question made "midnight" (hour 0) a fact the source states: CON became ENT."""
    report = verifier.verify(context="The store opens at 9 AM and closes at 5 PM.", answer="It closes at midnight.",
                             question=question)
    # flagged, whatever the question: by the judge (CON), or by the fact check, which does not
    # read "midnight" into the question's bare number
    claim = report.claims[0]
    assert report.label.value in ("CON", "NIC")
    assert claim.label.value == "CON" or (claim.rule and claim.rule.rule == "facts" and "midnight" in claim.rule.claim_says)
    assert unsupported_facts("It closes at 9 PM.", "It closes at 5 PM. It has 21 tables.") == ["9 PM"]
    assert unsupported_facts("It closes at 9 PM.", "It closes at 21:00.") == []
