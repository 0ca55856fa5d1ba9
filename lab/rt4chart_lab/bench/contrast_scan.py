"""Where the contrast rule fires on human-labelled data, with no judge: its precision where it matters.

``python -m rt4chart_lab.bench.contrast_scan`` compares every answer sentence of the RAGTruth
train rows with its whole context (the rule's own alignment picks the sentence) and counts the
sentences it calls contradicted, by their gold label (faithful, or overlapping a Conflict or a
Baseless span); then does the same per SummEdits summary (answer level: consistent or not).
RAGTruth test rows are not read. ``--limit N`` takes the first N rows of each set.
"""

from __future__ import annotations

import argparse
import collections
import json

from rt4chart_plugins.pipeline.segment import segment_answer, segment_context
from rt4chart_plugins.rules.contrast import Contrasts
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir


def scan_ragtruth(data_dir, limit: int | None) -> collections.Counter:
    """(gold kind of the sentence, the contrast kind or "-") → sentences."""
    counts: collections.Counter = collections.Counter()
    for row in load_ragtruth(data_dir, split="train", limit=limit):
        contrasts = Contrasts([s.text for s in segment_context(row.context)])
        for sentence in segment_answer(row.answer):
            kinds = {g.kind for g in row.labels if g.overlaps(sentence.start, sentence.end)}
            gold = "conflict" if "conflict" in kinds else "baseless" if kinds else "faithful"
            found = contrasts.find(sentence.text)
            counts[(gold, found.kind if found else "-")] += 1
    return counts


def scan_summedits(data_dir, limit: int | None) -> collections.Counter:
    """(the summary is inconsistent, the rule fired on one of its sentences) → summaries."""
    counts: collections.Counter = collections.Counter()
    with open(data_dir / "extra" / "summedits" / "summedits.jsonl", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                break
            row = json.loads(line)
            contrasts = Contrasts([s.text for s in segment_context(row["context"])])
            fired = any(contrasts.find(s.text) for s in segment_answer(row["answer"]))
            counts[(bool(row["hallucinated"]), fired)] += 1
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    data_dir = resolve_data_dir(args.data_dir)
    rag = scan_ragtruth(data_dir, args.limit)
    print("| RAGTruth train sentences | n | called contradicted | by kind |")
    print("|---|---|---|---|")
    for gold in ("faithful", "conflict", "baseless"):
        total = sum(v for (g, _), v in rag.items() if g == gold)
        fired = {k: v for (g, k), v in sorted(rag.items()) if g == gold and k != "-"}
        print(f"| {gold} | {total} | {sum(fired.values())} | {', '.join(f'{k} {v}' for k, v in fired.items()) or '–'} |")
    edits = scan_summedits(data_dir, args.limit)
    print()
    print("| SummEdits summaries | n | called contradicted |")
    print("|---|---|---|")
    for label, bad in (("consistent", False), ("inconsistent", True)):
        print(f"| {label} | {edits[(bad, False)] + edits[(bad, True)]} | {edits[(bad, True)]} |")


if __name__ == "__main__":
    main()
