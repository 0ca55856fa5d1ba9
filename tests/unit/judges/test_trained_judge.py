"""The trained cross-encoder judge, on the packaged artifact: real ONNX inference, no fakes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rt4chart_plugins import Verifier
from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.trained import encoder
from rt4chart_plugins.judges.base import VerifyRequest
from rt4chart_plugins.judges.trained.localize import unsupported_phrase
from rt4chart_plugins.judges.trained.premise import Relevance, select
from rt4chart_plugins.judges.trained.judge import TrainedJudge, premise_question
from rt4chart_plugins.pipeline.segment import segment_context
from rt4chart_plugins.types import Claim, Label

CONTEXT = (
    "The Riverside Library opened in 1962 on Elm Street. "
    "It holds about 40,000 books and a small collection of maps. "
    "The library is open from 9 AM to 6 PM on weekdays. "
    "Children's story hour takes place every Saturday morning. "
    "Membership is free for residents of the county."
)


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier("trained", decomposition="sentence", fact_check=False)


def _label(verifier: Verifier, answer: str) -> Label:
    report = verifier.verify(CONTEXT, answer)
    assert report.state == "verified", report.error
    assert len(report.claims) == 1
    return report.claims[0].label


def test_copied_sentence_is_entailed_with_its_evidence(verifier):
    report = verifier.verify(CONTEXT, "The library is open from 9 AM to 6 PM on weekdays.")
    claim = report.claims[0]
    assert claim.label == Label.ENT
    assert any("9 AM to 6 PM" in e.text for e in claim.evidence)
    assert claim.probs[Label.ENT] > 0.5


def test_changed_number_is_contradicted(verifier):
    assert _label(verifier, "The Riverside Library opened in 1987 on Elm Street.") == Label.CON


def test_foreign_sentence_is_baseless(verifier):
    assert _label(verifier, "The mayor announced a new tram line to the airport last spring.") == Label.NIC


def test_answer_level_flags_only_the_bad_sentence(verifier):
    report = verifier.verify(CONTEXT, "Membership is free for residents of the county. "
                                      "The library also runs a rooftop cafe that serves lunch.")
    labels = [c.label for c in report.claims]
    assert labels[0] == Label.ENT and labels[1] != Label.ENT
    assert report.hallucinated
    assert report.unfaithful_spans and report.unfaithful_spans[0].text.startswith("The library also runs")


def test_a_claim_longer_than_the_encoder_window_is_judged_not_a_crash(verifier):
    long_claim = "The library offers " + ", ".join(f"service number {i} for residents" for i in range(80)) + "."
    report = verifier.verify(CONTEXT, long_claim)
    assert report.state == "verified" and len(report.claims) == 1
    assert sum(report.claims[0].probs.values()) == pytest.approx(1.0)
    # the encoder reads only the claim's start; the fact check, on by default, reads all of it
    default = Verifier("trained", decomposition="sentence").verify(CONTEXT, long_claim)
    assert default.claims[0].label == Label.NIC and default.claims[0].rule.rule == "facts"


def test_packaged_artifact_checksum_matches_its_manifest():
    directory, manifest = encoder.load_manifest()
    assert encoder.sha256_file(directory / encoder.MODEL_FILE) == manifest.sha256
    assert 0.0 < manifest.threshold < 1.0
    assert manifest.validation, "the manifest records the validation numbers of its training run"


def test_corrupted_artifact_names_the_rebuild_command(tmp_path):
    shutil.copytree(encoder.ARTIFACT_DIR, tmp_path / "a")
    model = tmp_path / "a" / encoder.MODEL_FILE
    data = bytearray(model.read_bytes())
    data[len(data) // 2] ^= 0xFF
    model.write_bytes(bytes(data))
    with pytest.raises(ModelNotAvailable, match="rt4chart train-verifier"):
        TrainedJudge(tmp_path / "a").prepare()


def test_missing_artifact_names_the_rebuild_command(tmp_path):
    with pytest.raises(ModelNotAvailable, match="rt4chart train-verifier"):
        TrainedJudge(tmp_path).prepare()
    verifier = Verifier(TrainedJudge(tmp_path))
    with pytest.raises(ModelNotAvailable):
        verifier.verify(CONTEXT, "The library opened in 1962.")
    [report] = verifier.verify_many([{"context": CONTEXT, "answer": "The library opened in 1962."}])
    assert report.state == "failed" and "train-verifier" in (report.error or "")


def test_cli_reads_another_artifact_from_model_path(tmp_path, capsys):
    from rt4chart_plugins import cli

    shutil.copytree(encoder.ARTIFACT_DIR, tmp_path / "a")
    (tmp_path / "ctx.txt").write_text(CONTEXT)
    argv = ["verify", "--judge", "trained", "--context", str(tmp_path / "ctx.txt"), "--answer",
            "The Riverside Library opened in 1962 on Elm Street.", "--format", "json"]
    assert cli.main(argv + ["--model-path", str(tmp_path / "a")]) == 0
    assert '"label": "ENT"' in capsys.readouterr().out
    assert cli.main(argv + ["--model-path", str(tmp_path / "missing")]) != 0
    assert "rt4chart train-verifier" in capsys.readouterr().err


def test_cli_threshold_moves_the_trained_judges_operating_point(tmp_path, capsys, monkeypatch):
    from rt4chart_plugins import cli

    monkeypatch.delenv("RT4CHART_JUDGE", raising=False)  # the default judge is the trained one
    root = Path(__file__).parents[3] / "examples" / "policy"
    argv = ["verify", "--context", str(root / "context.txt"), "--answer-file", str(root / "answer.txt"), "--format", "json"]

    def labels(*extra: str) -> list[str]:
        cli.main(argv + list(extra))
        return [c["label"] for c in json.loads(capsys.readouterr().out)["claims"]]

    shipped = labels()  # one claim per clause: the first two sentences have two each
    assert shipped == ["CON", "CON", "ENT", "ENT", "NIC"]
    # every support is >= 0, so what is still flagged is what the rules found and what answers to
    # a bar above the threshold: the contrast (an "all" where the context says "only"), on the
    # clause that says it, and its sibling, which took the contradicted sentence's verdict and,
    # read alone, is not more likely supported than not (the bar of a clause in doubt does not fall
    # with the threshold); and the sentence that adds words to this short context ("priority email
    # support"), held to the clause bar, 0.15 above the threshold
    assert labels("--threshold", "0") == ["CON", "CON", "ENT", "ENT", "NIC"]
    assert "ENT" not in labels("--threshold", "1")  # no fitted P(ENT) reaches 1 exactly


def test_premise_reads_the_matching_sentences_in_document_order():
    sentences = ["Cats sleep a lot.", "The bridge opened in 1932.", "Dogs bark.", "The bridge is 500 m long."]
    scores = Relevance(sentences).scores("The bridge opened in 1932 and is 500 m long.")
    assert select(scores, [5, 5, 5, 5], budget=10) == [1, 3]
    assert select(scores, [5, 5, 5, 5], budget=10, exclude={1}) == [0, 3]


def test_support_spread_over_sentences_is_cited_sentence_by_sentence():
    sentences = ["The bridge was designed by Anna Berg.", "Cats sleep a lot.", "It opened in 1932.",
                 "The bridge was designed to carry trains."]
    rel = Relevance(sentences)
    claim = "The bridge, designed by Anna Berg, opened in 1932."
    ranked = sorted(range(4), key=lambda i: -rel.scores(claim)[i])
    # the name is in one sentence and the year in another; the fourth adds no word the first lacks
    assert sorted(rel.cover(claim, ranked)) == [0, 2]
    assert rel.cover(claim, ranked, limit=1) == [0]
    assert rel.cover("Penguins swim.", ranked) == []  # nothing in common: nothing cited


def test_an_entailed_claim_cites_every_sentence_that_supports_it(verifier):
    context = ["The Harlow footbridge was designed by Anna Berg.", "Cats sleep a lot.", "It opened in 1932."]
    claim = verifier.verify(context=context, answer="The Harlow footbridge, designed by Anna Berg, opened in 1932.").claims[0]
    assert claim.label == Label.ENT
    assert {e.sentence_id for e in claim.evidence} == {0, 2}


def test_an_elliptical_entailed_claim_cites_the_sentence_its_question_matches(verifier):
    report = verifier.verify(context=["The museum opens at 10 AM.", "The museum is closed on Mondays."],
                             answer="Yes, it does.", question="Does the museum open at 10 AM?")
    assert report.claims[0].label == Label.ENT
    assert [e.sentence_id for e in report.claims[0].evidence] == [0]


def test_premise_choice_does_not_depend_on_the_process_hash_seed():
    import subprocess
    import sys

    # 40 sentences over 120 words of varied frequency: many distinct idf values to add up
    code = ("import random\nfrom rt4chart_plugins.judges.trained.premise import Relevance\n"
            "rng = random.Random(0)\nvocab = [f'word{i}x' for i in range(120)]\n"
            "s = [' '.join(rng.sample(vocab[: rng.randint(10, 120)], 12)) for _ in range(40)]\n"
            "print(repr(Relevance(s).scores(' '.join(vocab[::3]), ' '.join(vocab[1::5]))))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)}).stdout
            for seed in range(6)}
    assert len(outs) == 1


def test_unsupported_phrase_is_the_part_the_premise_lacks():
    premise = "The museum opened in 1990 and has three floors."
    assert unsupported_phrase("The museum opened in 1990 and has a rooftop garden.", premise) == "rooftop garden"
    assert unsupported_phrase("The museum opened in 1990.", premise) is None
    # a word with an accent is named whole
    assert unsupported_phrase("The museum opened in 1990 and has a small café.", premise) == "small café"


def test_clauses_split_where_a_trailing_clause_can_be_baseless():
    from rt4chart_plugins.judges.trained.localize import weakest_clauses
    from rt4chart_plugins.claims import clause_spans

    text = "In 2010, the company moved to Austin and hired 200 new workers, which doubled its staff."
    spans = clause_spans(text)
    # "In 2010," is too short to stand alone; separators open the clause that follows them
    assert [text[a:b] for a, b in spans] == ["In 2010, the company moved to Austin", "and hired 200 new workers",
                                             "which doubled its staff"]
    assert weakest_clauses(text, spans, [0.9, 0.8, 0.2], 0.6) == "which doubled its staff"
    assert weakest_clauses(text, spans, [0.3, 0.8, 0.2], 0.6) == text[: spans[2][1]]  # first to last low clause
    assert weakest_clauses(text, spans, [0.3, 0.3, 0.2], 0.6) is None  # all low: the sentence is the span
    assert weakest_clauses(text, spans, [0.9, 0.9, 0.9], 0.6) is None
    assert clause_spans("Second, you can drink chamomile tea.") == [(0, 35)]


def test_a_contradicted_claims_phrase_is_the_clause_the_contrast_is_about():
    context = ("Only residents with a permit may park on Elm Street. "
               "The car park on Oak Road is open to visitors.")
    answer = "Anyone may park on Elm Street, which is close to the station."
    report = Verifier(judge="trained", decomposition="sentence").verify(context=context, answer=answer)
    claim = report.claims[0]
    assert claim.label == Label.CON and claim.rule.kind == "quantifier"
    assert [e.text for e in claim.evidence] == ["Only residents with a permit may park on Elm Street."]
    assert answer[claim.phrase_span.start:claim.phrase_span.end] == "Anyone may park on Elm Street"


def test_a_baseless_trailing_clause_is_the_phrase_of_a_flagged_sentence():
    context = ("The Riverside Museum opened in 1990 on the east bank of the river. It has three floors of "
               "paintings by local artists. Admission is free on Sundays.")
    answer = ("The Riverside Museum opened in 1990 on the east bank of the river, "
              "which makes it the most visited museum in Europe.")
    report = Verifier(judge="trained", decomposition="sentence").verify(context=context, answer=answer)
    assert report.hallucinated and report.claims[0].label != Label.ENT
    assert report.claims[0].phrase_span is not None
    phrase = answer[report.claims[0].phrase_span.start:report.claims[0].phrase_span.end]
    assert phrase == "which makes it the most visited museum in Europe"


RECORD = {
    "name": "Happy Bistro", "address": "5873 Market St", "city": "Santa Barbara", "state": "CA",
    "categories": "Bars, Nightlife, American (Traditional)",
    "hours": {"Monday": "12:0-20:0", "Tuesday": "12:0-18:0", "Friday": "9:0-19:0", "Saturday": "17:0-0:0"},
    "attributes": {"RestaurantsReservations": "True", "DogsAllowed": "True", "RestaurantsDelivery": "False",
                   "OutdoorSeating": "False", "Alcohol": "u'beer_and_wine'"},
    "business_stars": 4.5,
    "review_info": [{"review_stars": 1.0, "review_date": "2016-01-06",
                     "review_text": "Rude staff and a dirty dining room. Never coming back; my order was wrong twice."}],
}
RECORD_ANSWER = ("Happy Bistro is a traditional American bar located at 5873 Market St in Santa Barbara, CA. "
                 "It has a high overall rating of 4.5 stars. It accepts reservations and allows dogs, but it "
                 "does not offer delivery or outdoor seating. It serves beer and wine.")


def test_a_question_does_not_turn_faithful_sentences_about_a_record_into_flags(verifier):
    """The verifier learned records without a question; with one in front of the record's fields it
    called half of such faithful sentences CON. A structured window's premise carries no question."""
    plain = verifier.verify(json.dumps(RECORD), RECORD_ANSWER)
    asked = verifier.verify(json.dumps(RECORD), RECORD_ANSWER, question="What should I know about this business?")
    assert [c.label for c in plain.claims] == [Label.ENT] * 4
    assert [(c.label, c.probs) for c in asked.claims] == [(c.label, c.probs) for c in plain.claims]


