"""Time per answer for answers that split into very many pieces, against a two-sentence context.

An answer of 200 punctuation fragments once took 34 s where 200 normal sentences took 2.4 s
(defect 9 of the reliability issue): every fragment became a claim with its own premise search.
``python tests/reliability/fragments_bench.py`` prints the table quoted in docs/reliability.md, with
the trained verifier (``--judge NAME`` for another). Time is measured here, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from rt4chart_plugins import Verifier

CONTEXT = "The free trial lasts 14 days. Only verified users are eligible."
LIMIT = 1487  # the length of the answer that showed the defect


def answers() -> dict[str, str]:
    rng = random.Random(0)
    return {
        "200 one-word fragments (Yes. No! Ok?)": " ".join(
            rng.choice(["Yes.", "No!", "Ok?", "Hm.", "A.", "B!"]) for _ in range(200)),
        "200 numbered fragments (1. 2. 3.)": " ".join(f"{i}." for i in range(200)),
        "one word between 200 ellipses": " ... ".join(["trial"] * 200)[:LIMIT],
        "punctuation only": ("!?." * 500)[:LIMIT],
        "200 normal sentences": " ".join(["The free trial lasts 14 days."] * 200),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", default="trained")
    parser.add_argument("--repeat", type=int, default=3, help="runs per answer; the median is shown")
    args = parser.parse_args(argv)
    verifier = Verifier(args.judge)
    verifier.prepare()
    print(f"judge {verifier.name}")
    print("| answer | chars | claims | state | median s |")
    print("|---|---:|---:|---|---:|")
    for name, answer in answers().items():
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            report = verifier.verify(context=CONTEXT, answer=answer)
            times.append(time.perf_counter() - started)
        print(f"| {name} | {len(answer)} | {len(report.claims)} | {report.state} | {sorted(times)[len(times) // 2]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
