"""What the gate and the combination read about one (claim, premise) pair, besides the two judges'
probabilities: where the claim meets its premise, and whether a closed-class word or a number
sits on one side only of that meeting.

A claim that copies most of one premise sentence yet differs from it in a negator, a quantifier,
a modal, a scale's pole or an amount is where a reader of word overlap goes wrong: it sees the
shared words and calls the claim supported. These are signals for a fitted model, not rules: the
gate learns how much each one says (lab: ``rt4chart fit-reader``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from rt4chart_plugins.judges.trained.premise import words
from rt4chart_plugins.rules.contrast import lexicon

#: closed-class words whose presence on one side only of an aligned pair can change its meaning
CUES = frozenset(
    lexicon.NEGATORS
    | lexicon.ALL
    | lexicon.SOME
    | lexicon.ONLY
    | lexicon.MUST
    | lexicon.MAY
    | lexicon.SHOULD
    | lexicon.MODAL_VERBS
    | {
        w
        for rows in (lexicon.COMPARATIVES, lexicon.RELATIONS, lexicon.STATES)
        for row in rows
        for side in row
        for w in side.split()
    }
)
_TOKEN = re.compile(r"[a-z']+|\d+(?:[.,]\d+)?")
_LINES = re.compile(r"(?<=[.!?])\s+|\n")

#: the gate's inputs, in the order of its weights
GATE_FEATURES = (
    "p_ent",
    "encoder_ent",
    "encoder_con",
    "coverage",
    "fact_missing",
    "alignment",
    "cue_differs",
    "number_differs",
    "claim_words",
)
#: the combination's support model: P(ENT) from both judges
SUPPORT_FEATURES = ("logit_p_ent", "logit_reader_support", "logit_reader_compatible", "coverage", "fact_missing")
#: the combination's conflict model: the share of the rest that is contradiction
CONFLICT_FEATURES = ("logit_con_minus_nic", "logit_reader_compatible", "coverage")
#: the embedded LLM's decision alone (``judge="local"``, premise read): its two readings and the
#: premise's coverage of the claim
READER_SUPPORT_FEATURES = ("logit_reader_support", "logit_reader_compatible", "coverage", "fact_missing")
READER_CONFLICT_FEATURES = ("logit_reader_compatible", "coverage")


def logit(p: float, eps: float = 1e-4) -> float:
    p = min(1.0 - eps, max(eps, float(p)))
    return math.log(p / (1.0 - p))


def alignment(claim: str, premise: str) -> tuple[float, int, int]:
    """The premise line that holds most of the claim's content words: the share it holds, and how
    many cue words and numbers lie on one side only of the claim and that line."""
    mine = set(words(claim))
    if not mine:
        return 1.0, 0, 0
    claim_tokens = set(_TOKEN.findall(claim.lower()))
    best, best_line = -1.0, ""
    for line in _LINES.split(premise):
        share = len(mine & set(words(line))) / len(mine)
        if share > best:
            best, best_line = share, line
    differ = claim_tokens ^ set(_TOKEN.findall(best_line.lower()))
    return max(best, 0.0), len(differ & CUES), sum(1 for t in differ if t[0].isdigit())


def gate_features(
    claim: str, premise: str, p_ent: float, encoder: Sequence[float], coverage: float, fact_missing: bool
) -> list[float]:
    """The gate's inputs (:data:`GATE_FEATURES`): the verifier's fitted P(ENT) and its encoder's
    own (ENT, CON) probabilities, its coverage and missing facts, and the alignment signals."""
    share, cues, numbers = alignment(claim, premise)
    return [
        float(p_ent),
        float(encoder[0]),
        float(encoder[1]),
        float(coverage),
        1.0 if fact_missing else 0.0,
        share,
        float(min(cues, 3)),
        float(min(numbers, 3)),
        math.log1p(len(words(claim))),
    ]


def support_features(
    p_ent: float, reader_support: float, reader_compatible: float, coverage: float, fact_missing: bool
) -> list[float]:
    return [
        logit(p_ent),
        logit(reader_support),
        logit(reader_compatible),
        float(coverage),
        1.0 if fact_missing else 0.0,
    ]


def conflict_features(encoder_logits_con_minus_nic: float, reader_compatible: float, coverage: float) -> list[float]:
    return [float(encoder_logits_con_minus_nic), logit(reader_compatible), float(coverage)]


def reader_support_features(
    reader_support: float, reader_compatible: float, coverage: float, fact_missing: bool
) -> list[float]:
    return [logit(reader_support), logit(reader_compatible), float(coverage), 1.0 if fact_missing else 0.0]


def reader_conflict_features(reader_compatible: float, coverage: float) -> list[float]:
    return [logit(reader_compatible), float(coverage)]
