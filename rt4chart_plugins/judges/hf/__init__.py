"""Hugging Face NLI and fact-check models as the judge (``judge="hf:<repo or folder>"``).

``labels`` reads what a model's classes mean, ``encoding`` turns (premise, claim) pairs into its
inputs, ``runtime`` runs it on torch or onnxruntime, ``export`` writes its ONNX graph, ``checks``
checks its options when the verifier is built, ``judge`` turns its probabilities into verdicts with
the trained verifier's machinery. Finding, pulling and pinning its files is
:mod:`rt4chart_plugins.models.hf`'s, beside the other models; random models for tests and timing
are the lab's (``rt4chart_lab.hf_toy``).
"""

from rt4chart_plugins.judges.hf.judge import HFJudge

__all__ = ["HFJudge"]
