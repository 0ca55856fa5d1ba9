"""What each deterministic rule family still adds on top of a trained verifier: its marginal
catches and false alarms.

``python -m rt4chart_lab.bench.rule_families [--artifact DIR] [--limit N]`` runs the default
pipeline (``Verifier()``, the trained judge with every rule on) over the team's minimal pairs,
SummEdits and RAGTruth **train** rows (never test rows), then once more per family with that family
alone switched off: the contrast rule's kinds (negation, quantifier, modality, direction, roles,
quantity, opposite), the record checks (yes/no fields and opening hours, both the contradictions
they raise and the support they confirm), and the pipeline's fact check (a number or name the
context lacks). A family's marginal effect is what changes when it alone is off:

- pairs and SummEdits, per answer: answers it turns hallucinated whose gold is hallucinated
  (catches) or faithful (false alarms), and answers it turns faithful (their gold, likewise);
- RAGTruth train, per claim: claims it turns unsupported that overlap a gold span (catches) or
  not (false alarms).

Precision = catches / (catches + false alarms). A family that changes nothing on any set is dead
weight for that encoder. The switch works by wrapping the rules' entry points, so the product's
code is measured as it ships.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

from rt4chart_plugins import Verifier
from rt4chart_plugins.judges.trained import TrainedJudge
from rt4chart_plugins.rules.contrast.align import Contrasts
from rt4chart_plugins.rules.records.checks import RecordChecks
from rt4chart_plugins.types import Label, Report
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_lab.data.pairs import load_pairs

CONTRAST_KINDS = ("negation", "quantifier", "modality", "direction", "roles", "quantity", "opposite")
FAMILIES = (*(f"contrast:{k}" for k in CONTRAST_KINDS), "records", "facts")


@contextlib.contextmanager
def without(family: str | None) -> Iterator[dict]:
    """The product's rules with ``family`` switched off (None: all on); yields the Verifier options."""
    find, read = Contrasts.find, RecordChecks.read
    if family and family.startswith("contrast:"):
        kind = family.split(":", 1)[1]

        def filtered(self, claim):  # noqa: ANN001 - the wrapped method's own signature
            found = find(self, claim)
            return None if found is not None and found.kind == kind else found

        Contrasts.find = filtered
    elif family == "records":
        RecordChecks.read = lambda self, claim: ([], None)
    try:
        yield {"fact_check": family != "facts"}
    finally:
        Contrasts.find, RecordChecks.read = find, read


def _rows(data_dir: Path, limit: int | None) -> dict[str, list[dict]]:
    """Per set: rows with ``context``, ``question``, ``answer`` and their gold (``hallucinated``
    per answer; ``spans`` per character for RAGTruth)."""
    pairs = [{"id": r.id, "context": r.context, "question": r.question, "answer": r.answer,
              "hallucinated": r.hallucinated} for r in load_pairs(limit=limit)]
    with open(data_dir / "extra" / "summedits" / "summedits.jsonl", encoding="utf-8") as fh:
        summedits = [{"id": d["id"], "context": d["context"], "question": None, "answer": d["answer"],
                      "hallucinated": bool(d["hallucinated"])} for d in map(json.loads, fh)]
    ragtruth = [{"id": r.id, "context": r.context, "question": r.question, "answer": r.answer,
                 "hallucinated": bool(r.labels), "spans": [(g.start, g.end) for g in r.labels]}
                for r in load_ragtruth(data_dir, split="train")]
    # a seeded sample of each, not the first rows: both files are sorted by source
    sample = lambda rows: random.Random(0).sample(rows, min(limit, len(rows))) if limit else rows  # noqa: E731
    return {"pairs": pairs, "summedits": sample(summedits), "ragtruth-train": sample(ragtruth)}


def _labels(reports: list[Report]) -> list[list[Label | None]]:
    return [[c.label for c in r.claims] for r in reports]


def _run(verifier_of, rows: list[dict], family: str | None) -> list[Report]:
    with without(family) as options:
        verifier = verifier_of(options)
        return [verifier.verify(context=r["context"], question=r["question"], answer=r["answer"]) for r in rows]


def marginal(rows: list[dict], on: list[Report], off: list[Report], *, per_claim: bool) -> collections.Counter:
    """What switching a family on changes, from ``off`` (the family off) to ``on`` (all rules)."""
    out: collections.Counter = collections.Counter()
    for row, a, b in zip(rows, on, off):
        if per_claim:
            for ca, cb in zip(a.claims, b.claims):
                if (ca.label == Label.ENT) == (cb.label == Label.ENT):
                    continue
                span = ca.answer_span
                gold = bool(span) and any(s < span.end and span.start < e for s, e in row["spans"])
                flagged = ca.label not in (Label.ENT, None)
                out[("catch" if gold else "false alarm") if flagged else ("miss" if gold else "rescue")] += 1
        elif a.hallucinated != b.hallucinated:
            gold = row["hallucinated"]
            out[("catch" if gold else "false alarm") if a.hallucinated else ("miss" if gold else "rescue")] += 1
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifact", type=Path, help="a trained artifact (default: the packaged one)")
    parser.add_argument("--data-dir")
    parser.add_argument("--limit", type=int, default=300, help="rows per set (default 300)")
    args = parser.parse_args(argv)
    judge = TrainedJudge(args.artifact)
    judge.prepare()

    def verifier_of(options: dict) -> Verifier:
        return Verifier(judge=judge, **options)

    sets = _rows(resolve_data_dir(args.data_dir), args.limit)
    print(f"judge {judge.name}; "
          f"rows: {', '.join(f'{k} {len(v)}' for k, v in sets.items())}\n")
    print("| family | " + " | ".join(f"{name} catches / false alarms (precision); rescues / misses"
                                      for name in sets) + " |")
    print("|---|" + "---|" * len(sets))
    baseline = {name: _run(verifier_of, rows, None) for name, rows in sets.items()}
    for family in FAMILIES:
        cells = []
        for name, rows in sets.items():
            c = marginal(rows, baseline[name], _run(verifier_of, rows, family), per_claim=name == "ragtruth-train")
            fired = c["catch"] + c["false alarm"]
            precision = f"{c['catch'] / fired:.2f}" if fired else "–"
            cells.append(f"{c['catch']} / {c['false alarm']} ({precision}); {c['rescue']} / {c['miss']}")
        print(f"| {family} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