@pytest.mark.parametrize("answer,question", [
    ("The library is open from 9 AM to 6 PM on weekdays.", "When is the library open?"),
    ("The library opened in 1975.", "When did the library open?"),
    ("Membership costs 20 dollars a year.", "How much is membership?"),
    ("The library has a rooftop garden.", "What does the library offer?"),
])
def test_a_full_claim_gets_the_same_verdict_with_or_without_its_question(tmp_path_factory, answer, question):
    """Under the ``elliptical`` question policy (an artifact trained with it; here the shipped model
    with its manifest set so), a full claim's premise, and so its verdict, ignores the question."""
    directory = tmp_path_factory.mktemp("elliptical")
    for f in (encoder.MODEL_FILE, encoder.TOKENIZER_FILE):
        shutil.copyfile(encoder.ARTIFACT_DIR / f, directory / f)
    manifest = encoder.load_manifest(check=False)[1].model_copy(update={"question": "elliptical"})
    (directory / encoder.MANIFEST_FILE).write_text(manifest.model_dump_json())
    verifier = Verifier(TrainedJudge(directory), decomposition="sentence", fact_check=False)
    asked, plain = verifier.verify(CONTEXT, answer, question=question), verifier.verify(CONTEXT, answer)
    assert [(c.label, c.probs, [e.sentence_id for e in c.evidence]) for c in asked.claims] == \
           [(c.label, c.probs, [e.sentence_id for e in c.evidence]) for c in plain.claims]


