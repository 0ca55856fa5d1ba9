"""``rt4chart bench-changed``: which way each verdict went between two runs of the same rows (the
trained verifier's and ``auto``'s, say), judged by the gold labels.

Per answer: flagged by the second run only (right when the answer is hallucinated), cleared by
the second run only (right when it is faithful). Per claim, where the gold allows it (RAGTruth:
a claim overlapping a gold span is hallucinated; the minimal pairs' one-sentence answers: the
answer's label): ENT → flagged and flagged → ENT, each right or wrong, and CON ↔ NIC.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def read_run(folder: Path, system: str = "rt4chart") -> dict[str, dict]:
    return {r["id"]: r for r in map(json.loads, (folder / f"{system}.jsonl").open()) if r.get("ok")}


def gold_of(dataset: str, data_dir: str | None) -> dict[str, tuple[bool, object]]:
    """Each row id's (hallucinated, the row) for the dataset."""
    if dataset == "pairs":
        from rt4chart_lab.data.pairs import load_pairs, with_question_dropped

        rows = load_pairs()
        rows = rows + with_question_dropped(rows)
    else:
        from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir

        rows = load_ragtruth(resolve_data_dir(data_dir))
    return {r.id: (r.hallucinated, r) for r in rows}


def claim_gold(row: object, claim: dict, hallucinated: bool) -> bool | None:
    labels = getattr(row, "labels", None)
    if labels is None:  # a minimal pair: its answer's label, when the answer is one claim
        return hallucinated
    span = claim.get("span")
    return any(g.overlaps(span[0], span[1]) for g in labels) if span else None


def compare(before: dict[str, dict], after: dict[str, dict], gold: dict[str, tuple[bool, object]]) -> Counter:
    n: Counter = Counter()
    for rid in sorted(set(before) & set(after) & set(gold)):
        hallucinated, row = gold[rid]
        b, a = before[rid], after[rid]
        n["answers"] += 1
        if a["hallucinated"] and not b["hallucinated"]:
            n["answer flagged: right" if hallucinated else "answer flagged: wrong"] += 1
        elif b["hallucinated"] and not a["hallucinated"]:
            n["answer cleared: right" if not hallucinated else "answer cleared: wrong"] += 1
        one_claim = len(a["claims"]) == 1
        for cb, ca in zip(b["claims"], a["claims"]):
            if cb["text"] != ca["text"]:
                n["claims not aligned"] += 1
                continue
            n["claims"] += 1
            if cb["label"] == ca["label"]:
                continue
            truth = claim_gold(row, ca, hallucinated) if (one_claim or hasattr(row, "labels")) else None
            if cb["label"] == "ENT":
                kind = "claim ENT → flagged"
                n[f"{kind}: {'right' if truth else 'wrong' if truth is False else 'gold unknown'}"] += 1
            elif ca["label"] == "ENT":
                kind = "claim flagged → ENT"
                n[f"{kind}: {'right' if truth is False else 'wrong' if truth else 'gold unknown'}"] += 1
            else:
                n[f"claim {cb['label']} → {ca['label']}"] += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart bench-changed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", choices=("pairs", "ragtruth"), required=True)
    ap.add_argument("--before", type=Path, required=True, help="a run folder (with rt4chart.jsonl)")
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--data-dir", default=None)
    args = ap.parse_args(argv)
    n = compare(read_run(args.before), read_run(args.after), gold_of(args.dataset, args.data_dir))
    print(f"| {args.before.name} → {args.after.name} | count |\n|---|---|")
    for key in sorted(n, key=lambda k: (not k.startswith("answer"), k)):
        print(f"| {key} | {n[key]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
