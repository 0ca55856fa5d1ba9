"""Hugging Face NLI and fact-check models as the judge (``judge="hf:<repo or folder>"``).

``hub`` finds a model's files on this machine and pulls and pins them, ``labels`` reads what its
classes mean, ``encoding`` turns (premise, claim) pairs into its inputs, ``runtime`` runs it on
torch or onnxruntime, ``export`` writes its ONNX graph, ``judge`` turns its probabilities into
verdicts with the trained verifier's machinery, ``toy`` builds random models for tests and timing.
"""

from rt4chart_plugins.judges.hf.judge import HFJudge

__all__ = ["HFJudge"]