def test_an_elliptical_answer_is_read_with_its_question():
    from rt4chart_plugins.judges.trained.premise import Premises, needs_question

    sentences = [s.text for s in segment_context(CONTEXT)]
    premises = Premises(sentences, [len(t.split()) for t in sentences], 60, question="elliptical")
    assert needs_question("Yes, it does.") and needs_question("Every Saturday.")
    assert not needs_question("Children's story hour takes place every Saturday morning.")
    assert premises.pick("Yes, it does.", "Is membership free?").text.startswith("Question: Is membership free?")
    assert "Question:" not in premises.pick("Membership is free for residents.", "Is membership free?").text


def test_a_contradicted_claim_cites_the_sentence_that_refutes_it_and_says_what_it_states(verifier):
    context = ("The museum opens at 10 AM. Tickets cost 12 euros for adults. "
               "The museum is closed on Mondays. Guided tours run twice a day.")
    report = verifier.verify(context, "Tickets cost 30 euros for adults.")
    claim = report.claims[0]
    assert claim.label == Label.CON
    assert [e.text for e in claim.evidence] == ["Tickets cost 12 euros for adults."]
    e = claim.evidence[0]
    assert context[e.start:e.end] == e.text
    # the encoder's refuting sentence ("the context says instead: …") or the contrast rule's quote
    # ("quantity: the context says “…” where the claim says “30 euros …”"): either says it in words
    assert "The context says" in claim.reason and "\u201cTickets cost 12 euros for adults.\u201d" in claim.reason


