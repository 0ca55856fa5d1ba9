"""Defect 6 of the outside run: an unpunctuated sentence of N words drawn from 23, against a context
of 2N, took 0.62, 2.33 and 9.11 CPU s at N = 1.5k, 3k and 6k. The contrast rule read both sides
again for every word of the claim (``roles``, ``state``). Counted, not timed, as in
test_linear_cost.py: the Python calls that reading a claim makes, at two sizes."""

from __future__ import annotations

import random
import sys

from rt4chart_plugins.rules.contrast import Contrasts

VOCAB = ["the", "trial", "lasts", "days", "users", "can", "extend", "it", "once", "verified", "new", "policy",
         "support", "email", "priority", "all", "only", "includes", "applies", "free", "plan", "team", "month"]


def _calls(words: int) -> int:
    rng = random.Random(0)
    context = " ".join(rng.choice(VOCAB) for _ in range(2 * words))
    claim = " ".join(rng.choice(VOCAB) for _ in range(words))
    contrasts = Contrasts([context])
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        contrasts.find(claim)
    finally:
        sys.setprofile(None)
    return count


def test_a_long_sentence_of_repeated_words_costs_its_length_not_its_square():
    small, large = _calls(1000), _calls(2000)
    assert large < 2.4 * small, (small, large)  # linear: 2; reading both sides per word: 4
