"""How the trained judge turns what it measured about a claim into ENT, CON or NIC.

Two logistic regressions, both fitted on training rows the encoder never saw
(``rt4chart train-verifier``), both stored in the artifact's manifest:

- **support**, P(ENT): over the encoder's P(ENT), the share of the claim's words that the premise
  contains, whether the claim names a number or a name the premise lacks, and the content words it
  adds to the whole context (how many, and their share of its words). It is fitted on
  supported against unsupported sentences, unweighted, so P(ENT) keeps the odds it was fitted at
  and the threshold means what the fit says.
- **conflict**, the share of the rest that is contradiction: over the encoder's CON-minus-NIC logit
  and the coverage (a claim whose words the premise mostly has is about something the context
  states, differently). Fitted on contradicted against baseless sentences, class-balanced,
  because baseless ones outnumber contradicted ones several to one.

P(CON) = (1 − P(ENT)) · conflict and P(NIC) = (1 − P(ENT)) · (1 − conflict). The label is read
off the same three probabilities that the reason reports: ENT when P(ENT) reaches the threshold,
else the larger of P(CON) and P(NIC). Nothing on this path is weighted by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rt4chart_plugins.types import Label

#: the support model's inputs, in the order of its weights
SUPPORT_FEATURES = ("p_ent", "coverage", "fact_missing", "novel_weight", "novelty")
#: the inputs of a decision fitted before the claim's added words were read (artifact v1)
SUPPORT_FEATURES_V1 = SUPPORT_FEATURES[:3]
#: the weight of the added words the support model reads saturates here: a fourth rare word says little more
NOVEL_CAP = 3.0
#: the conflict model's inputs, in the order of its weights
CONFLICT_FEATURES = ("logit_con_minus_nic", "coverage")


class Logistic(BaseModel):
    """``sigmoid(weights · standardized(x) + bias)``."""

    model_config = ConfigDict(extra="forbid")

    features: tuple[str, ...]
    mean: list[float] = Field(description="per-feature mean on the fitting rows")
    scale: list[float] = Field(description="per-feature standard deviation on the fitting rows")
    weights: list[float]
    bias: float

    @model_validator(mode="after")
    def _same_length(self) -> Logistic:
        if not len(self.features) == len(self.mean) == len(self.scale) == len(self.weights):
            raise ValueError("features, mean, scale and weights must have one entry per feature")
        return self

    def prob(self, x: Sequence[float]) -> float:
        z = sum(w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.mean, self.scale)) + self.bias
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


class Decision(BaseModel):
    """The artifact's fitted decision (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    support: Logistic
    conflict: Logistic
    fitted_on: str = ""

    @model_validator(mode="after")
    def _known_features(self) -> Decision:
        if self.support.features not in (SUPPORT_FEATURES, SUPPORT_FEATURES_V1) or (
            self.conflict.features != CONFLICT_FEATURES
        ):
            raise ValueError(
                f"a decision over {SUPPORT_FEATURES} and {CONFLICT_FEATURES} was expected, "
                f"got {self.support.features} and {self.conflict.features}"
            )
        return self


def softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    e = [math.exp(v - top) for v in logits]
    total = sum(e)
    return [v / total for v in e]


def support_features(
    logits: Sequence[float], coverage: float, fact_missing: bool, novel: float = 0.0, novelty: float = 0.0
) -> list[float]:
    """The support model's inputs in :data:`SUPPORT_FEATURES`' order: ``novel``, the content words
    the claim adds to its context weighed by their rarity, and ``novelty``, their share of its
    content words (:mod:`rt4chart_plugins.rules.novelty`)."""
    return [softmax(logits)[0], float(coverage), 1.0 if fact_missing else 0.0, float(min(novel, NOVEL_CAP)), novelty]


def conflict_features(logits: Sequence[float], coverage: float) -> list[float]:
    return [float(logits[1]) - float(logits[2]), float(coverage)]


def decide(
    decision: Decision,
    logits: Sequence[float],
    coverage: float,
    fact_missing: bool,
    novel: float = 0.0,
    novelty: float = 0.0,
) -> tuple[float, float, float]:
    """(P(ENT), P(CON), P(NIC)) for one (claim, premise) pair; a decision fitted on fewer inputs
    reads the first of them."""
    x = support_features(logits, coverage, fact_missing, novel, novelty)
    p_ent = decision.support.prob(x[: len(decision.support.features)])
    return split(p_ent, decision.conflict.prob(conflict_features(logits, coverage)))


def split(p_ent: float, conflict: float) -> tuple[float, float, float]:
    """(P(ENT), P(CON), P(NIC)) from P(ENT) and the share of the rest that is contradiction. Every
    fitted decision of this form (the trained judge's, ``auto``'s combination, the premise read's)
    splits the rest this way."""
    return p_ent, (1.0 - p_ent) * conflict, (1.0 - p_ent) * (1.0 - conflict)


def label_of(p_ent: float, p_con: float, p_nic: float, threshold: float) -> Label:
    """The label read off the three probabilities the reason reports: ENT when P(ENT) reaches the
    threshold, else the larger of P(CON) and P(NIC)."""
    return Label.ENT if p_ent >= threshold else Label.CON if p_con >= p_nic else Label.NIC
