"""``rt4chart reader-probe``: a logistic probe on the premise read's hidden state
(``rt4chart reader-states``), cross-validated by group against the zero-shot P(support), the
reader's own fit and ``auto``'s combination, under the rule of lab/docs/training.md ("A probe on
the reader's hidden state").

The rows are the committed reader labels with a gold label, no WiCE, whose state is in the cache.
Every reading is scored on the same rows and the same 5 folds (``fit-reader``'s split: groups
shuffled by the seed). The probe's settings (principal components k, L2) are chosen inside each
outer training fold by an inner 4-fold group split; the standardization and the components are
fitted on the training rows only. Each fit is a class-balanced logistic regression on the
whitened top-k components and the zero-shot log-odds of P(support), solved by Newton's method
(small: k + 1 features), with the log-odds left unpenalized.

Prints the report (markdown) and, with ``--json FILE``, writes the numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rt4chart_lab.distill.label_shards import DEFAULT_OUT

FOLDS, INNER_FOLDS = 5, 4
COMPONENTS = (16, 64, 256)
L2S = (0.01, 0.1, 1.0, 10.0)
#: reported only, not ruled on: a grid that reaches far enough to fall back to P(support) alone
#: (added after a first look at 139 pairs, where the rule's grid overfitted)
WIDE_L2S = L2S + (100.0, 1000.0, 10000.0)
BOOTSTRAP = 1000
MARGIN = 0.05
SPLIT_SLACK = 0.02
_EPS = 1e-4


# ---- metrics ------------------------------------------------------------------------------------


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Rank AUC with ties shared (labels boolean); nan when a class is missing."""
    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels, dtype=bool)
    pos, neg = int(labels.sum()), int((~labels).sum())
    if not pos or not neg:
        return float("nan")
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    r = (np.cumsum(counts) - (counts - 1) / 2)[inverse]  # ties share their average rank
    return float((r[labels].sum() - pos * (pos + 1) / 2) / (pos * neg))


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=np.float64), _EPS, 1 - _EPS)
    return np.log(p / (1 - p))


# ---- the probe ----------------------------------------------------------------------------------


def newton_logistic(x: np.ndarray, y: np.ndarray, l2: float, free: np.ndarray, *, steps: int = 50
                    ) -> tuple[np.ndarray, float]:
    """Class-balanced L2 logistic regression (weights summing to n, penalty l2/2 · |w|² on the
    columns not ``free``; the bias is free), by Newton's method: (weights, bias)."""
    n, d = x.shape
    y = y.astype(np.float64)
    pos, neg = max(1.0, y.sum()), max(1.0, n - y.sum())
    sw = np.where(y > 0, n / (2 * pos), n / (2 * neg))
    z = np.hstack([x, np.ones((n, 1))])
    pen = np.append(np.where(free, 0.0, l2), 0.0)
    w = np.zeros(d + 1)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        g = z.T @ ((p - y) * sw) + pen * w
        h = (z * (sw * p * (1 - p))[:, None]).T @ z + np.diag(pen + 1e-9)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w[:-1], float(w[-1])


@dataclass
class Probe:
    """sigmoid(w · [whitened top-k components of the standardized state, standardized free
    columns] + b), with everything it needs to read a new state; :meth:`linear` folds it into one
    weight per raw feature."""

    mean: np.ndarray
    std: np.ndarray
    axes: np.ndarray  # (d, k)
    comp_std: np.ndarray  # (k,)
    free_mean: np.ndarray
    free_std: np.ndarray
    w: np.ndarray
    b: float

    def design(self, hidden: np.ndarray, free: np.ndarray) -> np.ndarray:
        comps = ((hidden - self.mean) / self.std) @ self.axes / self.comp_std
        return np.hstack([comps, (free - self.free_mean) / self.free_std])

    def prob(self, hidden: np.ndarray, free: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.design(hidden, free) @ self.w + self.b, -30, 30)))

    def linear(self) -> tuple[np.ndarray, float]:
        """(one weight per raw column: the state's, then the free ones; bias) of the same map."""
        k = self.axes.shape[1]
        w_state = (self.axes / self.comp_std) @ self.w[:k] / self.std
        w_free = self.w[k:] / self.free_std
        bias = self.b - float(w_state @ self.mean) - float(w_free @ self.free_mean)
        return np.concatenate([w_state, w_free]), bias


