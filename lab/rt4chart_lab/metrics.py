"""Scoring, as pure functions over gold rows and per-row prediction records.

A prediction record is one line of ``results/<run>/<system>.jsonl`` (see ``runner.record``):
``ok``, ``hallucinated``, ``score`` (higher = more likely hallucinated), ``claim_score``,
``spans``/``phrase_spans`` (``[[start, end], ...]`` into the answer), ``claims`` and ``cost``.

A row that could not be judged (``ok`` false, or no record) is scored as *not flagged*: no
hallucination, no spans, score 0. It is also counted in ``unjudged``, so a system cannot look
better by failing.

Undefined ratios are ``None`` (shown as "n/a"): precision with no predicted positives, recall with
no gold positives, AUC with only one class. F1 is computed as 2TP / (2TP + FP + FN), which equals
the harmonic mean of P and R whenever both exist and is 0 when there are gold positives but no
predictions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from rt4chart_lab.data.datasets import RagTruthRow, WiceRow
from rt4chart_lab.intervals import bootstrap, con_nic_balanced

NOT_FLAGGED: dict = {"ok": False, "hallucinated": False, "score": 0.0, "claim_score": None, "spans": [],
                     "phrase_spans": [], "claims": [], "label": None}


def prf(tp: int, fp: int, fn: int) -> dict:
    return {
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "f1": 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None,
        "tp": tp, "fp": fp, "fn": fn,
    }


def auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """ROC AUC by the rank-sum (Mann–Whitney) formula; tied scores get their average rank, so a
    tie between a positive and a negative counts one half. None when a class is absent."""
    n = len(scores)
    pos = sum(1 for y in labels if y)
    neg = n - pos
    if pos == 0 or neg == 0:
        return None
    order = sorted(range(n), key=lambda k: scores[k])
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(r for r, y in zip(ranks, labels) if y)
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def char_set(spans: Iterable) -> set[int]:
    """The union of half-open ranges (``(start, end)`` pairs or objects with ``start``/``end``)."""
    out: set[int] = set()
    for s in spans:
        start, end = (s.start, s.end) if hasattr(s, "start") else (s[0], s[1])
        out.update(range(start, end))
    return out


def span_counts(gold: Iterable, pred: Iterable) -> tuple[int, int, int]:
    """(TP, FP, FN) in characters for one sample: |G ∩ P|, |P \\ G|, |G \\ P| over the unions."""
    g, p = char_set(gold), char_set(pred)
    return len(g & p), len(p - g), len(g - p)


def answer_level(gold: Sequence[bool], pred: Sequence[bool]) -> dict:
    tp = sum(1 for g, p in zip(gold, pred) if g and p)
    fp = sum(1 for g, p in zip(gold, pred) if p and not g)
    fn = sum(1 for g, p in zip(gold, pred) if g and not p)
    return prf(tp, fp, fn)


def span_level(pairs: Iterable[tuple[Iterable, Iterable]]) -> dict:
    """Micro P/R/F1: TP/FP/FN summed over samples, each from its (gold spans, predicted spans)."""
    tp = fp = fn = 0
    for gold, pred in pairs:
        a, b, c = span_counts(gold, pred)
        tp, fp, fn = tp + a, fp + b, fn + c
    return prf(tp, fp, fn)


def _pred(preds: dict[str, dict], row_id: str) -> dict:
    rec = preds.get(row_id)
    return rec if rec is not None and rec.get("ok") else NOT_FLAGGED


def span_labels(row: RagTruthRow, rec: dict) -> list[tuple[str, str]]:
    """For each gold span, (its kind, conflict or baseless; the label of the claims whose answer
    sentence overlaps it: CON if any is CON, else NIC if any is NIC, else ENT; ``none`` when no
    judged claim overlaps it or the row could not be judged)."""
    out = []
    for g in row.labels:
        labels = {c["label"] for c in rec["claims"] if c.get("label") and c.get("span") and g.overlaps(*c["span"])}
        out.append((g.kind, next((lab for lab in ("CON", "NIC", "ENT") if lab in labels), "none")))
    return out


def confusion(rows: Sequence[RagTruthRow], preds: dict[str, dict]) -> dict[str, dict[str, int]]:
    """Gold span kind × the label of its overlapping claims (see :func:`span_labels`), counted."""
    out = {kind: {"CON": 0, "NIC": 0, "ENT": 0, "none": 0} for kind in ("conflict", "baseless")}
    for row in rows:
        for kind, got in span_labels(row, _pred(preds, row.id)):
            out[kind][got] += 1
    return out


def typed_counts(row: RagTruthRow, rec: dict) -> tuple[int, int, int, int]:
    """(Conflict spans called CON, Conflict spans flagged, Baseless spans called NIC, Baseless spans
    flagged): the inputs of :func:`~rt4chart_lab.intervals.con_nic_balanced`."""
    pairs = span_labels(row, rec)
    flagged = [(k, got) for k, got in pairs if got in ("CON", "NIC")]
    return (sum(1 for k, got in flagged if k == "conflict" and got == "CON"),
            sum(1 for k, _ in flagged if k == "conflict"),
            sum(1 for k, got in flagged if k == "baseless" and got == "NIC"),
            sum(1 for k, _ in flagged if k == "baseless"))


def cost_stats(records: Sequence[dict]) -> dict:
    """Per-sample cost over the rows that were run (judged or not): seconds median / p90, mean
    judge calls and tokens."""
    recs = [r for r in records if r.get("cost")]
    if not recs:
        return {"n": 0, "seconds_median": None, "seconds_p90": None, "judge_calls_mean": None,
                "tokens_mean": None, "prompt_tokens_mean": None, "completion_tokens_mean": None,
                "naive_calls_mean": None}
    secs = np.array([r["cost"].get("seconds", 0.0) for r in recs], dtype=float)

    def mean(key: str) -> float | None:  # None where a system does not report it (framework metrics)
        values = [r["cost"][key] for r in recs if r["cost"].get(key) is not None]
        return float(np.mean(values)) if len(values) == len(recs) else None

    prompt, completion = mean("prompt_tokens"), mean("completion_tokens")
    return {
        "n": len(recs),
        "seconds_median": float(np.median(secs)),
        "seconds_p90": float(np.percentile(secs, 90)),
        "judge_calls_mean": mean("judge_calls"),
        "tokens_mean": prompt + completion if prompt is not None and completion is not None else None,
        "prompt_tokens_mean": prompt,
        "completion_tokens_mean": completion,
        "naive_calls_mean": float(np.mean([r["naive_calls"] for r in recs]))
        if all(r.get("naive_calls") is not None for r in recs) else None,
    }


def _ragtruth_block(rows: Sequence[RagTruthRow], preds: dict[str, dict]) -> dict:
    p = [_pred(preds, r.id) for r in rows]
    gold = [r.hallucinated for r in rows]
    claim_scores = [x.get("claim_score") for x in p]
    per_row_spans = [span_counts(r.labels, x["spans"]) for r, x in zip(rows, p)]
    typed = [typed_counts(r, x) for r, x in zip(rows, p)]
    return {
        "n": len(rows),
        "positives": sum(gold),
        "unjudged": sum(1 for r in rows if not (preds.get(r.id) or {}).get("ok")),
        "answer": answer_level(gold, [bool(x["hallucinated"]) for x in p]),
        "auc": auc([float(x["score"]) for x in p], gold),
        # only when every judged row carries claim probabilities (the embedded judge's logits)
        "auc_claim": auc([float(s) for s in claim_scores], gold)
        if all(s is not None for s in claim_scores) else None,
        "auc_sentence": sentence_auc(rows, preds),
        "span": prf(*(int(sum(c[i] for c in per_row_spans)) for i in range(3))),
        "phrase_span": span_level((r.labels, x["phrase_spans"]) for r, x in zip(rows, p)),
        "con_nic_balanced": con_nic_balanced(*(sum(t[i] for t in typed) for i in range(4))),
        "intervals": bootstrap(rows, p, per_row_spans, typed),
    }


def sentence_auc(rows: Sequence[RagTruthRow], preds: dict[str, dict]) -> float | None:
    """Span-level AUC at sentence granularity (GASP's protocol): every scored answer sentence is
    one item, positive when it overlaps a gold span. Only when every judged row carries sentence
    scores (GASP, or a judge with label probabilities)."""
    scores: list[float] = []
    gold: list[bool] = []
    for r in rows:
        rec = _pred(preds, r.id)
        if not rec.get("ok"):
            continue
        sentences = rec.get("sentence_scores")
        if sentences is None:
            return None
        for start, end, value in sentences:
            scores.append(float(value))
            gold.append(any(g.overlaps(start, end) for g in r.labels))
    return auc(scores, gold) if scores else None


def evaluate_ragtruth(rows: Sequence[RagTruthRow], preds: dict[str, dict]) -> dict:
    """Overall and per task type: answer P/R/F1, AUC, span micro P/R/F1 (sentence and phrase
    spans), the conflict-vs-baseless confusion and the cost."""
    by_task = {t: [r for r in rows if r.task_type == t] for t in sorted({r.task_type for r in rows})}
    return {
        "overall": _ragtruth_block(rows, preds),
        "by_task": {t: _ragtruth_block(rs, preds) for t, rs in by_task.items()},
        "confusion": confusion(rows, preds),
        "cost": cost_stats([preds[r.id] for r in rows if r.id in preds]),
    }


def evaluate_wice(rows: Sequence[WiceRow], preds: dict[str, dict]) -> dict:
    """Label accuracy (supported → ENT, not_supported → CON/NIC), the predicted-label mix on
    partially supported claims, and evidence-sentence P/R/F1 (micro, over context sentence ids)
    on supported claims."""
    def label(r: WiceRow) -> str:
        return _pred(preds, r.id).get("label") or "none"

    decided = [r for r in rows if r.label in ("supported", "not_supported")]
    correct = sum(1 for r in decided if (label(r) == "ENT") == (r.label == "supported") and label(r) != "none")
    by_gold: dict[str, dict[str, int]] = {}
    for r in rows:
        mix = by_gold.setdefault(r.label, {"ENT": 0, "CON": 0, "NIC": 0, "none": 0})
        mix[label(r)] += 1
    supported = [r for r in rows if r.label == "supported"]
    evidence = span_level(
        ([(i, i + 1) for i in r.evidence_sentence_ids], [(i, i + 1) for i in _pred(preds, r.id).get("evidence", [])])
        for r in supported
    )
    return {
        "n": len(rows),
        "unjudged": sum(1 for r in rows if not (preds.get(r.id) or {}).get("ok")),
        "label_accuracy": correct / len(decided) if decided else None,
        "label_accuracy_n": len(decided),
        "labels_by_gold": by_gold,
        "evidence": evidence,
        "evidence_n": len(supported),
        "cost": cost_stats([preds[r.id] for r in rows if r.id in preds]),
    }


def evaluate_pairs(rows: Sequence, preds: dict[str, dict]) -> dict:
    """The minimal pairs: 3-way label accuracy, hallucinated-vs-faithful accuracy, both per
    category, the confusion of gold and predicted labels, and, for rows run with and without their
    question (``<id>-noq``), how often the label stays the same. An unjudged row counts as wrong."""
    def label(row_id: str) -> str:
        return _pred(preds, row_id).get("label") or "none"

    main = [r for r in rows if not r.id.endswith("-noq")]
    confusion: dict[str, dict[str, int]] = {g: {p: 0 for p in ("ENT", "CON", "NIC", "none")} for g in ("ENT", "CON", "NIC")}
    by_cat: dict[str, dict] = {}
    for r in main:
        p = label(r.id)
        confusion[r.label][p] += 1
        c = by_cat.setdefault(r.category, {"n": 0, "label_correct": 0, "binary_correct": 0})
        c["n"] += 1
        c["label_correct"] += p == r.label
        c["binary_correct"] += p != "none" and (p != "ENT") == r.hallucinated
    for c in by_cat.values():
        c["label_accuracy"] = c["label_correct"] / c["n"]
        c["binary_accuracy"] = c["binary_correct"] / c["n"]
    n = len(main)
    twins = [(r.id, r.id[:-4]) for r in rows if r.id.endswith("-noq")]
    same = sum(1 for a, b in twins if label(a) == label(b) and label(a) != "none")
    return {
        "n": n,
        "unjudged": sum(1 for r in main if not (preds.get(r.id) or {}).get("ok")),
        "label_accuracy": sum(c["label_correct"] for c in by_cat.values()) / n if n else None,
        "binary_accuracy": sum(c["binary_correct"] for c in by_cat.values()) / n if n else None,
        "worst_category": min(by_cat, key=lambda k: by_cat[k]["label_accuracy"]) if by_cat else None,
        "by_category": dict(sorted(by_cat.items())),
        "confusion": confusion,
        "question_pairs": len(twins),
        "question_invariance": same / len(twins) if twins else None,
        "cost": cost_stats([preds[r.id] for r in main if r.id in preds]),
    }
