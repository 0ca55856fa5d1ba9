"""``rt4chart bench-reader``: the cheap read (:mod:`rt4chart_plugins.judges.llama.premise_read`) on
the team's minimal pairs, every answer sentence against the premise the trained judge picks.

An answer is CON if a sentence is CON, else NIC if one is NIC, else ENT. Prints the pairs' two
numbers (3-way label accuracy, hallucinated vs faithful) for the fixed decision (support ≥ 0.5 →
ENT; else compatible < 0.5 → CON, else NIC) and writes each row's raw readings (``--out``) so that
other decisions can be read off them without the model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rt4chart_lab.data.pairs import load_pairs

SUPPORT = 0.5
COMPATIBLE = 0.5


def sentence_label(p_support: float, p_compatible: float, *, support: float = SUPPORT,
                   compatible: float = COMPATIBLE) -> str:
    if p_support >= support:
        return "ENT"
    return "CON" if p_compatible < compatible else "NIC"


def answer_label(labels: list[str]) -> str:
    """The worst sentence's label: CON over NIC over ENT (ENT for an answer with no sentence)."""
    return "CON" if "CON" in labels else "NIC" if "NIC" in labels else "ENT"


def score(rows: list[dict], **thresholds: float) -> dict:
    """Label accuracy and hallucinated-vs-faithful accuracy of the rows' readings."""
    label = binary = 0
    for r in rows:
        pred = answer_label([sentence_label(s["p_support"], s["p_compatible"], **thresholds) for s in r["sentences"]])
        label += pred == r["gold"]
        binary += (pred != "ENT") == (r["gold"] != "ENT")
    n = len(rows)
    return {"n": n, "label_accuracy": label / n if n else None, "binary_accuracy": binary / n if n else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart bench-reader", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="JSONL of every row's readings (appended, resumable)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--model-path", default=None)
    ap.add_argument("--report", action="store_true", help="score the rows already in --out, read none")
    ap.add_argument("--every", type=int, default=1,
                    help="read every Nth pair group only (both rows of each group): a subset for a busy machine")
    args = ap.parse_args(argv)
    from rt4chart_plugins.judges.llama.premise_read import PremiseReader, premise_for
    from rt4chart_plugins.pipeline.segment import segment_answer, segment_context

    done: dict[str, dict] = {}
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            try:
                d = json.loads(line)
                done[d["id"]] = d
            except (ValueError, KeyError):
                continue
    reader = PremiseReader(args.model_path, n_threads=args.threads)  # loaded on the first read
    groups = list(dict.fromkeys(r.pair for r in load_pairs()))
    chosen = set(groups[:: args.every])
    with args.out.open("a", encoding="utf-8") as fh:
        for row in load_pairs(limit=args.limit):
            if args.report or row.id in done or row.pair not in chosen:
                continue
            start, cpu = time.monotonic(), time.process_time()
            context = [s.text for s in segment_context(row.context)]
            sentences = []
            for s in segment_answer(row.answer):
                rd = reader.read(s.text, premise_for(context, s.text, row.question))
                sentences.append({"text": s.text, "p_support": rd.p_support, "p_compatible": rd.p_compatible})
            d = {"id": row.id, "category": row.category, "gold": row.label, "sentences": sentences,
                 "seconds": round(time.monotonic() - start, 2), "cpu_seconds": round(time.process_time() - cpu, 2)}
            fh.write(json.dumps(d) + "\n")
            fh.flush()
            done[row.id] = d
            print(f"{row.id} {row.label} {answer_label([sentence_label(x['p_support'], x['p_compatible']) for x in sentences])} "
                  f"{d['seconds']} s ({d['cpu_seconds']} s CPU)", flush=True)
    pair_of = {r.id: r.pair for r in load_pairs(limit=args.limit)}
    rows = [d for d in done.values() if pair_of.get(d["id"]) in chosen]
    print(report(rows))
    return 0


def auc(scores: list[float], positive: list[bool]) -> float | None:
    """P(a positive scores above a negative), ties half."""
    pos = [s for s, p in zip(scores, positive) if p]
    neg = [s for s, p in zip(scores, positive) if not p]
    if not pos or not neg:
        return None
    return sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))


def report(rows: list[dict]) -> str:
    """The fixed decision's numbers, the support reading's AUC (hallucinated against faithful, the
    answer's least supported sentence), and the best support threshold on these rows (fitted on
    the rows it is read on: an upper bound, not a result)."""
    if not rows:
        return "no rows"
    m = score(rows)
    secs = sorted(r["seconds"] for r in rows)
    cpu = sorted(r.get("cpu_seconds", r["seconds"]) for r in rows)
    lowest = [1 - min((s["p_support"] for s in r["sentences"]), default=1.0) for r in rows]
    hallucinated = [r["gold"] != "ENT" for r in rows]
    best = max(((score(rows, support=t / 100), t / 100) for t in range(5, 100, 5)),
               key=lambda x: (x[0]["binary_accuracy"], x[0]["label_accuracy"]))
    a = auc(lowest, hallucinated)
    return "\n".join([
        f"rows {m['n']} ({sum(hallucinated)} hallucinated): support >= {SUPPORT}, compatible < {COMPATIBLE} -> CON:",
        f"  label accuracy {m['label_accuracy']:.3f}, hallucinated vs faithful {m['binary_accuracy']:.3f}",
        f"  AUC of 1 - P(support), hallucinated vs faithful: {a:.3f}" if a is not None else "  AUC: n/a",
        f"  best support threshold on these rows {best[1]:.2f}: label accuracy {best[0]['label_accuracy']:.3f}, "
        f"hallucinated vs faithful {best[0]['binary_accuracy']:.3f}",
        f"  seconds a row: median {secs[len(secs) // 2]:.1f} wall, {cpu[len(cpu) // 2]:.1f} CPU",
    ])


if __name__ == "__main__":
    sys.exit(main())
