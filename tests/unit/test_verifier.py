"""Pipeline logic with a scripted judge: joins, the global pass, spans, states, bad input."""

import asyncio
import math

import pytest

from rt4chart_plugins import InvalidInput, Label, Report, Verifier
from scripted_judge import ScriptedJudge

CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible.", "Exports are capped at 5 per month."]
RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified"), "email": (None, None)}


def verifier(judge=None, **kw):
    return Verifier(judge or ScriptedJudge(RULES), **kw)


def test_claims_map_to_their_sentences_with_evidence_and_spans():
    answer = "The trial lasts 14 days. It applies to all users and includes email support."
    report = verifier().verify(context=CONTEXT, answer=answer)
    labels = {c.text: c.label for c in report.claims}
    assert labels == {"The trial lasts 14 days": Label.ENT, "It applies to all users": Label.CON,
                      "includes email support": Label.NIC}
    con = next(c for c in report.claims if c.label == Label.CON)
    assert [e.sentence_id for e in con.evidence] == [1]
    assert con.evidence[0].text == CONTEXT[1] and con.evidence[0].passage == 1
    # a claim that quotes part of its sentence stands where its words are; one that does not, on its sentence
    assert con.answer_span.text == "It applies to all users"
    assert answer[con.answer_span.start : con.answer_span.end] == con.answer_span.text
    nic = next(c for c in report.claims if c.label == Label.NIC)
    assert nic.evidence == [] and nic.answer_span.text == "includes email support"
    assert report.label == Label.CON and report.hallucinated and report.state == "verified"
    assert report.score == pytest.approx(1 / 3)
    assert [s.text for s in report.unfaithful_spans] == ["It applies to all users", "includes email support"]
    assert "global verification skipped" in " ".join(report.notes)


def test_repeated_answer_sentence_gets_its_own_span():
    answer = "It applies to all users. The trial lasts 14 days. It applies to all users."
    report = verifier(decomposition="sentence").verify(context=CONTEXT, answer=answer)
    starts = [c.answer_span.start for c in report.claims if c.label == Label.CON]
    assert starts == [0, answer.rindex("It applies")]


def test_sub_sentence_span_from_the_named_phrase():
    judge = ScriptedJudge(RULES, phrase="all users")
    report = Verifier(judge, decomposition="sentence").verify(context=CONTEXT, answer="It applies to all users.")
    claim = report.claims[0]
    assert claim.phrase_span.text == "all users"
    assert [s.text for s in report.phrase_spans] == ["all users"]


def test_global_pass_runs_with_adaptive_modes_when_context_spans_windows():
    context = [f"Filler sentence number {i}." for i in range(40)] + ["Only verified users are eligible."]
    context[3] = "The trial lasts 14 days."
    judge = ScriptedJudge(RULES)
    report = Verifier(judge, decomposition="sentence", window_size=10, window_overlap=3).verify(
        context=context, answer="The trial lasts 14 days. It applies to all users. It has email support.")
    modes = [r.mode for r in judge.requests]
    assert modes.count("local") == len(report.windows) == 6
    assert "global_search" in modes and "global_hint" in modes
    hint = next(r for r in judge.requests if r.mode == "global_hint")
    assert all(label in (Label.ENT, Label.CON) for label, _ in hint.hints.values())
    search = next(r for r in judge.requests if r.mode == "global_search")
    assert [c.text for c in search.claims] == ["It has email support."] and not search.hints
    assert all(c.global_checked for c in report.claims)
    assert [c.label for c in report.claims] == [Label.ENT, Label.CON, Label.NIC]


class OneWindowJudge(ScriptedJudge):
    """A judge whose verdict on the whole context is final (as the trained verifier's is)."""

    one_window = True


LONG_CONTEXT = [f"Filler sentence number {i}." for i in range(60)]
LONG_CONTEXT[3] = "The trial lasts 14 days."
LONG_CONTEXT[50] = "Only verified users are eligible."


def test_windows_left_unset_are_the_methods_for_a_judge_that_reads_its_window():
    judge = ScriptedJudge(RULES)
    report = Verifier(judge, decomposition="sentence").verify(context=LONG_CONTEXT, answer="The trial lasts 14 days.")
    assert [(w.first, w.last) for w in report.windows] == [(0, 24), (15, 39), (30, 54), (45, 59)]
    assert {r.mode for r in judge.requests} >= {"local", "global_hint"}


