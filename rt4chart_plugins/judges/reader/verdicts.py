"""From an LLM's two readings of a sentence against its premise to the verdicts of its claims.

The premise read asks two Yes/No questions of one (sentence, premise) pair, *supported?* and
*can both be true?*, and reads P(Yes) against P(No). Where the probabilities come from (the
embedded model's logits, or an endpoint's log probabilities) does not change what they mean, so
both premise reads turn them into verdicts here, with the fitted decision
(:mod:`rt4chart_plugins.judges.reader.fitted`) and the same evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rt4chart_plugins.judges.reader import features
from rt4chart_plugins.judges.reader.fitted import ReaderFit
from rt4chart_plugins.judges.trained.decision import label_of
from rt4chart_plugins.judges.trained.premise import coverage
from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.types import Claim, Judgement, Label, Sentence


def premise_verdicts(
    group: Sequence[Claim],
    text: str,
    premise: Any,
    premises: Any,
    sentences: Sequence[Sentence],
    reading: tuple[float, float],
    fit: ReaderFit,
) -> list[Judgement]:
    """The verdicts of one sentence's claims (``group``, judged as ``text``) from its reading
    ``(P(supported), P(both can be true))`` against ``premise``, picked among ``premises``. The
    clauses take their sentence's label (a clause alone, "and includes phone support", lacks its
    subject); each cites the premise sentences holding its own words when ENT, the premise's best
    match when CON, none when NIC."""
    p_support, p_compatible = reading
    cover = coverage(text, premise.text)
    missing = bool(unsupported_facts(text, premise.text, extended=False))
    p_ent, p_con, p_nic = fit.reader_alone(
        features.reader_support_features(p_support, p_compatible, cover, missing),
        features.reader_conflict_features(p_compatible, cover),
    )
    label = label_of(p_ent, p_con, p_nic, fit.threshold)
    ranked = premise.ranked()
    out = []
    for claim in group:
        if label == Label.ENT:
            evidence = premises.relevance.cover(claim.text, ranked) or ranked[:1]
        else:
            evidence = ranked[:1] if label == Label.CON else []
        out.append(
            Judgement(
                claim_id=claim.id,
                label=label,
                evidence=[sentences[i].id for i in evidence],
                probs={Label.ENT: p_ent, Label.CON: p_con, Label.NIC: p_nic},
                reason=f"P(supported)={p_support:.2f}, P(both can be true)={p_compatible:.2f}",
                alone=len(group) == 1,
            )
        )
    return out
