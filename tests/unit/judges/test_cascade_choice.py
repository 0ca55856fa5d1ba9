"""``judge="auto"``'s logic around the embedded LLM: which claims the gate sends, how a reading
replaces the trained verifier's verdict, and what happens when a reading fails. The reader here
is scripted (no model runs); the trained verifier, the gate and the combination are the shipped
ones. That the real reader reads meaning is shown by tests/integration/test_cascade.py and by the
benchmarks, not here."""

from __future__ import annotations

import math

import pytest

from rt4chart_plugins import Label, Verifier
from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.judges.cascade import CascadeJudge
from rt4chart_plugins.judges.llama.premise_read import PairReading

CONTEXT = (
    "Only employees with a badge may enter the lab after 6 PM. Visitors must sign in at the front desk. "
    "The lab is closed on public holidays."
)
ANSWER = "Visitors do not need to sign in. The lab is closed on public holidays."


class ScriptedReader:
    """Reads every pair as ``readings`` says (a callable of the claim), counting the reads."""

    name = "scripted-reader"

    def __init__(self, reading):
        self.reading = reading
        self.reads: list[str] = []

    def load(self):
        return None

    def read(self, claim, premise, cost=None, *, extra=False):
        self.reads.append(claim)
        value = self.reading(claim)
        if isinstance(value, Exception):
            raise value
        return PairReading(*value)


def _auto(reading, tmp_path, **options) -> tuple[Verifier, ScriptedReader]:
    options.setdefault("max_reads", None)  # these tests read both sentences unless they cap it
    judge = CascadeJudge(cache=tmp_path / "cache.sqlite", **options)
    judge.reader = ScriptedReader(reading)
    return Verifier(judge, decomposition="clauses"), judge.reader


def test_with_no_budget_auto_is_the_trained_verifier_and_reads_nothing(tmp_path):
    alone = Verifier("trained").verify(CONTEXT, ANSWER)
    auto, reader = _auto(lambda c: (0.0, 0.0), tmp_path, budget=0.0)
    report = auto.verify(CONTEXT, ANSWER)
    assert [(c.label, c.probs) for c in report.claims] == [(c.label, c.probs) for c in alone.claims]
    assert reader.reads == []
    assert all(c.signals.reader is not None and not c.signals.reader.read for c in report.claims)


def test_the_gate_sends_the_likeliest_errors_first_within_the_budget(tmp_path):
    auto, reader = _auto(lambda c: (0.5, 0.5), tmp_path, gate_threshold=0.0, budget=0.5)
    report = auto.verify(CONTEXT, ANSWER)
    gates = {c.text: c.signals.reader.gate for c in report.claims}
    assert len(reader.reads) == 1  # half of two sentences
    assert reader.reads[0] == max(gates, key=gates.get)


def test_max_reads_caps_the_reads_of_an_answer_to_the_likeliest_errors(tmp_path):
    auto, reader = _auto(lambda c: (0.5, 0.5), tmp_path, gate_threshold=0.0, max_reads=1)
    report = auto.verify(CONTEXT, ANSWER)
    gates = {c.text: c.signals.reader.gate for c in report.claims}
    assert reader.reads == [max(gates, key=gates.get)]
    assert [c.signals.reader.read for c in report.claims].count(True) == 1


def test_by_default_auto_reads_one_sentence_of_an_answer(tmp_path):
    judge = CascadeJudge(cache=tmp_path / "cache.sqlite", gate_threshold=0.0)
    judge.reader = ScriptedReader(lambda c: (0.5, 0.5))
    Verifier(judge, decomposition="clauses").verify(CONTEXT, ANSWER)
    assert len(judge.reader.reads) == 1 and "max_reads=1" in judge.name


def test_max_reads_zero_is_the_trained_verifier(tmp_path):
    alone = Verifier("trained").verify(CONTEXT, ANSWER)
    auto, reader = _auto(lambda c: (0.0, 0.0), tmp_path, gate_threshold=0.0, max_reads=0)
    report = auto.verify(CONTEXT, ANSWER)
    assert reader.reads == [] and [c.label for c in report.claims] == [c.label for c in alone.claims]


def test_a_reading_can_flag_a_passed_claim_and_clear_a_flagged_one(tmp_path):
    def reading(claim):  # the LLM says the negated claim is unsupported, and the true one supported
        return (0.02, 0.03) if "do not" in claim else (0.98, 0.98)

    alone = Verifier("trained").verify(CONTEXT, ANSWER)
    auto, _ = _auto(reading, tmp_path, gate_threshold=0.0)
    report = auto.verify(CONTEXT, ANSWER)
    negated, true = report.claims
    assert negated.label != Label.ENT and negated.signals.reader.read
    assert negated.signals.reader.trained_label == alone.claims[0].label
    assert true.label == Label.ENT and true.evidence
    for claim in report.claims:
        assert math.isclose(sum(claim.probs.values()), 1.0)
        if claim.signals.reader.trained_label != claim.label:
            assert f"the trained verifier alone: {claim.signals.reader.trained_label.value}" in claim.reason