class Basis:
    """The standardization and principal axes of one training set's states (computed once and
    sliced for each k)."""

    def __init__(self, hidden: np.ndarray, kmax: int):
        self.mean = hidden.mean(axis=0)
        std = hidden.std(axis=0)
        self.std = np.where(std > 1e-9, std, 1.0)
        xs = (hidden - self.mean) / self.std
        _, _, vt = np.linalg.svd(xs, full_matrices=False)  # cheap while rows are fewer than columns
        self.axes = vt[:kmax].T
        self.scores = xs @ self.axes

    def fit(self, k: int, free: np.ndarray, y: np.ndarray, l2: float) -> Probe:
        k = min(k, self.scores.shape[1])  # fewer rows than k: as many components as they have
        comps = self.scores[:, :k]
        comp_std = np.where(comps.std(axis=0) > 1e-9, comps.std(axis=0), 1.0)
        free_mean, free_std = free.mean(axis=0), np.where(free.std(axis=0) > 1e-9, free.std(axis=0), 1.0)
        x = np.hstack([comps / comp_std, (free - free_mean) / free_std])
        w, b = newton_logistic(x, y, l2, np.r_[np.zeros(k, dtype=bool), np.ones(free.shape[1], dtype=bool)])
        return Probe(self.mean, self.std, self.axes[:, :k], comp_std, free_mean, free_std, w, b)


def group_folds(groups: list[str], folds: int, seed: int) -> np.ndarray:
    """Each row's fold: its group's place in a seeded shuffle of the sorted groups, modulo ``folds``
    (``fit-reader``'s split)."""
    names = sorted(set(groups))
    random.Random(seed).shuffle(names)
    fold_of = {g: k % folds for k, g in enumerate(names)}
    return np.array([fold_of[g] for g in groups])


def choose(hidden: np.ndarray, free: np.ndarray, y: np.ndarray, groups: list[str], seed: int,
           components: tuple[int, ...] = COMPONENTS, l2s: tuple[float, ...] = L2S) -> tuple[int, float, dict]:
    """(k, l2) with the best pooled inner-fold AUC on these rows, and every setting's AUC."""
    folds = group_folds(groups, INNER_FOLDS, seed + 1)
    ks = [k for k in components if k <= hidden.shape[1]]
    oof = {(k, l2): np.zeros(len(y)) for k in ks for l2 in l2s}
    for f in range(INNER_FOLDS):
        tr, te = folds != f, folds == f
        basis = Basis(hidden[tr], max(ks))
        for k in ks:
            for l2 in l2s:
                oof[(k, l2)][te] = basis.fit(k, free[tr], y[tr], l2).prob(hidden[te], free[te])
    scores = {key: auc(p, y) for key, p in oof.items()}
    best = max(scores, key=lambda key: (scores[key], -key[0], key[1]))
    return best[0], best[1], {f"k={k} l2={l2}": round(s, 4) for (k, l2), s in scores.items()}


def probe_oof(hidden: np.ndarray, free: np.ndarray, y: np.ndarray, groups: list[str], folds: np.ndarray,
              seed: int, log=print, **grid) -> tuple[np.ndarray, list[dict]]:
    """Out-of-fold probabilities of the nested probe, and each outer fold's chosen setting."""
    out, chosen = np.zeros(len(y)), []
    for f in sorted(set(folds.tolist())):
        tr, te = folds != f, folds == f
        k, l2, inner = choose(hidden[tr], free[tr], y[tr], [g for g, t in zip(groups, tr) if t], seed, **grid)
        probe = Basis(hidden[tr], k).fit(k, free[tr], y[tr], l2)
        out[te] = probe.prob(hidden[te], free[te])
        chosen.append({"fold": int(f), "k": k, "l2": l2, "inner_auc": inner[f"k={k} l2={l2}"]})
        log(f"  fold {f}: k={k} l2={l2} (inner AUC {inner[f'k={k} l2={l2}']:.3f}), "
            f"outer AUC {auc(out[te], y[te]):.3f} on {int(te.sum())} rows")
    return out, chosen


def bootstrap_difference(a: np.ndarray, b: np.ndarray, y: np.ndarray, groups: list[str], draws: int,
                         seed: int) -> tuple[float, float]:
    """The 95 % interval of AUC(a) − AUC(b), resampling whole groups with replacement."""
    index: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        index.setdefault(g, []).append(i)
    names = list(index)
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(draws):
        rows = np.concatenate([index[names[j]] for j in rng.integers(0, len(names), len(names))])
        diffs.append(auc(a[rows], y[rows]) - auc(b[rows], y[rows]))
    lo, hi = np.nanquantile(diffs, [0.025, 0.975])
    return float(lo), float(hi)


# ---- the comparison -----------------------------------------------------------------------------


