"""Threshold sweep over recorded predictions: what the decision threshold on P(ENT) buys.

The embedded judge records P(ENT) for every claim, so the support threshold can be tuned from one
benchmark run without asking the judge again: a claim counts as unfaithful when P(ENT) < t or when
the deterministic fact check flags it. Only **train** rows may be used; the command refuses others.

    python -m rt4chart_lab.bench.tune results/<run>/<system>.jsonl [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_lab.metrics import answer_level, span_level

THRESHOLDS = [round(0.30 + 0.05 * i, 2) for i in range(11)]  # 0.30 … 0.80


def sweep(records: list[dict], rows: dict, *, fact_check: bool = True) -> list[dict]:
    """Answer- and span-level scores for each threshold, plus the fact check alone."""
    out = []
    for t in THRESHOLDS:
        gold, pred, span_pairs = [], [], []
        for rec in records:
            row = rows[rec["id"]]
            flagged = []
            for c in rec.get("claims") or []:
                p = c.get("p_ent")
                weak = p is not None and p < t
                fact = fact_check and bool(unsupported_facts(c["text"], row.context, row.question))
                if c.get("judged", True) and (weak or fact) and c.get("span"):
                    flagged.append(tuple(c["span"]))
            gold.append(row.hallucinated)
            pred.append(bool(flagged))
            span_pairs.append(([(s.start, s.end) for s in row.labels], flagged))
        ans = answer_level(gold, pred)
        spans = span_level(span_pairs)
        out.append({"threshold": t, **{f"ans_{k}": v for k, v in ans.items()},
                    **{f"span_{k}": v for k, v in spans.items()}})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rt4chart_lab.bench.tune", description=__doc__.split("\n\n")[0])
    parser.add_argument("predictions", type=Path, help="a <system>.jsonl written by rt4chart bench")
    parser.add_argument("--data-dir")
    parser.add_argument("--no-fact-check", action="store_true")
    args = parser.parse_args(argv)
    records = [json.loads(line) for line in args.predictions.read_text().splitlines() if line.strip()]
    records = [r for r in records if r.get("ok")]
    rows = {r.id: r for r in load_ragtruth(resolve_data_dir(args.data_dir))}
    not_train = [r["id"] for r in records if rows[r["id"]].split != "train"]
    if not_train:
        print(f"refusing to tune on {len(not_train)} non-train rows (e.g. {not_train[0]}): test rows are for reporting",
              file=sys.stderr)
        return 2
    print(f"{len(records)} train rows, fact check {'off' if args.no_fact_check else 'on'}")
    print("| t | ans P | ans R | ans F1 | span P | span R | span F1 |")
    print("|---|---|---|---|---|---|---|")
    fmt = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
    for r in sweep(records, rows, fact_check=not args.no_fact_check):
        print(f"| {r['threshold']:.2f} | {fmt(r['ans_precision'])} | {fmt(r['ans_recall'])} | {fmt(r['ans_f1'])} | "
              f"{fmt(r['span_precision'])} | {fmt(r['span_recall'])} | {fmt(r['span_f1'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