def test_a_one_window_judge_reads_the_whole_context_once_unless_windows_are_set():
    judge = OneWindowJudge(RULES)
    report = Verifier(judge, decomposition="sentence").verify(
        context=LONG_CONTEXT, answer="The trial lasts 14 days. It applies to all users.")
    assert [(w.first, w.last) for w in report.windows] == [(0, 59)]
    assert [(r.mode, len(r.sentences)) for r in judge.requests] == [("local", 60)]
    assert [c.label for c in report.claims] == [Label.ENT, Label.CON]
    assert [e.sentence_id for e in report.claims[1].evidence] == [50]
    assert any("read the whole context as one window" in n for n in report.notes)
    assert not any(c.global_checked for c in report.claims)

    judge = OneWindowJudge(RULES)
    report = Verifier(judge, decomposition="sentence", window_size=25).verify(
        context=LONG_CONTEXT, answer="The trial lasts 14 days.")
    assert len(report.windows) == 4 and "global_hint" in {r.mode for r in judge.requests}


def test_no_global_pass_when_disabled():
    judge = ScriptedJudge(RULES)
    Verifier(judge, decomposition="sentence", window_size=2, window_overlap=1, global_verification=False).verify(
        context=CONTEXT, answer="The trial lasts 14 days.")
    assert {r.mode for r in judge.requests} == {"local"}


def test_windows_shrink_to_fit_a_small_judge():
    judge = ScriptedJudge(RULES, budget=30)
    report = Verifier(judge, decomposition="sentence").verify(context=CONTEXT * 10, answer="The trial lasts 14 days.")
    assert any("windows shrunk" in n for n in report.notes)
    assert all(len(r.sentences) < 30 for r in judge.requests if r.mode == "local")


def test_oracle_corrections_are_reported():
    judge = ScriptedJudge(RULES, extra_evidence=[99])
    report = Verifier(judge, decomposition="sentence").verify(context=CONTEXT, answer="The trial lasts 14 days.")
    assert [c.kind for c in report.corrections] == ["evidence_out_of_range"]
    assert [e.sentence_id for e in report.claims[0].evidence] == [0]


def test_partial_judging_is_reported_never_nan():
    judge = ScriptedJudge(RULES, fail_claims={"email"})
    report = Verifier(judge, decomposition="sentence").verify(
        context=CONTEXT, answer="The trial lasts 14 days. It has email support.")
    assert report.state == "partial" and report.label == Label.ENT
    unjudged = [c for c in report.claims if not c.judged]
    assert len(unjudged) == 1 and unjudged[0].error == "scripted failure"
    assert not math.isnan(report.score)


def test_all_claims_failing_gives_a_failed_report():
    judge = ScriptedJudge(RULES, fail_claims={"e"})
    report = Verifier(judge, decomposition="sentence").verify(context=CONTEXT, answer="The email is late.")
    assert report.state == "failed" and report.label is None and "scripted failure" in report.error


@pytest.mark.parametrize("answer", ["", "   ", "I cannot answer this question based on the passages."])
def test_no_claims_state(answer):
    report = verifier().verify(context=CONTEXT, answer=answer)
    assert report.state == "no_claims" and report.label is None
    assert report.score == 1.0 and not report.hallucinated


def test_a_preamble_carries_no_claim_but_what_follows_its_colon_does():
    answer = "Here is a summary of the article in 62 words or less:\n\nThe trial lasts 14 days."
    report = verifier(decomposition="sentence").verify(context=CONTEXT, answer=answer)
    assert [c.text for c in report.claims] == ["The trial lasts 14 days."]
    assert "carry no claim" in " ".join(report.notes)
    # a colon inside the sentence: the part after it is content, so the sentence stays a claim
    report = verifier(decomposition="sentence").verify(context=CONTEXT, answer="Here is the price: 12 dollars.")
    assert [c.text for c in report.claims] == ["Here is the price: 12 dollars."]


