"""The reading the trained judge and the hf judge share: what differs between them is handed in.

``HFJudge`` used to subclass the trained judge and override its private methods; both now hold a
:class:`~rt4chart_plugins.judges.trained.reading.Reading` over their loaded encoder, with their own
``read`` (where a pair's probabilities come from), threshold and ``explain``.
"""

from __future__ import annotations

import asyncio

from rt4chart_plugins.judges.base import VerifyRequest
from rt4chart_plugins.judges.trained import TrainedJudge
from rt4chart_plugins.judges.trained.judge import decision_read
from rt4chart_plugins.judges.trained.reading import Reading
from rt4chart_plugins.types import Claim, Cost, Label, Sentence, Signals

CONTEXT = ["The free trial lasts 14 days.", "It includes email support."]
CLAIMS = ["The free trial lasts 30 days.", "It includes email support."]


def _request() -> VerifyRequest:
    sentences = [Sentence(id=i, text=t, start=0, end=len(t)) for i, t in enumerate(CONTEXT)]
    claims = [Claim(id=i, text=t, sentence_id=i, sentence=t) for i, t in enumerate(CLAIMS)]
    return VerifyRequest(mode="local", sentences=sentences, claims=claims)


def test_the_trained_judge_reads_through_its_artifacts_decision():
    judge = TrainedJudge()
    reading = judge.reading()
    assert reading.read is decision_read and reading.threshold == judge.threshold and reading.explain is None
    out = reading.verify(_request(), Cost())
    assert out.judgements[1].label == Label.ENT
    assert asyncio.run(judge.verify(_request(), cost=Cost())) == out  # what the judge says is its reading's


def test_what_a_judge_hands_in_decides_the_labels_and_the_reason():
    loaded = TrainedJudge()._load()
    loaded.scorer.forget()  # pairs scored by another test are read back, not scored
    seen = []

    def always_supported(loaded, text, premise, premises, logits):
        seen.append((text, premise.text))
        return (0.9, 0.05, 0.05), Signals(encoder={Label.ENT: 0.9}, coverage=1.0)

    def explain(judgement):
        judgement.reason = f"explained {judgement.claim_id}"

    cost = Cost()
    out = Reading(loaded, 0.5, always_supported, explain).verify(_request(), cost)
    assert [j.label for j in out.judgements] == [Label.ENT, Label.ENT]
    assert [j.reason for j in out.judgements] == ["explained 0", "explained 1"]
    assert [t for t, _ in seen] == CLAIMS and all(p for _, p in seen)  # each claim read against a premise
    assert cost.judge_calls == 1  # the two pairs in one encoder call
    strict = Reading(loaded, 0.95, always_supported).verify(_request(), Cost())  # the threshold is the judge's
    assert all(j.label != Label.ENT for j in strict.judgements)


def _doubted_request(after_abstention: bool) -> VerifyRequest:
    sentences = [Sentence(id=i, text=t, start=0, end=len(t)) for i, t in enumerate(CONTEXT)]
    claims = [Claim(id=0, text="It includes email support.", sentence_id=0, after_abstention=after_abstention)]
    return VerifyRequest(mode="local", sentences=sentences, claims=claims)


def test_what_follows_the_answers_own_abstention_needs_more_than_the_threshold():
    """"The page doesn't say, but …": the answerer says the context did not give it this, so its
    support must reach DOUBT_FLOOR, not only the threshold; the reason says why it was flagged."""
    from rt4chart_plugins.judges.trained.reading import DOUBT_FLOOR

    loaded = TrainedJudge()._load()

    def middling(loaded, text, premise, premises, logits):
        return (0.3, 0.1, 0.6), Signals(encoder={Label.ENT: 0.3}, coverage=0.5)

    plain = Reading(loaded, 0.15, middling).verify(_doubted_request(False), Cost()).judgements[0]
    doubted = Reading(loaded, 0.15, middling).verify(_doubted_request(True), Cost()).judgements[0]
    assert 0.15 <= 0.3 < DOUBT_FLOOR
    assert plain.label == Label.ENT and plain.reason is None
    assert doubted.label == Label.NIC and "abstention" in doubted.reason and "0.30" in doubted.reason

    def confident(loaded, text, premise, premises, logits):
        return (0.8, 0.1, 0.1), Signals(encoder={Label.ENT: 0.8}, coverage=1.0)

    assert Reading(loaded, 0.15, confident).verify(_doubted_request(True), Cost()).judgements[0].label == Label.ENT


