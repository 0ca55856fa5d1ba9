"""``rt4chart bench-combine``: does GASP plus the RT4CHART judge beat either alone?

One decision from both signals, fitted on RAGTruth **train** rows and reported on a test run:
per answer sentence, GASP's four standardized features and the judge's ``1 - P(ENT)`` of the
sentence's least supported claim go into a logistic regression fitted on train sentences (gold:
the sentence overlaps a gold span). An answer's score is its highest sentence probability; the
answer threshold is the one with the best answer-level F1 on the train rows, and a sentence is
flagged when its own probability passes it. GASP alone and the judge alone are scored on the
same test rows from their own records, so the rows of the table compare like with like. A second,
label-free combination needs no fitted weights: the sum of GASP's risk and the judge's score, each
standardized over the train sentences (only its answer threshold is fitted, as for GASP alone).

Train features come from ``rt4chart gasp-fit``'s cache (every train row in it, never a test row); the judge is
run on those rows here. Test records come from a ``rt4chart bench`` run holding both systems.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from rt4chart_lab.thresholds import best_threshold
from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
from rt4chart_plugins.gasp.features import standardize
from rt4chart_lab import metrics
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_lab.bench.runner import load_records, sentence_scores


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-2, steps: int = 50) -> np.ndarray:
    """Weights (bias last) of an L2-regularized logistic regression, by Newton's method: six
    parameters do not need a library."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        grad = xb.T @ (p - y) + l2 * np.r_[w[:-1], 0]
        hess = xb.T @ (xb * (p * (1 - p))[:, None]) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ w)))


def _features(gasp: list[float], cal: Calibration, judge: float) -> list[float]:
    """One sentence's row: GASP's four z-scores, then the judge's score."""
    return [*standardize(gasp, cal.mean, cal.std), judge]


def _answer_threshold(sentence_scores: np.ndarray, answers: list[dict]) -> tuple[float, float]:
    """The answer-level threshold (and its F1) on train answers scored by their best sentence."""
    return best_threshold([max((sentence_scores[i] for i in a["sentences"]), default=0.0) for a in answers],
                          [bool(a["hallucinated"]) for a in answers])


def _judge_by_span(scores: list[list[float]] | None) -> dict[tuple[int, int], float]:
    return {(int(a), int(b)): float(v) for a, b, v in scores or []}


def _overlap_score(spans: dict[tuple[int, int], float], start: int, end: int) -> float:
    """The judge's score for an answer sentence: that of the claim spans overlapping it (max);
    0.5 (no information) when none does."""
    values = [v for (a, b), v in spans.items() if a < end and start < b]
    return max(values) if values else 0.5


def train_set(gasp_cache: Path, data_dir: Path | None, cal: Calibration) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    from rt4chart_plugins.verifier import Verifier

    records = [json.loads(line) for line in gasp_cache.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = {r.id: r for r in load_ragtruth(resolve_data_dir(data_dir), split="train")}
    missing = [r["id"] for r in records if r["id"] not in rows]
    if missing:
        raise SystemExit(f"{gasp_cache} has rows that are not RAGTruth train rows, e.g. {missing[0]}")
    verifier = Verifier("trained")
    reports = verifier.verify_many([rows[r["id"]].verify_input() for r in records])
    x, y, answers = [], [], []
    for rec, report in zip(records, reports):
        judge = _judge_by_span(sentence_scores(report))
        sent = []
        for s in rec["sentences"]:
            if s["features"] is None:
                continue
            x.append(_features(s["features"], cal, _overlap_score(judge, s["start"], s["end"])))
            y.append(float(s["gold"]))
            sent.append(len(x) - 1)
        answers.append({"hallucinated": rec["hallucinated"], "sentences": sent})
    return np.array(x), np.array(y), answers


def test_items(run_dir: Path, gasp_system: str, judge_system: str, data_dir: Path | None, cal: Calibration):
    gasp = load_records(run_dir / f"{gasp_system}.jsonl")
    judge = load_records(run_dir / f"{judge_system}.jsonl")
    meta = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))["meta"]
    rows = load_ragtruth(resolve_data_dir(data_dir), meta["subset"], split=meta["split"], limit=meta["limit"])
    rows = [r for r in rows if gasp.get(r.id, {}).get("ok") and judge.get(r.id, {}).get("ok")]
    items = []
    for r in rows:
        spans = _judge_by_span(judge[r.id].get("sentence_scores"))
        sentences = []
        for c in gasp[r.id]["claims"]:
            g = c.get("grounding")
            if not g or not c.get("span"):
                continue
            start, end = c["span"]
            feats = [g["gap"], g["jsd_empty"], g["drop"], g["jsd_loo"]]
            sentences.append((start, end, _features(feats, cal, _overlap_score(spans, start, end))))
        items.append((r, sentences))
    return items, gasp, judge


