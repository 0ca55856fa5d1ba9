from rt4chart_plugins.pipeline.evidence import anchor_phrase, check_evidence, match_quote
from rt4chart_plugins.types import Judgement, Label, Sentence, Span

CONTEXT = [Sentence(id=i, text=t, start=0, end=len(t), passage=p) for i, (t, p) in enumerate(
    [("The trial lasts 14 days.", 0), ("Only verified users qualify.", 0), ("Reports: 5 per month.", 1)])]


def test_ids_out_of_range_and_outside_window_are_removed_and_counted():
    j = Judgement(claim_id=3, label=Label.ENT, evidence=[0, 2, 7])
    ids, corrections = check_evidence(j, {0, 1}, CONTEXT)
    assert ids == [0]
    kinds = sorted(c.kind for c in corrections)
    assert kinds == ["evidence_out_of_range", "evidence_outside_window"]
    assert all(c.claim_id == 3 for c in corrections)


def test_nic_claims_carry_no_evidence():
    j = Judgement(claim_id=0, label=Label.NIC, evidence=[1])
    ids, corrections = check_evidence(j, {0, 1, 2}, CONTEXT)
    assert ids == []
    assert [c.kind for c in corrections] == ["evidence_on_nic_removed"]


def test_missing_evidence_on_con_is_counted_not_invented():
    ids, corrections = check_evidence(Judgement(claim_id=0, label=Label.CON), {0, 1, 2}, CONTEXT)
    assert ids == []
    assert [c.kind for c in corrections] == ["evidence_missing"]


def test_quotes_match_one_sentence_never_across_passages():
    assert match_quote("only VERIFIED users", CONTEXT) == 1
    # words that straddle the end of passage 0 and the start of passage 1 match nothing
    assert match_quote("users qualify. Reports: 5", CONTEXT) is None
    j = Judgement(claim_id=1, label=Label.CON, quote="Only verified users qualify")
    ids, corrections = check_evidence(j, {0, 1, 2}, CONTEXT)
    assert ids == [1]
    assert [c.kind for c in corrections] == ["quote_matched"]


def test_phrase_is_anchored_inside_its_sentence():
    sentence = Span(start=100, end=140, text="The trial applies to all users, free.")
    span = anchor_phrase('"all users"', sentence)
    assert span == Span(start=100 + 21, end=100 + 30, text="all users")
    assert anchor_phrase("not there", sentence) is None
    assert anchor_phrase(sentence.text, sentence) is None  # no finer than the sentence
