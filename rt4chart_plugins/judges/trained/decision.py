"""How the trained judge turns what it measured about a claim into ENT, CON or NIC.

A multinomial logistic regression over the encoder's three logits, the share of the claim's words
that the premise contains, and whether the claim names a number or a name the premise lacks,
fitted on held-out training rows (``rt4chart train-verifier``). Unlike a hand-weighted sum, it
lets a confident contradiction outweigh full word coverage: a sentence whose words are all in the
context but which says the opposite is CON when the encoder says so. The label is read off the
same three probabilities that the reason reports: ENT when P(ENT) reaches the threshold, else
the larger of P(CON) and P(NIC).

An artifact without a fitted decision (``Manifest.decision`` is None) keeps the earlier support
formula (:func:`legacy_probs`), so an older artifact scores exactly as it did.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, Field

#: the inputs of the decision, in the order of each weight row
FEATURES = ("logit_ent", "logit_con", "logit_nic", "coverage", "fact_missing")


class Decision(BaseModel):
    """The fitted logistic regression: ``softmax(weights @ standardized(x) + bias)`` over
    (ENT, CON, NIC)."""

    features: tuple[str, ...] = FEATURES
    mean: list[float] = Field(description="per-feature mean on the fitting rows")
    scale: list[float] = Field(description="per-feature standard deviation on the fitting rows")
    weights: list[list[float]] = Field(description="3 rows (ENT, CON, NIC) of one weight per feature")
    bias: list[float]
    fitted_on: str = ""


def feature_vector(logits: Sequence[float], coverage: float, fact_missing: bool) -> list[float]:
    return [float(logits[0]), float(logits[1]), float(logits[2]), float(coverage), 1.0 if fact_missing else 0.0]


def decide(decision: Decision, x: Sequence[float]) -> tuple[float, float, float]:
    """(P(ENT), P(CON), P(NIC)) for one feature vector."""
    z = [(v - m) / s for v, m, s in zip(x, decision.mean, decision.scale)]
    scores = [sum(w * v for w, v in zip(row, z)) + b for row, b in zip(decision.weights, decision.bias)]
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return e[0] / total, e[1] / total, e[2] / total


def legacy_probs(
    enc: Sequence[float], coverage: float, fact_missing: bool, combine: dict[str, float]
) -> tuple[float, float, float]:
    """The earlier rule: support = (P(ENT) + a·coverage + b·[no new number or name]) / (1 + a + b),
    the rest split into CON and NIC by the mean of the encoder's CON share and the coverage."""
    a, b = combine.get("coverage", 0.0), combine.get("fact", 0.0)
    p_ent = (enc[0] + a * coverage + b * (0.0 if fact_missing else 1.0)) / (1.0 + a + b)
    share = conflict_share(enc[1], enc[2], coverage)
    return p_ent, (1 - p_ent) * share, (1 - p_ent) * (1 - share)


def conflict_share(p_con: float, p_nic: float, coverage: float) -> float:
    """The earlier rule's share of a claim's unsupported mass that is contradiction (CON) rather
    than absence (NIC): the mean of the encoder's own CON share and the premise's coverage of the
    claim's words (a claim whose words the premise mostly has is about something the context
    states, differently)."""
    share = p_con / (p_con + p_nic) if p_con + p_nic > 0 else 0.5
    return (share + coverage) / 2
