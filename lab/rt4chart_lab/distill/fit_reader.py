"""``rt4chart fit-reader``: fit the ``auto`` judge's gate and its combination of the two judges on
the reader's labelled pairs (:mod:`.reader_labels`), and write them where the product reads them
(:data:`rt4chart_plugins.judges.reader.fitted.FIT_FILE`).

Each labelled pair has a gold label from its source and the reader's two readings. The trained
judge's encoder and decision are run on the same (claim, premise) here, so each row has both
judges' readings and the signals the gate reads (:mod:`rt4chart_plugins.judges.reader.features`).

- **gate**: P(the trained judge's supported-or-not verdict is wrong), fitted class-balanced.
- **support**: P(ENT) from both judges (gold ENT against the rest), class-balanced: the labelled
  pairs were drawn toward the gate's, so their odds are no prior for the claims it sends.
- **conflict**: CON against NIC among the rows whose gold says which (class-balanced).
- **reader_support** / **reader_conflict**: the same two from the reader's readings alone, for
  ``judge="local"``'s premise read.

The gate's threshold is set by what it costs, not by what it catches: the gate P that a share
``--gate-share`` (0.2) of the claims of RAGTruth train answers exceeds, on a seeded sample of the
answers the trained judge's encoder never saw (its validation hold-out; their documents it saw
through other answers, see ``training.data.in_holdout``), so
that ``auto`` reads about a fifth of what ``local`` reads.

The combination's threshold on P(ENT) is then fitted where its verdicts count, on answers: the
value that maximizes answer F1 on the first ``--threshold-rows`` (150) of those held-out answers,
with the gate's threshold in place (the support model is class-balanced, so its 0.5 assumes as
many hallucinated claims as faithful ones among those read: far more than RAG answers hold).

WiCE rows (``source`` ``wice``) are left out: WiCE dev is a benchmark. Before the final fit, a
5-fold cross-validation split by group (an answer's pairs stay together) prints what each part
gets on rows it was not fitted on: the table in lab/docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

from rt4chart_lab.distill.label_shards import DEFAULT_OUT, read_labels, reader_model
from rt4chart_lab.logistic import fit_binary
from rt4chart_lab.metrics import auc

FOLDS = 5
L2 = 1e-3
#: gate thresholds the sweep prints
SWEEP = (0.3, 0.4, 0.5, 0.6, 0.7)


def load_rows(folder: Path) -> list[dict]:
    return [r for r in read_labels(folder) if r.get("gold") and r["source"] != "wice"]


def with_encoder(rows: list[dict]) -> None:
    """Add the trained judge's reading of each row's (claim, premise): its decision's
    probabilities, the encoder's softmax and CON-minus-NIC logit, coverage and missing facts."""
    from rt4chart_plugins.judges.trained import TrainedJudge
    from rt4chart_plugins.judges.trained.decision import decide, softmax
    from rt4chart_plugins.judges.trained.premise import coverage
    from rt4chart_plugins.rules.facts import unsupported_facts

    judge = TrainedJudge()
    loaded = judge._load()
    for start in range(0, len(rows), 64):
        batch = rows[start : start + 64]
        logits, _, _ = loaded.scorer.logits([r["claim"] for r in batch], [r["premise"] for r in batch])
        for r, lg in zip(batch, logits):
            cover = coverage(r["claim"], r["premise"])
            missing = bool(unsupported_facts(r["claim"], r["premise"]))
            r["enc_probs"] = list(decide(loaded.manifest.decision, lg, cover, missing))
            r["enc_softmax"] = softmax(lg)
            r["enc_con_minus_nic"] = float(lg[1]) - float(lg[2])
            r["coverage"], r["fact_missing"] = cover, missing
    return judge.threshold


def matrices(rows: list[dict]):
    from rt4chart_plugins.judges.reader import features as f

    gate = np.array([f.gate_features(r["claim"], r["premise"], r["enc_probs"][0], r["enc_softmax"], r["coverage"],
                                     r["fact_missing"]) for r in rows])
    support = np.array([f.support_features(r["enc_probs"][0], r["p_support"], r["p_compatible"], r["coverage"],
                                           r["fact_missing"]) for r in rows])
    conflict = np.array([f.conflict_features(r["enc_con_minus_nic"], r["p_compatible"], r["coverage"]) for r in rows])
    alone = np.array([f.reader_support_features(r["p_support"], r["p_compatible"], r["coverage"], r["fact_missing"])
                      for r in rows])
    alone_conflict = np.array([f.reader_conflict_features(r["p_compatible"], r["coverage"]) for r in rows])
    return gate, support, conflict, alone, alone_conflict


class Fitted:
    """A standardized logistic regression, as :class:`~rt4chart_plugins.judges.trained.decision.Logistic` stores it."""

    def __init__(self, x: np.ndarray, y: np.ndarray, *, balanced: bool):
        self.mean = x.mean(axis=0)
        self.scale = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
        self.w, self.b = fit_binary((x - self.mean) / self.scale, y, L2, balanced=balanced)

    def prob(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(((x - self.mean) / self.scale) @ self.w + self.b)))

    def stored(self, names: tuple[str, ...]) -> dict:
        return {"features": list(names), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "weights": self.w.tolist(), "bias": self.b}


