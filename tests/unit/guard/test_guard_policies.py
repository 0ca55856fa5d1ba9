"""The guard's policies on real verifications: the shipped default judge on examples/policy/
(2 contradicted clauses, 1 baseless sentence), and a scripted judge for the failure paths."""

from __future__ import annotations

import asyncio

import pytest

from policy_example import POLICY_ANSWER, POLICY_CONTEXT
from rt4chart_plugins import InvalidInput, JudgeError, Label, Verifier
from rt4chart_plugins.guard import GuardedAnswer, guard_report
from scripted_judge import ScriptedJudge

KEPT = "The free trial lasts 14 days, and verified new users can extend it once by 7 days."


@pytest.fixture(scope="module")
def trained():
    return Verifier()


@pytest.fixture(scope="module")
def report(trained):
    return trained.verify(" ".join(POLICY_CONTEXT), POLICY_ANSWER)


def test_drop_keeps_the_supported_clauses_only(trained):
    g = trained.guard(" ".join(POLICY_CONTEXT), POLICY_ANSWER)
    assert isinstance(g, GuardedAnswer) and g.status == "guarded" and g.policy == "drop"
    assert g.text == KEPT
    assert [(r.claim_id, r.label) for r in g.removed] == [(0, Label.CON), (1, Label.CON), (4, Label.NIC)]
    assert g.removed[0].span.text == "The trial policy applies to all users"
    assert "Only new users" in g.removed[0].reason
    assert g.report.label == Label.CON and g.changed


def test_cite_maps_markers_to_sentences_or_passages(trained):
    g = trained.guard(" ".join(POLICY_CONTEXT), POLICY_ANSWER, cite=True)
    assert g.text == "The free trial lasts 14 days [1], and verified new users can extend it once by 7 days [2][3]."
    assert [s.sentence_id for s in g.sources] == [4, 1, 3]
    assert g.sources[0].text == "The free trial lasts 14 days."
    assert [c.claim_ids for c in g.citations] == [[2], [3]]
    g = trained.guard(POLICY_CONTEXT, POLICY_ANSWER, cite=True)  # a list of passages: markers are passages
    assert [(s.marker, s.passage, s.sentence_id) for s in g.sources] == [(1, 4, None), (2, 1, None), (3, 3, None)]
    assert g.sources[1].text == POLICY_CONTEXT[1]


def test_flag_marks_and_quotes_and_removes_nothing(trained):
    g = trained.guard(POLICY_CONTEXT, POLICY_ANSWER, policy="flag")
    assert g.removed == [] and [f.claim_id for f in g.flagged] == [0, 1, 4]
    assert g.text.startswith(
        "The trial policy applies to all users [contradicted], and no verification is needed [contradicted]. "
        "The free trial lasts 14 days, and verified new users can extend it once by 7 days. "
        "The trial also includes priority email support [unsupported]."
    )
    assert g.text.endswith("\n\n[contradicted] The context says: “" + POLICY_CONTEXT[1] + "”")
    plain = trained.guard(POLICY_CONTEXT, POLICY_ANSWER, policy="flag", quote=False)
    assert "The context says" not in plain.text


def test_refuse_on_a_contradiction_or_a_low_supported_share(trained):
    g = trained.guard(POLICY_CONTEXT, POLICY_ANSWER, policy="refuse", message="Ask support.")
    assert g.text == "Ask support." and g.status == "refused" and "contradicted" in g.notes[0]
    ok = trained.guard(POLICY_CONTEXT, KEPT, policy="refuse")
    assert ok.status == "guarded" and ok.text == KEPT


def test_refuse_threshold_on_baseless_claims(report):
    nic_only = report.model_copy(deep=True)
    for c in nic_only.claims:
        if c.label == Label.CON:
            c.label = Label.ENT
    assert guard_report(nic_only, policy="refuse", min_support=0.9).status == "refused"  # 4 of 5 supported
    assert guard_report(nic_only, policy="refuse", min_support=0.8).text == POLICY_ANSWER


def test_a_fully_unsupported_answer_is_refused_not_emptied(trained):
    g = trained.guard(POLICY_CONTEXT, "The trial also includes priority email support.")
    assert g.status == "refused" and g.text == "I can't answer that from the sources I was given."
    assert g.removed[0].label == Label.NIC


def test_nothing_to_verify_passes_as_it_came(trained):
    g = trained.guard(POLICY_CONTEXT, "I don't know.")
    assert g.report.state == "no_claims" and g.text == "I don't know." and g.status == "guarded"


def _failing():
    return Verifier(ScriptedJudge(fail_claims={"trial", "users"}), decomposition="sentence")


def test_an_answer_that_cannot_be_verified_is_never_passed_silently():
    g = _failing().guard(POLICY_CONTEXT, POLICY_ANSWER)
    assert g.text is None and g.status == "failed" and g.report.state == "failed"
    passed = _failing().guard(POLICY_CONTEXT, POLICY_ANSWER, on_error="pass")
    assert passed.status == "unverified" and passed.text == POLICY_ANSWER + " [unverified]"
    with pytest.raises(JudgeError) as info:
        _failing().guard(POLICY_CONTEXT, POLICY_ANSWER, on_error="raise")
    assert info.value.report.state == "failed"


