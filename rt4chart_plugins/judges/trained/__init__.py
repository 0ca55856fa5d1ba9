"""The trained verifier, the offline default judge: a MiniLM cross-encoder shipped in ``artifact/``.

``encoder`` loads and checks the artifact, ``premise`` picks the context sentences it reads for a
claim, ``decision`` turns its logits into probabilities, ``reading`` turns a pair encoder's
probabilities into verdicts (the part the hf judge holds too), ``localize`` finds a flagged claim's
phrase, and ``judge`` is the judge that loads the artifact and reads through its decision.
"""

from rt4chart_plugins.judges.trained.judge import TrainedJudge

__all__ = ["TrainedJudge"]