def test_a_text_context_still_reads_the_question():
    assert premise_question(segment_context(CONTEXT), "When?") == "When?"
    assert premise_question(segment_context(json.dumps(RECORD)), "When?") is None


def test_a_claim_that_flips_a_yes_no_field_is_contradicted_with_the_field_as_evidence(verifier):
    report = verifier.verify(json.dumps(RECORD), "It offers delivery and has outdoor seating. It allows dogs.")
    flipped, kept = report.claims
    assert flipped.label == Label.CON and flipped.probs[Label.ENT] < 0.1
    assert {e.text for e in flipped.evidence} == {"attributes.RestaurantsDelivery: False",
                                                  "attributes.OutdoorSeating: False"}
    assert "The record says attributes.RestaurantsDelivery: False" in flipped.reason
    assert kept.label == Label.ENT and kept.reason == "The record says attributes.DogsAllowed: True."


def test_a_spelled_out_state_is_read_as_the_records_postal_code(verifier):
    """RECORD stores "state": "CA"; an answer that writes "California" states nothing new."""
    report = verifier.verify(json.dumps(RECORD), "Happy Bistro is a bar located at 5873 Market St in Santa Barbara, California.")
    claim = report.claims[0]
    assert "premise lacks" not in claim.reason  # before: "premise lacks california"
    assert claim.label == Label.ENT


