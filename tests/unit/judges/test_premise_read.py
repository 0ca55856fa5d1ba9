"""The cheap read's pure parts: how its readings make label probabilities, how its prompt is laid
out for the KV cache, and that its premise is the trained judge's."""

import math

import numpy as np
import pytest

from rt4chart_plugins.judges.llama import premise_read as pr
from rt4chart_plugins.judges.trained.encoder import TOKENIZER_FILE, load_manifest, token_counter
from rt4chart_plugins.judges.trained.premise import Premises


@pytest.mark.parametrize("sup,comp", [(0.0, 0.0), (1.0, 0.3), (0.4, 0.9), (0.25, 0.1)])
def test_label_probs_sum_to_one_and_follow_the_two_questions(sup, comp):
    ent, con, nic = pr.label_probs(sup, comp)
    assert math.isclose(ent + con + nic, 1.0)
    assert ent == sup
    assert (con > nic) == (comp < 0.5) or sup == 1.0


def test_reading_probs_match_the_full_judges_split():
    assert pr.PairReading(p_support=0.2, p_compatible=0.25).probs() == pytest.approx((0.2, 0.6, 0.2))


def test_letter_probs_renormalise_over_the_three_letters():
    logits = np.array([0.0, 2.0, 1.0, 0.0, 5.0])
    a, b, c = pr.letter_probs(logits, [[1], [2], [3]])
    assert a + b + c == pytest.approx(1.0) and a > b > c
    assert pr.letter_probs(np.full(5, -np.inf), [[1], [2], [3]]) == pytest.approx((1 / 3,) * 3)


def test_the_questions_share_the_premise_and_claim_as_a_prefix():
    asks = [pr.ASK_SUPPORT, pr.ASK_COMPATIBLE, pr.ASK_CONFLICT, pr.ASK_THREE]
    users = [pr.pair_user("The shop opens at 9.", "It opens at 10.", q) for q in asks]
    head = "Passage:\nThe shop opens at 9.\n\nStatement: It opens at 10.\n\n"
    assert all(u.startswith(head) and u.endswith(q) for u, q in zip(users, asks))


def test_overlong_text_is_cut_not_refused():
    user = pr.pair_user("x" * 10_000, "y" * 5_000, pr.ASK_SUPPORT)
    assert len(user) < pr.MAX_PREMISE_CHARS + pr.MAX_CLAIM_CHARS + 200


def test_premise_is_the_one_the_trained_judge_picks():
    sentences = [
        "The library opens at 9 am on weekdays.",
        "It was built in 1902 by the town council.",
        "Parking is free for the first two hours.",
        "The reading room closes at 5 pm.",
    ] * 6
    directory, manifest = load_manifest(check=False)
    count = token_counter(directory / TOKENIZER_FILE)
    claim = "The reading room closes at 5 pm."
    expected = Premises(sentences, count(sentences), manifest.premise_budget, question=manifest.question).pick(claim)
    assert pr.premise_for(sentences, claim) == expected.text
    assert "reading room closes" in pr.premise_for(sentences, claim)
    assert pr.premise_for([], claim) == ""
