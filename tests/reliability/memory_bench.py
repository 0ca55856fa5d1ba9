"""Peak memory and time of one verification against the length of an unpunctuated sentence.

A 3,000-word answer sentence against a 6,000-word context sentence took 3.9 GB and 5.7 s in the
default judge (defect 1 of the outside run): the tokenizer paired every cut-off piece of the claim
with every piece of the premise, although a pair is read at 160 tokens. ``python
tests/reliability/memory_bench.py`` prints the table quoted in docs/reliability.md: each length in a
process of its own (its peak resident memory, ``ru_maxrss``, is that process's alone), the answer one
sentence of N words, the context one of 2N. Memory and time are measured here, never asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

ONE = """
import json, resource, time
from rt4chart_plugins import Verifier
n = {words}
verifier = Verifier({judge!r})
verifier.prepare()
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
report = verifier.verify(context=" ".join(f"w{{i}}" for i in range(2 * n)) + ".",
                         answer=" ".join(f"w{{i}}" for i in range(n)) + ".")
print(json.dumps({{"seconds": time.perf_counter() - started, "loaded": loaded, "state": report.state,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def measure(words: int, judge: str) -> dict:
    done = subprocess.run([sys.executable, "-c", ONE.format(words=words, judge=judge)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="100,300,1000,3000", help="answer sentence lengths, comma-separated")
    parser.add_argument("--judge", default="trained")
    args = parser.parse_args(argv)
    print(f"judge {args.judge}")
    print("| answer words | context words | state | peak MB | of which the loaded judge MB | s |")
    print("|---:|---:|---|---:|---:|---:|")
    for words in (int(w) for w in args.words.split(",")):
        r = measure(words, args.judge)
        print(f"| {words} | {2 * words} | {r['state']} | {r['peak'] / 1024:.0f} | {r['loaded'] / 1024:.0f} "
              f"| {r['seconds']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