def test_hours_the_record_gives_otherwise_are_contradicted_with_the_days_as_evidence(verifier):
    """RECORD: Friday 9:0-19:0, Saturday 17:0-0:0. "Until 7 PM" is in the premise (Friday), so the
    number check passes the Saturday claim; the hours check reads which day the time is for."""
    report = verifier.verify(json.dumps(RECORD), "It is open until 7 PM on Saturdays. On Fridays it closes at 7 PM.")
    wrong, right = report.claims
    assert wrong.label == Label.CON and wrong.probs[Label.ENT] < 0.1
    assert [e.text for e in wrong.evidence] == ["hours.Saturday: 17:0-0:0"]
    assert "The record says hours.Saturday: 17:0-0:0" in wrong.reason
    assert "The record says" not in right.reason


def test_a_sentence_of_hours_the_record_bears_out_is_entailed_even_with_closed_days_the_record_lacks(verifier):
    """RECORD lists Monday, Tuesday, Friday and Saturday. "Sundays" is in no field, so the name
    check alone would call the second sentence baseless; the hours check confirms it."""
    report = verifier.verify(json.dumps(RECORD), "On Fridays it is open from 9 AM to 7 PM. It is closed on Sundays.")
    hours, closed = report.claims
    assert hours.label == Label.ENT and [e.text for e in hours.evidence] == ["hours.Friday: 9:0-19:0"]
    assert closed.label == Label.ENT and "hours.Monday: 12:0-20:0" in closed.reason and closed.rule.rule == "records"
    assert {e.text for e in closed.evidence} == {"hours.Monday: 12:0-20:0", "hours.Tuesday: 12:0-18:0",
                                                 "hours.Friday: 9:0-19:0", "hours.Saturday: 17:0-0:0"}


def test_a_claims_verdict_does_not_depend_on_the_other_sentences_of_its_answer():
    """The int8 encoder quantizes activations per tensor, so scored in one batch a sentence's
    logits moved with its neighbours' (3.6 % of test-150's pairs changed top class); each pair is
    now scored alone, on as many single-threaded runs as asked for."""
    claim = "The library opens at 9 AM on weekdays and charges a small fee for membership."
    others = ["It holds about 40,000 books.", "Story hour is on Sunday evenings.",
              "The library was designed by a famous architect and has a rooftop garden with rare plants."]
    seen = set()
    for threads in (1, 2):
        verifier = Verifier(judge="trained", judge_kwargs={"threads": threads}, decomposition="sentence")
        for answer in (claim, f"{claim} {others[0]}", f"{others[1]} {claim} {others[2]}", " ".join([*others, claim])):
            report = verifier.verify(CONTEXT, answer)
            (mine,) = [c for c in report.claims if c.answer_span.text == claim]
            seen.add((mine.label, tuple(sorted(mine.probs.items())), mine.reason, tuple(e.sentence_id for e in mine.evidence)))
    assert len(seen) == 1, seen


