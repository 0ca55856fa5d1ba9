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
    reader = PremiseReader(args.model_path, n_threads=args.threads)
    reader.load()
    with args.out.open("a", encoding="utf-8") as fh:
        groups = list(dict.fromkeys(r.pair for r in load_pairs()))
        chosen = set(groups[:: args.every])
        for row in load_pairs(limit=args.limit):
            if row.id in done or row.pair not in chosen:
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
    m = score(rows)
    secs = sorted(r["seconds"] for r in rows)
    cpu_secs = sorted(r.get("cpu_seconds", r["seconds"]) for r in rows)
    print(f"rows {m['n']}: label accuracy {m['label_accuracy']:.3f}, hallucinated vs faithful "
          f"{m['binary_accuracy']:.3f}, median {secs[len(secs) // 2]:.2f} s a row "
          f"({cpu_secs[len(cpu_secs) // 2]:.2f} s CPU)" if rows else "no rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
