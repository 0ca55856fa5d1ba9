"""The embedded llama.cpp LLM judge (``judge``), split by job: finding and loading its model
(``loading``), laying out prompts for the KV cache (``prompting``), reading labels off the logits
(``scoring``); and the one loaded model per file and settings that it shares with GASP's scorer
(``shared``)."""

from rt4chart_plugins.judges.llama.judge import LlamaCppJudge

__all__ = ["LlamaCppJudge"]