def test_bad_input_is_a_failed_guard_or_its_own_error():
    g = Verifier().guard(POLICY_CONTEXT, 42)  # type: ignore[arg-type]
    assert g.text is None and "InvalidInput" in g.report.error
    with pytest.raises(InvalidInput):
        Verifier().guard(POLICY_CONTEXT, 42, on_error="raise")  # type: ignore[arg-type]


def test_an_unjudged_claim_counts_as_unsupported():
    v = Verifier(ScriptedJudge({"14 days": ("14 days", None)}, fail_claims={"email"}), decomposition="sentence")
    g = v.guard(POLICY_CONTEXT, "The free trial lasts 14 days. It includes email support.")
    assert g.report.state == "partial"
    assert g.text == "The free trial lasts 14 days." and g.removed[0].label is None
    flagged = v.guard(POLICY_CONTEXT, "The free trial lasts 14 days. It includes email support.", policy="flag")
    assert flagged.text == "The free trial lasts 14 days. It includes email support [unverified]."


@pytest.mark.parametrize(
    "options, word",
    [({"policy": "dorp"}, "policy"), ({"on_error": "ignore"}, "on_error"), ({"min_support": 2}, "min_support"),
     ({"message": " "}, "message"), ({"polcy": "drop"}, "polcy")],
)
def test_unknown_or_bad_options_are_refused(trained, options, word):
    with pytest.raises((InvalidInput, TypeError), match=word):
        trained.guard(POLICY_CONTEXT, POLICY_ANSWER, **options)


def test_aguard_is_the_same_guard(trained):
    g = asyncio.run(trained.aguard(" ".join(POLICY_CONTEXT), POLICY_ANSWER))
    assert g.text == KEPT


def test_a_kept_clause_that_lost_its_joiner_is_still_kept_and_cited(report):
    first_gone = report.model_copy(deep=True)
    for c in first_gone.claims:
        c.label = Label.ENT if c.id in (1, 3) else Label.NIC
        c.evidence = c.evidence if c.label == Label.ENT else []
    g = guard_report(first_gone, cite_sources=True)
    assert g.text == "No verification is needed [1]. Verified new users can extend it once by 7 days [1][2]."
    assert [r.claim_id for r in g.removed] == [0, 2, 4]
    assert [c.claim_ids for c in g.citations] == [[1], [3]]


_LABELS = [Label.ENT, Label.CON, Label.NIC, None]


@pytest.mark.parametrize("seed", range(4))
def test_any_verdicts_give_a_subsequence_of_the_answer_plus_markers(report, seed):
    """Every labelling of the policy answer's five claims, under every policy: the text is the
    answer's own characters in order (a capital aside), markers, or the refusal message."""
    import itertools
    import re

    for labels in itertools.islice(itertools.product(_LABELS, repeat=5), seed * 256, (seed + 1) * 256):
        changed = report.model_copy(deep=True)
        for claim, label in zip(changed.claims, labels):
            claim.label = label
        for policy in ("drop", "flag", "refuse"):
            g = guard_report(changed, policy=policy, cite_sources=True, quote=False)
            if g.status == "refused":
                assert g.text == "I can't answer that from the sources I was given."
                continue
            bare = re.sub(r" (?:\[\d+\])+| \[(?:contradicted|unsupported|unverified)\]", "", g.text)
            it = iter(POLICY_ANSWER.lower())
            assert all(ch in it for ch in bare.lower()), (labels, policy, g.text)
            assert "  " not in bare and not bare.startswith(" ") and " ." not in bare and " ," not in bare


def test_drop_keeps_the_abstention_when_only_the_assertion_after_it_goes():
    """An answer that abstains and then invents: the invented part goes, the abstention (true, and
    all the reader needs) stays, instead of the whole answer turning into the refusal message."""
    answer = "The policy does not mention pricing, but the trial costs 500 dollars."
    g = Verifier(ScriptedJudge()).guard(" ".join(POLICY_CONTEXT), answer)  # no rule: every claim NIC
    assert [(c.answer_span.text, c.label) for c in g.report.claims] == [("the trial costs 500 dollars", Label.NIC)]
    assert g.status == "guarded" and g.text == "The policy does not mention pricing."
    assert [r.label for r in g.removed] == [Label.NIC]
    assert any("abstention" in n for n in g.notes)


def test_drop_takes_a_lead_in_out_with_what_it_introduced(trained):
    """"Based on the given passages," is no claim; left behind alone it would say nothing."""
    answer = "Based on the given passages, the free trial lasts 30 days. The policy states that the free trial lasts 14 days."
    g = trained.guard(" ".join(POLICY_CONTEXT), answer)
    assert [(u.reason, u.span.text) for u in g.report.unclaimed] == [
        ("preamble", "Based on the given passages"),
        ("preamble", "The policy states that"),
    ]
    assert g.text == "The policy states that the free trial lasts 14 days."
    assert [r.label for r in g.removed] == [Label.CON]
