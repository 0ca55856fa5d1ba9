"""The trained verifier, the offline default judge: a MiniLM cross-encoder shipped in ``artifact/``.

``encoder`` loads and checks the artifact, ``premise`` picks the context sentences it reads for a
claim, ``judge`` turns its probabilities into verdicts, ``localize`` finds a flagged claim's phrase.
"""

from rt4chart_plugins.judges.trained.judge import TrainedJudge

__all__ = ["TrainedJudge"]