def fit_all(rows: list[dict], idx: np.ndarray, mats, threshold: float):
    gate_x, support_x, conflict_x, alone_x, alone_conflict_x = mats
    gold_ent = np.array([r["gold"] == "ENT" for r in rows])
    enc_ent = np.array([r["enc_probs"][0] >= threshold for r in rows])
    wrong = enc_ent != gold_ent
    gate = Fitted(gate_x[idx], wrong[idx], balanced=True)
    support = Fitted(support_x[idx], gold_ent[idx], balanced=True)
    con_rows = np.array([k for k in idx if rows[k]["gold"] in ("CON", "NIC")])
    con_gold = np.array([rows[k]["gold"] == "CON" for k in con_rows])
    conflict = Fitted(conflict_x[con_rows], con_gold, balanced=True)
    alone = Fitted(alone_x[idx], gold_ent[idx], balanced=True)
    alone_conflict = Fitted(alone_conflict_x[con_rows], con_gold, balanced=True)
    return gate, support, conflict, alone, alone_conflict


def cross_validate(rows: list[dict], mats, threshold: float, seed: int) -> dict[str, np.ndarray]:
    """Each row's gate P and combined P(ENT) and conflict share, from the fold that did not see it."""
    groups = sorted({r["group"] for r in rows})
    random.Random(seed).shuffle(groups)
    fold_of = {g: k % FOLDS for k, g in enumerate(groups)}
    out = {name: np.zeros(len(rows)) for name in ("gate", "p_ent", "share", "alone", "alone_share")}
    for k in range(FOLDS):
        test = np.array([i for i, r in enumerate(rows) if fold_of[r["group"]] == k])
        train = np.array([i for i, r in enumerate(rows) if fold_of[r["group"]] != k])
        for name, model, x in zip(out, fit_all(rows, train, mats, threshold), mats):
            out[name][test] = model.prob(x[test])
    return out


def report(rows: list[dict], cv: dict[str, np.ndarray], threshold: float) -> str:
    gold_ent = np.array([r["gold"] == "ENT" for r in rows])
    enc = np.array([r["enc_probs"][0] for r in rows])
    reader = np.array([r["p_support"] for r in rows])
    enc_ent = enc >= threshold
    wrong = enc_ent != gold_ent
    lines = [f"{len(rows)} labelled pairs ({int((~gold_ent).sum())} not ENT), {FOLDS}-fold by group",
             "", "| reading | AUC ENT vs not | accuracy ENT vs not |", "|---|---|---|"]
    for name, p, cut in (("trained judge", enc, threshold), ("reader alone, P(supported) >= 0.5", reader, 0.5),
                         ("reader alone, fitted (cross-validated)", cv["alone"], 0.5),
                         ("combined (cross-validated)", cv["p_ent"], 0.5)):
        lines.append(f"| {name} | {auc(list(p), list(gold_ent)):.3f} | {np.mean((p >= cut) == gold_ent):.3f} |")
    lines += ["", f"gate AUC for the trained judge's errors: {auc(list(cv['gate']), list(wrong)):.3f} "
              f"({int(wrong.sum())} errors)", "",
              "| gate threshold | pairs sent | errors sent (recall) | not-ENT sent | cascade accuracy |",
              "|---|---|---|---|---|"]
    for t in SWEEP:
        sent = cv["gate"] >= t
        cascade = np.where(sent, cv["p_ent"] >= 0.5, enc_ent)
        lines.append(f"| {t:.1f} | {sent.mean():.2f} | {sent[wrong].mean():.2f} | {sent[~gold_ent].mean():.2f} "
                     f"| {np.mean(cascade == gold_ent):.3f} |")
    return "\n".join(lines)


def held_out_rows(limit: int, seed: int):
    """A seeded sample of RAGTruth train rows from the sources the shipped encoder was not trained on."""
    from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
    from rt4chart_lab.training.data import in_holdout, source_of

    from rt4chart_plugins.judges.trained.encoder import load_manifest

    holdout = load_manifest(check=False)[1].training["config"]["holdout"]
    rows = [r for r in load_ragtruth(resolve_data_dir(None), split="train") if in_holdout(source_of(r.id), holdout)]
    return random.Random(seed).sample(rows, min(limit, len(rows)))


def gate_threshold_for_share(fit_file: Path, share: float, rows) -> tuple[float, int]:
    """The gate P above which ``share`` of the rows' claims lie (``auto`` with no budget computes
    every claim's gate P and reads none), and the number of claims."""
    from rt4chart_plugins import Verifier

    verifier = Verifier("auto", judge_kwargs={"fit": str(fit_file), "budget": 0.0, "cache": False})
    gates = []
    for row in rows:
        report = verifier.verify(row.context, row.answer, question=row.question)
        gates += [c.signals.reader.gate for c in report.claims if c.signals and c.signals.reader]
    return float(np.quantile(gates, 1.0 - share)), len(gates)