@pytest.mark.parametrize("failure", [JudgeError("prompt of 2000 tokens exceeds the judge's context"), (math.nan, 0.5)])
def test_a_reading_that_fails_keeps_the_trained_verdict_marked_and_is_not_cached(tmp_path, failure):
    alone = Verifier("trained").verify(CONTEXT, ANSWER)
    auto, reader = _auto(lambda c: failure, tmp_path, gate_threshold=0.0)
    report = auto.verify(CONTEXT, ANSWER)
    assert report.state == "verified"
    assert [c.label for c in report.claims] == [c.label for c in alone.claims]
    for claim in report.claims:
        assert claim.signals.reader.error and not claim.signals.reader.read
        assert "could not read it" in claim.reason
    # nothing was cached: a working reader is asked again, and then its readings are cached
    again, reader2 = _auto(lambda c: (0.98, 0.98), tmp_path, gate_threshold=0.0)
    again.verify(CONTEXT, ANSWER)
    assert len(reader2.reads) == 2
    third, reader3 = _auto(lambda c: JudgeError("never asked"), tmp_path, gate_threshold=0.0)
    cached = third.verify(CONTEXT, ANSWER)
    assert reader3.reads == [] and cached.cost.cache_hits >= 2
    assert all(c.signals.reader.read for c in cached.claims)


def test_a_flagged_sentence_keeps_the_clauses_that_hold_alone(tmp_path):
    answer = "Visitors must sign in at the front desk, and they get a guest badge."
    alone = Verifier("trained").verify(CONTEXT, answer)
    assert len(alone.claims) == 2 and all(c.label == Label.ENT for c in alone.claims)
    auto, _ = _auto(lambda c: (0.02, 0.6), tmp_path, gate_threshold=0.0)
    first, second = auto.verify(CONTEXT, answer).claims
    assert first.label == Label.ENT and "holds alone" in first.reason
    assert second.label != Label.ENT and second.signals.reader.read


def _recorded(auto: Verifier, judge: CascadeJudge) -> list:
    """What the cascade says of each claim, before the pipeline's evidence stage settles it."""
    said: list = []
    verify = judge.verify

    async def recording(request, *, cost):
        result = await verify(request, cost=cost)
        said.extend(j.model_copy(deep=True) for j in result.judgements)
        return result

    judge.verify = recording  # type: ignore[method-assign]
    return said


def test_the_cascade_hands_its_evidence_to_the_evidence_stage(tmp_path):
    """The cascade cites, the pipeline settles: a claim the reading makes NIC is handed on with
    the verifier's citation, and the report shows it with none (no correction: a NIC carries no
    evidence); a claim the reading clears cites the premise's best-matching sentence."""
    flagged = "Visitors must sign in at the front desk, and the lab has a rooftop garden."
    auto, _ = _auto(lambda c: (0.02, 0.98), tmp_path, gate_threshold=0.0)
    said = _recorded(auto, auto.judge)
    report = auto.verify(CONTEXT, flagged)
    # the claim the verifier passed (and cited for) and the reading made NIC
    k = next(i for i, c in enumerate(report.claims)
             if c.label == Label.NIC and c.signals.reader.trained_label == Label.ENT)
    assert said[k].label == Label.NIC and said[k].evidence  # handed on as the verifier cited it
    assert report.claims[k].evidence == [] and report.corrections == []  # settled by the evidence stage

    (tmp_path / "cleared").mkdir()
    cleared, _ = _auto(lambda c: (0.98, 0.98), tmp_path / "cleared", gate_threshold=0.0)
    said = _recorded(cleared, cleared.judge)
    claim = cleared.verify(CONTEXT, "The lab has a rooftop garden.").claims[0]
    assert claim.signals.reader.trained_label == Label.NIC and claim.label == Label.ENT
    assert [e.sentence_id for e in claim.evidence] == said[0].evidence == [0]


@pytest.mark.parametrize("options", [{"budget": 1.5}, {"budget": -0.1}, {"gate_threshold": 2.0}])
def test_options_outside_zero_to_one_are_refused(options):
    with pytest.raises(InvalidInput, match="must lie in"):
        CascadeJudge(**options)


def test_a_negative_max_reads_is_refused():
    with pytest.raises(InvalidInput, match="max_reads"):
        Verifier("auto", judge_kwargs={"max_reads": -1})


def test_unknown_options_are_refused_with_the_nearest():
    with pytest.raises(InvalidInput, match="band"):
        Verifier("auto", judge_kwargs={"band": 0.2})


def test_auto_without_the_local_extra_says_so_in_one_line(monkeypatch, tmp_path):
    import sys

    from rt4chart_plugins.errors import MissingExtra
    from rt4chart_plugins.llama_runtime import build as runtime_build

    monkeypatch.setattr(runtime_build, "_CHECKED", [])
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # not installed
    with pytest.raises(MissingExtra, match=r"rt4chart-plugins\[local\]") as caught:  # when built, not at a row
        Verifier("auto", judge_kwargs={"gate_threshold": 0.0, "cache": False})
    assert "\n" not in str(caught.value)
    assert Verifier("trained").verify(CONTEXT, ANSWER).state == "verified"  # the default never needs it
