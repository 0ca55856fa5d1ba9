"""From per-token likelihoods to GASP's four per-sentence features, and the label-free risk.

Pure functions over arrays, so the arithmetic is tested without a model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rt4chart_plugins.gasp.scorer import Conditions

FEATURES = ("gap", "jsd_empty", "drop", "jsd_loo")


def balanced_chunks(sizes: list[int], k: int) -> list[tuple[int, int]]:
    """Split consecutive units of the given sizes into ``min(k, len(sizes))`` contiguous chunks of
    about equal total size; returns ``(first, last)`` index pairs, inclusive. Each chunk gets at
    least one unit, so K larger than the number of context sentences means one sentence a chunk."""
    n = len(sizes)
    k = max(1, min(k, n))
    if n == 0:
        return []
    total = float(sum(max(s, 1) for s in sizes))
    bounds: list[tuple[int, int]] = []
    first, acc = 0, 0.0
    for i, size in enumerate(sizes):
        acc += max(size, 1)
        chunks_left = k - len(bounds) - 1  # chunks still to open after this one closes
        units_left = n - i - 1
        reached = acc >= total * (len(bounds) + 1) / k
        if chunks_left > 0 and (reached or units_left == chunks_left):
            bounds.append((first, i))
            first = i + 1
    bounds.append((first, n - 1))
    return bounds


@dataclass
class SentenceFeatures:
    gap: float
    jsd_empty: float
    drop: float
    jsd_loo: float
    supporting_chunk: int | None  # the chunk whose removal lowered the likelihood most
    tokens: int

    def vector(self) -> np.ndarray:
        return np.array([self.gap, self.jsd_empty, self.drop, self.jsd_loo], dtype=float)


def token_anchors(text: str, token_spans: list[tuple[int, int]]) -> np.ndarray:
    """Each token's first non-space character in ``text`` (-1 for a whitespace-only token): the
    position that decides which sentence the token belongs to."""
    out = np.full(len(token_spans), -1, dtype=np.int64)
    for i, (start, end) in enumerate(token_spans):
        piece = text[start:end]
        stripped = len(piece) - len(piece.lstrip())
        if stripped < len(piece):
            out[i] = start + stripped
    return out


def sentence_features(
    cond: Conditions, anchors: np.ndarray, sentences: list[tuple[int, int]]
) -> list[SentenceFeatures | None]:
    """Average each condition over the tokens anchored in each answer sentence; None for a
    sentence with no token scored (cut by the model's window)."""
    out: list[SentenceFeatures | None] = []
    anchors = anchors[: len(cond.full)]
    for s_start, s_end in sentences:
        idx = np.nonzero((anchors >= s_start) & (anchors < s_end))[0]
        if len(idx) == 0:
            out.append(None)
            continue
        full = float(cond.full[idx].mean())
        gap = full - float(cond.empty[idx].mean())
        jsd0 = float(cond.jsd_empty[idx].mean())
        if cond.loo:
            drops = [full - float(lp[idx].mean()) for lp in cond.loo]
            jsds = [float(j[idx].mean()) for j in cond.jsd_loo]
            best = int(np.argmax(drops))
            drop, jsd_loo = drops[best], max(jsds)
            supporting = best if drops[best] > 0 else None
        else:
            drop, jsd_loo, supporting = 0.0, 0.0, None
        out.append(
            SentenceFeatures(
                gap=gap, jsd_empty=jsd0, drop=drop, jsd_loo=jsd_loo, supporting_chunk=supporting, tokens=len(idx)
            )
        )
    return out


def standardize(vector: np.ndarray | list[float], mean: list[float], std: list[float]) -> np.ndarray:
    """The features as z-scores under a calibration's statistics."""
    return (np.asarray(vector, dtype=float) - np.asarray(mean, dtype=float)) / np.maximum(
        np.asarray(std, dtype=float), 1e-9
    )


def risk(features: SentenceFeatures, mean: list[float], std: list[float]) -> float:
    """The label-free score: minus the sum of the standardized features (high = ungrounded)."""
    value = float(-standardize(features.vector(), mean, std).sum())
    return value if np.isfinite(value) else 0.0
