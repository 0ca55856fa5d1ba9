"""Scoring of the first-user set (:mod:`rt4chart_lab.data.first_user`): per group, the share of
answers a system gets right, where right means flagged for a hallucinated group and not flagged for
a faithful one.

An answer is **flagged** when its label is neither ENT nor absent: CON or NIC. An answer with no
claims (state ``no_claims``, a pure abstention) is not flagged. A row that could not be judged
counts as wrong in either direction, as on the minimal pairs: failing never helps a system.
"""

from __future__ import annotations

from collections.abc import Sequence

from rt4chart_lab.data.first_user import FAITHFUL, GROUPS, HALLUCINATED, INVENTED
from rt4chart_lab.metrics import cost_stats

#: what the predicted answer is read as, in the confusion table's column order
PREDICTED = ("ENT", "CON", "NIC", "no_claims", "unjudged")
#: the default judge's targets (hallucinated-vs-faithful and per group), shown beside the shares
TARGETS = {"invented facts caught": 0.95, "abstention": 0.95, "abstention_then_assertion": 0.95,
           "paraphrase": 0.85, "hallucinated vs faithful": 0.90}


def predicted(rec: dict | None) -> str:
    """The record's answer as one of :data:`PREDICTED`."""
    if rec is None or not rec.get("ok"):
        return "unjudged"
    if rec.get("state") == "no_claims":
        return "no_claims"
    return rec.get("label") or "no_claims"


def is_flagged(rec: dict | None) -> bool | None:
    """True when flagged (CON or NIC), False when not (ENT or no claims), None when unjudged."""
    p = predicted(rec)
    return None if p == "unjudged" else p in ("CON", "NIC")


def _share(right: int, n: int) -> dict:
    return {"n": n, "right": right, "share": right / n if n else None}


def evaluate_first_user(rows: Sequence, preds: dict[str, dict]) -> dict:
    """Per group the share right, the invented facts caught (the five invented groups together),
    hallucinated-vs-faithful accuracy and balanced accuracy over every row, the confusion of gold
    and predicted labels, and the cost, with answers per second of judging."""
    right_of: dict[str, bool] = {}
    by_group: dict[str, dict] = {}
    confusion: dict[str, dict[str, int]] = {}
    for r in rows:
        rec = preds.get(r.id)
        flagged = is_flagged(rec)
        right = flagged is not None and flagged == r.hallucinated
        right_of[r.id] = right
        g = by_group.setdefault(r.group, {"n": 0, "right": 0, "predicted": dict.fromkeys(PREDICTED, 0)})
        g["n"] += 1
        g["right"] += right
        g["predicted"][predicted(rec)] += 1
        confusion.setdefault(r.label, dict.fromkeys(PREDICTED, 0))[predicted(rec)] += 1
    for g in by_group.values():
        g["share"] = g["right"] / g["n"]

    def over(groups: Sequence[str]) -> dict:
        chosen = [r for r in rows if r.group in groups]
        return _share(sum(right_of[r.id] for r in chosen), len(chosen))

    hallucinated, faithful = over(HALLUCINATED), over(FAITHFUL)
    recs = [preds[r.id] for r in rows if r.id in preds]
    cost = cost_stats(recs)
    seconds = sum(float((rec.get("cost") or {}).get("seconds") or 0.0) for rec in recs)
    cost["answers_per_s"] = len(recs) / seconds if seconds > 0 else None
    return {
        "n": len(rows),
        "unjudged": sum(1 for r in rows if predicted(preds.get(r.id)) == "unjudged"),
        "invented_caught": over(INVENTED),
        "hallucinated_flagged": hallucinated,
        "faithful_kept": faithful,
        "binary_accuracy": _share(hallucinated["right"] + faithful["right"], len(rows))["share"],
        "balanced_accuracy": (hallucinated["share"] + faithful["share"]) / 2
        if hallucinated["n"] and faithful["n"] else None,
        "by_group": {g: by_group[g] for g in GROUPS if g in by_group},
        "confusion": confusion,
        "cost": cost,
    }
