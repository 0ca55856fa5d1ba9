"""What the embedded judge's answers mean: labels read off the logits, and the word-overlap
heuristics that pick what to ask about.

Pure functions of numbers and text, apart from the model, so that the decision can be read (and
tested) on its own: P(Yes) against P(No) at the next token (:func:`p_yes`) gives the probability
that the context supports a claim; a claim it does not support is contradicted when it cannot be
true together with its closest context sentence (:func:`closest_sentences`), else not mentioned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from rt4chart_plugins.text.words import content_words, words
from rt4chart_plugins.types import Judgement, Label, Sentence


def first_tokens(llm: Any, words: tuple[str, ...]) -> list[int]:
    """The ids of the first token of each spelling of a label word (Yes, yes, YES)."""
    return sorted({llm.tokenize(w.encode(), add_bos=False, special=False)[0] for w in words})


def p_yes(logits: np.ndarray, yes: list[int], no: list[int]) -> float:
    """P(Yes) against P(No) from next-token logits (0.5 when both underflow)."""
    shifted = np.exp(logits - logits.max())
    y, n = float(shifted[yes].sum()), float(shifted[no].sum())
    return y / (y + n) if y + n > 0 else 0.5


@dataclass
class Support:
    """What the support question gave for one claim: P(supported), the evidence ids a supported
    claim named, and the phrase an unsupported one named."""

    p_sup: float
    evidence: list[int]
    phrase: str | None


def judgement(
    claim_id: int,
    support: Support,
    p_compatible: float,
    closest: Sentence | None,
    *,
    support_threshold: float,
    conflict_threshold: float,
) -> Judgement:
    """ENT when supported; otherwise CON when the claim and its closest sentence cannot both be
    true (``p_compatible`` below ``conflict_threshold``; that sentence is the evidence), else NIC.
    The three probabilities follow from the two questions asked."""
    p_sup = support.p_sup
    if p_sup >= support_threshold:
        label = Label.ENT
    else:
        label = Label.CON if p_compatible < conflict_threshold else Label.NIC
    evidence = support.evidence if label == Label.ENT else [closest.id] if label == Label.CON and closest else []
    probs = {Label.ENT: p_sup, Label.CON: (1 - p_sup) * (1 - p_compatible), Label.NIC: (1 - p_sup) * p_compatible}
    return Judgement(
        claim_id=claim_id,
        label=label,
        evidence=evidence,
        phrase=support.phrase if label != Label.ENT else None,
        probs=probs,
    )


def evidence_ids(text: str) -> list[int]:
    """The sentence ids of a generated "3, 5" answer."""
    return [int(t) for t in text.replace(" ", "").split(",") if t.isdigit()]


def quoted(answer: str) -> str | None:
    """The phrase a judge named: the first quoted text if it quoted, else the whole line."""
    m = re.search(r'["“]([^"”]{2,})["”]', answer)
    return (m.group(1) if m else answer).strip() or None


def _stems(text: str) -> set[str]:
    """Content words cut to 5 characters: 'verification' and 'verified' meet, cheaply."""
    return {w[:5] for w in content_words(text) if len(w) > 1}


def closest_sentences(claim: str, sentences: list[Sentence], k: int = 2) -> list[Sentence]:
    """The k sentences sharing most content words with the claim (rarer words weigh more)."""
    want = _stems(claim)
    if not want or not sentences:
        return []
    bags = [_stems(s.text) for s in sentences]
    df = {w: sum(1 for b in bags if w in b) for w in want}
    scored = [(sum(1.0 / df[w] for w in want & b), s) for b, s in zip(bags, sentences)]
    scored = [x for x in scored if x[0] > 0]
    scored.sort(key=lambda x: -x[0])
    return [s for _, s in scored[:k]]


def claim_lines(text: str, source: str) -> list[str]:
    """Claims from '- ' lines: no duplicates, no fragments of under three words, no '- none', and
    none whose content words are mostly absent from the sentence (the decomposer invented it, or
    copied a claim of the previous sentences it was shown for pronoun resolution)."""
    allowed = _stems(source)
    out: list[str] = []
    seen: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("- "):
            continue
        claim = re.sub(r"\s+-\s*none\.?$", "", line[2:].strip(), flags=re.IGNORECASE).strip()
        key = " ".join(words(claim))
        stems = _stems(claim)
        if len(key.split()) < 3 or key in seen or len(stems & allowed) < 0.6 * len(stems):
            continue
        seen.add(key)
        out.append(claim)
    keys = [" ".join(words(c)) for c in out]  # a claim cut short by another: drop it
    return [c for c, k in zip(out, keys) if not any(o != k and o.startswith(k) for o in keys)]
