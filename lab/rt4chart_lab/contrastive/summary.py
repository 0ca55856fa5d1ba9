"""``python -m rt4chart_lab.contrastive.summary --data-dir DIR``: counts and examples to eyeball.

Prints a source x label table of the extra-set examples and the edit examples, then a few random
edits per kind beside their originals, because an edit rule that looks right in code can still
read wrong on real text, and reading samples is how that is caught.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from .edits import edit_pairs, kinds
from .example import LABELS, Example
from .extra import extra_examples
from .sources import edit_items


def table(examples: Iterable[Example]) -> str:
    """A plain-text table: one row per source, one column per label, with totals."""
    tally: dict[str, Counter] = defaultdict(Counter)
    for ex in examples:
        tally[ex.source][ex.label] += 1
    width = max([len(s) for s in tally] + [len("total")])
    head = f"{'source':<{width}} " + " ".join(f"{lab:>8}" for lab in LABELS) + f" {'total':>8}"
    lines = [head, "-" * len(head)]
    totals: Counter = Counter()
    for source in sorted(tally):
        row = tally[source]
        totals.update(row)
        lines.append(f"{source:<{width}} " + " ".join(f"{row[lab]:>8}" for lab in LABELS) + f" {sum(row.values()):>8}")
    lines.append("-" * len(head))
    cells = " ".join(f"{totals[lab]:>8}" for lab in LABELS)
    lines.append(f"{'total':<{width}} {cells} {sum(totals.values()):>8}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rt4chart_lab.contrastive.summary", description=__doc__)
    parser.add_argument("--data-dir", type=Path, required=True, help="the shared data folder (ragtruth/, extra/)")
    parser.add_argument("--per-set", type=int, default=None, help="cap examples per extra set")
    parser.add_argument("--limit", type=int, default=None, help="cap edit items")
    parser.add_argument("--per-item", type=int, default=2, help="edits per item")
    parser.add_argument("--show", type=int, default=2, help="examples shown per edit kind")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    extra = extra_examples(args.data_dir, per_set=args.per_set, seed=args.seed)
    t_extra = time.perf_counter() - started
    items = edit_items(args.data_dir, seed=args.seed, limit=args.limit)
    t_items = time.perf_counter() - started - t_extra
    pairs = edit_pairs(items, seed=args.seed, per_item=args.per_item)
    t_edits = time.perf_counter() - started - t_extra - t_items
    print(table(extra + [ex for _, ex in pairs]))
    print(
        f"\n{len(extra)} extra-set examples ({t_extra:.1f}s), {len(items)} edit items ({t_items:.1f}s), "
        f"{len(pairs)} edit examples ({t_edits:.1f}s)"
    )
    by_kind: dict[str, list[tuple[str, Example]]] = defaultdict(list)
    for original, ex in pairs:
        by_kind[ex.source].append((original, ex))
    rng = random.Random(args.seed)
    for kind in kinds():
        shown = by_kind.get(f"edit/{kind.name}", [])
        print(f"\n== edit/{kind.name} ({kind.label}): {len(shown)}")
        for original, ex in rng.sample(shown, min(args.show, len(shown))):
            print(f"  - {original}\n  + {ex.claim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
