"""Logistic regressions the lab fits: the trained judge's decision, the hidden-state readout.

Small enough for numpy; fitted in the lab, applied in the product by plain arithmetic
(``rt4chart_plugins.judges.trained.decision``).
"""

from __future__ import annotations

import numpy as np


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_multinomial(x: np.ndarray, y: np.ndarray, l2: float, *, free_last: bool = False, steps: int = 1500,
                    lr: float = 0.01, seed: int = 13) -> tuple[np.ndarray, np.ndarray]:
    """Class-balanced multinomial logistic regression on standardized ``x`` (n, d), labels 0..2,
    fitted with Adam: (weights (3, d), bias (3,)). ``free_last`` leaves the last column unpenalized
    (the readout's: the penalty keeps 1,536 hidden-state weights from memorizing a few thousand
    statements, not the one feature known to carry signal)."""
    n, d = x.shape
    penalty = np.full(d, l2)
    if free_last:
        penalty[-1] = 0.0
    counts = np.bincount(y, minlength=3).astype(np.float64)
    w_class = np.where(counts > 0, n / (3 * np.maximum(counts, 1)), 0.0)
    sw = w_class[y] / w_class[y].sum()
    onehot = np.eye(3)[y]
    rng = np.random.default_rng(seed)
    w = rng.normal(0, 0.01, (3, d))
    b = np.zeros(3)
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros(3), np.zeros(3)
    for t in range(1, steps + 1):
        p = softmax(x @ w.T + b)
        g = (p - onehot) * sw[:, None]
        gw = g.T @ x + penalty * w
        gb = g.sum(axis=0)
        m_w = 0.9 * m_w + 0.1 * gw
        v_w = 0.999 * v_w + 0.001 * gw ** 2
        m_b = 0.9 * m_b + 0.1 * gb
        v_b = 0.999 * v_b + 0.001 * gb ** 2
        c1, c2 = 1 - 0.9 ** t, 1 - 0.999 ** t
        w -= lr * (m_w / c1) / (np.sqrt(v_w / c2) + 1e-8)
        b -= lr * (m_b / c1) / (np.sqrt(v_b / c2) + 1e-8)
    return w, b


def fit_binary(x: np.ndarray, y: np.ndarray, l2: float, *, balanced: bool = False, steps: int = 3000,
               lr: float = 0.5) -> tuple[np.ndarray, float]:
    """Binary logistic regression on standardized ``x`` (n, d), labels 0/1, by gradient descent on
    the mean log loss plus ``l2``/2 · |w|²: (weights (d,), bias). ``balanced`` weighs both classes
    equally; otherwise the probabilities keep the fitting rows' odds. The loss is convex and the
    features standardized, so plain gradient descent converges."""
    n, d = x.shape
    y = y.astype(np.float64)
    if balanced:
        pos = max(1.0, y.sum())
        neg = max(1.0, n - y.sum())
        sw = np.where(y > 0, n / (2 * pos), n / (2 * neg))
    else:
        sw = np.ones(n)
    sw = sw / sw.sum()
    w, b = np.zeros(d), 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = (p - y) * sw
        w -= lr * (x.T @ g + l2 * w)
        b -= lr * g.sum()
    return w, float(b)
