"""The embedded llama.cpp LLM judge (``judge``) and the one loaded model per file and settings
that it shares with GASP's scorer (``shared``)."""

from rt4chart_plugins.judges.llama.judge import LlamaCppJudge

__all__ = ["LlamaCppJudge"]