def answer_threshold(fit_file: Path, rows) -> tuple[float, str]:
    """The combination's P(ENT) threshold with the best answer F1 on ``rows``, and a line that
    says what it gets against the trained judge alone. A claim the LLM read, and no rule decided,
    is flagged below the threshold; every other claim keeps its label."""
    from rt4chart_plugins import Label, Verifier

    verifier = Verifier("auto", judge_kwargs={"fit": str(fit_file)})
    answers = []
    for row in rows:
        report = verifier.verify(row.context, row.answer, question=row.question)

        def read(c) -> bool:
            return bool(c.signals and c.signals.reader and c.signals.reader.read and c.rule is None and c.probs)

        fixed = any(c.label not in (Label.ENT, None) for c in report.claims if not read(c))
        trained = any(c.label not in (Label.ENT, None) if not read(c) else c.signals.reader.trained_label != Label.ENT
                      for c in report.claims)
        answers.append((row.hallucinated, fixed, [c.probs[Label.ENT] for c in report.claims if read(c)], trained))

    def f1(flags: list[bool]) -> float:
        tp = sum(f and a[0] for f, a in zip(flags, answers))
        fp = sum(f and not a[0] for f, a in zip(flags, answers))
        fn = sum(not f and a[0] for f, a in zip(flags, answers))
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0

    grid = [round(t, 3) for t in np.linspace(0.05, 0.95, 91)]
    scores = {t: f1([a[1] or any(p < t for p in a[2]) for a in answers]) for t in grid}
    best = max(grid, key=lambda t: (scores[t], -abs(t - 0.5)))
    return best, (f"answer F1 {scores[best]:.3f} at P(ENT) threshold {best} (0.5: {scores[0.5]:.3f}); "
                  f"the trained judge alone {f1([a[3] for a in answers]):.3f}; {len(answers)} answers, "
                  f"{sum(len(a[2]) for a in answers)} claims read")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart fit-reader", description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--gate-share", type=float, default=0.2,
                    help="the share of held-out RAGTruth train claims the gate sends (sets its threshold)")
    ap.add_argument("--share-rows", type=int, default=300,
                    help="held-out RAGTruth train answers to set it on, at most (the hold-out has 77)")
    ap.add_argument("--threshold-rows", type=int, default=150,
                    help="of those, the answers the combination's threshold is fitted on (0: keep 0.5)")
    ap.add_argument("--out", type=Path, default=None, help="where to write the fit (default: the product's file)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--report-only", action="store_true", help="print the cross-validation, write nothing")
    args = ap.parse_args(argv)
    from rt4chart_plugins.judges.reader import features as f
    from rt4chart_plugins.judges.reader.fitted import FIT_FILE, ReaderFit

    rows = load_rows(args.labels)
    try:
        reader = reader_model(rows)
    except ValueError as exc:
        ap.error(str(exc))
    threshold = with_encoder(rows)
    mats = matrices(rows)
    print(report(rows, cross_validate(rows, mats, threshold, args.seed), threshold))
    if args.report_only:
        return 0
    gate, support, conflict, alone, alone_conflict = fit_all(rows, np.arange(len(rows)), mats, threshold)
    fit = ReaderFit(gate=gate.stored(f.GATE_FEATURES), gate_threshold=0.5,
                    support=support.stored(f.SUPPORT_FEATURES), conflict=conflict.stored(f.CONFLICT_FEATURES),
                    threshold=0.5, reader_support=alone.stored(f.READER_SUPPORT_FEATURES),
                    reader_conflict=alone_conflict.stored(f.READER_CONFLICT_FEATURES), reader=reader,
                    fitted_on=f"{len(rows)} labelled pairs (RAGTruth train, extra/ and edits; no WiCE)")
    out = args.out or FIT_FILE
    out.write_text(fit.model_dump_json(indent=1) + "\n")
    held_out = held_out_rows(args.share_rows, args.seed)
    threshold_at, claims = gate_threshold_for_share(out, args.gate_share, held_out)
    fit = fit.model_copy(update={"gate_threshold": round(threshold_at, 4)})
    out.write_text(fit.model_dump_json(indent=1) + "\n")
    print(f"gate threshold {fit.gate_threshold}: {args.gate_share:.0%} of {claims} claims of {len(held_out)} "
          f"held-out RAGTruth train answers")
    if args.threshold_rows:
        from rt4chart_plugins.judges.reader.fitted import load_fit

        load_fit.cache_clear()  # the file now holds the gate's threshold
        best, line = answer_threshold(out, held_out[: args.threshold_rows])
        fit = fit.model_copy(update={"threshold": best})
        out.write_text(fit.model_dump_json(indent=1) + "\n")
        print(line)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