def load(labels: Path, cache: Path, model: str | None) -> tuple[list[dict], np.ndarray]:
    """The labelled rows (gold, no WiCE) that have a state, and their states (float64)."""
    from rt4chart_lab.distill.fit_reader import load_rows
    from rt4chart_lab.readout.pair_states import model_folder, read_states

    rows = load_rows(labels)
    model = model or rows[0]["model"]
    ids, hidden, p_yes = read_states(model_folder(cache, model))
    at = {pid: i for i, pid in enumerate(ids)}
    kept = [r for r in rows if r["id"] in at]
    for r in kept:
        r["state_p_yes"] = float(p_yes[at[r["id"]]])
    return kept, hidden[[at[r["id"]] for r in kept]].astype(np.float64)


def refit_oof(x: np.ndarray, y: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """``fit-reader``'s standardized class-balanced logistic form, refitted per fold."""
    from rt4chart_lab.distill.fit_reader import Fitted

    out = np.zeros(len(y))
    for f in sorted(set(folds.tolist())):
        tr, te = folds != f, folds == f
        out[te] = Fitted(x[tr], y[tr], balanced=True).prob(x[te])
    return out


def compare(rows: list[dict], hidden: np.ndarray, seed: int, draws: int, log=print, **grid) -> dict:
    from rt4chart_lab.distill.fit_reader import matrices, with_encoder
    from rt4chart_plugins.judges.reader import features as feat
    from rt4chart_plugins.judges.reader.fitted import load_fit

    groups = [r["group"] for r in rows]
    folds = group_folds(groups, FOLDS, seed)
    p_support = np.array([r["p_support"] for r in rows])
    p_compat = np.array([r["p_compatible"] for r in rows])
    free = logit(p_support)[:, None]
    gold = np.array([r["gold"] for r in rows])
    ent = gold == "ENT"
    t = time.monotonic()
    with_encoder(rows)
    log(f"trained judge read the {len(rows)} pairs in {time.monotonic() - t:.0f} s")
    _, support_x, conflict_x, alone_x, alone_conflict_x = matrices(rows)
    shipped = load_fit()
    out: dict = {"n": len(rows), "not_ent": int((~ent).sum()), "groups": len(set(groups)),
                 "state_vs_label_p_support": float(np.max(np.abs(
                     np.array([r["state_p_yes"] for r in rows]) - p_support))) if rows else None}

    log("ENT vs not: the probe on the state and the log-odds of P(support)")
    probe, chosen = probe_oof(hidden, free, ent, groups, folds, seed, log=log, **grid)
    log("ENT vs not: the probe on the state alone")
    alone_probe, _ = probe_oof(hidden, np.zeros((len(rows), 0)), ent, groups, folds, seed, log=log, **grid)
    log("ENT vs not: the probe with the wider L2 grid (reported, not ruled on)")
    wide_probe, wide_chosen = probe_oof(hidden, free, ent, groups, folds, seed, log=log,
                                        **{**grid, "l2s": WIDE_L2S})
    ent_readings = {
        "P(support), zero-shot": p_support,
        "the reader's fit (reader_support form, refitted per fold)": refit_oof(alone_x, ent, folds),
        "auto's combination (support form, refitted per fold)": refit_oof(support_x, ent, folds),
        "auto's combination as shipped (fitted on the first 964 labels, some of these rows)":
            np.array([shipped.support.prob(list(x)) for x in support_x]),
        "trained judge's P(ENT)": np.array([r["enc_probs"][0] for r in rows]),
        "probe: state + log-odds of P(support) (nested CV)": probe,
        "probe: state alone (nested CV)": alone_probe,
        "probe, L2 grid widened to 1e4 (not ruled on)": wide_probe,
    }
    out["ent"] = {name: {"auc": auc(p, ent), "balanced_acc_at_0.5": balanced_accuracy(p >= 0.5, ent)}
                  for name, p in ent_readings.items()}
    out["ent_chosen"], out["ent_wide_chosen"] = chosen, wide_chosen
    lo, hi = bootstrap_difference(probe, p_support, ent, groups, draws, seed)
    out["ent_difference"] = {"auc": auc(probe, ent) - auc(p_support, ent), "ci95": [lo, hi]}
    faithful = np.array([r["source"] in ("ragtruth", "ragtruth-clause") and r["gold"] == "ENT" for r in rows])
    out["faithful_ragtruth_doubted"] = {"n": int(faithful.sum()),
                                        "P(support) < 0.5": float(np.mean(p_support[faithful] < 0.5)),
                                        "probe < 0.5": float(np.mean(probe[faithful] < 0.5))}

    split = np.isin(gold, ["CON", "NIC"])
    con = gold[split] == "CON"
    g_split = [g for g, s in zip(groups, split) if s]
    f_split = folds[split]
    log(f"CON vs NIC ({int(split.sum())} rows, {int(con.sum())} CON): the probe")
    probe_con, chosen_con = probe_oof(hidden[split], free[split], con, g_split, f_split, seed, log=log, **grid)
    con_readings = {
        "1 - P(compatible), zero-shot": 1 - p_compat[split],
        "the reader's fit (reader_conflict form, refitted per fold)": refit_oof(alone_conflict_x[split], con, f_split),
        "auto's combination (conflict form, refitted per fold)": refit_oof(conflict_x[split], con, f_split),
        "probe: state + log-odds of P(support) (nested CV)": probe_con,
    }
    out["con"] = {name: {"auc": auc(p, con)} for name, p in con_readings.items()}
    out["con_n"], out["con_con"], out["con_chosen"] = int(split.sum()), int(con.sum()), chosen_con
    lo, hi = bootstrap_difference(probe_con, 1 - p_compat[split], con, g_split, draws, seed)
    out["con_difference"] = {"auc": auc(probe_con, con) - auc(1 - p_compat[split], con), "ci95": [lo, hi]}

    d = out["ent_difference"]
    rule = {
        "1: probe AUC >= P(support) AUC + 0.05": d["auc"] >= MARGIN,
        "2: 95% interval of the difference above 0": d["ci95"][0] > 0,
        "3: CON vs NIC no lower than 1 - P(compatible) by more than 0.02": out["con_difference"]["auc"] >= -SPLIT_SLACK,
    }
    out["rule"] = rule
    out["ships"] = all(rule.values())
    assert feat.SUPPORT_FEATURES  # the forms compared are the product's
    return out


def balanced_accuracy(pred: np.ndarray, y: np.ndarray) -> float:
    return float((np.mean(pred[y]) + np.mean(~pred[~y])) / 2)


def report(out: dict) -> str:
    lines = [f"{out['n']} labelled pairs with a state ({out['not_ent']} not ENT, {out['groups']} groups), "
             f"{FOLDS}-fold by group; the state's P(Yes) differs from the label's P(support) by at most "
             f"{out['state_vs_label_p_support']:.4f}", "",
             "| ENT vs not | AUC | balanced acc. at 0.5 |", "|---|---|---|"]
    lines += [f"| {k} | {v['auc']:.3f} | {v['balanced_acc_at_0.5']:.3f} |" for k, v in out["ent"].items()]
    d = out["ent_difference"]
    lines += ["", f"probe − P(support): {d['auc']:+.3f} (95 % group bootstrap {d['ci95'][0]:+.3f} to "
                  f"{d['ci95'][1]:+.3f}); settings chosen: "
                  + ", ".join(f"k={c['k']} l2={c['l2']}" for c in out["ent_chosen"])
              + "; with the wider grid: " + ", ".join(f"k={c['k']} l2={c['l2']}" for c in out["ent_wide_chosen"]), "",
              f"| CON vs NIC ({out['con_n']} rows, {out['con_con']} CON) | AUC |", "|---|---|"]
    lines += [f"| {k} | {v['auc']:.3f} |" for k, v in out["con"].items()]
    d = out["con_difference"]
    fd = out["faithful_ragtruth_doubted"]
    lines += ["", f"probe − (1 − P(compatible)): {d['auc']:+.3f} (95 % {d['ci95'][0]:+.3f} to {d['ci95'][1]:+.3f})",
              f"faithful RAGTruth sentences and clauses doubted (gold ENT, {fd['n']} rows): P(support) < 0.5 on "
              f"{fd['P(support) < 0.5']:.1%}, probe < 0.5 on {fd['probe < 0.5']:.1%}", ""]
    lines += [f"- rule {k}: {'yes' if v else 'no'}" for k, v in out["rule"].items()]
    lines.append(f"- ships: {'yes' if out['ships'] else 'no'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from rt4chart_lab.readout.pair_states import DEFAULT_CACHE

    ap = argparse.ArgumentParser(prog="rt4chart reader-probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--model", default=None, help="the reader model's name (default: the labels')")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bootstrap", type=int, default=BOOTSTRAP)
    ap.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = ap.parse_args(argv)
    rows, hidden = load(args.labels, args.cache, args.model)
    if len(rows) < 100:
        ap.error(f"only {len(rows)} labelled pairs have a state; run `rt4chart reader-states` longer")
    out = compare(rows, hidden, args.seed, args.bootstrap)
    print(report(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