@pytest.mark.parametrize("sentence,expected", [
    ("Sure! Here's my answer based on the given passages:", True),
    ("Based on the provided passages, here are the steps to grow dahlias from bulbs:", True),
    ("Here's the summary within 62 words:", True),
    ("Based on the provided passages, the deduction can be claimed on Line 29.", False),
    ("Here is the capital of France, Paris.", False),
    ("The report is here.", False),
    ("I hope this helps!", True),
    ("Let me know if you have any further questions or if there's anything else I can help with.", True),
    ("If you have any other questions, feel free to ask!", True),
    ("I hope the new treatment helps patients recover faster, the doctor said.", False),
    ("Let me know if the store in Reno opens at 9 AM, she told the manager, who said it opens at 10 AM "
     "on weekdays and at 11 AM on Sundays, and that it closes at 8 PM every day except public holidays.", False),
])
def test_preambles_and_closings_are_recognised_and_claims_are_not(sentence, expected):
    from rt4chart_plugins.claims import carries_no_claim

    assert carries_no_claim(sentence) is expected


def test_empty_context_makes_every_claim_baseless_without_asking_the_judge():
    judge = ScriptedJudge(RULES)
    report = Verifier(judge, decomposition="sentence").verify(context=["", "  "], answer="The trial lasts 14 days.")
    assert report.label == Label.NIC and judge.requests == []


@pytest.mark.parametrize("kwargs, match", [
    ({"context": CONTEXT, "answer": 42}, "answer must be a string"),
    ({"context": 3.5, "answer": "x"}, "context must be a string or a list"),
    ({"context": ["ok", None], "answer": "x"}, "context must hold strings: item 1 is None"),
    ({"context": CONTEXT, "answer": "x", "question": ["q"]}, "question must be a string"),
])
def test_bad_input_raises_a_clear_error(kwargs, match):
    with pytest.raises(InvalidInput, match=match):
        verifier().verify(**kwargs)


def test_a_100k_word_context_is_verified_window_by_window():
    words = " ".join(f"word{i}" for i in range(12)) + "."
    context = " ".join([words] * 8400)  # ~100k words, 8,400 sentences
    judge = ScriptedJudge(RULES)
    report = Verifier(judge, decomposition="sentence", global_verification=False).verify(
        context=context + " The trial lasts 14 days.", answer="The trial lasts 14 days.")
    assert report.label == Label.ENT
    assert len(report.windows) > 500
    assert report.claims[0].evidence[0].sentence_id == len(report.context_sentences) - 1


def test_over_limit_context_is_rejected_clearly():
    with pytest.raises(InvalidInput, match="over the limit"):
        Verifier(ScriptedJudge(RULES), max_context_chars=100).verify(context="x" * 101, answer="y")


def test_verify_many_keeps_order_and_reports_failed_rows():
    rows = [{"context": CONTEXT, "answer": "The trial lasts 14 days."},
            {"context": CONTEXT, "answer": 7},
            {"context": CONTEXT, "answer": "It applies to all users."}]
    reports = verifier().verify_many(rows)
    assert [r.state for r in reports] == ["verified", "failed", "verified"]
    assert [r.label for r in reports] == [Label.ENT, None, Label.CON]
    assert "answer" in reports[1].error


class _SlowJudge(ScriptedJudge):
    async def verify(self, request, *, cost):
        await asyncio.sleep(2)
        return await super().verify(request, cost=cost)


def test_a_failed_report_has_no_score_and_no_verdict():
    """A failed row said score 0.0 and hallucinated False: averaged over an export, it counted as
    a hallucination. Whichever way a row fails, its score and verdict are null (docs/output.md)."""
    judge_failed = Verifier(ScriptedJudge(RULES, fail_claims={"e"}), decomposition="sentence").verify(
        context=CONTEXT, answer="The email is late.")
    bad_row = verifier().verify_many([{"context": CONTEXT, "answer": 7}])[0]
    past_deadline = Verifier(_SlowJudge(RULES), deadline=0.05).verify(
        context=CONTEXT, answer="The trial lasts 14 days.")
    for report in (judge_failed, bad_row, past_deadline):
        assert report.state == "failed" and (report.score, report.hallucinated) == (None, None), report.error
        assert '"score":null' in report.model_dump_json() and '"hallucinated":null' in report.model_dump_json()
    old = judge_failed.model_dump() | {"score": 0.0, "hallucinated": False}  # a file written before the rule
    assert (Report.model_validate(old).score, Report.model_validate(old).hallucinated) == (None, None)
    with pytest.raises(ValueError, match="needs its score"):
        Report(label=None, hallucinated=None, score=None, state="verified")


