"""``rt4chart bench-gate``: what the ``auto`` judge's gate sends to the embedded LLM, with no LLM run.

The gate reads only the trained verifier's measurements (``judge="auto"`` with ``budget=0`` computes
every claim's gate P and reads none), so its recall and its share are cheap to measure on whole sets:

- **recall**: the share of hallucinated answers with at least one claim sent (a hallucination the
  gate never sends is one the LLM cannot catch, unless the verifier flagged it already: the
  second column counts those the verifier passed);
- **faithful sent**: the share of faithful answers with a claim sent (the LLM's seconds spent where
  it can only clear or wrongly flag);
- **claims sent**: the share of all claims, what the LLM's cost follows.

On the minimal pairs (all items, with their questions), a seeded sample of each ``extra/`` set, and
RAGTruth test-150, where a claim is hallucinated when it overlaps a gold span.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field

from rt4chart_lab.data.datasets import EXTRA_SETS, load_extra, load_ragtruth, resolve_data_dir
from rt4chart_lab.data.pairs import load_pairs

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6)


@dataclass
class Tally:
    """Per answer: hallucinated (gold), flagged by the verifier alone, the gate P of each claim."""

    answers: list[tuple[bool, bool, list[float]]] = field(default_factory=list)
    claims: list[tuple[bool | None, float]] = field(default_factory=list)  # (hallucinated, gate P); None: unknown

    def row(self, name: str, t: float) -> str:
        halluc = [a for a in self.answers if a[0]]
        missed = [a for a in halluc if not a[1]]
        faithful = [a for a in self.answers if not a[0]]

        def sent(rows: list) -> str:
            return f"{sum(any(p >= t for p in a[2]) for a in rows) / len(rows):.2f}" if rows else "–"

        gold = [c for c in self.claims if c[0] is not None]
        claim_recall = (f"{sum(p >= t for h, p in gold if h) / max(1, sum(1 for h, _ in gold if h)):.2f}"
                        if any(h for h, _ in gold) else "–")
        share = sum(p >= t for _, p in self.claims) / max(1, len(self.claims))
        return (f"| {name} | {t:.1f} | {len(self.answers)} | {sent(halluc)} | {sent(missed)} ({len(missed)}) "
                f"| {sent(faithful)} | {claim_recall} | {share:.2f} |")


def tally(rows, verifier, *, spans: bool = False) -> Tally:
    out = Tally()
    for row in rows:
        inp = row.verify_input()
        report = verifier.verify(inp["context"], inp["answer"], question=inp.get("question"))
        if report.state != "verified":
            continue
        gates = [c.signals.reader.gate for c in report.claims if c.signals and c.signals.reader]
        out.answers.append((row.hallucinated, report.hallucinated, gates))
        for c in report.claims:
            if not (c.signals and c.signals.reader):
                continue
            hit = None
            if spans and c.answer_span is not None:
                hit = any(g.overlaps(c.answer_span.start, c.answer_span.end) for g in row.labels)
            out.claims.append((hit, c.signals.reader.gate))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart bench-gate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default=None)
    ap.add_argument("--extra-rows", type=int, default=200, help="a seeded sample of N rows of each extra/ set")
    ap.add_argument("--subset", default="test-150", help="RAGTruth rows (default test-150)")
    ap.add_argument("--split", default=None, help="RAGTruth: keep only rows of this split (train: to choose on)")
    ap.add_argument("--limit", type=int, default=None, help="RAGTruth: a seeded sample of N of the selected rows")
    ap.add_argument("--sets", default="pairs,extra,ragtruth", help="comma-separated: pairs, extra, ragtruth")
    args = ap.parse_args(argv)
    from rt4chart_plugins import Verifier

    verifier = Verifier("auto", judge_kwargs={"budget": 0.0, "cache": False})
    root = resolve_data_dir(args.data_dir)
    chosen = set(args.sets.split(","))
    sets = {"minimal pairs": tally(load_pairs(), verifier)} if "pairs" in chosen else {}
    for name in EXTRA_SETS if "extra" in chosen else ():
        sets[name] = tally(load_extra(root, name, limit=args.extra_rows), verifier)
    if "ragtruth" in chosen:
        rows = load_ragtruth(root, None if args.subset == "all" else args.subset, split=args.split)
        if args.limit is not None:  # a seeded sample, so that every task type is in it
            rows = random.Random(0).sample(rows, min(args.limit, len(rows)))
        sets[f"RAGTruth {args.subset}{' ' + args.split if args.split else ''}"] = tally(rows, verifier, spans=True)
    print("| set | gate threshold | answers | hallucinated sent | of them passed by the verifier (n) "
          "| faithful sent | hallucinated claims sent | claims sent |")
    print("|---|---|---|---|---|---|---|---|")
    for name, t in sets.items():
        for threshold in THRESHOLDS:
            print(t.row(name, threshold))
    return 0


if __name__ == "__main__":
    sys.exit(main())
