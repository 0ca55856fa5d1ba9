"""The acceptance example: verify an answer about a trial policy with the default judge (the
trained verifier: offline, no model download).

Run: .venv/bin/python examples/policy_example.py   (after `bash scripts/demo.sh`)
"""

from pathlib import Path

from rt4chart_plugins import Verifier
from rt4chart_plugins.render import render

HERE = Path(__file__).parent / "policy"

report = Verifier().verify(
    context=(HERE / "context.txt").read_text(),
    answer=(HERE / "answer.txt").read_text(),
)
render(report)  # the auditor's view

# The same, programmatically:
for claim in report.claims:
    quoted = "; ".join(f"[{e.sentence_id}] {e.text}" for e in claim.evidence) or "no evidence"
    print(f"{claim.label}  {claim.text!r}  ← {quoted}")
print("hallucinated:", report.hallucinated, "| score:", round(report.score, 2))