def test_a_clause_read_alone_that_only_the_floor_flags_says_why():
    """A clause of a supported sentence that adds words is read again on its own; after the
    answer's own abstention it must reach DOUBT_FLOOR there too, and its reason says so, as the
    sentence's does."""
    from rt4chart_plugins.judges.trained.reading import CLAUSE_MARGIN, DOUBT_FLOOR

    loaded = TrainedJudge()._load()
    sentence = "The free trial lasts 14 days and includes a personal onboarding call."
    clauses = ["The free trial lasts 14 days", "and includes a personal onboarding call."]

    def sentence_holds(loaded, text, premise, premises, logits):
        p = 0.9 if text == sentence or text == clauses[0] else 0.4  # the added clause, read alone
        return (p, 0.1, 0.9 - p), Signals(encoder={Label.ENT: p}, coverage=0.5)

    def request(after_abstention: bool) -> VerifyRequest:
        sentences = [Sentence(id=i, text=t, start=0, end=len(t)) for i, t in enumerate(CONTEXT)]
        claims = [
            Claim(id=i, text=t, sentence_id=0, sentence=sentence, after_abstention=after_abstention)
            for i, t in enumerate(clauses)
        ]
        return VerifyRequest(mode="local", sentences=sentences, claims=claims)

    assert 0.15 + CLAUSE_MARGIN <= 0.4 < DOUBT_FLOOR
    plain = Reading(loaded, 0.15, sentence_holds).verify(request(False), Cost()).judgements
    doubted = Reading(loaded, 0.15, sentence_holds).verify(request(True), Cost()).judgements
    assert [j.label for j in plain] == [Label.ENT, Label.ENT]
    assert doubted[0].label == Label.ENT and doubted[1].label == Label.NIC
    assert "abstention" in doubted[1].reason and "0.40" in doubted[1].reason


def test_a_clause_that_adds_words_is_read_alone_against_prose_but_not_against_json_fields():
    """An answer about a record puts its field names into words of its own, so a faithful clause
    adds words as often as an invented one: against a window of JSON fields a supported sentence's
    clauses keep its verdict, where against prose the clause that adds words answers for itself."""
    loaded = TrainedJudge()._load()
    sentence = "The Golden Wok serves Chinese food and has a cosy dining room."
    clauses = ["The Golden Wok serves Chinese food", "and has a cosy dining room."]
    read_alone = []

    def sentence_holds(loaded, text, premise, premises, logits):
        p = 0.2 if "cosy" in text and text != sentence else 0.9  # the added clause, read alone
        if p == 0.2:
            read_alone.append(text)
        return (p, 0.1, 0.9 - p), Signals(encoder={Label.ENT: p}, coverage=0.5)

    def request(fields: list[str | None]) -> VerifyRequest:
        texts = ["name: The Golden Wok", "categories: Chinese, Restaurants"]
        sentences = [
            Sentence(id=i, text=t, start=0, end=len(t), field=f) for i, (t, f) in enumerate(zip(texts, fields))
        ]
        claims = [Claim(id=i, text=t, sentence_id=0, sentence=sentence) for i, t in enumerate(clauses)]
        return VerifyRequest(mode="local", sentences=sentences, claims=claims)

    prose = Reading(loaded, 0.15, sentence_holds).verify(request([None, None]), Cost()).judgements
    assert [j.label for j in prose] == [Label.ENT, Label.NIC] and len(read_alone) == 1
    fields = Reading(loaded, 0.15, sentence_holds).verify(request(["name", "categories"]), Cost()).judgements
    assert [j.label for j in fields] == [Label.ENT, Label.ENT] and len(read_alone) == 1


def test_a_sentence_that_adds_words_to_a_short_context_is_held_to_the_clause_bar():
    """A one-claim sentence whose added words weigh ADDED_WEIGHT is held to the clause bar where
    the context is prose that fits in one premise; in a longer context, or against JSON fields,
    it keeps the threshold. A sentence that adds nothing keeps the threshold everywhere."""
    from rt4chart_plugins.judges.trained.reading import CLAUSE_MARGIN

    loaded = TrainedJudge()._load()
    adds, restates = "The free trial includes a personal onboarding call.", "The free trial lasts 14 days."

    def middling(loaded, text, premise, premises, logits):
        return (0.25, 0.1, 0.65), Signals(encoder={Label.ENT: 0.25}, coverage=0.5)

    def labels(context: list[str], fields: list[str | None] | None = None) -> list[Label]:
        fields = fields or [None] * len(context)
        sentences = [Sentence(id=i, text=t, start=0, end=len(t), field=f) for i, (t, f) in enumerate(zip(context, fields))]
        claims = [Claim(id=i, text=t, sentence_id=i, sentence=t) for i, t in enumerate([adds, restates])]
        out = Reading(loaded, 0.15, middling).verify(VerifyRequest(mode="local", sentences=sentences, claims=claims), Cost())
        return [j.label for j in out.judgements]

    assert 0.15 <= 0.25 < 0.15 + CLAUSE_MARGIN
    assert labels(CONTEXT) == [Label.NIC, Label.ENT]
    long = CONTEXT + [f"Plan {n} of the trial is described on page {n} of the handbook." for n in range(12)]
    assert labels(long) == [Label.ENT, Label.ENT]
    assert labels(CONTEXT, ["trial", "support"]) == [Label.ENT, Label.ENT]