def evaluate(rows, preds: dict[str, dict]) -> dict:
    out = metrics.evaluate_ragtruth(rows, preds)["overall"]
    return {"n": out["n"], **{k: out["answer"][k] for k in ("precision", "recall", "f1")}, "auc": out["auc"],
            "auc_sentence": out["auc_sentence"], "span_f1": out["span"]["f1"]}


def _combined_record(sentences: list, score, threshold: float) -> dict:
    """A prediction record (runner.record's fields that scoring reads) from sentence scores."""
    values = score(np.array([f for _, _, f in sentences])) if sentences else np.zeros(0)
    flagged = [[a, b] for (a, b, _), v in zip(sentences, values) if v > threshold]
    return {"ok": True, "hallucinated": bool(flagged), "score": float(values.max()) if len(values) else 0.0,
            "claim_score": None, "spans": flagged, "phrase_spans": flagged, "claims": [],
            "sentence_scores": [[a, b, float(v)] for (a, b, _), v in zip(sentences, values)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rt4chart bench-combine", description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", required=True, help="a bench run folder with both systems' records (test rows)")
    parser.add_argument("--gasp-system", default="gasp", help="GASP system name in that run (default gasp)")
    parser.add_argument("--judge-system", default="rt4chart", help="RT4CHART system name (default rt4chart)")
    parser.add_argument("--model", default=None, help="GASP scorer (default: the gasp system's)")
    parser.add_argument("--gasp-cache", default="results/gasp-fit", help="gasp-fit's feature cache folder")
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args(argv)
    from rt4chart_lab.bench.systems import SYSTEMS

    model = args.model or SYSTEMS[args.gasp_system].gasp_model
    cal = load_calibration(model)
    x, y, answers = train_set(Path(args.gasp_cache) / f"{model}-k{cal.chunks}.jsonl", args.data_dir, cal)
    w = fit_logistic(x, y)

    def logistic(m: np.ndarray) -> np.ndarray:
        return predict(w, m)

    threshold, f1_train = _answer_threshold(logistic(x), answers)

    # label-free: GASP's risk (minus the sum of the z-scored features) and the judge's score, each
    # standardized over the train sentences, then added
    def parts(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return -m[:, :4].sum(axis=1), m[:, 4]

    stats = [(float(v.mean()), float(v.std()) or 1.0) for v in parts(x)]

    def summed(m: np.ndarray) -> np.ndarray:
        return sum((v - mu) / sd for v, (mu, sd) in zip(parts(m), stats))

    sum_threshold, _ = _answer_threshold(summed(x), answers)

    items, gasp, judge = test_items(Path(args.run), args.gasp_system, args.judge_system, args.data_dir, cal)
    rows = [r for r, _ in items]
    combined = {r.id: _combined_record(sentences, logistic, threshold) for r, sentences in items}
    label_free = {r.id: _combined_record(sentences, summed, sum_threshold) for r, sentences in items}
    table = {f"GASP alone ({args.gasp_system})": evaluate(rows, gasp),
             f"judge alone ({args.judge_system})": evaluate(rows, judge),
             "GASP + judge (logistic, fitted on train)": evaluate(rows, combined),
             "GASP + judge (sum of standardized scores)": evaluate(rows, label_free)}
    names = ["gap", "jsd_empty", "drop", "jsd_loo", "judge 1-P(ENT)", "bias"]
    print(f"fitted on {len(answers)} train answers ({len(y)} sentences, {int(y.sum())} positive): weights "
          + ", ".join(f"{n} {v:+.2f}" for n, v in zip(names, w)) + f"; answer threshold {threshold:.3f} "
          f"(train F1 {f1_train:.3f})")
    print(f"\n### GASP × RT4CHART judge — {Path(args.run).name} ({len(rows)} rows both systems judged)\n")
    print("| system | n | ans P | ans R | ans F1 | AUC | AUC sent | span F1 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    f = lambda v: "n/a" if v is None else f"{v:.3f}"
    for name, m in table.items():
        print(f"| {name} | {m['n']} | {f(m['precision'])} | {f(m['recall'])} | {f(m['f1'])} | {f(m['auc'])} | "
              f"{f(m['auc_sentence'])} | {f(m['span_f1'])} |")
    return 0