def test_sync_facade_works_inside_a_running_loop():
    async def inside():
        return verifier().verify(context=CONTEXT, answer="The trial lasts 14 days.")
    assert asyncio.run(inside()).label == Label.ENT


def test_report_json_roundtrip():
    from rt4chart_plugins import Report

    report = verifier().verify(context=CONTEXT, answer="It applies to all users.")
    assert Report.model_validate_json(report.model_dump_json()) == report


def test_fact_check_overrules_an_ent_verdict_on_a_number_the_context_lacks():
    rules = {"days": ("trial lasts", None)}
    # the contrast check would call "30 days" against "14 days" CON first: this test is the fact check's
    report = Verifier(ScriptedJudge(rules), decomposition="sentence", contrast_check=False).verify(
        context=CONTEXT, answer="The trial lasts 14 days. The trial lasts 30 days.")
    assert [c.label for c in report.claims] == [Label.ENT, Label.NIC]
    assert report.claims[1].unsupported_facts == ["30"] and report.claims[1].evidence == []
    off = Verifier(ScriptedJudge(rules), decomposition="sentence", fact_check=False, contrast_check=False).verify(
        context=CONTEXT, answer="The trial lasts 30 days.")
    assert off.claims[0].label == Label.ENT


def test_contrast_check_overrules_an_ent_verdict_and_cites_the_sentence_that_says_otherwise():
    context = ["The free trial lasts 14 days.", "Trial accounts cannot export reports."]
    rules = {"days": ("trial lasts", None), "export": ("free trial", None)}  # both "supported", wrongly
    answer = "The free trial lasts 30 days. Trial accounts can export reports."
    report = Verifier(ScriptedJudge(rules), decomposition="sentence").verify(context=context, answer=answer)
    assert [c.label for c in report.claims] == [Label.CON, Label.CON]
    assert [[e.text for e in c.evidence] for c in report.claims] == [[context[0]], [context[1]]]
    assert all(e.passage is not None and context[e.passage][e.start:e.end] == e.text
               for c in report.claims for e in c.evidence)
    assert "The context says" in report.claims[1].reason and any("contrast check: 2 claim(s)" in n for n in report.notes)
    off = Verifier(ScriptedJudge(rules), decomposition="sentence", contrast_check=False, fact_check=False).verify(
        context=context, answer=answer)
    assert [c.label for c in off.claims] == [Label.ENT, Label.ENT]


def test_a_contrast_override_marks_the_clause_its_reason_is_about():
    """An LLM judge's ENT turned into CON by the contrast check: the phrase is the clause of the
    answer sentence that holds the words the reason quotes, not the whole sentence."""
    context = ["Only residents with a permit may park on Elm Street.", "The station is two minutes away."]
    answer = "Anyone may park on Elm Street, which is close to the station."
    rules = {"park": ("Elm Street", None)}  # "supported", wrongly
    report = Verifier(ScriptedJudge(rules, split_on=None), decomposition="sentence").verify(context=context, answer=answer)
    claim = report.claims[0]
    assert claim.label == Label.CON and claim.rule.kind == "quantifier"
    assert claim.phrase_span is not None and claim.phrase_span.text == "Anyone may park on Elm Street"
    assert answer[claim.phrase_span.start:claim.phrase_span.end] == claim.phrase_span.text
    assert report.phrase_spans == [claim.phrase_span]
    # one clause: the whole sentence is the mark
    single = Verifier(ScriptedJudge(rules), decomposition="sentence").verify(context=context, answer="Anyone may park on Elm Street.")
    assert single.claims[0].label == Label.CON and single.claims[0].phrase_span is None


def test_field_check_overrules_an_ent_verdict_that_flips_a_yes_no_field():
    record = '{"name": "Blue Spoon", "attributes": {"HasTV": "False", "RestaurantsTakeOut": "True"}}'
    rules = {"takeout": ("TakeOut", None), "TV": ("HasTV", None)}
    report = Verifier(ScriptedJudge(rules), decomposition="sentence").verify(
        context=record, answer="Blue Spoon offers takeout. Blue Spoon has a TV.")
    assert [c.label for c in report.claims] == [Label.ENT, Label.CON]
    assert [e.text for e in report.claims[1].evidence] == ["attributes.HasTV: False"]
    assert "The record says attributes.HasTV: False" in report.claims[1].reason
    off = Verifier(ScriptedJudge(rules), decomposition="sentence", record_checks=False).verify(
        context=record, answer="Blue Spoon has a TV.")
    assert off.claims[0].label == Label.ENT