def test_a_pair_scored_before_is_read_back_not_run_again():
    directory, manifest = encoder.load_manifest(check=False)
    tok = encoder.load_tokenizer(directory / encoder.TOKENIZER_FILE, manifest.max_length)
    scorer = encoder.PairScorer(directory / encoder.MODEL_FILE, tok, workers=2, memo=2)
    claims, premises = ["Membership is free.", "It opened in 1962."], ["Membership is free for residents.", CONTEXT]
    first, tokens, kept = scorer.logits(claims, premises)
    assert tokens > 0 and len(first) == 2 and kept == 0
    again, tokens_again, kept = scorer.logits(claims[::-1], premises[::-1])
    assert again == first[::-1] and tokens_again == 0 and kept == 2
    scorer.logits(["A third claim."], ["Another premise."])  # the memo holds two: the oldest pair goes
    _, tokens_after, kept = scorer.logits(claims, premises)
    assert 0 < tokens_after < tokens and kept == 1


def test_one_window_over_the_whole_context_gives_the_verdicts_of_windows_and_the_global_pass():
    # 45 sentences: three windows of the method's 25 with the trained verifier's window left
    # unset would be one; either way every claim ends judged against the whole context
    towns = ["Ashford", "Brookline", "Cedar Falls", "Dunmore", "Eastport", "Fairview", "Glenwood", "Hillcrest"]
    filler = [f"The {town} branch opened in {1950 + 3 * i} and lends {200 + 17 * i} bicycles a year."
              for i, town in enumerate(towns * 5)]
    context = CONTEXT + " " + " ".join(filler)
    answer = ("Membership is not free for residents of the county. The library is open from 9 AM to 6 PM on weekdays. "
              "The Glenwood branch opened in 1968. The library also runs a rooftop cafe that serves lunch.")
    whole = Verifier("trained").verify(context, answer)
    windowed = Verifier("trained", window_size=25, window_overlap=10).verify(context, answer)
    assert len(whole.windows) == 1 and len(windowed.windows) == 3
    assert all(c.global_checked for c in windowed.claims)

    def seen(report):
        return [(c.label, c.probs, [e.sentence_id for e in c.evidence], c.phrase_span, c.reason) for c in report.claims]

    assert seen(whole) == seen(windowed)
    assert {c.label for c in whole.claims} == {Label.ENT, Label.CON, Label.NIC}
    assert whole.cost.prompt_tokens < windowed.cost.prompt_tokens


def test_a_wrong_amount_or_a_role_swap_marks_the_clause_it_is_in():
    """A quantity contrast's reason quotes the claim's amount and the context's, a role swap's says
    "who did what to whom"; either way the phrase is the clause that holds the claim's words the
    contrast is about (the amount, the swapped verb), not the clause the encoder liked least."""
    verifier = Verifier(judge="trained", decomposition="sentence")
    context = "The Marlow ferry crossing is 8 kilometres long. The ferry runs every hour from the north pier."
    answer = "The ferry runs every hour from the north pier, and the Marlow ferry crossing is 8 miles long."
    claim = verifier.verify(context=context, answer=answer).claims[0]
    assert claim.label == Label.CON and claim.rule.kind == "quantity"
    assert answer[claim.phrase_span.start:claim.phrase_span.end] == "and the Marlow ferry crossing is 8 miles long"
    context = "Norcast acquired Vellum Media in 2019, after a long bidding contest with two rivals."
    answer = "After a long bidding contest with two rivals, Vellum Media acquired Norcast in 2019."
    claim = verifier.verify(context=context, answer=answer).claims[0]
    assert claim.label == Label.CON and claim.rule.kind == "roles"
    assert answer[claim.phrase_span.start:claim.phrase_span.end] == "Vellum Media acquired Norcast in 2019"