def test_hours_check_overrules_an_ent_verdict_that_gives_a_day_other_hours():
    record = '{"name": "Blue Spoon", "hours": {"Friday": "9:0-22:0", "Saturday": "9:0-17:0"}}'
    rules = {"PM": ("Friday", None)}  # the scripted judge supports both sentences
    report = Verifier(ScriptedJudge(rules), decomposition="sentence").verify(
        context=record, answer="It closes at 10 PM on Fridays. It closes at 10 PM on Saturdays.")
    assert [c.label for c in report.claims] == [Label.ENT, Label.CON]
    assert [e.text for e in report.claims[1].evidence] == ["hours.Saturday: 9:0-17:0"]
    assert "The record says hours.Saturday: 9:0-17:0" in report.claims[1].reason
    assert any("opening hours" in n for n in report.notes)
    closed = Verifier(ScriptedJudge({"closed": ("Friday", None)}), decomposition="sentence").verify(
        context=record, answer="It is closed on Sundays.")
    assert closed.claims[0].label == Label.ENT  # "Sundays" is in no field, yet the hours confirm it


def test_the_pipeline_options_travel_whole_as_one_value():
    """What the CLI builds from its flags is one PipelineConfig, kept as it is, and checked
    against the judge like the keywords."""
    from rt4chart_plugins.config import PipelineConfig
    from rt4chart_plugins.factory import make_detector

    pipeline = PipelineConfig(decomposition="sentence", window_size=6, window_overlap=2)
    assert Verifier(pipeline=pipeline).config is pipeline
    assert make_detector("rt4chart", pipeline=pipeline).config is pipeline
    unset = Verifier(pipeline=PipelineConfig(window_size=6, window_overlap=2)).config
    assert unset.decomposition == "clauses" and unset.window_size == 6  # the judge's, as with keywords
    assert unset == Verifier(window_size=6, window_overlap=2).config
    with pytest.raises(InvalidInput, match="not both"):
        Verifier(pipeline=pipeline, window_size=3)
    with pytest.raises(InvalidInput, match="ignores decomposition='llm'"):
        Verifier(pipeline=PipelineConfig(decomposition="llm"))
    with pytest.raises(InvalidInput, match="no RT4CHART pipeline"):
        make_detector("gasp", pipeline=pipeline)


def test_a_judge_that_cannot_be_built_for_its_options_fails_a_batch_once():
    """verify_many builds the judge before the rows: an option it refuses is one InvalidInput for
    the call; a judge that cannot load for another reason fails each row, saying why."""
    v = verifier()
    v._judge = None
    v.choice = type("Refusing", (), {"build": staticmethod(lambda: (_ for _ in ()).throw(InvalidInput("bad timeout")))})()
    with pytest.raises(InvalidInput, match="bad timeout"):
        v.verify_many([{"context": CONTEXT, "answer": "The trial lasts 14 days."}] * 2)
    v.choice = type("Broken", (), {"build": staticmethod(lambda: (_ for _ in ()).throw(OSError("no model")))})()
    reports = v.verify_many([{"context": CONTEXT, "answer": "The trial lasts 14 days."}] * 2)
    assert [r.state for r in reports] == ["failed", "failed"] and "no model" in reports[0].error


@pytest.mark.parametrize("asked, kept", [("  How long?  ", "How long?"), ("   ", None)])
def test_a_row_past_its_deadline_keeps_its_answer_question_and_judge(asked, kept):
    """The deadline's failed report says what a finished one would: the answer, the question as
    the pipeline reads it (stripped; blank is none) and the judge."""
    v = Verifier(_SlowJudge(RULES), deadline=0.05)
    report = v.verify(context=CONTEXT, answer="The trial lasts 14 days.", question=asked)
    assert report.state == "failed" and report.error and report.answer == "The trial lasts 14 days."
    assert report.question == kept and report.judge == v.judge.name
    finished = verifier().verify(context=CONTEXT, answer="The trial lasts 14 days.", question=asked)
    assert finished.question == kept
